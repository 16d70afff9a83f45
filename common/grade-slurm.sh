#!/bin/sh
# A class's hand-ins graded as a Slurm job array, one hand-in a task.
#
#   sbatch --array=1-N common/grade-slurm.sh COURSE LAB KSRC TREE OBJ OUT FRAGMENT...
#
# make grade-labN HANDINS=dir/ SLURM=1 submits it (common/grade.sh), after
# writing OUT/todo, the N hand-ins to grade, a "STAMP<tab>PATCH" line each.
# Task I grades line I's hand-in in COURSE, a course folder at the same
# path on every node (the same commit, its packages: what a host of HOSTS
# needs), in the first free lane of its node; OUT and the hand-ins are on
# storage every node shares.  Each hand-in's results land in OUT/NAME/; the
# same make grade-labN, run again once the array is done, finds them graded
# and writes OUT/grades.csv (and grades any a machine left without a verdict).
#SBATCH --job-name=kernel-hooks-grade
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=00:30:00
set -u

course=$1 lab=$2 ksrc=$3 tree=$4 obj=$5 out=$6
shift 6
i=${SLURM_ARRAY_TASK_ID:?grade-slurm: run me as a job array: sbatch --array=1-N}
line=$(sed -n "${i}p" "$out/todo")
[ -n "$line" ] || { echo "grade-slurm: no hand-in number $i in $out/todo" >&2; exit 2; }
stamp=${line%%	*} patch=${line#*	}
cd "$course" || exit 1
exec sh common/grade.sh remote "$lab" "$ksrc" "$tree" "$obj" "$out" "$patch" "$stamp" "$i" "$@"
