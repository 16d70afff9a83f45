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

# FILE's last lines, for a failure message: the file may be a scratch one.
file_tail() {
	[ -f "$1" ] || { echo "($1 does not exist)"; return; }
	echo "its last lines:"
	tail -n 8 "$1" | tr -d '\r' | sed 's/^/  > /'
}

# expect_grep PATTERN FILE: fail unless FILE has a line matching PATTERN.
expect_grep() {
	grep -q -a -E -- "$1" "$2" || fail "no line matching '$1' in $2; $(file_tail "$2")"
}

# expect_line TEXT FILE: fail unless FILE has a line that is exactly TEXT
# (a serial console ends its lines with CR LF; the CR does not count).
expect_line() {
	tr -d '\r' <"$2" | grep -q -a -x -F -- "$1" || fail "no line '$1' in $2; $(file_tail "$2")"
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

# The kconfig layers of LAB: the course's, then every lab's up to LAB.
lab_kconfig() {
	frags=$KCONFIG
	for d in lab[0-9][0-9]-*; do
		[ -f "$d/kconfig" ] && frags="$frags $d/kconfig"
		[ "$d" = "$1" ] && break
	done
	echo "$frags"
}

# grade_variant LAB NAME REF [PATCH]: grade LAB on the test tree at REF plus
# PATCH; the report goes to $LOGS/labtest/LAB-NAME.txt and is shown.
# Sets $GRADE_RC and $GRADE_OUT (the folder with summary.tsv).
grade_variant() {
	GRADE_OUT=$LOGS/labtest/$1-$2
	rm -rf "$GRADE_OUT"
	mkdir -p "$GRADE_OUT"
	# shellcheck disable=SC2046
	GRADE_REF=$3 sh common/grade.sh one "$1" "$KSRC" "$TEST_TREE" "$TEST_OBJ" "$GRADE_OUT" \
		"${4:--}" $(lab_kconfig "$1") >"$GRADE_OUT.txt" 2>&1
	GRADE_RC=$?
	cat "$GRADE_OUT.txt"
}

# The failed tests of the last grade_variant, one per line.
grade_failures() {
	cut -f3 "$GRADE_OUT/summary.tsv" | tr ' ' '\n' | grep -v '^-\{0,1\}$'
}
