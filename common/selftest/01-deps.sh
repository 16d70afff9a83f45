# deps: a no-op when all is installed (one dpkg-query, no apt-get, no sudo);
# for a user who may not install, names the missing package in the exact
# apt-get line and stops.
# timeout: 30
. common/testlib.sh
scratch

# Stand-ins first on PATH: each call is recorded, dpkg-query then runs.
mkdir "$SCRATCH/bin"
for cmd in apt-get sudo dpkg-query; do
	real=$(command -v "$cmd" || echo false)
	printf '#!/bin/sh\necho %s >>"%s/calls"\nexec %s "$@"\n' "$cmd" "$SCRATCH" "$real" \
		>"$SCRATCH/bin/$cmd"
	chmod 755 "$SCRATCH/bin/$cmd"
done
expect_rc 0 env PATH="$SCRATCH/bin:$PATH" sh common/deps.sh
[ "$(cat "$SCRATCH/calls")" = dpkg-query ] ||
	fail "with everything installed, deps.sh ran: $(tr '\n' ' ' <"$SCRATCH/calls")"

chmod 755 "$SCRATCH"
DEPS_PACKAGES="gdb kh-no-such-package" setpriv --reuid=65534 --regid=65534 --clear-groups \
	sh common/deps.sh >"$SCRATCH/out" 2>&1
rc=$?
cat "$SCRATCH/out"
[ "$rc" -ne 0 ] || fail "deps.sh succeeded with a package missing"
expect_grep '^deps: install them with: sudo apt-get install -y kh-no-such-package$' "$SCRATCH/out"
