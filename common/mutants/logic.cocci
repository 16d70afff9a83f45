// Conditions: && and || swapped, a condition negated, a negation dropped.
@initialize:python@
@@
from emit import emit

@and_or@
expression E1, E2;
position pa, po;
@@
(
 E1 &&@pa E2
|
 E1 ||@po E2
)

@script:python@
p << and_or.pa;
@@
emit("and-to-or", (p[0], "||"))

@script:python@
p << and_or.po;
@@
emit("or-to-and", (p[0], "&&"))

@cond@
expression E;
statement S1, S2;
position p;
@@
(
 if (E@p) S1 else S2
|
 if (E@p) S1
|
 while (E@p) S1
)

@script:python@
p << cond.p;
@@
emit("negate-condition", (p[0], "!({0})"))

@not@
expression E;
position p;
@@
 !@p E

@script:python@
p << not.p;
@@
emit("drop-not", (p[0], ""))
