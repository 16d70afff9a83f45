# make run: a student's session, typed into tmux: the busybox shell answers
# a command with the lab kernel's release, and 'poweroff' ends QEMU cleanly.
# timeout: 180
. common/testlib.sh
scratch

session=kh-selftest-run-$$
# on the way out, the screen: what the session showed when a wait gave up
trap 'tmux capture-pane -p -J -S -60 -t "$session" 2>/dev/null | sed "s/^/screen| /";
	tmux kill-session -t "=$session" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
release=$(cat "$KOBJ/include/config/kernel.release")
screen() { tmux capture-pane -p -J -S -200 -t "$session" >"$SCRATCH/screen"; cat "$SCRATCH/screen"; }
shows() { screen | grep -q -a -E -- "$1"; }
shows_line() { screen | grep -q -a -x -F -- "$1"; }

# printf starts a line of its own: the shell may print a prompt after poweroff
tmux new-session -d -s "$session" -x 160 -y 50 \
	"make --no-print-directory -s run $MAKE_VARS LOGS=$SCRATCH; printf '\\nmake-run-exit=%s\\n' \$?; sleep 60"
wait_for 120 shows 'root@lab:[^ ]*# $'
# The reply must come from the guest: the shell computes the number.  The
# shell has the console as its controlling tty (Ctrl-C works there).
tmux send-keys -t "$session" 'echo "release=$(uname -r) sum=$((20 + 22)) ctty=$( (exec 3</dev/tty) && echo yes)"' Enter
wait_for 30 shows_line "release=$release sum=42 ctty=yes"
tmux send-keys -t "$session" 'poweroff' Enter
wait_for 60 shows '^make-run-exit='
screen | tail -n 20
shows '^make-run-exit=0$' || fail "make run did not end with status 0 after poweroff"
