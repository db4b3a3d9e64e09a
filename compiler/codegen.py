"""Generate the Python module of rule tables from the IR, through a Jinja2 template.

The template is rendered with ``StrictUndefined`` (a missing value is an error, never an empty
string) and every literal passes through ``repr``; identifiers in the output come from names the
checker validated. The result imports only :mod:`rulecraft.runtime`.
"""

from __future__ import annotations

import ast
from functools import lru_cache
import re
from pathlib import Path

import jinja2

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
    for action in ir.actions:
        strides, stride = [], 1
        for param in reversed(action.params):
            strides.append(stride)
            stride *= param.size
        strides.reverse()
        terms = [repr(action.base)] + [
            f"(p_{p.name}{' - ' + repr(p.offset) if p.offset else ''}){' * ' + repr(k) if k != 1 else ''}"
            for p, k in zip(action.params, strides)]
        action.id_expression = " + ".join(terms)
        action.gen_lines = _generator_lines(action)
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


def _generator_lines(action) -> list[str]:
    """The body of ``gen_<action>``, returning the list of legal ids: a loop per parameter, each condition tested as soon as the
    parameters it reads are bound (so a failing test on the first parameter skips the inner
    loops). A ``from:`` list's own membership test is left out: the loop goes through that list."""
    names = [p.name for p in action.params]
    levels: list[list[str]] = [[] for _ in range(len(names) + 1)]
    for _, _, src in action.conditions:
        if any(p.from_src and src == f"(p_{p.name} in {p.from_src})" for p in action.params):
            continue
        used = [i + 1 for i, name in enumerate(names) if re.search(rf"\bp_{name}\b", src)]
        levels[max(used, default=0)].append(src)
    hoisted = _hoist(levels, [f"p_{name}" for name in names])
    pad = "    "
    lines = [f"{pad}out = []"]
    for depth, param in enumerate([None] + list(action.params)):
        if param is not None:
            source = param.from_src or f"range({param.offset}, {param.offset + param.size})"
            lines.append(f"{pad * depth}for p_{param.name} in {source}:")
        tests = levels[depth]
        if tests and depth < len(names):
            lines.append(f"{pad * (depth + 1)}if not ({' and '.join(tests)}):")
            lines.append(f"{pad * (depth + 2)}{'return out' if depth == 0 else 'continue'}")
        lines.extend(f"{pad * (depth + 1)}{local} = {src}" for local, src in hoisted[depth])
    depth = len(names) + 1
    if levels[len(names)]:
        lines.append(f"{pad * depth}if {' and '.join(levels[len(names)])}:")
        depth += 1
    lines.append(f"{pad * depth}out.append({action.id_expression})")
    lines.append(f"{pad}return out")
    return lines


# what a value computed once per loop step may be made of: pure, and unable to fail where the
# original, perhaps never evaluated, could not (no division, no call, no lookup in a spec table)
_HOISTABLE = (ast.Name, ast.Constant, ast.Subscript, ast.BinOp, ast.UnaryOp, ast.Compare,
              ast.BoolOp, ast.IfExp, ast.Load, ast.Add, ast.Sub, ast.Mult, ast.unaryop, ast.cmpop,
              ast.boolop, ast.Tuple)


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
            self.inner = {n.id for comprehension in ast.walk(tree)
                          if isinstance(comprehension, ast.comprehension)
                          for n in ast.walk(comprehension.target) if isinstance(n, ast.Name)}

        def visit(self, node):
            if not isinstance(node, ast.expr) or isinstance(node, (ast.Name, ast.Constant)):
                return self.generic_visit(node)
            level = _level(node, loop_names, self.inner)
            if level is not None and level < self.depth \
                    and all(isinstance(n, _HOISTABLE) for n in ast.walk(node)) and _safe_lookups(node):
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


def _level(node, loop_names: list[str], inner: set) -> int | None:
    """How many parameter loops must run before ``node`` can be computed (None: never outside
    the test, as it reads a name bound inside it (in ``inner``), or not worth it, as it reads
    no name)."""
    names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    if not names:
        return None                          # a constant: nothing to gain
    level = 0
    for name in names:
        if name in loop_names:
            level = max(level, loop_names.index(name) + 1)
        elif name in inner:                  # a variable of a count, any, all, sum, ... inside
            return None
    return level


def _safe_lookups(node) -> bool:
    """Whether every ``X[i]`` in ``node`` looks up the state or a board table, which every value
    computed there indexes without fail (none, -1, reads the last item); spec tables may not."""
    return all(not isinstance(n, ast.Subscript) or
               (isinstance(n.value, ast.Name) and not n.value.id.startswith("TABLE_")) or
               isinstance(n.value, ast.Subscript)
               for n in ast.walk(node))


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
