#!/bin/sh
# Grade hand-ins on the grading worktree, never on the instructor's tree.
#
#   grade.sh one  LAB-DIR KSRC TREE OBJ OUT HANDIN FRAGMENT...
#	TREE at the lab's skeleton, HANDIN applied with git am ('-': none),
#	then check.sh; OUT gets the logs and summary.tsv
#   grade.sh many LAB-DIR KSRC TREE OBJ OUT HANDINS-DIR FRAGMENT...
#	every HANDINS-DIR/*.patch, into OUT/NAME/, and OUT/grades.csv; in
#	JOBS lanes at once (GNU parallel), lane K in its own worktree
#	(TREE's parent with "-K" for K > 1: build/grade-2/{linux,obj}).
#	A hand-in already graded from the same patch at the same course
#	commit, with the same tests, is not graded again, unless FORCE=1.
#	With HOSTS (a GNU parallel --sshloginfile: "JOBS/[user@]host" a
#	line), the hand-ins go to those machines, each with the course at
#	REMOTE_COURSE (default: this course's path) at the same commit and
#	its packages, and their results come back into OUT; GRADE_SSH is the
#	ssh command (default ssh).
#	SLURM=1: submitted as a Slurm job array instead (common/grade-slurm.sh).
#
# TREE (a worktree of KSRC's repository) and OBJ (its kernel objects) are
# reused from one hand-in to the next, so that only what a hand-in changes
# is rebuilt.  Environment: as for check.sh; GRADE_REF overrides the
# starting point (default refs/course/LAB/skeleton); JOBS, FORCE.
set -u

mode=$1 labdir=$2 ksrc=$3 tree=$4 obj=$5 out=$6 handin=$7
shift 7
here=$(cd "$(dirname "$0")" && pwd)
lab=$(basename "$labdir")
. "$here/lock.sh"
# shellcheck disable=SC2034 # lock.sh's hold_lock names us with it
LOCK_WHO=grade
ref=${GRADE_REF:-refs/course/$lab/skeleton}

# What a hand-in writes beside its code: the lines it adds to
# Documentation/labs/labN-PART.md (PART answers: the lesson's questions;
# review: its seed patch's review), quotes, blank lines and the hours aside.
written_of() {
	k=$(awk -v part="$2" '/^\+\+\+ / { f = ($2 ~ "^b/Documentation/labs/lab[0-9]+-" part "\\.md$"); next }
		f && /^\+/ && !/^\+[ \t]*$/ && !/^\+>/ && !/^\+Time spent on this lab/ { k++ } END { print k + 0 }' "$1" 2>/dev/null)
	case ${k:-0} in 0) echo empty ;; 1) echo "present (1 line)" ;; *) echo "present ($k lines)" ;; esac
}

# The hours the answers file says the lab took ("" if it does not say).
hours_of() {
	awk '/^\+\+\+ / { f = ($2 ~ /^b\/Documentation\/labs\/lab[0-9]+-answers\.md$/); next }
		f && /^\+Time spent on this lab \(hours\):/ { sub(/^[^:]*: */, ""); if (match($0, /^[0-9]+([.,][0-9]+)?/)) h = substr($0, 1, RLENGTH) }
		END { sub(/,/, ".", h); print h }' "$1" 2>/dev/null
}

# The CSV columns every row ends with: answers, review, hours.
written_cols() {
	printf '"%s","%s","%s"' "$(written_of "$1" answers)" "$(written_of "$1" review)" "$(hours_of "$1")"
}

# What the grade of a hand-in also depends on: the lab's tests, those of
# the labs whose tests it grades too (lab 04 grades lab 03's), the runner.
tests_sum() {
	# shellcheck disable=SC2046 # the labs' folders, one word each
	(cd "$here/.." && find "$lab/tests.conf" "$lab/tests" $(awk '!/^#/ && $1 ~ /\// {
		sub(/\/.*/, "/tests", $1); print $1 }' "$lab/tests.conf" | sort -u) common/guest -type f |
		LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)
}

# refuse OUT REASON LOG: score 0 without building, and say why.
refuse() {
	max=$(awk '!/^#/ && NF { s += $3 } END { print s + 0 }' "$labdir/tests.conf")
	echo "grade: $2 (log: $3)"
	echo "Score: 0/$max"
	printf '0\t%s\tall\t%s\n' "$max" "$2" >"$1/summary.tsv"
	python3 "$here/grade.py" "$labdir/tests.conf" "$1/none" "$1/none" 252 "$1/failures" --reason "$2" \
		--suite "$lab" --junit "$1/results.xml" --json "$1/results.json" >/dev/null
	return 1
}

# The files the applied hand-in changes that the lab's handin-files does
# not list.  A hand-in is kernel code, and the kernel runs its own grading:
# one that changed, say, the serial driver could change what the host reads.
outside_files() {
	git -C "$tree" diff --no-renames --name-only "$ref" HEAD | while read -r f; do
		ok=
		while read -r pattern; do
			case $pattern in '#'* | '') continue ;; esac
			# shellcheck disable=SC2254
			case $f in $pattern) ok=1 && break ;; esac
		done <"$labdir/handin-files"
		[ -n "$ok" ] || echo "$f"
	done
}

# Lane K's worktree and objects: TREE and OBJ for lane 1, then beside them
# (build/grade/linux -> build/grade-2/linux, build/grade/obj -> build/grade-2/obj).
lane_tree() {
	if [ "$1" -eq 1 ]; then echo "$tree"; else echo "$(dirname "$tree")-$1/linux"; fi
}
lane_obj() {
	top=$(dirname "$tree")
	case $1:$obj in
	1:*) echo "$obj" ;;
	*:"$top"/*) echo "$top-$1/${obj#"$top"/}" ;;
	*) echo "$obj-$1" ;;
	esac
}

# Lanes by default: one per core.  Measured on two cores, 8 lab 01
# hand-ins (the solution, the skeleton, 4 planted bugs, 2 broken), warm
# lanes: JOBS=1 764 s, JOBS=2 507 s, the same grades: a lane's guest (TCG)
# and its build leave room for another's.
default_jobs() {
	n=$(nproc)
	echo $((n > 0 ? n : 1))
}

# check_disk JOBS: refuse when the lanes still to be made do not fit on the
# disk: a worktree and its objects measured 2.1 GB; 3 GB each is asked
# for, leaving room for the hand-ins' logs.
check_disk() {
	missing=0
	k=1
	while [ "$k" -le "$1" ]; do
		[ -e "$(lane_tree "$k")/.git" ] || missing=$((missing + 1))
		k=$((k + 1))
	done
	mkdir -p "$(dirname "$tree")"
	free=$(df -Pk "$(dirname "$tree")" | awk 'NR == 2 { print int($4 / 1048576) }')
	echo "grade: $1 lane(s), 3 GB of disk asked for each (2.1 GB measured); $missing to make, $free GB free"
	[ $((missing * 3)) -le "$free" ] || {
		echo "grade: not enough disk for $missing new lane(s) ($((missing * 3)) GB): free some, or say JOBS=$(($1 - 1 > 0 ? $1 - 1 : 1))" >&2
		return 1
	}
}

grade_one() {
	h=$1 o=$2
	shift 2
	mkdir -p "$o"
	# check.sh's first step (steps.tsv): the tree's reset and the patch
	GRADE_STARTED=$(date +%s.%N)
	export GRADE_STARTED
	[ "$h" != - ] || h=
	sh "$here/worktree.sh" "$ksrc" "$tree" "$ref" "$h" "$o/apply.log"
	case $? in
	0)
		bad=$(outside_files | tr '\n' ' ')
		[ -z "$bad" ] || {
			refuse "$o" "the hand-in changes files outside the lab's: ${bad% } (it may change only those in $lab/handin-files)" \
				"$o/apply.log"
			return 1
		}
		# what check.sh may not blame on the hand-in: the files it does not change
		HANDIN_FILES=$(git -C "$tree" diff --no-renames --name-only "$ref" HEAD | tr '\n' ' ') \
			sh "$here/check.sh" "$labdir" "$tree" "$obj" "$o" "$@"
		;;
	2) refuse "$o" "the hand-in does not apply: $(grep -m1 -E 'error|failed|does not' "$o/apply.log" || head -n1 "$o/apply.log")" "$o/apply.log" ;;
	*) echo "grade: could not prepare $tree at $ref" >&2; return 2 ;;
	esac
}

case $mode in
one)
	hold_lock "$tree"
	grade_one "$handin" "$out" "$@"
	rc=$?
	[ "$handin" = - ] || echo "answers: $(written_of "$handin" answers), review: $(written_of "$handin" review)," \
		"hours: $(hours_of "$handin" | grep . || echo "not given") (Documentation/labs/ in the hand-in)"
	exit $rc
	;;
many)
	[ -d "$handin" ] || { echo "grade: HANDINS=$handin is not a folder of .patch files" >&2; exit 2; }
	total=$(ls "$handin"/*.patch 2>/dev/null | wc -l)
	[ "$total" -gt 0 ] || { echo "grade: no .patch files in $handin" >&2; exit 2; }
	command -v parallel >/dev/null || { echo "grade: GNU parallel is missing: sudo apt-get install parallel" >&2; exit 2; }
	jobs=${JOBS:-$(default_jobs)}
	case $jobs in '' | *[!0-9]* | 0) echo "grade: JOBS=$jobs: say a number of lanes, 1 or more" >&2; exit 2 ;; esac
	[ "$jobs" -le "$total" ] || jobs=$total
	if [ -n "${HOSTS:-}" ]; then
		[ -r "$HOSTS" ] || { echo "grade: HOSTS=$HOSTS: no such file; write one host a line, as 'JOBS/user@host' (GNU parallel's --sshloginfile)" >&2; exit 2; }
		where="the lanes of $(grep -c -v -E '^[[:space:]]*(#|$)' "$HOSTS") host(s) in $HOSTS"
	else
		check_disk "$jobs" || exit 2
		where="$jobs lane(s)"
	fi
	mkdir -p "$out"
	course=$(git -C "$ksrc" rev-parse -q --verify "$ref^{commit}") ||
		{ echo "grade: no $ref in $ksrc (make course-refs)" >&2; exit 2; }
	# Resume: a hand-in whose stamp (its patch's hash, the course commit,
	# the tests: a test fixed since grades every hand-in again) is
	# unchanged keeps its row.
	course="$course $(tests_sum)"
	: >"$out/todo"
	# (shell builtins only in these loops: a class of 300 is 300 rounds)
	sha256sum "$handin"/*.patch | while read -r sum h; do
		name=${h##*/} && name=${name%.patch}
		stamp=
		[ -n "${FORCE:-}" ] || [ ! -f "$out/$name/row.csv" ] || read -r stamp <"$out/$name/stamp" 2>/dev/null
		[ "$stamp" != "$sum $course" ] || continue
		# (and its log: one that never ran must not show an older run's)
		rm -f "$out/$name/row.csv" "$out/$name.log"
		# (a path with /./ is sent to another host as just its name)
		printf '%s\t%s\n' "$sum $course" "${h%/*}/./${h##*/}" >>"$out/todo"
	done
	todo=$(wc -l <"$out/todo")
	if [ -n "${SLURM:-}" ] && [ "$todo" -gt 0 ]; then
		command -v sbatch >/dev/null || { echo "grade: SLURM=1: no sbatch here; submit from a Slurm login node" >&2; exit 2; }
		echo "grade: $total hand-ins, $((total - todo)) already graded, $todo to grade as a Slurm job array"
		sbatch --array=1-"$todo" --output="$(realpath "$out")/slurm-%A_%a.out" "$here/grade-slurm.sh" \
			"$(cd "$here/.." && pwd)" "$labdir" "$ksrc" "$tree" "$obj" "$(realpath "$out")" "$@" || exit 2
		echo "grade: once the array is done, the same command writes $out/grades.csv"
		exit 0
	fi
	echo "grade: $total hand-ins, $((total - todo)) already graded (FORCE=1 grades them again), $todo to grade in $where"
	if [ "$todo" -gt 0 ]; then
		# the lanes' worktrees, one after the other (git names each as it
		# makes it: two at once can collide)
		k=1
		while [ -z "${HOSTS:-}" ] && [ "$k" -le "$jobs" ]; do
			(hold_lock "$(lane_tree "$k")" && sh "$here/worktree.sh" "$ksrc" "$(lane_tree "$k")" "$ref") ||
				{ echo "grade: could not make $(lane_tree "$k")" >&2; exit 2; }
			k=$((k + 1))
		done
		start=$(date +%s)
		# one line per finished hand-in, with an ETA from the pace so far
		# shellcheck disable=SC2016
		if [ -n "${HOSTS:-}" ]; then
			# Each host grades in its course folder and sends back a tar
			# of the hand-in's results; the variables that change what
			# is graded go along.
			export GRADE_TAR=1
			set -- --sshloginfile "$HOSTS" ${GRADE_SSH:+--ssh "$GRADE_SSH"} --workdir ... \
				--transferfile {2} --return "$out/./{2/.}.result.tar" --cleanup \
				--env ONLY_TESTS --env CHECK_T --env CHECK_FAILFAST --env CHECK_BUDGET --env BOOT_BUDGET --env QEMU_EXTRA --env APPEND \
				--env ACCEL --env COURSE_COMMAND --env GRADE_REF --env GRADE_TAR --env GRADE_LANES \
				sh "${REMOTE_COURSE:-$(cd "$here/.." && pwd)}/common/grade.sh" remote "$labdir" "$ksrc" \
				"$tree" "$obj" out "{2/}" "{1}" "{%}" "$@"
		else
			set -- --jobs "$jobs" sh "$here/grade.sh" lane "$labdir" "$ksrc" "$tree" "$obj" "$out" "{%}" "{1}" "{2}" "$@"
		fi
		parallel --will-cite --colsep '\t' --joblog "$out/joblog" --line-buffer "$@" <"$out/todo" |
			while read -r name verdict secs; do
				i=$(( ${i:-0} + 1 ))
				left=$(( ($(date +%s) - start) * (todo - i) / i ))
				printf 'grade: [%d/%d] %s: %s (%s s; log: %s)  ETA %dh%02dm\n' "$i" "$todo" "$name" \
					"$verdict" "$secs" "$out/$name.log" $((left / 3600)) $((left % 3600 / 60))
			done
		for t in "$out"/*.result.tar; do
			[ ! -f "$t" ] || { tar xf "$t" -C "$out" && rm -f "$t"; }
		done
	fi
	csv=$out/grades.csv
	echo "name,score,max,failed,health,answers,review,hours" >"$csv"
	for h in "$handin"/*.patch; do
		name=${h##*/} && name=${name%.patch}
		if [ -f "$out/$name/row.csv" ] && IFS= read -r row <"$out/$name/row.csv"; then
			printf '%s\n' "$row"
		else
			# the job's exit, from the joblog: a job that never ran left no log
			job=$(awk -F'\t' -v a=" $name.patch " -v b="/$name.patch " 'NR > 1 && (index($9 " ", a) || index($9 " ", b)) {
				j = "its job on " ($2 == ":" ? "this machine" : $2) " exited " $7 } END { print j }' "$out/joblog" 2>/dev/null)
			echo "$name,not graded,?,\"-\",\"no verdict: ${job:-no job ran} (log: $out/$name.log; joblog: $out/joblog)\",$(written_cols "$h")"
		fi
	done >>"$csv"
	echo "grade: $csv (joblog: $out/joblog)"
	# a hand-in without a verdict keeps no stamp, so the same command grades it again
	left=$(grep -c '^[^,]*,not graded,' "$csv")
	[ "$left" -eq 0 ] || {
		echo "grade: $left hand-in(s) not graded, for reasons not theirs (the health column says which): run the same command again to grade them"
		exit 3
	}
	;;
remote)
	# one hand-in of a batch on another machine, in this course folder
	# there: "remote LAB KSRC TREE OBJ OUT PATCH STAMP SLOT FRAGMENT...",
	# OUT and PATCH relative to where it starts (GNU parallel's working
	# folder there, to which PATCH was sent), or absolute (shared storage:
	# a Slurm job array).  GRADE_TAR=1: the results, OUT's content, also
	# go into OUT/../NAME.result.tar, for parallel to send back.
	stamp=$1 slot=$2
	shift 2
	w=$(pwd) name=$(basename "$handin" .patch)
	case $out in /*) ;; *) out=$w/$out ;; esac
	case $handin in /*) ;; *) handin=$w/$handin ;; esac
	cd "$here/.." || exit 1
	export GEN_INIT_CPIO="$PWD/build/tools/gen_init_cpio" GUEST_INIT="$PWD/build/guest/init" \
		RUN_TESTS="$PWD/build/guest/run-tests"
	mkdir -p "$out/$name"
	# the first free lane of one per core (GRADE_LANES), else the slot's
	lanes=${GRADE_LANES:-$(nproc)} k=1
	until [ "$k" -gt "$lanes" ] || try_lock "$(lane_tree "$k")"; do k=$((k + 1)); done
	[ "$k" -le "$lanes" ] || k=$(( (slot - 1) % lanes + 1 ))
	if ! MAKEFLAGS='' MAKELEVEL='' make -s --no-print-directory course-refs "$GEN_INIT_CPIO" "$GUEST_INIT" "$RUN_TESTS" \
		>"$out/$name.setup.log" 2>&1; then
		why="host $(hostname) could not make the course's refs and tools (log: $out/$name.setup.log)"
	elif [ "$(git -C "$ksrc" rev-parse -q --verify "$ref^{commit}") $(tests_sum)" != "${stamp#* }" ]; then
		why="host $(hostname) has another version of the course: update it to the batch's"
	else
		why=
		rm -f "$out/$name.setup.log"
	fi
	if [ -n "$why" ]; then
		printf -- '-\t?\tnot-graded\t%s\n' "$why" >"$out/$name/summary.tsv"
		printf '%s,not graded,?,"-","%s",""\n' "$name" "$why" >"$out/$name/row.csv"
		echo "$name not-graded 0"
	else
		sh "$here/grade.sh" lane "$labdir" "$ksrc" "$tree" "$obj" "$out" "$k" "$stamp" "$handin" "$@"
	fi
	[ "${GRADE_TAR:-0}" = 0 ] || tar cf "$out/../$name.result.tar" -C "$out" .
	;;
lane)
	# one hand-in of a batch, in lane K: "lane LAB KSRC TREE OBJ OUT K STAMP PATCH FRAGMENT..."
	k=$handin stamp=$1 h=$2
	shift 2
	obj=$(lane_obj "$k") tree=$(lane_tree "$k")
	name=$(basename "$h" .patch)
	start=$(date +%s)
	rm -f "$out/$name/summary.tsv" "$out/$name/stamp"
	mkdir -p "$out/$name"
	{ echo "grade: $name in lane $k ($tree) on $(hostname)"; hold_lock "$tree"; grade_one "$h" "$out/$name" "$@"; } \
		>"$out/$name.log" 2>&1
	IFS='	' read -r score max failed health <"$out/$name/summary.tsv" ||
		{ score=- max='?' failed=not-graded health="no verdict (see $out/$name.log)"; }
	if [ "$score" = - ]; then
		# no stamp: a rerun of the batch grades it again
		printf '%s,not graded,%s,"-","%s",%s\n' "$name" "$max" \
			"$(echo "$health" | sed 's/"/""/g')" "$(written_cols "$h")" >"$out/$name/row.csv"
		echo "$name not-graded $(($(date +%s) - start))"
		exit 0
	fi
	printf '%s,%s,%s,"%s","%s",%s\n' "$name" "$score" "$max" "$failed" \
		"$(echo "$health" | sed 's/"/""/g')" "$(written_cols "$h")" >"$out/$name/row.csv"
	echo "$stamp" >"$out/$name/stamp"
	echo "$name $score/$max $(($(date +%s) - start))"
	;;
esac
