"""Derived fields recomputed only for the owners whose inputs changed.

A derived field's upkeep (:mod:`derived`) runs after every statement that writes a field its
formula reads, and recomputes the field for every owner. For an owner whose formula reads a set of
state slots known when compiling (taktinen's offside line of the home side reads where the away
side's players stand, nothing else), the generated upkeep keeps, per owner, the values of those
slots when the formula was last computed and its result; when they are the same, the result is
reused. The formula is a function of the slots it reads, so the reused value is the one it would
compute, whatever state it is kept for (the memo lives in the generated module).

:func:`memo_plan` finds the slots (or says the formula reads ones it cannot name: a slot at a
position computed at play time, a definition's function); :func:`memo_upkeep` writes the function.
"""

from __future__ import annotations

import ast

from rulecraft.compiler import ir
from rulecraft.compiler.emit import Emitter, assign, const, name, slot_name, subscript
from rulecraft.compiler.evaluate import fold
from rulecraft.compiler.walk import children, transform

MAX_OWNERS = 8           # owners unrolled into one memo each (teams; not every space or piece)
MAX_INPUTS = 512         # slots compared per owner; past it the formula is just computed


class _Unknown(Exception):
    """The formula reads a slot whose position is not known when compiling."""


def memo_plan(routine: ir.RoutineIR) -> list | None:
    """For a derived field's upkeep, ``[(target, formula, slots)]`` per owner (``target`` the
    slot written, ``formula`` its formula for that owner, ``slots`` the sorted state positions it
    reads), or None when an owner's inputs cannot be named or there are too many owners."""
    body = routine.body
    if len(body) != 1:
        return None
    stmt = body[0]
    if isinstance(stmt, ir.Store):
        owners = [(None, stmt.target, stmt.value)]
    elif isinstance(stmt, ir.Loop) and stmt.cond is None and stmt.stop is None and len(stmt.body) == 1 \
            and isinstance(stmt.body[0], ir.Store) and isinstance(stmt.source, ir.Span) \
            and isinstance(stmt.source.low, ir.Const) and isinstance(stmt.source.high, ir.Const):
        low, high = stmt.source.low.value, stmt.source.high.value
        if high - low + 1 > MAX_OWNERS:
            return None
        store = stmt.body[0]
        owners = []
        for owner in range(low, high + 1):
            fixed = ir.Const(type=stmt.source.type.item, value=owner)
            def bind(e, var=stmt.var, fixed=fixed):
                return fixed if isinstance(e, ir.Var) and e.symbol is var else e
            owners.append((owner, fold(transform(store.target, bind)), fold(transform(store.value, bind))))
    else:
        return None
    plan = []
    for _, target, formula in owners:
        try:
            slots = sorted(_reads(formula, {}))
        except _Unknown:
            return None
        if len(slots) > MAX_INPUTS:
            return None
        plan.append((target, formula, slots))
    return plan


def _reads(e: ir.Expr, values: dict) -> set:
    """The state positions ``e`` reads; ``values`` maps a bound variable to the values it takes
    (None: not known). Raises _Unknown when a position depends on the play."""
    if isinstance(e, ir.Slot):
        base = e.field.base
        if e.index is None:
            return {base}
        found = _reads(e.index, values)
        if isinstance(e.index, ir.Const):
            return found | {base + e.index.value}
        if isinstance(e.index, ir.Var) and values.get(e.index.symbol) is not None:
            return found | {base + v for v in values[e.index.symbol]}
        raise _Unknown
    if isinstance(e, ir.PieceCount):
        found = _reads(e.space, values)
        for team in e.teams:
            if not isinstance(team, ir.Const):
                raise _Unknown
            start = e.index.base + 1 + e.index.width * team.value
            found |= set(range(start - 1, start + e.index.width))      # off the board included
        return found
    if isinstance(e, ir.Call):
        raise _Unknown
    if isinstance(e, ir.Comprehension):
        found = _reads(e.source, values)
        inner = dict(values)
        for symbol, part in e.once:
            found |= _reads(part, values)
            inner[symbol] = None
        inner[e.var] = _items(e.source)
        for part in (e.stop, e.cond, e.value):
            if part is not None:
                found |= _reads(part, inner)
        return found
    found = set()
    for part in children(e):
        found |= _reads(part, values)
    return found


def _items(source: ir.Expr):
    """The values a loop over ``source`` binds, when fixed when compiling; else None."""
    if isinstance(source, ir.Span) and isinstance(source.low, ir.Const) and isinstance(source.high, ir.Const):
        return range(source.low.value, source.high.value + 1)
    if isinstance(source, ir.Static) and source.table.name == "TEAM_PIECES" and len(source.keys) == 1 \
            and isinstance(source.keys[0], ir.Const):
        return source.table.values[source.keys[0].value - source.table.offsets[0]]
    return None


def memo_upkeep(plan: list, memo: str, emit: Emitter) -> list:
    """The statements of an upkeep function that reuses each owner's last result while the slots
    it reads are unchanged; ``memo`` names the module-level list of ``[inputs, result]`` per owner."""
    body = []
    for number, (target, formula, slots) in enumerate(plan):
        entry = subscript(name(memo), const(number))
        body.append(assign(name("inputs", True), _key(slots)))
        seen = ast.Compare(name("inputs"), [ast.NotEq()], [subscript(entry, const(0))])
        update = assign(ast.Subscript(name(memo), const(number), ast.Store()),
                        ast.List([name("inputs"), emit.expr(formula)], ast.Load()))
        body.append(ast.If(seen, [update], []))
        body.append(assign(ast.Subscript(name("s"), _position(target, emit), ast.Store()), subscript(entry, const(1))))
    return body


def _position(target: ir.Slot, emit: Emitter) -> ast.expr:
    where = name(slot_name(target.field))
    return where if target.index is None else ast.BinOp(where, ast.Add(), emit.expr(target.index))


def _key(slots: list) -> ast.expr:
    """The values of the state at ``slots`` as one list: a slice per run of neighbouring slots."""
    runs, start = [], None
    for position, slot in enumerate(slots):
        if start is None:
            start = slot
        if position + 1 == len(slots) or slots[position + 1] != slot + 1:
            runs.append((start, slot + 1))
            start = None
    parts = [ast.Subscript(name("s"), ast.Slice(const(a), const(b)), ast.Load()) for a, b in runs]
    if not parts:
        return ast.List([], ast.Load())
    key = parts[0]
    for part in parts[1:]:
        key = ast.BinOp(key, ast.Add(), part)
    return key
