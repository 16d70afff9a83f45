# grade.py on made-up runs: scores come from the results line only (TAP
# look-alikes printed by the kernel change nothing), a failed test shows its
# first assertions and a cut-down run its share, a test the guest never
# reported fails, an undeclared one is flagged, and each kind of kernel
# illness fails the health test with its console excerpt.  Lines without
# the run's token do not count; the verdicts come out as JUnit and JSON too.
# timeout: 120
# (12 s alone; some 20 python3 starts, 0.3 s each here: beside the base
# kernel's build a CI run went past 30 s)
. common/testlib.sh
scratch
cd "$SCRATCH" || exit 1

cat >conf <<'CONF'
t  f.a  10  30
t  f.b  20  30
health -  5  -
CONF
results() {
	printf '[1] # start\n[2] # binary t budget 60 s\n[3] #  RUN           f.a ...\n'
	printf '[250] ok 1 f.a\n[260] #  RUN           f.b ...\n[300] %s 2 f.b\n' "$1"
	printf '[310] # exit t 0\n'
	[ -z "${2:-}" ] || printf '[320] # kmemleak: %s\n' "$2"
	printf '[400] # done\n'
}
grade() { python3 "$OLDPWD/common/grade.py" conf res console "$1" out >report; rc=$?; cat report; }

# Healthy, all passed; the console's TAP look-alikes must not matter.
results ok >res
printf '[ 1.0] not ok 1 f.a\n[ 1.1] ok 3 f.c\nok 2 f.b\n' >console
grade 0
[ "$rc" -eq 0 ] || fail "a full run was not graded full"
expect_line "Score: 35/35" report
expect_line "3 passed, 0 failed" report
grep -q 'f.c' report && fail "a console line became a test"

# A failed test loses its points, and its output is kept.
results "not ok" >res
: >console
grade 0
[ "$rc" -ne 0 ] || fail "a failed test did not fail the grade"
expect_line "Score: 15/35" report
expect_grep '^  f\.b .*FAIL .*output: out/f\.b\.log\)$' report
expect_grep 'RUN +f\.b' out/f.b.log

# Its first failed assertions are shown under its line, and a cut-down run
# says how much of the lab it graded.
# A test that passed may log such lines (TH_LOG): they are not shown.
results "not ok" | sed -e 's|^\[300\]|[290] #  t.c:42:b:Expected 3 (3) == n (0)\n&|' \
	-e 's|^\[250\]|[240] #  t.c:7:a:probe BLOCKED\n&|' >res
python3 "$OLDPWD/common/grade.py" conf res console 0 out --of 9 >report
expect_line "      | #  t.c:42:b:Expected 3 (3) == n (0)" report
! grep -q 'probe BLOCKED' report || fail "a passed test's log lines were shown as complaints"
expect_line "Score: 15/35 (3 of 9 tests)" report

# A test the guest never reported (here: the kernel panicked) fails.
printf '[1] # start\n[2] # binary t budget 60 s\n[250] ok 1 f.a\n' >res
printf '[ 9.0] Kernel panic - not syncing: Fatal exception\n' >console
grade 250
expect_line "Score: 10/35" report
expect_grep '^  f\.b .*FAIL .*the guest kernel panicked' report
expect_grep 'Kernel panic' report

# FAILFAST=1: the run stopped at f.a's failure: f.b was not run (and one
# line says so, for every test not run), kmemleak was not asked, so the kernel's health is not vouched for.
printf '[1] # start\n[2] # binary t budget 60 s\n[250] not ok 1 f.a\n' >res
printf '[251] # failfast: stopped at the first failing test\n[260] # exit t 137\n[270] # done\n' >>res
: >console
grade 0
expect_line "Score: 0/35" report
expect_line "  1 more test FAIL, not run: the run stopped at its first failing test (FAILFAST=1) (each in out/)" report
expect_grep '^  f\.a .*FAIL .*output: out/f\.a\.log\)$' report
expect_line "      not checked: the run stopped at its first failing test (FAILFAST=1)" report

# A reported test that tests.conf does not declare is flagged, not scored.
results ok >res
printf '[305] ok 3 f.extra\n[400] # done\n' >>res
: >console
grade 0
expect_grep "^grade: t reported 'f.extra', which conf does not declare" report
[ "$rc" -ne 0 ] || fail "an undeclared test went unnoticed"

# Each illness fails kernel health, with the line that shows it.
for sick in "BUG: KASAN: slab-use-after-free in hook_a_func+0x12/0x40" \
	"WARNING: possible circular locking dependency detected" \
	"BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580" \
	"WARNING: CPU: 1 PID: 42 at kernel/fork_hook.c:40 fork_hook_register+0x1/0x2" \
	"general protection fault, probably for non-canonical address 0xdead000000000100"; do
	results ok >res
	printf '[ 5.0] boot\n[ 6.0] %s\n' "$sick" >console
	grade 0
	expect_line "Score: 30/35" report
	expect_grep '^  kernel-health .*FAIL' report
	grep -qF -- "$sick" report || fail "the excerpt does not show: $sick"
done
results ok "unreferenced object 0xffff888003a1c000 (size 64):" >res
: >console
grade 0
expect_line "Score: 30/35" report
expect_grep 'kmemleak found leaked objects' report

# ... but not for what the idle task allocated at boot (pid 0).
results ok "unreferenced object 0xffff88800018c3c0 (size 216):" | sed '$d' >res
printf '[321] # kmemleak:   comm "swapper/0", pid 0, jiffies 4294892296\n[400] # done\n' >>res
grade 0
expect_line "Score: 35/35" report
results ok "unreferenced object 0xffff888003a1c000 (size 64):" | sed '$d' >res
printf '[321] # kmemleak:   comm "fork_hook", pid 57, jiffies 4294899999\n[400] # done\n' >>res
grade 0
expect_line "Score: 30/35" report
# ... nor, given HZ, for what was allocated before the tests started:
# jiffies start 300 s short of 2^32; at HZ=250 4294894796 is 10 s of uptime.
results ok "unreferenced object 0xffff888003a1c000 (size 64):" | sed '$d' >res
printf '[321] # kmemleak:   comm "init", pid 1, jiffies 4294894796\n[400] # done\n' >>res
sed -i 's/^\[1\] # start$/[1] # start uptime 12.00/' res
grade 0
expect_line "Score: 30/35" report
python3 "$OLDPWD/common/grade.py" conf res console 0 out --hz 250 >report
expect_line "Score: 35/35" report
sed -i 's/# start uptime 12.00/# start uptime 9.00/' res
python3 "$OLDPWD/common/grade.py" conf res console 0 out --hz 250 >report
expect_line "Score: 30/35" report

# With the run's token, only run-tests' lines count: a line kernel code
# wrote to the results port (no token) is ignored, and said to be.
results "not ok" | sed 's/^\(\[[0-9]*\]\) /\1 t0k3n /' >res
printf '[301] ok 2 f.b\n[302] t0k3n- ok 2 f.b\n' >>res
: >console
python3 "$OLDPWD/common/grade.py" conf res console 0 out --token t0k3n >report
expect_line "Score: 15/35" report
expect_grep '^grade: 2 results lines without this run.s token were ignored' report
python3 "$OLDPWD/common/grade.py" conf res console 0 out --token other >report
expect_line "Score: 0/35" report

# The same verdicts as JUnit XML and Gradescope JSON, read back by parsers
# that did not write them.
results "not ok" | sed 's|^\[300\]|[290] #  t.c:42:b:Expected 3 (3) == n (0)\n&|' >res
printf '[ 6.0] BUG: KASAN: use-after-free \033[0m\n' >console
python3 "$OLDPWD/common/grade.py" conf res console 0 out --suite labXX --junit out.xml --json out.json >report
xmllint --noout out.xml || fail "results.xml is not well-formed XML"
[ "$(xmllint --xpath 'count(//testsuite[@name="labXX"]/testcase)' out.xml)" = 3 ] ||
	fail "results.xml does not have 3 testcases"
[ "$(xmllint --xpath 'count(//testcase[failure])' out.xml)" = 2 ] || fail "results.xml does not fail 2 testcases"
xmllint --xpath 'string(//testcase[@name="f.b"]/failure/@message)' out.xml | grep -q 't.c:42:b:Expected 3' ||
	fail "f.b's failure does not carry its first assertion"
xmllint --xpath 'string(//testcase[@name="kernel-health"]/failure)' out.xml | grep -q 'KASAN' ||
	fail "kernel-health's failure does not carry the console excerpt"
python3 - out.json <<'PY' || fail "results.json is not the Gradescope shape (score, tests[])"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["score"] == 10, r["score"]
t = {x["name"]: x for x in r["tests"]}
assert set(t) == {"f.a", "f.b", "kernel-health"}, t.keys()
assert (t["f.a"]["score"], t["f.a"]["max_score"]) == (10, 10)
assert (t["f.b"]["score"], t["f.b"]["max_score"]) == (0, 20)
assert "Expected 3" in t["f.b"]["output"]
assert t["kernel-health"]["score"] == 0 and t["kernel-health"]["max_score"] == 5
PY

# A run that failed for the machine's reasons is not graded: no score in
# the report, JUnit errors (not failures), JSON without a score, exit 3.
python3 "$OLDPWD/common/grade.py" conf res console 252 out --not-graded "QEMU failed in 3 tries" \
	--suite labXX --junit ng.xml --json ng.json >report
[ $? -eq 3 ] || fail "a run that was not graded did not exit 3"
cat report
expect_line "Not graded: QEMU failed in 3 tries" report
grep -q '^Score:' report && fail "a run that was not graded was given a score"
[ "$(xmllint --xpath 'count(//testcase[error][not(failure)])' ng.xml)" = 3 ] ||
	fail "ng.xml does not have 3 testcases in error"
python3 - ng.json <<'PY' || fail "ng.json gives a score, or no reason"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["not_graded"] is True and "QEMU failed" in r["reason"], r
assert "score" not in r and all("score" not in t for t in r["tests"]), r
PY

# Why a build failed: the machine's (a full disk) is never the code's; a
# compiler error is the hand-in's when it names a file the hand-in
# changes, or when the hand-in changes a header (it can break any file).
printf '  CC      kernel/fork.o\n../kernel/fork.c:10:5: error: implicit declaration\n' >build.log
why() { HANDIN_FILES=$1 sh "$OLDPWD/common/build-failure.sh" build.log; }
[ -z "$(why kernel/fork.c)" ] || fail "an error in a file the hand-in changes was blamed on the machine"
[ -z "$(why 'include/linux/fork_hook.h security/x.c')" ] || fail "an error beside a hand-in's header was blamed on the machine"
[ -z "$(why '')" ] || fail "an error in a student's own tree was blamed on the machine"
# (the grading lanes build beside the tree: the compiler names ../linux/...)
printf '  CC      kernel/fork.o\n../linux/kernel/fork.c:10:5: error: implicit declaration\n' >build.log
[ -z "$(why kernel/fork.c)" ] || fail "an error in a file the hand-in changes, built beside the tree, was blamed on the machine"
[ -z "$(why el/fork.c)" ] && fail "a file whose name only ends as the hand-in's did was taken for it"
printf '  CC      kernel/fork.o\n../kernel/fork.c:10:5: error: implicit declaration\n' >build.log
why security/x.c | grep -q '^the kernel build failed in kernel/fork.c:10:5, which the hand-in does not change' ||
	fail "an error in a file the hand-in does not change was blamed on it: $(why security/x.c)"
printf 'In file included from ../kernel/fork.c:3:\n../security/x.c:4:1: note: here\n../kernel/fork.c:9:1: error: x\n' >build.log
[ -z "$(why security/x.c)" ] || fail "an error whose notes name the hand-in's file was blamed on the machine"
printf '  AR      built-in.a\n/usr/bin/ld: final link failed: No space left on device\n' >build.log
why kernel/fork.c | grep -q 'failed on this machine: No space left on device' || fail "a full disk was blamed on the hand-in"

# make check-labN T="...": short names pick tests (and "health"); an unknown
# one is refused before anything is built, naming the lab's tests.
cd "$OLDPWD" || exit 1
lab=$(ls -d lab[0-9][0-9]-* | head -n 1)
first=$(awk '!/^#/ && NF && $1 != "health" { print $2; exit }' "$lab/tests.conf")
CHECK_T="${first#*.} health" KERNEL_BUILT=1 sh common/check.sh "$lab" "$SCRATCH/none" "$SCRATCH/none" \
	"$SCRATCH/pick" >/dev/null 2>&1
[ "$(awk '!/^#/ && NF' "$SCRATCH/pick/tests.conf" | wc -l)" -eq 2 ] || fail "T=${first#*.} health did not pick 2 tests"
expect_grep "^[a-z_]+ +$first " "$SCRATCH/pick/tests.conf"
expect_grep '^health ' "$SCRATCH/pick/tests.conf"
CHECK_T=no_such_test sh common/check.sh "$lab" "$SCRATCH/none" "$SCRATCH/none" "$SCRATCH/none-out" 2>"$SCRATCH/err"
[ $? -eq 2 ] || fail "an unknown test name was not refused"
expect_grep "no test 'no_such_test' in $lab/tests.conf; its tests are: .*${first#*.}" "$SCRATCH/err"

# A disk too full for a build is said before anything is built: not graded.
CHECK_MIN_DISK_MB=999999999 sh common/check.sh "$lab" "$SCRATCH/none" "$SCRATCH/none" "$SCRATCH/full" >"$SCRATCH/full.txt" 2>&1
[ $? -eq 3 ] || fail "a full disk did not leave the run not graded (exit 3)"
expect_grep '^Not graded: the disk is full: [0-9]+ MB free' "$SCRATCH/full.txt"
expect_grep '^-	[0-9]+	not-graded	the disk is full' "$SCRATCH/full/summary.tsv"
