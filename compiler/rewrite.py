"""Rewrite a rule string's deprecated selections into comprehensions, by position.

``x in S where C`` (and ``x in S until C``) become the comprehension of the same items:
``count(x in S where C)`` → ``count(x for x in S where C)``; ``any(x in S where C)`` →
``any(C for x in S)`` (and so ``all``); elsewhere, as in ``connected(z, y in S where C)``, the
comprehension is bracketed, ``[y for y in S where C]``. Every character that is not part of the
change is copied as written, so layout and rule-language comments survive; an edit copies spans
of the string rather than retyping them, so a caller can copy the same spans from the file the
string was read from (keeping its quoting). One rewrite serves ``rulecraft fmt --upgrade`` and
the hint of the checker's deprecation warning.

Source: the parse tree of :func:`rulecraft.compiler.parser.token_tree` (every token kept).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from lark import Token, Tree

from rulecraft.compiler.parser import token_tree

# the quantifiers that read the old form as "C holds for some / every item"
_TRUTHS = ("any", "all")


@dataclass(frozen=True, eq=False)
class Edit:
    """Replace characters ``start`` to ``end`` of a rule string by ``parts``: literal texts and
    ``(a, b)`` spans of the string (copied with the edits inside them). ``context`` is the span
    of the expression a hint shows: the call the selection is the argument of, or the selection."""

    start: int
    end: int
    parts: tuple
    context: tuple


def edits(text: str) -> list[Edit]:
    """The edits that rewrite every old-form selection of the rule string ``text`` (none when
    it does not parse)."""
    tree = token_tree(text)
    return [] if tree is None else [_edit(node, ancestors) for node, ancestors in _selections(tree, ())]


def upgraded(text: str, offset: int) -> str | None:
    """The comprehension form of the old selection whose name stands at ``offset`` of ``text``,
    written out with the call around it (``count(p for p in pieces where p.at == z)``), one line;
    None when no old selection starts there."""
    found = edits(text)
    for edit in found:
        if edit.start == offset:
            written = render(found, *edit.context, lambda a, b: str(text)[a:b])
            return "write " + " ".join(written.split())
    return None


def outermost(found: list[Edit], skip: Edit | None = None) -> list[Edit]:
    """The edits of ``found`` (but ``skip``) that lie inside no other, in order."""
    candidates = [e for e in found if e is not skip]
    return sorted((e for e in candidates if not any(o is not e and o.start <= e.start and e.end <= o.end
                                                    for o in candidates)), key=lambda e: e.start)


def render(found: list[Edit], start: int, end: int, raw: Callable[[int, int], str],
           skip: Edit | None = None) -> str:
    """Characters ``start`` to ``end`` with the edits of ``found`` inside them applied (but
    ``skip``, the edit whose own span is being copied); ``raw(a, b)`` gives unedited text."""
    inside = [e for e in found if start <= e.start and e.end <= end]
    pieces, at = [], start
    for edit in outermost(inside, skip):
        pieces += [raw(at, edit.start), replacement(found, edit, raw)]
        at = edit.end
    pieces.append(raw(at, end))
    return "".join(pieces)


def replacement(found: list[Edit], edit: Edit, raw: Callable[[int, int], str]) -> str:
    """The new text of ``edit`` (its copied spans rendered with the edits inside them)."""
    return "".join(part if isinstance(part, str) else render(found, *part, raw, skip=edit)
                   for part in edit.parts)


def _selections(tree: Tree, ancestors: tuple):
    """Every ``selection``/``run`` subtree of ``tree``, innermost first, with its ancestors."""
    for child in tree.children:
        if isinstance(child, Tree):
            yield from _selections(child, ancestors + (tree,))
    if tree.data in ("selection", "run"):
        yield tree, ancestors


def _span(node) -> tuple:
    tokens = [node] if isinstance(node, Token) else list(node.scan_values(lambda v: isinstance(v, Token)))
    return tokens[0].start_pos, tokens[-1].end_pos


def _edit(node: Tree, ancestors: tuple) -> Edit:
    var, _, source, _, cond = node.children
    start, end = _span(node)
    call, bare = _sole_argument_of(ancestors)
    name = str(call.children[0]) if call is not None else None
    if name in _TRUTHS and node.data == "selection":
        parts = (_span(cond), " for ", (start, _span(source)[1]))
    else:
        parts = (_span(var), " for ", (start, end))
    if not bare:
        parts = ("[", *parts, "]")
    return Edit(start, end, parts, _span(call) if call is not None else (start, end))


def _sole_argument_of(ancestors: tuple):
    """``(call, bare)``: the call whose only argument the selection is (through parentheses or
    not; None if it is not one) and whether it stands there without parentheses."""
    bare = True
    for depth in range(len(ancestors) - 1, -1, -1):
        parent = ancestors[depth]
        if parent.data == "atom":                 # ( ... )
            bare = False
            continue
        if parent.data == "args" and len(parent.children) == 1 and depth > 0 \
                and ancestors[depth - 1].data in ("call", "call_stmt"):
            return ancestors[depth - 1], bare
        return None, False
    return None, False
