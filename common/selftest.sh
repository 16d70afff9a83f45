#!/bin/sh
# Run host-side test scripts, each under its own timeout (a '# timeout: S'
# line in the script, default 120 s), with its output kept in a log.
# Prints one line per test and ends with 'N passed, N failed'.
#
#   selftest.sh [--lane NAME] LOGDIR TEST.sh[@ARG]...
#
# TEST.sh@ARG runs "sh TEST.sh ARG", named TEST-ARG (one script, many labs).
# With --lane, several of these run at once (make test): the last line says
# "lane NAME: ...", and LOGDIR/NAME.counts gets "PASSED FAILED".
set -u

lane=
if [ "${1:-}" = --lane ]; then
	lane=$2
	shift 2
fi
logdir=$1
shift
mkdir -p "$logdir"
passed=0 failed=0 lane_cpu=0
# CPU: the seconds this shell's reaped children used so far (user + system),
# from the builtin 'times', run here (in a pipe or $(...) it would run in a
# subshell, and count nothing): make test is CPU-bound, so CPU, not wall
# time, is its budget.
cpu_used() {
	times >"$logdir/.times.$$"
	CPU=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] }
		printf "%d", s }' "$logdir/.times.$$")
}
for item in "$@"; do
	t=${item%%@*}
	arg=
	name=$(basename "$t" .sh)
	case $item in *@*) arg=${item#*@}; name=$arg-$name ;; esac
	log=$logdir/$name.log
	limit=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "$t" | head -n 1)
	cpu_used
	start=$(date +%s) cpu0=$CPU
	timeout -k 5 "${limit:-120}" sh "$t" $arg >"$log" 2>&1
	rc=$?
	cpu_used
	secs=$(($(date +%s) - start)) cpu=$((CPU - cpu0))
	# for make bench's table of the course's own speed
	printf '%s\t%s\t%s\t%s\n' "$name" "$secs" "$([ "$rc" -eq 0 ] && echo ok || echo FAIL)" "$cpu" \
		>>"$logdir/times.tsv"
	lane_cpu=$((lane_cpu + cpu))
	if [ "$rc" -eq 0 ]; then
		printf '  %-36s ok    %4d s  (CPU %d s)\n' "$name" "$secs" "$cpu"
		passed=$((passed + 1))
	else
		[ "$rc" -ne 124 ] || echo "timed out after ${limit:-120} s" >>"$log"
		# one write, so that another lane's lines do not cut into it; kept
		# in LOGDIR/failures too, for make test to repeat at the very end
		# (where a CI log's tail shows it, and perhaps no more: so the lines
		# that say FAIL and what follows each, then the log's last lines)
		printf '  %-36s FAIL  %4d s\n%s\n      full log: %s\n' "$name" "$secs" \
			"$({ awk '/FAIL/ { n = 4 } n-- > 0' "$log" | head -n 12; echo ...
			     tail -n 6 "$log"; } | sed 's/^/      | /')" "$log" | tee -a "$logdir/failures"
		failed=$((failed + 1))
	fi
done
rm -f "$logdir/.times.$$"
if [ -n "$lane" ]; then
	echo "$passed $failed" >"$logdir/$lane.counts"
	echo "  lane $lane: $passed passed, $failed failed (CPU $lane_cpu s)"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
