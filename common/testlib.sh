# Helpers for host-side test scripts (sourced).  A test fails by exiting
# non-zero; say why on the way out.

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_rc WANT CMD...: run CMD, fail unless it exits WANT.
expect_rc() {
	want=$1
	shift
	"$@"
	got=$?
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want"
}

# expect_grep PATTERN FILE: fail unless FILE has a line matching PATTERN.
expect_grep() {
	grep -q -a -E -- "$1" "$2" || fail "no line matching '$1' in $2"
}

# expect_line TEXT FILE: fail unless FILE has a line that is exactly TEXT.
expect_line() {
	grep -q -a -x -F -- "$1" "$2" || fail "no line '$1' in $2"
}

# wait_for SECONDS CMD...: poll CMD until it succeeds, or fail at the deadline.
wait_for() {
	deadline=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$deadline" ] || fail "gave up waiting for: $*"
		sleep 0.2
	done
}

# A scratch folder removed at exit.
scratch() {
	SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/kh-test.XXXXXX")
	trap 'rm -rf "$SCRATCH"' EXIT
}
