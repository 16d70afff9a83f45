// Statements: an expression statement (a call, an assignment) deleted,
// the two arguments of a call swapped.
@initialize:python@
@@
from emit import emit

@del@
expression E;
position p;
@@
 E@p;

@script:python@
p << del.p;
@@
emit("delete-statement", (p[0], "(void)0"))

@swap@
identifier f;
expression E1, E2;
position p1, p2;
@@
 f(E1@p1, E2@p2)

@script:python@
p1 << swap.p1;
p2 << swap.p2;
@@
emit("swap-arguments", (p1[0], "{1}"), (p2[0], "{0}"))
