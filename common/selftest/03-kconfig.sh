# kconfig: the course fragments survive olddefconfig intact, and an option
# that Kconfig drops is named, with the fragment it came from.
# timeout: 300
. common/testlib.sh
scratch

printf 'CONFIG_KASAN_SW_TAGS=y\n' >"$SCRATCH/planted.config"
# a later layer may undo an earlier one: only the last word on a symbol is
# checked
printf 'CONFIG_IO_URING=y\n' >"$SCRATCH/on.config"
printf '# CONFIG_IO_URING is not set\n' >"$SCRATCH/off.config"
cache=$SCRATCH/cache
KCONFIG_CACHE=$cache sh common/kconfig.sh "$KSRC" "$SCRATCH/obj" "$SCRATCH/kconfig.log" $KCONFIG \
	"$SCRATCH/planted.config" "$SCRATCH/on.config" "$SCRATCH/off.config" 2>"$SCRATCH/err"
rc=$?
# a layering that failed its check is not kept for next time
[ -z "$(ls -A "$cache" 2>/dev/null)" ] || fail "a configuration that failed its check was kept: $(ls "$cache")"
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

# A configuration kept in KCONFIG_CACHE is taken again only for the same
# inputs, and is the one a layering makes.
KCONFIG_CACHE=$cache sh common/kconfig.sh "$KSRC" "$SCRATCH/a" "$SCRATCH/a.log" $KCONFIG >"$SCRATCH/a.out" ||
	fail "kconfig.sh with a cache: $(cat "$SCRATCH/a.out")"
! grep -q 'made before' "$SCRATCH/a.out" || fail "an empty cache gave a configuration"
KCONFIG_CACHE=$cache sh common/kconfig.sh "$KSRC" "$SCRATCH/b" "$SCRATCH/b.log" $KCONFIG >"$SCRATCH/b.out" ||
	fail "kconfig.sh from the cache: $(cat "$SCRATCH/b.out")"
expect_grep '^config: as made before' "$SCRATCH/b.out"
cmp "$SCRATCH/a/.config" "$SCRATCH/b/.config" || fail "the kept configuration differs from the one made"
# the key: every input counts (a tree of a few Kconfig files stands in)
mkdir -p "$SCRATCH/tree/kernel/configs" "$SCRATCH/tree/arch/x86/configs" "$SCRATCH/tree/obj" \
	"$SCRATCH/tree/.git" "$SCRATCH/tree/net/unix" "$SCRATCH/bin"
echo 'config A' >"$SCRATCH/tree/Kconfig"
echo 'config U' >"$SCRATCH/tree/net/unix/Kconfig"
echo 'CONFIG_A=y' >"$SCRATCH/tree/kernel/configs/tiny.config"
echo 'CONFIG_X=y' >"$SCRATCH/tree/arch/x86/configs/tiny.config"
echo 'config B' >"$SCRATCH/tree/obj/Kconfig"
echo 'CONFIG_B=y' >"$SCRATCH/layer"
key() { sh common/kconfig.sh --key "$SCRATCH/tree" "$SCRATCH/layer"; }
k0=$(key)
echo 'config C' >"$SCRATCH/tree/obj/Kconfig"
echo 'config C' >"$SCRATCH/tree/.git/Kconfig"
[ "$(key)" = "$k0" ] || fail "the key counts Kconfig files in obj/ or .git/"
for change in "Kconfig:config D" "net/unix/Kconfig:config D" "kernel/configs/tiny.config:CONFIG_D=y" \
	"arch/x86/configs/tiny.config:CONFIG_D=y"; do
	f=$SCRATCH/tree/${change%%:*}
	cp "$f" "$SCRATCH/saved"
	echo "${change#*:}" >>"$f"
	[ "$(key)" != "$k0" ] || fail "the key does not change with ${change%%:*}"
	cp "$SCRATCH/saved" "$f"
done
echo '# CONFIG_B is not set' >"$SCRATCH/layer"
[ "$(key)" != "$k0" ] || fail "the key does not change with a layer's contents"
echo 'CONFIG_B=y' >"$SCRATCH/layer"
[ "$(key)" = "$k0" ] || fail "the key is not the same for the same inputs"
# another compiler (a gcc that names another version, first on PATH)
printf '#!/bin/sh\necho "gcc (Other) 99.0"\n' >"$SCRATCH/bin/gcc"
chmod +x "$SCRATCH/bin/gcc"
[ "$(PATH=$SCRATCH/bin:$PATH key)" != "$k0" ] || fail "the key does not change with the compiler"
