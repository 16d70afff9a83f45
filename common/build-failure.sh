#!/bin/sh
# Why a kernel build failed, when it is not the lab code's doing: prints
# the reason, or nothing when the code is to blame.
#
#   build-failure.sh LOG
#
# Not the code's: the machine's failures (a full disk, a compiler killed or
# crashing), and, when grading a hand-in (HANDIN_FILES lists the files it
# changes), compiler errors that name none of those files, neither where
# the error is nor in the inclusions and notes around it, from a hand-in
# that changes C files only (a header, a Makefile or a Kconfig file it
# changes can break any file that uses it).  A student's own tree has no
# such list: every error there is the code's.
set -u

log=$1
machine=$(grep -a -m1 -o -E 'No space left on device|internal compiler error|Killed signal terminated program [a-z0-9]+|virtual memory exhausted|Cannot allocate memory|Bus error' "$log")
if [ -n "$machine" ]; then
	echo "the kernel build failed on this machine: $machine (log: $log)"
	exit 0
fi
[ -n "${HANDIN_FILES:-}" ] || exit 0
for f in $HANDIN_FILES; do
	case $f in *.c | Documentation/* | tools/labs/*) ;; *) exit 0 ;; esac
done
first=$(grep -a -m1 -E '^(\.\./)?[^ :]+:[0-9]+(:[0-9]+)?: (fatal )?error:' "$log") || exit 0
# the files named by errors, notes and "In file included from" lines, as
# the compiler names them from the object folder: "../kernel/fork.c" when
# it is in the tree, "../linux/kernel/fork.c" when it is beside it (the
# grading lanes), so a hand-in's file is matched at a name's end
for f in $(sed -n -E 's,^(In file included from |                 from )?(\.\./)?([^ :]+):[0-9]+(:[0-9]+)?[:,].*,\3,p' "$log" |
	LC_ALL=C sort -u); do
	for h in $HANDIN_FILES; do
		case /$f in */"$h") exit 0 ;; esac
	done
done
first=${first%%: *error*}
echo "the kernel build failed in ${first#../}, which the hand-in does not change (log: $log)"
