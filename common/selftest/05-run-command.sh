# The guest runs a command given on the host and its exit status reaches
# the host; a program that is missing is a failure, not a success.
# timeout: 300
. common/testlib.sh
scratch

release=$(cat "$KOBJ/include/config/kernel.release")
# The checks run in the guest and answer through the exit status: the
# console may interleave kernel messages with anything printed there.
# (busybox-static has no mountpoint; the device field equals the type here)
check="uname -r | grep -qxF $release || exit 7;"
check="$check"' for m in /proc:proc /sys:sysfs /dev:devtmpfs /sys/kernel/security:securityfs'
check="$check"' /sys/kernel/debug:debugfs /tmp:tmpfs;'
check="$check"' do grep -q ^${m#*:}.${m%:*}.${m#*:}. /proc/mounts || exit 8; done'
expect_rc 0 $QEMU --timeout 60 --log "$SCRATCH/c1" "$BZIMAGE" "$INITRAMFS" -- /bin/sh -c "$check"
expect_grep 'kernel-hooks lab: Linux' "$SCRATCH/c1"
expect_rc 7 $QEMU --timeout 60 --log "$SCRATCH/c2" "$BZIMAGE" "$INITRAMFS" -- /bin/sh -c "exit 7"
expect_rc 127 $QEMU --timeout 60 --log "$SCRATCH/c3" "$BZIMAGE" "$INITRAMFS" -- /no/such/program
expect_grep 'init: cannot run /no/such/program' "$SCRATCH/c3"
