"""The reason of a legality condition, with numbers the spec defines written in by formula.

A ``reason:`` is literal text in which ``{formula}`` writes the whole number the formula gives
when compiling (``"a dodge costs {ap_cost[dodge]} AP"``: tables, options, named constants and
arithmetic, never the game state), and ``{{`` and ``}}`` write a literal brace. So a reason
never repeats a number the spec already states, and follows it when an option or a table
changes. Each formula is checked like any rule string, at its own position; the filled text is
a plain string the rules return as is. Errors: RC372 (an unpaired brace, an empty placeholder,
a reason too long), RC310 (not a number), RC356 (not fixed when compiling).
"""

from __future__ import annotations

from rulecraft.errors import SpecError
from rulecraft.loader import Text
from rulecraft.compiler.sizes import text_part

MAX_REASON = 1000          # characters of a reason as written and as filled in: one sentence


def fill_reason(text: Text, number) -> str:
    """``text`` with each ``{formula}`` replaced by ``number(formula_text)`` (the caller's
    compile-time evaluation, raising its own errors) and each doubled brace made single."""
    if len(text) > MAX_REASON:
        raise SpecError(f"a reason is at most {MAX_REASON} characters", text.position, code="RC372",
                        hint="say why in one sentence")
    out, index = [], 0
    while index < len(text):
        char = text[index]
        if text.startswith("{{", index) or text.startswith("}}", index):
            out.append(char)
            index += 2
        elif char == "{":
            end = text.find("}", index)
            if end < 0:
                raise SpecError("this '{' opens a placeholder that is never closed", text.at(index),
                                code="RC372", hint="close it with '}', or write '{{' for a brace")
            if not text[index + 1:end].strip():
                raise SpecError("an empty placeholder", text.at(index), code="RC372",
                                hint="write a formula between the braces, or '{{' for a brace")
            out.append(str(number(text_part(text, index + 1, end))))
            index = end + 1
        elif char == "}":
            raise SpecError("this '}' closes no placeholder", text.at(index), code="RC372",
                            hint="write '}}' for a brace")
        else:
            out.append(char)
            index += 1
    filled = "".join(out)
    if len(filled) > MAX_REASON:
        raise SpecError(f"this reason fills in to more than {MAX_REASON} characters", text.position,
                        code="RC372", hint="its numbers are too long to quote")
    return filled
