"""Derived state fields: ``derived: formula`` keeps a field equal to its formula at all times.

A derived field is stored like any other (so observations, saves and the piece index see it), but
no rule assigns it (RC314): after every effect statement that writes a field its formula reads
(moving a piece counts as writing ``at``), the compiler inserts a call of the field's upkeep
function, which recomputes it for every team, space or piece. So the field is current after every
statement, in the initial state, in triggers and in legality checks, and a spec never calls an
``update_…()`` procedure by hand. A field derived from other derived fields is recomputed after
them (RC319 when they depend on each other in a circle). Its formula may not read an owner-only
field, which would make a secret public (RC319).
"""

from __future__ import annotations

from rulecraft.errors import SpecError
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler.walk import jumps, nested, statements_exprs, walk

OWNER_NAMES = {T.TEAM: "team", T.SPACE: "space", T.PIECE: "piece"}


def reads(expr: ir.Expr) -> set[str]:
    """The names of the state fields ``expr`` reads (``at`` for a count of pieces on a space),
    looking through the definitions it calls."""
    found: set[str] = set()
    for node in walk(expr):
        if isinstance(node, ir.Slot):
            found.add(node.field.name)
        elif isinstance(node, ir.PieceCount):
            found.add("at")
        elif isinstance(node, ir.Call) and node.routine.kind == "formula":
            found |= reads(node.routine.body)
    return found


def upkeep_routine(checker, field: ir.FieldIR, text) -> ir.RoutineIR:
    """The function that recomputes ``field`` from its formula ``text`` (checked with ``checker``),
    for every entity of its ``of:``. Raises SpecError RC319 when the formula reads a field only its
    owner may see."""
    owner = OWNER_NAMES.get(field.of)
    symbol = ir.Symbol(owner or "value", "local")
    scope = {owner: ir.Var(type=field.of, symbol=symbol)} if owner else {}
    formula = checker.formula(text, scope, field.type, f"formula of '{field.name}'")
    secret = sorted(name for name in reads(formula) if name in checker.symbols.secrets)
    if secret:
        raise SpecError(f"derived field '{field.name}' reads '{secret[0]}', which only its owner sees",
                        text.position, code="RC319", hint="derive it from public fields, or make it visible: owner")
    target = ir.Slot(type=field.type, field=field, index=ir.Var(type=field.of, symbol=symbol) if owner else None)
    store = ir.Store(where=formula.where, target=target, value=formula)
    body = [ir.Loop(where=formula.where, var=symbol, source=checker.all_of(field.of), cond=None, body=[store])] \
        if owner else [store]
    return ir.RoutineIR(field.name, 1, "derived", (), body, reads=frozenset(reads(formula)))


def upkeep_order(routines: dict, positions: dict) -> list:
    """The upkeep routines (``{field name: routine}``) ordered so each comes after those of the
    derived fields it reads. RC319 at the field's position when they read each other in a circle."""
    order, state = [], {}

    def visit(name, path):
        if state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            circle = " → ".join(path[path.index(name):] + [name])
            raise SpecError(f"derived fields depend on each other in a circle: {circle}", positions[name],
                            code="RC319", hint="derive one of them from the others' inputs instead")
        state[name] = "visiting"
        for other in sorted(routines[name].reads & routines.keys()):
            visit(other, path + [name])
        state[name] = "done"
        order.append(routines[name])

    for name in routines:
        visit(name, [])
    return order


def keep_fields_current(nodes, actions, triggers, routines, upkeep: list) -> None:
    """Insert the upkeep calls (:func:`keep_current`) into every list of effects of a game: its
    flow nodes, actions, triggers and procedure functions."""
    for node in nodes:
        node.body = keep_current(node.body, upkeep)
    for action in actions:
        action.effect = keep_current(action.effect, upkeep)
    for trigger in triggers:
        trigger.body = keep_current(trigger.body, upkeep)
    for routine in routines:
        if routine.kind == "effects":
            routine.body = keep_current(routine.body, upkeep)


def keep_current(statements: list, upkeep: list, flush_at_end: bool = True) -> list:
    """``statements`` with calls of the upkeep routines (``upkeep``, in order) placed so that a
    derived field is recomputed after a statement changes what it reads and before anything reads
    it again: before a statement that reads it or may jump, and at the end (``flush_at_end``; a
    nested block leaves that to the block around it). Postponing a recomputation past statements
    that cannot see the field changes nothing a rule can observe, and saves the work per piece of
    a loop that moves every piece."""
    result, pending = [], set()
    for stmt in statements:
        if pending and (_reads(stmt) & pending or jumps([stmt])):
            result += _calls(pending, upkeep, stmt.where)
            pending = set()
        _keep_inside(stmt, upkeep)
        result.append(stmt)
        pending |= _affected(_writes(stmt), upkeep)
    if pending and flush_at_end:
        result += _calls(pending, upkeep, statements[-1].where)
    return result


def _keep_inside(stmt, upkeep: list) -> None:
    if isinstance(stmt, ir.When):
        stmt.then, stmt.other = keep_current(stmt.then, upkeep, False), keep_current(stmt.other, upkeep, False)
    elif isinstance(stmt, (ir.Loop, ir.While)):
        # a header evaluated again each round must see the body's changes
        headers = [stmt.test] if isinstance(stmt, ir.While) else [e for e in (stmt.cond, stmt.stop) if e is not None]
        again = any(reads(e) & {r.name for r in upkeep} for e in headers)
        stmt.body = keep_current(stmt.body, upkeep, again)


def _writes(stmt) -> set[str]:
    """The fields ``stmt`` writes, nested statements included; a procedure's function keeps the
    derived fields current itself."""
    if isinstance(stmt, (ir.Store, ir.Change)):
        return {stmt.target.field.name}
    if isinstance(stmt, ir.Move):
        return {"at"}
    return set().union(*(_writes(inner) for block in nested(stmt) for inner in block))


def _reads(stmt) -> set[str]:
    """The fields ``stmt`` reads, nested statements and the procedures it calls included."""
    found = set().union(*(reads(e) for e in statements_exprs(stmt)))
    if isinstance(stmt, ir.Perform) and stmt.routine.kind == "effects":
        found |= set().union(*(_reads(inner) for inner in stmt.routine.body))
    return found.union(*(_reads(inner) for block in nested(stmt) for inner in block))


def _affected(written: set, upkeep: list) -> set[str]:
    """The derived fields to recompute after ``written`` changed (in a chain of derived fields)."""
    changed, affected = set(written), set()
    for routine in upkeep:
        if routine.reads & changed:
            affected.add(routine.name)
            changed.add(routine.name)
    return affected


def _calls(pending: set, upkeep: list, where) -> list:
    return [ir.Perform(where=where, routine=r, args=()) for r in upkeep if r.name in pending]
