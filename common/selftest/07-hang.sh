# A guest that never ends is killed at the timeout, and said to have hung;
# one that never reaches /init (its CPU held stopped) is killed at the boot
# budget, well before the timeout, and said not to have booted.  The
# timeout leaves room for a boot under load: beside a cold kernel build on
# two cores (CI) a boot took 20 s, and a 20 s timeout killed the guest
# before init had run the command.
# timeout: 150
. common/testlib.sh
scratch

limit=60
start=$(date +%s)
$QEMU --timeout $limit --boot-budget 30 --log "$SCRATCH/console" "$BZIMAGE" "$INITRAMFS" \
	-- sleep 100000 2>"$SCRATCH/err"
rc=$?
took=$(($(date +%s) - start))
cat "$SCRATCH/err"
tail -n 5 "$SCRATCH/console"
[ "$rc" -eq 251 ] || fail "qemu.sh exited $rc for a hung guest, expected 251"
expect_grep "^qemu: guest hung: killed after $limit s" "$SCRATCH/err"
expect_grep 'init: running sleep 100000' "$SCRATCH/console"
[ "$took" -ge $limit ] && [ "$took" -lt $((limit + 15)) ] ||
	fail "killed after $took s, expected $limit-$((limit + 15)) s"

start=$(date +%s)
QEMU_EXTRA=-S $QEMU --timeout $limit --boot-budget 5 --log "$SCRATCH/console2" "$BZIMAGE" "$INITRAMFS" \
	-- true 2>"$SCRATCH/err2"
rc=$?
took=$(($(date +%s) - start))
cat "$SCRATCH/err2"
[ "$rc" -eq 253 ] || fail "qemu.sh exited $rc for a guest that never booted, expected 253"
expect_grep "^qemu: the guest did not reach /init within 5 s: killed \(console log: $SCRATCH/console2\)" "$SCRATCH/err2"
[ "$took" -ge 5 ] && [ "$took" -lt 20 ] || fail "killed after $took s, expected 5-20 s"
