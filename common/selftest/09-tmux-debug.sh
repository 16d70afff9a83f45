# make tmux: QEMU waits in one pane, gdb in the other is connected with the
# lab breakpoints listed; arming one and continuing stops in kernel_clone.
# timeout: 180
. common/testlib.sh
scratch

session=kh-selftest-tmux-$$
trap 'tmux kill-session -t "=$session" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
port=$((20000 + ($$ + 7) % 20000))
TMUX_DETACHED=1 TMUX_SESSION=$session make --no-print-directory -s tmux $MAKE_VARS GDB_PORT="$port" \
	LOGS="$SCRATCH" || fail "make tmux failed"
panes=$(tmux list-panes -t "=$session" -F '#{pane_id}')
[ "$(echo "$panes" | wc -l)" -eq 2 ] || fail "expected 2 panes, got: $panes"
gdb_pane=$(echo "$panes" | tail -n 1)
pane() { tmux capture-pane -p -J -S -300 -t "$gdb_pane" >"$SCRATCH/pane"; }
shows() { pane; grep -q -a -E -- "$1" "$SCRATCH/pane"; }

wait_for 60 shows '^Lab breakpoints'
wait_for 30 shows '^\(gdb\) $'
tmux send-keys -t "$gdb_pane" 'enable 1' Enter 'continue' Enter
wait_for 90 shows '^Thread [0-9]+ hit Breakpoint 1, kernel_clone \('
cat "$SCRATCH/pane"
