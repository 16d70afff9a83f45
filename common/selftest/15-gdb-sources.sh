# gdb shows this tree's sources for an object compiled in another tree
# (ccache hands one tree's objects to another): gdb-sources.sh maps each
# compile directory an ELF names to the object folder it sits in.  One
# file compiled in "other tree/obj" (a blank in the name, as a path may
# have), its object copied to "this/obj" beside a different source; gdb
# must list this tree's line, and without the map lists the other's (the
# check can fail).
# timeout: 30
. common/testlib.sh
scratch
trap 'rm -rf "$SCRATCH"' EXIT
other="$SCRATCH/other tree" this=$SCRATCH/this
mkdir -p "$other/obj" "$this/obj"
printf 'int probe(int x)\n{\n\treturn x + 1; /* %s */\n}\n' other-line >"$other/probe.c"
printf 'int probe(int x)\n{\n\treturn x + 1; /* %s */\n}\n' this-line >"$this/probe.c"
(cd "$other/obj" && gcc -g -c ../probe.c -o probe.o) || fail "gcc could not compile the probe"
cp "$other/obj/probe.o" "$this/obj/"

sh common/gdb-sources.sh "$this/obj/probe.o" "$this/obj" >"$SCRATCH/sources.gdb" ||
	fail "gdb-sources.sh failed"
[ "$(wc -l <"$SCRATCH/sources.gdb")" = 1 ] ||
	fail "one compile directory to map, got: $(cat "$SCRATCH/sources.gdb")"
list() { gdb -q -batch -nx "$@" -ex 'list probe' "$this/obj/probe.o" 2>&1; }
list -x "$SCRATCH/sources.gdb" >"$SCRATCH/mapped.txt"
expect_grep 'this-line' "$SCRATCH/mapped.txt"
list >"$SCRATCH/unmapped.txt"
expect_grep 'other-line' "$SCRATCH/unmapped.txt"
# and when the other tree is gone
rm -rf "$other"
list -x "$SCRATCH/sources.gdb" >"$SCRATCH/gone.txt"
expect_grep 'this-line' "$SCRATCH/gone.txt"
