# A tests.conf cut down to some of its tests (make check-labN T=, a mutant
# run's ONLY_TESTS) runs only those, in a lab's own test program and in one
# borrowed from another lab (BINARY "LAB/NAME"): labtest_select() knows the
# program by the name run-tests starts it with, its BINARY.  A configuration
# that does not name the program leaves it all its tests.
# timeout: 60
. common/testlib.sh
scratch

cat >"$SCRATCH/t.c" <<'C'
#include "labtest.h"
TEST(one) { }
TEST(two) { }
TEST_HARNESS_MAIN
C
gcc -O2 -Wall -pthread -I common/guest -I "$KSRC/tools/testing/selftests" -o "$SCRATCH/t" "$SCRATCH/t.c" ||
	fail "a test program with common/guest/labtest.h does not compile"
# run BINARY: the program as run-tests starts it (argv[0] its BINARY)
run() {
	LABTEST_CONF=$SCRATCH/conf python3 -c 'import os, sys; os.execv(sys.argv[1], sys.argv[2:])' \
		"$SCRATCH/t" "$1" >"$SCRATCH/out" 2>&1
	sed "s|^|$1: |" "$SCRATCH/out"
}
printf 't  global.two  10  30\nlab03-x/t  global.one  2  30\n' >"$SCRATCH/conf"
run t
expect_line '1..1' "$SCRATCH/out"
expect_grep '^ok 1 global\.two$' "$SCRATCH/out"
run lab03-x/t
expect_line '1..1' "$SCRATCH/out"
expect_grep '^ok 1 global\.one$' "$SCRATCH/out"
run /lab/tests/lab03-x/t
expect_line '1..1' "$SCRATCH/out"
expect_grep '^ok 1 global\.one$' "$SCRATCH/out"
printf 'other  global.one  1  30\n' >"$SCRATCH/conf"
run t
expect_line '1..2' "$SCRATCH/out"
