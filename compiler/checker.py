"""The checker: rule-language syntax trees → typed IR, every name resolved and every type checked.

For each formula the checker resolves names (scope first, then the spec's symbols), checks types,
inlines the designer's definitions, expands the standard library (:mod:`library`) and tracks which
values may be none. A value that may be none (``first(...)``, ``p.at``, an entity field without an
``initial:``) may not be used where a real team, space, piece or kind is needed — reading its
attributes, looking it up in a table — unless a condition has ruled none out: ``z != none and
z.low`` reads ``z.low`` knowing ``z`` is a space. In a spec of ``language: 2`` such a use is an
error; in older specs it is a warning, and the generated code checks the value at play time (a
:class:`rulecraft.errors.RuleFault` then names the spec line, and the state is left unchanged).

Errors are :class:`rulecraft.errors.SpecError` (RC3xx) at the offending token.
"""

from __future__ import annotations

from dataclasses import replace

from rulecraft.errors import SpecError, SpecWarning, did_you_mean
from rulecraft.compiler import ir, syntax
from rulecraft.compiler import types as T
from rulecraft.compiler.rewrite import upgraded
from rulecraft.compiler.facts import NONE, Scope, checked_facts, facts_of, global_facts, path, scope_of
from rulecraft.compiler.symbols import Function, Symbols
from rulecraft.compiler.walk import walk

# a definition whose formula has more parts than this becomes a named function, when the
# arguments it is given are not fixed values (those are copied in, to be folded) and it is not
# computed once per item of a loop (a selection, the legal actions: there a call costs too much)
ROUTINE_PARTS = 100


class Checker:
    """Check the rule strings of one spec against its :class:`Symbols` (see the module
    docstring). ``library`` maps function names to handlers ``(checker, node, args, scope)``."""

    def __init__(self, symbols: Symbols, library: dict):
        self.symbols = symbols
        self.library = library
        self._inlining: list[str] = []
        self._calls: list = []          # (definition, where it is used) of the definitions being inlined
        self.loops = 0                  # > 0 while checking what is computed once per item of a loop
        self._warned: set = set()

    # ---------- entry points ----------
    def formula(self, text, scope: Scope | dict | None = None, expect=None, what="formula") -> ir.Expr:
        """The IR of the formula ``text``; ``expect`` (a type) is checked when given (RC310)."""
        node = syntax.formula(text)
        value = self.expr(node, scope_of(scope))
        if expect is not None and not T.compatible(expect, value.type):
            raise self.error(node.where, f"this {what} gives {T.describe(value.type)}, "
                             f"but {T.describe(expect)} is needed", "RC310")
        return value

    def condition(self, text, scope=None) -> ir.Expr:
        """The IR of the condition ``text`` (a truth value)."""
        return self.formula(text, scope, T.BOOL, "condition")

    # ---------- errors and warnings ----------
    def error(self, where, message: str, code: str, hint: str | None = None) -> SpecError:
        """A :class:`SpecError` at ``where`` (a :class:`syntax.Where`) for the caller to raise."""
        return SpecError(message, where.position if where is not None else None, code=code, hint=hint)

    def nonnull(self, value: ir.Expr, where, what: str) -> ir.Expr:
        """``value`` where a real entity is needed (a place to write, a piece to move):
        unchanged when it cannot be none; else (a spec of language 2) RC317, or a warning and
        ``value`` checked at play time."""
        if not value.nullable:
            return value
        self._complain(where, what)
        return self.checked(value, where, f"{what}: the value is none")

    def guard(self, owner: ir.Expr, read: ir.Expr, where, what: str) -> ir.Expr:
        """``read`` (an attribute or lookup of ``owner``) where ``owner`` must be a real entity:
        ``read`` itself when ``owner`` cannot be none; else (language 2) RC317, or a warning and
        ``read`` guarded by a check of ``owner`` at play time."""
        if not owner.nullable:
            return read
        self._complain(where, what)
        return ir.Guarded(type=read.type, where=read.where, check=owner, value=read, nullable=read.nullable,
                          fault=self.fault(where, f"{what}: the value is none"))

    def _complain(self, where, what: str) -> None:
        """RC317 in a spec of language 2; a warning (once per place) before."""
        # the value that may be none: a call's result (step(z, d).mark), else the first name
        owner = what.rsplit(".", 1)[0] if ")." in what else what.split(".")[0]
        hint = f"write '{owner} != none and ...' first, or give the field an initial: value"
        message = f"'{what}' needs a value here, but it may be none"
        if self._calls:
            name, used = self._calls[0]
            position = used.position if used is not None else None
            message += f" (in {name}(), used at line {position.line})" if position else f" (in {name}())"
        if self.symbols.language >= 2:
            raise self.error(where, message, "RC317", hint)
        self.warn(where, "RC317", message, hint, what)

    def warn(self, where, code: str, message: str, hint: str | None = None, once: str | None = None) -> None:
        """A :class:`SpecWarning` at ``where``, given once per place and ``once`` (default: the
        message)."""
        position = where.position if where is not None else None
        if (position, once or message) not in self._warned:
            self._warned.add((position, once or message))
            self.symbols.warnings.append(SpecWarning(code, message, position, hint))

    def fault(self, where, what: str) -> int:
        """The number of a new play-time failure at ``where`` saying ``what`` (raised by the
        generated code as :class:`rulecraft.errors.RuleFault`, RC405)."""
        self.symbols.faults.append((where, what))
        return len(self.symbols.faults) - 1

    def checked(self, value: ir.Expr, where, what: str) -> ir.Expr:
        """``value``, checked at play time not to be none (if it may be): a failed check
        raises :class:`rulecraft.errors.RuleFault` saying ``what`` at ``where``."""
        if not value.nullable:
            return value
        return ir.Checked(type=value.type, where=getattr(value, "where", None), value=value,
                          fault=self.fault(where, what))

    # ---------- expressions ----------
    def expr(self, node, scope: Scope) -> ir.Expr:
        """The IR of one syntax ``node`` with the names and facts of ``scope``."""
        handler = getattr(self, "_" + type(node).__name__, None)
        if handler is None:
            raise self.error(node.where, "this construct is not a value", "RC311")
        return self.known(handler(node, scope), scope)

    def typed(self, node, scope: Scope, kind, what: str) -> ir.Expr:
        """The IR of ``node``, which must be of type ``kind`` (RC310 otherwise)."""
        value = self.expr(node, scope)
        self.require(value, kind, node, what)
        return value

    def require(self, value: ir.Expr, kind, node, what: str) -> None:
        if not T.compatible(kind, value.type):
            raise self.error(node.where, f"{what} must be {T.describe(kind)}, "
                             f"not {T.describe(value.type)}", "RC310")

    def truth(self, node, scope: Scope) -> ir.Expr:
        return self.typed(node, scope, T.BOOL, "a condition")

    def _Num(self, node, scope):
        return ir.Const(type=T.INT, where=node.where, value=node.value)

    def _Literal(self, node, scope):
        if node.word == "none":
            return ir.Const(type=T.NONE, where=node.where, value=NONE, nullable=True)
        return ir.Const(type=T.BOOL, where=node.where, value=int(node.word == "true"))

    def _Str(self, node, scope):
        found = self.symbols.names.get(node.word)
        if not (isinstance(found, ir.Const) and T.is_entity(found.type)):
            hint = did_you_mean(node.word, [n for n, e in self.symbols.names.items()
                                            if isinstance(e, ir.Const) and T.is_entity(e.type)])
            raise self.error(node.where, f"'{node.word}' names no team, space, piece kind or value",
                             "RC301", hint)
        return replace(found, where=node.where)

    def _Name(self, node, scope):
        word = node.word
        value = scope.names.get(word)
        if value is None and scope.inherited.get(word):
            raise self.error(node.where, scope.inherited[word], "RC371",
                             "give the actions that offer this one the same parameters, or read only those they share")
        if value is None:
            value = self.symbols.names.get(word)
        if value is None:
            function = self.symbols.functions.get(word)
            if function is not None and not function.params:
                return self.inline(function, [], node, scope)
            builtin = self.symbols.builtins.get(word)
            if builtin is not None:            # a direction, or a list of them: the spec's names come first
                self.symbols.directions_used = True
                return replace(builtin, where=node.where)
            if word in self.symbols.functions or word in self.library:
                raise self.error(node.where, f"'{word}' is a function: call it as {word}(...)", "RC302")
            if word in self.symbols.tables:
                raise self.error(node.where, f"'{word}' is a table: look a value up as {word}[...]", "RC302")
            hint = did_you_mean(word, list(scope.names) + list(self.symbols.names))
            raise self.error(node.where, f"unknown name '{word}'", "RC301",
                             hint or "declare it under state:, options: or define:")
        return value

    def known(self, value: ir.Expr, scope: Scope) -> ir.Expr:
        """``value`` with what ``scope`` knows of it: not none where a test ruled that out
        (a test on any value computed the same way from the same inputs, :func:`path`)."""
        if value.nullable and scope.facts and path(value) in scope.facts:
            return replace(value, nullable=False)
        return value

    def _Attr(self, node, scope):
        owner = self.expr(node.owner, scope)
        return self.attribute(owner, node.name, node.name_where, scope, _spelled(node.owner))[0]

    def attribute(self, owner: ir.Expr, name: str, where, scope: Scope, owner_text: str, write: bool = False):
        """``(IR of owner.name, the Attribute)``; RC303 when ``owner``'s family has no ``name``.
        ``write``: the attribute is assigned (a none owner is then checked in the slot's index)."""
        family = _family(owner.type)
        found = self.symbols.attributes.get((family, name))
        if found is None:
            known = sorted(attr for fam, attr in self.symbols.attributes if fam == family)
            what = T.describe(owner.type)
            if not known:
                raise self.error(where, f"{what} has no attributes", "RC303")
            raise self.error(where, f"{what} has no attribute '{name}'", "RC303",
                             did_you_mean(name, known) or "known: " + ", ".join(known))
        what = f"{owner_text}.{name}"
        if write:
            index = self.nonnull(owner, where, what)
            return ir.Slot(type=found.type, where=where, field=found.field, index=index,
                           nullable=found.field.nullable and T.is_entity(found.type)), found
        return self.guard(owner, self._read(owner, found, where, scope), where, what), found

    def _read(self, index: ir.Expr, found, where, scope: Scope) -> ir.Expr:
        """The attribute ``found`` of the entity ``index``."""
        if found.kind == "field":
            value = ir.Slot(type=found.type, where=where, field=found.field, index=index,
                            nullable=found.field.nullable and T.is_entity(found.type))
            return self.known(value, scope)
        if found.kind == "static":
            return ir.Static(type=found.type, where=where, table=found.table, keys=(index,))
        if found.kind == "via_kind":
            kind = ir.Static(type=T.KIND, where=where, table=self.symbols.static("PIECE_KIND"),
                             keys=(index,))
            return ir.Static(type=found.type, where=where, table=found.table, keys=(kind,))
        if found.kind == "opponent":
            return ir.Binary(type=T.TEAM, where=where, op="-", left=_int(1), right=index)
        if found.kind == "next":
            step = ir.Binary(type=T.INT, op="+", left=index, right=_int(1))
            return ir.Binary(type=T.TEAM, where=where, op="%", left=step, right=_int(self.symbols.team_count))
        # a space's pieces: every piece standing there
        piece = ir.Symbol("p", "local")
        at = self.symbols.attributes[(T.PIECE, "at")].field
        standing = ir.Compare(type=T.BOOL, op="==", right=index,
                              left=ir.Slot(type=T.SPACE, field=at, index=ir.Var(type=T.PIECE, symbol=piece)))
        return ir.Comprehension(type=T.ListOf(T.PIECE), where=where, var=piece,
                                source=self.all_of(T.PIECE), cond=standing)

    def all_of(self, kind) -> ir.Expr:
        """Every team, space or piece, in order: a list of ``kind``."""
        count = {T.TEAM: self.symbols.team_count, T.SPACE: self.symbols.space_count,
                 T.PIECE: self.symbols.piece_count}[kind]
        return ir.Span(type=T.ListOf(kind), low=_int(0), high=_int(count - 1))

    def _Index(self, node, scope):
        chain = [node.key]
        base = node.base
        while isinstance(base, syntax.Index):
            chain.insert(0, base.key)
            base = base.base
        if isinstance(base, syntax.Name) and base.word in self.symbols.tables \
                and base.word not in scope.names:
            return self.table_lookup(base.word, chain, node, scope)
        collection = self.expr(node.base, scope)
        if not isinstance(collection.type, T.ListOf):
            raise self.error(node.where, f"{T.describe(collection.type)} cannot be indexed with [...]",
                             "RC304")
        key = self.typed(node.key, scope, T.INT, "a list position")
        if isinstance(key, ir.Const):
            if key.value < 0:
                raise self.error(node.key.where, "a list position counts from 0", "RC304")
        else:
            key = ir.InRange(type=T.INT, where=node.key.where, value=key, low=0, high=None,
                             fault=self.fault(node.key.where, "a list position below 0"))
        return ir.ItemAt(type=collection.type.item, where=node.where, items=collection, position=key,
                         nullable=_items_nullable(collection))

    def table_lookup(self, name, keys, node, scope):
        table, key_types = self.symbols.tables[name]
        if len(keys) != len(key_types):
            raise self.error(node.where, f"table '{name}' takes {len(key_types)} key(s) "
                             f"in [...], not {len(keys)}", "RC304")
        checked, unsure = [], []
        for key_node, key_ir in zip(keys, table.keys):
            key = self.typed(key_node, scope, key_ir.type, f"a key of table '{name}'")
            if key_ir.type == T.INT:
                low, high = key_ir.offset, key_ir.offset + len(key_ir.labels) - 1
                if isinstance(key, ir.Const):
                    if not low <= key.value <= high:
                        raise self.error(key_node.where, f"table '{name}' has no row {key.value} "
                                         f"(its keys run from {low} to {high})", "RC304")
                else:
                    key = ir.InRange(type=T.INT, where=key_node.where, value=key, low=low, high=high,
                                     fault=self.fault(key_node.where, f"a key of table '{name}' outside "
                                                      f"{low}..{high}"))
            elif key.nullable:
                unsure.append((key, key_node))
            checked.append(key)
        value = ir.Static(type=table.value_type, where=node.where, table=table.static, keys=tuple(checked))
        for key, key_node in unsure:
            value = self.guard(key, value, key_node.where, f"{name}[{_spelled(key_node)}]")
        return value

    def _Call(self, node, scope):
        if node.name in self.symbols.functions:
            return self.inline(self.symbols.functions[node.name], node.args, node, scope)
        if node.name in self.library:
            return self.library[node.name](self, node, node.args, scope)
        hint = did_you_mean(node.name, list(self.symbols.functions) + list(self.library))
        raise self.error(node.where, f"unknown function '{node.name}'", "RC305",
                         hint or "functions are defined under define:, or come from the library")

    def inline(self, function: Function, args, node, scope: Scope) -> ir.Expr:
        """A definition's formula with its parameters bound to the IR of ``args`` (checked in
        the caller's scope, whose facts still hold inside). RC306 arity, RC307 recursion."""
        if len(args) != len(function.params):
            raise self.error(node.where, f"{function.name}() takes {len(function.params)} "
                             f"argument(s), not {len(args)}", "RC306")
        if function.name in self._inlining:
            raise self.error(node.where, f"{function.name}() calls itself; definitions may not "
                             "be recursive", "RC307")
        values = [self.expr(arg, scope) for arg in args]
        if function.tree is None:
            function.tree = syntax.formula(function.body)
        routine = self.routine(function, values, node, scope)
        if routine is not None:
            return ir.Call(type=routine.type, where=node.where, routine=routine, args=tuple(values),
                           nullable=routine.body.nullable)
        return self._body(function, dict(zip(function.params, values)), node, scope.facts)

    def _body(self, function: Function, names: dict, node, facts) -> ir.Expr:
        self._inlining.append(function.name)
        self._calls.append((function.name, node.where))
        try:
            return self.expr(function.tree, Scope(names, facts))
        finally:
            self._inlining.pop()
            self._calls.pop()

    def routine(self, function: Function, values: list, node, scope: Scope):
        """The named function that stands for ``function`` given ``values`` (one per argument
        type and what is known around it), or None when the formula is better copied in: it is
        small, or an argument is a fixed value that would fold."""
        if not values or self.loops or any(isinstance(v, ir.Const) for v in values):
            return None
        facts = global_facts(scope.facts)
        key = (function.name, tuple((v.type, v.nullable) for v in values), facts)
        if key not in self.symbols.routines:
            params = tuple(ir.Symbol(p, "argument") for p in function.params)
            names = {p: ir.Var(type=v.type, symbol=s, nullable=v.nullable)
                     for p, v, s in zip(function.params, values, params)}
            body = self._body(function, names, node, facts)
            if sum(1 for _ in walk(body)) <= ROUTINE_PARTS:
                self.symbols.routines[key] = None
            else:
                number = sum(1 for r in self.symbols.routines.values() if r is not None and r.name == function.name)
                self.symbols.routines[key] = ir.RoutineIR(function.name, number + 1, "formula", params, body,
                                                          body.type)
        return self.symbols.routines[key]

    def binder(self, name: str, where, source_node, scope: Scope):
        """``(symbol, source list IR, scope with the name bound)`` of ``name in source``; RC370
        when ``name`` is a parameter the formula takes from the action that started its chain."""
        self.fresh_name(name, where, scope)
        source = self.collection(source_node, scope)
        symbol = ir.Symbol(name, "local")
        return symbol, source, scope.bind(name, ir.Var(type=source.type.item, where=where, symbol=symbol,
                                                       nullable=_items_nullable(source)))

    def _Comprehension(self, node, scope):
        """``[E for x in S where C]`` (or ``until C``, or no filter) as the list of E over the
        items of S that satisfy C; E that is ``x`` itself keeps the items (no value)."""
        if node.deprecated:
            self.deprecated(node)
        if node.var is None:
            raise self.error(node.where, "put a new name before 'in', as in "
                             "'p in pieces where ...'", "RC308")
        var, source, inner = self.binder(node.var, node.var_where, node.source, scope)
        cond = None
        self.loops += 1
        try:
            if node.cond is not None:
                cond = self.truth(node.cond, inner)
                inner = inner.knowing(facts_of(cond, not node.until) | checked_facts(cond))
            value = self.expr(node.value, inner)
        finally:
            self.loops -= 1
        stop, cond = (cond, None) if node.until else (None, cond)
        if isinstance(value, ir.Var) and value.symbol is var:
            return ir.Comprehension(type=source.type, where=node.where, var=var, source=source,
                                    cond=cond, stop=stop)
        return ir.Comprehension(type=T.ListOf(value.type), where=node.where, var=var, source=source,
                                cond=cond, value=value, stop=stop)

    def deprecated(self, node) -> None:
        """Warn (RC373) of a selection written the old way, ``x in S where C``; the hint is the
        same expression in the comprehension form (what ``rulecraft fmt --upgrade`` writes)."""
        old = "until" if node.until else "where"
        self.warn(node.where, "RC373", f"'x in S {old} C' is deprecated: a list is written as a "
                  f"comprehension, [x for x in S {old} C]", upgraded(node.where.text, node.where.offset))

    def collection(self, node, scope: Scope) -> ir.Expr:
        value = self.expr(node, scope)
        if not isinstance(value.type, T.ListOf):
            raise self.error(node.where, f"{T.describe(value.type)} is not a list to go through",
                             "RC309", "lists are pieces, spaces, teams, neighbors(z), t.pieces, ...")
        return value

    def _Let(self, node, scope):
        value = self.expr(node.value, scope)
        return self.expr(node.body, scope.bind(self.new_local(node, scope), value))

    def new_local(self, node, scope: Scope) -> str:
        """The name a ``let`` introduces; RC325 when it is already a name of the spec or of the
        formula around it (a ``let`` never hides another name), RC370 when it is a parameter taken
        from the action that started the chain."""
        self.fresh_name(node.name, node.where, scope)
        if node.name in scope.names or node.name in self.symbols.names or node.name in self.symbols.functions:
            raise self.error(node.where, f"'{node.name}' already names something here; a let needs a new name",
                             "RC325", f"call it, say, '{node.name}_now'")
        return node.name

    def fresh_name(self, name: str, where, scope: Scope) -> None:
        """RC370 when a new local ``name`` would hide a parameter of the action whose chain the
        formula belongs to (:mod:`frames`)."""
        if name in scope.inherited:
            raise self.error(where, f"'{name}' is a parameter of the action that started this chain; "
                             "a new name cannot hide it", "RC370", f"call it, say, '{name}_here'")

    def _Cond(self, node, scope):
        test = self.truth(node.test, scope)
        scope = scope.knowing(checked_facts(test))
        yes = self.expr(node.yes, scope.knowing(facts_of(test, True)))
        no = self.expr(node.no, scope.knowing(facts_of(test, False)))
        kind = _unify(yes.type, no.type)
        if kind is None:
            raise self.error(node.no.where, f"both branches must give the same type: "
                             f"{T.describe(yes.type)} and {T.describe(no.type)}", "RC310")
        return ir.Cond(type=kind, where=node.where, test=test, yes=yes, no=no,
                       nullable=yes.nullable or no.nullable)

    def _Logic(self, node, scope):
        left = self.truth(node.left, scope)
        right = self.truth(node.right, scope.knowing(facts_of(left, node.op == "and") | checked_facts(left)))
        return ir.Logic(type=T.BOOL, where=node.where, op=node.op, values=(left, right))

    def _Unary(self, node, scope):
        if node.op == "not":
            return ir.Unary(type=T.BOOL, where=node.where, op="not", operand=self.truth(node.operand, scope))
        value = self.typed(node.operand, scope, T.INT, "the value after '-'")
        return ir.Unary(type=T.INT, where=node.where, op="-", operand=value)

    def _Compare(self, node, scope):
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op in ("==", "!="):
            if _unify(left.type, right.type) is None:
                raise self.error(node.op_where, f"cannot compare {T.describe(left.type)} with "
                                 f"{T.describe(right.type)}", "RC310")
        else:
            self.require(left, T.INT, node.left, f"the left side of '{node.op}'")
            self.require(right, T.INT, node.right, f"the right side of '{node.op}'")
        return ir.Compare(type=T.BOOL, where=node.where, op=node.op, left=left, right=right)

    def _In(self, node, scope):
        item = self.expr(node.item, scope)
        collection = self.collection(node.collection, scope)
        if _unify(item.type, collection.type.item) is None:
            raise self.error(node.item.where, f"{T.describe(item.type)} is never in "
                             f"{T.describe(collection.type)}", "RC310")
        return ir.Member(type=T.BOOL, where=node.where, item=item, collection=collection, negate=node.negate)

    def _Binary(self, node, scope):
        left = self.typed(node.left, scope, T.INT, f"the left side of '{node.op}'")
        right = self.typed(node.right, scope, T.INT, f"the right side of '{node.op}'")
        return ir.Binary(type=T.INT, where=node.where, op=node.op, left=left, right=right)

    def _ListLit(self, node, scope):
        items = [self.expr(item, scope) for item in node.items]
        kind = items[0].type if items else T.NONE
        for item_node, item in zip(node.items, items):
            if not (T.compatible(kind, item.type) or T.compatible(item.type, kind)):
                raise self.error(item_node.where, "the items of a list must all be of one type", "RC310")
            if kind == T.NONE:
                kind = item.type
        return ir.Items(type=T.ListOf(kind), where=node.where, items=tuple(items))


def _int(value: int) -> ir.Const:
    return ir.Const(type=T.INT, value=value)


def _family(kind):
    if isinstance(kind, str) and kind.startswith("enum:"):
        return "enum"
    return None if kind == T.NONE else kind


def _unify(a, b):
    if T.compatible(a, b):
        return a
    if T.compatible(b, a):
        return b
    return None


def _items_nullable(source: ir.Expr) -> bool:
    """Whether an item of the list ``source`` may be none (only a written list can hold none)."""
    if isinstance(source, ir.Comprehension) and source.value is not None:
        return source.value.nullable
    if isinstance(source, ir.Comprehension):
        return _items_nullable(source.source)
    return isinstance(source, ir.Items) and any(item.nullable for item in source.items)


def _spelled(node) -> str:
    """A short text of a syntax node, for messages: ``p.at``, ``target``, ``...``."""
    if isinstance(node, syntax.Name):
        return node.word
    if isinstance(node, syntax.Attr):
        return f"{_spelled(node.owner)}.{node.name}"
    if isinstance(node, syntax.Call):
        spelled = [_spelled(arg) for arg in node.args]
        if "the value" in spelled or len(", ".join(spelled)) > 40:
            return f"{node.name}(...)"
        return f"{node.name}({', '.join(spelled)})"
    if isinstance(node, syntax.Num):
        return str(node.value)
    if isinstance(node, syntax.Index):
        return f"{_spelled(node.base)}[...]"
    return "the value"
