# What the .cocci rules here call to report a mutant (spatch runs them
# with this folder on PYTHONPATH): one line on stdout, "MUTANT\t" and JSON
# [operator, function, [[line, column, end line, end column, text], ...]], columns
# from 0, ends exclusive.  In a text, "{0}", "{1}"... stand for the
# original text of the first, second... edit's span (common/mutants.py).
import json


def span(p):
    """A Coccinelle position's span, or a (line, column, end line, end column)."""
    if isinstance(p, tuple):
        return [int(x) for x in p]
    return [int(p.line), int(p.column), int(p.line_end), int(p.column_end)]


def emit(op, *edits, fn=None):
    """A mutant: OP's EDITS, (position or span, text) pairs, in function FN
    (by default the first position's)."""
    if fn is None:
        fn = next((p.current_element for p, _ in edits if not isinstance(p, tuple)), "")
    # Coccinelle's name for what is outside any function (a #define, a
    # declaration): say so in the mutant's name
    if fn == "something_else":
        fn = "file-scope"
    print("MUTANT\t" + json.dumps([op, fn, [span(p) + [text] for p, text in edits]]))
