#!/bin/sh
# QEMU's console (waiting for gdb) and gdb side by side in one tmux session.
#   tmux.sh QEMU-COMMAND GDB-COMMAND
# TMUX_DETACHED=1 leaves the session in the background (used by the tests).
set -eu

session=${TMUX_SESSION:-kernel-hooks-$(id -un)}
if tmux has-session -t "=$session" 2>/dev/null; then
	echo "tmux: session '$session' is already running: 'tmux attach -t $session'," >&2
	echo "tmux: or end it with 'tmux kill-session -t $session'" >&2
	exit 1
fi
tmux new-session -d -s "$session" -x 200 -y 50 "$1"
tmux split-window -h -t "$session" "$2"
tmux set-option -t "$session" remain-on-exit on >/dev/null
echo "tmux: session '$session': QEMU on the left, gdb on the right (Ctrl-B o switches)"
if [ "${TMUX_DETACHED:-0}" = 1 ]; then
	exit 0
elif [ -n "${TMUX:-}" ]; then
	exec tmux switch-client -t "$session"
else
	exec tmux attach -t "$session"
fi
