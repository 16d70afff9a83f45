# Lesson 04, section 5: one chmod() through the path hook and then the
# object hook.  make test runs it on the lab's kernel and checks the
# lesson's transcript against gdb's; 'make gdb-lab4' runs it for you (your
# kernel, your output).
# guest: touch /prog && chmod 4755 /prog && ls -l /prog
hbreak security_path_chmod if $_streq($lx_current().comm, "chmod")
continue
bt
p/o mode
p path->dentry->d_name.name
frame 1
p path->dentry->d_inode->i_rwsem.count
frame 0
hbreak security_inode_setattr if $_streq($lx_current().comm, "chmod")
continue
bt 4
p/x attr->ia_valid
p/o attr->ia_mode
p dentry->d_name.name
delete
detach
