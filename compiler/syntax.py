"""The rule language's syntax tree: Lark's parse tree turned into small classes that know where
they stand in the spec file.

Nothing here knows what a name means: :mod:`checker` resolves names and types. A node's
:class:`Where` is the position of its first token (the parser keeps no positions of its own,
which makes it faster); keywords are not tokens of the tree, so ``not x`` stands at ``x``.

Source: ``compiler/grammar.lark``; Lark's Transformer (``lark/visitors.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lark import Token, Transformer

from rulecraft.errors import Position
from rulecraft.loader import Text
from rulecraft.compiler.parser import parse_effects, parse_formula


@dataclass(frozen=True, slots=True)
class Where:
    """A place in a rule string: character ``offset`` of ``text`` (a positioned :class:`Text`)."""

    text: object = field(repr=False)
    offset: int = 0

    @property
    def position(self) -> Position | None:
        """The ``file:line:col`` of the place, or None for text without a position."""
        if isinstance(self.text, Text):
            return self.text.at(self.offset)
        return None


def whole(text) -> Where:
    """The start of ``text``: where a message about the text as a whole points."""
    return Where(text, 0)


# ---------------------------------------------------------------- expressions
@dataclass(eq=False, slots=True)
class Node:
    """A node of the syntax tree; ``where`` is its first token's place."""

    where: Where


@dataclass(eq=False, slots=True)
class Num(Node):
    value: int


@dataclass(eq=False, slots=True)
class Str(Node):
    """A quoted word: names a team, space, kind or value (``"8E"``, for names that are not words)."""

    word: str


@dataclass(eq=False, slots=True)
class Literal(Node):
    """``true``, ``false`` or ``none``."""

    word: str


@dataclass(eq=False, slots=True)
class Name(Node):
    word: str


@dataclass(eq=False, slots=True)
class Attr(Node):
    owner: Node
    name: str
    name_where: Where


@dataclass(eq=False, slots=True)
class Index(Node):
    base: Node
    key: Node


@dataclass(eq=False, slots=True)
class Call(Node):
    name: str
    args: list


@dataclass(eq=False, slots=True)
class Comprehension(Node):
    """``[value for var in source where cond]``, or ``until cond`` (``until`` true: the items
    before the first for which ``cond`` holds). ``deprecated``: written the old way,
    ``var in source where cond``; ``var`` is then None when what stands before ``in`` is not a
    name."""

    value: Node
    var: str | None
    var_where: Where
    source: Node
    cond: Node | None
    until: bool = False
    deprecated: bool = False


@dataclass(eq=False, slots=True)
class Unary(Node):
    op: str            # "-" or "not"
    operand: Node


@dataclass(eq=False, slots=True)
class Binary(Node):
    op: str            # + - * // %
    left: Node
    right: Node


@dataclass(eq=False, slots=True)
class Compare(Node):
    op: str            # == != < <= > >=
    left: Node
    right: Node
    op_where: Where


@dataclass(eq=False, slots=True)
class Logic(Node):
    op: str            # "and" or "or"
    left: Node
    right: Node


@dataclass(eq=False, slots=True)
class Cond(Node):
    test: Node
    yes: Node
    no: Node


@dataclass(eq=False, slots=True)
class In(Node):
    item: Node
    collection: Node
    negate: bool


@dataclass(eq=False, slots=True)
class ListLit(Node):
    items: list


# ---------------------------------------------------------------- statements
@dataclass(eq=False, slots=True)
class Assign(Node):
    target: Node       # a Name or an Attr
    op: str            # "=", "+=" or "-="
    value: Node


@dataclass(eq=False, slots=True)
class If(Node):
    test: Node
    then: list
    other: list = field(default_factory=list)


@dataclass(eq=False, slots=True)
class For(Node):
    """``for var in source where cond do {body}``, or ``until cond`` (``until`` true)."""

    var: str
    var_where: Where
    source: Node
    cond: Node | None
    body: list
    until: bool = False


@dataclass(eq=False, slots=True)
class While(Node):
    test: Node
    limit: Node        # the most rounds, fixed when compiling
    body: list


@dataclass(eq=False, slots=True)
class Let(Node):
    """``let name = value``: a statement (``body`` None) or, with ``; body``, a formula."""

    name: str
    value: Node
    body: Node | None = None


@dataclass(eq=False, slots=True)
class Goto(Node):
    label: str


@dataclass(eq=False, slots=True)
class Stop(Node):
    pass


@dataclass(eq=False, slots=True)
class Finish(Node):
    pass


@dataclass(eq=False, slots=True)
class Reveal(Node):
    target: Node


@dataclass(eq=False, slots=True)
class Event(Node):
    kind: str
    items: list        # (key, key Where, value Node)


@dataclass(eq=False, slots=True)
class Perform(Node):
    """A statement call: a procedure or a library effect, ``name(args)``."""

    name: str
    args: list


class _Build(Transformer):
    """Lark's tree of one rule string → syntax nodes (see the module docstring)."""

    def __init__(self, text):
        super().__init__(visit_tokens=False)
        self.text = text

    def _at(self, item) -> Where:
        if isinstance(item, Token):
            return Where(self.text, item.start_pos or 0)
        if isinstance(item, Node):
            return item.where
        if isinstance(item, list):
            return self._at(item[0]) if item else Where(self.text, 0)
        return Where(self.text, 0)

    def _first(self, children) -> Where:
        return next((self._at(c) for c in children if c is not None), Where(self.text, 0))

    # statements
    def effects(self, children):
        return [c for c in children if c is not None]

    def block(self, children):
        return children[0]

    def assign(self, children, op="="):
        return Assign(self._first(children), children[0], op, children[1])

    def add_assign(self, children):
        return self.assign(children, "+=")

    def sub_assign(self, children):
        return self.assign(children, "-=")

    def if_stmt(self, children):
        test, then, other = children
        if isinstance(other, If):
            other = [other]
        return If(self._at(test), test, then, other or [])

    def for_stmt(self, children):
        (var, source, cond, until), body = children
        return For(self._at(var), str(var), self._at(var), source, cond, body, until)

    def binder(self, children):
        """``for var in source`` and its filter: ``(var token, source, cond, until)``."""
        var, source, (cond, until) = children[0], children[1], children[2] or (None, False)
        return var, source, cond, until

    def where_filter(self, children):
        return children[0], False

    def until_filter(self, children):
        return children[0], True

    def while_stmt(self, children):
        test, limit, body = children
        return While(self._at(test), test, limit, body)

    def let_stmt(self, children):
        name, value = children
        return Let(self._at(name), str(name), value)

    def let_expr(self, children):
        name, value, body = children
        return Let(self._at(name), str(name), value, body)

    def goto_stmt(self, children):
        return Goto(self._at(children[0]), str(children[0]))

    def stop_stmt(self, children):
        return Stop(self._at(children[0]))

    def finish_stmt(self, children):
        return Finish(self._at(children[0]))

    def reveal_stmt(self, children):
        return Reveal(self._at(children[0]), children[0])

    def event_stmt(self, children):
        name, kwargs = children
        return Event(self._at(name), str(name), kwargs or [])

    def kwargs(self, children):
        return children

    def kwarg(self, children):
        key, value = children
        return (str(key), self._at(key), value)

    def call_stmt(self, children):
        name, args = children
        return Perform(self._at(name), str(name), args or [])

    # expressions
    def args(self, children):
        return children

    def int_lit(self, children):
        return Num(self._at(children[0]), int(children[0]))

    def str_lit(self, children):
        return Str(self._at(children[0]), str(children[0])[1:-1])

    def true_lit(self, children):
        return Literal(self._at(children[0]), "true")

    def false_lit(self, children):
        return Literal(self._at(children[0]), "false")

    def none_lit(self, children):
        return Literal(self._at(children[0]), "none")

    def name(self, children):
        return Name(self._at(children[0]), str(children[0]))

    def attr(self, children):
        owner, name = children
        return Attr(self._at(owner), owner, str(name), self._at(name))

    def index(self, children):
        return Index(self._at(children[0]), children[0], children[1])

    def call(self, children):
        name, args = children
        return Call(self._at(name), str(name), args or [])

    def comprehension(self, children):
        value, (var, source, cond, until) = children
        return Comprehension(self._at(value), value, str(var), self._at(var), source, cond, until)

    def sole_comprehension(self, children):
        """``f(E for x in S where C)``: a call whose one argument is a comprehension."""
        name, *comprehension = children
        return Call(self._at(name), str(name), [self.comprehension(comprehension)])

    def selection(self, children, until=False):
        var, source, cond = children
        word = var.word if isinstance(var, Name) else None
        return Comprehension(var.where, var, word, var.where, source, cond, until, deprecated=True)

    def run(self, children):
        return self.selection(children, until=True)

    def cond_expr(self, children):
        return Cond(self._at(children[0]), *children)

    def or_op(self, children):
        return Logic(self._at(children[0]), "or", *children)

    def and_op(self, children):
        return Logic(self._at(children[0]), "and", *children)

    def not_op(self, children):
        return Unary(self._at(children[0]), "not", children[0])

    def neg(self, children):
        return Unary(self._at(children[0]), "-", children[0])

    def compare(self, children):
        left, op, right = children
        return Compare(self._at(left), str(op), left, right, self._at(op))

    def in_op(self, children):
        return In(self._at(children[0]), children[0], children[1], False)

    def not_in_op(self, children):
        return In(self._at(children[0]), children[0], children[1], True)

    def add(self, children):
        return Binary(self._at(children[0]), "+", *children)

    def sub(self, children):
        return Binary(self._at(children[0]), "-", *children)

    def mul(self, children):
        return Binary(self._at(children[0]), "*", *children)

    def div(self, children):
        return Binary(self._at(children[0]), "//", *children)

    def mod(self, children):
        return Binary(self._at(children[0]), "%", *children)

    def list_lit(self, children):
        items = children[0] or []
        return ListLit(self._first(items) if items else Where(self.text, 0), items)


def formula(text) -> Node:
    """The syntax tree of a condition or value formula.

    Raises :class:`rulecraft.errors.RuleSyntaxError` (RC201–RC204) positioned in the spec file.
    """
    return _Build(text).transform(parse_formula(text))


def effects(text) -> list:
    """The statements of an effect string, in order (same errors as :func:`formula`)."""
    return _Build(text).transform(parse_effects(text))
