# Lesson 02, section 5: a fork relayed as a signal, from the hook to the
# queueing.  make test runs it on the lab's kernel and checks the lesson's
# transcript against gdb's; 'make gdb-lab2' runs it for you (your kernel,
# your output).
# guest: insmod /lab/relay_fork.ko && /lab/relayfork-listen -c 2
hbreak kernel_clone if $_streq($lx_current().comm, "relayfork-liste")
continue
lx-symbols
delete
hbreak relayfork_fork if $_streq($lx_current().comm, "relayfork-liste")
continue
bt 3
p $lx_current().comm
set $parent = parent->pid
set $child = child->pid
tbreak do_send_sig_info
continue
p sig
p info->si_signo
p info->si_code
p info->_sifields._rt._pid == $parent
p info->_sifields._rt._sigval.sival_int == $child
p type
p p->comm
delete
detach
