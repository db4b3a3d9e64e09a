"""The optimising passes: IR in, IR out, each computing the same values with less work at play time.

* **folding** (:func:`evaluate.fold`): parts fixed when compiling become constants;
* **board tables**: a part that reads only the board's attributes of one space (``z.low + z.high``,
  a definition such as ``depth(z, home)``) becomes one lookup in a table of its value on every
  space, computed now;
* **the piece index**: ``count(p for p in T.pieces where p.at == Z)`` reads a per-team, per-space count
  the generated module keeps up to date, instead of going through the pieces; so does every other
  spelling of "is a piece on Z" (``count(z.pieces) > 0``, ``any(p.at == z for p in pieces)``,
  ``any(p in pieces where p.at == z)``), and an aggregate whose test holds only for pieces on Z
  (``first(p for p in pieces where p.at == z and C)``, ``any(p.at == z and C for p in t.pieces)``)
  goes through the pieces only when the index says some stand there (:meth:`_Passes.on_space`);
* **early-stopping counts**: ``count(...) > 0`` becomes ``any``, ``count(...) >= k`` stops at ``k``;
* **loop-invariant parts of comprehensions**: a part of a comprehension's body that reads nothing the
  loop binds is computed once per evaluation, before the loop.

Legal-action generators are specialised further in :mod:`generators`. Every pass keeps what the
rules can observe; moving work earlier is only done with parts that cannot fail (:func:`summary.safe`).
"""

from __future__ import annotations

from dataclasses import replace

from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler.evaluate import evaluate, fold
from rulecraft.compiler.summary import CONSTANT, board_space, bound, looks_up, operations, safe, shape, uses
from rulecraft.compiler.walk import PARTS, children, map_statements, transform


def optimize(game: ir.GameIR, allocate) -> None:
    """Run every pass over every expression of ``game``, in place. ``allocate(size)`` reserves
    state slots (for the piece index) and returns the first."""
    passes = _Passes(game, allocate)
    map_game(game, passes.run)
    if game.piece_index is not None and game.piece_index.base is None:
        game.piece_index = None          # nothing reads it: no slots, no upkeep


def map_game(game: ir.GameIR, fn) -> None:
    """Rewrite every expression of ``game`` (flow, actions, triggers, ending, fields) by ``fn``."""
    def maybe(e):
        return fn(e) if e is not None else None
    for f in game.fields:
        f.initial = fn(f.initial)
    for node in game.nodes:
        node.guard, node.actor, node.repeat = maybe(node.guard), maybe(node.actor), maybe(node.repeat)
        node.body = map_statements(node.body, fn)
    for action in game.actions:
        for param in action.params:
            param.source = maybe(param.source)
        action.conditions = [condition._replace(test=fn(condition.test)) for condition in action.conditions]
        action.effect = map_statements(action.effect, fn)
    for trigger in game.triggers:
        trigger.when, trigger.body = fn(trigger.when), map_statements(trigger.body, fn)
    game.returns, game.evaluation, game.on_limit = fn(game.returns), fn(game.evaluation), maybe(game.on_limit)
    for invariant in game.invariants:
        invariant.formula = fn(invariant.formula)
    for routine in game.routines:
        routine.body = fn(routine.body) if routine.kind == "formula" else map_statements(routine.body, fn)


class _Passes:
    def __init__(self, game: ir.GameIR, allocate):
        self.game = game
        self.allocate = allocate
        self.board_tables: dict = {}       # shape of a tabulated formula -> its StaticTable
        self.z = ir.Symbol("z", "local")   # the space a tabulated formula is written of

    def run(self, e: ir.Expr) -> ir.Expr:
        e = fold(e)
        e = self.tabulate(e)
        e = transform(e, self.count)
        e = transform(e, self.on_space)
        return transform(e, hoist_comprehension)

    # ---------- board tables ----------
    def tabulate(self, e: ir.Expr) -> ir.Expr:
        """``e`` with each largest part that reads nothing but board attributes of one space
        (see the module docstring) turned into a lookup in a table of its value on every space."""
        found = self._tabulated(e)
        if found is not None:
            return found
        parts = children(e)
        if not parts:
            return e
        return transform_once(e, {id(p): self.tabulate(p) for p in parts})

    def _tabulated(self, e: ir.Expr) -> ir.Expr | None:
        if not (e.type in (T.INT, T.BOOL)) or isinstance(e, (ir.Const, ir.Static)):
            return None
        space = board_space(e)
        if space is None or space is CONSTANT or operations(e) < 2:
            return None
        probe = transform(e, lambda node: ir.Var(type=T.SPACE, symbol=self.z) if _is(node, space) else node)
        key = shape(probe)
        if key not in self.board_tables:
            try:
                values = tuple(int(evaluate(probe, {self.z: z})) for z in range(len(self.game.board.spaces)))
            except (ArithmeticError, LookupError, TypeError):
                self.board_tables[key] = None
                return None
            number = sum(1 for t in self.board_tables.values() if t is not None) + 1
            self.board_tables[key] = ir.StaticTable("formula", f"BOARD_{number}", values, e.type)
        table = self.board_tables[key]
        if table is None:
            return None
        return ir.Static(type=e.type, where=e.where, table=table, keys=(space,))

    # ---------- counts ----------
    def count(self, e: ir.Expr) -> ir.Expr:
        if isinstance(e, ir.Aggregate) and e.fn == "count":
            indexed = self.piece_count(e.items)
            if indexed is not None:
                return indexed
        if isinstance(e, ir.Compare):
            return _count_test(e) or e
        return e

    def on_space(self, e: ir.Expr) -> ir.Expr:
        """An aggregate (or an at-least test) over pieces whose test requires ``p.at == Z``
        answered from the piece index: exactly when the test is nothing more (``any(p.at == z for
        p in S)``, ``any(z.pieces)``, ``count(...) >= k``), else by going through the pieces only
        when the index says some of them stand on Z (``first(p for p in S where p.at == z and C)``)."""
        index = self.game.piece_index
        if index is None or not isinstance(e, (ir.Aggregate, ir.AtLeast)) \
                or isinstance(e, ir.Aggregate) and e.fn not in _EMPTY:
            return e
        fn = e.fn if isinstance(e, ir.Aggregate) else "at_least"
        items = e.items
        if not isinstance(items, ir.Comprehension) or items.once or items.stop is not None:
            return e
        test = items.value if fn == "any" and items.cond is None else items.cond
        teams = _teams_of(items.source, index)
        space = _standing_space(test, items.var) if teams is not None else None
        if space is None:
            return e
        if index.base is None:
            index.base = self.allocate(index.teams * index.width)
        standing = ir.PieceCount(type=T.INT, where=e.where, index=index, teams=teams, space=space)
        exact = _conjuncts(test) == (test,) and isinstance(test, ir.Compare)
        if exact and (items.cond is None if fn == "any" else fn in ("nonempty", "at_least") and items.value is None):
            least = e.least if fn == "at_least" else 1
            return ir.Compare(type=T.BOOL, where=e.where, op=">", left=standing,
                              right=ir.Const(type=T.INT, value=least - 1))
        empty = _EMPTY[fn] if fn != "first" else (0 if e.type == T.INT else -1)
        none_there = ir.Compare(type=T.BOOL, where=e.where, op="==", left=standing, right=ir.Const(type=T.INT, value=0))
        if e.type == T.BOOL:        # a truth value stays one (events and stores see True/False)
            if empty:
                return ir.Logic(type=T.BOOL, where=e.where, op="or", values=(none_there, e))
            return ir.Logic(type=T.BOOL, where=e.where, op="and", values=(replace(none_there, op="!="), e))
        return ir.Cond(type=e.type, where=e.where, nullable=e.nullable, test=none_there,
                       yes=ir.Const(type=e.type, value=empty), no=e)

    def piece_count(self, items) -> ir.Expr | None:
        """``count(p for p in T.pieces where p.at == Z)`` (or over ``pieces``) from the piece index."""
        index = self.game.piece_index
        if index is None or not isinstance(items, ir.Comprehension) or items.value is not None \
                or not isinstance(items.cond, ir.Compare) or items.cond.op not in ("==", "!=") or items.once \
                or items.stop is not None:
            return None
        piece = items.var
        left, right = items.cond.left, items.cond.right
        if not _is_at_of(left, piece):
            left, right = right, left
        if not _is_at_of(left, piece) or piece in uses(right) or right.type != T.SPACE:
            return None
        source = items.source
        if isinstance(source, ir.Guarded) and isinstance(source.value, ir.Static) \
                and source.value.table.name == "TEAM_PIECES":       # a team that may be none, checked
            teams = (ir.Checked(type=T.TEAM, where=source.where, value=source.check, fault=source.fault),)
        elif isinstance(source, ir.Static) and source.table.name == "TEAM_PIECES":
            teams = source.keys
        elif isinstance(source, ir.Span) and source.type == T.ListOf(T.PIECE):
            teams = tuple(ir.Const(type=T.TEAM, value=t) for t in range(index.teams))
        else:
            return None
        if index.base is None:
            index.base = self.allocate(index.teams * index.width)
        standing = ir.PieceCount(type=T.INT, where=items.where, index=index, teams=teams, space=right)
        if items.cond.op == "==":
            return standing
        # p.at != Z: the team's pieces less those on Z
        total = ir.Aggregate(type=T.INT, where=items.where, fn="count", items=source)
        return ir.Binary(type=T.INT, where=items.where, op="-", left=fold(total), right=standing)


# what an aggregate of no items is (see emit's Aggregate); "first" depends on the item type
_EMPTY = {"count": 0, "sum": 0, "min": 0, "max": 0, "any": 0, "all": 1, "nonempty": 0, "first": None,
          "at_least": 0}


def _teams_of(source: ir.Expr, index: ir.PieceIndexIR) -> tuple | None:
    """The teams whose pieces ``source`` lists, when it is ``t.pieces`` or ``pieces`` and can be
    computed without failing; else None."""
    if isinstance(source, ir.Static) and source.table.name == "TEAM_PIECES" and safe(source):
        return source.keys
    if isinstance(source, ir.Span) and source.type == T.ListOf(T.PIECE) and safe(source.low) and safe(source.high):
        return tuple(ir.Const(type=T.TEAM, value=t) for t in range(index.teams))
    return None


def _standing_space(test: ir.Expr | None, piece: ir.Symbol) -> ir.Expr | None:
    """Z when ``test`` (of the piece ``piece``) can only hold with ``piece.at == Z`` — that
    comparison, or one of an ``and`` whose parts before it cannot fail — and Z, which does not
    depend on the piece, can be computed without failing; else None."""
    if test is None:
        return None
    parts = _conjuncts(test)
    for position, part in enumerate(parts):
        if isinstance(part, ir.Compare) and part.op == "==":
            for left, right in ((part.left, part.right), (part.right, part.left)):
                if _is_at_of(left, piece) and right.type == T.SPACE and piece not in uses(right) and safe(right):
                    return right if all(safe(p) for p in parts[:position]) else None
    return None


def _conjuncts(e: ir.Expr) -> tuple:
    """The parts of ``e`` joined by ``and``, in order (``e`` alone when it is no ``and``)."""
    if isinstance(e, ir.Logic) and e.op == "and":
        return tuple(part for value in e.values for part in _conjuncts(value))
    return (e,)


def _is_at_of(e, symbol) -> bool:
    """Whether ``e`` is ``symbol.at`` (the piece's space)."""
    return isinstance(e, ir.Slot) and e.field.name == "at" and isinstance(e.index, ir.Var) \
        and e.index.symbol is symbol


def _count_test(e: ir.Compare) -> ir.Expr | None:
    """``count(x for x in S where C) op k`` for a whole number ``k`` as a test that stops going
    through S as soon as the answer is known; None when ``e`` is no such test."""
    for count, op, bound_ in ((e.left, e.op, e.right), (e.right, _FLIPPED[e.op], e.left)):
        if not (isinstance(count, ir.Aggregate) and count.fn == "count" and
                isinstance(count.items, ir.Comprehension) and count.items.value is None and
                count.items.cond is not None and isinstance(bound_, ir.Const) and bound_.value >= 0):
            continue
        k = bound_.value
        least, negate = {">=": (k, False), ">": (k + 1, False), "<": (k, True), "<=": (k + 1, True),
                         "==": (1, True) if k == 0 else (None, False),
                         "!=": (1, False) if k == 0 else (None, False)}[op]
        if least is None:
            return None
        if least == 0:
            return ir.Const(type=T.BOOL, where=e.where, value=0 if negate else 1)
        items = count.items
        if least == 1:
            truths = replace(items, type=T.ListOf(T.BOOL), cond=None, value=items.cond)
            test = ir.Aggregate(type=T.BOOL, where=e.where, fn="any", items=truths)
        else:
            test = ir.AtLeast(type=T.BOOL, where=e.where, items=items, least=least)
        return ir.Unary(type=T.BOOL, where=e.where, op="not", operand=test) if negate else test
    return None


_FLIPPED = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


def hoist_comprehension(e: ir.Expr) -> ir.Expr:
    """A comprehension whose condition or value has parts that read nothing the loop binds,
    with those parts computed once before the loop (``once``); other expressions unchanged."""
    if not isinstance(e, ir.Comprehension) or e.once:
        return e
    inner = {e.var}.union(*(bound(part) for part in (e.stop, e.cond, e.value) if part is not None))
    moved: dict = {}

    def lift(node):
        if not isinstance(node, (ir.Const, ir.Var)) and looks_up(node) and safe(node) \
                and not (uses(node) & inner):
            key = shape(node)
            if key not in moved:
                moved[key] = (ir.Symbol(f"h{len(moved) + 1}", "hoisted"), node)
            return ir.Var(type=node.type, where=node.where, symbol=moved[key][0], nullable=node.nullable)
        return None

    stop, cond, value = (_lift_largest(part, lift) if part is not None else None
                         for part in (e.stop, e.cond, e.value))
    if not moved:
        return e
    return replace(e, stop=stop, cond=cond, value=value, once=tuple(moved.values()))


def _lift_largest(e: ir.Expr, lift) -> ir.Expr:
    """``e`` with each largest part that ``lift`` accepts replaced by what it returns."""
    replaced = lift(e)
    if replaced is not None:
        return replaced
    if isinstance(e, ir.Comprehension):        # its own body is its own loop's business
        return e
    parts = children(e)
    if not parts:
        return e
    new = {id(p): _lift_largest(p, lift) for p in parts}
    return transform_once(e, new)


def transform_once(e: ir.Expr, new: dict) -> ir.Expr:
    """``e`` with its direct parts replaced per ``new`` (id of a part -> its replacement)."""
    changes = {}
    for name in PARTS[type(e)]:
        value = getattr(e, name)
        if isinstance(value, ir.Expr) and id(value) in new and new[id(value)] is not value:
            changes[name] = new[id(value)]
        elif isinstance(value, tuple) and any(isinstance(v, ir.Expr) and id(v) in new for v in value):
            changes[name] = tuple(new.get(id(v), v) if isinstance(v, ir.Expr) else v for v in value)
    return replace(e, **changes) if changes else e


def _is(node, space) -> bool:
    return node is space or (type(node) is type(space) and shape(node) == shape(space))
