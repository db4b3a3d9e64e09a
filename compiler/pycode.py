"""Python's own parser, unparser and compiler, one thread at a time.

CPython 3.11 keeps the AST converter's recursion depth per interpreter, not per thread, so two
threads that parse or compile at once can fail with ``SystemError: AST constructor recursion depth
mismatch`` (python/cpython#106905). rulecraft compiles specs in threads (a server, the fuzz
harness, a test of the cache), so every ``ast.parse``, ``ast.unparse`` and ``compile`` of a game's module
runs under :data:`LOCK`. They hold the GIL anyway: the lock costs no parallelism.
"""

from __future__ import annotations

import ast
import threading

LOCK = threading.RLock()
"""Held while Python's parser, unparser or compiler runs (re-entrant: generation parses inside)."""


def parse(source: str, mode: str = "exec") -> ast.AST:
    """``ast.parse(source, mode=mode)`` under :data:`LOCK`; raises what ``ast.parse`` raises."""
    with LOCK:
        return ast.parse(source, mode=mode)


def unparse(tree: ast.AST) -> str:
    """``ast.unparse(tree)`` under :data:`LOCK`."""
    with LOCK:
        return ast.unparse(tree)


def code(source: str, filename: str):
    """The code object of module ``source`` (``compile(source, filename, "exec")``) under
    :data:`LOCK`; raises what ``compile`` raises."""
    with LOCK:
        return compile(source, filename, "exec")
