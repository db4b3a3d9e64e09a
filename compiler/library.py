"""The rule language's standard library: counting, arithmetic and board functions, and effects.

Each entry turns checked arguments into Python source over the generated module's precomputed
tables (``NEIGHBORS``, ``NEIGHBOR_SETS``, ``DISTANCE``, ``SPACE_AT``, ``LINES``): geometry is
computed once at compile time, never at play time. ``reference()`` lists every entry with its
signature and meaning for the spec reference.
"""

from __future__ import annotations

from rulecraft.compiler import types as T
from rulecraft.compiler.expressions import Code, ExpressionCompiler

# name -> (signature, what it gives); the spec reference is generated from this list.
REFERENCE = {
    "count": ("count(x in S where C) | count(S)", "how many items of S satisfy C"),
    "any": ("any(x in S where C) | any(S)", "true when some item of S satisfies C (or S is not empty)"),
    "all": ("all(x in S where C)", "true when every item of S satisfies C"),
    "sum": ("sum(E for x in S where C)", "the total of E over the items of S that satisfy C"),
    "min": ("min(a, b, ...) | min(E for x in S where C)", "the least value (0 for nothing)"),
    "max": ("max(a, b, ...) | max(E for x in S where C)", "the greatest value (0 for nothing)"),
    "first": ("first(x in S where C)", "the first item of S that satisfies C, or none"),
    "abs": ("abs(n)", "the absolute value of n"),
    "range": ("range(a, b)", "the numbers a, a+1, ..., b (both ends included)"),
    "adjacent": ("adjacent(a, b)", "true when spaces a and b are neighbours on the board"),
    "neighbors": ("neighbors(z)", "the spaces adjacent to z, in board order"),
    "distance": ("distance(a, b)", "the fewest steps between spaces a and b along adjacency (-1 if unreachable)"),
    "space": ("space(row, column)", "the space at that grid position, or none"),
    "lines": ("lines(n)", "every straight run of n spaces on a grid (rows, columns and both diagonals), each listed once"),
    "reach": ("reach(z, steps)", "the squares reached from z by each grid step of a kind's steps "
              "attribute (steps that leave the board or land on an unplayable square give nothing)"),
    "connected": ("connected(z, y in S where C)", "the spaces linked to z through a chain of adjacent "
                  "spaces of S that satisfy C (z first, then in order of distance)"),
    "move": ("move(p, z)", "effect: put piece p on space z (none takes it off the board)"),
}


def _arity(compiler, args, text, tree, name, count):
    if len(args) != count:
        raise compiler.error(text, tree, f"{name}() takes {count} argument(s), not {len(args)}", "RC306")


def _typed(compiler: ExpressionCompiler, arg, text, scope, kind, what) -> Code:
    code = compiler.expr(arg, text, scope)
    compiler._require(code, kind, text, arg, what)
    return code


def _quantifier(name):
    def build(compiler: ExpressionCompiler, args, text, scope, tree):
        _arity(compiler, args, text, tree, name, 1)
        arg = args[0]
        if arg.data == "selection":
            indexed = compiler.pieces_on(arg, text, scope) if name == "count" else None
            if indexed is not None:
                return indexed
            var, collection, cond, _ = compiler.selection(arg, text, scope)
            head, (cond,) = compiler.loop_head(var, collection.src, [cond])
            if name == "count":
                return Code(f"sum(1 {head} if {cond})", T.INT, (var, head, cond))
            return Code(f"{name}({cond} {head})", T.BOOL)
        if name == "all":
            raise compiler.error(text, arg, "all() needs a condition: all(x in S where C)", "RC308")
        collection = compiler._collection(arg, text, scope)
        return Code(f"len({collection.src})", T.INT) if name == "count" else \
            Code(f"(len({collection.src}) > 0)", T.BOOL)
    return build


def _first(compiler: ExpressionCompiler, args, text, scope, tree):
    _arity(compiler, args, text, tree, "first", 1)
    if args[0].data != "selection":
        raise compiler.error(text, args[0], "first() takes 'x in S where C'", "RC308")
    var, collection, cond, _ = compiler.selection(args[0], text, scope)
    if not T.is_entity(collection.type.item):
        raise compiler.error(text, args[0], "first() picks from a list of teams, spaces or pieces",
                             "RC308")
    head, (cond,) = compiler.loop_head(var, collection.src, [cond])
    return Code(f"next(({var} {head} if {cond}), -1)", collection.type.item)


def _extreme(name):
    def build(compiler, args, text, scope, tree):
        if len(args) < 2:
            raise compiler.error(text, tree, f"{name}() of single values needs two or more; for a "
                                 f"list write {name}(E for x in S)", "RC306")
        codes = [_typed(compiler, a, text, scope, T.INT, f"an argument of {name}()") for a in args]
        return Code(f"{name}({', '.join(c.src for c in codes)})", T.INT)
    return build


def _abs(compiler, args, text, scope, tree):
    _arity(compiler, args, text, tree, "abs", 1)
    return Code(f"abs({_typed(compiler, args[0], text, scope, T.INT, 'the value').src})", T.INT)


def _range(compiler, args, text, scope, tree):
    _arity(compiler, args, text, tree, "range", 2)
    low, high = (_typed(compiler, a, text, scope, T.INT, "an end of the range") for a in args)
    return Code(f"tuple(range({low.src}, {high.src} + 1))", T.ListOf(T.INT))


def _spaces(count, name, build):
    def handler(compiler, args, text, scope, tree):
        _arity(compiler, args, text, tree, name, count)
        codes = [_typed(compiler, a, text, scope, T.SPACE, f"an argument of {name}()") for a in args]
        return build(*[c.src for c in codes])
    return handler


def _space(compiler, args, text, scope, tree):
    _arity(compiler, args, text, tree, "space", 2)
    row, col = (_typed(compiler, a, text, scope, T.INT, "a grid coordinate") for a in args)
    return Code(f"SPACE_AT.get(({row.src}, {col.src}), -1)", T.SPACE)


def _lines(compiler, args, text, scope, tree):
    _arity(compiler, args, text, tree, "lines", 1)
    arg = args[0]
    if arg.data != "int_lit":
        raise compiler.error(text, arg, "lines(n) needs a plain number", "RC316")
    length = int(arg.children[0])
    compiler.env.lines_needed.add(length)
    return Code(f"LINES[{length}]", T.ListOf(T.ListOf(T.SPACE)))


def _reach(compiler, args, text, scope, tree):
    _arity(compiler, args, text, tree, "reach", 2)
    start = _typed(compiler, args[0], text, scope, T.SPACE, "the square reached from")
    steps = _typed(compiler, args[1], text, scope, T.STEPS, "the steps (a kind attribute of grid steps)")
    return Code(f"reach_from({start.src}, {steps.src})", T.ListOf(T.SPACE))


def _connected(compiler, args, text, scope, tree):
    _arity(compiler, args, text, tree, "connected", 2)
    start = _typed(compiler, args[0], text, scope, T.SPACE, "the space the chain starts from")
    if args[1].data != "selection":
        raise compiler.error(text, args[1], "connected() takes a space and 'y in S where C'", "RC308")
    var, collection, cond, _ = compiler.selection(args[1], text, scope)
    if collection.type.item != T.SPACE:
        raise compiler.error(text, args[1], "connected() links spaces: 'y in spaces where C'", "RC308")
    return Code(f"connected_from({start.src}, frozenset({var} for {var} in {collection.src} if {cond}))",
                T.ListOf(T.SPACE))


def _move(compiler, args, text, scope, tree):
    _arity(compiler, args, text, tree, "move", 2)
    piece = _typed(compiler, args[0], text, scope, T.PIECE, "the piece to move")
    where = _typed(compiler, args[1], text, scope, T.SPACE, "the destination")
    return [compiler.move_piece(piece.src, where.src)]


FUNCTIONS = {
    "count": _quantifier("count"), "any": _quantifier("any"), "all": _quantifier("all"),
    "first": _first,
    "min": _extreme("min"), "max": _extreme("max"), "abs": _abs, "range": _range,
    "adjacent": _spaces(2, "adjacent", lambda a, b: Code(f"({b} in NEIGHBOR_SETS[{a}])", T.BOOL)),
    "neighbors": _spaces(1, "neighbors", lambda a: Code(f"NEIGHBORS[{a}]", T.ListOf(T.SPACE))),
    "distance": _spaces(2, "distance", lambda a, b: Code(f"DISTANCE[{a}][{b}]", T.INT)),
    "space": _space, "lines": _lines, "reach": _reach, "connected": _connected,
}

PROCEDURES = {"move": _move}
