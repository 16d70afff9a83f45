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
# Environment: ACCEL=auto|kvm|tcg|icount, MEM (256M), SMP (2), APPEND
# (extra kernel parameters), ACCEL_CACHE (where the KVM probe result is kept).
# ACCEL=icount: TCG on one CPU with the guest's clock counting its
# instructions, one nanosecond each (make bench's costs).
#
# Exit status: the guest's (0-127; a reboot counts as 0), 250 if the guest
# kernel panicked, 251 if it was killed at the timeout, 252 if QEMU failed.
set -eu

interactive=0 timeout=0 log=build/logs/console.log results='' gdb_port=''
while [ $# -gt 0 ]; do
	case $1 in
	--interactive) interactive=1 ;;
	--timeout) timeout=$2; shift ;;
	--log) log=$2; shift ;;
	--results) results=$2; shift ;;
	--gdb) gdb_port=$2; shift ;;
	-*) echo "qemu: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
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

accel=${ACCEL:-auto}
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
fi
case $accel in
kvm) accel_opts="-accel kvm -cpu host" ;;
tcg) accel_opts="-accel tcg,thread=single" ;;
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
	SMP=1
	accel_opts="-accel tcg,thread=single -icount shift=0,sleep=off -rtc base=2026-01-01T00:00:00,clock=vm"
	cmdline="tsc_early_khz=1000000 tsc=reliable norandmaps $cmdline" ;;
*) echo "qemu: ACCEL must be auto, kvm, tcg or icount, not '$accel'" >&2; exit 2 ;;
esac

# qboot, not SeaBIOS: its MP table lists every CPU, and the course kernel
# has no ACPI to find them (common/kconfig/base.config)
firmware="-bios qboot.rom"

mkdir -p "$(dirname "$log")"
: >"$log"
if [ "$interactive" = 1 ]; then
	console="-chardev stdio,id=con,mux=on,signal=off,logfile=$log -mon chardev=con"
else
	console="-chardev file,id=con,path=$log"
fi
extra=
[ -z "$results" ] || { : >"$results"; extra="-serial file:$results"; }
[ -z "$gdb_port" ] || extra="$extra -S -gdb tcp:127.0.0.1:$gdb_port"

# 256 MB: 158 MB of it is free once booted, labs 02 and 03 score full marks
# in it, and kmemleak's scan, which the health test runs twice, walks every
# page's struct page: 5.4-5.7 s per scan under TCG with 512 MB, 4.1 s with 256.
mem=${MEM:-256M}
stderr=$log.qemu-stderr
set +e
# shellcheck disable=SC2086 # the option strings are meant to split
if [ "$interactive" = 1 ]; then
	qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot \
		$firmware $accel_opts -m "$mem" -smp "${SMP:-2}" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		$console -serial chardev:con $extra \
		-kernel "$kernel" -initrd "$initrd" -append "$cmdline" 2>"$stderr"
else
	[ "$timeout" -gt 0 ] || timeout=86400
	timeout -k 5 "$timeout" qemu-system-x86_64 -nodefaults -no-user-config \
		-display none -no-reboot $firmware $accel_opts -m "$mem" -smp "${SMP:-2}" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		$console -serial chardev:con $extra \
		-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
		</dev/null 2>"$stderr"
fi
rc=$?
set -e

panic=$(grep -m1 -a 'Kernel panic - not syncing' "$log" || true)
if [ "$interactive" = 0 ] && [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "qemu: guest hung: killed after $timeout s (console log: $log)" >&2
	exit 251
elif [ -n "$panic" ]; then
	echo "qemu: guest kernel panic: ${panic#*not syncing: } (console log: $log)" >&2
	exit 250
elif [ $((rc % 2)) -eq 1 ]; then
	exit $((rc >> 1))	# isa-debug-exit: QEMU exits with (status << 1) | 1
elif [ "$rc" -eq 0 ]; then
	exit 0			# the guest rebooted: -no-reboot ended QEMU
fi
sed 's/^/  /' "$stderr" >&2
echo "qemu: QEMU failed with status $rc (console log: $log)" >&2
exit 252
