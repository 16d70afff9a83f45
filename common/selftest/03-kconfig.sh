# kconfig: the course fragments survive olddefconfig intact, and an option
# that Kconfig drops is named, with the fragment it came from.
# timeout: 120
. common/testlib.sh
scratch

printf 'CONFIG_KASAN_SW_TAGS=y\n' >"$SCRATCH/planted.config"
# a later layer may undo an earlier one: only the last word on a symbol is
# checked
printf 'CONFIG_IO_URING=y\n' >"$SCRATCH/on.config"
printf '# CONFIG_IO_URING is not set\n' >"$SCRATCH/off.config"
sh common/kconfig.sh "$KSRC" "$SCRATCH/obj" "$SCRATCH/kconfig.log" $KCONFIG \
	"$SCRATCH/planted.config" "$SCRATCH/on.config" "$SCRATCH/off.config" 2>"$SCRATCH/err"
rc=$?
cat "$SCRATCH/err"
[ "$rc" -ne 0 ] || fail "a dropped option was not reported"
expect_grep "CONFIG_KASAN_SW_TAGS=y  \($SCRATCH/planted.config\)" "$SCRATCH/err"
# Only the planted line may be reported: the real layers all hold, and so
# does the IO_URING line a later layer undid.
[ "$(grep -c '^  .*CONFIG_' "$SCRATCH/err")" -eq 1 ] || fail "a line other than the planted one was reported"
for opt in CONFIG_KASAN CONFIG_PROVE_LOCKING CONFIG_SECURITY_PATH CONFIG_PROC_EVENTS CONFIG_GDB_SCRIPTS; do
	grep -qx "$opt=y" "$KOBJ/.config" || fail "$opt is not set in $KOBJ/.config"
done
! grep -q '^CONFIG_RANDOMIZE_BASE=y' "$KOBJ/.config" || fail "KASLR is on"
! grep -q '^CONFIG_IO_URING=y' "$SCRATCH/obj/.config" || fail "the last layer's '# CONFIG_IO_URING is not set' did not hold"
