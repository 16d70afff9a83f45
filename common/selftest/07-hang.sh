# A guest that never ends is killed at the timeout, and said to have hung.
# The timeout leaves room for a boot under load: beside a cold kernel build
# on two cores (CI) a boot took 20 s, and a 20 s timeout killed the guest
# before init had run the command.
# timeout: 150
. common/testlib.sh
scratch

limit=60
start=$(date +%s)
$QEMU --timeout $limit --log "$SCRATCH/console" "$BZIMAGE" "$INITRAMFS" \
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
