# make similarity-labN on made-up hand-ins: the reference solution; a copy
# of it with its local names renamed and its functions in reverse order; an
# independent solution written apart (solutions/similarity/LAB/); and the
# skeleton with one line changed; and the skeleton with only the answers
# file changed.  The copy must rank first,
# with the reference; the independent one must share less with either;
# the one-line hand-in shares little with anyone (the skeleton's lines do
# not count); the answers-only one has no C to compare, and is said so.
# (Two independent solutions of one skeleton share much: the same kernel
# calls in the same places.  Measured: the copy 92 %, the independent one
# 53 % with the reference; the test asks for 20 points between them.)
# timeout: 120
. common/testlib.sh
scratch
lab=$1
export GIT_AUTHOR_NAME=Student GIT_AUTHOR_EMAIL=student@localhost
export GIT_COMMITTER_NAME=Student GIT_COMMITTER_EMAIL=student@localhost
g() { git -C "$KSRC" "$@"; }
gi() { GIT_INDEX_FILE="$SCRATCH/index" git -C "$KSRC" "$@"; }
mkdir "$SCRATCH/handins"

# handin NAME: the skeleton with the files under $SCRATCH/NAME/ put in
handin() {
	gi read-tree "refs/course/$lab/skeleton"
	(cd "$SCRATCH/$1" && find . -type f | sed 's|^\./||') | while read -r f; do
		gi update-index --add --cacheinfo "100644,$(g hash-object -w "$SCRATCH/$1/$f"),$f"
	done
	c=$(g commit-tree "$(gi write-tree)" -p "refs/course/$lab/skeleton" -m "$lab: $1") || fail "no commit for $1"
	g format-patch -q --stdout -1 "$c" >"$SCRATCH/handins/$1.patch"
}

files=$(cd "solutions/similarity/$lab" && find . -type f -name '*.c' | sed 's|^\./||')
[ -n "$files" ] || fail "no independent solution in solutions/similarity/$lab"
for f in $files; do
	mkdir -p "$SCRATCH/reference/$(dirname "$f")" "$SCRATCH/copy/$(dirname "$f")" "$SCRATCH/independent/$(dirname "$f")"
	g show "refs/course/$lab/solution:$f" >"$SCRATCH/reference/$f" || fail "the solution has no $f"
	cp "solutions/similarity/$lab/$f" "$SCRATCH/independent/$f"
	# the copy: every local name and parameter the solution declares
	# renamed, and its function definitions in reverse order
	python3 - "$SCRATCH/reference/$f" >"$SCRATCH/copy/$f" <<'PY' || fail "could not make the copy of $f"
import re, sys
text = open(sys.argv[1]).read()
decl = re.compile(r"\b(?:struct \w+ \*|int |pid_t |bool |size_t |ssize_t |char \*|unsigned int )\**(\w+)\s*[;=,)\[]")
names = sorted({m.group(1) for m in decl.finditer(text)} - {"buf", "count", "attr", "kobj"})
for i, name in enumerate(names):
    text = re.sub(rf"\b{name}\b", f"v{i}_{name[::-1]}", text)
lines = text.split("\n")
blocks, i = [], 0
while i < len(lines):
    if re.match(r"^static \w.*\(", lines[i]) and not lines[i].rstrip().endswith(";"):
        j = i
        while lines[j] != "}":
            j += 1
        blocks.append((i, j))
        i = j + 1
    else:
        i += 1
bodies = ["\n".join(lines[a:b + 1]) for a, b in blocks][::-1]
out, last = [], 0
for (a, b), body in zip(blocks, bodies):
    out.append("\n".join(lines[last:a]))
    out.append(body)
    last = b + 1
out.append("\n".join(lines[last:]))
print("\n".join(out), end="")
PY
	cmp -s "$SCRATCH/reference/$f" "$SCRATCH/copy/$f" && fail "the copy of $f is the same as the reference"
done
# barely: the skeleton's files with one line changed each; what the
# skeleton gave must not count, or it would look like everyone.
for f in $files; do
	mkdir -p "$SCRATCH/barely/$(dirname "$f")"
	g show "refs/course/$lab/skeleton:$f" | sed '0,/return -ENOSYS;/s//return -EINVAL;/' >"$SCRATCH/barely/$f"
done
mkdir -p "$SCRATCH/answers-only/Documentation/labs"
n=$(echo "$lab" | sed 's/^lab0*\([0-9]*\)-.*/\1/')
{ g show "refs/course/$lab/skeleton:Documentation/labs/lab$n-answers.md"; echo "An answer."; } \
	>"$SCRATCH/answers-only/Documentation/labs/lab$n-answers.md"
for who in reference copy independent barely answers-only; do handin "$who"; done

out=$SCRATCH/similarity.txt
sh common/similarity.sh "$lab" "$KSRC" "$SCRATCH/handins" "$out" || fail "similarity.sh failed"
# rank 1 is the copy and the reference
expect_grep '^ +1  copy - reference +[0-9]+% +[0-9]+%$' "$out"
share() { awk -v p="$1" '$2 " " $3 " " $4 == p { gsub(/%/, ""); print ($5 > $6 ? $5 : $6) }' "$out"; }
copied=$(share "copy - reference")
for pair in "copy - independent" "independent - reference"; do
	other=$(share "$pair")
	[ "${other:-0}" -le $((copied - 20)) ] ||
		fail "'$pair' shares ${other}%, not 20 points under the copy's ${copied}%"
done
[ "$copied" -ge 80 ] || fail "the renamed, reordered copy shares only ${copied}% with the reference"
expect_grep '^  answers-only: changes no C file$' "$out"
for pair in "barely - copy" "barely - independent" "barely - reference"; do
	[ "$(share "$pair")" = "" ] || [ "$(share "$pair")" -lt 20 ] ||
		fail "'$pair' shares $(share "$pair")%: the skeleton's own lines were counted"
done
