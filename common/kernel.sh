#!/bin/sh
# Configure (when the layers changed) and build one kernel object folder.
#
#   kernel.sh KERNEL-SOURCE-DIR OBJECT-DIR LOG-DIR FRAGMENT...
#
# The layers are tinyconfig then each FRAGMENT in order; their names and
# contents are remembered in OBJECT-DIR, so the configuration is redone only
# when they change.
set -eu

ksrc=$1 kobj=$2 logs=$3
shift 3
here=$(dirname "$0")
. "$here/lock.sh"
LOCK_WHO=kernel hold_lock "$ksrc"
stamp=$kobj/.course-config
want=$(for f in "$@"; do echo "== $f"; cat "$f"; done)
if [ ! -f "$kobj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	echo "config: tinyconfig + $*"
	sh "$here/kconfig.sh" "$ksrc" "$kobj" "$logs/kconfig.log" "$@"
	printf '%s\n' "$want" >"$stamp"
fi
sh "$here/build-kernel.sh" "$ksrc" "$kobj" "$logs/kernel-build.log"
