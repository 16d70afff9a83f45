# Lesson 01, section 6: one fork followed from the system call to the new
# task's first wake-up, with fork_counter.ko's hooks registered.  make test
# runs it on the lab's kernel and checks the lesson's transcript against
# gdb's; 'make gdb-lab1' runs it for you (your kernel, your output).
# guest: insmod /lab/fork_counter.ko && /lab/forkbench -m fork -n 1
hbreak kernel_clone if $_streq($lx_current().comm, "forkbench")
continue
bt
p/x args->flags
p args->exit_signal
tbreak copy_process
continue
finish
tbreak __fork_hook_run
continue
bt 2
p parent->comm
p child->pid
p/x child->__state
lx-ps
tbreak wake_up_new_task
continue
p p->pid
p/x p->__state
delete
detach
