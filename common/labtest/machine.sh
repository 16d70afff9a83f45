# A grade is never the machine's.  A guest that never boots (QEMU's CPU
# held stopped with -S) is killed at the boot budget and booted again,
# twice; then its hand-in is "not graded", with the reason, in the
# terminal, the CSV, JUnit (errors, not failures) and JSON (no score), and
# the batch's rerun grades it.  Two grading commands started together on
# one tree (a batch, and a single hand-in of other code) take turns on it,
# the second saying whom it waits for, and give the grades that one after
# the other gave.  The same batch on two hosts (GNU parallel over ssh),
# as a Slurm job array and here gives the same grades; a host that cannot
# be reached leaves its hand-ins not graded, saying so; FAILFAST=1 stops a
# run at its first failing test.  The lab's first three tests, not the
# health test (no kmemleak scans): what is tested is the machinery, which
# the solution test grades in full (docs/measurements.md: this test's
# time with every test and with three).
# timeout: 1200
. common/testlib.sh
scratch
lab=$1
tests=$(awk '!/^#/ && NF && $1 != "health" && n++ < 3 { printf "%s ", $2 }' "$lab/tests.conf")
export ONLY_TESTS="$tests"

# Two hand-ins of the solution (the second builds nothing new).
sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
git -C "$TEST_TREE" checkout -q "refs/course/$lab/solution" -- .
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost \
	commit -q -a -m "$lab: my work" -m "Signed-off-by: Student <student@localhost>"
mkdir "$SCRATCH/handins"
git -C "$TEST_TREE" format-patch -q --stdout HEAD~1..HEAD >"$SCRATCH/handins/ann.patch"
cp "$SCRATCH/handins/ann.patch" "$SCRATCH/handins/ben.patch"
out=$LOGS/labtest/$lab-machine
rm -rf "$out" "$out-one" "$out-alone" "$out-fast"
batch() {
	# shellcheck disable=SC2046
	JOBS=1 sh common/grade.sh many "$lab" "$KSRC" "$TEST_TREE" "$TEST_OBJ" "$out" "$SCRATCH/handins" \
		$(lab_kconfig "$lab")
}

# 1. A machine whose guests never boot: three tries each, then not graded.
QEMU_EXTRA=-S BOOT_BUDGET=5 batch >"$SCRATCH/nogo" 2>&1
rc=$?
cat "$SCRATCH/nogo" "$out/grades.csv"
[ "$rc" -eq 3 ] || fail "a batch whose guests never booted exited $rc, expected 3"
for who in ann ben; do
	expect_grep "^$who,not graded,[0-9]+,\"-\",\"the guest did not reach /init in 3 boots of 5 s .*\"" "$out/grades.csv"
	expect_grep '^check: qemu: booting again \(try 3 of 3\)$' "$out/$who.log"
	[ -e "$out/$who/console.log.try2" ] || fail "the console of $who's second boot was not kept"
	expect_grep '^Not graded: the guest did not reach /init in 3 boots' "$out/$who.log"
	grep -q '^Score:' "$out/$who.log" && fail "$who's log gives a score for a run that was not graded"
	n=$(xmllint --xpath 'count(//testcase[error])' "$out/$who/results.xml") || fail "$who's results.xml is not XML"
	[ "$n" -eq "$(echo $tests | wc -w)" ] || fail "$who's results.xml has $n errors, expected one per test"
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
assert r["not_graded"] and "score" not in r and all("score" not in t for t in r["tests"]), r' \
		"$out/$who/results.json" || fail "$who's results.json gives a score to a run that was not graded"
done
expect_grep '^grade: \[2/2\] ben: not-graded ' "$SCRATCH/nogo"
expect_grep '^grade: 2 hand-in\(s\) not graded, .*run the same command again' "$SCRATCH/nogo"

# 2. The skeleton, graded alone: the grade to compare with.
# shellcheck disable=SC2046 # the layers are words
GRADE_REF=refs/course/$lab/skeleton sh common/grade.sh one "$lab" "$KSRC" "$TEST_TREE" "$TEST_OBJ" \
	"$out-alone" - $(lab_kconfig "$lab") >"$SCRATCH/alone" 2>&1
cat "$SCRATCH/alone"
[ -s "$out-alone/summary.tsv" ] || fail "the skeleton graded alone left no summary"

# 2b. FAILFAST=1 (mutation runs), while the tree holds the skeleton's
# build: its run stops at its first failing test, which keeps its output;
# nothing runs after it (the others "not run"), kmemleak is not asked, and
# the health test says it did not vouch.  With the health test, which the
# others leave out.
# shellcheck disable=SC2046
CHECK_FAILFAST=1 ONLY_TESTS="$tests kernel-health" GRADE_REF=refs/course/$lab/skeleton sh common/grade.sh one \
	"$lab" "$KSRC" "$TEST_TREE" "$TEST_OBJ" "$out-fast" - $(lab_kconfig "$lab") >"$SCRATCH/fast" 2>&1
cat "$SCRATCH/fast"
expect_grep '^\[[0-9]+\] [0-9a-f]+ # failfast: stopped at the first failing test' "$out-fast/results.tap"
grep -q '# kmemleak' "$out-fast/results.tap" && fail "kmemleak was asked after the run stopped"
[ "$(grep -c ' not ok [0-9]' "$out-fast/results.tap")" -eq 1 ] || fail "more than one test failed in a run that stops at the first"
# (a TAP line, ok or not ok, for each test that ran)
ran=$(grep -c ' ok [0-9]' "$out-fast/results.tap")
failed=$(grep -c -E '^  [a-z_]+\.[a-z_]+ +FAIL +[0-9]+/[0-9]+ +[0-9.]+ s  \(output: ' "$SCRATCH/fast")
notrun=$(sed -n 's/^  \([0-9]*\) more tests\{0,1\} FAIL, not run: the run stopped at its first failing test (FAILFAST=1) .*/\1/p' "$SCRATCH/fast")
notrun=${notrun:-0}
[ "$failed" -eq 1 ] && [ "$notrun" -ge 1 ] && [ $((ran + notrun)) -eq "$(echo $tests | wc -w)" ] ||
	fail "FAILFAST=1: $failed failed with output (1 expected), $notrun not run, $ran run, of $(echo $tests | wc -w)"
expect_grep '^      not checked: the run stopped at its first failing test \(FAILFAST=1\)$' "$SCRATCH/fast"

# 3. The batch again, sent to two hosts (GNU parallel --sshloginfile, with
# an ssh that runs the command here, each host its own home: both use this
# course folder, whose lanes their locks share: one lane a host), and the
# skeleton, started together on the same tree.
mkdir -p "$SCRATCH/bin" "$SCRATCH/hosts"
cat >"$SCRATCH/bin/ssh" <<'SSH'
#!/bin/sh
# ssh [OPTION...] HOST [--] COMMAND...: COMMAND run here, in HOST's home
while [ $# -gt 0 ]; do
	case $1 in -[bcDEeFIiJLlmOoPpQRSWw]) shift 2 ;; -*) shift ;; *) break ;; esac
done
host=$1
shift
[ "$host" != down ] || { echo "ssh: connect to host down port 22: No route to host" >&2; exit 255; }
[ "${1:-}" != -- ] || shift
echo "$host: $*" >>"$FAKE_HOSTS/log"
mkdir -p "$FAKE_HOSTS/$host"
# (as sshd does, the login's HOME and SHELL: GNU parallel's worker runs
# the job with $SHELL, which a CI job's environment may not have)
cd "$FAKE_HOSTS/$host" && HOME=$FAKE_HOSTS/$host SHELL=/bin/sh exec sh -c "$*"
SSH
chmod +x "$SCRATCH/bin/ssh"
printf '1/h1\n1/h2\n' >"$SCRATCH/hosts.txt"
export FAKE_HOSTS="$SCRATCH/hosts"

# 3a. A host that cannot be reached: its hand-ins are not graded, each row
# names it, and no log from the run before stands in for the one that did
# not happen.
printf '1/down\n' >"$SCRATCH/down.txt"
HOSTS=$SCRATCH/down.txt GRADE_SSH=$SCRATCH/bin/ssh batch >"$SCRATCH/down" 2>&1
rc=$?
[ "$rc" -eq 3 ] || { cat "$SCRATCH/down"; fail "a batch whose only host is down exited $rc, expected 3"; }
for who in ann ben; do
	expect_grep "^$who,not graded,\?,\"-\",\"no verdict: its job on down exited 255 " "$out/grades.csv"
	[ ! -e "$out/$who.log" ] || fail "$out/$who.log is left from the run before, as if the host had graded it"
done

# 3b. The two hosts, beside a single hand-in on the same tree.
COURSE_COMMAND="the batch" HOSTS=$SCRATCH/hosts.txt GRADE_SSH=$SCRATCH/bin/ssh GRADE_LANES=1 batch >"$SCRATCH/rerun" 2>&1 &
first=$!
# shellcheck disable=SC2046
COURSE_COMMAND="the skeleton" GRADE_REF=refs/course/$lab/skeleton sh common/grade.sh one "$lab" "$KSRC" \
	"$TEST_TREE" "$TEST_OBJ" "$out-one" - $(lab_kconfig "$lab") >"$SCRATCH/one" 2>&1
wait "$first"
rc=$?
cat "$SCRATCH/rerun" "$SCRATCH/one" "$out/grades.csv"
[ "$rc" -eq 0 ] || {
	for f in "$out"/*.log "$out"/*.setup.log "$FAKE_HOSTS/log"; do [ ! -f "$f" ] || { echo "== $f"; cat "$f"; }; done
	fail "the batch on two hosts exited $rc"
}
expect_grep "^grade: 2 hand-ins, 0 already graded .*, 2 to grade in the lanes of 2 host\(s\) in $SCRATCH/hosts.txt" \
	"$SCRATCH/rerun"
# (each hand-in's log names the folder it was graded in: its host's home)
for h in h1 h2; do
	cat "$out/ann.log" "$out/ben.log" | grep -q "$FAKE_HOSTS/$h/" || fail "host $h graded nothing"
done
cat "$SCRATCH/one" "$out/ann.log" "$out/ben.log" "$SCRATCH/rerun" >"$SCRATCH/all"
expect_grep "^(grade|check): waiting for $TEST_TREE, in use by the (batch|skeleton) \(pid [0-9]+, since " "$SCRATCH/all"
max=$(cut -f2 "$out-alone/summary.tsv")
for who in ann ben; do
	expect_grep "^$who,$max,$max,\"-\"," "$out/grades.csv"
	[ -f "$out/$who/results.xml" ] || fail "$who's results did not come back from its host"
done
cmp "$out-alone/summary.tsv" "$out-one/summary.tsv" ||
	fail "the skeleton graded beside a batch: $(cat "$out-one/summary.tsv"); alone: $(cat "$out-alone/summary.tsv")"
[ "$(cut -f1 "$out-alone/summary.tsv")" -lt "$max" ] || fail "the skeleton scored full marks: the two grades cannot tell trees apart"

# 4. The same hand-ins as a Slurm job array (an sbatch that runs the
# array's tasks one after the other, here), then as a local batch: the
# same grades, row for row.
cp "$out/grades.csv" "$SCRATCH/grades.hosts"
cat >"$SCRATCH/bin/sbatch" <<'SBATCH'
#!/bin/sh
# sbatch --array=1-N --output=PATTERN SCRIPT ARG...: the tasks, in turn
for a in "$@"; do
	case $a in --array=1-*) n=${a#--array=1-} ;; --output=*) o=${a#--output=} ;; -*) ;; *) break ;; esac
	shift
done
echo "Submitted batch job 42"
i=1
while [ "$i" -le "$n" ]; do
	SLURM_ARRAY_TASK_ID=$i sh "$@" >"$(echo "$o" | sed "s/%A/42/; s/%a/$i/")" 2>&1
	i=$((i + 1))
done
SBATCH
chmod +x "$SCRATCH/bin/sbatch"
PATH=$SCRATCH/bin:$PATH FORCE=1 SLURM=1 batch >"$SCRATCH/slurm" 2>&1 || fail "the Slurm batch exited $?"
cat "$SCRATCH/slurm"
expect_grep '^grade: 2 hand-ins, 0 already graded, 2 to grade as a Slurm job array' "$SCRATCH/slurm"
batch >"$SCRATCH/slurm-csv" 2>&1 || fail "the CSV after the Slurm array exited $?"
expect_grep '^grade: 2 hand-ins, 2 already graded' "$SCRATCH/slurm-csv"
cmp "$out/grades.csv" "$SCRATCH/grades.hosts" || fail "the Slurm array's grades differ from the two hosts'"
FORCE=1 batch >"$SCRATCH/local" 2>&1 || fail "the local batch exited $?"
cat "$SCRATCH/local"
cmp "$out/grades.csv" "$SCRATCH/grades.hosts" || fail "the local batch's grades differ from the two hosts'"
