# A guest that never ends is killed at the timeout, and said to have hung;
# one that never reaches /init (its CPU held stopped) is killed at the
# boot budget, well before the timeout, and said not to have booted; with
# --tries, booted again, and each failed boot's console kept.  QEMU
# failing is never taken for a guest that passed.  The timeout leaves room
# for a boot under load: beside a cold kernel build on two cores (CI) a
# boot took 20 s, and a 20 s timeout killed the guest before init had run
# the command.
# timeout: 200
. common/testlib.sh
scratch

limit=60
start=$(date +%s)
$QEMU --timeout $limit --boot-budget 45 --tries 3 --log "$SCRATCH/console" "$BZIMAGE" "$INITRAMFS" \
	-- sleep 100000 2>"$SCRATCH/err"
rc=$?
took=$(($(date +%s) - start))
cat "$SCRATCH/err"
tail -n 5 "$SCRATCH/console"
[ "$rc" -eq 251 ] || fail "qemu.sh exited $rc for a hung guest, expected 251"
expect_grep "^qemu: guest hung: killed after $limit s" "$SCRATCH/err"
expect_grep 'init: running sleep 100000' "$SCRATCH/console"
# (a boot killed at the boot budget and tried again adds its 45 s)
took=$((took - 45 * $(grep -c '^qemu: booting again' "$SCRATCH/err")))
[ "$took" -ge $limit ] && [ "$took" -lt $((limit + 15)) ] ||
	fail "killed after $took s (less the boots tried again), expected $limit-$((limit + 15)) s"

start=$(date +%s)
QEMU_EXTRA=-S $QEMU --timeout $limit --boot-budget 5 --log "$SCRATCH/console2" "$BZIMAGE" "$INITRAMFS" \
	-- true 2>"$SCRATCH/err2"
rc=$?
took=$(($(date +%s) - start))
cat "$SCRATCH/err2"
[ "$rc" -eq 253 ] || fail "qemu.sh exited $rc for a guest that never booted, expected 253"
expect_grep "^qemu: the guest did not reach /init within 5 s: killed \(console log: $SCRATCH/console2\)" "$SCRATCH/err2"
[ "$took" -ge 5 ] && [ "$took" -lt 20 ] || fail "killed after $took s, expected 5-20 s"

start=$(date +%s)
QEMU_EXTRA=-S $QEMU --timeout $limit --boot-budget 5 --tries 2 --log "$SCRATCH/console3" "$BZIMAGE" "$INITRAMFS" \
	-- true 2>"$SCRATCH/err3"
rc=$?
took=$(($(date +%s) - start))
cat "$SCRATCH/err3"
[ "$rc" -eq 253 ] || fail "qemu.sh --tries 2 exited $rc for a guest that never booted, expected 253"
[ "$(grep -c '^qemu: the guest did not reach /init within 5 s' "$SCRATCH/err3")" -eq 2 ] ||
	fail "expected two boots killed at the boot budget"
expect_line 'qemu: booting again (try 2 of 2)' "$SCRATCH/err3"
[ -e "$SCRATCH/console3.try1" ] || fail "the first boot's console was not kept as console3.try1"
[ "$took" -ge 10 ] && [ "$took" -lt 35 ] || fail "two boots killed after $took s, expected 10-35 s"

# QEMU failing exits 1, as a guest's exit 0 through isa-debug-exit does:
# without /init's banner on the console it is QEMU's failure.
QEMU_EXTRA=-no-such-option $QEMU --timeout $limit --log "$SCRATCH/console4" "$BZIMAGE" "$INITRAMFS" \
	-- true 2>"$SCRATCH/err4"
rc=$?
cat "$SCRATCH/err4"
[ "$rc" -eq 252 ] || fail "qemu.sh exited $rc when QEMU could not start, expected 252"
expect_grep '^qemu: QEMU failed with status 1 ' "$SCRATCH/err4"
