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
git -C "$tree" checkout -q -f --detach "$ref" && git -C "$tree" clean -q -fdx -e /obj || exit 1
[ -n "$patch" ] || exit 0
if ! git -C "$tree" -c user.name=grader -c user.email=grader@localhost \
	am -q -3 "$(realpath "$patch")" >"$log" 2>&1; then
	git -C "$tree" am --abort >/dev/null 2>&1
	exit 2
fi
