#!/bin/sh
# Which hand-ins of a lab look copied from one another.  Each hand-in's C
# files as it leaves them (the lab's skeleton plus its patch, applied in a
# scratch index: no worktree), less every line the skeleton already has,
# are compared two by two with sim_c (Debian's similarity-tester), which
# sees through renamed identifiers and moved functions; the pairs are
# ranked by the larger of the two shares.
#
#   similarity.sh LAB-DIR KERNEL-SOURCE-DIR HANDINS-DIR OUT-FILE
set -u

labdir=$1 ksrc=$2 handins=$3 out=$4
lab=$(basename "$labdir")
ref=refs/course/$lab/skeleton
command -v sim_c >/dev/null || { echo "similarity: sim_c is missing: sudo apt-get install similarity-tester" >&2; exit 2; }
ls "$handins"/*.patch >/dev/null 2>&1 || { echo "similarity: no .patch files in $handins" >&2; exit 2; }
git -C "$ksrc" rev-parse -q --verify "$ref^{commit}" >/dev/null || { echo "similarity: no $ref (make course-refs)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$(dirname "$out")"
: >"$work/skipped"

for h in "$handins"/*.patch; do
	name=${h##*/} && name=${name%.patch}
	export GIT_INDEX_FILE=$work/index
	git -C "$ksrc" read-tree "$ref"
	mkdir "$work/mail"
	git mailsplit -o"$work/mail" "$h" >/dev/null 2>&1
	ok=1
	for m in "$work/mail"/*; do
		[ -f "$m" ] || { ok=; break; }
		git -C "$ksrc" apply --cached "$(realpath "$m")" 2>/dev/null || { ok=; break; }
	done
	rm -rf "$work/mail"
	if [ -z "$ok" ]; then
		echo "  $name: does not apply to the skeleton" >>"$work/skipped"
		continue
	fi
	# the lines the student wrote, file by file, in one C file per hand-in
	git -C "$ksrc" diff --cached --name-only "$ref" -- '*.c' '*.h' | while read -r f; do
		git -C "$ksrc" show "$ref:$f" 2>/dev/null >"$work/old"
		git -C "$ksrc" show ":$f" >"$work/new"
		echo "/* $f */"
		awk 'NR == FNR { gsub(/^[ \t]+|[ \t]+$/, ""); had[$0] = 1; next }
			{ line = $0; gsub(/^[ \t]+|[ \t]+$/, "", line) } line != "" && !had[line]' "$work/old" "$work/new"
	done >"$work/src/$name.c"
	unset GIT_INDEX_FILE
	[ -s "$work/src/$name.c" ] || { echo "  $name: changes no C file" >>"$work/skipped"; rm "$work/src/$name.c"; }
done

n=$(ls "$work/src" | wc -l)
{
	echo "Similarity of $lab hand-ins ($handins): what each wrote beyond the skeleton,"
	echo "compared by sim_c; a pair's share is how much of one consists of the other."
	echo
	printf '%4s  %-40s %8s %8s\n' rank pair "A in B" "B in A"
	# (sim_c takes no "--": for it, that means "print the tokens")
	(cd "$work/src" && sim_c -p -e -s -a ./*.c 2>/dev/null) |
		sed -n 's|^\./\(.*\)\.c consists for \([0-9]*\) % of \./\(.*\)\.c material$|\1 \3 \2|p' |
		awk '{ a = $1 < $2 ? $1 : $2; b = $1 < $2 ? $2 : $1; key = a " " b
			share[key, ($1 == a) ? 1 : 2] = $3; keys[key] = 1 }
		END { for (k in keys) { split(k, p, " "); x = share[k, 1] + 0; y = share[k, 2] + 0
			printf "%d %s %s %d %d\n", (x > y ? x : y), p[1], p[2], x, y } }' |
		sort -k1,1nr -k2 | awk '{ printf "%4d  %-40s %7d%% %7d%%\n", NR, $2 " - " $3, $4, $5 }'
	echo
	echo "$n hand-ins compared; pairs below 1 % are not listed."
	[ ! -s "$work/skipped" ] || { echo "Not compared:"; cat "$work/skipped"; }
} >"$out"
cat "$out"
