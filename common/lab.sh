#!/bin/sh
# A student's lab life cycle in the kernel tree.  Never discards work:
# every step refuses, saying why, when it would.
#
#   lab.sh start KERNEL-SOURCE-DIR N LAB-DIR START-REF
#	branch labN from START-REF, apply LAB-DIR/skeleton.patch, tag labN-start
#   lab.sh handin KERNEL-SOURCE-DIR N FROM-REF OUT.patch [REFERENCE-REF]
#	write the commits FROM-REF..HEAD to OUT.patch, check that it applies
#	on REFERENCE-REF (where the grader starts), then checkpatch them
set -eu

cmd=$1 ksrc=$2 n=$3
g() { git -C "$ksrc" "$@"; }
. "$(dirname "$0")/lock.sh"
LOCK_WHO=lab hold_lock "$ksrc"

# Refuse when the tree holds work that is not committed: it is the student's.
require_clean() {
	if [ -n "$(g status --porcelain)" ]; then
		echo "lab: $ksrc has changes that are not committed:" >&2
		g status --short | head -n 10 | sed 's/^/    /' >&2
		echo "lab: commit them first (git -C $ksrc commit -a), then run this again." >&2
		exit 1
	fi
}

# A committer is needed for git am; default to the login name, locally.
if ! g config user.email >/dev/null; then
	g config user.name "$(id -un)"
	g config user.email "$(id -un)@localhost"
	echo "lab: git identity for $ksrc set to $(id -un) <$(id -un)@localhost>; change it with git config"
fi

case $cmd in
start)
	labdir=$4 from=$5
	require_clean
	if g rev-parse -q --verify "refs/tags/lab$n-start" >/dev/null; then
		echo "lab: lab $n is already started (tag lab$n-start, branch lab$n); nothing was changed." >&2
		echo "lab: to start it again, first keep the old attempt under another name:" >&2
		echo "lab:   git -C $ksrc tag -m old lab$n-old lab$n-start && git -C $ksrc tag -d lab$n-start && git -C $ksrc branch -m lab$n lab$n-old" >&2
		exit 1
	fi
	if g rev-parse -q --verify "refs/heads/lab$n" >/dev/null; then
		echo "lab: a branch lab$n already exists in $ksrc; rename it (git branch -m lab$n OTHER) and run this again." >&2
		exit 1
	fi
	# -3: on a student's own earlier lab (OWN=1) the skeleton's context may
	# differ; the reference blobs it names are in this repository.
	was=$(g symbolic-ref -q --short HEAD || g rev-parse HEAD)
	g checkout -q -b "lab$n" "$from"
	if ! g am -q -3 "$(realpath "$labdir/skeleton.patch")" >/dev/null 2>&1; then
		files=$(g diff --name-only --diff-filter=U | paste -s -d ' ')
		g am --abort
		g checkout -q "$was"
		g branch -q -D "lab$n"
		echo "lab: $labdir/skeleton.patch does not apply on $from${files:+ (conflicts in: $files)}; nothing was changed." >&2
		echo "lab: your code differs from the reference where lab $n's skeleton changes it;" \
			"start on the reference instead: make lab$n (without OWN=1)." >&2
		exit 1
	fi
	g tag "lab$n-start"
	case $from in
	refs/course/*) ;;
	*) echo "lab: lab $n starts on your own work ($from); make handin-lab$n checks that it applies where the grader starts" ;;
	esac
	echo "lab: lab $n ready in $ksrc on branch lab$n (tag lab$n-start). The TODOs:"
	g diff --name-only "lab$n-start^" "lab$n-start" | while read -r f; do
		grep -n 'TODO [0-9]' "$ksrc/$f" | sed "s|^|    $f:|"
	done
	echo "lab: read $labdir/README.md; then: make run, make check-lab$n, make handin-lab$n"
	;;
handin)
	from=$4 patch=$5 ref=${6:-}
	require_clean
	count=$(g rev-list --count "$from..HEAD")
	if [ "$count" -eq 0 ]; then
		echo "lab: no commits since $from in $ksrc: nothing to hand in (commit your work first)." >&2
		exit 1
	fi
	mkdir -p "$(dirname "$patch")"
	patch=$(realpath "$patch")
	g format-patch -q --stdout "$from..HEAD" >"$patch"
	echo "handin: $patch ($count commits since $from)"
	# The grader starts from the reference skeleton (REF): say now if the
	# patch would not apply there (a lab started on one's own earlier lab).
	if [ -n "$ref" ] && g rev-parse -q --verify "$ref^{commit}" >/dev/null; then
		index=$(mktemp)
		if ! { GIT_INDEX_FILE=$index g read-tree "$ref" &&
			GIT_INDEX_FILE=$index g apply --cached --check "$patch"; } >"$index.log" 2>&1; then
			echo "handin: WARNING: the patch does not apply to the reference lab $n skeleton," \
				"where the grader starts: $(grep -m1 '^error' "$index.log")"
			echo "handin: move your lab $n work onto it, resolve, and hand in again:" \
				"git -C $ksrc rebase --onto $ref $from && git -C $ksrc tag -f $from $ref"
		fi
		rm -f "$index" "$index.log"
	fi
	echo "handin: checkpatch --strict says:"
	(cd "$ksrc" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --terse --no-signoff "$patch") |
		sed 's/^/    /' || true
	;;
*)
	echo "usage: lab.sh start|handin ..." >&2
	exit 2
	;;
esac
