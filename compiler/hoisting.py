"""Loop-invariant code motion on generated Python expressions (issue 7).

A part of a loop's body that reads nothing the loop binds gives the same value on every step, so
the generated code computes it once: in a legal-id generator, once per step of the outer loop it
depends on (:func:`rulecraft.compiler.codegen._hoist`); in a comprehension (``count``, ``any``,
``sum``, ...), once per evaluation of the comprehension, through a clause ``for h_n in [E]`` put
before the loop (:func:`comprehension_head`). Only parts that cannot fail where the original,
perhaps never evaluated, could not are moved (:data:`HOISTABLE`, :func:`safe_lookups`).
"""

from __future__ import annotations

import ast
from typing import Callable

# what a value computed once per loop step may be made of: pure, and unable to fail where the
# original, perhaps never evaluated, could not (no division, no call, no lookup in a spec table)
HOISTABLE = (ast.Name, ast.Constant, ast.Subscript, ast.BinOp, ast.UnaryOp, ast.Compare,
             ast.BoolOp, ast.IfExp, ast.Load, ast.Add, ast.Sub, ast.Mult, ast.unaryop, ast.cmpop,
             ast.boolop, ast.Tuple)


def safe_lookups(node) -> bool:
    """Whether every ``X[i]`` in ``node`` looks up the state or a board table, which every value
    computed there indexes without fail (none, -1, reads the last item); spec tables may not."""
    return all(not isinstance(n, ast.Subscript) or
               (isinstance(n.value, ast.Name) and not n.value.id.startswith("TABLE_")) or
               isinstance(n.value, ast.Subscript)
               for n in ast.walk(node))


def bound_inside(tree) -> set[str]:
    """The names that comprehensions inside ``tree`` bind."""
    return {n.id for comprehension in ast.walk(tree) if isinstance(comprehension, ast.comprehension)
            for n in ast.walk(comprehension.target) if isinstance(n, ast.Name)}


def comprehension_head(var: str, collection: str, parts: list[str],
                       fresh: Callable[[], str]) -> tuple[str, list[str]]:
    """The ``for`` clauses of a comprehension over ``var in collection`` whose body is ``parts``
    (its value, its condition), with the body's loop-invariant parts computed once.

    Each largest part of ``parts`` that reads neither ``var`` nor a name bound inside, looks
    something up at a computed position (``s[4 + v_x]``, ``SPACE_LOW[p_z]``) and is safe to
    compute early becomes a clause ``for <fresh()> in [E]`` before the loop, and is read from
    that name. Returns the clauses (``"for v in S"`` when nothing moves)
    and ``parts`` rewritten; equal parts share a name.
    """
    if not any("[" in part for part in parts):     # no lookup at all: nothing worth moving
        return f"for {var} in {collection}", parts
    trees = [ast.parse(part, mode="eval") for part in parts]
    inner = {var}.union(*(bound_inside(tree) for tree in trees))
    facts: dict[int, tuple] = {}
    for tree in trees:
        gather_facts(tree, facts, inner, [])
    moved: dict[str, str] = {}

    class Rewrite(ast.NodeTransformer):
        def visit(self, node):
            level, movable, looks_up = facts[id(node)]
            if isinstance(node, ast.expr) and looks_up and movable and level == 0:
                src = ast.unparse(node)
                if src not in moved:
                    moved[src] = fresh()
                return ast.copy_location(ast.Name(moved[src], ast.Load()), node)
            return self.generic_visit(node)

    trees = [Rewrite().visit(tree) for tree in trees]
    if not moved:
        return f"for {var} in {collection}", parts
    rewritten = [ast.unparse(tree.body) for tree in trees]
    clauses = "".join(f"for {name} in [{src}] " for src, name in moved.items())
    return f"{clauses}for {var} in {collection}", [f"({src})" for src in rewritten]


def gather_facts(node, facts: dict, inner: set, loop_names: list[str]) -> tuple:
    """``facts[id(n)]`` for ``node`` and everything in it, in one pass: ``(level, movable,
    looks_up)``. ``level`` is how many of ``loop_names`` must be bound to compute ``n`` (0: none),
    -1 when ``n`` reads a name of ``inner`` (bound inside), None when it reads no name; ``movable``
    whether it is safe to compute early (:data:`HOISTABLE` throughout, :func:`safe_lookups`);
    ``looks_up`` whether it looks something up at a computed position (worth a clause of its
    own; a constant lookup such as ``TEAM_PIECES[1]`` costs no more than reading a name)."""
    children = [gather_facts(child, facts, inner, loop_names) for child in ast.iter_child_nodes(node)]
    levels = [c[0] for c in children if c[0] is not None]
    if isinstance(node, ast.Name):
        levels.append(-1 if node.id in inner else
                      loop_names.index(node.id) + 1 if node.id in loop_names else 0)
    level = None if not levels else -1 if -1 in levels else max(levels)
    subscript = isinstance(node, ast.Subscript)
    movable = isinstance(node, HOISTABLE) and all(c[1] for c in children) and (
        not subscript or isinstance(node.value, ast.Subscript) or
        (isinstance(node.value, ast.Name) and not node.value.id.startswith("TABLE_")))
    looks_up = (subscript and not isinstance(node.slice, ast.Constant)) or any(c[2] for c in children)
    facts[id(node)] = level, movable, looks_up
    return facts[id(node)]
