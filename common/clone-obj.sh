#!/bin/sh
# Give a second test worktree the objects of the first, so that its first
# build compiles only what differs (a cold one beside the other lane: 7 min).
#
#   clone-obj.sh FROM-TREE TO-TREE
#
# Both trees are worktrees at the same commit, each with its objects in
# TREE/obj: kbuild then names sources relative to the objects ("..") and
# the copy is valid in the other tree.  objtool is the exception: tools/
# builds with absolute paths, so it is rebuilt for TO-TREE.  Then every
# file of the copy, objtool's too, is given one and the same present time:
# TO-TREE may have been checked out while FROM-TREE built (make test does
# that), and a source, a header or objtool newer than an object would make
# kbuild compile it again (a late lane compiled 225 files, and 1019 when
# objtool alone looked newer).
set -eu

from=$1 to=$2
[ -d "$from/obj/tools/objtool" ] || { echo "clone-obj: $from/obj has no built kernel" >&2; exit 1; }
rm -rf "$to/obj.partial"
cp -a "$from/obj" "$to/obj.partial"
mv "$to/obj.partial" "$to/obj"
MAKEFLAGS='' make -s -C "$to" O="$(realpath "$to/obj")" tools/objtool >/dev/null
now=$(date +%s.%N)
find "$to/obj" -exec touch -h -d "@$now" {} +
