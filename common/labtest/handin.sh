# A student's round trip: work committed on the skeleton, 'handin' writes
# the patch, grading it gives full marks.  A patch that does not apply, and
# one that does not build, score 0 with the reason; graded as a batch into a
# CSV, whose answers, review and hours columns give what the student wrote
# beside the code.
# Two that try to forge their score earn no more than their code: one that
# changes the serial driver (outside the lab's handin-files) scores 0, and
# one that stays in the lab's file but has a kernel thread write TAP "ok"
# lines for every test to the results port, over and over, scores below
# full, its lines ignored for want of the run's token.  Every hand-in's
# verdicts come out as JUnit XML and Gradescope JSON too.  The batch grades
# the lab's first test only (ONLY_TESTS reaches check.sh through GNU
# parallel): what is tested here is the round trip, and the solution test
# grades the same code in full.
# timeout: 1200
. common/testlib.sh
scratch
lab=$1
n=$(echo "$lab" | sed 's/^lab0*\([0-9]*\)-.*/\1/')

sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
git -C "$TEST_TREE" checkout -q "refs/course/$lab/solution" -- .
answers=$(ls "$TEST_TREE"/Documentation/labs/lab*-answers.md) || fail "the skeleton has no answers file"
grep -q '^> 1\. ' "$answers" || fail "$answers does not quote the lesson's first question"
sed -i '0,/^Answer:$/s//Answer: the callback runs before wake_up_new_task()./' "$answers"
sed -i 's/^Time spent on this lab (hours):$/& 3.5/' "$answers"
review=${answers%-answers.md}-review.md
grep -q '^Review:$' "$review" || fail "the skeleton has no review file to write in"
echo "The hook is called with a spinlock held and no rule on what a callback may do." >>"$review"
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost \
	commit -q -a -m "$lab: my work" -m "Signed-off-by: Student <student@localhost>"
sh common/lab.sh handin "$TEST_TREE" "$n" "refs/course/$lab/skeleton" "$SCRATCH/handin.patch" ||
	fail "handin failed"
grep -q '^Subject: \[PATCH\] '"$lab"': my work' "$SCRATCH/handin.patch" || fail "handin wrote no patch"

printf 'this is not a patch\n' >"$SCRATCH/garbage.patch"

sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
f=$(git -C "$TEST_TREE" diff --name-only "refs/course/$lab/base" HEAD -- '*.c' ':!tools' | head -n 1)
echo "this does not compile;" >>"$TEST_TREE/$f"
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost commit -q -a -m broken
git -C "$TEST_TREE" format-patch -q --stdout HEAD~1..HEAD >"$SCRATCH/broken.patch"

# One that changes the serial driver, outside the lab's files.
sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
echo "/* a harmless-looking change */" >>"$TEST_TREE/drivers/tty/serial/8250/8250_core.c"
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost commit -q -a -m "$lab: serial"
git -C "$TEST_TREE" format-patch -q --stdout HEAD~1..HEAD >"$SCRATCH/serial.patch"

# The forger: the skeleton, and a kernel thread that writes a full pass of
# the lab's tests to COM2 (the results port) five times a second, so that
# some of its "ok" lines come after the real verdicts.  (The guest ends
# through the isa-debug-exit port: no reboot notifier would run.)
sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
forged=$(awk '!/^#/ && NF && $1 != "health" {
		printf "[%d] # binary %s budget 1 s\\n[%d] ok %d %s\\n", 90000 + 2 * NR, $1, 90001 + 2 * NR, ++n, $2 }
	END { printf "[99999] # done\\n" }' "$lab/tests.conf")
cat >>"$TEST_TREE/$f" <<FORGER

#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kthread.h>

static int forge_results(void *unused)
{
	const char *p;

	while (!kthread_should_stop()) {
		for (p = "$forged"; *p; p++)
			outb(*p, 0x2f8);
		msleep(200);
	}
	return 0;
}

static int __init forge_init(void)
{
	return PTR_ERR_OR_ZERO(kthread_run(forge_results, NULL, "forge"));
}
late_initcall(forge_init);
FORGER
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost commit -q -a -m "$lab: forged"
git -C "$TEST_TREE" format-patch -q --stdout HEAD~1..HEAD >"$SCRATCH/forged.patch"

# The five, graded as a batch into a CSV.
mkdir "$SCRATCH/handins"
mv "$SCRATCH/handin.patch" "$SCRATCH/handins/alice.patch"
mv "$SCRATCH/garbage.patch" "$SCRATCH/handins/bob.patch"
mv "$SCRATCH/broken.patch" "$SCRATCH/handins/carol.patch"
mv "$SCRATCH/serial.patch" "$SCRATCH/handins/dave.patch"
mv "$SCRATCH/forged.patch" "$SCRATCH/handins/erin.patch"
out=$LOGS/labtest/$lab-batch
rm -rf "$out"
# shellcheck disable=SC2046
first=$(awk '!/^#/ && NF && $1 != "health" { print $2; exit }' "$lab/tests.conf")
batch() {
	# shellcheck disable=SC2046
	ONLY_TESTS=$first JOBS=2 sh common/grade.sh many "$lab" "$KSRC" "$TEST_TREE" "$TEST_OBJ" "$out" "$SCRATCH/handins" \
		$(lab_kconfig "$lab") >"$SCRATCH/progress" || fail "batch grading failed"
	cat "$SCRATCH/progress" "$out/grades.csv"
}
batch
expect_grep '^grade: 5 hand-ins, 0 already graded .*, 5 to grade in 2 lane' "$SCRATCH/progress"
expect_grep '^grade: \[[1-5]/5\] carol: 0/[0-9]+ \([0-9]+ s; log: .*\)  ETA [0-9]+h[0-9]{2}m$' "$SCRATCH/progress"
[ "$(grep -c '^grade: \[[1-5]/5\] ' "$SCRATCH/progress")" -eq 5 ] || fail "not one progress line per hand-in"
for k in 1 2; do
	grep -q "^grade: [a-z]* in lane $k " "$out"/*.log || fail "no hand-in was graded in lane $k"
done
[ "$(awk 'NR > 1' "$out/joblog" | wc -l)" -eq 5 ] || fail "the joblog does not list the 5 hand-ins"
max=$(awk -v t="$first" '!/^#/ && $2 == t { print $3 }' "$lab/tests.conf")
expect_line "alice,$max,$max,\"-\",\"ok\",\"present (1 line)\",\"present (1 line)\",\"3.5\"" "$out/grades.csv"
expect_grep '^bob,0,[0-9]+,"all","the hand-in does not apply.*","empty","empty",""$' "$out/grades.csv"
expect_grep '^carol,0,[0-9]+,"all",".*the kernel does not build.*","empty","empty",""$' "$out/grades.csv"
expect_grep '^dave,0,[0-9]+,"all","the hand-in changes files outside the lab.s: drivers/tty/serial/8250/8250_core.c .*handin-files\)","empty","empty",""$' \
	"$out/grades.csv"
erin=$(awk -F, '$1 == "erin" { print $2 }' "$out/grades.csv")
[ -n "$erin" ] && [ "$erin" -lt "$max" ] || fail "the forger scored ${erin:-nothing} of $max"
expect_grep 'results lines without this run.s token were ignored' "$out/erin.log"
# every hand-in's verdicts, as JUnit XML and JSON too
for who in alice bob carol dave erin; do
	xmllint --noout "$out/$who/results.xml" || fail "$out/$who/results.xml is not XML"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))["tests"]' "$out/$who/results.json" ||
		fail "$out/$who/results.json is not the JSON expected"
done
[ "$(xmllint --xpath 'count(//testcase[failure])' "$out/alice/results.xml")" = 0 ] || fail "alice's results.xml has failures"

# Again, nothing changed: nothing graded, the same CSV.  A changed hand-in
# (bob's) is graded again; FORCE=1 would grade all.
cp "$out/grades.csv" "$SCRATCH/grades.first"
batch
expect_grep '^grade: 5 hand-ins, 5 already graded .*, 0 to grade' "$SCRATCH/progress"
cmp -s "$out/grades.csv" "$SCRATCH/grades.first" || fail "a batch with nothing to grade changed grades.csv"
echo "still not a patch" >>"$SCRATCH/handins/bob.patch"
batch
expect_grep '^grade: 5 hand-ins, 4 already graded .*, 1 to grade' "$SCRATCH/progress"
expect_grep '^grade: \[1/1\] bob: 0/' "$SCRATCH/progress"

# 300 graded hand-ins, nothing to do: under 5 s (their rows are made up).
mkdir "$SCRATCH/class"
# (a stamp is the patch's hash, then what the batch's own rows say: the
# course commit and the tests' hash)
course=$(cut -d' ' -f2- "$out/alice/stamp")
i=0
while [ $i -lt 300 ]; do
	i=$((i + 1))
	echo "patch $i" >"$SCRATCH/class/s$i.patch"
	mkdir -p "$SCRATCH/class-out/s$i"
	echo "s$i,1,$max,\"-\",\"ok\",\"empty\"" >"$SCRATCH/class-out/s$i/row.csv"
	echo "$(sha256sum <"$SCRATCH/class/s$i.patch" | cut -d' ' -f1) $course" >"$SCRATCH/class-out/s$i/stamp"
done
start=$(date +%s%N)
JOBS=2 sh common/grade.sh many "$lab" "$KSRC" "$TEST_TREE" "$TEST_OBJ" "$SCRATCH/class-out" "$SCRATCH/class" \
	>"$SCRATCH/class.txt" || fail "the resumed class batch failed"
ms=$((($(date +%s%N) - start) / 1000000))
cat "$SCRATCH/class.txt"
expect_grep '^grade: 300 hand-ins, 300 already graded' "$SCRATCH/class.txt"
[ "$(wc -l <"$SCRATCH/class-out/grades.csv")" -eq 301 ] || fail "the class CSV does not have 300 rows"
echo "resumed batch of 300, nothing to grade: $ms ms"
[ "$ms" -lt 5000 ] || fail "a resumed batch of 300 with nothing to grade took $ms ms (5 s at most)"
