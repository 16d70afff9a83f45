#!/bin/sh
# Boot a course kernel and initramfs in QEMU and report how the guest ended.
#
#   qemu.sh [options] BZIMAGE INITRAMFS [-- COMMAND [ARG...]]
#
# Without COMMAND the guest opens a shell on the console; with one, the
# guest's /init runs it and the machine ends with its exit status.
#   --interactive    console on this terminal (Ctrl-A X quits QEMU)
#   --timeout S      kill a guest still running after S seconds (0: never)
#   --log FILE       console log (default build/logs/console.log)
#   --results FILE   second serial port (guest /dev/ttyS1) into FILE
#   --gdb PORT       gdbstub on 127.0.0.1:PORT, CPU stopped until gdb continues
#   --boot-budget S  kill a guest whose /init has not started within S seconds
#   --tries N        boot again a guest killed at the boot budget, or whose
#                    QEMU failed, N boots in all (default 1)
#   --stamps FILE    each --results line into FILE too, after the host's time
#                    of its arrival (make profile-labN)
# Environment: ACCEL=auto|grade|kvm|tcg|icount|tcg-measuring, MEM (256M), SMP (2), APPEND
# (extra kernel parameters), QEMU_EXTRA (extra QEMU options: make test's
# "-S" is a guest that never boots), ACCEL_CACHE (where the KVM probe
# result is kept).
# ACCEL=icount: TCG on one CPU with the guest's clock counting its
# instructions, one nanosecond each (make bench's costs).
#
# Exit status: the guest's (0-127; a reboot counts as 0), 250 if the guest
# kernel panicked, 251 if it was killed at the timeout, 252 if QEMU failed,
# 253 if it did not reach /init within the boot budget.
set -eu

interactive=0 timeout=0 log=build/logs/console.log results='' gdb_port='' boot_budget=0 stamps='' tries=1
while [ $# -gt 0 ]; do
	case $1 in
	--interactive) interactive=1 ;;
	--timeout) timeout=$2; shift ;;
	--log) log=$2; shift ;;
	--results) results=$2; shift ;;
	--gdb) gdb_port=$2; shift ;;
	--boot-budget) boot_budget=$2; shift ;;
	--tries) tries=$2; shift ;;
	--stamps) stamps=$2; shift ;;
	-*) echo "qemu: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
for n in "$timeout" "$boot_budget" "$tries"; do
	case $n in '' | *[!0-9]*) echo "qemu: --timeout, --boot-budget and --tries take a number of seconds or boots, not '$n'" >&2; exit 2 ;; esac
done
[ "$tries" -ge 1 ] || { echo "qemu: --tries takes 1 or more" >&2; exit 2; }
[ $# -ge 2 ] || { echo "usage: qemu.sh [options] BZIMAGE INITRAMFS [-- COMMAND...]" >&2; exit 2; }
kernel=$1 initrd=$2
shift 2
[ "${1:-}" != -- ] || shift
for f in "$kernel" "$initrd"; do
	[ -r "$f" ] || { echo "qemu: $f not found: run 'make kernel'" >&2; exit 2; }
done

# The kernel hands the words after "--" to /init, which runs what follows
# its "--run" marker; quote the words with spaces.
cmdline="console=ttyS0 nokaslr panic=-1 ${APPEND:-}"
if [ $# -gt 0 ]; then
	cmdline="$cmdline -- --run"
	for arg in "$@"; do
		case $arg in
		*\"*) echo "qemu: a guest command cannot contain double quotes: $arg" >&2; exit 2 ;;
		*" "*) cmdline="$cmdline \"$arg\"" ;;
		*) cmdline="$cmdline $arg" ;;
		esac
	done
fi

# tcg_clocks BZIMAGE: the kernel parameters that tell a TCG guest its
# clocks' rates, so that it never measures them.  Under TCG the guest's TSC
# is the host's, and a guest measures it, and its local APIC timer, against
# the PIT's ticks, which a host that deschedules QEMU's thread delays: on a
# loaded host the calibrations failed ("tsc: Unable to calibrate against
# PIT", "APIC timer disabled due to verification failure") and some boots
# then hung.  Given the TSC's rate (measured on the host once, kept beside
# the accelerator's cache), the kernel takes it (tsc_early_khz), trusts the
# TSC as its clock (tsc=reliable: no watchdog, no check that two CPUs'
# TSCs agree, which under TCG they do), calibrates the APIC timer against
# it, and lpj= skips each CPU's delay-loop calibration.
tcg_clocks() {
	khz_file=$(dirname "${ACCEL_CACHE:-build/accel}")/tsc-khz
	if [ ! -s "$khz_file" ]; then
		mkdir -p "$(dirname "$khz_file")"
		tool=$(mktemp) new=$(mktemp "$khz_file.XXXXXX")
		gcc -O2 -o "$tool" "$(dirname "$0")/tsc_khz.c" && "$tool" >"$new" && mv "$new" "$khz_file"
		rm -f "$tool" "$new"
	fi
	khz=$(cat "$khz_file" 2>/dev/null) || return 0
	# the kernel's HZ, from the configuration beside its objects
	hz=$(sed -n 's/^CONFIG_HZ=//p' "$(dirname "$1")/../../../.config" 2>/dev/null)
	echo "tsc_early_khz=$khz tsc=reliable${hz:+ lpj=$((khz * 1000 / hz))}"
}

accel=${ACCEL:-auto}
# ACCEL=grade (common/check.sh's graded runs): KVM where the probe below
# passed, else TCG with icount, where the guest's clocks follow its own
# instructions and never the host's: a loaded host then cannot make its
# boot-time calibrations fail.  Measured with common/soak.sh, 60 boots
# beside two kernel builds (load 7.5 on two cores): TCG with the guest
# measuring its clocks lost the TSC's calibration in 20 of 20 boots and
# the APIC timer's in 18, and one boot hung before /init; TCG with the
# rates given (below) lost the APIC timer's in 3 of 20 (it is still
# checked against the PIT); icount lost none.  One CPU only: with two,
# icount hangs bringing up the second (QEMU 7.2).
grade=0
[ "$accel" != grade ] || { grade=1 accel=auto; }
if [ "$accel" = auto ]; then
	# KVM only when it has been seen to boot this kernel: on some hosts
	# /dev/kvm exists but a guest aborts or hangs.  The probe runs once.
	cache=${ACCEL_CACHE:-build/accel}
	if [ ! -s "$cache" ]; then
		mkdir -p "$(dirname "$cache")" "$(dirname "$log")"
		accel=tcg
		if [ -w /dev/kvm ] && ACCEL=kvm "$0" --timeout 20 --log "$log.kvm-probe" \
			"$kernel" "$initrd" -- true >/dev/null 2>&1; then
			accel=kvm
		fi
		echo "$accel" >"$cache"
		echo "qemu: accelerator $accel (KVM probe: $log.kvm-probe; 'rm $cache' to probe again)" >&2
	fi
	accel=$(cat "$cache")
	# 4 ns an instruction: a boot reaches /init in 7.1 s (1 ns: 11.9 s,
	# its spin-waits' instructions being 4 times as many; TCG: 5.4 s), and
	# the guest's time runs about as fast as the host's while busy, as
	# the tests' timeouts assume; idle time costs nothing.
	[ "$grade" = 0 ] || [ "$accel" != tcg ] || { accel=icount ICOUNT_SHIFT=${ICOUNT_SHIFT:-2}; }
fi
case $accel in
kvm) accel_opts="-accel kvm -cpu host" ;;
tcg)
	accel_opts="-accel tcg,thread=single"
	cmdline="$(tcg_clocks "$kernel") $cmdline" ;;
tcg-measuring)
	# TCG with the guest measuring its clocks, as before 5 Dec 2026: kept
	# to show what that costs on a loaded host (common/soak.sh)
	accel_opts="-accel tcg,thread=single" ;;
icount)
	# sleep=off: an idle CPU's clock jumps to the next timer instead of
	# following the host's.  One CPU: with two, this boot hung at the
	# second's bring-up (QEMU 7.2), and one clock per CPU would not add up.
	[ "${SMP:-1}" = 1 ] || { echo "qemu: ACCEL=icount runs one CPU: unset SMP or make it 1" >&2; exit 2; }
	# The guest's TSC then ticks once per instruction: at 1 GHz, told to
	# the kernel, it is the clock clock_gettime() reads, to the
	# instruction.  norandmaps: where a program's stack and mappings fall
	# changes how many page tables a fork copies (two boots' fork costs
	# were 2 % apart).  A fixed RTC that follows the instruction clock:
	# with the host's time, two boots differed by up to 3 % on some calls;
	# with it, make bench's boots print the same counts to the last digit.
	# ICOUNT_SHIFT: 2^N ns an instruction (make bench's 0: the clock counts
	# instructions); the TSC ticks once a nanosecond of that clock.
	SMP=1
	accel_opts="-accel tcg,thread=single -icount shift=${ICOUNT_SHIFT:-0},sleep=off -rtc base=2026-01-01T00:00:00,clock=vm"
	cmdline="tsc_early_khz=1000000 tsc=reliable norandmaps $cmdline" ;;
*) echo "qemu: ACCEL must be auto, grade, kvm, tcg, icount or tcg-measuring, not '$accel'" >&2; exit 2 ;;
esac

# qboot, not SeaBIOS: its MP table lists every CPU, and the course kernel
# has no ACPI to find them (common/kconfig/base.config)
firmware="-bios qboot.rom"

if [ "$interactive" = 1 ]; then
	console="-chardev stdio,id=con,mux=on,signal=off,logfile=$log -mon chardev=con"
else
	console="-chardev file,id=con,path=$log"
fi
extra=
[ -z "$results" ] || extra="-serial file:$results"
[ -z "$gdb_port" ] || extra="$extra -S -gdb tcp:127.0.0.1:$gdb_port"
extra="$extra ${QEMU_EXTRA:-}"
# (a guest stopped for gdb boots when gdb says so: no budget then)
[ -z "$gdb_port" ] || boot_budget=0
[ "$timeout" -gt 0 ] || timeout=86400

# 256 MB: 158 MB of it is free once booted, labs 02 and 03 score full marks
# in it, and kmemleak's scan, which the health test runs twice, walks every
# page's struct page: 5.4-5.7 s per scan under TCG with 512 MB, 4.1 s with 256.
mem=${MEM:-256M}
stderr=$log.qemu-stderr
unbooted=$log.unbooted
pidfile=$log.pid

# watchdog [PID]: the boot budget, a deadline and not a wait: it returns as
# soon as /init's banner is on the console or QEMU (or PID, which runs it)
# has ended, and past the deadline kills QEMU and leaves $unbooted behind.
watchdog() {
	[ "$boot_budget" -gt 0 ] || return 0
	deadline=$(($(date +%s) + boot_budget))
	while [ ! -s "$pidfile" ] && [ "$(date +%s)" -lt "$deadline" ]; do
		[ -z "${1:-}" ] || kill -0 "$1" 2>/dev/null || return 0
		sleep 0.2
	done
	qemu_pid=$(cat "$pidfile" 2>/dev/null) || return 0
	while kill -0 "$qemu_pid" 2>/dev/null && ! grep -q -a '=== kernel-hooks lab: ' "$log"; do
		if [ "$(date +%s)" -ge "$deadline" ]; then
			: >"$unbooted"
			kill "$qemu_pid" 2>/dev/null
			return 0
		fi
		sleep 0.5
	done
}

# boot: one run of the guest; its status as the header says
boot() {
	: >"$log"
	[ -z "$results" ] || : >"$results"
	rm -f "$unbooted" "$pidfile"
	set +e
	if [ "$interactive" = 1 ]; then
		watchdog &
		wpid=$!
		# shellcheck disable=SC2086 # the option strings are meant to split
		qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot \
			$firmware $accel_opts -m "$mem" -smp "${SMP:-2}" \
			-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
			$console -serial chardev:con $extra -pidfile "$pidfile" \
			-kernel "$kernel" -initrd "$initrd" -append "$cmdline" 2>"$stderr"
		rc=$?
		kill "$wpid" 2>/dev/null
		wait "$wpid"
	else
		# shellcheck disable=SC2086 # the option strings are meant to split
		timeout -k 5 "$timeout" qemu-system-x86_64 -nodefaults -no-user-config \
			-display none -no-reboot $firmware $accel_opts -m "$mem" -smp "${SMP:-2}" \
			-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
			$console -serial chardev:con $extra -pidfile "$pidfile" \
			-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
			</dev/null 2>"$stderr" &
		qpid=$!
		trap 'kill "$qpid" 2>/dev/null; exit 130' INT TERM HUP
		if [ -n "$stamps" ] && [ -n "$results" ]; then
			echo "$(date +%s.%N) # qemu started" >"$stamps"
			# GNU tail follows with inotify: a line is stamped as it arrives
			tail --pid="$qpid" -n +1 -f "$results" | while IFS= read -r line; do
				echo "$(date +%s.%N) $line"
			done >>"$stamps" &
			spid=$!
		fi
		watchdog "$qpid"
		wait "$qpid"
		rc=$?
		# (tail notices QEMU's end within a second: the time is taken now)
		[ -z "${spid:-}" ] || { ended=$(date +%s.%N); wait "$spid"; echo "$ended # qemu ended" >>"$stamps"; }
	fi
	set -e
	rm -f "$pidfile"

	panic=$(grep -m1 -a 'Kernel panic - not syncing' "$log" || true)
	if [ -e "$unbooted" ]; then
		rm -f "$unbooted"
		echo "qemu: the guest did not reach /init within $boot_budget s: killed (console log: $log)" >&2
		return 253
	elif [ "$interactive" = 0 ] && { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; }; then
		echo "qemu: guest hung: killed after $timeout s (console log: $log)" >&2
		return 251
	elif [ -n "$panic" ]; then
		echo "qemu: guest kernel panic: ${panic#*not syncing: } (console log: $log)" >&2
		return 250
	elif [ $((rc % 2)) -eq 1 ] && grep -q -a '=== kernel-hooks lab: ' "$log"; then
		# isa-debug-exit: QEMU exits with (status << 1) | 1, after /init
		# started (QEMU's own failures exit 1 too)
		return $((rc >> 1))
	elif [ "$rc" -eq 0 ]; then
		return 0		# the guest rebooted: -no-reboot ended QEMU
	fi
	sed 's/^/  /' "$stderr" >&2
	echo "qemu: QEMU failed with status $rc (console log: $log)" >&2
	return 252
}

# A guest that did not boot, or whose QEMU failed, is not the guest's
# doing: it boots again, $tries times in all, each failed try's console
# kept beside the log (LOG.try1, ...).
mkdir -p "$(dirname "$log")"
try=1
while :; do
	status=0
	boot || status=$?
	case $status in 252 | 253) [ "$try" -lt "$tries" ] || break ;; *) exit "$status" ;; esac
	cp "$log" "$log.try$try"
	try=$((try + 1))
	echo "qemu: booting again (try $try of $tries)" >&2
done
[ "$status" -ne 253 ] || [ "$interactive" = 0 ] ||
	echo "qemu: on a slow machine, 'make run BOOT_BUDGET=300' gives the boot longer" >&2
exit "$status"
