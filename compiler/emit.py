"""The back end's core: IR expressions and statements → Python ``ast`` nodes.

Names in the output are never spec text: a state field is read through its slot constant
(``s[S_ball]``, ``s[S_moved + v_p_3]``), a table through its module name (``SPACE_low``,
``TABLE_T1``), a variable through a name made from its role and a counter (``p_zone``, ``v_q_12``);
spec strings and numbers enter only as ``ast.Constant``. A check the checker asked for at play time
(a value that may be none, a key outside a table) becomes ``fault(k)``, which raises the
runtime's :class:`rulecraft.errors.RuleFault` naming the spec position.
"""

from __future__ import annotations

import ast

from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler.lines import mark
from rulecraft.compiler.walk import jumps

_BINARY = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "//": ast.FloorDiv, "%": ast.Mod}
_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}
_PREFIX = {"space": "SPACE_", "kind": "KIND_", "table": "TABLE_"}


def name(word: str, store: bool = False) -> ast.Name:
    return ast.Name(word, ast.Store() if store else ast.Load())


def const(value) -> ast.Constant:
    return ast.Constant(value)


def call(function: str, *args, **keywords) -> ast.Call:
    return ast.Call(name(function), list(args), [ast.keyword(k, v) for k, v in keywords.items()])


def assign(target: ast.expr, value: ast.expr) -> ast.Assign:
    """``target = value`` (line numbers are set because ``ast.unparse`` reads them)."""
    return ast.Assign([target], value, lineno=0)


def loop(target: ast.expr, source: ast.expr, body: list) -> ast.For:
    return ast.For(target, source, body, [], lineno=0)


def subscript(value: ast.expr, index: ast.expr) -> ast.Subscript:
    return ast.Subscript(value, index, ast.Load())


def table_name(table: ir.StaticTable) -> str:
    """The module name of a table fixed at compile time (see the module docstring)."""
    return _PREFIX.get(table.role, "") + table.name


def area_set_name(area: str) -> str:
    """The module name of the set of an area's members that membership tests read (the area's
    own table keeps its members in order, for going through them)."""
    return area + "_SET"


def routine_name(routine: ir.RoutineIR) -> str:
    """``fn_<definition>``, ``proc_<procedure>`` or ``keep_<derived field>``, numbered from the
    second variant on."""
    stem = {"formula": "fn_", "effects": "proc_", "derived": "keep_"}[routine.kind] + routine.name
    return stem if routine.number == 1 else f"{stem}_{routine.number}"


def slot_name(field: ir.FieldIR) -> str:
    return ("F_" if field.frame else "S_") + field.name


def revealed_name(field: ir.FieldIR) -> str:
    return "R_" + field.name


class Names:
    """Python names for the symbols of one module: parameters ``p_<name>``, the acting team
    ``actor``, a formula's team ``team``, a roll's ``value``, and numbered names for the rest."""

    def __init__(self):
        self._given: dict = {}
        self._count = 0

    def of(self, symbol: ir.Symbol) -> str:
        found = self._given.get(id(symbol))
        if found is None:
            fixed = {"param": f"p_{symbol.name}", "actor": "actor", "team": "team", "roll": "value"}
            found = fixed.get(symbol.role)
            if found is None:
                found = self.fresh({"local": f"v_{symbol.name}", "argument": f"a_{symbol.name}",
                                    "hoisted": "h", "fixed": "fixed"}.get(symbol.role, "t"))
            self._given[id(symbol)] = (symbol, found)
            return found
        return found[1]

    def fresh(self, stem: str) -> str:
        self._count += 1
        return f"{stem}_{self._count}"


class Emitter:
    """Expressions and statements of one module (see the module docstring)."""

    def __init__(self, names: Names, piece_index: ir.PieceIndexIR | None):
        self.names = names
        self.piece_index = piece_index
        self._held: dict = {}       # id of an expression already computed -> the name holding it
        self.area_sets: set = set()  # the areas whose member sets the expressions test (area_set_name)

    # ---------- expressions ----------
    def expr(self, e: ir.Expr, iterable: bool = False) -> ast.expr:
        """``e`` as a Python expression; ``iterable`` marks the iterable of a comprehension's
        ``for`` (no assignment expression may stand there)."""
        held = self._held.get(id(e))
        if held is not None:
            return name(held)
        return getattr(self, "_" + type(e).__name__)(e, iterable)

    def _Const(self, e, it):
        return const(e.value)

    def _Var(self, e, it):
        return name(self.names.of(e.symbol))

    def _Slot(self, e, it):
        where = name(slot_name(e.field))
        if e.index is not None:
            where = ast.BinOp(where, ast.Add(), self.expr(e.index, it))
        return subscript(name("s"), where)

    def _Static(self, e, it):
        value = name(table_name(e.table))
        for key, offset in zip(e.keys, e.table.offsets):
            index = self.expr(key, it)
            if offset:
                index = ast.BinOp(index, ast.Sub(), const(offset)) if not isinstance(key, ir.Const) \
                    else const(key.value - offset)
            value = subscript(value, index)
        return value

    def _PieceCount(self, e, it):
        index = e.index
        terms = []
        for team in e.teams:
            space = self.expr(e.space, it)
            if isinstance(team, ir.Const):
                offset = const(index.base + 1 + index.width * team.value)
            else:
                offset = ast.BinOp(const(index.base + 1), ast.Add(),
                                   ast.BinOp(const(index.width), ast.Mult(), self.expr(team, it)))
            terms.append(subscript(name("s"), ast.BinOp(offset, ast.Add(), space)))
        total = terms[0]
        for term in terms[1:]:
            total = ast.BinOp(total, ast.Add(), term)
        return total

    def _Unary(self, e, it):
        return ast.UnaryOp(ast.Not() if e.op == "not" else ast.USub(), self.expr(e.operand, it))

    def _Binary(self, e, it):
        return ast.BinOp(self.expr(e.left, it), _BINARY[e.op](), self.expr(e.right, it))

    def _Compare(self, e, it):
        return ast.Compare(self.expr(e.left, it), [_COMPARE[e.op]()], [self.expr(e.right, it)])

    def _Logic(self, e, it):
        return ast.BoolOp(ast.And() if e.op == "and" else ast.Or(), [self.expr(v, it) for v in e.values])

    def _Cond(self, e, it):
        return ast.IfExp(self.expr(e.test, it), self.expr(e.yes, it), self.expr(e.no, it))

    def _Member(self, e, it):
        return ast.Compare(self.expr(e.item, it), [ast.NotIn() if e.negate else ast.In()],
                           [self.members(e.collection, it)])

    def members(self, collection: ir.Expr, it: bool = False) -> ast.expr:
        """``collection`` as what a membership test looks in: an area (or a choice between
        areas) as the set of its members, anything else as :meth:`iterable` has it."""
        if isinstance(collection, ir.Static) and collection.table.role == "area":
            self.area_sets.add(collection.table.name)
            return name(area_set_name(collection.table.name))
        if isinstance(collection, ir.Cond):
            return ast.IfExp(self.expr(collection.test, it), self.members(collection.yes, it),
                             self.members(collection.no, it))
        return self.iterable(collection, it)

    def _Items(self, e, it):
        return ast.Tuple([self.expr(item, it) for item in e.items], ast.Load())

    def _Span(self, e, it):
        return call("tuple", self.iterable(e, it))

    def _Comprehension(self, e, it):
        return call("tuple", self.generator(e, it))

    def _ItemAt(self, e, it):
        return subscript(self.expr(e.items, it), self.expr(e.position, it))

    def _Aggregate(self, e, it):
        items, fn = e.items, e.fn
        if fn == "count":
            if isinstance(items, ir.Comprehension) and items.value is None:
                if items.cond is None and items.stop is not None and not items.once:
                    return call("len", self.run(items, it))
                return call("sum", self.generator(items, it, each=const(1)))
            return call("len", self.iterable(items, it))
        if fn == "nonempty":
            if isinstance(items, ir.Comprehension):
                return call("any", self.generator(items, it, each=const(True)))
            return ast.Compare(call("len", self.iterable(items, it)), [ast.Gt()], [const(0)])
        if fn in ("any", "all", "sum"):
            return call(fn, self.generator(items, it) if isinstance(items, ir.Comprehension)
                        else self.iterable(items, it))
        if fn in ("min", "max"):
            source = self.generator(items, it) if isinstance(items, ir.Comprehension) else self.iterable(items, it)
            return call(fn, source, default=const(0))
        source = self.generator(items, it) if isinstance(items, ir.Comprehension) else \
            ast.GeneratorExp(name("x"), [ast.comprehension(name("x", True), self.iterable(items, it), [], 0)])
        return call("next", source, const(0 if e.type == T.INT else -1))           # first

    def _AtLeast(self, e, it):
        return call("at_least", const(e.least), self.generator(e.items, it))

    def _Builtin(self, e, it):
        args = [self.expr(a, it) for a in e.args]
        if e.fn in ("abs", "min", "max"):
            return call(e.fn, *args)
        if e.fn == "space_at":
            return ast.Call(ast.Attribute(name("SPACE_AT"), "get", ast.Load()),
                            [ast.Tuple(args, ast.Load()), const(-1)], [])
        if e.fn == "reach":
            return call("reach_from", name("REACHED"), *args)
        if e.fn == "lines":
            return name(f"LINES_{e.args[0].value}")
        chosen = e.args[1]
        return call("connected_from", name("NEIGHBORS"), args[0], call("frozenset", self.iterable(chosen, it)))

    def _Guarded(self, e, it):
        """``value if check >= 0 else fault(k)``, the check computed once (unless cheap, or
        where no assignment expression may stand) and read from its name inside ``value``."""
        failed = call("fault", const(e.fault))
        if it or _cheap(e.check):
            return ast.IfExp(ast.Compare(self.expr(e.check, it), [ast.GtE()], [const(0)]),
                             self.expr(e.value, it), failed)
        temporary = self.names.fresh("c")
        held = ast.NamedExpr(name(temporary, True), self.expr(e.check, it))
        self._held[id(e.check)] = temporary
        try:
            value = self.expr(e.value, it)
        finally:
            del self._held[id(e.check)]
        return ast.IfExp(ast.Compare(held, [ast.GtE()], [const(0)]), value, failed)

    def _Call(self, e, it):
        return call(routine_name(e.routine), name("s"), *[self.expr(a, it) for a in e.args])

    def _Checked(self, e, it):
        return self._check(e.value, it, lambda v: ast.Compare(v, [ast.GtE()], [const(0)]), e.fault)

    def _InRange(self, e, it):
        if e.high is None:
            return self._check(e.value, it, lambda v: ast.Compare(v, [ast.GtE()], [const(e.low)]), e.fault)
        return self._check(e.value, it, lambda v: ast.Compare(const(e.low), [ast.LtE(), ast.LtE()],
                                                              [v, const(e.high)]), e.fault)

    def _check(self, value: ir.Expr, it, test, fault: int):
        """``value`` if ``test`` holds for it, else ``fault(k)``: computed once (through an
        assignment expression) unless it is a cheap read or stands where none is allowed."""
        failed = call("fault", const(fault))
        if it or _cheap(value):
            return ast.IfExp(test(self.expr(value, it)), self.expr(value, it), failed)
        temporary = self.names.fresh("c")
        held = ast.NamedExpr(name(temporary, True), self.expr(value, it))
        return ast.IfExp(test(held), name(temporary), failed)

    # ---------- lists and loops ----------
    def iterable(self, e: ir.Expr, it: bool = False) -> ast.expr:
        """``e`` (a list) as something to go through: a range for a span of numbers or
        entities, a generator for a comprehension, else its value."""
        if isinstance(e, ir.Span):
            low, high = self.expr(e.low, it), e.high
            if isinstance(high, ir.Const):
                stop = const(high.value + 1)
            else:
                stop = ast.BinOp(self.expr(high, it), ast.Add(), const(1))
            return call("range", low, stop)
        if isinstance(e, ir.Comprehension):
            return self.generator(e, it)
        return self.expr(e, it)

    def generator(self, e: ir.Comprehension, it: bool = False, each: ast.expr | None = None) -> ast.GeneratorExp:
        """``e`` as a generator expression (its items, its values, or ``each`` per item)."""
        clauses = [ast.comprehension(name(self.names.of(symbol), True),
                                     ast.Tuple([self.expr(value, True)], ast.Load()), [], 0)
                   for symbol, value in e.once]
        conditions = [self.expr(e.cond, it)] if e.cond is not None else []
        source = self.run(e, True) if e.stop is not None else self.iterable(e.source, True)
        clauses.append(ast.comprehension(name(self.names.of(e.var), True), source, conditions, 0))
        element = each if each is not None else (self.expr(e.value, it) if e.value is not None
                                                 else name(self.names.of(e.var)))
        return ast.GeneratorExp(element, clauses)

    def run(self, e: ir.Comprehension, it: bool = False) -> ast.Call:
        """The items of ``e.source`` before the first for which ``e.stop`` holds (``x in S until
        C``): ``take_until(S, lambda x: C)``, a tuple."""
        variable = self.names.of(e.var)
        stop = ast.Lambda(ast.arguments([], [ast.arg(variable)], None, [], [], None, []), self.expr(e.stop, True))
        return call("take_until", self.iterable(e.source, True), stop)

    # ---------- statements ----------
    def statements(self, stmts: list) -> list:
        """The Python statements of IR statements ``stmts``, each marked with its spec place."""
        result = []
        for stmt in stmts:
            result.extend(mark(statement, stmt.where) for statement in self.statement(stmt))
        return result

    def statement(self, stmt) -> list:
        """The Python statements of one IR statement."""
        kind = type(stmt)
        if kind is ir.Store:
            value = self.expr(stmt.value)
            if stmt.value.type == T.BOOL and not isinstance(stmt.value, ir.Const):
                value = call("int", value)          # a state holds plain integers: true is 1
            target = self.expr(stmt.target)
            target.ctx = ast.Store()
            return [assign(target, value)]
        if kind is ir.Change:
            target = self.expr(stmt.target)
            target.ctx = ast.Store()
            return [ast.AugAssign(target, ast.Add() if stmt.op == "+" else ast.Sub(), self.expr(stmt.amount))]
        if kind is ir.Move:
            return [ast.Expr(call("move_piece", name("s"), self.expr(stmt.piece), self.expr(stmt.space)))]
        if kind is ir.When:
            return [ast.If(self.expr(stmt.test), self.statements(stmt.then) or [ast.Pass()],
                           self.statements(stmt.other))]
        if kind is ir.Loop:
            body = self.statements(stmt.body) or [ast.Pass()]
            if stmt.cond is not None:
                body = [ast.If(ast.UnaryOp(ast.Not(), self.expr(stmt.cond)), [ast.Continue()], [])] + body
            if stmt.stop is not None:
                body = [ast.If(self.expr(stmt.stop), [ast.Break()], [])] + body
            return [loop(name(self.names.of(stmt.var), True), self.iterable(stmt.source), body)]
        if kind is ir.While:           # for _ in range(limit): ... else: the limit is reached
            rounds = [ast.If(ast.UnaryOp(ast.Not(), self.expr(stmt.test)), [ast.Break()], [])]
            rounds += self.statements(stmt.body)
            reached = ast.If(self.expr(stmt.test), [ast.Expr(call("fault", const(stmt.fault)))], [])
            return [ast.For(name(self.names.fresh("round"), True), call("range", const(stmt.limit)), rounds,
                            [reached], lineno=0)]
        if kind is ir.Bind:
            return [assign(name(self.names.of(stmt.var), True), self.expr(stmt.value))]
        if kind is ir.Jump:
            return [ast.Return(const(stmt.target))]
        if kind is ir.SetRevealed:
            return [assign(ast.Subscript(name("s"), name(revealed_name(stmt.field)), ast.Store()),
                           const(stmt.value))]
        if kind is ir.Perform:
            run = call(routine_name(stmt.routine), name("s"), name("ev"), *[self.expr(a) for a in stmt.args])
            if not jumps([stmt]):
                return [ast.Expr(run)]
            jump = self.names.fresh("jump")
            return [assign(name(jump, True), run),
                    ast.If(ast.Compare(name(jump), [ast.IsNot()], [const(None)]), [ast.Return(name(jump))], [])]
        if kind is ir.Emit:
            record = ast.Tuple([const(stmt.kind), const(stmt.rule),
                                ast.Dict([const(k) for k, _ in stmt.items], [self.expr(v) for _, v in stmt.items])],
                               ast.Load())
            append = ast.Expr(ast.Call(ast.Attribute(name("ev"), "append", ast.Load()), [record], []))
            return [ast.If(ast.Compare(name("ev"), [ast.IsNot()], [const(None)]), [append], [])]
        raise TypeError(f"no emission for {kind.__name__}")


def _cheap(e: ir.Expr) -> bool:
    """Whether computing ``e`` twice costs about as much as keeping it: a variable, a constant
    or a state field of the game."""
    return isinstance(e, (ir.Var, ir.Const)) or (isinstance(e, ir.Slot) and e.index is None)
