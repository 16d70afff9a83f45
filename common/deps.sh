#!/bin/sh
# Check for the Debian packages the course needs; install what is missing when
# we may (root, or sudo without a password), otherwise print the exact command.
# Costs one dpkg-query call when everything is present.
set -eu

# DEPS_PACKAGES replaces the list (the self-test uses it).
PACKAGES=${DEPS_PACKAGES:-"linux-source qemu-system-x86 busybox-static gdb tmux git
gcc make bc bison flex libelf-dev libssl-dev libc6-dev cpio xz-utils dwarves
lz4 perl python3 python3-ply python3-git sparse ccache gnuplot-nox libxml2-utils parallel rsync python3-yaml
similarity-tester coccinelle"}

installed=" $(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $PACKAGES 2>/dev/null |
	awk '$1 == "ii" { printf "%s ", $2 }')"
missing=
for p in $PACKAGES; do
	case $installed in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

missing=${missing# }
if [ "$(id -u)" -eq 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo=sudo
else
	echo "deps: missing packages: $missing" >&2
	echo "deps: install them with: sudo apt-get install -y $missing" >&2
	exit 1
fi

echo "deps: installing $missing"
log=${DEPS_LOG:-/tmp/kernel-hooks-deps.log}
if ! { $sudo apt-get update && DEBIAN_FRONTEND=noninteractive \
	$sudo apt-get install -y --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -n 15 "$log" >&2
	echo "deps: apt-get failed; full log: $log" >&2
	exit 1
fi
echo "deps: installed (log: $log)"
