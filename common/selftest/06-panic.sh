# A guest kernel that panics is reported as a panic, well within the timeout.
# timeout: 120
. common/testlib.sh
scratch

start=$(date +%s)
$QEMU --timeout 90 --log "$SCRATCH/console" "$BZIMAGE" "$INITRAMFS" \
	-- /bin/sh -c "echo c > /proc/sysrq-trigger" 2>"$SCRATCH/err"
rc=$?
cat "$SCRATCH/err"
[ "$rc" -eq 250 ] || fail "qemu.sh exited $rc for a panic, expected 250"
expect_grep '^qemu: guest kernel panic: sysrq triggered crash' "$SCRATCH/err"
[ $(($(date +%s) - start)) -lt 60 ] || fail "the panic was only noticed after $(($(date +%s) - start)) s"
