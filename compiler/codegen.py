"""Generate the Python module of rule tables from the IR, through a Jinja2 template.

The template is rendered with ``StrictUndefined`` (a missing value is an error, never an empty
string) and every literal passes through ``repr``; identifiers in the output come from names the
checker validated. The result imports only :mod:`rulecraft.runtime`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import lru_cache
import re
from pathlib import Path

import jinja2

from rulecraft.compiler import types as T
from rulecraft.compiler.hoisting import HOISTABLE, bound_inside, gather_facts, safe_lookups
from rulecraft.compiler.model import GameIR

TEMPLATES = Path(__file__).with_name("templates")


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    """One environment per process, so the template is compiled once, not on every generate()."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)
    env.filters["pyrepr"] = _pyrepr
    return env


def _pyrepr(value) -> str:
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_pyrepr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_pyrepr(k)}: {_pyrepr(v)}" for k, v in value.items()) + "}"
    if hasattr(value, "numerator") and not isinstance(value, (int, bool)):
        return f"Fraction({value.numerator!r}, {value.denominator!r})"
    if isinstance(value, (str, int, float, bool)) or value is None:
        return repr(value)
    return repr(str(value))


def template_texts() -> str:
    """Every template's text (part of the compile cache key)."""
    return "".join(p.read_text(encoding="utf-8") for p in sorted(TEMPLATES.glob("*.j2")))


def generate(ir: GameIR, *, spec_path: str, spec_hash: str, version: str) -> str:
    """Render the rule-table module for ``ir``; returns Python source text."""
    board = Board(len(ir.spaces), frozenset(name.upper() for name in ir.space_attributes))
    for action in ir.actions:
        strides, stride = [], 1
        for param in reversed(action.params):
            strides.append(stride)
            stride *= param.size
        strides.reverse()
        terms = ([repr(action.base)] if action.base or not action.params else []) + [
            f"(p_{p.name}{' - ' + repr(p.offset) if p.offset else ''}){' * ' + repr(k) if k != 1 else ''}"
            for p, k in zip(action.params, strides)]
        action.id_expression = " + ".join(terms)
        action.gen_lines = _generator_lines(action, board)
        action.param_specs = tuple((p.name, str(p.type), p.size, p.offset) for p in action.params)
    for node in ir.nodes:
        node.action_indices = tuple(a.index for a in node.actions)
    pieces = ir.pieces
    labels = [_piece_label(ir, index) for index in range(len(pieces))]
    num_actions = sum(_size(a) for a in ir.actions)
    step_sets, kind_attributes = [], []
    for name, values in sorted(ir.kind_attributes.items()):
        if any(isinstance(v, tuple) for v in values):     # grid steps: an index into STEP_SETS
            values = [_index(step_sets, tuple(v)) for v in values]
        kind_attributes.append((name, values))
    env = _environment()
    return env.get_template("rules.py.j2").render(
        version=version, spec_path=spec_path, spec_hash=spec_hash, meta=ir.meta,
        option_values={k: v["value"] for k, v in ir.options.items()},
        teams=ir.teams, spaces=ir.spaces, neighbors=ir.neighbors, distance=ir.distance,
        space_at={rc: i for i, rc in enumerate(ir.grid["coords"])} if ir.grid else {},
        grid={"rows": ir.grid["rows"], "columns": ir.grid["columns"],
              "coords": ir.grid["coords"]} if ir.grid else None,
        space_attributes=sorted((k, v[1]) for k, v in ir.space_attributes.items()),
        lines=ir.lines, kinds=ir.kinds, kind_attributes=kind_attributes, step_sets=step_sets,
        piece_team=[p["team"] for p in pieces], piece_kind=[p["kind"] for p in pieces],
        piece_number=[p["number"] for p in pieces], piece_labels=labels,
        team_pieces=[tuple(i for i, p in enumerate(pieces) if p["team"] == t) for t in range(len(ir.teams))],
        enums=ir.enums, tables=ir.tables, fields=ir.fields, slots=ir.slots, nodes=ir.nodes,
        actions=ir.actions, triggers=ir.triggers, returns=ir.returns, end_rule="end",
        evaluation=ir.evaluation, invariants=ir.invariants, dice=ir.dice,
        num_distinct_actions=num_actions, returns_range=ir.returns_range,
        max_plies=ir.max_plies, events=ir.events, piece_index=ir.piece_index,
        grouped=sorted(board.grouped), board_formulas=ir.board_formulas,
        at_field=next(f for f in ir.fields if f.name == "at"))


def _piece_label(ir: GameIR, index: int) -> str:
    """'atk X5' for numbered pieces; 'home goalkeeper', 'home outfield 3' for unnumbered ones of
    a kind; 'red 2' for pieces of no kind."""
    piece = ir.pieces[index]
    team = ir.teams[piece["team"]]
    kind = ir.kinds[piece["kind"]] if piece["kind"] >= 0 else ""
    if kind and ir.kind_symbols and ir.kind_symbols[piece["kind"]]:
        kind = ir.kind_symbols[piece["kind"]]       # a kind's symbol: 'ATK □4'

    if piece["number"]:
        return f"{team} {kind}{piece['number']}"
    same = [i for i, q in enumerate(ir.pieces) if q["team"] == piece["team"] and q["kind"] == piece["kind"]]
    if kind and len(same) == 1:
        return f"{team} {kind}"
    return f"{team} {kind} {same.index(index) + 1}".replace("  ", " ")


@dataclass
class Board:
    """What narrowing loops over spaces needs to know of the board: how many spaces there are,
    the names of the spaces' attribute tables (``SPACE_<NAME>``), and, filled in while
    generating, the grouped tables the narrowed loops read (``SPACES_BY_<NAME>``,
    ``NEIGHBORS_BY_<NAME>``)."""

    spaces: int
    attributes: frozenset
    grouped: set = field(default_factory=set)


def _generator_lines(action, board: Board) -> list[str]:
    """The body of ``gen_<action>``, returning the list of legal ids: a loop per parameter, each
    condition tested as soon as the parameters it reads are bound (so a failing test on the
    first parameter skips the inner loops). A ``from:`` list's own membership test is left out:
    the loop goes through that list, and a loop is narrowed to the values a condition pins it to
    (:func:`_narrow`)."""
    names = [p.name for p in action.params]
    loop_names = [f"p_{name}" for name in names]
    levels: list[list[str]] = [[] for _ in range(len(names) + 1)]
    conditions = []
    for _, _, src in action.conditions:
        if any(p.from_src and src == f"(p_{p.name} in {p.from_src})" for p in action.params):
            continue
        used = [i + 1 for i, name in enumerate(names) if re.search(rf"\bp_{name}\b", src)]
        conditions.append((max(used, default=0), ast.parse(src, mode="eval").body))
    sources = [_narrow(param, depth, conditions, loop_names, board)
               for depth, param in enumerate(action.params, start=1)]
    for level, test in conditions:
        if test is not None:
            levels[level].append(f"({ast.unparse(test)})")
    levels[-1].append(action.id_expression)    # its terms of outer parameters: once per step too
    hoisted = _hoist(levels, loop_names)
    action_id = levels[-1].pop()
    pad = "    "
    lines = [f"{pad}out = []"]
    for depth, param in enumerate([None] + list(action.params)):
        if param is not None:
            lines.append(f"{pad * depth}for p_{param.name} in {sources[depth - 1]}:")
        tests = levels[depth]
        if tests and depth < len(names):
            lines.append(f"{pad * (depth + 1)}if not ({' and '.join(tests)}):")
            lines.append(f"{pad * (depth + 2)}{'return out' if depth == 0 else 'continue'}")
        lines.extend(f"{pad * (depth + 1)}{local} = {src}" for local, src in hoisted[depth])
    depth = len(names) + 1
    if levels[len(names)]:
        lines.append(f"{pad * depth}if {' and '.join(levels[len(names)])}:")
        depth += 1
    lines.append(f"{pad * depth}out.append({action_id})")
    lines.append(f"{pad}return out")
    return lines


def _narrow(param, depth: int, conditions: list, loop_names: list[str], board: Board) -> str:
    """The values the loop of parameter ``param`` (the ``depth``-th) goes through.

    Without narrowing: its ``from:`` list, or every value of its type. A loop over every space
    (or over ``NEIGHBORS[X]``) is narrowed by a conjunct of a condition that pins the space to a
    set computed from outer values alone:

    * ``p in NEIGHBOR_SETS[X]`` (``adjacent(X, p)``) or ``p in NEIGHBORS[X]``: ``NEIGHBORS[X]``;
    * ``SPACE_<NAME>[p] == E`` (a board attribute equal to a value): the spaces with that value,
      from a table grouped by the attribute (``SPACES_BY_<NAME>``, ``NEIGHBORS_BY_<NAME>``).

    A conjunct used holds for every value of the narrowed loop, so it is taken out of its
    condition (``conditions``, pairs of level and tree; a condition left empty becomes None).
    """
    if param.type != T.SPACE or param.offset or param.size != board.spaces:
        return param.from_src or f"range({param.offset}, {param.offset + param.size})"
    around = _neighbors_of(ast.parse(param.from_src, mode="eval").body) if param.from_src else None
    if param.from_src and around is None:
        return param.from_src
    group = None
    for index, (level, test) in enumerate(conditions):
        kept = []
        for conjunct in _conjuncts(test):
            pin = _pinned(conjunct, loop_names[depth - 1:], board)
            if pin is not None and pin[0] == "neighbors" and around is None:
                around = pin[1]
            elif pin is not None and pin[0] == "attribute" and group is None:
                group = pin[1:]
            else:
                kept.append(conjunct)
        conditions[index] = (level, None if not kept else kept[0] if len(kept) == 1
                             else ast.BoolOp(ast.And(), kept))
    if group is None:
        return param.from_src or (f"NEIGHBORS[{ast.unparse(around)}]" if around is not None
                                  else f"range(0, {board.spaces})")
    attribute, value = group
    if around is None:
        board.grouped.add(("SPACES", attribute))
        return f"SPACES_BY_{attribute}.get({ast.unparse(value)}, ())"
    board.grouped.add(("NEIGHBORS", attribute))
    return f"NEIGHBORS_BY_{attribute}[{ast.unparse(around)}].get({ast.unparse(value)}, ())"


def _conjuncts(test) -> list:
    """The parts of ``a and b and ...``, however parenthesised (the test itself when it is no
    conjunction; [] for None)."""
    if test is None:
        return []
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [part for value in test.values for part in _conjuncts(value)]
    return [test]


def _neighbors_of(node):
    """X of ``NEIGHBORS[X]``, or None."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
            and node.value.id == "NEIGHBORS":
        return node.slice
    return None


def _pinned(conjunct, inner_names: list[str], board: Board):
    """``("neighbors", X)`` when ``conjunct`` is ``p in NEIGHBOR_SETS[X]`` (or ``NEIGHBORS``),
    ``("attribute", NAME, E)`` when it is ``SPACE_<NAME>[p] == E`` (either way round), where ``p``
    is ``inner_names[0]``, the loop being narrowed, and X and E read none of ``inner_names`` (that
    loop and those inside it) and can be computed before the loop without failing; else None."""
    name = inner_names[0]
    if not (isinstance(conjunct, ast.Compare) and len(conjunct.ops) == 1):
        return None
    left, op, right = conjunct.left, conjunct.ops[0], conjunct.comparators[0]

    def outer(node) -> bool:
        return all(isinstance(n, HOISTABLE) and not (isinstance(n, ast.Name) and n.id in inner_names)
                   for n in ast.walk(node)) and safe_lookups(node)

    def attribute(node):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and node.value.id.startswith("SPACE_") and node.value.id[6:] in board.attributes \
                and isinstance(node.slice, ast.Name) and node.slice.id == name:
            return node.value.id[6:]
        return None

    if isinstance(op, ast.In) and isinstance(left, ast.Name) and left.id == name \
            and isinstance(right, ast.Subscript) and isinstance(right.value, ast.Name) \
            and right.value.id in ("NEIGHBOR_SETS", "NEIGHBORS") and outer(right.slice):
        return "neighbors", right.slice
    if isinstance(op, ast.Eq):
        for one, other in ((left, right), (right, left)):
            if attribute(one) is not None and outer(other):
                return "attribute", attribute(one), other
    return None


def _hoist(levels: list[list[str]], loop_names: list[str]) -> list[list[tuple[str, str]]]:
    """Loop-invariant code motion for a legal-id generator.

    ``levels[d]`` holds the tests made inside the first ``d`` parameter loops (``loop_names``).
    Each largest part of a test that reads only outer loops' parameters is computed once, as a
    local ``fixed_<n>``, in the loop of the last parameter it reads (at the top for none), after
    that loop's own tests; the tests in ``levels`` are rewritten to read the locals. Returns the
    locals to assign at each depth, as ``(name, source)`` pairs; equal parts share a local.
    """
    hoisted: list[list[tuple[str, str]]] = [[] for _ in levels]
    known: dict[str, str] = {}

    class Rewrite(ast.NodeTransformer):
        def __init__(self, depth, tree):
            self.depth = depth
            self.facts = {}
            gather_facts(tree, self.facts, bound_inside(tree), loop_names)

        def visit(self, node):
            if not isinstance(node, ast.expr) or isinstance(node, (ast.Name, ast.Constant)):
                return self.generic_visit(node)
            level, movable, _ = self.facts[id(node)]
            # level None: a constant, nothing to gain; -1: reads a name bound inside the test
            if level is not None and 0 <= level < self.depth and movable:
                src = ast.unparse(node)
                if src not in known:
                    known[src] = f"fixed_{len(known) + 1}"
                    hoisted[level].append((known[src], src))
                return ast.copy_location(ast.Name(known[src], ast.Load()), node)
            return self.generic_visit(node)

    for depth in range(1, len(levels)):
        trees = [ast.parse(test, mode="eval") for test in levels[depth]]
        levels[depth] = [f"({ast.unparse(Rewrite(depth, tree).visit(tree).body)})" for tree in trees]
    return hoisted


def _index(items: list, item) -> int:
    """The position of ``item`` in ``items``, appending it when new."""
    if item not in items:
        items.append(item)
    return items.index(item)


def _size(action) -> int:
    total = 1
    for param in action.params:
        total *= param.size
    return total
