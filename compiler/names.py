"""What a name in a spec may be, and how it becomes a name in generated Python.

One definition serves the whole compiler: a spec name is ASCII letters, digits and ``_``, starting
with a letter or ``_``, at most :data:`MAX_NAME` characters, not a reserved word of the rule
language and not a dunder (``__x__``). Generated code never uses a spec name bare: each use is
mangled with the prefix of its role (``p_`` parameters, ``v_`` variables, ``SPACE_`` attribute
tables, ...), so a spec name can be neither a Python keyword nor a builtin in the module, nor
collide with the module's own names.
"""

from __future__ import annotations

import re
from rulecraft.limits import MAX_NAME

# the rule language's reserved words; the grammar's keywords are exactly these
RESERVED = ("if", "then", "else", "and", "or", "not", "in", "for", "do", "where", "true", "false",
            "none", "goto", "stop", "finish", "reveal", "event", "let", "while", "limit", "until")

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def name_problem(word) -> str | None:
    """Why ``word`` cannot be a name in a spec, or None when it can."""
    if not isinstance(word, str) or not _NAME.match(word):
        return "use ASCII letters, digits and _, starting with a letter"
    if len(word) > MAX_NAME:
        return f"names are at most {MAX_NAME} characters long"
    if word in RESERVED:
        return f"'{word}' is a reserved word of the rule language"
    if word.startswith("__") and word.endswith("__"):
        return "names may not start and end with two underscores"
    return None


def python_name(prefix: str, word: str) -> str:
    """``prefix`` + a spec name validated by :func:`name_problem`, as a Python identifier.

    Raises ValueError for a name that was not validated (a compiler fault, never the user's).
    """
    if not _NAME.match(word) or not _NAME.match(prefix + word):
        raise ValueError(f"not a checked name: {word!r}")
    return prefix + word
