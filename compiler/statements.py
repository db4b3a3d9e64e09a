"""Effects: statement syntax → IR statements, checked like formulas (see :mod:`checker`).

Assignments change state fields (a piece's ``at`` through :class:`ir.Move`, which keeps the piece
index), ``if``/``for`` nest, ``goto``/``stop``/``finish`` jump, ``reveal`` makes a secret field
public (writing a secret field hides it again), ``event`` adds to the play-by-play and a call runs
a designer's procedure (its arguments evaluated once) or a library effect.
"""

from __future__ import annotations

from rulecraft.errors import SpecError, did_you_mean
from rulecraft.compiler import ir, syntax
from rulecraft.compiler import types as T
from rulecraft.compiler.checker import ROUTINE_PARTS, Checker, _spelled
from rulecraft.compiler.facts import Scope, facts_of, global_facts, scope_of
from rulecraft.compiler.sizes import compile_time_value
from rulecraft.compiler.walk import nested, statements_exprs, walk
from rulecraft.runtime.tables import FINISH, STOP
from rulecraft.limits import MAX_ROUNDS


class Effects:
    """Check the effect strings of one spec with ``checker`` (its symbols and library)."""

    def __init__(self, checker: Checker, procedures: dict):
        self.checker = checker
        self.library = procedures
        self._calling: list[str] = []

    def effects(self, text, scope=None, rule: str | None = None) -> list:
        """The IR statements of the effect string ``text``; events cite ``rule``."""
        return self.block(syntax.effects(text), scope_of(scope), rule)

    def block(self, statements, scope: Scope, rule) -> list:
        result = []
        for statement in statements:
            if isinstance(statement, syntax.Let):    # its name holds for the rest of the block
                bind, scope = self._let(statement, scope)
                result.append(bind)
                continue
            made = self.statement(statement, scope, rule)
            result.extend(made)
            for stmt in made:
                scope = _forget(scope, stmt)
        return result

    def _let(self, node, scope: Scope):
        check = self.checker
        name = check.new_local(node, scope)
        value = check.expr(node.value, scope)
        symbol = ir.Symbol(name, "local")
        local = ir.Var(type=value.type, where=node.where, symbol=symbol, nullable=value.nullable)
        return ir.Bind(where=node.where, var=symbol, value=value), scope.bind(name, local)

    def statement(self, node, scope: Scope, rule) -> list:
        handler = getattr(self, "_" + type(node).__name__)
        return handler(node, scope, rule)

    def _Assign(self, node, scope, rule):
        check = self.checker
        target, owner = self.target(node.target, scope)
        value = check.expr(node.value, scope)
        if node.op != "=":
            check.require(target, T.INT, node.target, "the changed value")
            check.require(value, T.INT, node.value, "the amount")
            return [ir.Change(where=node.where, target=target, op=node.op[0], amount=value)]
        if not T.compatible(target.type, value.type):
            raise check.error(node.value.where, f"cannot put {T.describe(value.type)} into "
                              f"a place for {T.describe(target.type)}", "RC310")
        if T.is_entity(target.type) and not target.field.nullable:
            value = check.nonnull(value, node.value.where, f"{target.field.name} = ...")
        if target.field.name == "at" and target.field.of == T.PIECE:
            return [ir.Move(where=node.where, piece=target.index, space=value)]
        made = [ir.Store(where=node.where, target=target, value=value)]
        if target.field.reveal_slot is not None:     # a new secret value is hidden until revealed
            made.append(ir.SetRevealed(where=node.where, field=target.field, value=0))
        return made

    def target(self, node, scope: Scope):
        """The :class:`ir.Slot` an assignment changes, and the entity owning it (None for a
        field of the game). RC314 for anything that cannot change."""
        slot, owner = self._place(node, scope)
        if slot.field.derived:
            raise self.checker.error(node.where, f"'{slot.field.name}' is derived from its formula and "
                                     "cannot be assigned", "RC314", "change the fields its formula reads")
        return slot, owner

    def _place(self, node, scope: Scope):
        check = self.checker
        if isinstance(node, syntax.Name):
            found = scope.names.get(node.word, check.symbols.names.get(node.word))
            if not isinstance(found, ir.Slot) or found.field.frame:
                what = "unknown name" if found is None else "it cannot be changed"
                raise check.error(node.where, f"cannot assign to '{node.word}': {what}", "RC314",
                                  "only state fields can change; declare it under state:")
            return found, None
        owner = check.expr(node.owner, scope)
        value, attribute = check.attribute(owner, node.name, node.name_where, scope,
                                           _spelled(node.owner), write=True)
        if not attribute.assignable:
            raise check.error(node.name_where, f"'{node.name}' is fixed by the board or the pieces "
                              "and cannot be changed", "RC314")
        return value, owner

    def _If(self, node, scope, rule):
        test = self.checker.truth(node.test, scope)
        then = self.block(node.then, scope.knowing(facts_of(test, True)), rule)
        other = self.block(node.other, scope.knowing(facts_of(test, False)), rule)
        return [ir.When(where=node.where, test=test, then=then, other=other)]

    def _For(self, node, scope, rule):
        check = self.checker
        var, source, inner = check.binder(node.var, node.var_where, node.source, scope)
        inner = self.each_round(inner, node.body)
        cond = None
        if node.cond is not None:
            cond = check.truth(node.cond, inner)
            inner = inner.knowing(facts_of(cond, not node.until))
        body = self.block(node.body, inner, rule)
        stop, cond = (cond, None) if node.until else (None, cond)
        return [ir.Loop(where=node.where, var=var, source=source, cond=cond, body=body, stop=stop)]

    def _While(self, node, scope, rule):
        check = self.checker
        limit = compile_time_value(check.typed(node.limit, scope, T.INT, "a while loop's limit"), {},
                                   node.limit.where.position, "a while loop's limit", "RC318")
        if not 1 <= limit <= MAX_ROUNDS:
            raise check.error(node.limit.where, f"a while loop's limit is from 1 to {MAX_ROUNDS:,}, not {limit}",
                              "RC318", "the most rounds the rules allow, e.g. the number of spaces")
        scope = self.each_round(scope, node.body)
        test = check.truth(node.test, scope)
        body = self.block(node.body, scope.knowing(facts_of(test, True)), rule)
        fault = check.fault(node.where, f"the while loop's condition still holds after its limit of {limit} rounds")
        return [ir.While(where=node.where, test=test, limit=limit, body=body, fault=fault)]

    def each_round(self, scope: Scope, body) -> Scope:
        """``scope`` for what a loop computes each round (its test, its body): without the facts
        on the fields its ``body`` (syntax statements) may write, since a round starts after the
        one before has run."""
        return _without(scope, self.assigned(body, set()))

    def assigned(self, statements, seen: set) -> set:
        """The names of the fields the syntax ``statements`` may write, in the procedures they
        call too (``seen``: those already gone through)."""
        found = set()
        for stmt in statements:
            if isinstance(stmt, syntax.Assign):
                found.add(stmt.target.word if isinstance(stmt.target, syntax.Name) else stmt.target.name)
            elif isinstance(stmt, syntax.Perform) and stmt.name in self.checker.symbols.procedures:
                procedure = self.checker.symbols.procedures[stmt.name]
                if procedure.name not in seen:
                    seen.add(procedure.name)
                    if procedure.tree is None:
                        procedure.tree = syntax.effects(procedure.body)
                    found |= self.assigned(procedure.tree, seen)
            elif isinstance(stmt, syntax.Perform) and stmt.name == "move":
                found.add("at")
            for block in _blocks(stmt):
                found |= self.assigned(block, seen)
        return found

    def _Goto(self, node, scope, rule):
        symbols = self.checker.symbols
        targets = symbols.goto_targets
        if node.label not in targets:
            if node.label in (symbols.outer_targets or ()):
                raise self.checker.error(node.where, f"a called phase may not goto '{node.label}' outside "
                                         "itself", "RC377", "it returns to its caller at its end; decide "
                                         "where to go after the call: step, with the caller's next:")
            raise self.checker.error(node.where, f"no phase or step is called '{node.label}'", "RC312",
                                     did_you_mean(node.label, targets))
        target = targets[node.label]
        if symbols.outer_targets is None and symbols.goto_phase.get(target) != symbols.flow_phase:
            self.checker.warn(node.where, "RC378", f"goto '{node.label}' leaves the phase (deprecated)",
                              "say where the flow goes after a phase with its next: (a phase, or "
                              "{if: C, phase: P} cases), or run a phase of phases: with a call: step")
        return [ir.Jump(where=node.where, target=target, label=node.label)]

    def _Stop(self, node, scope, rule):
        return [ir.Jump(where=node.where, target=STOP, label="stop")]

    def _Finish(self, node, scope, rule):
        return [ir.Jump(where=node.where, target=FINISH, label="finish")]

    def _Reveal(self, node, scope, rule):
        secrets = self.checker.symbols.secrets
        name = node.target.word if isinstance(node.target, syntax.Name) else None
        if name not in secrets:
            raise self.checker.error(node.target.where, "only a state field declared with "
                                     "'until: revealed' can be revealed", "RC313",
                                     did_you_mean(name or "", secrets))
        return [ir.SetRevealed(where=node.where, field=secrets[name], value=1)]

    def _Event(self, node, scope, rule):
        check = self.checker
        schema = check.symbols.events.setdefault(node.kind, {})
        items = []
        for key, _, value_node in node.items:
            value = check.expr(value_node, scope)
            known = schema.get(key)
            if known not in (None, T.NONE, value.type) and value.type != T.NONE:
                raise check.error(value_node.where, f"event '{node.kind}' had '{key}' as "
                                  f"{T.describe(known)} elsewhere", "RC315")
            if known is None or known == T.NONE:
                schema[key] = value.type
            items.append((key, value))
        return [ir.Emit(where=node.where, kind=node.kind, rule=rule or "", items=tuple(items))]

    def _Perform(self, node, scope, rule):
        check = self.checker
        procedure = check.symbols.procedures.get(node.name)
        if procedure is None:
            effect = self.library.get(node.name)
            if effect is not None:
                return effect(check, node, node.args, scope)
            known = sorted(set(check.symbols.procedures) | set(self.library))
            raise check.error(node.where, f"'{node.name}' is not an effect", "RC305",
                              did_you_mean(node.name, known) or
                              "effects are assignments, if, for, goto, stop, finish, reveal, "
                              "event, " + ", ".join(known))
        if len(node.args) != len(procedure.params):
            raise check.error(node.where, f"{procedure.name}() takes {len(procedure.params)} "
                              f"argument(s), not {len(node.args)}", "RC306")
        if procedure.name in self._calling:
            raise check.error(node.where, f"{procedure.name}() calls itself; procedures may "
                              "not be recursive", "RC307")
        if procedure.tree is None:
            procedure.tree = syntax.effects(procedure.body)
        values = [check.expr(arg, scope) for arg in node.args]
        try:
            routine = self.routine(procedure, values, scope, rule)
            if routine is not None:
                return [ir.Perform(where=node.where, routine=routine, args=tuple(values))]
            made, inner = [], {}
            for param, arg, value in zip(procedure.params, node.args, values):   # arguments are evaluated once
                symbol = ir.Symbol(param, "argument")
                made.append(ir.Bind(where=arg.where, var=symbol, value=value))
                inner[param] = ir.Var(type=value.type, where=arg.where, symbol=symbol, nullable=value.nullable)
            return made + self._body(procedure, inner, scope.facts, rule)
        except SpecError as error:
            # the body is checked with this call's argument types: the call may be the cause
            if node.where is not None:
                error.notes.append((node.where.position, _called(procedure, node, values)))
                error.notes.extend((value.where.position, f"{value.symbol.name} is set here")
                                   for value in values if isinstance(value, ir.Var) and value.symbol.role == "local"
                                   and value.where is not None)
            raise

    def _body(self, procedure, names: dict, facts, rule) -> list:
        self._calling.append(procedure.name)
        try:
            return self.block(procedure.tree, Scope(names, facts), rule)
        finally:
            self._calling.pop()

    def routine(self, procedure, values: list, scope: Scope, rule):
        """The named function that stands for ``procedure`` given ``values`` (per argument type,
        the events' rule and what is known around it), or None when its effects are better
        copied in: they are few, or an argument is a fixed value that would fold."""
        if any(isinstance(v, ir.Const) for v in values):
            return None
        facts = global_facts(scope.facts)
        cited = rule if _has_events(procedure.tree) else None      # only events cite the rule
        key = ("procedure", procedure.name, tuple((v.type, v.nullable) for v in values), cited, facts)
        routines = self.checker.symbols.routines
        if key not in routines:
            params = tuple(ir.Symbol(p, "argument") for p in procedure.params)
            names = {p: ir.Var(type=v.type, symbol=s, nullable=v.nullable)
                     for p, v, s in zip(procedure.params, values, params)}
            body = self._body(procedure, names, facts, rule)
            if _size(body) <= ROUTINE_PARTS:
                routines[key] = None
            else:
                number = sum(1 for r in routines.values() if r is not None and r.name == procedure.name)
                routines[key] = ir.RoutineIR(procedure.name, number + 1, "effects", params, body)
        return routines[key]


def _called(procedure, node, values) -> str:
    """The note on an error in ``procedure``'s body: the call and each argument's type."""
    given = ", ".join(f"{param} = {_spelled(arg)} ({T.describe(value.type)})"
                      for param, arg, value in zip(procedure.params, node.args, values))
    return f"in {procedure.name}(), called here" + (f" with {given}" if given else "")


def _forget(scope: Scope, stmt) -> Scope:
    """``scope`` without the facts that ``stmt`` may have made untrue (it wrote their field)."""
    if not scope.facts:
        return scope
    written = set()
    _written(stmt, written)
    return _without(scope, written)


def _without(scope: Scope, written: set) -> Scope:
    """``scope`` without the facts on a value that reads one of the fields ``written``."""
    if not written or not scope.facts:
        return scope
    return scope.keeping(frozenset(fact for fact in scope.facts if not _mentions(fact, written)))


def _blocks(stmt) -> list:
    """The statement lists written inside the syntax statement ``stmt``."""
    if isinstance(stmt, syntax.If):
        return [stmt.then, stmt.other]
    if isinstance(stmt, (syntax.For, syntax.While)):
        return [stmt.body]
    return []


def _has_events(statements) -> bool:
    """Whether the syntax ``statements`` record an event (or call a procedure, which may)."""
    return any(isinstance(stmt, (syntax.Event, syntax.Perform)) or any(_has_events(block) for block in _blocks(stmt))
               for stmt in statements)


def _size(statements) -> int:
    """How many statements and expression parts ``statements`` holds."""
    total = 0
    for stmt in statements:
        total += 1 + sum(1 for e in statements_exprs(stmt) for _ in walk(e))
        total += sum(_size(inner) for inner in nested(stmt))
    return total


def _written(stmt, out: set) -> None:
    if isinstance(stmt, (ir.Store, ir.Change)):
        out.add(stmt.target.field.name)
    elif isinstance(stmt, ir.Move):
        out.add("at")
    elif nested(stmt):
        for inner in (s for block in nested(stmt) for s in block):
            _written(inner, out)
    elif isinstance(stmt, ir.Perform):
        for inner in stmt.routine.body:
            _written(inner, out)


def _mentions(fact, fields: set) -> bool:
    if isinstance(fact, tuple):
        if len(fact) >= 2 and fact[0] == "field" and fact[1] in fields:
            return True
        return any(_mentions(part, fields) for part in fact)
    return False

