#!/bin/sh
# Put a worktree of the kernel repository at REF, plus a patch series, for
# grading and self-tests.  The worktree belongs to the course tools: it is
# reset with checkout -f and clean, so it must never be a student's tree.
# Its obj/, if any, is kept: an object folder inside the tree (make test's).
#
#   worktree.sh KERNEL-SOURCE-DIR TREE REF [PATCH [LOG]]
#
# Exit status: 0 ready, 2 PATCH does not apply (git's words in LOG), 1 other.
set -u

ksrc=$1 tree=$2 ref=$3 patch=${4:-} log=${5:-/dev/stderr}
if [ ! -e "$tree/.git" ]; then
	echo "worktree: making $tree (once, about 30 s)"
	git -C "$ksrc" worktree add -q --detach "$(realpath -m "$tree")" "$ref" || exit 1
fi
git -C "$tree" am --abort >/dev/null 2>&1

# checkout TARGET: the tree at TARGET, nothing else in it.  Git rewrites
# only the files that differ from what the tree holds, and make rebuilds
# only what it rewrote.
checkout() {
	git -C "$tree" checkout -q -f --detach "$1" && git -C "$tree" clean -q -fdx -e /obj
}

# applied_commit: REF plus PATCH as a commit, made in an index of its own
# without touching the tree; fails if the patch does not apply as it
# stands.  Checked out from the tree's last state, a second hand-in of the
# same code rewrites nothing and make rebuilds nothing, a mutant only its
# one file (docs/measurements.md: a lab 04 hand-in's kernel build).
applied_commit() {
	scratch=$(mktemp -d) || return 1
	GIT_INDEX_FILE=$scratch/index git -C "$tree" read-tree "$ref" &&
		GIT_INDEX_FILE=$scratch/index git -C "$tree" apply --cached "$(realpath "$patch")" 2>/dev/null &&
		t=$(GIT_INDEX_FILE=$scratch/index git -C "$tree" write-tree) &&
		echo "hand-in $(basename "$patch")" | git -C "$tree" -c user.name=grader -c user.email=grader@localhost \
			commit-tree "$t" -p "$ref^{commit}"
	rc=$?
	rm -rf "$scratch"
	return $rc
}

[ -n "$patch" ] || { checkout "$ref" || exit 1; exit 0; }
if commit=$(applied_commit); then
	checkout "$commit" || exit 1
	[ -z "${5:-}" ] || echo "worktree: $patch applied to $ref as it stands" >"$log"
	exit 0
fi
# A patch that needs git am's three-way merge (made on an older skeleton).
checkout "$ref" || exit 1
if ! git -C "$tree" -c user.name=grader -c user.email=grader@localhost \
	am -q -3 "$(realpath "$patch")" >"$log" 2>&1; then
	git -C "$tree" am --abort >/dev/null 2>&1
	exit 2
fi
