#!/bin/sh
# make bench: the labs' costs, measured in the guest, and the course's own
# speed, as tables (and charts) under OUT-DIR.
#
#   bench.sh full|short KERNEL-SOURCE-DIR TREE OUT-DIR REF FRAGMENT...
#
# Builds REF (the last lab's solution: every hook and module of the course)
# in the worktree TREE (TREE/linux, its objects in TREE/linux/obj) with the
# FRAGMENTs and runs common/bench/bench.c in it.  Costs are counted in guest
# instructions (ACCEL=icount: the guest's clock counts them), in several
# boots each, each with the kernel's memory laid out differently, whose
# counts should agree within 1 %; then one ordinary boot on two CPUs times
# the same on the wall clock and runs the fork storm, a race.  It also
# boots with lsm=capability (the LSM loops and the fork costs without
# chrootjail), and "full" builds and boots the tag 'base' (no course code;
# in TREE-base, with the first FRAGMENT only) for the fork costs without
# the hook.  "short" measures little, to prove the chain works (make
# test).  Environment:
# GEN_INIT_CPIO, GUEST_INIT (built by make), QEMU (common/qemu.sh), LOGS
# (where make test keeps its per-test times, for the course's own speed).
set -u

mode=$1 ksrc=$2 tree=$3 out=$4 ref=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
# layouts: how many icount boots of each kernel (cap_layouts: of the labs'
# kernel with lsm=capability), each with its memory laid out differently
# (see measure_icount)
case $mode in
full) args="-r 3 -n 200 -s 10000 -l 1000 -w 40" wall="" layouts=4 cap_layouts=4 ;;
# make test's, on the debug kernel: its module unloads wait 2-8 s each for
# the kobjects (DEBUG_KOBJECT_RELEASE), which an icount boot skips, but not
# the wall clock's: there, no listener curves
short) args="-r 1 -n 10 -s 200 -l 20 -w 1" wall="-o forkcost,workload,storm" layouts=2 cap_layouts=1 ;;
*) echo "bench: say full or short, not '$mode'" >&2; exit 2 ;;
esac
# A reproducible kernel: the same sources give the same image, whose
# version string seeds the kernel's random numbers (a rebuild with a new
# build number and date changed counts that depend on them)
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026' KBUILD_BUILD_VERSION=1 \
	KBUILD_BUILD_USER=bench KBUILD_BUILD_HOST=bench
src=$tree/linux obj=$tree/linux/obj
mkdir -p "$out"
rm -rf "$out/stage" "$out/mod"

step() { echo "bench: $*"; }
give_up() { echo "bench: $1" >&2; exit 1; }

step "kernel: $ref, $(echo "$@" | wc -w) kconfig layers ($mode)"
sh "$here/worktree.sh" "$ksrc" "$src" "$ref" || give_up "no worktree at $ref"
build=incremental
[ -f "$obj/vmlinux" ] || build=cold
start=$(date +%s)
sh "$here/kernel.sh" "$src" "$obj" "$out" "$@" || give_up "the kernel does not build (log: $out/kernel-build.log)"
build_s=$(($(date +%s) - start))

# One-file rebuild: the fork hook, the heart of labs 01-02.  The short
# bench proves the chain, not the figure: it skips this (35 s) and boots
# once instead of three times.
rebuild_ms='' boots_wanted='1 2 3'
if [ "$mode" = full ]; then
	touch "$src/kernel/fork_hook.c"
	start=$(date +%s%N)
	sh "$here/build-kernel.sh" "$src" "$obj" "$out/rebuild.log" >/dev/null ||
		give_up "the rebuild failed (log: $out/rebuild.log)"
	rebuild_ms=$((($(date +%s%N) - start) / 1000000))
else
	boots_wanted=1
fi

step "guest: bench, fork_tally.ko, the kernel's modules"
mkdir -p "$out/stage/bench" "$out/mod"
cat "$obj/modules.order" 2>/dev/null | while read -r ko; do
	cp "$obj/$ko" "$out/stage/"
done
cp "$here/bench/Kbuild" "$here/bench/fork_tally.c" "$out/mod/"
MAKEFLAGS='' make -C "$src" O="$(realpath "$obj")" M="$(realpath "$out/mod")" modules \
	>"$out/modules.log" 2>&1 || give_up "fork_tally.ko does not build (log: $out/modules.log)"
cp "$out/mod/fork_tally.ko" "$out/stage/bench/"
gcc -O2 -Wall -static -pthread -o "$out/stage/bench/bench" "$here/bench/bench.c" \
	>"$out/programs.log" 2>&1 || give_up "bench.c does not compile (log: $out/programs.log)"
sh "$here/initramfs.sh" "$GEN_INIT_CPIO" "$GUEST_INIT" "$out/initramfs.cpio" "$out/stage" ||
	give_up "the initramfs could not be packed"

# Boot time: to the guest's exit after true.
boots=
for _ in $boots_wanted; do
	start=$(date +%s%N)
	$QEMU --timeout 120 --boot-budget 60 --tries 3 --log "$out/boot.log" "$obj/arch/x86/boot/bzImage" \
		"$out/initramfs.cpio" -- true 2>>"$out/qemu.err" || give_up "the guest does not boot (log: $out/boot.log)"
	boots="$boots $((($(date +%s%N) - start) / 1000000))"
done

# measure NAME ACCEL BZIMAGE BENCH-ARG...: one boot running the bench, its
# samples in OUT-DIR/results-NAME.txt
measure() {
	name=$1 accel=$2 bzimage=$3
	shift 3
	step "guest: $name ($*)"
	smp=2
	[ "$accel" != icount ] || smp=1
	# shellcheck disable=SC2086
	ACCEL=$accel SMP=$smp $QEMU --timeout 3000 --boot-budget 120 --tries 3 --log "$out/console-$name.log" \
		--results "$out/results-$name.txt" "$bzimage" "$out/initramfs.cpio" \
		-- /lab/bench/bench "$@" 2>>"$out/qemu.err" ||
		give_up "the $name run failed (log: $out/console-$name.log)"
}
# measure_icount KIND LAYOUTS BZIMAGE BENCH-ARG...: LAYOUTS icount boots,
# results-icount-KIND-N.txt, two at a time (each counts its own guest's
# instructions: they cannot disturb each other).  Boot N's command line
# carries an ignored parameter N*8 characters long: everything the kernel
# allocates after it lands elsewhere, and counts that depend on where
# (hash chains, page boundaries) show it.  The same N gives the same counts.
measure_icount() {
	kind=$1 count=$2 bzimage=$3
	shift 3
	n=1 pids=
	while [ "$n" -le "$count" ]; do
		APPEND="${APPEND:+$APPEND }bench.layout=$(printf "%0$((8 * n))d" 0)" \
			measure "icount-$kind-$n" icount "$bzimage" "$@" &
		pids="$pids $!"
		if [ $((n % 2)) = 0 ] || [ "$n" = "$count" ]; then
			for pid in $pids; do
				wait "$pid" || give_up "an icount boot of $kind failed (logs: $out/console-icount-$kind-*.log)"
			done
			pids=
		fi
		n=$((n + 1))
	done
}
# the last run's samples, for bench.py to say whether this one agrees
if ls "$out"/results-icount-*.txt >/dev/null 2>&1; then
	rm -rf "$out/previous"
	mkdir -p "$out/previous"
	mv "$out"/results-*.txt "$out/previous/"
fi
bz=$obj/arch/x86/boot/bzImage
# shellcheck disable=SC2086
measure_icount jail "$layouts" "$bz" -o forkcost,growth,workload,lsm $args
# shellcheck disable=SC2086
APPEND=lsm=capability measure_icount nolsm "$cap_layouts" "$bz" -o lsm,forkcost,workload $args
# The wall clock: under TCG, qemu.sh tells the guest its TSC's rate
# (the host's), else the kernel would count in 4 ms jiffies.
# shellcheck disable=SC2086
measure wall "${ACCEL:-auto}" "$bz" $wall $args
if [ "$mode" = full ]; then
	step "kernel: base, without the course's code"
	sh "$here/worktree.sh" "$ksrc" "$tree-base/linux" base || give_up "no worktree at base"
	sh "$here/kernel.sh" "$tree-base/linux" "$tree-base/linux/obj" "$out/base" "$1" ||
		give_up "the base kernel does not build (log: $out/base/kernel-build.log)"
	# shellcheck disable=SC2086
	measure_icount base "$layouts" "$tree-base/linux/obj/arch/x86/boot/bzImage" -b $args
fi

{
	echo "build_s_$build $build_s"
	[ -z "$rebuild_ms" ] || echo "rebuild_ms $rebuild_ms"
	for b in $boots; do echo "boot_ms $b"; done
} >"$out/host.txt"
python3 "$here/bench.py" "$out" "${LOGS:-build/logs}" "$mode" || give_up "bench.py failed"
