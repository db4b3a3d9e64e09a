"""The rule language's standard library: counting, arithmetic and board functions, and effects.

Each entry turns checked arguments into IR over the board's precomputed tables (neighbours,
distances, straight lines, grid steps): geometry is computed once at compile time, never at play
time. :data:`REFERENCE` lists every entry with its signature and meaning for the spec reference.
"""

from __future__ import annotations

from rulecraft.compiler import ir, syntax
from rulecraft.compiler import types as T
from rulecraft.compiler.sizes import compile_time_value
from rulecraft.compiler.board import DIRECTION_NAMES, grid_towards

# name -> (signature, what it gives); the spec reference is generated from this list.
REFERENCE = {
    "count": ("count(x in S where C) | count(S)", "how many items of S satisfy C"),
    "any": ("any(x in S where C) | any(S)", "true when some item of S satisfies C (or S is not empty)"),
    "all": ("all(x in S where C)", "true when every item of S satisfies C"),
    "sum": ("sum(E for x in S where C)", "the total of E over the items of S that satisfy C"),
    "min": ("min(a, b, ...) | min(E for x in S where C) | min(x in S where C) | min(S)",
            "the least value; of a list of numbers, its least (0 for an empty one)"),
    "max": ("max(a, b, ...) | max(E for x in S where C) | max(x in S where C) | max(S)",
            "the greatest value; of a list of numbers, its greatest (0 for an empty one)"),
    "first": ("first(x in S where C) | first(S)",
              "the first item of S that satisfies C (or of S), or none; of numbers, 0 when there is none"),
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
    "connected": ("connected(z, y in S where C)", "the spaces linked to z through a chain of adjacent "
                  "spaces of S that satisfy C (z first, then in order of distance)"),
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
    """count, any and all: over ``x in S where C``, over ``x in S until C`` (the items before
    the first that satisfies C: count and any only), or over a plain list."""
    def build(checker, node, args, scope):
        _arity(checker, node, args, 1)
        arg = args[0]
        if isinstance(arg, syntax.Selection) and arg.until:
            if fn == "all":
                raise checker.error(arg.where, "all(x in S until C) holds always: every item before "
                                    "the first that satisfies C fails C", "RC308",
                                    "write all(x in S where C), or count(x in S until C)")
            return ir.Aggregate(type=T.INT if fn == "count" else T.BOOL, where=node.where,
                                fn="count" if fn == "count" else "nonempty", items=checker.selection(arg, scope))
        if isinstance(arg, syntax.Selection):
            chosen = checker.selection(arg, scope)
            if fn != "count":      # any/all: the truth of C for each item
                chosen = ir.Comprehension(type=T.ListOf(T.BOOL), where=chosen.where, var=chosen.var,
                                          source=chosen.source, value=chosen.cond)
            return ir.Aggregate(type=T.INT if fn == "count" else T.BOOL, where=node.where, fn=fn,
                                items=chosen)
        if fn == "all":
            raise checker.error(arg.where, "all() needs a condition: all(x in S where C)", "RC308")
        items = checker.collection(arg, scope)
        return ir.Aggregate(type=T.INT if fn == "count" else T.BOOL, where=node.where,
                            fn="count" if fn == "count" else "nonempty", items=items)
    return build


def _listed(checker, arg, scope):
    """The list ``arg`` stands for: a selection (``x in S where C``, ``x in S until C``) or a
    plain list (RC309 for something else)."""
    if isinstance(arg, syntax.Selection):
        return checker.selection(arg, scope)
    return checker.collection(arg, scope)


def _first(checker, node, args, scope):
    """``first(x in S where C)`` or ``first(S)``: an entity (none when there is no such item)
    or a number (0 when there is none)."""
    _arity(checker, node, args, 1)
    chosen = _listed(checker, args[0], scope)
    item = chosen.type.item
    if not (T.is_entity(item) or item == T.INT):
        raise checker.error(args[0].where, "first() picks from a list of numbers, teams, spaces, pieces, "
                            f"kinds or values, not a {T.describe(chosen.type)}", "RC308")
    return ir.Aggregate(type=item, where=node.where, fn="first", items=chosen, nullable=item != T.INT)


def _extreme(fn: str):
    """min and max: of two or more numbers, or of one list of numbers (a selection, a total's
    ``E for x in S``, or a plain list): 0 for an empty list."""
    def build(checker, node, args, scope):
        if len(args) == 1:
            items = _listed(checker, args[0], scope)
            if items.type.item != T.INT:
                raise checker.error(args[0].where, f"{fn}() of a list needs numbers, not a "
                                    f"{T.describe(items.type)}", "RC310",
                                    f"write {fn}(E for x in S) to compare a number of each item")
            return ir.Aggregate(type=T.INT, where=node.where, fn=fn, items=items)
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
    if not isinstance(args[1], syntax.Selection):
        raise checker.error(args[1].where, "connected() takes a space and 'y in S where C'", "RC308")
    chosen = checker.selection(args[1], scope)
    if chosen.type.item != T.SPACE:
        raise checker.error(args[1].where, "connected() links spaces: 'y in spaces where C'", "RC308")
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
    "first": _first, "min": _extreme("min"), "max": _extreme("max"), "abs": _abs, "range": _range,
    "adjacent": _adjacent, "neighbors": _neighbors, "distance": _distance, "space": _space,
    "lines": _lines, "reach": _reach, "connected": _connected,
    "step": _step_or_ray, "ray": _step_or_ray, "turn": _turn, "direction": _direction,
}

PROCEDURES = {"move": _move}
