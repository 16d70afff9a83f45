# The guest runs a command given on the host and its exit status reaches
# the host; a program that is missing is a failure, not a success.
# timeout: 600
. common/testlib.sh
scratch
# A boot that loses its clocks on a loaded host is booted again (qemu.sh
# --tries): what this test checks starts at /init.
QEMU="$QEMU --boot-budget 60 --tries 3"

release=$(cat "$KOBJ/include/config/kernel.release")
# The checks run in the guest and answer through the exit status: the
# console may interleave kernel messages with anything printed there.
# (busybox-static has no mountpoint; the device field equals the type here)
check="uname -r | grep -qxF $release || exit 7;"
check="$check"' for m in /proc:proc /sys:sysfs /dev:devtmpfs /sys/kernel/security:securityfs'
check="$check"' /sys/kernel/debug:debugfs /tmp:tmpfs;'
check="$check"' do grep -q ^${m#*:}.${m%:*}.${m#*:}. /proc/mounts || exit 8; done'
expect_rc 0 $QEMU --timeout 120 --log "$SCRATCH/c1" "$BZIMAGE" "$INITRAMFS" -- /bin/sh -c "$check"
expect_grep 'kernel-hooks lab: Linux' "$SCRATCH/c1"
expect_rc 7 $QEMU --timeout 120 --log "$SCRATCH/c2" "$BZIMAGE" "$INITRAMFS" -- /bin/sh -c "exit 7"
expect_rc 127 $QEMU --timeout 120 --log "$SCRATCH/c3" "$BZIMAGE" "$INITRAMFS" -- /no/such/program
expect_grep 'init: cannot run /no/such/program' "$SCRATCH/c3"
# A command has no controlling tty (exit 9 if it has one): when a session
# leader exits, the kernel hangs up its tty, and the serial driver's hangup
# drops what is still queued for the UART.  Its last line gets through.
expect_rc 0 $QEMU --timeout 120 --log "$SCRATCH/c4" "$BZIMAGE" "$INITRAMFS" -- /bin/sh -c \
	'if (exec 3</dev/tty) 2>/dev/null; then exit 9; fi; for i in $(seq 150); do echo line-$i-of-8-kB; done; echo the-last-line'
expect_line 'line-150-of-8-kB' "$SCRATCH/c4"
expect_line 'the-last-line' "$SCRATCH/c4"
