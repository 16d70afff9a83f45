# profile.py on a made-up timed run: each test's row gives the host's
# seconds (between the arrivals of its RUN and ok lines) beside the
# guest's, with the module loads and unloads it reported; kmemleak's wait
# and scans, the boot and the shutdown have rows of their own, and the
# rest of QEMU's time is put down to the harness, never lost.
# timeout: 30
. common/testlib.sh
scratch
printf 'tree reset, hand-in applied (grade.sh)\t0.5\nkernel build\t3.0\nboot, tests, shutdown\t21.0\n' \
	>"$SCRATCH/steps.tsv"
cat >"$SCRATCH/stamps" <<'STAMPS'
1000.000 # qemu started
1006.500 [10] 0f1e # start uptime 9.20
1006.510 [20] 0f1e # binary t budget 60 s
1006.600 [100] 0f1e #  RUN           f.reload ...
1006.700 [300] 0f1e # profile: module load /lab/m.ko 150 ms
1008.000 [2200] 0f1e # profile: module unload m 1800 ms
1008.050 [2300] 0f1e # profile: module load /lab/m.ko 50 ms
1008.100 [2400] 0f1e ok 1 f.reload
1008.100 [2400] 0f1e #  RUN           f.plain ...
1008.400 [2900] 0f1e not ok 2 f.plain
1008.500 [3000] 0f1e # exit t 1
1008.600 [3100] 0f1e # health: kmemleak: 5 s for the last objects to age
1008.700 [8100] 0f1e # health: kmemleak: two scans
1018.600 [20000] 0f1e # health: kmemleak: scanned
1019.000 [20100] 0f1e # done
1020.000 # qemu ended
STAMPS
python3 common/profile.py lab99 "$SCRATCH" >"$SCRATCH/out" || fail "profile.py failed"
cat "$SCRATCH/out"
cmp -s "$SCRATCH/out" "$SCRATCH/profile.txt" || fail "the profile printed is not the one kept"
expect_grep '^  boot, tests, shutdown +21\.0$' "$SCRATCH/out"
expect_grep '^    QEMU started and ended \(qemu.sh\) +1\.0$' "$SCRATCH/out"
expect_grep '^    boot to the test runner +6\.5 +9\.2 ' "$SCRATCH/out"
expect_grep '^    f\.reload +1\.5 +2\.3  2 loads 0\.2 s, 1 unloads 1\.8 s$' "$SCRATCH/out"
expect_grep '^    f\.plain +0\.3 +0\.5$' "$SCRATCH/out"
expect_grep '^    kmemleak \(objects. age wait, two scans\) +10\.0 +16\.9$' "$SCRATCH/out"
expect_grep '^    shutdown +1\.0$' "$SCRATCH/out"
# 20.0 - (6.5 + 1.5 + 0.3 + 10.0 + 1.0)
expect_grep '^    between tests \(program starts, harness\) +0\.7$' "$SCRATCH/out"
expect_grep '^  total +24\.5$' "$SCRATCH/out"
