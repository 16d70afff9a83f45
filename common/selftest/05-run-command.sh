# The guest runs a command given on the host and its exit status reaches
# the host; a program that is missing is a failure, not a success.
# timeout: 120
. common/testlib.sh
scratch

release=$(cat "$KOBJ/include/config/kernel.release")
expect_rc 0 $QEMU --timeout 60 --log "$SCRATCH/c1" "$BZIMAGE" "$INITRAMFS" -- /bin/sh -c "uname -r; cat /proc/mounts"
expect_line "$release" "$SCRATCH/c1"
expect_grep 'kernel-hooks lab: Linux' "$SCRATCH/c1"
# /init mounted what the labs need
for mnt in "/proc proc" "/sys sysfs" "/dev devtmpfs" "/sys/kernel/security securityfs" \
	"/sys/kernel/debug debugfs" "/tmp tmpfs"; do
	expect_grep "^[^ ]+ $mnt " "$SCRATCH/c1"
done
expect_rc 7 $QEMU --timeout 60 --log "$SCRATCH/c2" "$BZIMAGE" "$INITRAMFS" -- /bin/sh -c "exit 7"
expect_rc 127 $QEMU --timeout 60 --log "$SCRATCH/c3" "$BZIMAGE" "$INITRAMFS" -- /no/such/program
expect_grep 'init: cannot run /no/such/program' "$SCRATCH/c3"
