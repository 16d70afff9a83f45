#!/bin/sh
# Extract Debian's linux-source tarball into a git repository whose first
# commit is tagged "base", so that each lab is a commit and a student's work
# is a diff.  An existing tree is never touched: it may hold a student's work.
set -eu

ksrc=${1:?usage: tree.sh KERNEL-SOURCE-DIR}
tarball=$(ls /usr/src/linux-source-6.1.tar.xz 2>/dev/null) ||
	{ echo "tree: /usr/src/linux-source-6.1.tar.xz not found: run 'make deps'" >&2; exit 1; }

if [ -e "$ksrc" ]; then
	if git -C "$ksrc" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
		exit 0
	fi
	echo "tree: $ksrc exists but is not a kernel tree made by this course (no 'base' tag)." >&2
	echo "tree: it is left alone; move it away yourself if it holds nothing you need." >&2
	exit 1
fi

tmp="$ksrc.partial"
rm -rf "$tmp"		# only ever our own half-finished extraction
mkdir -p "$tmp"
start=$(date +%s)
echo "tree: extracting $tarball (1.5 GB, about 20 s)"
tar -C "$tmp" --strip-components=1 -xJf "$tarball"
version=$(make -s -C "$tmp" kernelversion)
echo "tree: Linux $version; recording it as the git commit tagged 'base' (about 1 min)"
# Debian's packaging appends "/*" to .gitignore, which would hide every new
# file a student adds; drop that block so that git sees the lab work.
sed -i '/^# Debian packaging/,$d' "$tmp/.gitignore"
git -C "$tmp" init -q
git -C "$tmp" config gc.auto 0
git -C "$tmp" add -A -f
git -C "$tmp" -c user.name="kernel-hooks lab" -c user.email=lab@localhost \
	commit -q -m "Linux $version from Debian's linux-source package" \
	-m "$(basename "$tarball") as installed, minus the Debian block of .gitignore."
git -C "$tmp" tag base
mv "$tmp" "$ksrc"
echo "tree: $ksrc ready: Linux $version, tag 'base' ($(($(date +%s) - start)) s)"
