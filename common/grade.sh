#!/bin/sh
# Grade hand-ins on the grading worktree, never on the instructor's tree.
#
#   grade.sh one  LAB-DIR KSRC TREE OBJ OUT HANDIN FRAGMENT...
#	TREE at the lab's skeleton, HANDIN applied with git am ('-': none),
#	then check.sh; OUT gets the logs and summary.tsv
#   grade.sh many LAB-DIR KSRC TREE OBJ OUT HANDINS-DIR FRAGMENT...
#	each HANDINS-DIR/*.patch in turn, into OUT/NAME/, and OUT/grades.csv
#
# TREE (a worktree of KSRC's repository) and OBJ (its kernel objects) are
# reused from one hand-in to the next, so that only what a hand-in changes
# is rebuilt.  Environment: as for check.sh; GRADE_REF overrides the
# starting point (default refs/course/LAB/skeleton).
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

grade_one() {
	h=$1 o=$2
	shift 2
	mkdir -p "$o"
	[ "$h" != - ] || h=
	sh "$here/worktree.sh" "$ksrc" "$tree" "$ref" "$h" "$o/apply.log"
	case $? in
	0) sh "$here/check.sh" "$labdir" "$tree" "$obj" "$o" "$@" ;;
	2)
		max=$(awk '!/^#/ && NF { s += $3 } END { print s + 0 }' "$labdir/tests.conf")
		why="the hand-in does not apply: $(grep -m1 -E 'error|failed|does not' "$o/apply.log" || head -n1 "$o/apply.log")"
		echo "grade: $why (log: $o/apply.log)"
		echo "Score: 0/$max"
		printf '0\t%s\tall\t%s\n' "$max" "$why" >"$o/summary.tsv"
		return 1
		;;
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
	mkdir -p "$out"
	csv=$out/grades.csv
	echo "name,score,max,failed,health,answers" >"$csv"
	i=0
	for h in "$handin"/*.patch; do
		i=$((i + 1))
		name=$(basename "$h" .patch)
		start=$(date +%s)
		rm -f "$out/$name/summary.tsv"
		grade_one "$h" "$out/$name" "$@" >"$out/$name.log" 2>&1
		IFS='	' read -r score max failed health <"$out/$name/summary.tsv" ||
			{ score=0 max='?' failed=all health="no verdict (see $out/$name.log)"; }
		printf '%s,%s,%s,"%s","%s","%s"\n' "$name" "$score" "$max" "$failed" \
			"$(echo "$health" | sed 's/"/""/g')" "$(answers_of "$h")" >>"$csv"
		echo "grade: [$i/$total] $name: $score/$max ($(($(date +%s) - start)) s; log: $out/$name.log)"
	done
	echo "grade: $csv"
	;;
esac
