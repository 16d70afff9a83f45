# gdb set-up for the course kernel, read by 'make gdb' after the kernel's own
# scripts/gdb helpers (lx-symbols, lx-ps, lx-dmesg, ...) and 'target remote'.
#
# Breakpoints are hardware ones: when QEMU starts with -S the kernel is not in
# memory yet, so a software breakpoint would be overwritten as it loads.
# They are made disabled, ready to 'enable N'.

# what $lx_current() asks gdb the first time, asked now while the CPU is
# stopped (see common/gdb-session.sh)
python import linux.utils; linux.utils.get_gdbserver_type()

hbreak kernel_clone
disable 1
hbreak security_path_chroot
disable 2

echo \n
echo Lab breakpoints (disabled; 'enable N' to arm, 'continue' to boot):\n
echo   1  kernel_clone          every fork, vfork, clone and kernel thread (2005: do_fork)\n
echo   2  security_path_chroot  the chroot() LSM hook (2005 seed: security_chroot)\n
echo Helpers: lx-ps, lx-dmesg, lx-symbols, apropos lx\n
