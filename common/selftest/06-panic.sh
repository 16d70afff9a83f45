# A guest kernel that panics is reported as a panic, well within the timeout.
# timeout: 400
. common/testlib.sh
scratch

start=$(date +%s)
$QEMU --timeout 120 --boot-budget 60 --tries 3 --log "$SCRATCH/console" "$BZIMAGE" "$INITRAMFS" \
	-- /bin/sh -c "echo c > /proc/sysrq-trigger" 2>"$SCRATCH/err"
rc=$?
cat "$SCRATCH/err"
[ "$rc" -eq 250 ] || fail "qemu.sh exited $rc for a panic, expected 250"
expect_grep '^qemu: guest kernel panic: sysrq triggered crash' "$SCRATCH/err"
# (a boot killed at the boot budget and tried again adds its 60 s)
took=$(($(date +%s) - start)) boots=$((1 + $(grep -c '^qemu: booting again' "$SCRATCH/err")))
[ "$took" -lt $((60 * boots)) ] || fail "the panic was only noticed after $took s ($boots boots)"
