# make gdb, scripted: the course breakpoints stop in kernel_clone with a
# real backtrace, then in security_path_chroot when the guest calls
# chroot(); the scripts/gdb helpers see the chroot task.
# timeout: 300
. common/testlib.sh
scratch

port=$((20000 + $$ % 20000))
# One CPU: no boot budget can watch a guest that gdb drives, and on a loaded
# host TCG's two CPUs can lose their timer at boot and hang (one CPU keeps
# ticking on the PIT).  The lessons' gdb sessions run one CPU too.
SMP=1 $QEMU --timeout 240 --gdb "$port" --log "$SCRATCH/console" "$BZIMAGE" "$INITRAMFS" \
	-- chroot / true 2>"$SCRATCH/qemu.err" &
qemu=$!
cat >"$SCRATCH/steps.gdb" <<'STEPS'
set pagination off
set confirm off
enable 1
continue
bt
disable 1
enable 2
continue
# devtmpfs chroots into its own mount at boot: go on to the guest's chroot
while $_streq($lx_current().comm, "chroot") == 0
  continue
end
bt
lx-ps
printf "current comm=%s\n", $lx_current().comm
delete
detach
STEPS
timeout 200 make --no-print-directory -s gdb $MAKE_VARS GDB_PORT="$port" \
	GDB_ARGS="-batch -x $SCRATCH/steps.gdb" </dev/null >"$SCRATCH/gdb.out" 2>&1
gdb_rc=$?
wait "$qemu"
qemu_rc=$?
cat "$SCRATCH/gdb.out" "$SCRATCH/qemu.err"
[ "$gdb_rc" -eq 0 ] || fail "gdb exited $gdb_rc"
expect_grep '^(Thread [0-9]+ hit )?Breakpoint 1, kernel_clone \(' "$SCRATCH/gdb.out"
expect_grep '^#0  kernel_clone \(' "$SCRATCH/gdb.out"
expect_grep '^#1  0x[0-9a-f]+ in [a-z_]+ \(' "$SCRATCH/gdb.out"
expect_grep '^(Thread [0-9]+ hit )?Breakpoint 2, security_path_chroot \(' "$SCRATCH/gdb.out"
expect_grep '^#[12]  0x[0-9a-f]+ in __do_sys_chroot \(' "$SCRATCH/gdb.out"
expect_grep '^0x[0-9a-f]+ +[0-9]+ +chroot$' "$SCRATCH/gdb.out"
expect_grep '^current comm=chroot$' "$SCRATCH/gdb.out"
[ "$qemu_rc" -eq 0 ] || fail "after gdb detached, the guest ended with $qemu_rc, expected 0"
