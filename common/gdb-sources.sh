#!/bin/sh
# gdb commands that make gdb show OBJECT-DIR's sources for ELF's code.
#
#   gdb-sources.sh ELF OBJECT-DIR >FILE.gdb
#
# Each object names the directory it was compiled in (DW_AT_comp_dir), and
# gdb reads its source from there.  An object that came from ccache names
# the tree that first compiled it: another lane's, a grading tree's, a
# hand-in's scratch tree long deleted (make test in CI, 5 Dec: lab 01's
# session printed no source line for fork.c).  Every compile directory ELF
# names is mapped to OBJECT-DIR, and kbuild names sources relative to it.
set -eu

elf=$1 obj=$(realpath "$2")
[ -r "$elf" ] || { echo "gdb-sources: $elf not found: build the kernel first" >&2; exit 2; }
# depth 1: the compile units' own entries only (1 s for vmlinux, not minutes)
readelf --debug-dump=info --dwarf-depth=1 "$elf" |
	sed -n 's/^ *<[0-9a-f]*> *DW_AT_comp_dir *: \(([^)]*): \)\{0,1\}//p' | sort -u |
	while IFS= read -r dir; do
		[ "$dir" = "$obj" ] || printf 'set substitute-path "%s" "%s"\n' "$dir" "$obj"
	done
