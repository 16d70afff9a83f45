#!/bin/sh
# Build a configured kernel object folder (bzImage, modules, vmlinux-gdb.py).
# The full kbuild output goes to a log; the terminal gets a progress line
# per hundred compiled files (with the share done and an ETA once an earlier
# build in OBJECT-DIR told how many files a full one compiles), and the
# errors with the log's path on failure.
#
#   build-kernel.sh KERNEL-SOURCE-DIR OBJECT-DIR LOG [MAKE-TARGET...]
set -eu

ksrc=$1 kobj=$(realpath -m "$2") log=$3
shift 3
mkdir -p "$(dirname "$log")"
cc=gcc
if command -v ccache >/dev/null 2>&1; then
	cc="ccache gcc"
	# Paths relative to the tree's parent, so that the student's tree, the
	# grading and the self-test worktrees (all DIR/linux + DIR/obj) share
	# objects where their sources and configuration are the same.
	CCACHE_BASEDIR=$(dirname "$(realpath "$ksrc")")
	CCACHE_NOHASHDIR=true
	export CCACHE_BASEDIR CCACHE_NOHASHDIR
fi
start=$(date +%s)
# the most files one build of this folder compiled: a cold build's count
total=$(cat "$kobj/.build-files" 2>/dev/null || echo 0)

progress() {
	n=0
	while IFS= read -r line; do
		case $line in
		"  CC "*)
			n=$((n + 1))
			[ $((n % 100)) -eq 0 ] || continue
			t=$(($(date +%s) - start))
			if [ "$total" -gt "$n" ]; then
				eta=$((t * (total - n) / n))
				echo "kernel: $n of ~$total files compiled ($((100 * n / total))%), $t s, about $((eta / 60)) min $((eta % 60)) s to go"
			else
				echo "kernel: $n files compiled, $t s"
			fi
			;;
		esac
	done
	[ "$n" -le "$total" ] || echo "$n" >"$kobj/.build-files"
}

# Two definitions of 6.1's kbuild, given as later upstream kernels define
# them, so that a build with little to do costs less: make test makes some
# 60 such builds, and kbuild's walk of the tree is most of each (a built lab
# tree with nothing to do, three runs each: 14.6 s of CPU, 9.8 with these).
#  - cmd: 6.1 starts a shell for every $(call cmd,...) of every object on
#    every walk, an empty command too ("set -e; trap ...;"): some 730
#    shells.  Later kernels run ':' for an empty one.
#  - PAHOLE_FLAGS, recursively expanded and exported: pahole-flags.sh and
#    pahole ran 25 times a walk.  Only BTF (CONFIG_DEBUG_INFO_BTF, which a
#    course kernel leaves off) uses them.
# shellcheck disable=SC2016
kbuild_cmd='@$(if $(cmd_$(1)),set -e; $(echo-cmd) $($(quiet)redirect) $(delete-on-interrupt) $(cmd_$(1)),:)'

# MAKEFLAGS is cleared so that a "make -s" above us does not hide the CC lines.
# make's status crosses the pipe in a file; a failed build must never leave
# an older bzImage looking current, so it is removed first.
mkdir -p "$kobj"
rm -f "$kobj/arch/x86/boot/bzImage"
echo unknown >"$kobj/.build-status"
{ MAKEFLAGS='' make -C "$ksrc" O="$kobj" ARCH=x86_64 CC="$cc" cmd="$kbuild_cmd" PAHOLE_FLAGS= \
	-j"$(($(nproc) + 1))" "${@:-all}" 2>&1; echo $? >"$kobj/.build-status"; } |
	tee "$log" | progress >&2
status=$(cat "$kobj/.build-status")
if [ "$status" != 0 ]; then
	if grep -q -E ': (error|fatal error):|\*\*\*' "$log"; then
		grep -E ': (error|fatal error):|\*\*\*' "$log" | head -n 20 >&2
	else
		tail -n 20 "$log" >&2
	fi
	echo "kernel: build failed; full log: $log" >&2
	exit 1
fi
echo "kernel: $(cat "$kobj/include/config/kernel.release") ready ($(($(date +%s) - start)) s, log: $log)"
