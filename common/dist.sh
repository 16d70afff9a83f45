#!/bin/sh
# A student repository for a term that releases the labs one by one.
#
#   dist.sh DEST LAB...
#
# LAB: the released labs, as lab01, lab1, 1 or lab01-fork-hook; they must be
# the first ones, in order (lab N starts from lab N-1's solution).  DEST
# becomes a git repository with one commit: the course as committed here
# (git ls-files), minus what would give an unreleased lab away:
#  - the lab after the last released one ships with its lesson, tests and
#    skeleton, without its solution, review key, planted bugs (each is a
#    diff of the solution), list of unkilled mutants or similarity
#    fixture; make course-refs builds its refs from its skeleton.patch
#    (common/skel.sh);
#  - the labs after that one do not ship: they start from a solution the
#    student does not have, and their patches' context lines show it;
#  - make bench ships only with every lab: it measures every solution, and
#    common/bench/bench.c subscribes to the proc connector as lab 02's
#    cn-fork-listen does;
#  - make test and its CI (.ci/): they grade the solutions; make soak (a
#    course machine's check);
#  - the marking keys (solutions/LAB/rubric.md and review.md) and what
#    the tests catch (LAB/instructors.md), of every lab.
# DEST/.course-release names the released labs.
set -eu

dest=${1:?usage: dist.sh DEST LAB...}
shift
labs=$(ls -d lab[0-9][0-9]-*/ | tr -d /)
[ $# -gt 0 ] || { echo "dist: say which labs are released: make dist DEST=dir RELEASED=\"lab01 lab02\"" >&2; exit 2; }

# The released labs' folders, checked to be the first ones in order.
released=
for want in "$@"; do
	n=$(echo "$want" | sed -n 's/^\(lab\)\{0,1\}0*\([1-9][0-9]*\)\(-.*\)\{0,1\}$/\2/p')
	lab=$(printf '%s\n' $labs | grep "^lab$(printf %02d "${n:-0}")-" || true)
	[ -n "$lab" ] || { echo "dist: no lab '$want'; the labs are: $(echo $labs)" >&2; exit 2; }
	released="$released $lab"
done
released=$(printf '%s\n' $released | sort -u)
expect=$(printf '%s\n' $labs | head -n "$(echo "$released" | wc -l)")
[ "$released" = "$expect" ] || {
	echo "dist: released labs must be the first ones, in order (lab N starts from lab N-1's solution):" \
		"say $(echo $expect) rather than $(echo $released)" >&2
	exit 2
}
next=$(printf '%s\n' $labs | sed -n "$(($(echo "$released" | wc -l) + 1))p")

# Two releases into one DEST at once would each find it empty.
. "$(dirname "$0")/lock.sh"
LOCK_WHO=dist hold_lock "$dest"
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
	echo "dist: $dest exists and is not empty; nothing was written (say a new DEST)" >&2
	exit 2
fi

# withheld PATH: is PATH left out of the release?
withheld() {
	for lab in $labs; do
		case " $(echo $released) $next " in *" $lab "*) ;; *)
			case $1 in "$lab"/* | solutions/"$lab"/* | solutions/similarity/"$lab"/*) return 0 ;; esac ;;
		esac
	done
	if [ -n "$next" ]; then
		case $1 in
		solutions/"$next"/* | solutions/similarity/"$next"/* | "$next"/planted/* | "$next"/mutants-equivalent.txt) return 0 ;;
		common/bench/* | common/bench.* | common/selftest/11-bench.sh) return 0 ;;
		esac
	fi
	case $1 in .ci/* | common/selftest.mk | common/selftest.sh | common/selftest/* | common/labtest/* | common/soak.sh) return 0 ;; esac
	# the marking keys and what the tests catch, of every lab
	case $1 in solutions/*/rubric.md | solutions/*/review.md | lab[0-9][0-9]-*/instructors.md) return 0 ;; esac
	return 1
}

mkdir -p "$dest"
git ls-files | while read -r f; do
	withheld "$f" || printf '%s\n' "$f"
done | tar cf - -T - | tar xf - -C "$dest"
echo $released >"$dest/.course-release"
git -C "$dest" init -q
git -C "$dest" add -A
what="labs $(echo $released)${next:+, and $next to start}"
git -C "$dest" -c user.name="Kernel Hooks Course" -c user.email=course@kernel-hooks.invalid \
	commit -q -m "kernel-hooks course: $what" \
	-m "Made by 'make dist' from $(git rev-parse --short HEAD) of the course."
echo "dist: $dest: $what ($(git -C "$dest" ls-files | wc -l) files, one commit)"
