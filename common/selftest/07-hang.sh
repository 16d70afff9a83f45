# A guest that never ends is killed at the timeout, and said to have hung.
# timeout: 90
. common/testlib.sh
scratch

start=$(date +%s)
$QEMU --timeout 20 --log "$SCRATCH/console" "$BZIMAGE" "$INITRAMFS" \
	-- /bin/sleep 100000 2>"$SCRATCH/err"
rc=$?
took=$(($(date +%s) - start))
cat "$SCRATCH/err"
[ "$rc" -eq 251 ] || fail "qemu.sh exited $rc for a hung guest, expected 251"
expect_grep '^qemu: guest hung: killed after 20 s' "$SCRATCH/err"
expect_grep 'init: running /bin/sleep 100000' "$SCRATCH/console"
[ "$took" -ge 20 ] && [ "$took" -lt 35 ] || fail "killed after $took s, expected 20-35 s"
