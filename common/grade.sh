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
#	commit is not graded again, unless FORCE=1.
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
ref=${GRADE_REF:-refs/course/$lab/skeleton}

# The answers a hand-in gives to the lesson's questions: the lines it adds
# to Documentation/labs/labN-answers.md, quotes and blank lines aside.
answers_of() {
	k=$(awk '/^\+\+\+ / { f = ($2 ~ /^b\/Documentation\/labs\/lab[0-9]+-answers\.md$/); next }
		f && /^\+/ && !/^\+[ \t]*$/ && !/^\+>/ { k++ } END { print k + 0 }' "$1" 2>/dev/null)
	case ${k:-0} in 0) echo empty ;; 1) echo "present (1 line)" ;; *) echo "present ($k lines)" ;; esac
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
		sh "$here/check.sh" "$labdir" "$tree" "$obj" "$o" "$@"
		;;
	2) refuse "$o" "the hand-in does not apply: $(grep -m1 -E 'error|failed|does not' "$o/apply.log" || head -n1 "$o/apply.log")" "$o/apply.log" ;;
	*) echo "grade: could not prepare $tree at $ref" >&2; return 2 ;;
	esac
}

case $mode in
one)
	grade_one "$handin" "$out" "$@"
	rc=$?
	[ "$handin" = - ] || echo "answers: $(answers_of "$handin") (Documentation/labs/ in the hand-in)"
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
	check_disk "$jobs" || exit 2
	mkdir -p "$out"
	course=$(git -C "$ksrc" rev-parse -q --verify "$ref^{commit}") ||
		{ echo "grade: no $ref in $ksrc (make course-refs)" >&2; exit 2; }
	# Resume: a hand-in whose stamp (its patch's hash, the course commit)
	# is unchanged keeps its row.
	: >"$out/todo"
	# (shell builtins only in these loops: a class of 300 is 300 rounds)
	sha256sum "$handin"/*.patch | while read -r sum h; do
		name=${h##*/} && name=${name%.patch}
		stamp=
		[ -n "${FORCE:-}" ] || [ ! -f "$out/$name/row.csv" ] || read -r stamp <"$out/$name/stamp" 2>/dev/null
		[ "$stamp" != "$sum $course" ] || continue
		rm -f "$out/$name/row.csv"
		printf '%s\t%s\n' "$sum $course" "$h" >>"$out/todo"
	done
	todo=$(wc -l <"$out/todo")
	echo "grade: $total hand-ins, $((total - todo)) already graded (FORCE=1 grades them again), $todo to grade in $jobs lane(s)"
	if [ "$todo" -gt 0 ]; then
		# the lanes' worktrees, one after the other (git names each as it
		# makes it: two at once can collide)
		k=1
		while [ "$k" -le "$jobs" ]; do
			sh "$here/worktree.sh" "$ksrc" "$(lane_tree "$k")" "$ref" ||
				{ echo "grade: could not make $(lane_tree "$k")" >&2; exit 2; }
			k=$((k + 1))
		done
		start=$(date +%s)
		# one line per finished hand-in, with an ETA from the pace so far
		# shellcheck disable=SC2016
		parallel --will-cite --jobs "$jobs" --colsep '\t' --joblog "$out/joblog" --line-buffer \
			sh "$here/grade.sh" lane "$labdir" "$ksrc" "$tree" "$obj" "$out" "{%}" "{1}" "{2}" "$@" <"$out/todo" |
			while read -r name verdict secs log; do
				i=$(( ${i:-0} + 1 ))
				left=$(( ($(date +%s) - start) * (todo - i) / i ))
				printf 'grade: [%d/%d] %s: %s (%s s; log: %s)  ETA %dh%02dm\n' "$i" "$todo" "$name" \
					"$verdict" "$secs" "$log" $((left / 3600)) $((left % 3600 / 60))
			done
	fi
	csv=$out/grades.csv
	echo "name,score,max,failed,health,answers" >"$csv"
	for h in "$handin"/*.patch; do
		name=${h##*/} && name=${name%.patch}
		if [ -f "$out/$name/row.csv" ] && IFS= read -r row <"$out/$name/row.csv"; then
			printf '%s\n' "$row"
		else
			echo "$name,0,?,\"all\",\"no verdict (see $out/$name.log)\",\"$(answers_of "$h")\""
		fi
	done >>"$csv"
	echo "grade: $csv (joblog: $out/joblog)"
	;;
lane)
	# one hand-in of a batch, in lane K: "lane LAB KSRC TREE OBJ OUT K STAMP PATCH FRAGMENT..."
	k=$handin stamp=$1 h=$2
	shift 2
	obj=$(lane_obj "$k") tree=$(lane_tree "$k")
	name=$(basename "$h" .patch)
	start=$(date +%s)
	rm -f "$out/$name/summary.tsv"
	{ echo "grade: $name in lane $k ($tree)"; grade_one "$h" "$out/$name" "$@"; } >"$out/$name.log" 2>&1
	IFS='	' read -r score max failed health <"$out/$name/summary.tsv" ||
		{ score=0 max='?' failed=all health="no verdict (see $out/$name.log)"; }
	printf '%s,%s,%s,"%s","%s","%s"\n' "$name" "$score" "$max" "$failed" \
		"$(echo "$health" | sed 's/"/""/g')" "$(answers_of "$h")" >"$out/$name/row.csv"
	echo "$stamp" >"$out/$name/stamp"
	echo "$name $score/$max $(($(date +%s) - start)) $out/$name.log"
	;;
esac
