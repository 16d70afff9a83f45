// Comparisons: each moved by one (< and <=, > and >=), == and != swapped.
@initialize:python@
@@
from emit import emit

@cmp@
expression E1, E2;
position lt, le, gt, ge, eq, ne;
@@
(
 E1 <@lt E2
|
 E1 <=@le E2
|
 E1 >@gt E2
|
 E1 >=@ge E2
|
 E1 ==@eq E2
|
 E1 !=@ne E2
)

@script:python@
p << cmp.lt;
@@
emit("lt-to-le", (p[0], "<="))

@script:python@
p << cmp.le;
@@
emit("le-to-lt", (p[0], "<"))

@script:python@
p << cmp.gt;
@@
emit("gt-to-ge", (p[0], ">="))

@script:python@
p << cmp.ge;
@@
emit("ge-to-gt", (p[0], ">"))

@script:python@
p << cmp.eq;
@@
emit("eq-to-ne", (p[0], "!="))

@script:python@
p << cmp.ne;
@@
emit("ne-to-eq", (p[0], "=="))
