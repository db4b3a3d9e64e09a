"""Fold the long lines of generated Python source to at most :data:`WIDTH` characters.

``ast.unparse`` writes each statement on one line. A line that is too long is broken between its
tokens inside brackets (where Python joins lines by itself), preferring the place after a comma
or before ``and``/``or``/``if``/``else``/``for``; a string literal too long to fit is split into
adjacent literals. The result compiles to the same code.
"""

from __future__ import annotations

import ast
from collections import deque
import re

WIDTH = 120
INDENT = 8                 # continuation lines stand this much deeper than their statement
_OPEN, _CLOSE = "([{", ")]}"
_BEFORE = {"and", "or", "if", "else", "for"}


def wrap(source: str) -> str:
    """``source`` with every line longer than :data:`WIDTH` folded (see the module docstring)."""
    return "\n".join(folded for line in source.splitlines() for folded in fold(line)) + "\n"


def fold(line: str) -> list:
    """One line of source as the lines it folds into (itself alone when it fits)."""
    return [line] if len(line) <= WIDTH else _fold(line)


def _fold(line: str) -> list:
    tokens = _tokens(line)
    if tokens is None:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    pieces = []                          # (text including the space before it, depth, preferred break)
    depth, previous_end = 0, 0
    for kind, text, start, end in tokens:
        space = line[previous_end:start]
        if kind and len(text) > WIDTH - len(indent) - INDENT - 4:
            chunks = _split_string(text, WIDTH - len(indent) - INDENT - 4)
            if depth == 0:
                chunks[0], chunks[-1] = "(" + chunks[0], chunks[-1] + ")"
            pieces.append((space + chunks[0], depth, False))
            pieces.extend((" " + chunk, max(depth, 1), True) for chunk in chunks[1:])
        else:
            preferred = depth > 0 and (text in _BEFORE or (pieces and pieces[-1][0].endswith(",")))
            pieces.append((space + text, depth, preferred))
        if text in _OPEN:
            depth += 1
        elif text in _CLOSE:
            depth -= 1
        previous_end = end
    lines, current, breaks = [], "", deque()
    shift = 0                            # a break's column in current is its stored column + shift
    for text, level, preferred in pieces:
        if current and len(current) + len(text) > WIDTH and breaks:
            at = next((b for b, good in reversed(breaks) if good), breaks[-1][0]) + shift
            lines.append(current[:at].rstrip())
            while breaks and breaks[0][0] + shift <= at:
                breaks.popleft()
            tail = current[at:]
            shift += len(indent) + INDENT - at - (len(tail) - len(tail.lstrip()))
            current = indent + " " * INDENT + tail.lstrip()
        if level > 0 and current.strip():
            breaks.append((len(current) - shift, preferred))
        current += text
    lines.append(current)
    return lines


# the tokens of generated code: string literals as repr() writes them, names and numbers,
# two-character operators, and any other single character
_TOKEN = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\w+|\*\*|//|==|!=|<=|>=|:=|->|\S""")


def _tokens(line: str):
    """``(is a string literal, text, start column, end column)`` of the tokens of one line;
    None when the line does not stand on its own (it is inside a multi-line string)."""
    found = []
    for match in _TOKEN.finditer(line):
        text = match.group()
        if text in ("'", '"') or text.startswith(("\'\'\'", '"""')):
            return None
        found.append((text[0] in "'\"", text, match.start(), match.end()))
    return found


def _split_string(literal: str, width: int) -> list:
    """A string literal as adjacent literals of the same value, each at most about ``width``."""
    value = ast.literal_eval(literal)
    step = max(8, width // 2)
    chunks, rest = [], value
    while rest:
        size = step
        while size > 1 and len(repr(rest[:size])) > width:
            size //= 2
        chunks.append(repr(rest[:size]))
        rest = rest[size:]
    return chunks or [literal]
