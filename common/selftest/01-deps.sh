# deps: a no-op when all is installed (< 1 s); for a user who may not
# install, names the missing package in the exact apt-get line and stops.
# timeout: 30
. common/testlib.sh
scratch

start=$(date +%s%N)
expect_rc 0 sh common/deps.sh
ms=$((($(date +%s%N) - start) / 1000000))
[ "$ms" -lt 1000 ] || fail "deps check took $ms ms with everything installed"
echo "deps check: $ms ms"

chmod 755 "$SCRATCH"
DEPS_PACKAGES="gdb kh-no-such-package" setpriv --reuid=65534 --regid=65534 --clear-groups \
	sh common/deps.sh >"$SCRATCH/out" 2>&1
rc=$?
cat "$SCRATCH/out"
[ "$rc" -ne 0 ] || fail "deps.sh succeeded with a package missing"
expect_grep '^deps: install them with: sudo apt-get install -y kh-no-such-package$' "$SCRATCH/out"
