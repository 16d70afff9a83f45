#!/bin/sh
# Grade one lab on one kernel tree: build the kernel and the lab's modules,
# tests and exercise programs, boot them, score what the guest reports.
#
#   check.sh LAB-DIR KERNEL-SOURCE-DIR OBJECT-DIR OUT-DIR FRAGMENT...
#
# Environment: GEN_INIT_CPIO, GUEST_INIT, RUN_TESTS (built by make);
# KERNEL_BUILT=1 skips the kernel build, STAGE_ONLY=1 stops once OUT-DIR/stage
# holds what /lab needs (make run uses that); ONLY_TESTS="TEST..." runs just
# those tests, and the health test if it is one of them, "kernel-health"
# (make test uses that for planted bugs: kmemleak's scans take 20 s);
# CHECK_T="WORD..." (make check-labN T=...) does the same with short names: a
# test whose name is WORD or ends in ".WORD", "health" for kernel-health;
# CHECK_FAILFAST=1 (make check-labN FAILFAST=1; mutation runs) stops the
# run at its first failing test: the rest are "not run", kmemleak skipped;
# CHECK_PROFILE=1 (make profile-labN) times the guest's steps too: the
# host's time of each results line (stamps) and each module load/unload.
# OUT-DIR/steps.tsv: the host's seconds for each step of the run.
# OUT-DIR receives the logs, console.log, results.tap, the failing tests'
# output, summary.tsv ("score max failed-tests health"), and the verdicts
# as JUnit XML (results.xml) and Gradescope JSON (results.json).
# A run that fails for a reason that is not the lab code's (a guest that
# does not boot in three tries, QEMU failing, a full disk, a build that
# fails in a file the hand-in does not change: HANDIN_FILES lists the files
# it changes) is not graded: summary.tsv says "- max not-graded REASON".
# Exit status 0 only at full score; 3 when not graded.
set -u

labdir=$1 ksrc=$2 kobj=$3 out=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
lab=$(basename "$labdir")
# One command at a time builds in a tree (common/lock.sh)
. "$here/lock.sh"
LOCK_WHO=check hold_lock "$ksrc"
conf=$labdir/tests.conf
mkdir -p "$out"
graded=$(awk '!/^#/ && NF' "$conf" | wc -l)
if [ -n "${CHECK_T:-}" ]; then
	ONLY_TESTS=
	for w in $CHECK_T; do
		[ "$w" != health ] || w=kernel-health
		found=$(awk -v w="$w" '!/^#/ && NF { n = $1 == "health" ? "kernel-health" : $2
			if (n == w || substr(n, length(n) - length(w)) == "." w) print n }' "$conf")
		[ -n "$found" ] || {
			echo "check: no test '$w' in $conf; its tests are:" $(awk '!/^#/ && NF && $1 != "health" { sub(/^[^.]*\./, "", $2); print $2 }' "$conf") health >&2
			exit 2
		}
		ONLY_TESTS="$ONLY_TESTS $found"
	done
fi
if [ -n "${ONLY_TESTS:-}" ]; then
	awk -v only=" $ONLY_TESTS " '/^#/ || !NF || index(only, " " ($1 == "health" ? "kernel-health" : $2) " ")' \
		"$conf" >"$out/tests.conf"
	conf=$out/tests.conf
fi
max=$(awk '!/^#/ && NF { s += $3 } END { print s + 0 }' "$conf")
mkdir -p "$out"
stage=$out/stage
rm -rf "$stage" "$out/mod" "$out/failures" "$out/programs.log" "$out/results.xml" "$out/results.json"

# give_up REASON: score 0 without booting (the tree does not build)
give_up() {
	echo "check: $lab: $1"
	echo "Score: 0/$max"
	echo "0 passed, $(grep -c '^[a-z]' "$conf") failed"
	printf '0\t%s\t%s\t%s\n' "$max" "all" "$1" >"$out/summary.tsv"
	python3 "$here/grade.py" "$conf" "$out/none" "$out/none" 252 "$out/failures" --reason "$1" \
		--suite "$lab" --junit "$out/results.xml" --json "$out/results.json" >/dev/null
	exit 1
}

# not_graded REASON: no score at all: the run failed for a reason that
# is not the lab code's.  Grading again (a batch's rerun does) may succeed.
not_graded() {
	printf -- '-\t%s\tnot-graded\t%s\n' "$max" "$1" >"$out/summary.tsv"
	python3 "$here/grade.py" "$conf" "$out/none" "$out/none" 252 "$out/failures" --not-graded "$1" \
		--suite "$lab" --junit "$out/results.xml" --json "$out/results.json"
	echo "check: $lab: not the lab code's doing, so no score is given: grade it again"
	exit 3
}

# A full disk fails a build or a boot anywhere: say so, before either.
free_mb=$(df -Pk "$(dirname "$(realpath -m "$kobj")")" | awk 'NR == 2 { print int($4 / 1024) }')
[ "${free_mb:-0}" -ge "${CHECK_MIN_DISK_MB:-1024}" ] ||
	not_graded "the disk is full: ${free_mb:-0} MB free for $kobj (${CHECK_MIN_DISK_MB:-1024} MB needed)"

# step NAME: the host's seconds since the last step, into steps.tsv
: >"$out/steps.tsv"
mark=${GRADE_STARTED:-$(date +%s.%N)}
step() {
	now=$(date +%s.%N)
	awk -v a="$mark" -v b="$now" -v s="$1" 'BEGIN { printf "%s\t%.1f\n", s, b - a }' >>"$out/steps.tsv"
	mark=$now
}
[ -z "${GRADE_STARTED:-}" ] || step "tree reset, hand-in applied (grade.sh)"

if [ "${KERNEL_BUILT:-0}" = 0 ] && ! sh "$here/kernel.sh" "$ksrc" "$kobj" "$out" "$@"; then
	why=$(sh "$here/build-failure.sh" "$out/kernel-build.log")
	[ -z "$why" ] || not_graded "$why"
	give_up "the kernel does not build (log: $out/kernel-build.log)"
fi

step "kernel build"

# The kernel's own modules (a lab's =m code), then the modules named in the
# lab's tests/Kbuild, built against this kernel.
mkdir -p "$stage/tests"
cat "$kobj/modules.order" 2>/dev/null | while read -r ko; do
	cp "$kobj/$ko" "$stage/"
done
# A test module build (M=) costs 4-5 s of CPU, in every graded run of labs
# 01-02, and the modules seldom change: a build is kept in OBJECT-DIR/.mods/LAB
# with the list of the kernel's files it was made from (kbuild's dependency
# lists in its .cmd files: the headers it includes), and is used again while
# the lab's tests/ folder, those files, the kernel's configuration,
# Module.symvers and Makefile hash the same.
made_from() {
	{
		(cd "$labdir/tests" && find . -type f | LC_ALL=C sort | xargs sha256sum)
		# shellcheck disable=SC2046
		(cd "$kobj" && cat include/config/auto.conf Module.symvers "$ksrc_abs/Makefile" $(cat "$1") 2>&1)
	} | sha256sum | cut -c1-40
}
modsrc=$(sed -n 's/^obj-m *[:+]*= *//p' "$labdir/tests/Kbuild" 2>/dev/null | tr ' ' '\n' | sed -n 's/\.o$/.c/p')
if [ -n "$modsrc" ]; then
	kept=$(realpath "$kobj")/.mods/$lab ksrc_abs=$(realpath "$ksrc")
	if [ -f "$kept/sum" ] && [ "$(made_from "$kept/inputs")" = "$(cat "$kept/sum")" ]; then
		echo "check: the test modules in $kept, made from the same files" >"$out/modules.log"
	else
		cp -r "$labdir/tests" "$out/mod"
		MAKEFLAGS='' make -C "$ksrc" O="$(realpath "$kobj")" M="$(realpath "$out/mod")" \
			W=1 modules >"$out/modules.log" 2>&1 ||
			give_up "the lab's test module does not build against this kernel (log: $out/modules.log)"
		rm -rf "$kept"
		mkdir -p "$kept"
		sed -n 's/^  \([^ $][^ ]*\) *\\\{0,1\}$/\1/p' "$out/mod"/.*.cmd | grep -v "^$(realpath "$out/mod")/" |
			LC_ALL=C sort -u >"$kept/inputs"
		cp "$out/mod"/*.ko "$kept/"
		made_from "$kept/inputs" >"$kept/sum"
	fi
	cp "$kept"/*.ko "$stage/"
fi

step "test modules"

# Test programs (the other tests/*.c) and the tree's exercise programs.
# Every graded run boots, and each MB of initramfs costs the boot about
# 0.15 s (a base boot with 4 MB more: 6.4 s -> 7.0 s to /init, 4 Dec):
# what goes in is stripped (the modules' DWARF stays on the host, where
# gdb's lx-symbols reads it).
strip --strip-debug "$stage"/*.ko 2>/dev/null
cflags="-O2 -Wall -s -static -pthread -I$here/guest -I$ksrc/tools/testing/selftests"
# compile SRC DEST: a static link takes a second or two, and every graded
# run needs every program, most of them unchanged since the last run: the
# binaries are kept in OBJECT-DIR/.progs, named by a hash of what they
# are made of (the source as preprocessed: every header it includes, from
# wherever, e.g. lab 04's tests include lab 03's jail.h; and the flags).
compile() {
	# shellcheck disable=SC2086
	key=$({ gcc $cflags -E "$1" 2>&1; echo "$cflags"; } | sha256sum | cut -c1-40)
	if [ ! -x "$kobj/.progs/$key" ]; then
		mkdir -p "$kobj/.progs"
		# shellcheck disable=SC2086
		gcc $cflags -o "$kobj/.progs/$key.new" "$1" >>"$out/programs.log" 2>&1 || return 1
		mv "$kobj/.progs/$key.new" "$kobj/.progs/$key"
	fi
	cp "$kobj/.progs/$key" "$2"
}
for src in "$labdir"/tests/*.c "$ksrc/tools/labs/$lab"/*.c; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .c)
	case " $(echo $modsrc) " in *" $name.c "*) continue ;; esac
	case $src in "$labdir"/tests/*) dest=$stage/tests/$name ;; *) dest=$stage/$name ;; esac
	compile "$src" "$dest" || give_up "$src does not compile (log: $out/programs.log)"
done
# Another lab's tests this lab grades too (BINARY "LAB/NAME" in tests.conf:
# lab 04 changes lab 03's module, whose rules must still hold), with the
# exercise programs of that lab they run.
for borrowed in $(awk '!/^#/ && $1 ~ /\// { print $1 }' "$conf" | sort -u); do
	from=$(dirname "$labdir")/${borrowed%/*}
	mkdir -p "$stage/tests/${borrowed%/*}"
	compile "$from/tests/${borrowed#*/}.c" "$stage/tests/$borrowed" ||
		give_up "$from/tests/${borrowed#*/}.c does not compile (log: $out/programs.log)"
	for src in "$ksrc/tools/labs/${borrowed%/*}"/*.c; do
		[ ! -f "$src" ] || compile "$src" "$stage/$(basename "$src" .c)" ||
			give_up "$src does not compile (log: $out/programs.log)"
	done
done
cp "$conf" "$stage/tests/tests.conf"
cp "$RUN_TESTS" "$stage/run-tests"
# This run's token: run-tests puts it on every results line, and grade.py
# ignores the lines without it (see common/guest/run-tests.c).
token=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
echo "$token" >"$stage/token"
step "test programs"
[ "${CHECK_FAILFAST:-0}" = 0 ] || : >"$stage/failfast"
if [ "${CHECK_PROFILE:-0}" = 0 ]; then CHECK_PROFILE=; else : >"$stage/profile"; fi
[ "${STAGE_ONLY:-0}" = 0 ] || exit 0

sh "$here/initramfs.sh" "$GEN_INIT_CPIO" "$GUEST_INIT" "$out/initramfs.cpio" "$stage" ||
	give_up "the initramfs could not be packed"
step "initramfs"

# The whole run may take every test's timeout, plus boot and kmemleak.  A
# guest that has not started /init within the boot budget is killed and
# booted again, twice at most, as is one whose QEMU failed: neither is the
# lab code's doing (a panic or a hang at boot is, and is graded).
budget=$(awk '!/^#/ && $4 ~ /^[0-9]+$/ { s += $4 } END { print s + 120 }' "$conf")
# (CHECK_BUDGET: a shorter one, for mutants: one that hangs the kernel
# would otherwise hold its lane for every test's timeout)
budget=${CHECK_BUDGET:-$budget}
boot_budget=${BOOT_BUDGET:-120}
ACCEL=${ACCEL:-grade} sh "$here/qemu.sh" --timeout "$budget" --boot-budget "$boot_budget" --tries 3 \
	--log "$out/console.log" --results "$out/results.tap" ${CHECK_PROFILE:+--stamps "$out/stamps"} \
	"$kobj/arch/x86/boot/bzImage" "$out/initramfs.cpio" -- /lab/run-tests /lab/tests/tests.conf 2>"$out/qemu.err"
status=$?
[ ! -s "$out/qemu.err" ] || sed 's/^/check: /' "$out/qemu.err"
case $status in
252) not_graded "QEMU failed in 3 tries (console logs: $out/console.log*)" ;;
253) not_graded "the guest did not reach /init in 3 boots of $boot_budget s (console logs: $out/console.log*)" ;;
esac
step "boot, tests, shutdown"
python3 "$here/grade.py" "$conf" "$out/results.tap" "$out/console.log" "$status" "$out/failures" \
	--summary "$out/summary.tsv" --hz "$(sed -n 's/^CONFIG_HZ=//p' "$kobj/.config")" --of "$graded" \
	--token "$token" --suite "$lab" --junit "$out/results.xml" --json "$out/results.json"
