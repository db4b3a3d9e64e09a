"""Every resource limit of rulecraft, in one place: how large a spec, a formula, a game or a file
may be before it is refused.

A spec is untrusted input: a few hundred bytes of YAML or a short formula can ask for billions of
squares, pieces or nested calls. Each limit below is checked where the size is read, and the
error names the limit and its value (and points at the node that passes it). Each constant's
docstring says what it bounds and why that size; the spec reference's "Limits" table is made from
them (:func:`reference_table`), and a test keeps the two equal.
"""

from __future__ import annotations

import ast
from pathlib import Path

# ---------- the spec file and its YAML ----------

MAX_FILE_BYTES = 4 << 20
"""Bytes of one YAML file (spec, texts, scenario): the largest in the repository is about 110 KB."""

MAX_LINE_CHARS = 10_000
"""Characters of one line of a YAML file: the longest in the repository is under 1,000; a longer
line is almost always a mistake, and it keeps every message's source excerpt short."""

MAX_YAML_NODES = 100_000
"""YAML nodes (each scalar, list and mapping) one file may hold: reading is linear in them, and
the largest file in the repository has a few thousand."""

MAX_ALIAS_NODES = 10_000
"""Nodes a file may reach through its aliases (``*name``), counting what each alias stands for:
aliases that repeat aliases grow exponentially (an "alias bomb"), so they are counted, not built."""

MAX_YAML_DEPTH = 64
"""Lists and mappings nested in each other: the repository's files nest at most 7 deep, and
reading is recursive."""

MAX_INT_DIGITS = 300
"""Digits of a whole number written in a file or a formula: far above any count a game needs,
far below Python's own conversion limit of 4,300."""

# ---------- names, formulas and flow ----------

MAX_NAME = 64
"""Characters of a name (team, space, kind, option, field, ...): names are written in notations
and messages."""

MAX_TEMPLATE = 1000
"""Characters of a template (a notation or a grid's ``name:`` pattern): each is one short line."""

MAX_COUNTED_FORM = 200
"""Characters of one form of a counted phrase (``plural(one="# move", other="# moves")``): a form
is a number with a few words around it, inside one line of a text."""

MAX_COUNTED_NUMBER = 1000
"""The whole numbers a counted phrase is checked for: ``site check`` asks for the plural category
of every count from 0 up to this (any score, ply, distance or point count of a game is far below;
a larger number whose category a phrase lacks reads with its ``other`` form)."""

MAX_SPACE_NAME = 64
"""Characters of a space's name as a grid's ``name:`` pattern writes it: a name is part of every
notation. (A pattern has no field widths such as ``{row:>200000000}``: only plain fields.)"""

MAX_FORMULA_DEPTH = 60
"""Nesting of one rule string (``not``, parentheses, operators, ``if`` and blocks): every later
stage walks the formula recursively and Python refuses generated code nested 200 deep, so a
deeper formula is refused when it is parsed, never by raising the recursion limit."""

MAX_ROUNDS = 1_000_000
"""The largest ``limit:`` of a ``while`` loop: a loop's rounds are run within one ply."""

MAX_INLINED_NODES = 20_000
"""Flow nodes the ``call:`` steps may make, copies included: each called phase is copied where it
is called, so calls of calls multiply."""

# ---------- sizes of a game ----------

MAX_GRID = 64
"""Rows and columns of a grid, and the length in ``lines(n)``: a 64 × 64 board has 4,096 squares."""

MAX_SHADES = 4
"""Shades a board's drawing tells apart (``board: drawing: shade:`` gives 0 to 3): more would
not read as different on a page or in a terminal."""

RANGE_BOUND = 999_999_999
"""The largest magnitude of a range's bound (``1..n``, a parameter's or table key's range)."""

MAX_TABLE_CELLS = 10_000
"""Cells of one table (the product of its keys' sizes): every cell is written out in the spec and
kept in the rule tables."""

MAX_PARAM_VALUES = 100_000
"""Values of one action parameter: each is a distinct action id, and legal actions are found by
going through them."""

MAX_ACTIONS = 1_000_000
"""Action ids of a game (every action times its parameters' values): bots and adapters keep
arrays of this size."""

MAX_DIE_FACES = 1_000
"""Faces of one die: each face is a chance outcome, listed whenever the die is rolled."""

MAX_PIECES = 10_000
"""Pieces of a roster, all entries together: every piece holds state slots of its own."""

MAX_STATE_SLOTS = 100_000
"""Whole numbers in one game state (every field, per team, space or piece): a state is copied for
every ply a bot looks ahead."""

MAX_PLIES = 1_000_000_000
"""The largest ``limits: max_plies:``: every match must end."""

# ---------- play, files and texts ----------

MAX_AUTOMATIC_STEPS = 100_000
"""Automatic flow steps between two decisions before the rules are taken to loop forever."""

MAX_SAVED_STATE_CHARS = 1 << 22
"""Characters of the longest JSON text ``state_from_json`` reads."""

MAX_LOG_BYTES = 64 << 20
"""Bytes of the largest match log read."""

MAX_ITERATIONS = 100_000
"""The largest iteration budget of the MCTS bots (``mcts:N``) per decision."""

MAX_SECONDS = 600.0
"""The largest time budget of the MCTS bots (``mcts:Ts``), in seconds per decision."""

INFO_STATE_TENSOR_LIMIT = 1 << 16
"""The largest information-state tensor (in floats) an OpenSpiel game type offers."""

MAX_OUTPUT = 200_000
"""Characters one text of the rulebook or a message may render to."""

MAX_REPEAT = 10_000
"""Items (characters) a ``*`` in a text template may make of a string or list."""

MAX_POWER_BITS = 256
"""Bits an integer ``**`` in a text template may make."""

MAX_WIDTH = 100
"""Width or precision of a ``%`` conversion in a text template."""

MAX_LOOP_DEPTH = 2
"""For-loops nested in a text template."""


def described() -> list[tuple[str, int | float, str]]:
    """Every limit of this module as ``(name, value, docstring)``, in the order written.

    The docstrings are read from the module's source (Python keeps none for constants)."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    result = []
    for statement, following in zip(tree.body, tree.body[1:]):
        if isinstance(statement, ast.Assign) and isinstance(following, ast.Expr) \
                and isinstance(following.value, ast.Constant) and isinstance(following.value.value, str):
            name = statement.targets[0].id
            result.append((name, globals()[name], " ".join(following.value.value.split())))
    return result


def reference_table() -> str:
    """The Markdown table of every limit for the spec reference: name, value and what it bounds."""
    rows = ["| limit | value | what it bounds |", "|---|---|---|"]
    for name, value, doc in described():
        rows.append(f"| `{name}` | {value:,} | {doc.replace('|', chr(92) + '|')} |")
    return "\n".join(rows)
