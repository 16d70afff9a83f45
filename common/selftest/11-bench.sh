# make bench, short: the bench kernel (every lab's solution) builds and
# boots, the guest program measures every section (counted in instructions
# in boots with different memory layouts, then on the wall clock), and
# bench.py makes every table and chart.  It asserts what ran, never a speed.  A relay storm of 200 forks
# loses nothing, and what the proc connector does not report is a
# receive-buffer overflow.  It runs in the lane's test tree (DIR/linux,
# DIR/linux/obj), right after the last lab's tests: the same kernel
# configuration, so only what those tests planted is rebuilt.
# timeout: 1200
. common/testlib.sh
last=$(ls -d lab[0-9][0-9]-* | tail -n 1)
tree=$(dirname "$TEST_TREE")
[ "$TEST_OBJ" = "$TEST_TREE/obj" ] || fail "TEST_OBJ=$TEST_OBJ is not TEST_TREE/obj ($TEST_TREE)"
out=$LOGS/bench-short
rm -rf "$out"
# shellcheck disable=SC2046
sh common/bench.sh short "$KSRC" "$tree" "$out" "refs/course/$last/solution" \
	common/kconfig/base.config common/kconfig/debug.config $(ls lab[0-9][0-9]-*/kconfig) ||
	fail "bench.sh short failed"
# every table, with a count in each cell the short bench fills
num='[0-9][0-9,]*'
for config in idle tally; do
	# (the debug kernel's boots may differ by more than 1 %: UNSTABLE)
	cell="$num \\+-[0-9.]+% \\([0-9.]+%\\)( UNSTABLE)? +$num us"
	expect_grep "^  $config +$cell +$cell +$cell\$" "$out/bench.txt"	# task creation
	expect_grep "^  $config +$cell( +vs .*)?\$" "$out/bench.txt"	# the shell loop
done
expect_grep "^  (idle|tally)-cap +$num \\+-" "$out/bench.txt"	# chrootjail off
expect_grep "^    (fork|the loop) +one callback [-+]$num" "$out/bench.txt"
for n in 0 1 4 16 64; do expect_grep "^  relay +N=$n +$num \\+-" "$out/bench.txt"; done
for n in 0 1 4 16; do expect_grep "^  connector +N=$n +$num \\+-" "$out/bench.txt"; done
expect_grep '^  (relay|connector): .* a line fits within [0-9.]+ %' "$out/bench.txt"
for op in open stat create chmod chown truncate xattr mkdir symlink link rename kill nice rlimit fowner \
	pgid sched sigio shm msg sem unix connect mount setgroups ptrace setpgid pivot_root move_mount; do
	for where in unjailed jailed; do
		expect_grep "^  $op +$where +$num \\+-.* +[-+]$num \\+-$num\$" "$out/bench.txt"
	done
done
expect_grep "^  chroot +jailed +$num \\+-.* +[-+]$num \\+-$num\$" "$out/bench.txt"
expect_grep '^stability: ' "$out/bench.txt"
! grep -q '^missing: ' "$out/bench.txt" || fail "$(grep '^missing: ' "$out/bench.txt")"
expect_grep '^  relay +200 +0 +[0-9]+ +[0-9]+$' "$out/bench.txt"
# The proc connector is a datagram socket: a listener that falls behind
# loses events when its receive buffer overflows (ENOBUFS: 1 of 200 once in
# a cold make test, beside two lanes on two cores).  Its row must add up,
# and a loss be one of those overflows.
row=$(awk '$1 == "connector" && $2 ~ /^[0-9]+$/ { print $2 + $3, $3 }' "$out/bench.txt")
[ "${row% *}" = 200 ] || fail "the connector row does not add up to 200: $(grep '^  connector' "$out/bench.txt")"
[ "${row#* }" = 0 ] || expect_grep "^  connector: its socket's receive buffer overflowed [1-9]" "$out/bench.txt"
expect_grep '^  boot to exit after true +([1-9][0-9]*\.[0-9]|0\.[1-9]) s' "$out/bench.txt"	# not 0.0
for chart in forkcost growth lsm; do
	[ -s "$out/$chart.png" ] || fail "no chart: $out/$chart.png"
done
