"""Legal-action generators: for each action, the function listing its legal ids in a state.

One loop per parameter, in order; each legality condition is tested as soon as the parameters it
reads are bound, so a failing test on the first parameter skips every inner loop. Optimised, a
loop over the spaces goes only through those a condition pins it to (the neighbours of a space,
the spaces with a given attribute value), the loop of a ``from:`` parameter goes through its list,
and each part of a test that reads only outer parameters is computed once per step of the loop it
depends on. The action id is the runtime's mixed-radix number of the parameters' values.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler.emit import Emitter, assign, call, const, loop, name, table_name
from rulecraft.compiler.optimize import transform_once
from rulecraft.compiler.lines import mark
from rulecraft.compiler.summary import safe, shape, uses
from rulecraft.compiler.walk import children, transform
from rulecraft.runtime.tables import mixed_radix_strides


def generator(action: ir.ActionIR, emitter: Emitter, spaces: int, grouped: set, optimize: bool) -> list:
    """The body of ``gen_<action>(s, actor)``; ``grouped`` collects the grouped space tables the
    narrowed loops read (``("SPACES" or "NEIGHBORS", attribute table)``)."""
    params = action.params
    symbols = [p.symbol for p in params]
    tests = [c.test for c in action.conditions if not (optimize and c.param is not None)]
    sources = []
    for depth, param in enumerate(params, start=1):
        if optimize:
            source, tests = _narrow(param, symbols[depth - 1:], tests, spaces, grouped, emitter)
        else:
            source = call("range", const(param.offset), const(param.offset + param.size))
        sources.append(source)
    levels: list = [[] for _ in range(len(params) + 1)]
    for test in tests:
        levels[_level(test, symbols)].append(test)
    if optimize:
        _drop_proven_checks(levels, symbols)
    hoisted = _hoist(levels, symbols) if optimize else [[] for _ in levels]
    if optimize:
        levels = [_cheap_first(tests) for tests in levels]
    strides = mixed_radix_strides(p.size for p in params)
    body: list = [assign(name("out", True), ast.List([], ast.Load()))]
    block, partial = body, const(action.base) if action.base or not params else None
    for depth in range(len(params) + 1):
        if depth:
            param = params[depth - 1]
            step = loop(name(emitter.names.of(param.symbol), True), sources[depth - 1], [])
            block.append(step)
            block = step.body
            term = name(emitter.names.of(param.symbol))
            if param.offset:
                term = ast.BinOp(term, ast.Sub(), const(param.offset))
            if strides[depth - 1] != 1:
                term = ast.BinOp(term, ast.Mult(), const(strides[depth - 1]))
            partial = term if partial is None else ast.BinOp(partial, ast.Add(), term)
        if depth < len(params):
            if levels[depth]:
                block.append(mark(ast.If(ast.UnaryOp(ast.Not(), _all(levels[depth], emitter)),
                                         [ast.Return(name("out")) if depth == 0 else ast.Continue()], []),
                                  levels[depth][0].where))
            for symbol, value in hoisted[depth]:
                block.append(assign(name(emitter.names.of(symbol), True), emitter.expr(value)))
            if depth and depth < len(params) and _compound(partial):
                held = emitter.names.fresh("id")
                block.append(assign(name(held, True), partial))
                partial = name(held)
    append = ast.Expr(ast.Call(ast.Attribute(name("out"), "append", ast.Load()), [partial], []))
    innermost = levels[len(params)]
    block.append(mark(ast.If(_all(innermost, emitter), [append], []), innermost[0].where) if innermost else append)
    body.append(ast.Return(name("out")))
    return body


def _drop_proven_checks(levels: list, symbols: list) -> None:
    """Inside the loops, the checks that a value is not none which an outer level's test has
    already made (``player.at != none`` tested for the player, ``player.at.row`` read for each
    zone) are left out: the state does not change while the legal ids are listed, so the value is
    still not none. Only a value that reads its level's own parameter counts, so that a part
    reading it is never computed (hoisted) before the test that proves it. ``levels`` is
    rewritten in place."""
    proven: set = set()

    def known(e: ir.Expr) -> ir.Expr:
        if isinstance(e, ir.Guarded) and shape(e.check) in proven:
            return e.value
        if isinstance(e, ir.Checked) and shape(e.value) in proven:
            return e.value
        if e.nullable and shape(e) in proven:
            return replace(e, nullable=False)
        return e

    for depth, tests in enumerate(levels):
        if proven:
            levels[depth] = [transform(test, known) for test in tests]
        for test in tests:
            for conjunct in _conjuncts(test):
                if isinstance(conjunct, ir.Compare) and conjunct.op == "!=":
                    for value, other in ((conjunct.left, conjunct.right), (conjunct.right, conjunct.left)):
                        if isinstance(other, ir.Const) and other.value == -1 and T.is_entity(value.type) \
                                and _level(value, symbols) == depth:
                            proven.add(shape(value))


def _cheap_first(tests: list) -> list:
    """``tests`` (all tested at one loop level) with each that cannot fail moved before the
    costlier ones above it: the first false test ends the ``and``, so a cheap, selective test
    (``on(to) == 1``) first spares the costly ones (a path's squares) most of the time. A test that
    may fail keeps its place after the ones before it, which may guard it."""
    ordered: list = []
    for test in tests:
        at = len(ordered)
        if safe(test, lists=True):
            cost = _cost(test)
            while at and _cost(ordered[at - 1]) > cost:
                at -= 1
        ordered.insert(at, test)
    return ordered


LOOP_COST = 8        # a list's items are assumed this many: a part inside its loop costs that much more


def _cost(e: ir.Expr) -> float:
    """A rough cost of computing ``e``: its parts, those inside a list's loop counted
    :data:`LOOP_COST` times, the parts of an ``and`` after its first counted half (they run only
    when it holds)."""
    if isinstance(e, ir.Comprehension):
        inner = sum(_cost(part) for part in (e.cond, e.value, e.stop) if part is not None)
        return 1 + _cost(e.source) + sum(_cost(part) for _, part in e.once) + LOOP_COST * inner
    if isinstance(e, ir.Logic) and e.op == "and":
        return _cost(e.values[0]) + sum(_cost(part) for part in e.values[1:]) / 2
    return 1 + sum(_cost(part) for part in children(e))


def _compound(partial) -> bool:
    return not isinstance(partial, (ast.Name, ast.Constant))


def _all(tests: list, emitter: Emitter) -> ast.expr:
    parts = [emitter.expr(t) for t in tests]
    return parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts)


def _level(test: ir.Expr, symbols: list) -> int:
    """How many of the parameter loops must be open to compute ``test`` (0: none)."""
    used = uses(test)
    return max((i + 1 for i, symbol in enumerate(symbols) if symbol in used), default=0)


def _narrow(param: ir.ParamIR, inner: list, tests: list, spaces: int, grouped: set, emitter: Emitter):
    """The loop source of ``param`` (``inner[0]``; ``inner`` also holds the loops inside it) and
    the tests left once the conjuncts that pin it are taken out (see the module docstring)."""
    everything = call("range", const(param.offset), const(param.offset + param.size))
    around = None
    if param.source is not None:
        around = _neighbors_of(param.source)
        if around is None or param.type != T.SPACE:
            return emitter.iterable(param.source), tests
    if param.type != T.SPACE or param.offset or param.size != spaces:
        return everything, tests
    group, where, kept_tests = None, None, []
    for test in tests:
        kept = []
        for conjunct in _conjuncts(test):
            pin = _pinned(conjunct, inner)
            if pin is not None and pin[0] == "neighbors" and around is None:
                around = pin[1]
            elif pin is not None and pin[0] == "attribute" and group is None and where is None:
                group = pin[1:]
            elif pin is not None and pin[0] == "where" and where is None and group is None:
                where = pin[1]
            else:
                kept.append(conjunct)
        if kept:
            kept_tests.append(kept[0] if len(kept) == 1 else
                              ir.Logic(type=T.BOOL, where=test.where, op="and", values=tuple(kept)))
    if group is None and where is None and around is None:
        return everything, tests
    if where is not None:
        if around is None:
            grouped.add(("SPACES_WHERE", table_name(where)))
            return name(f"SPACES_WHERE_{table_name(where)}"), kept_tests
        grouped.add(("NEIGHBORS_WHERE", table_name(where)))
        return ast.Subscript(name(f"NEIGHBORS_WHERE_{table_name(where)}"), emitter.expr(around),
                             ast.Load()), kept_tests
    if group is None:
        return ast.Subscript(name("NEIGHBORS"), emitter.expr(around), ast.Load()), kept_tests
    table, value = group
    if around is None:
        grouped.add(("SPACES", table_name(table)))
        lookup = name(f"SPACES_BY_{table.name}")
    else:
        grouped.add(("NEIGHBORS", table_name(table)))
        lookup = ast.Subscript(name(f"NEIGHBORS_BY_{table.name}"), emitter.expr(around), ast.Load())
    return ast.Call(ast.Attribute(lookup, "get", ast.Load()), [emitter.expr(value), ast.Tuple([], ast.Load())],
                    []), kept_tests


def _conjuncts(test: ir.Expr) -> list:
    if isinstance(test, ir.Logic) and test.op == "and":
        return [part for value in test.values for part in _conjuncts(value)]
    return [test]


def _neighbors_of(e: ir.Expr):
    """X of ``neighbors(X)``, or None."""
    if isinstance(e, ir.Static) and e.table.name == "NEIGHBORS":
        return e.keys[0]
    return None


def _pinned(conjunct: ir.Expr, inner: list):
    """``("neighbors", X)`` when ``conjunct`` is ``adjacent(X, p)`` or ``p in neighbors(X)``,
    ``("attribute", table, E)`` when it is ``p.<attribute> == E``, where ``p`` is ``inner[0]`` and
    X and E read none of ``inner`` and can be computed before the loop; ``("where", table)`` when
    it is a condition on the board alone of ``p`` (a board table of truth values); else None."""
    loop = inner[0]
    if isinstance(conjunct, ir.Static) and conjunct.table.role == "formula" and conjunct.type == T.BOOL \
            and _is_var(conjunct.keys[0], loop):
        return "where", conjunct.table

    def outer(e) -> bool:
        return not (uses(e) & set(inner)) and safe(e)

    if isinstance(conjunct, ir.Member) and not conjunct.negate and _is_var(conjunct.item, loop):
        collection = conjunct.collection
        if isinstance(collection, ir.Static) and collection.table.name in ("NEIGHBOR_SETS", "NEIGHBORS") \
                and outer(collection.keys[0]):
            return "neighbors", collection.keys[0]
    if isinstance(conjunct, ir.Compare) and conjunct.op == "==":
        for one, other in ((conjunct.left, conjunct.right), (conjunct.right, conjunct.left)):
            if isinstance(one, ir.Static) and one.table.role == "space" and len(one.keys) == 1 \
                    and _is_var(one.keys[0], loop) and outer(other):
                return "attribute", one.table, other
    return None


def _is_var(e, symbol) -> bool:
    return isinstance(e, ir.Var) and e.symbol is symbol


def _hoist(levels: list, symbols: list) -> list:
    """Loop-invariant code motion: each largest part of a test at depth ``d`` that reads only the
    parameters of outer loops (and is safe to compute early) becomes a local computed once, in
    the loop of the last parameter it reads, after that loop's own tests. A part going through a
    list too (``first(p for p in actor.pieces where p.at == none)`` tested for every zone), but in
    the loop just around the test's own, after its tests: computed only when the test's loop is
    entered, it costs at most one computation more than the test would have made there, and
    saves all but one when it makes several. ``levels`` is rewritten
    to read the locals; returns the ``(symbol, value)`` pairs to compute at each depth."""
    hoisted: list = [[] for _ in levels]
    known: dict = {}

    def lift(e: ir.Expr, depth: int) -> ir.Expr:
        if not isinstance(e, (ir.Const, ir.Var)) and safe(e, lists=True):
            level = _level(e, symbols)
            if level < depth:
                if not safe(e):           # goes through a list: only where its loop is entered
                    level = depth - 1
                key = (shape(e), level)
                if key not in known:
                    known[key] = ir.Symbol("fixed", "fixed")
                    hoisted[level].append((known[key], e))
                return ir.Var(type=e.type, where=e.where, symbol=known[key], nullable=e.nullable)
        if isinstance(e, ir.Comprehension):
            return e
        parts = children(e)
        if not parts:
            return e
        return transform_once(e, {id(p): lift(p, depth) for p in parts})

    for depth in range(1, len(levels)):
        levels[depth] = [lift(test, depth) for test in levels[depth]]
    return hoisted

