// The kernel's own mistakes: a read-side critical section or a get/put
// dropped, a grace period swapped for a barrier, RCU list operations
// without RCU, static keys' counting and one-shot calls swapped, a thread
// id for a process id and a namespace's number for the global one,
// current for the task given, a path check for a dentry check, a lock
// taken without disabling interrupts, an allocation that may sleep for one
// that may not.
@initialize:python@
@@
from emit import emit
# calls renamed: what a careless port writes instead
RENAMES = {
    "synchronize_rcu": ["rcu_barrier"], "rcu_barrier": ["synchronize_rcu"],
    "list_del_rcu": ["list_del"], "list_add_rcu": ["list_add"],
    "list_add_tail_rcu": ["list_add_tail"], "hlist_del_rcu": ["hlist_del"],
    "hlist_add_head_rcu": ["hlist_add_head"], "list_del_init_rcu": ["list_del_init"],
    "static_branch_inc": ["static_branch_enable"], "static_branch_dec": ["static_branch_disable"],
    "static_branch_enable": ["static_branch_inc"], "static_branch_disable": ["static_branch_dec"],
    "task_pid_vnr": ["task_pid_nr"], "task_tgid_vnr": ["task_tgid_nr", "task_pid_vnr"],
    "task_tgid_nr": ["task_pid_nr"], "task_pid_nr": ["task_tgid_nr"], "pid_vnr": ["pid_nr"],
    "find_get_pid": ["find_vpid"], "rcu_dereference": ["READ_ONCE"],
    "rcu_assign_pointer": ["WRITE_ONCE"], "refcount_dec_and_test": ["refcount_dec_not_one"],
    "kfree_rcu": ["kfree"],
}
# calls that return their argument with a reference taken
GETTERS = {"get_pid", "dget", "get_task_struct", "mntget", "get_file", "kobject_get"}
IDENTS = {"PIDTYPE_TGID": "PIDTYPE_PID", "PIDTYPE_PID": "PIDTYPE_TGID",
          "GFP_KERNEL": "GFP_ATOMIC", "GFP_ATOMIC": "GFP_KERNEL", "S_ISUID": "S_ISGID",
          "S_ISGID": "S_ISUID"}
# lock and unlock: (plain lock, plain unlock, drop the flags argument)
NO_IRQ = {"spin_lock_irqsave": ("spin_lock", True), "spin_unlock_irqrestore": ("spin_unlock", True),
          "spin_lock_irq": ("spin_lock", False), "spin_unlock_irq": ("spin_unlock", False),
          "spin_lock_bh": ("spin_lock", False), "spin_unlock_bh": ("spin_unlock", False)}
# a function's critical sections of one kind, dropped together
SECTIONS = {"rcu_read_lock": "rcu_read_lock", "rcu_read_unlock": "rcu_read_lock",
            "mutex_lock": "mutex_lock", "mutex_unlock": "mutex_lock",
            "spin_lock": "spin_lock", "spin_unlock": "spin_lock"}
sections = {}
irqs = {}

@call@
identifier f;
position p, pc;
@@
 f@p(...)@pc

@script:python@
f << call.f;
p << call.p;
pc << call.pc;
@@
for new in RENAMES.get(f, []):
    emit("%s-to-%s" % (f, new), (p[0], new))
if f in SECTIONS:
    # (a position after a call is its closing parenthesis)
    sections.setdefault((p[0].current_element, SECTIONS[f]), []).append(
        (p[0].line, p[0].column, pc[0].line_end, pc[0].column_end))

@iter@
iterator I;
statement S;
position p;
@@
 I@p(...) S

@script:python@
i << iter.I;
p << iter.p;
@@
if i.endswith("_rcu"):
    emit("%s-to-%s" % (i, i[:-4]), (p[0], i[:-4]))

@getter@
identifier f;
expression E;
position pf, pc, pe;
@@
 f@pf(E@pe)@pc

@script:python@
f << getter.f;
pf << getter.pf;
pc << getter.pc;
pe << getter.pe;
@@
if f in GETTERS:
    emit("drop-" + f, ((pf[0].line, pf[0].column, pe[0].line, pe[0].column), ""),
         ((pe[0].line_end, pe[0].column_end, pc[0].line_end, pc[0].column_end), ""))

@irq@
identifier f;
expression L, F;
position pf, pl, pa;
@@
(
 f@pf(L@pl, F@pa)
|
 f@pf(L@pl)
)

@script:python@
f << irq.f;
pf << irq.pf;
pl << irq.pl;
@@
if f in NO_IRQ and not NO_IRQ[f][1]:
    irqs.setdefault(pf[0].current_element, []).append((f, pf[0], pl[0], None))

@script:python@
f << irq.f;
pf << irq.pf;
pl << irq.pl;
pa << irq.pa;
@@
if f in NO_IRQ and NO_IRQ[f][1]:
    irqs.setdefault(pf[0].current_element, []).append((f, pf[0], pl[0], pa[0]))

@idents@
identifier I;
position p;
@@
 I@p

@script:python@
i << idents.I;
p << idents.p;
@@
if i in IDENTS:
    emit("%s-to-%s" % (i, IDENTS[i]), (p[0], IDENTS[i]))

@cur@
identifier fn, t;
symbol current;
position pt, pc;
@@
 fn(..., struct task_struct *t, ...) {
 <...
(
 t@pt
|
 current@pc
)
 ...>
 }

@script:python@
t << cur.t;
pt << cur.pt;
@@
emit("task-to-current", (pt[0], "current"))

@script:python@
t << cur.t;
pc << cur.pc;
@@
emit("current-to-" + t, (pc[0], t))

@under@
expression E1, E2;
position pf, p1, p2;
@@
 path_is_under@pf(E1@p1, E2@p2)

@script:python@
pf << under.pf;
p1 << under.p1;
p2 << under.p2;
@@
emit("path_is_under-to-is_subdir", (pf[0], "is_subdir"), (p1[0], "({1})->dentry"),
     (p2[0], "({2})->dentry"))

@finalize:python@
@@
for (fn, kind), calls in sorted(sections.items()):
    emit("drop-" + kind, *[(span, "(void)0") for span in calls], fn=fn)
for fn, calls in sorted(irqs.items()):
    edits = []
    for f, pf, pl, pa in calls:
        edits.append((pf, NO_IRQ[f][0]))
        if pa:
            # ", flags" goes
            edits.append(((pl.line_end, pl.column_end, pa.line_end, pa.column_end), ""))
    emit("no-irq-disable", *edits, fn=fn)
