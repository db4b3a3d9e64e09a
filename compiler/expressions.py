"""Resolve names and types in rule-language trees and translate them to Python source.

One pass does three jobs for each tree: it resolves every name (state field, option, team, space,
table, local, library function), checks every type, and returns the Python expression or
statements that the generated module will contain. Generated code works on the state as a flat
list of integers ``s``; literals go through ``repr`` and names are resolved, never pasted.

Errors are :class:`rulecraft.errors.SpecError` (RC3xx) pointing at the offending token.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
import operator
from typing import Callable

from lark import Token, Tree

from rulecraft.errors import SpecError, did_you_mean
from rulecraft.compiler import types as T
from rulecraft.compiler.hoisting import HOISTABLE, comprehension_head
from rulecraft.loader import Text
from rulecraft.compiler.parser import parse_effects, parse_formula

STOP = -2      # returned by effects: leave the current choice step
FINISH = -3    # returned by effects: the game is over


@dataclass
class Code:
    """A translated expression: Python source ``src`` and its rule-language ``type``."""

    src: str
    type: object
    counted: tuple | None = None   # count(x in S where C): (x, its for clauses, C), for comparisons


@dataclass
class Binding:
    """What a name means in the current scope."""

    code: str
    type: object
    assignable: bool = False


@dataclass
class Function:
    """A designer-defined formula with parameters, inlined at every use."""

    name: str
    params: list[str]
    body: Text
    tree: Tree | None = None


@dataclass
class Env:
    """Everything a spec declares that rule strings may name. Filled in by the model builder."""

    names: dict = field(default_factory=dict)              # global name -> Binding
    attributes: dict = field(default_factory=dict)         # (entity type, attr) -> (code fmt, type, assignable)
    tables: dict = field(default_factory=dict)             # name -> (python name, key types, value type)
    functions: dict = field(default_factory=dict)          # name -> Function
    library: dict = field(default_factory=dict)            # name -> callable(compiler, args, tree) -> Code
    goto_targets: dict = field(default_factory=dict)       # label -> node index
    reveal_slots: dict = field(default_factory=dict)       # field name -> slot of its revealed flag
    events: dict = field(default_factory=dict)             # event kind -> {key: type}
    procedures: dict = field(default_factory=dict)         # statement calls: name -> callable
    lines_needed: set = field(default_factory=set)         # lengths n used in lines(n)
    piece_index: "PieceIndex | None" = None                # pieces per team and space (a board with pieces)
    allocate: Callable | None = None                       # size -> base of new state slots
    space_tables: dict = field(default_factory=dict)       # SPACE_<NAME> -> each space's value
    # a definition's formula of one space over the board alone, computed for every space:
    # formula with the space as z -> (table name, formula, values)
    board_formulas: dict = field(default_factory=dict)


@dataclass
class PieceIndex:
    """Slots counting each team's pieces on each space, kept up to date by every write to a
    piece's ``at`` (``move_piece`` in the generated module).

    Team ``t`` has ``width`` slots: first its pieces off the board, then one per space, so the
    count of ``t``'s pieces on space ``z`` (``z`` -1: off the board) is at
    ``base + 1 + t * width + z``. ``base`` stays None until a formula first reads the index; the
    model then gives it slots at the end of the state.
    """

    teams: int
    width: int
    base: int | None = None

    def slot(self, team_src: str, space_src: str) -> str:
        """Python source reading how many pieces of team ``team_src`` stand on ``space_src``."""
        literal = team_src.strip("()")
        if literal.isdigit():
            return f"s[{self.base + 1 + self.width * int(literal)} + {space_src}]"
        return f"s[{self.base + 1} + {self.width} * {team_src} + {space_src}]"


def _arithmetic(op):
    """The handler of one arithmetic operator: both sides must be numbers."""
    def handler(self, tree, text, scope):
        left_tree, right_tree = tree.children
        left, right = self.expr(left_tree, text, scope), self.expr(right_tree, text, scope)
        self._require(left, T.INT, text, left_tree, f"the left side of '{op}'")
        self._require(right, T.INT, text, right_tree, f"the right side of '{op}'")
        return Code(f"({left.src} {op} {right.src})", T.INT)
    return handler


class ExpressionCompiler:
    """Translate parsed rule strings for one spec; see the module docstring."""

    def __init__(self, env: Env):
        self.env = env
        self._inlining: list[str] = []
        self._rule: str | None = None
        self._locals = 0
        self._board_uses: dict = {}   # (definition, fixed values) -> (table, type) or None

    # ---------- entry points ----------
    def formula(self, text: Text, scope: dict | None = None, expect=None, what: str = "formula") -> Code:
        """Compile a formula; ``expect`` (a type) is checked when given."""
        tree = parse_formula(text)
        code = self.expr(tree, text, dict(scope or {}))
        if expect is not None and not T.compatible(expect, code.type):
            raise self.error(text, tree, f"this {what} gives {T.describe(code.type)}, "
                             f"but {T.describe(expect)} is needed", "RC310")
        return code

    def condition(self, text: Text, scope: dict | None = None) -> str:
        """Compile a condition; returns Python source of a boolean expression."""
        return self.formula(text, scope, T.BOOL, "condition").src

    def effects(self, text: Text, scope: dict | None = None, rule: str | None = None,
                indent: int = 1) -> list[str]:
        """Compile effect statements into indented Python lines (possibly ``return`` jumps)."""
        tree = parse_effects(text)
        lines: list[str] = []
        self._rule = rule
        self._statements(tree, text, dict(scope or {}), lines, indent, rule)
        return lines

    # ---------- errors ----------
    def error(self, text, node, message: str, code: str, hint: str | None = None) -> SpecError:
        """A :class:`SpecError` with ``code`` at the position of ``node`` (a token or tree) in
        ``text``, for the caller to raise; it does not raise."""
        return SpecError(message, self._where(text, node), code=code, hint=hint)

    @staticmethod
    def _where(text, node):
        if isinstance(node, Token) and node.start_pos is not None:
            return text.at(node.start_pos) if isinstance(text, Text) else None
        # trees carry no positions (the parser is faster without): a tree starts at its first token
        first = next((token for token in node.scan_values(lambda value: isinstance(value, Token))
                      if token.start_pos is not None), None) if isinstance(node, Tree) else None
        if first is not None:
            return text.at(first.start_pos) if isinstance(text, Text) else None
        return text.position if isinstance(text, Text) else None

    # ---------- expressions ----------
    def expr(self, tree, text, scope) -> Code:
        """Translate one expression ``tree`` of ``text`` (names bound in ``scope``) to
        :class:`Code`; RC311 when the tree is not a value, and every error of its parts."""
        handler = getattr(self, "_e_" + tree.data, None)
        if handler is None:
            raise self.error(text, tree, "this construct is not a value", "RC311")
        return handler(tree, text, scope)

    def _e_int_lit(self, tree, text, scope):
        return Code(repr(int(tree.children[0])), T.INT)

    def _e_true_lit(self, tree, text, scope):
        return Code("1", T.BOOL)

    def _e_false_lit(self, tree, text, scope):
        return Code("0", T.BOOL)

    def _e_none_lit(self, tree, text, scope):
        return Code("-1", T.NONE)

    def _e_str_lit(self, tree, text, scope):
        word = str(tree.children[0])[1:-1]
        binding = self.env.names.get(word)
        if binding is None or binding.assignable or not T.is_entity(binding.type):
            hint = did_you_mean(word, [n for n, b in self.env.names.items() if T.is_entity(b.type)])
            raise self.error(text, tree, f"'{word}' names no team, space, piece kind or value",
                             "RC301", hint)
        return Code(binding.code, binding.type)

    def _e_list_lit(self, tree, text, scope):
        items = [self.expr(child, text, scope) for child in _args(tree.children[0])]
        item_type = items[0].type if items else T.NONE
        for child, item in zip(_args(tree.children[0]), items):
            if not (T.compatible(item_type, item.type) or T.compatible(item.type, item_type)):
                raise self.error(text, child, "the items of a list must all be of one type", "RC310")
            if item_type == T.NONE:
                item_type = item.type
        return Code("(" + "".join(i.src + ", " for i in items) + ")", T.ListOf(item_type))

    def _e_name(self, tree, text, scope):
        token = tree.children[0]
        word = str(token)
        binding = scope.get(word) or self.env.names.get(word)
        function = self.env.functions.get(word)
        if binding is None and function is not None and not function.params:
            return self._inline(function, [], text, scope, token)
        if binding is None:
            if word in self.env.functions or word in self.env.library:
                raise self.error(text, token, f"'{word}' is a function: call it as {word}(...)", "RC302")
            if word in self.env.tables:
                raise self.error(text, token, f"'{word}' is a table: look a value up as {word}[...]", "RC302")
            hint = did_you_mean(word, list(scope) + list(self.env.names))
            raise self.error(text, token, f"unknown name '{word}'", "RC301",
                             hint or "declare it under state:, options: or define:")
        return Code(binding.code, binding.type)

    def _e_attr(self, tree, text, scope):
        owner_tree, name_token = tree.children
        owner = self.expr(owner_tree, text, scope)
        return self._attribute(owner, str(name_token), text, name_token)[0]

    def _attribute(self, owner: Code, name: str, text, token):
        kind = owner.type if owner.type != T.NONE else None
        entry = self.env.attributes.get((_entity_family(kind), name))
        if entry is None:
            known = [attr for family, attr in self.env.attributes if family == _entity_family(kind)]
            hint = did_you_mean(name, known)
            what = T.describe(owner.type)
            if not known:
                raise self.error(text, token, f"{what} has no attributes", "RC303")
            raise self.error(text, token, f"{what} has no attribute '{name}'", "RC303",
                             hint or "known: " + ", ".join(sorted(known)))
        fmt, result_type, assignable = entry
        return Code(fmt.format(owner.src), result_type), assignable

    def _e_index(self, tree, text, scope):
        base_tree, key_tree = tree.children
        key = self.expr(key_tree, text, scope)
        chain = [key_tree]
        while base_tree.data == "index":
            chain.insert(0, base_tree.children[1])
            base_tree = base_tree.children[0]
        if base_tree.data == "name" and str(base_tree.children[0]) in self.env.tables:
            return self._table_lookup(str(base_tree.children[0]), chain, text, scope, tree)
        base = self.expr(tree.children[0], text, scope)
        if not isinstance(base.type, T.ListOf):
            raise self.error(text, tree, f"{T.describe(base.type)} cannot be indexed with [...]", "RC304")
        self._require(key, T.INT, text, key_tree, "a list position")
        return Code(f"{base.src}[{key.src}]", base.type.item)

    def _table_lookup(self, name, keys, text, scope, tree):
        py_name, key_types, value_type = self.env.tables[name]
        if len(keys) != len(key_types):
            raise self.error(text, tree, f"table '{name}' takes {len(key_types)} key(s) "
                             f"in [...], not {len(keys)}", "RC304")
        src = py_name
        for key_tree, (key_type, offset) in zip(keys, key_types):
            key = self.expr(key_tree, text, scope)
            self._require(key, key_type, text, key_tree, f"a key of table '{name}'")
            src += f"[{key.src}{' - ' + repr(offset) if offset else ''}]"
        return Code(src, value_type)

    def _e_call(self, tree, text, scope):
        name_token, arg_tree = tree.children
        name = str(name_token)
        args = _args(arg_tree)
        if name in self.env.functions:
            return self._inline(self.env.functions[name], args, text, scope, name_token)
        if name in self.env.library:
            return self.env.library[name](self, args, text, scope, tree)
        hint = did_you_mean(name, list(self.env.functions) + list(self.env.library))
        raise self.error(text, name_token, f"unknown function '{name}'", "RC305",
                         hint or "functions are defined under define:, or come from the library")

    def procedure(self, function: Function):
        """A statement handler that inlines the effects of a designer-defined procedure."""
        def inline(compiler, args, text, scope, tree):
            if len(args) != len(function.params):
                raise self.error(text, tree, f"{function.name}() takes {len(function.params)} "
                                 f"argument(s), not {len(args)}", "RC306")
            if function.name in self._inlining:
                raise self.error(text, tree, f"{function.name}() calls itself; procedures may "
                                 "not be recursive", "RC307")
            inner = {}
            lines: list[str] = []
            for param, arg_tree in zip(function.params, args):
                value = self.expr(arg_tree, text, scope)
                self._locals += 1
                local = f"a{self._locals}_{param}"   # arguments are evaluated once, at the call
                lines.append(f"{local} = {value.src}")
                inner[param] = Binding(local, value.type)
            self._inlining.append(function.name)
            try:
                if function.tree is None:
                    function.tree = parse_effects(function.body)
                self._statements(function.tree, function.body, inner, lines, 0, self._rule)
            finally:
                self._inlining.pop()
            return lines or ["pass"]
        return inline

    def _inline(self, function: Function, args, text, scope, token):
        if len(args) != len(function.params):
            raise self.error(text, token, f"{function.name}() takes {len(function.params)} "
                             f"argument(s), not {len(args)}", "RC306")
        if function.name in self._inlining:
            raise self.error(text, token, f"{function.name}() calls itself; definitions may not "
                             "be recursive", "RC307")
        inner = {}
        for param, arg_tree in zip(function.params, args):
            value = self.expr(arg_tree, text, scope)
            inner[param] = Binding(f"({value.src})", value.type)
        self._inlining.append(function.name)
        try:
            if function.tree is None:
                function.tree = parse_formula(function.body)
            looked_up = self._board_formula(function, inner)
            if looked_up is not None:
                return looked_up
            code = self.expr(function.tree, function.body, inner)
        finally:
            self._inlining.pop()
        return Code(f"({code.src})", code.type, code.counted)

    def _board_formula(self, function: Function, inner: dict) -> Code | None:
        """A definition given one space and otherwise fixed values, whose formula reads only the
        board's attributes of that space (``depth(q.at, home)``), as a lookup in a table of its
        value on every space, computed now; None for any other use."""
        spaces = [p for p, b in inner.items() if b.type == T.SPACE and _literal(b.code) is None]
        if len(spaces) != 1 or not self.env.space_tables or \
                any(_literal(b.code) is None for p, b in inner.items() if p != spaces[0]):
            return None
        use = (function.name, tuple((p, _literal(b.code)) for p, b in inner.items() if p != spaces[0]))
        if use not in self._board_uses:     # once per definition and fixed values
            self._board_uses[use] = self._board_table(function, inner, spaces[0])
        found = self._board_uses[use]
        return None if found is None else Code(f"{found[0]}[{inner[spaces[0]].code}]", found[1])

    def _board_table(self, function: Function, inner: dict, space: str) -> tuple | None:
        """(table name, type) of ``function`` on every space, its other parameters fixed as in
        ``inner``, when its formula reads only the board's attributes of the space; else None."""
        on_z = dict(inner, **{space: Binding("z", T.SPACE)})
        code = self.expr(function.tree, function.body, on_z)
        tree = ast.parse(code.src, mode="eval").body
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        if code.type not in (T.INT, T.BOOL) or "z" not in names or \
                not names <= {"z"} | set(self.env.space_tables) or \
                not all(isinstance(n, HOISTABLE) for n in ast.walk(tree)) or \
                sum(isinstance(n, (ast.Subscript, ast.BinOp, ast.Compare))
                    for n in ast.walk(tree)) < 2:     # a lone SPACE_X[z]: nothing to gain
            return None
        if code.src not in self.env.board_formulas:
            spaces_count = len(next(iter(self.env.space_tables.values())))
            try:   # compiler-generated source over the board's tables, never spec text
                values = tuple(int(eval(code.src, dict(self.env.space_tables, z=z, __builtins__={})))
                               for z in range(spaces_count))
            except (ArithmeticError, LookupError):   # fails on some space: computed as written
                return None
            name = f"BOARD_{len(self.env.board_formulas) + 1}"
            self.env.board_formulas[code.src] = (name, f"{function.name}: {ast.unparse(tree)}", values)
        return self.env.board_formulas[code.src][0], code.type

    def _e_gather(self, tree, text, scope):
        name_token, value_tree, var_token, coll_tree, cond_tree = tree.children
        name = str(name_token)
        if name not in ("sum", "min", "max"):
            raise self.error(text, name_token, f"'{name}(... for ...)' is not a thing; use sum, "
                             "min or max with 'for'", "RC308",
                             "count, any and all take 'x in S where condition'")
        collection = self._collection(coll_tree, text, scope)
        inner = dict(scope)
        local = self._fresh(var_token)
        inner[str(var_token)] = Binding(local, collection.type.item)
        value = self.expr(value_tree, text, inner)
        self._require(value, T.INT, text, value_tree, f"the value summed by {name}()")
        parts = [value.src] + ([self._bool(cond_tree, text, inner)] if cond_tree is not None else [])
        head, parts = self.loop_head(local, collection.src, parts)
        generator = f"{parts[0]} {head}" + (f" if {parts[1]}" if len(parts) > 1 else "")
        if name == "sum":
            return Code(f"sum({generator})", T.INT)
        return Code(f"{name}(({generator}), default=0)", T.INT)

    def selection(self, tree, text, scope):
        """Compile ``x in S where c`` into (variable, collection Code, condition src, inner scope)."""
        var_tree, coll_tree, cond_tree = tree.children
        if var_tree.data != "name":
            raise self.error(text, var_tree, "put a new name before 'in', as in "
                             "'p in pieces where ...'", "RC308")
        var = var_tree.children[0]
        collection = self._collection(coll_tree, text, scope)
        inner = dict(scope)
        local = self._fresh(var)
        inner[str(var)] = Binding(local, collection.type.item)
        return local, collection, self._bool(cond_tree, text, inner), inner

    def loop_head(self, var: str, collection: str, parts: list[str]) -> tuple[str, list[str]]:
        """The ``for`` clauses of a comprehension over ``var in collection`` with body ``parts``,
        its loop-invariant parts computed once (see :func:`comprehension_head`), and the parts
        rewritten to read them."""
        def fresh() -> str:
            self._locals += 1
            return f"h_{self._locals}"
        return comprehension_head(var, collection, parts, fresh)

    def pieces_on(self, tree, text, scope) -> Code | None:
        """``count(p in T.pieces where p.at == Z)`` (or ``pieces`` for every team, or ``Z ==
        p.at``) read from the piece index instead of counted; None for any other selection.

        ``tree`` is the selection; ``T`` and ``Z`` must not mention ``p``. The index's slots are
        allocated on first use.
        """
        index = self.env.piece_index
        var_tree, coll_tree, cond_tree = tree.children
        if index is None or var_tree.data != "name" or cond_tree.data != "compare" \
                or str(cond_tree.children[1]) != "==":
            return None
        var = str(var_tree.children[0])
        left, _, right = cond_tree.children
        if not _is_at_of(left, var):
            left, right = right, left
        if not _is_at_of(left, var) or _mentions(right, var):
            return None
        if coll_tree.data == "attr" and str(coll_tree.children[1]) == "pieces" \
                and not _mentions(coll_tree, var):
            owner = self.expr(coll_tree.children[0], text, scope)
            if owner.type != T.TEAM:
                return None
            teams = [owner.src]
        elif coll_tree.data == "name" and str(coll_tree.children[0]) == "pieces" and "pieces" not in scope:
            teams = [repr(t) for t in range(index.teams)]
        else:
            return None
        space = self.expr(right, text, scope)
        if not T.compatible(T.SPACE, space.type):
            return None
        if index.base is None:
            index.base = self.env.allocate(index.teams * index.width)
        return Code("(" + " + ".join(index.slot(t, space.src) for t in teams) + ")", T.INT)

    def move_piece(self, piece_src: str, space_src: str) -> str:
        """The statement putting a piece on a space (-1: off the board), keeping the piece index."""
        return f"move_piece(s, {piece_src}, {space_src})"

    def _collection(self, tree, text, scope) -> Code:
        code = self.expr(tree, text, scope)
        if not isinstance(code.type, T.ListOf):
            raise self.error(text, tree, f"{T.describe(code.type)} is not a list to go through",
                             "RC309", "lists are pieces, spaces, teams, neighbors(z), t.pieces, ...")
        return code

    def _fresh(self, token) -> str:
        """A new Python name for the rule variable ``token``: definitions are inlined, so a
        variable of a definition's body must never capture a variable of its arguments."""
        self._locals += 1
        return f"{_local(token)}_{self._locals}"

    def _e_selection(self, tree, text, scope):
        raise self.error(text, tree, "'x in S where condition' only goes inside count(...), "
                         "any(...) or all(...)", "RC308")

    def _e_cond_expr(self, tree, text, scope):
        cond, yes, no = tree.children
        test = self._bool(cond, text, scope)
        a, b = self.expr(yes, text, scope), self.expr(no, text, scope)
        kind = _unify(a.type, b.type)
        if kind is None:
            raise self.error(text, no, f"both branches must give the same type: "
                             f"{T.describe(a.type)} and {T.describe(b.type)}", "RC310")
        if test in ("0", "1"):        # decided when compiling: keep only the branch taken
            return Code((a if test == "1" else b).src, kind)
        return Code(f"({a.src} if {test} else {b.src})", kind)

    def _e_or_op(self, tree, text, scope):
        left, right = (self._bool(c, text, scope) for c in tree.children)
        return Code(f"({left} or {right})", T.BOOL)

    def _e_and_op(self, tree, text, scope):
        left, right = (self._bool(c, text, scope) for c in tree.children)
        return Code(f"({left} and {right})", T.BOOL)

    def _e_not_op(self, tree, text, scope):
        return Code(f"(not {self._bool(tree.children[0], text, scope)})", T.BOOL)

    def _e_compare(self, tree, text, scope):
        left_tree, op, right_tree = tree.children
        left, right = self.expr(left_tree, text, scope), self.expr(right_tree, text, scope)
        if str(op) in ("==", "!="):
            if _unify(left.type, right.type) is None:
                raise self.error(text, op, f"cannot compare {T.describe(left.type)} with "
                                 f"{T.describe(right.type)}", "RC310")
        else:
            self._require(left, T.INT, text, left_tree, f"the left side of '{op}'")
            self._require(right, T.INT, text, right_tree, f"the right side of '{op}'")
        constants = _literal(left.src), _literal(right.src)
        if None not in constants:     # e.g. a team given to a definition as a fixed value
            return Code(repr(int(_COMPARE[str(op)](*constants))), T.BOOL)
        return _count_test(left, str(op), right) or _count_test(right, _FLIPPED[str(op)], left) \
            or Code(f"({left.src} {op} {right.src})", T.BOOL)

    def _e_in_op(self, tree, text, scope, negate=False):
        item = self.expr(tree.children[0], text, scope)
        collection = self._collection(tree.children[1], text, scope)
        if _unify(item.type, collection.type.item) is None:
            raise self.error(text, tree.children[0], f"{T.describe(item.type)} is never in "
                             f"{T.describe(collection.type)}", "RC310")
        return Code(f"({item.src} {'not in' if negate else 'in'} {collection.src})", T.BOOL)

    def _e_not_in_op(self, tree, text, scope):
        return self._e_in_op(tree, text, scope, negate=True)

    _e_add, _e_sub, _e_mul = _arithmetic("+"), _arithmetic("-"), _arithmetic("*")
    _e_div, _e_mod = _arithmetic("//"), _arithmetic("%")

    def _e_neg(self, tree, text, scope):
        value = self.expr(tree.children[0], text, scope)
        self._require(value, T.INT, text, tree.children[0], "the value after '-'")
        return Code(f"(-{value.src})", T.INT)

    def _bool(self, tree, text, scope) -> str:
        code = self.expr(tree, text, scope)
        self._require(code, T.BOOL, text, tree, "a condition")
        return code.src

    def _require(self, code: Code, expected, text, tree, what: str):
        if not T.compatible(expected, code.type):
            raise self.error(text, tree, f"{what} must be {T.describe(expected)}, "
                             f"not {T.describe(code.type)}", "RC310")

    # ---------- statements ----------
    def _statements(self, tree, text, scope, lines, indent, rule):
        for statement in tree.children:
            self._statement(statement, text, scope, lines, indent, rule)

    def _statement(self, tree, text, scope, lines, indent, rule):
        pad = "    " * indent
        kind = tree.data
        if kind in ("assign", "add_assign", "sub_assign"):
            target_tree, value_tree = tree.children
            target, owner = self._target(target_tree, text, scope)
            value = self.expr(value_tree, text, scope)
            if kind == "assign":
                if not T.compatible(target.type, value.type):
                    raise self.error(text, value_tree, f"cannot put {T.describe(value.type)} into "
                                     f"a place for {T.describe(target.type)}", "RC310")
                # booleans are stored as 0/1 so that a state is a list of plain ints
                src = f"int({value.src})" if value.type == T.BOOL and value.src not in ("0", "1") else value.src
                if owner is not None and owner.type == T.PIECE and str(target_tree.children[1]) == "at":
                    lines.append(pad + self.move_piece(owner.src, src))
                else:
                    lines.append(f"{pad}{target.src} = {src}")
                hidden = self._reveal_slot_of(target_tree)
                if hidden is not None:   # a new secret value is hidden until revealed again
                    lines.append(f"{pad}s[{hidden}] = 0")
            else:
                self._require(target, T.INT, text, target_tree, "the changed value")
                self._require(value, T.INT, text, value_tree, "the amount")
                lines.append(f"{pad}{target.src} {'+=' if kind == 'add_assign' else '-='} {value.src}")
        elif kind == "if_stmt":
            cond, block, other = tree.children
            lines.append(f"{pad}if {self._bool(cond, text, scope)}:")
            self._block(block, text, scope, lines, indent + 1, rule)
            if other is not None:
                lines.append(f"{pad}else:")
                if other.data == "if_stmt":
                    self._statement(other, text, scope, lines, indent + 1, rule)
                else:
                    self._block(other, text, scope, lines, indent + 1, rule)
        elif kind == "for_stmt":
            var, coll_tree, cond_tree, block = tree.children
            collection = self._collection(coll_tree, text, scope)
            inner = dict(scope)
            local = self._fresh(var)
            inner[str(var)] = Binding(local, collection.type.item)
            lines.append(f"{pad}for {local} in {collection.src}:")
            if cond_tree is not None:
                lines.append(f"{pad}    if not {self._bool(cond_tree, text, inner)}:")
                lines.append(f"{pad}        continue")
            self._block(block, text, inner, lines, indent + 1, rule)
        elif kind == "goto_stmt":
            label = str(tree.children[0])
            if label not in self.env.goto_targets:
                hint = did_you_mean(label, self.env.goto_targets)
                raise self.error(text, tree.children[0], f"no phase or step is called '{label}'",
                                 "RC312", hint)
            lines.append(f"{pad}return {self.env.goto_targets[label]!r}  # goto {label}")
        elif kind == "stop_stmt":
            lines.append(f"{pad}return {STOP!r}  # stop")
        elif kind == "finish_stmt":
            lines.append(f"{pad}return {FINISH!r}  # finish")
        elif kind == "reveal_stmt":
            name_tree = tree.children[0]
            name = str(name_tree.children[-1]) if name_tree.data == "name" else None
            if name not in self.env.reveal_slots:
                raise self.error(text, name_tree, "only a state field declared with "
                                 "'until: revealed' can be revealed", "RC313",
                                 did_you_mean(name or "", self.env.reveal_slots))
            lines.append(f"{pad}s[{self.env.reveal_slots[name]}] = 1")
        elif kind == "event_stmt":
            lines.append(f"{pad}if ev is not None:")
            lines.append(f"{pad}    ev.append({self._event(tree, text, scope, rule)})")
        elif kind == "call_stmt":
            name_token, arg_tree = tree.children
            procedure = self.env.procedures.get(str(name_token))
            if procedure is None:
                raise self.error(text, name_token, f"'{name_token}' is not an effect", "RC305",
                                 did_you_mean(str(name_token), self.env.procedures) or
                                 "effects are assignments, if, for, goto, stop, finish, reveal, "
                                 "event, " + ", ".join(sorted(self.env.procedures)))
            lines.extend(pad + line for line in procedure(self, _args(arg_tree), text, scope, tree))
        else:  # pragma: no cover - the grammar has no other statements
            raise self.error(text, tree, "this is not an effect", "RC311")

    def _reveal_slot_of(self, target_tree):
        """The revealed-flag slot of the secret field a target names, or None."""
        if target_tree.data == "attr":
            return self.env.reveal_slots.get(str(target_tree.children[1]))
        return None

    def _block(self, block, text, scope, lines, indent, rule):
        before = len(lines)
        self._statements(block.children[0], text, scope, lines, indent, rule)
        if len(lines) == before:
            lines.append("    " * indent + "pass")

    def _target(self, tree, text, scope) -> tuple[Code, Code | None]:
        """The place an assignment changes, and the entity owning it (None for a global field)."""
        if tree.data == "name":
            word = str(tree.children[0])
            binding = scope.get(word) or self.env.names.get(word)
            if binding is None or not binding.assignable:
                what = "unknown name" if binding is None else "it cannot be changed"
                raise self.error(text, tree, f"cannot assign to '{word}': {what}", "RC314",
                                 "only state fields can change; declare it under state:")
            return Code(binding.code, binding.type), None
        owner = self.expr(tree.children[0], text, scope)
        code, assignable = self._attribute(owner, str(tree.children[1]), text, tree.children[1])
        if not assignable:
            raise self.error(text, tree.children[1], f"'{tree.children[1]}' is fixed by the "
                             "board or the pieces and cannot be changed", "RC314")
        return code, owner

    def _event(self, tree, text, scope, rule) -> str:
        name_token, kwargs = tree.children
        items = []
        schema = self.env.events.setdefault(str(name_token), {})
        for kwarg in (kwargs.children if kwargs is not None else []):
            key, value_tree = kwarg.children
            value = self.expr(value_tree, text, scope)
            known = schema.get(str(key))
            if known not in (None, T.NONE, value.type) and value.type != T.NONE:
                raise self.error(text, value_tree, f"event '{name_token}' had '{key}' as "
                                 f"{T.describe(known)} elsewhere", "RC315")
            if known is None or known == T.NONE:
                schema[str(key)] = value.type
            items.append(f"{str(key)!r}: {value.src}")
        return f"({str(name_token)!r}, {rule!r}, {{{', '.join(items)}}})"


def _args(tree) -> list:
    return list(tree.children) if tree is not None else []


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
            "<=": operator.le, ">=": operator.ge}


def _literal(src: str) -> int | None:
    """The value of Python source that is a plain whole number (in parentheses or not), or None."""
    inner = src.strip("()")
    negative = inner.startswith("-")
    digits = inner[1:] if negative else inner
    return (-int(digits) if negative else int(digits)) if digits.isdigit() else None


_FLIPPED = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


def _count_test(count: Code, op: str, bound: Code) -> Code | None:
    """``count(x in S where C) op k`` for a whole number ``k``, as a test that stops going through
    S as soon as the answer is known (``any`` for more than none, ``at_least`` otherwise); None
    when ``count`` is no such count or ``k`` no plain number."""
    k = _literal(bound.src)
    if count.counted is None or k is None or k < 0:
        return None
    var, head, cond = count.counted
    # the least number of items satisfying C that makes the test true, and whether it is negated
    least, negate = {">=": (k, False), ">": (k + 1, False), "<": (k, True), "<=": (k + 1, True),
                     "==": (1, True) if k == 0 else (None, False),
                     "!=": (1, False) if k == 0 else (None, False)}[op]
    if least is None:
        return None
    if least == 0:
        return Code("0" if negate else "1", T.BOOL)
    if least == 1:
        test = f"any({cond} {head})"
    else:
        test = f"at_least({least}, ({var} {head} if {cond}))"
    return Code(f"(not {test})" if negate else test, T.BOOL)


def _is_at_of(tree, var: str) -> bool:
    """Whether ``tree`` is ``var.at``."""
    return (tree.data == "attr" and str(tree.children[1]) == "at" and tree.children[0].data == "name"
            and str(tree.children[0].children[0]) == var)


def _mentions(tree, var: str) -> bool:
    """Whether the name ``var`` appears anywhere in ``tree``."""
    return any(isinstance(token, Token) and token.type == "NAME" and str(token) == var
               for token in tree.scan_values(lambda _: True))


def _local(token) -> str:
    return f"v_{token}"


def _entity_family(kind):
    if isinstance(kind, str) and kind.startswith("enum:"):
        return "enum"
    return kind


def _unify(a, b):
    if T.compatible(a, b):
        return a
    if T.compatible(b, a):
        return b
    return None
