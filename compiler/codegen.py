"""Generate the Python module of rule tables from the IR, through a Jinja2 template.

The template is rendered with ``StrictUndefined`` (a missing value is an error, never an empty
string) and every literal passes through ``repr``; identifiers in the output come from names the
checker validated. The result imports only :mod:`rulecraft.runtime`.
"""

from __future__ import annotations

from functools import lru_cache
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
        action.param_specs = tuple((p.name, str(p.type), p.size, p.offset) for p in action.params)
    for node in ir.nodes:
        node.action_indices = tuple(a.index for a in node.actions)
    pieces = ir.pieces
    labels = [_piece_label(ir, index) for index in range(len(pieces))]
    num_actions = sum(_size(a) for a in ir.actions)
    env = _environment()
    return env.get_template("rules.py.j2").render(
        version=version, spec_path=spec_path, spec_hash=spec_hash, meta=ir.meta,
        option_values={k: v["value"] for k, v in ir.options.items()},
        teams=ir.teams, spaces=ir.spaces, neighbors=ir.neighbors, distance=ir.distance,
        space_at={rc: i for i, rc in enumerate(ir.grid["coords"])} if ir.grid else {},
        grid={"rows": ir.grid["rows"], "columns": ir.grid["columns"],
              "coords": ir.grid["coords"]} if ir.grid else None,
        space_attributes=sorted((k, v[1]) for k, v in ir.space_attributes.items()),
        lines=ir.lines, kinds=ir.kinds, kind_attributes=sorted(ir.kind_attributes.items()),
        piece_team=[p["team"] for p in pieces], piece_kind=[p["kind"] for p in pieces],
        piece_number=[p["number"] for p in pieces], piece_labels=labels,
        team_pieces=[tuple(i for i, p in enumerate(pieces) if p["team"] == t) for t in range(len(ir.teams))],
        enums=ir.enums, tables=ir.tables, fields=ir.fields, slots=ir.slots, nodes=ir.nodes,
        actions=ir.actions, triggers=ir.triggers, returns=ir.returns, end_rule="end",
        evaluation=ir.evaluation, invariants=ir.invariants, dice=ir.dice,
        num_distinct_actions=num_actions, returns_range=ir.returns_range,
        max_plies=ir.max_plies, events=ir.events)


def _piece_label(ir: GameIR, index: int) -> str:
    """'atk X5' for numbered pieces; 'home goalkeeper', 'home outfield 3' for unnumbered ones of
    a kind; 'red 2' for pieces of no kind."""
    piece = ir.pieces[index]
    team = ir.teams[piece["team"]]
    kind = ir.kinds[piece["kind"]] if piece["kind"] >= 0 else ""
    if piece["number"]:
        return f"{team} {kind}{piece['number']}"
    same = [i for i, q in enumerate(ir.pieces) if q["team"] == piece["team"] and q["kind"] == piece["kind"]]
    if kind and len(same) == 1:
        return f"{team} {kind}"
    return f"{team} {kind} {same.index(index) + 1}".replace("  ", " ")


def _size(action) -> int:
    total = 1
    for param in action.params:
        total *= param.size
    return total
