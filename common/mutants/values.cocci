// Values: a decimal constant one more or one less, a value returned
// replaced by 0 and 0 by -EINVAL, one flag of a mask of two dropped, a
// flag mask's test inverted.
@initialize:python@
@@
from emit import emit

@num@
constant C;
position p;
@@
 C@p

@script:python@
p << num.p;
c << num.C;
@@
import re
m = re.match(r"^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)$", c)
if m:
    text, suffix = m.groups()
    base = 16 if text[:2] in ("0x", "0X") else 8 if text[0] == "0" and len(text) > 1 else 10
    fmt = {16: "0x%x", 8: "0%o", 10: "%d"}[base]
    for op, v in (("plus-one", int(text, base) + 1), ("minus-one", int(text, base) - 1)):
        if v >= 0:
            emit(op, (p[0], (fmt % v if v or base == 10 else "0") + suffix))

@ret@
expression E;
position p;
@@
 return E@p;

@script:python@
p << ret.p;
e << ret.E;
@@
if e == "0":
    emit("return-error", (p[0], "-EINVAL"))
elif e not in ("true", "false", "NULL"):
    emit("return-0", (p[0], "0"))
elif e == "true":
    emit("return-false", (p[0], "false"))
elif e == "false":
    emit("return-true", (p[0], "true"))

@mask@
constant C1, C2;
position p1, p2;
@@
 C1@p1 | C2@p2

@script:python@
p1 << mask.p1;
p2 << mask.p2;
@@
emit("mask-drop-right", (p1[0], "{0}"), (p2[0], "0"))
emit("mask-drop-left", (p1[0], "0"), (p2[0], "{1}"))
