"""The ``pieces:`` section: piece kinds (with number or grid-step attributes and a symbol) and the
roster of every team's pieces, with where each starts.

Each piece's ``at`` is the first state field (one slot per piece). Its team, kind and number, the
kinds' attributes and the squares each kind's grid steps reach from every square are tables
fixed when compiling. Errors: RC337 (kinds and attributes), RC338 (roster), the shape checks'.
"""

from __future__ import annotations

import re

from rulecraft.errors import SpecError, did_you_mean
from rulecraft.limits import MAX_PIECES
from rulecraft.loader import Mapping, Sequence
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler import schema
from rulecraft.compiler.evaluate import NotConstant, evaluate
from rulecraft.compiler.shapes import Shapes
from rulecraft.compiler.symbols import Attribute
from rulecraft.runtime.tables import HEADER_SLOTS

BUILT_IN = ("at", "team", "kind", "number", "pieces")


class PiecesReader(Shapes):
    """Reads ``pieces:``; fills ``self.kinds``, ``self.kind_attributes``, ``self.kind_symbols``,
    ``self.pieces`` and the ``at`` field, and declares ``pieces`` and the piece attributes."""

    def read_pieces(self, pieces, board: ir.BoardIR) -> ir.FieldIR:
        """The pieces; returns the ``at`` field. RC320–RC325, RC337, RC338."""
        kinds, attributes, symbols, roster, steps = [], {}, [], [], set()
        first_at: dict = {}             # kind attribute -> where a kind first gave it a value
        if pieces is not None:
            self.declared(pieces, "pieces:", schema.PIECES, self.data.value_at("pieces"))
            kind_specs = pieces.get("kinds") or Mapping()
            entries = self.entries(kind_specs, "pieces: kinds:", pieces.value_at("kinds"))
            symbols = [None] * len(entries)
            for index, (name, attrs) in enumerate(entries):
                self.identifier(name, kind_specs.where(name), "the piece kind")
                kinds.append(str(name))
                self.declare(str(name), ir.Const(type=T.KIND, value=index), kind_specs.where(name))
                for key, value in self.entries(attrs, f"piece kind '{name}'", kind_specs.value_at(name)):
                    if key in BUILT_IN:
                        raise SpecError(f"'{key}' is a built-in attribute of every piece; give this "
                                        "kind attribute another name", attrs.where(key), code="RC337")
                    if key == "symbol":
                        symbols[index] = str(self.text(attrs, key, f"kind '{name}'"))
                        continue
                    self.identifier(key, attrs.where(key), "the kind attribute")
                    if isinstance(value, Sequence):
                        value = self._grid_steps(value, attrs.value_at(key), board)
                        steps.add(str(key))
                    elif isinstance(value, bool) or not isinstance(value, int):
                        raise SpecError(f"kind attribute '{key}' must be a whole number or a list "
                                        "of grid steps [rows, columns]", attrs.value_at(key), code="RC337")
                    values = attributes.setdefault(str(key), [None] * len(entries))
                    if any(isinstance(v, tuple) != isinstance(value, tuple) for v in values if v is not None):
                        raise SpecError(f"kind attribute '{key}' is grid steps for one kind and a "
                                        "number for another", attrs.value_at(key), code="RC337",
                                        also=first_at[str(key)])
                    first_at.setdefault(str(key), attrs.value_at(key))
                    values[index] = value
            for key, values in attributes.items():
                default = () if key in steps else 0
                values[:] = [default if v is None else v for v in values]
            listed = pieces["roster"]
            if not isinstance(listed, Sequence):
                raise SpecError("roster: lists the pieces", pieces.value_at("roster"), code="RC337")
            for index, entry in enumerate(listed):
                roster.extend(self._roster_entry(entry, kinds, board, len(roster), listed.at(index)))
        self.kinds, self.kind_symbols = tuple(kinds), tuple(symbols)
        self.kind_attributes = {k: tuple(v) for k, v in attributes.items()}
        self.pieces = tuple(roster)
        self.symbols.piece_count = len(roster)
        at = ir.FieldIR("at", T.SPACE, T.PIECE, HEADER_SLOTS, len(roster),
                        ir.Items(type=T.ListOf(T.SPACE), items=tuple(ir.Const(type=T.SPACE, value=p.at)
                                                                    for p in roster)))
        self.declare("pieces", ir.Span(type=T.ListOf(T.PIECE), low=_int(0), high=_int(len(roster) - 1)),
                     getattr(pieces, "position", None))
        self._piece_tables(at, steps, board)
        return at

    def _piece_tables(self, at: ir.FieldIR, steps: set, board: ir.BoardIR) -> None:
        statics, attrs = self.symbols.statics, self.symbols.attributes
        teams = len(self.teams)
        roster = self.pieces
        for name, values, kind in (("PIECE_TEAM", [p.team for p in roster], T.TEAM),
                                   ("PIECE_KIND", [p.kind for p in roster], T.KIND),
                                   ("PIECE_NUMBER", [p.number for p in roster], T.INT)):
            statics[name] = ir.StaticTable("piece", name, tuple(values), kind)
        statics["TEAM_PIECES"] = ir.StaticTable("team", "TEAM_PIECES", tuple(
            tuple(i for i, p in enumerate(roster) if p.team == t) for t in range(teams)), T.ListOf(T.PIECE))
        attrs[(T.PIECE, "at")] = Attribute("field", T.SPACE, field=at)
        attrs[(T.PIECE, "team")] = Attribute("static", T.TEAM, table=statics["PIECE_TEAM"])
        attrs[(T.PIECE, "kind")] = Attribute("static", T.KIND, table=statics["PIECE_KIND"])
        attrs[(T.PIECE, "number")] = Attribute("static", T.INT, table=statics["PIECE_NUMBER"])
        step_sets: list = []
        for key, values in self.kind_attributes.items():
            kind = T.STEPS if key in steps else T.INT
            if key in steps:        # a kind's steps: the index of its set in STEP_SETS
                values = tuple(_index_of(step_sets, v) for v in values)
            # a piece of no kind (-1) reads the last entry: the attribute's default
            table = ir.StaticTable("kind", key, tuple(values) + ((_index_of(step_sets, ()) if key in steps
                                                                  else 0),), kind)
            attrs[(T.PIECE, key)] = Attribute("via_kind", kind, table=table)
            attrs[(T.KIND, key)] = Attribute("static", kind, table=table)
        self.reached = _reached(step_sets, board) if step_sets else ()
        attrs[(T.TEAM, "pieces")] = Attribute("static", T.ListOf(T.PIECE), table=statics["TEAM_PIECES"])
        attrs[(T.SPACE, "pieces")] = Attribute("pieces", T.ListOf(T.PIECE))
        if teams == 2:
            attrs[(T.TEAM, "opponent")] = Attribute("opponent", T.TEAM)
        attrs[(T.TEAM, "next")] = Attribute("next", T.TEAM)
        if roster and board.spaces:
            self.symbols.piece_index = ir.PieceIndexIR(teams, len(board.spaces) + 1)

    def _grid_steps(self, value, position, board) -> tuple:
        """A kind attribute listing grid steps ``[rows, columns]``; ``±n`` stands for +n and -n."""
        if board.grid is None:
            raise SpecError("grid steps need a grid board", position, code="RC337")
        steps = []
        for index, step in enumerate(value):
            if not isinstance(step, Sequence) or len(step) != 2:
                raise SpecError("a grid step is [rows, columns], e.g. [1, 0] or [±2, ±2]",
                                value.at(index), code="RC337")
            options = []
            for part in step:
                match = re.fullmatch(r"(±|\+|-)?(\d{1,2})", str(part).strip()) \
                    if not isinstance(part, bool) else None
                if match is None:
                    raise SpecError(f"'{part}' is not a step: write a whole number, or ±n for both "
                                    "signs", value.at(index), code="RC337")
                size = int(match.group(2))
                options.append([size, -size] if match.group(1) == "±" and size else
                               [-size if match.group(1) == "-" else size])
            for rows in options[0]:
                for cols in options[1]:
                    if (rows, cols) not in steps:
                        steps.append((rows, cols))
        return tuple(steps)

    def _roster_entry(self, entry, kinds, board: ir.BoardIR, placed: int, at) -> list:
        """The pieces of one roster entry, after the ``placed`` pieces of the entries before it;
        RC337/RC338 for a malformed entry, RC362 past :data:`MAX_PIECES` in all."""
        self.declared(entry, "a roster entry", schema.ROSTER_ENTRY, at)
        if "when" in entry and not self._roster_condition(entry):
            return []
        teams = self.teams
        named = teams if entry["team"] == "each" else [str(entry["team"])]
        for team in named:
            if team not in teams:
                raise SpecError(f"unknown team '{team}'", entry.value_at("team"), code="RC338",
                                hint=did_you_mean(team, list(teams) + ["each"]))
        kind = entry.get("kind")
        if kind is not None and str(kind) not in kinds:
            raise SpecError(f"unknown piece kind '{kind}'", entry.value_at("kind"), code="RC338",
                            hint=did_you_mean(str(kind), kinds))
        at = -1
        if entry.get("at") is not None:
            if str(entry["at"]) not in board.spaces:
                raise SpecError(f"unknown space '{entry['at']}'", entry.value_at("at"), code="RC338",
                                hint=did_you_mean(str(entry["at"]), board.spaces))
            at = board.spaces.index(str(entry["at"]))
        count = entry.get("count", 1)
        number = entry.get("number", 0)
        for key, value in (("count", count), ("number", number)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise SpecError(f"{key}: is a whole number, 0 or more", entry.value_at(key), code="RC338")
        self.at_most(placed + count * len(named), MAX_PIECES, "pieces in the roster", entry.value_at("count"),
                     "a roster lists the pieces a game starts with; count fewer")
        return [ir.PieceIR(teams.index(team), kinds.index(str(kind)) if kind is not None else -1,
                           number + (i if "number" in entry else 0), at)
                for team in named for i in range(count)]

    def _roster_condition(self, entry) -> bool:
        """A roster entry's ``when:``, a condition on options, decided when the spec is compiled."""
        text = self.text(entry, "when", "a roster entry")
        try:
            return bool(evaluate(self.checker.condition(text)))
        except (NotConstant, ArithmeticError, LookupError):
            raise SpecError("a roster entry's when: may use only options, teams and kinds: it is "
                            "decided when the spec is compiled", text.position, code="RC337") from None


def _int(value: int) -> ir.Const:
    return ir.Const(type=T.INT, value=value)


def _index_of(items: list, item) -> int:
    if item not in items:
        items.append(item)
    return items.index(item)


def _reached(step_sets, board: ir.BoardIR) -> tuple:
    """For each set of grid steps and each square: the squares its steps reach on the board."""
    index = {rc: i for i, rc in enumerate(board.grid.coords)}
    return tuple(tuple(tuple(index[(r + dr, c + dc)] for dr, dc in steps if (r + dr, c + dc) in index)
                       for r, c in board.grid.coords) for steps in step_sets)
