"""The generated module's text, written statement by statement, with the lines each one takes.

``ast.unparse`` writes a whole module in one go and keeps no record of where a statement lands;
reading the text back (``ast.parse``) to learn it cost more than writing it. :func:`write` lays
the statements out as ``ast.unparse`` does — a block indented four spaces deeper than its
header, ``elif`` for an ``else`` holding a single ``if``, a blank line before every function, a
first string statement written as a docstring — and lets ``ast.unparse`` write each simple
statement and each expression of a header. Every line is folded as it is written
(:func:`wrap.fold`), so the first and last line of each statement are known in the final text.
"""

from __future__ import annotations

import ast

from rulecraft.compiler import pycode
from rulecraft.compiler.wrap import fold


def write(tree: ast.Module) -> tuple[str, dict]:
    """The text of ``tree`` (equal to ``wrap(ast.unparse(tree))``) and, per statement (by its
    ``id``), its first and last line in that text, counted from 1 as Python counts them.
    Raises TypeError for a compound statement other than ``def``, ``if``, ``for`` and ``while``
    (the back end makes no other)."""
    out = _Writer()
    out.body(tree.body, 0, docstring=True)
    return "\n".join(out.lines) + "\n", out.spans


class _Writer:
    def __init__(self):
        self.lines: list = []         # the folded lines written so far
        self.spans: dict = {}         # id of a statement -> (first line, last line)

    def body(self, statements: list, depth: int, docstring: bool = False) -> None:
        """``statements`` at ``depth``; ``docstring``: a module's or a function's body, whose
        first string statement is its docstring."""
        start = 0
        if docstring and statements and _is_docstring(statements[0]):
            first = len(self.lines) + 1
            self.text(depth, pycode.unparse(ast.Module([statements[0]], [])))
            self.spans[id(statements[0])] = (first, len(self.lines))
            start = 1
        for statement in statements[start:]:
            self.statement(statement, depth)

    def statement(self, node: ast.stmt, depth: int) -> None:
        first = len(self.lines) + 1
        if isinstance(node, ast.FunctionDef):
            if self.lines:
                self.lines.append("")
            for decorator in node.decorator_list:
                self.text(depth, "@" + pycode.unparse(decorator))
            first = len(self.lines) + 1          # Python counts a function from its def line
            returns = " -> " + pycode.unparse(node.returns) if node.returns else ""
            self.block(depth, f"def {node.name}({pycode.unparse(node.args)}){returns}", node.body, docstring=True)
        elif isinstance(node, ast.If):
            self.block(depth, "if " + pycode.unparse(node.test), node.body)
            self.orelse(node, depth)
        elif isinstance(node, ast.For):
            target = pycode.unparse(node.target)
            if isinstance(node.target, ast.Tuple) and node.target.elts:
                target = target[1:-1]          # a for's targets are written without brackets
            self.block(depth, f"for {target} in {pycode.unparse(node.iter)}", node.body)
            if node.orelse:
                self.block(depth, "else", node.orelse)
        elif isinstance(node, ast.While):
            self.block(depth, "while " + pycode.unparse(node.test), node.body)
            if node.orelse:
                self.block(depth, "else", node.orelse)
        elif hasattr(node, "body") or isinstance(node, ast.Match):
            raise TypeError(f"the module writer lays out no {type(node).__name__} statement")
        else:
            self.text(depth, pycode.unparse(node))
        self.spans[id(node)] = (first, len(self.lines))

    def orelse(self, node: ast.If, depth: int) -> None:
        """The ``elif`` and ``else`` parts of an ``if``, each ``elif`` being the ``if``
        statement its ``else`` holds."""
        other = node.orelse
        if len(other) == 1 and isinstance(other[0], ast.If):
            inner = other[0]
            first = len(self.lines) + 1
            self.block(depth, "elif " + pycode.unparse(inner.test), inner.body)
            self.orelse(inner, depth)
            self.spans[id(inner)] = (first, len(self.lines))
        elif other:
            self.block(depth, "else", other)

    def block(self, depth: int, header: str, body: list, docstring: bool = False) -> None:
        self.text(depth, header + ":")
        self.body(body, depth + 1, docstring)

    def text(self, depth: int, text: str) -> None:
        """``text`` indented ``depth`` levels on its first line (as ``ast.unparse`` indents a
        statement: the inner lines of a string keep their own), each line folded."""
        for number, line in enumerate(text.splitlines()):
            self.lines.extend(fold("    " * depth + line if number == 0 else line))


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
