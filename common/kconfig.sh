#!/bin/sh
# Configure a kernel object folder in layers: tinyconfig, then each fragment
# in order (merge_config.sh), then olddefconfig.  Kconfig silently drops an
# option whose dependencies are not met, so check that every line asked for
# is in the final .config and name the ones that are not.
#
#   kconfig.sh KERNEL-SOURCE-DIR OBJECT-DIR LOG FRAGMENT...
#   kconfig.sh --key KERNEL-SOURCE-DIR FRAGMENT...   (print the hash below)
#
# With KCONFIG_CACHE (a folder), a configuration once made and checked is
# kept there under a hash of all it is made from: the fragments' contents,
# every Kconfig file of the tree and tinyconfig's own layers, the compiler,
# linker and pahole (Kconfig asks them).  Asked for again, it is copied
# from there: make test's trees moved from lab to lab 17 times, and a
# layering costs 15-20 s of CPU.
set -eu

# config_key KSRC FRAGMENT...
config_key() {
	src=$1
	shift
	{
		for f in "$@"; do echo "== layer"; cat "$f"; done
		(cd "$src" && find . \( -path ./.git -o -path ./obj \) -prune -o \
			\( -name 'Kconfig*' -o -path './kernel/configs/*' -o -path './arch/x86/configs/*' \) \
			-type f -print | LC_ALL=C sort | xargs cat)
		gcc --version | head -n 1
		ld --version | head -n 1
		pahole --version 2>/dev/null || :
	} | sha256sum | cut -c1-40
}
if [ "${1:-}" = --key ]; then
	shift
	config_key "$@"
	exit
fi

ksrc=$1 kobj=$2 log=$3
shift 3
mkdir -p "$kobj" "$(dirname "$log")"
kept=
if [ -n "${KCONFIG_CACHE:-}" ]; then
	kept=$KCONFIG_CACHE/$(config_key "$ksrc" "$@")
	if [ -f "$kept" ]; then
		cp "$kept" "$kobj/.config"
		echo "kconfig: made before, copied from $kept" >"$log"
		echo "config: as made before ($kept)"
		exit 0
	fi
fi
kmake() { make -C "$ksrc" O="$(realpath "$kobj")" ARCH=x86_64 "$@"; }

{
	kmake tinyconfig &&
	"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$kobj" "$kobj/.config" "$@" &&
	kmake olddefconfig
} >"$log" 2>&1 || { tail -n 20 "$log" >&2; echo "kconfig: failed; log: $log" >&2; exit 1; }

# A later layer may undo an earlier one's line: the last word on a symbol counts.
dropped=$(awk '
	FILENAME == cfg { have[$0] = 1; if (/^CONFIG_/) { split($0, kv, "="); set[kv[1]] = 1 }; next }
	/^CONFIG_[A-Za-z0-9_]+=/ { split($0, kv, "="); sym = kv[1] }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { sym = $2 }
	/^CONFIG_[A-Za-z0-9_]+=/ || /^# CONFIG_[A-Za-z0-9_]+ is not set/ {
		if (!(sym in want)) order[++n] = sym
		want[sym] = $0; from[sym] = FILENAME
	}
	END {
		for (i = 1; i <= n; i++) {
			sym = order[i]; line = want[sym]
			if (line ~ /^CONFIG_/ ? !(line in have) : (sym in set))
				printf "  %s  (%s)\n", line, from[sym]
		}
	}
' cfg="$kobj/.config" "$kobj/.config" "$@")
if [ -n "$dropped" ]; then
	echo "kconfig: these options were asked for but are not in $kobj/.config" >&2
	echo "$dropped" >&2
	echo "kconfig: their dependencies are not met; see 'make menuconfig' help for each (log: $log)" >&2
	exit 1
fi
if [ -n "$kept" ]; then
	mkdir -p "$KCONFIG_CACHE"
	cp "$kobj/.config" "$kept.$$" && mv "$kept.$$" "$kept"
fi
