#!/bin/sh
# Boot a course kernel many times while the host is busy building kernels,
# and count what went wrong at boot: guests that never reached /init, lost
# clock calibrations, panics.  The course's graded runs must not depend on
# how loaded the host is; this shows whether they do.
#
#   soak.sh BZIMAGE INITRAMFS KERNEL-SOURCE-DIR OUT-DIR BOOTS LOAD PAR [VARIANT...]
#
# LOAD kernel builds run beside the boots (tinyconfig, from scratch, again
# and again, each with make -j<cores>, the compiler cache off); PAR guests
# boot at once.  A VARIANT is ACCEL[:KERNEL-PARAMETERS] (default: "grade",
# what a graded run uses); with several, the boots take them in turn, so
# that each sees the same load.  Each boot runs /bin/true with a boot budget
# of BOOT_BUDGET seconds (default 120).  OUT-DIR gets boots.tsv (variant,
# status, seconds, failed calibrations, load average), the console logs of the boots
# that went wrong, and report.txt.
set -u

bz=$1 initrd=$2 ksrc=$3 out=$4 boots=$5 load=$6 par=$7
shift 7
[ $# -gt 0 ] || set -- grade
here=$(cd "$(dirname "$0")" && pwd)
budget=${BOOT_BUDGET:-120}
for n in "$boots" "$load" "$par"; do
	case $n in '' | *[!0-9]*) echo "soak: BOOTS, LOAD and PAR are numbers, not '$n'" >&2; exit 2 ;; esac
done
mkdir -p "$out/logs"
rm -f "$out"/logs/* "$out/boots.tsv" "$out/report.txt"

# What a console says when the guest measured a clock and failed, by kind:
# the TSC against the PIT, the local APIC timer against the PIT's ticks, the
# TSC given up as a clock, a CPU's delay loop.
KINDS='pit apic tsc delay'
pattern() {
	case $1 in
	pit) echo 'Unable to calibrate against PIT' ;;
	apic) echo 'APIC timer disabled|APIC frequency too slow' ;;
	tsc) echo 'Marking TSC unstable' ;;
	delay) echo 'calibrate_delay_direct\(\) failed' ;;
	esac
}

# The load: each builder in a session of its own, so that stopping it
# stops its compilers too.
builders=
stop_load() {
	for b in $builders; do kill -- "-$b" 2>/dev/null; done
}
trap 'stop_load' EXIT
trap 'exit 130' INT TERM HUP
k=1
while [ "$k" -le "$load" ]; do
	obj=$out/load-$k
	mkdir -p "$obj"
	setsid sh -c 'export CCACHE_DISABLE=1
		make -s -C "$1" O="$2" tinyconfig >/dev/null 2>&1 || exit 1
		while :; do
			make -s -C "$1" O="$2" -j"$(nproc)" vmlinux >/dev/null 2>&1
			make -s -C "$1" O="$2" clean >/dev/null 2>&1
		done' soak-load "$ksrc" "$(realpath "$obj")" &
	builders="$builders $!"
	k=$((k + 1))
done
[ "$load" -eq 0 ] || echo "soak: $load kernel build(s) running as the load"

# boot I VARIANT: one boot, one line of boots.tsv
boot() {
	i=$1 variant=$2
	accel=${variant%%:*} params=
	case $variant in *:*) params=${variant#*:} ;; esac
	log=$out/logs/boot-$i.log
	start=$(date +%s.%N)
	ACCEL=$accel APPEND=$params sh "$here/qemu.sh" --timeout $((budget + 60)) --boot-budget "$budget" \
		--log "$log" "$bz" "$initrd" -- true 2>"$log.err"
	rc=$?
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	failures=
	for kind in $KINDS; do
		! grep -q -a -E "$(pattern "$kind")" "$log" || failures="$failures${failures:+,}$kind"
	done
	if [ "$rc" -eq 0 ] && [ -z "$failures" ]; then
		rm -f "$log" "$log.err" "$log.qemu-stderr"
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$variant" "$rc" "$secs" "${failures:--}" "$(cut -d' ' -f1 /proc/loadavg)"
}

start=$(date +%s)
i=1
running=
while [ "$i" -le "$boots" ]; do
	shift_by=$(( (i - 1) % $# + 1 ))
	variant=$(eval echo "\${$shift_by}")
	boot "$i" "$variant" >"$out/logs/.row-$i" &
	running="$running $!"
	if [ "$(echo $running | wc -w)" -ge "$par" ] || [ "$i" -eq "$boots" ]; then
		# shellcheck disable=SC2086 # the boots, not the builders
		wait $running
		cat "$out"/logs/.row-* >>"$out/boots.tsv"
		rm -f "$out"/logs/.row-*
		running=
		done_n=$(wc -l <"$out/boots.tsv")
		# a line every 20 boots or so
		[ $((done_n / 20)) -eq "${shown:-0}" ] || {
			shown=$((done_n / 20))
			echo "soak: $done_n of $boots boots, $(($(date +%s) - start)) s;" \
				"$(awk -F'\t' '$2 != 0' "$out/boots.tsv" | wc -l) did not end well," \
				"$(awk -F'\t' '$4 != "-"' "$out/boots.tsv" | wc -l) lost a clock's calibration"
		}
	fi
	i=$((i + 1))
done
stop_load

# The report: per variant, boots, what went wrong, boot times, load.
awk -F'\t' -v secs="$(($(date +%s) - start))" -v load="$load" -v par="$par" '
	{ v = $1; n[v]++; t[v, n[v]] = $3; la[v] += $5
	  if ($2 == 253 || $2 == 251) hung[v]++
	  else if ($2 == 250) panic[v]++
	  else if ($2 != 0) other[v]++
	  k = split($4, kinds, ","); for (i = 1; i <= k; i++) if (kinds[i] != "-") cal[v, kinds[i]]++ }
	END {
		printf "soak: %d boots in %d s, %d at once, beside %d kernel build(s)\n", NR, secs, par, load
		printf "%-28s %5s %5s %6s %5s   %s %5s %5s %5s %5s   %8s %6s %5s\n", "variant", "boots", "hung",
			"panic", "other", "calibrations lost:", "pit", "apic", "tsc", "delay", "median s", "max s", "load"
		for (v in n) {
			m = n[v]; for (i = 1; i <= m; i++) s[i] = t[v, i] + 0
			for (i = 2; i <= m; i++) { x = s[i]; for (j = i - 1; j >= 1 && s[j] > x; j--) s[j + 1] = s[j]; s[j + 1] = x }
			printf "%-28s %5d %5d %6d %5d   %18s %5d %5d %5d %5d   %8.1f %6.1f %5.1f\n", v, m, hung[v],
				panic[v], other[v], "", cal[v, "pit"], cal[v, "apic"], cal[v, "tsc"], cal[v, "delay"],
				s[int((m + 1) / 2)], s[m], la[v] / m
		}
	}' "$out/boots.tsv" | tee "$out/report.txt"
echo "soak: boots.tsv and the consoles of the boots that went wrong in $out"
awk -F'\t' '$2 != 0 || $4 != "-" { bad = 1 } END { exit bad }' "$out/boots.tsv"
