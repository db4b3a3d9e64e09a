"""The declaring sections of a spec: ``game``, ``options``, ``enums``, ``dice``, ``state``,
``tables``, ``define`` and ``procedures``.

Each reader checks its section's shape, declares its names in the spec's one namespace and
returns the section's IR. The state's fields get their slots here, in the order written, after
the header and the pieces' ``at`` slots; a secret field's revealed flag follows it.
"""

from __future__ import annotations

from fractions import Fraction
import math
import re

from rulecraft.errors import SpecError, did_you_mean
from rulecraft.limits import MAX_DIE_FACES, MAX_STATE_SLOTS, MAX_TABLE_CELLS
from rulecraft.loader import Mapping, Sequence, Text, plain
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler import schema
from rulecraft.compiler.derived import upkeep_order, upkeep_routine
from rulecraft.compiler.evaluate import NotConstant, evaluate
from rulecraft.compiler.sizes import Sizes
from rulecraft.compiler.symbols import Attribute, Function, Procedure

LANGUAGES = (1, 2)
_HEAD = re.compile(r"\s*([A-Za-z_]\w*)\s*(?:\(\s*([\w\s,]*)\))?\s*\Z")
_SMALLER_TABLE = "a table lists every cell in the spec; key it by a smaller range, or compute the value with a define:"


class DeclarationsReader(Sizes):
    """Readers of the declaring sections (see the module docstring)."""

    def read_game(self, game) -> ir.GameMeta:
        """``game:``; declares each team and ``teams``. RC320–RC325, RC327, RC359 (language)."""
        self.declared(game, "game:", schema.GAME, self.data.value_at("game"))
        self.identifier(game["id"], game.value_at("id"), "the game id")
        teams = game["teams"]
        if not isinstance(teams, Sequence) or len(teams) < 1:
            raise SpecError("teams: lists the team names, in seating order", game.value_at("teams"),
                            code="RC327")
        names = []
        for index, team in enumerate(teams):
            self.identifier(team, teams.at(index), "the team")
            names.append(str(team))
            self.declare(str(team), ir.Const(type=T.TEAM, value=index), teams.at(index))
        self.teams = tuple(names)
        self.symbols.team_count = len(names)
        self.declare("teams", ir.Span(type=T.ListOf(T.TEAM), low=_int(0), high=_int(len(names) - 1)),
                     game.position)
        language = game.get("language", 1)
        if language not in LANGUAGES or isinstance(language, bool):
            raise SpecError(f"language: is the version of the rule language the spec is written in, "
                            f"{' or '.join(map(str, LANGUAGES))}", game.value_at("language"), code="RC359")
        self.symbols.language = language
        return ir.GameMeta(str(game["id"]), str(game["title"]), str(game.get("version", "1")),
                           str(game.get("summary", "")), plain(game.get("source") or {}), language)

    def read_options(self, options, option_values: dict) -> dict:
        """``options:`` with ``option_values`` replacing the defaults; declares each option
        (and a choice's values). RC320–RC322, RC324, RC325, RC328, RC329."""
        result = {}
        if options is not None:
            for name, spec in self.entries(options, "options:", self.data.value_at("options")):
                self.identifier(name, options.where(name), "the option")
                self.declared(spec, f"option '{name}'", schema.OPTION, options.value_at(name))
                kind = str(spec["type"])
                if kind not in ("int", "bool", "choice"):
                    raise SpecError(f"option type '{kind}' is unknown", spec.value_at("type"),
                                    code="RC328", hint="use int, bool or choice")
                value = self._option_value(name, kind, spec, option_values.pop(name, spec["default"]))
                values = tuple(str(v) for v in spec.get("values") or ())
                result[str(name)] = ir.OptionIR(str(name), kind, value, plain(spec["default"]), values,
                                                str(spec.get("doc", "")))
                if kind == "choice":
                    for index, choice in enumerate(spec["values"]):
                        self.identifier(choice, spec["values"].at(index), "the option value")
                        self.declare(str(choice), ir.Const(type=T.enum(name), value=index),
                                     spec["values"].at(index))
                    constant = ir.Const(type=T.enum(name), value=values.index(value))
                else:
                    constant = ir.Const(type=T.INT if kind == "int" else T.BOOL, value=int(value))
                self.declare(str(name), constant, options.where(name))
        if option_values:
            unknown = next(iter(option_values))
            raise SpecError(f"the game has no option '{unknown}'", None, code="RC329",
                            hint=did_you_mean(unknown, result) or ("options: " + ", ".join(result) if result
                                                                   else "its spec has no options: section"))
        return result

    def _option_value(self, name, kind, spec, value):
        try:
            if kind == "int":
                if isinstance(value, bool) or not isinstance(value, (int, str)):
                    raise ValueError
                value = int(value)
                low, high = spec.get("min"), spec.get("max")
                if (low is not None and value < low) or (high is not None and value > high):
                    raise ValueError
            elif kind == "bool":
                if isinstance(value, str):
                    if value not in ("true", "false"):
                        raise ValueError
                    value = value == "true"
                if not isinstance(value, (bool, int)):
                    raise ValueError
                value = bool(value)
            elif str(value) not in [str(v) for v in spec.get("values") or []]:
                raise ValueError
            else:
                value = str(value)
        except (TypeError, ValueError):
            allowed = (f"{spec.get('min', '…')}..{spec.get('max', '…')}" if kind == "int" else
                       "true or false" if kind == "bool" else ", ".join(map(str, spec.get("values") or [])))
            raise SpecError(f"option '{name}' cannot be {value!r}: allowed {allowed}",
                            spec.value_at("default"), code="RC329") from None
        return value

    def read_enums(self, enums) -> dict:
        """``enums:``; declares every value. RC320, RC324, RC325, RC330."""
        result = {}
        for name, values in self.entries(enums, "enums:", self.data.value_at("enums")):
            self.identifier(name, enums.where(name), "the enumeration")
            if name == "direction":
                raise SpecError("the enumeration 'direction' is built in: the eight grid directions "
                                "n, ne, e, se, s, sw, w, nw", enums.where(name), code="RC325",
                                hint="give yours another name")
            if not isinstance(values, Sequence) or not values:
                raise SpecError(f"enumeration '{name}' lists its values", enums.value_at(name), code="RC330")
            result[str(name)] = tuple(str(v) for v in values)
            for index, value in enumerate(values):
                self.identifier(value, values.at(index), "the value")
                self.declare(str(value), ir.Const(type=T.enum(name), value=index), values.at(index))
        return result

    def read_dice(self, dice, enums) -> dict:
        """``dice:``: each die's value type, distinct outcomes and exact probabilities. RC339."""
        result = {}
        for name, spec in self.entries(dice, "dice:", self.data.value_at("dice")):
            self.identifier(name, dice.where(name), "the die")
            self.declared(spec, f"die '{name}'", schema.DIE, dice.value_at(name))
            faces = spec["faces"]
            if not isinstance(faces, Sequence) or not faces:
                raise SpecError("faces: lists the die's faces", spec.value_at("faces"), code="RC339")
            self.at_most(len(faces), MAX_DIE_FACES, f"faces of die '{name}'", spec.value_at("faces"),
                         "a die with that many faces is better a parameter chosen by a chance rule")
            if all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
                kind, values = T.INT, list(faces)
            else:
                symbols = [str(f) for f in faces]
                owner = next((e for e, vals in enums.items() if set(symbols) <= set(vals)), None)
                if owner is None:
                    raise SpecError("faces are numbers, or values of one enumeration declared under "
                                    "enums:", spec.value_at("faces"), code="RC339")
                kind, values = T.enum(owner), [enums[owner].index(f) for f in symbols]
            distinct = sorted(set(values), key=values.index)
            result[str(name)] = ir.DieIR(kind, tuple(distinct),
                                         tuple(Fraction(values.count(v), len(values)) for v in distinct))
        return result

    def read_state(self, state, enums, first_slot: int) -> list:
        """``state:``: each field's slots from ``first_slot`` on, declared as a name or, with
        ``of:``, an attribute. Returns the fields. RC320–RC325, RC340, RC341, formula errors."""
        fields, slot = [], first_slot
        self.derived_texts: dict = {}        # field name -> (its FieldIR, its derived: formula)
        for name, spec in self.entries(state, "state:", self.data.value_at("state")):
            self.identifier(name, state.where(name), "the state field")
            if isinstance(spec, Text):
                spec_map = Mapping({"type": spec})
                spec_map.position, spec_map.key_positions = spec.position, {}
                spec_map.value_positions = {"type": spec.position}
                spec = spec_map
            self.declared(spec, f"state field '{name}'", schema.FIELD, state.value_at(name))
            kind = T.parse_type(str(spec["type"]), enums)
            if kind is None or isinstance(kind, T.ListOf):
                raise SpecError(f"unknown type '{spec['type']}'", spec.value_at("type"), code="RC340",
                                hint="types: int, bool, team, space, piece, kind, or an enumeration")
            of = spec.get("of")
            if of is not None and of not in (T.TEAM, T.SPACE, T.PIECE):
                raise SpecError(f"'of: {of}' must be team, space or piece", spec.value_at("of"), code="RC340")
            size = {None: 1, T.TEAM: len(self.teams), T.SPACE: self.symbols.space_count,
                    T.PIECE: self.symbols.piece_count}[of]
            if "initial" in spec:
                initial = self.checker.formula(self.text(spec, "initial", "state"), {}, kind, "initial value")
            else:
                initial = ir.Const(type=T.NONE if T.is_entity(kind) else kind,
                                   value=-1 if T.is_entity(kind) else 0, nullable=T.is_entity(kind))
            visible = str(spec.get("visible", "all"))
            if visible not in ("all", "owner"):
                raise SpecError("visible: is all or owner", spec.value_at("visible"), code="RC341")
            if visible == "owner" and of != T.TEAM:
                raise SpecError("only a field 'of: team' can be visible to its owner alone",
                                spec.value_at("visible"), code="RC341")
            show = spec.get("show", True)
            if not isinstance(show, bool) and show != "state":
                raise SpecError("show: is true, false or state", spec.value_at("show"), code="RC341")
            item = ir.FieldIR(str(name), kind, of, slot, size, initial, visible, show=show,
                              nullable=T.is_entity(kind) and initial.nullable, doc=str(spec.get("doc", "")))
            if "derived" in spec:
                self._derived_field(item, spec)
            slot += size
            self.at_most(slot, MAX_STATE_SLOTS, "state slots", state.where(name),
                         "a field 'of: space' or 'of: piece' has a slot per space or piece; keep fewer such fields")
            if "until" in spec:
                if str(spec["until"]) != "revealed" or visible != "owner":
                    raise SpecError("'until: revealed' goes with 'visible: owner'", spec.value_at("until"),
                                    code="RC341")
                item.reveal_slot = slot
                slot += 1
                self.symbols.secrets[str(name)] = item
            fields.append(item)
            if of is None:
                self.declare(str(name), ir.Slot(type=kind, field=item, nullable=item.nullable),
                             state.where(name))
            else:
                if (of, str(name)) in self.symbols.attributes:
                    raise SpecError(f"{T.describe(of)} already has an attribute '{name}'",
                                    state.where(name), code="RC325")
                self.symbols.attributes[(of, str(name))] = Attribute("field", kind, field=item)
        return fields

    def _derived_field(self, item: ir.FieldIR, spec) -> None:
        clash = next((key for key in ("initial", "visible", "until") if key in spec), None)
        if clash is not None:
            raise SpecError(f"a derived field has no '{clash}:': its formula gives its value at all times",
                            spec.where(clash), code="RC319", hint=f"remove '{clash}:' or 'derived:'")
        item.derived, item.nullable = True, T.is_entity(item.type)
        self.derived_texts[item.name] = (item, self.text(spec, "derived", "state"))

    def read_derived(self) -> list:
        """The upkeep routines of the derived fields (:mod:`derived`), each after those it reads.
        RC319 and the checker's errors in their formulas."""
        routines = {name: upkeep_routine(self.checker, item, text)
                    for name, (item, text) in self.derived_texts.items()}
        return upkeep_order(routines, {name: text.position for name, (_, text) in self.derived_texts.items()})

    def read_tables(self, tables, enums) -> list:
        """``tables:``; registers each for lookups. RC320–RC322, RC324, RC342, RC343."""
        result = []
        for name, spec in self.entries(tables, "tables:", self.data.value_at("tables")):
            self.identifier(name, tables.where(name), "the table")
            self.declared(spec, f"table '{name}'", schema.TABLE, tables.value_at(name))
            keys = spec["keys"]
            if not isinstance(keys, Sequence) or not 1 <= len(keys) <= 2:
                raise SpecError("keys: lists one or two key types", spec.value_at("keys"), code="RC342")
            key_irs = tuple(self._key(k, keys.at(i), enums) for i, k in enumerate(keys))
            self.at_most(math.prod(len(k.labels) for k in key_irs), MAX_TABLE_CELLS, f"cells of table '{name}'",
                         spec.value_at("keys"), _SMALLER_TABLE)
            value_type = T.parse_type(str(spec.get("type", "int")), enums)
            if value_type is None or isinstance(value_type, T.ListOf):
                raise SpecError(f"unknown type '{spec.get('type')}'", spec.value_at("type"), code="RC340")
            values = self._table_values(spec, "values", key_irs, value_type, str(name))
            labels = enums.get(str(value_type)[5:], ()) if str(value_type).startswith("enum:") else ()
            static = ir.StaticTable("table", str(name), values, value_type,
                                    offsets=tuple(k.offset for k in key_irs), doc=str(spec.get("doc", "")))
            table = ir.TableIR(str(name), self.rule_of(spec, f"table '{name}'"), key_irs, value_type, values,
                               tuple(labels), str(spec.get("doc", "")), static)
            self.symbols.tables[str(name)] = (table, [k.type for k in key_irs])
            result.append(table)
        return result

    def _key(self, word, position, enums) -> ir.KeyIR:
        bounds = self.fixed_range(word, position, "RC342")
        if bounds:
            low, high = bounds
            self.at_most(high - low + 1, MAX_TABLE_CELLS, "table cells", position, _SMALLER_TABLE)
            return ir.KeyIR(T.INT, low, tuple(str(v) for v in range(low, high + 1)))
        word = str(word)
        kind = T.parse_type(word, enums)
        if kind is None or not T.is_entity(kind):
            raise SpecError(f"'{word}' is not a key type", position, code="RC342",
                            hint="a range such as 1..6, team, or an enumeration")
        if kind == T.PIECE:
            raise SpecError("a table cannot be keyed by piece; key it by kind, team or a range",
                            position, code="RC342")
        labels = {T.TEAM: self.teams, T.SPACE: self.board.spaces, T.KIND: self.kinds}.get(kind) \
            or enums.get(str(kind)[5:], ())
        return ir.KeyIR(kind, 0, tuple(labels))

    def _table_values(self, spec, key, key_irs, value_type, name) -> tuple:
        values = spec[key]
        labels = key_irs[0].labels
        if isinstance(values, Mapping):
            missing = [l for l in labels if l not in values and _as_int(l) not in values]
            if missing:
                raise SpecError(f"table '{name}' has no row for {', '.join(missing)}",
                                spec.value_at(key), code="RC343")
            rows = [values.get(l, values.get(_as_int(l))) for l in labels]
            extra = [k for k in values if str(k) not in labels]
            if extra:
                raise SpecError(f"table '{name}' has a row '{extra[0]}' outside its keys",
                                values.where(extra[0]), code="RC343")
        elif isinstance(values, Sequence) and len(values) == len(labels):
            rows = list(values)
        else:
            raise SpecError(f"table '{name}' needs one value per key ({len(labels)})",
                            spec.value_at(key), code="RC343")
        if len(key_irs) == 2:
            result = []
            for row in rows:
                inner = Mapping({"values": row})
                inner.position = getattr(row, "position", spec.position)
                inner.key_positions, inner.value_positions = {}, {"values": inner.position}
                result.append(self._table_values(inner, "values", key_irs[1:], value_type, name))
            return tuple(result)
        out = []
        for row in rows:
            if value_type == T.INT and (isinstance(row, bool) or not isinstance(row, int)):
                raise SpecError(f"table '{name}' holds whole numbers, not {row!r}",
                                getattr(row, "position", spec.value_at(key)), code="RC343")
            if value_type == T.BOOL:
                row = int(bool(row))
            elif value_type != T.INT:
                found = self.symbols.names.get(str(row))
                if not (isinstance(found, ir.Const) and T.compatible(value_type, found.type)):
                    raise SpecError(f"'{row}' is not {T.describe(value_type)}", spec.value_at(key),
                                    code="RC343")
                row = found.value
            out.append(row)
        return tuple(out)

    def read_functions(self, define) -> None:
        """``define:``: registers each definition, inlined where used. RC320, RC323, RC344."""
        for signature, body in self.entries(define, "define:", self.data.value_at("define")):
            name, params = self._head(signature, define.where(signature), "a definition head like 'name(a, b)'",
                                      optional_params=True)
            if name in self.symbols.functions or name in self.checker.library:
                raise SpecError(f"'{name}' is already a function", define.where(signature), code="RC344")
            self.symbols.functions[name] = Function(name, params, self.text(define, signature, "define"))

    def read_procedures(self, procedures) -> None:
        """``procedures:``: registers each procedure, inlined where called. RC320, RC323, RC344."""
        for signature, body in self.entries(procedures, "procedures:", self.data.value_at("procedures")):
            name, params = self._head(signature, procedures.where(signature),
                                      "a procedure head like 'name(a, b)'", optional_params=False)
            if name in self.symbols.procedures or name in self.effects.library:
                raise SpecError(f"'{name}' is already an effect", procedures.where(signature), code="RC344")
            self.symbols.procedures[name] = Procedure(name, params,
                                                      self.text(procedures, signature, "procedures"))

    def _head(self, signature, position, what: str, optional_params: bool):
        match = _HEAD.match(str(signature))
        if not match or (match.group(2) is None and not optional_params):
            raise SpecError(f"'{signature}' is not {what}", position, code="RC344")
        params = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()]
        for param in params:
            self.identifier(param, position, "the parameter")
        return match.group(1), params

    def constants(self) -> dict:
        """The zero-argument definitions whose formula is a fixed whole number (literals,
        options and other constants): the numbers a rulebook may quote as ``define.name``."""
        result = {}
        for name, function in self.symbols.functions.items():
            if function.params:
                continue
            value = self.checker.formula(function.body)
            if value.type != T.INT:
                continue
            try:
                result[name] = evaluate(value)
            except (NotConstant, ArithmeticError, LookupError):
                continue
        return result


def _int(value: int) -> ir.Const:
    return ir.Const(type=T.INT, value=value)


def _as_int(label):
    try:
        return int(label)
    except ValueError:
        return label
