#!/bin/sh
# Run host-side test scripts, each under its own timeout (a '# timeout: S'
# line in the script, default 120 s), with its output kept in a log.
# Prints one line per test and ends with 'N passed, N failed'.
#
#   selftest.sh LOGDIR TEST.sh[@ARG]...
#
# TEST.sh@ARG runs "sh TEST.sh ARG", named TEST-ARG (one script, many labs).
set -u

logdir=$1
shift
mkdir -p "$logdir"
passed=0 failed=0
for item in "$@"; do
	t=${item%%@*}
	arg=
	name=$(basename "$t" .sh)
	case $item in *@*) arg=${item#*@}; name=$arg-$name ;; esac
	log=$logdir/$name.log
	limit=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "$t" | head -n 1)
	start=$(date +%s)
	timeout -k 5 "${limit:-120}" sh "$t" $arg >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	if [ "$rc" -eq 0 ]; then
		printf '  %-36s ok    %4d s\n' "$name" "$secs"
		passed=$((passed + 1))
	else
		[ "$rc" -ne 124 ] || echo "timed out after ${limit:-120} s" >>"$log"
		printf '  %-36s FAIL  %4d s\n' "$name" "$secs"
		tail -n 12 "$log" | sed 's/^/      | /'
		echo "      full log: $log"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
