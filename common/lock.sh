# One writer per tree (sourced).  Every command that changes a kernel tree,
# its objects or a release folder holds that folder's lock while it works:
# two commands that share a tree (a batch grading in build/grade while a
# single hand-in is graded there too) would otherwise reset and rebuild it
# under each other.  A second command waits, and says for whom.

# held: say in the lock file who holds it, for those who wait
held() {
	printf '%s (pid %s, since %s)\n' "${COURSE_COMMAND:-$0}" "$$" "$(date +%T)" >"$lock"
	HELD_LOCKS="${HELD_LOCKS:-} $lock"
	export HELD_LOCKS
}

# try_lock DIR: hold DIR's lock (DIR.lock beside it) until this shell and
# the programs it started have exited, if no other command holds it; fail
# at once otherwise.  A script run by one that holds DIR's lock finds it in
# HELD_LOCKS and goes on.  One lock per shell.
try_lock() {
	lock=$(realpath -m "$1").lock
	case " ${HELD_LOCKS:-} " in *" $lock "*) return 0 ;; esac
	mkdir -p "$(dirname "$lock")"
	exec 8>>"$lock"
	flock -n 8 || { exec 8>&-; return 1; }
	held
}

# hold_lock DIR: hold DIR's lock, waiting while another command holds it,
# after saying which command that is.
hold_lock() {
	try_lock "$1" && return 0
	echo "${LOCK_WHO:-lock}: waiting for $1, in use by $(head -n 1 "$lock" 2>/dev/null || echo 'another command')"
	exec 8>>"$lock"
	flock 8
	held
}
