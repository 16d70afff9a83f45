# Lesson 03, section 5: chroot() followed from the system call into
# chrootjail's hook, and the jail it makes.  make test runs it on the lab's
# kernel and checks the lesson's transcript against gdb's; 'make gdb-lab3'
# runs it for you (your kernel, your output).
# guest: mkdir -p /j && chroot /j /bin/true; true
hbreak security_path_chroot
continue
p $lx_current().comm
p $lx_current().flags & 0x00200000
while $_streq($lx_current().comm, "chroot") == 0
  continue
end
bt
frame 1
info line
frame 0
p path->dentry->d_name.name
python import linux.utils; print(linux.utils.dentry_name(gdb.parse_and_eval("path->dentry")))
p $lx_current().comm
tbreak jail_path_chroot
continue
set $t = (struct jail_task *)((char *)$lx_current()->security + jail_blob_sizes.lbs_task)
p *$t
finish
p *$t->jail
p $t->jail->root.dentry->d_lockref.count
delete
detach
