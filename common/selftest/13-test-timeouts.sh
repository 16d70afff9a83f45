# Each graded test's timeout in tests.conf is the one its kselftest
# harness enforces (TEST_F_TIMEOUT, else the harness's 30 s): the guest's
# runner budgets by tests.conf, but the harness kills a test at its own.
# (A 60 s entry over a default 30 s harness failed lab 02's storm demo
# under a loaded host.)
# timeout: 30
. common/testlib.sh
bad=0
for conf in lab[0-9][0-9]-*/tests.conf; do
	lab=${conf%/tests.conf}
	while read -r bin test points timeout; do
		case $bin in '#'* | '' | health) continue ;; esac
		case $bin in */*) src=${bin%/*}/tests/${bin#*/}.c ;; *) src=$lab/tests/$bin.c ;; esac
		short=${test#*.}
		[ -f "$src" ] || { echo "$conf: $test: no $src"; bad=1; continue; }
		harness=$(sed -n "s/^TEST_F_TIMEOUT([a-z_]*, $short, \\([0-9]*\\)).*/\\1/p; s/^TEST_F([a-z_]*, $short)\$/30/p; s/^TEST_TIMEOUT($short, \\([0-9]*\\)).*/\\1/p; s/^TEST($short)\$/30/p" "$src")
		[ -n "$harness" ] || { echo "$conf: $test: no TEST for '$short' in $src"; bad=1; continue; }
		[ "$harness" = "$timeout" ] ||
			{ echo "$conf: $test: $timeout s here, $harness s in $src"; bad=1; }
	done <"$conf"
done
[ "$bad" -eq 0 ] || fail "tests.conf and the harness disagree on timeouts (above)"
echo "every graded test's timeout agrees with its harness"
