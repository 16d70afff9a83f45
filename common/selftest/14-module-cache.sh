# check.sh keeps a lab's test modules (tests/Kbuild) and uses them again
# while what they were made from is unchanged.  On the base kernel, a module
# whose modinfo comes from a header in the kernel tree: staged twice, the
# second time from the kept build; then the header changes, and the next
# staging builds it again, with the header's new value.
# timeout: 300
. common/testlib.sh
scratch
lab=$SCRATCH/lab99-cache
hdr=$TEST_TREE/include/linux/course-cache-probe.h
trap 'rm -rf "$SCRATCH" "$hdr" "$TEST_OBJ/.mods/lab99-cache"' EXIT
mkdir -p "$lab/tests"
echo 'obj-m := probe.o' >"$lab/tests/Kbuild"
echo 'health  -  10  -' >"$lab/tests.conf"
cat >"$lab/tests/probe.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/course-cache-probe.h>
MODULE_LICENSE("GPL");
MODULE_INFO(probe, PROBE_VALUE);
EOF

# stage N WANT BUILT: stage into out-N; the module must say probe=WANT and
# modules.log must show a build (BUILT=yes) or the kept one (no)
stage() {
	out=$SCRATCH/out-$1
	KERNEL_BUILT=1 STAGE_ONLY=1 sh common/check.sh "$lab" "$TEST_TREE" "$TEST_OBJ" "$out" \
		>"$out.txt" 2>&1 || fail "staging $1 failed: $(cat "$out.txt" "$out/modules.log" 2>/dev/null | tail -n 5)"
	grep -q -a "probe=$2" "$out/stage/probe.ko" || fail "staging $1: probe.ko does not say probe=$2"
	if grep -q 'made from the same files' "$out/modules.log"; then built=no; else built=yes; fi
	[ "$built" = "$3" ] || fail "staging $1: built=$built, expected $3 ($out/modules.log)"
}
rm -rf "$TEST_OBJ/.mods/lab99-cache"
echo '#define PROBE_VALUE "first"' >"$hdr"
stage 1 first yes
stage 2 first no
echo '#define PROBE_VALUE "second"' >"$hdr"
stage 3 second yes
stage 4 second no
