# make bench, short: the bench kernel (every lab's solution) builds and
# boots, the guest program measures every section, and bench.py makes the
# table and the chart.  A relay storm of 200 forks loses nothing, and what
# the proc connector does not report is a receive-buffer overflow.  It runs in the lane's test tree
# (DIR/linux, DIR/linux/obj), right after the last lab's tests: the same kernel
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
for config in idle tally relay1 relay4; do
	expect_grep "^  $config +[0-9]+ \[" "$out/bench.txt"
done
expect_grep '^  relay +200 +0 +[0-9]+ +[0-9]+$' "$out/bench.txt"
# The proc connector is a datagram socket: a listener that falls behind
# loses events when its receive buffer overflows (ENOBUFS: 1 of 200 once in
# a cold make test, beside two lanes on two cores).  Its row must add up,
# and a loss be one of those overflows.
row=$(awk '$1 == "connector" && $2 ~ /^[0-9]+$/ { print $2 + $3, $3 }' "$out/bench.txt")
[ "${row% *}" = 200 ] || fail "the connector row does not add up to 200: $(grep '^  connector' "$out/bench.txt")"
[ "${row#* }" = 0 ] || expect_grep "^  connector: its socket's receive buffer overflowed [1-9]" "$out/bench.txt"
expect_grep '^  open +jailed +[0-9]+ \[.*x[0-9.]+$' "$out/bench.txt"
expect_grep '^  chmod +jailed +[0-9]+ \[' "$out/bench.txt"
expect_grep '^  boot to exit after true +[0-9.]+ s' "$out/bench.txt"
[ -s "$out/forkcost.png" ] || fail "no chart: $out/forkcost.png"
