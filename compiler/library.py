"""The rule language's standard library: counting, arithmetic and board functions, and effects.

Each entry turns checked arguments into IR over the board's precomputed tables (neighbours,
distances, straight lines, grid steps): geometry is computed once at compile time, never at play
time. :data:`REFERENCE` lists every entry with its signature and meaning for the spec reference.
"""

from __future__ import annotations

from dataclasses import replace

from rulecraft.compiler import ir, syntax
from rulecraft.compiler import types as T
from rulecraft.compiler.sizes import compile_time_value
from rulecraft.compiler.board import DIRECTION_NAMES, grid_towards

# name -> (signature, what it gives); the spec reference is generated from this list.
REFERENCE = {
    "count": ("count(L)", "how many items L has; of true/false values, how many are true "
              "(count(p for p in pieces where C), count(C for p in pieces))"),
    "any": ("any(L)", "of true/false values, whether one is true (any(C for p in pieces)); of other "
            "items, whether L has one"),
    "all": ("all(L)", "whether every value of L (true/false values) is true: all(C for p in pieces)"),
    "sum": ("sum(L)", "the total of a list of numbers (0 for an empty one): sum(E for x in S where C)"),
    "min": ("min(a, b, ...) | min(L)", "the least value; of a list of numbers, its least (0 for an empty one)"),
    "max": ("max(a, b, ...) | max(L)", "the greatest value; of a list of numbers, its greatest (0 for an empty one)"),
    "first": ("first(L)", "the first item of L, or none; of numbers, 0 when there is none"),
    "abs": ("abs(n)", "the absolute value of n"),
    "range": ("range(a, b)", "the numbers a, a+1, ..., b (both ends included)"),
    "adjacent": ("adjacent(a, b)", "true when spaces a and b are neighbours on the board"),
    "neighbors": ("neighbors(z)", "the spaces adjacent to z, in board order"),
    "distance": ("distance(a, b)", "the fewest steps between spaces a and b along adjacency (-1 if unreachable)"),
    "space": ("space(row, column)", "the space at that grid position, or none"),
    "lines": ("lines(n)", "every straight run of n spaces on a grid (rows, columns and both diagonals), each listed once; "
              "n is fixed when compiling (a number or a formula of options), and none are longer than the grid"),
    "reach": ("reach(z, steps)", "the squares reached from z by each grid step of a kind's steps "
              "attribute (steps that leave the board or land on an unplayable square give nothing)"),
    "connected": ("connected(z, L)", "the spaces linked to z through a chain of adjacent spaces of the "
                  "list L, as in connected(z, [y for y in spaces where C]) (z first, then in order of distance)"),
    "step": ("step(z, d)", "the square next to z in direction d (grids), or none off the board"),
    "ray": ("ray(z, d)", "the squares from z in direction d (grids), z excluded, nearest first, to the "
            "edge of the board (or the first missing square)"),
    "turn": ("turn(d, k)", "the direction k eighths of a turn clockwise from d (k = 2: 90° right, "
             "-2: 90° left, 4: the opposite direction)"),
    "direction": ("direction(a, b)", "the direction from square a to square b when they share a row, a "
                  "column or a diagonal (grids), else none"),
    "move": ("move(p, z)", "effect: put piece p on space z (none takes it off the board)"),
}


def _arity(checker, node, args, count):
    if len(args) != count:
        raise checker.error(node.where, f"{node.name}() takes {count} argument(s), not {len(args)}", "RC306")


def _quantifier(fn: str):
    """count, any and all over one list. Over true/false values: how many are true, whether
    one is, whether all are. Over other items: how many there are, whether there is one (all
    is refused there: it would hold always). The deprecated ``any(x in S where C)`` and
    ``all(x in S where C)`` are read as ``any(C for x in S)`` and ``all(C for x in S)``."""
    def build(checker, node, args, scope):
        _arity(checker, node, args, 1)
        arg = args[0]
        if fn != "count" and isinstance(arg, syntax.Comprehension) and arg.deprecated and not arg.until:
            checker.deprecated(arg)
            arg = replace(arg, value=arg.cond, cond=None, deprecated=False)
        items = checker.collection(arg, scope)
        truths = items.type.item == T.BOOL
        if fn == "all" and not truths:
            raise checker.error(arg.where, f"all() goes through true/false values, not a "
                                f"{T.describe(items.type)}", "RC308",
                                "write all(C for x in S), e.g. all(p.at != none for p in pieces)")
        if fn == "count":
            if truths:                        # the true ones: count(b for b in L where b)
                symbol = ir.Symbol("b", "local")
                items = ir.Comprehension(type=items.type, where=items.where, var=symbol, source=items,
                                         cond=ir.Var(type=T.BOOL, where=items.where, symbol=symbol))
            elif isinstance(items, ir.Comprehension) and items.value is not None:
                items = replace(items, type=items.source.type, value=None)   # the values are not counted
            return ir.Aggregate(type=T.INT, where=node.where, fn="count", items=items)
        return ir.Aggregate(type=T.BOOL, where=node.where, fn=fn if truths else "nonempty", items=items)
    return build


def _first(checker, node, args, scope):
    """``first(L)``: the first item of the list L, an entity (none when L is empty) or a number
    (0 when it is empty)."""
    _arity(checker, node, args, 1)
    chosen = checker.collection(args[0], scope)
    item = chosen.type.item
    if not (T.is_entity(item) or item == T.INT):
        raise checker.error(args[0].where, "first() picks from a list of numbers, teams, spaces, pieces, "
                            f"kinds or values, not a {T.describe(chosen.type)}", "RC308")
    return ir.Aggregate(type=item, where=node.where, fn="first", items=chosen, nullable=item != T.INT)


def _numbers(checker, fn: str, arg, scope) -> ir.Expr:
    """The list of numbers ``arg`` stands for (RC310 for a list of something else)."""
    items = checker.collection(arg, scope)
    if items.type.item != T.INT:
        raise checker.error(arg.where, f"{fn}() of a list needs numbers, not a "
                            f"{T.describe(items.type)}", "RC310",
                            f"write {fn}(E for x in S) to take a number of each item")
    return items


def _sum(checker, node, args, scope):
    """``sum(L)``: the total of a list of numbers (0 for an empty one)."""
    _arity(checker, node, args, 1)
    return ir.Aggregate(type=T.INT, where=node.where, fn="sum", items=_numbers(checker, "sum", args[0], scope))


def _extreme(fn: str):
    """min and max: of two or more numbers, or of one list of numbers (0 for an empty list)."""
    def build(checker, node, args, scope):
        if len(args) == 1:
            return ir.Aggregate(type=T.INT, where=node.where, fn=fn, items=_numbers(checker, fn, args[0], scope))
        if not args:
            raise checker.error(node.where, f"{fn}() needs two or more numbers, or a list of them", "RC306")
        values = tuple(checker.typed(a, scope, T.INT, f"an argument of {fn}()") for a in args)
        return ir.Builtin(type=T.INT, where=node.where, fn=fn, args=values)
    return build


def _abs(checker, node, args, scope):
    _arity(checker, node, args, 1)
    value = checker.typed(args[0], scope, T.INT, "the value")
    return ir.Builtin(type=T.INT, where=node.where, fn="abs", args=(value,))


def _range(checker, node, args, scope):
    _arity(checker, node, args, 2)
    low, high = (checker.typed(a, scope, T.INT, "an end of the range") for a in args)
    return ir.Span(type=T.ListOf(T.INT), where=node.where, low=low, high=high)


def _spaces(checker, node, args, scope, count):
    """The arguments of a board function, each a space."""
    _arity(checker, node, args, count)
    return [checker.typed(arg, scope, T.SPACE, f"an argument of {node.name}()") for arg in args]


def _needing(checker, node, args, values, read, needed=None):
    """``read``, guarded by a check of each argument at the positions in ``needed`` (all by
    default) that may be none: a board function needs real spaces there."""
    for index, (arg, value) in enumerate(zip(args, values)):
        if needed is None or index in needed:
            read = checker.guard(value, read, arg.where, f"{node.name}({_text(arg)})")
    return read


def _adjacent(checker, node, args, scope):
    a, b = _spaces(checker, node, args, scope, 2)
    sets = checker.symbols.static("NEIGHBOR_SETS")
    read = ir.Member(type=T.BOOL, where=node.where, item=b,
                     collection=ir.Static(type=T.ListOf(T.SPACE), table=sets, keys=(a,)))
    return _needing(checker, node, args, (a, b), read, needed=(0,))


def _neighbors(checker, node, args, scope):
    (z,) = _spaces(checker, node, args, scope, 1)
    read = ir.Static(type=T.ListOf(T.SPACE), where=node.where, table=checker.symbols.static("NEIGHBORS"),
                     keys=(z,))
    return _needing(checker, node, args, (z,), read)


def _distance(checker, node, args, scope):
    a, b = _spaces(checker, node, args, scope, 2)
    read = ir.Static(type=T.INT, where=node.where, table=checker.symbols.static("DISTANCE"), keys=(a, b))
    return _needing(checker, node, args, (a, b), read)


def _space(checker, node, args, scope):
    _arity(checker, node, args, 2)
    row, col = (checker.typed(a, scope, T.INT, "a grid coordinate") for a in args)
    return ir.Builtin(type=T.SPACE, where=node.where, fn="space_at", args=(row, col), nullable=True)


def _lines(checker, node, args, scope):
    _arity(checker, node, args, 1)
    length = compile_time_value(checker.typed(args[0], scope, T.INT, "a line length"), {},
                                args[0].where.position, "the length in lines(n)", "RC316")
    if length < 1:
        raise checker.error(args[0].where, f"lines(n) needs n of 1 or more, not {length}", "RC316",
                            hint="a line has at least one space; longer than the board, it gives no lines")
    checker.symbols.lines_needed.add(length)
    return ir.Builtin(type=T.ListOf(T.ListOf(T.SPACE)), where=node.where, fn="lines",
                      args=(ir.Const(type=T.INT, value=length),))


def _reach(checker, node, args, scope):
    _arity(checker, node, args, 2)
    start = checker.typed(args[0], scope, T.SPACE, "the square reached from")
    steps = checker.typed(args[1], scope, T.STEPS, "the steps (a kind attribute of grid steps)")
    return ir.Builtin(type=T.ListOf(T.SPACE), where=node.where, fn="reach", args=(start, steps))


def _connected(checker, node, args, scope):
    _arity(checker, node, args, 2)
    start = checker.typed(args[0], scope, T.SPACE, "the space the chain starts from")
    chosen = checker.collection(args[1], scope)
    if chosen.type.item != T.SPACE:
        raise checker.error(args[1].where, "connected() links spaces: connected(z, [y for y in spaces where C])",
                            "RC308")
    return ir.Builtin(type=T.ListOf(T.SPACE), where=node.where, fn="connected", args=(start, chosen))


def _grid_table(checker, node, name: str) -> ir.StaticTable:
    """The grid's direction table ``name`` (STEP, RAY, DIRECTION_TO); RC360 on a board without
    a grid."""
    symbols = checker.symbols
    if symbols.grid is None:
        raise checker.error(node.where, f"{node.name}() needs a grid board: directions are those of "
                            "rows, columns and diagonals", "RC360",
                            "give a board of spaces: a coordinates: {row: ..., column: ...} of each zone, "
                            "or use neighbors(z) and adjacent(a, b)")
    if name not in symbols.statics:       # a table per pair of squares: made only when used
        symbols.statics[name] = ir.StaticTable("grid", name, grid_towards(symbols.grid), T.DIRECTION,
                                               offsets=(0, 0))
    return symbols.statics[name]


def _direction_arg(checker, node, arg, scope):
    return checker.typed(arg, scope, T.DIRECTION, f"the direction of {node.name}()")


def _step_or_ray(checker, node, args, scope):
    """``step(z, d)`` (the next square, or none) and ``ray(z, d)`` (a list), both looked up in
    tables the compiler makes for every square and direction."""
    _arity(checker, node, args, 2)
    table = _grid_table(checker, node, node.name.upper())
    checker.symbols.directions_used = True
    z = checker.typed(args[0], scope, T.SPACE, f"the square of {node.name}()")
    d = _direction_arg(checker, node, args[1], scope)
    read = ir.Static(type=table.type, where=node.where, table=table, keys=(z, d), nullable=node.name == "step")
    return checker.known(_needing(checker, node, args, (z, d), read), scope)


def _turn(checker, node, args, scope):
    """``turn(d, k)``: ``(d + k) mod 8`` in the clockwise order of the directions."""
    _arity(checker, node, args, 2)
    d = _direction_arg(checker, node, args[0], scope)
    k = checker.typed(args[1], scope, T.INT, "the eighths of a turn")
    total = ir.Binary(type=T.INT, where=node.where, op="+", left=d, right=k)
    read = ir.Binary(type=T.DIRECTION, where=node.where, op="%", left=total,
                     right=ir.Const(type=T.INT, value=len(DIRECTION_NAMES)))
    return _needing(checker, node, args, (d, k), read, needed=(0,))


def _direction(checker, node, args, scope):
    """``direction(a, b)``: looked up in a table over every pair of squares."""
    table = _grid_table(checker, node, "DIRECTION_TO")
    a, b = _spaces(checker, node, args, scope, 2)
    read = ir.Static(type=T.DIRECTION, where=node.where, table=table, keys=(a, b), nullable=True)
    return checker.known(_needing(checker, node, args, (a, b), read), scope)


def _move(checker, node, args, scope):
    """The effect ``move(p, z)``: a :class:`ir.Move`."""
    _arity(checker, node, args, 2)
    piece = checker.typed(args[0], scope, T.PIECE, "the piece to move")
    where = checker.typed(args[1], scope, T.SPACE, "the destination")
    piece = checker.nonnull(piece, args[0].where, f"move({_text(args[0])}, ...)")
    return [ir.Move(where=node.where, piece=piece, space=where)]


def _text(node) -> str:
    return node.word if isinstance(node, syntax.Name) else "..."


FUNCTIONS = {
    "count": _quantifier("count"), "any": _quantifier("any"), "all": _quantifier("all"),
    "first": _first, "sum": _sum, "min": _extreme("min"), "max": _extreme("max"), "abs": _abs, "range": _range,
    "adjacent": _adjacent, "neighbors": _neighbors, "distance": _distance, "space": _space,
    "lines": _lines, "reach": _reach, "connected": _connected,
    "step": _step_or_ray, "ray": _step_or_ray, "turn": _turn, "direction": _direction,
}

PROCEDURES = {"move": _move}
