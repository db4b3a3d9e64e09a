"""The one place where text templates run: Jinja2's immutable sandbox, with an allow-list.

Text files (``text/<lang>.yaml``: rule texts, pages, event messages) are shared between people
and built in CI, so a template must never reach Python. Every template a user writes renders in
:class:`Sandbox`, an :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment` with strict
undefined names, and no more than a text needs:

* **Names**: only the variables the caller passes (no ``range``, ``lipsum``, ``cycler``,
  ``joiner``, ``namespace``, ``dict``); attributes and items whose name starts with ``_`` are
  refused when the template is read, and the sandbox refuses any other unsafe attribute.
* **Statements**: output, ``if``, ``for`` (nested at most :data:`MAX_LOOP_DEPTH` deep), ``set`` and
  ``with``. ``macro``, ``call``, ``import``, ``include``, ``extends``, ``block``, ``filter`` blocks,
  block ``set`` and ``autoescape`` are refused.
* **Filters**: :data:`FILTERS` plus the caller's own; ``attr``, ``format``, ``center``,
  ``indent``, ``batch`` and the rest are not available.
* **Calls**: only functions the caller wraps in :class:`Exposed`, methods a class lists in its
  ``template_methods``, and a few read-only methods of strings, lists and dicts
  (:data:`METHODS`); ``str.format`` and ``format_map`` are refused.
* **Sizes**: ``*`` repeats a string or list to at most :data:`MAX_REPEAT` items, ``**`` stays
  within :data:`MAX_POWER_BITS` bits, ``%`` formats only plain values with short widths, and a
  text renders to at most :data:`MAX_OUTPUT` characters.

A template that breaks a rule, fails or names an unknown variable raises :class:`TemplateProblem`
at the text's file, line and column (when the text is a loader ``Text``); the callers turn it
into their positioned RC error.
"""

from __future__ import annotations

import math
import re

import jinja2
from jinja2 import nodes
from jinja2.exceptions import SecurityError
from jinja2.filters import FILTERS as JINJA_FILTERS
from jinja2.runtime import LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment

from rulecraft.errors import Position
from rulecraft.limits import MAX_LOOP_DEPTH, MAX_OUTPUT, MAX_POWER_BITS, MAX_REPEAT, MAX_WIDTH


FILTERS = ("abs", "capitalize", "count", "d", "default", "dictsort", "first", "float", "groupby",
           "int", "items", "join", "last", "length", "list", "lower", "map", "max", "min",
           "reject", "rejectattr", "replace", "reverse", "round", "select", "selectattr", "sort",
           "string", "sum", "title", "trim", "unique", "upper", "wordcount")
METHODS = {
    str: frozenset({"capitalize", "casefold", "count", "endswith", "find", "isalnum", "isalpha",
                    "isdecimal", "isdigit", "islower", "isnumeric", "isspace", "istitle",
                    "isupper", "join", "lower", "lstrip", "partition", "removeprefix",
                    "removesuffix", "replace", "rfind", "rpartition", "rsplit", "rstrip", "split",
                    "splitlines", "startswith", "strip", "swapcase", "title", "upper"}),
    dict: frozenset({"get", "items", "keys", "values"}),
    list: frozenset({"count", "index"}),
    tuple: frozenset({"count", "index"}),
    LoopContext: frozenset({"changed", "cycle"}),
}
REFUSED_STATEMENTS = {
    nodes.Macro: "macro", nodes.CallBlock: "call", nodes.Import: "import",
    nodes.FromImport: "from … import", nodes.Include: "include", nodes.Extends: "extends",
    nodes.Block: "block", nodes.FilterBlock: "filter", nodes.AssignBlock: "set … endset",
    nodes.ScopedEvalContextModifier: "autoescape", nodes.EvalContextModifier: "autoescape",
    nodes.NSRef: "namespace assignment",
}
RESERVED_NAMES = ("self", "caller", "varargs", "kwargs")     # Jinja2's own objects
PLAIN = (str, int, float, bool, type(None))
_CONVERSION = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d*)(?:\.(\*|\d*))?[hlL]?(.)", re.S)


class TemplateProblem(Exception):
    """Why a text cannot be rendered. ``kind`` is ``syntax`` (not a template), ``refused`` (it
    reaches for something texts may not, or passes a size limit) or ``failed`` (it went wrong
    while rendering); ``position`` is where, when known; ``hint`` how to fix it."""

    def __init__(self, kind: str, message: str, position: Position | None = None,
                 hint: str | None = None):
        super().__init__(message)
        self.kind, self.message, self.position, self.hint = kind, message, position, hint


class Refused(SecurityError):
    """Raised inside a render when a template passes a limit or reaches for what it may not."""


class Exposed:
    """A function a template may call, e.g. ``{{ rule('4.4') }}``: calling it is all a
    template can do with it."""

    __slots__ = ("_function",)

    def __init__(self, function):
        self._function = function

    def __call__(self, *args, **kwargs):
        return self._function(*args, **kwargs)


class Sandbox(ImmutableSandboxedEnvironment):
    """The environment every user-written template renders in (see the module docstring).

    ``undefined`` is the strict undefined class (an unknown name fails, never renders empty);
    ``finalize`` turns each printed value into text (the site escapes spec text with it);
    ``filters`` adds the caller's filters to :data:`FILTERS`.
    """

    intercepted_binops = frozenset({"*", "**", "%"})

    def __init__(self, *, undefined=jinja2.StrictUndefined, finalize=None, filters=None):
        def shown(value):
            if callable(value) and not isinstance(value, (str, jinja2.Undefined)):
                raise Refused("a function is called in a text, not printed")
            return value if finalize is None else finalize(value)
        super().__init__(undefined=undefined, finalize=shown, autoescape=False,
                         keep_trailing_newline=False)
        self.globals.clear()
        self.filters = {name: JINJA_FILTERS[name] for name in FILTERS}
        self.filters["replace"] = _replace
        self.filters.update(filters or {})
        self._templates: dict[str, jinja2.Template] = {}

    # ---------- reading a template ----------
    def template(self, text) -> jinja2.Template:
        """The compiled template of ``text`` (cached); raises :class:`TemplateProblem`."""
        source = str(text)
        found = self._templates.get(source)
        if found is None:
            try:
                tree = self.parse(source)
                self.check(tree, text)
                found = self.from_string(tree)
            except jinja2.TemplateSyntaxError as error:
                raise TemplateProblem("syntax", f"this text is not a valid template: {error.message}",
                                      line_position(text, error.lineno)) from None
            except RecursionError:
                raise TemplateProblem("refused", "this template is nested too deeply",
                                      line_position(text, 1)) from None
            self._templates[source] = found
        return found

    def check(self, tree: nodes.Template, text) -> None:
        """Refuse what texts may not use (see the module docstring), at its line and column."""
        for node in tree.find_all(nodes.Node):
            refused = REFUSED_STATEMENTS.get(type(node))
            if refused is not None:
                raise _refusal(text, node.lineno, f"'{refused}' is not available in texts", refused.split()[0])
            name = None
            if isinstance(node, nodes.Getattr):
                name = node.attr
            elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const) \
                    and isinstance(node.arg.value, str):
                name = node.arg.value
            if isinstance(node, nodes.Name) and node.name in RESERVED_NAMES:
                raise _refusal(text, node.lineno, f"'{node.name}' is not available in texts", node.name)
            if name is not None and name.startswith("_"):
                raise _refusal(text, node.lineno, f"'{name}': names starting with '_' are not "
                               "available in texts", name)
            if isinstance(node, nodes.Filter) and node.name not in self.filters:
                raise _refusal(text, node.lineno, f"the filter '{node.name}' is not available in texts",
                               node.name, hint="filters: " + ", ".join(sorted(self.filters)))
        too_deep = _too_deep(tree)
        if too_deep is not None:
            raise _refusal(text, too_deep.lineno, f"for-loops are nested more than {MAX_LOOP_DEPTH} "
                           "deep; texts may nest two", "for")

    # ---------- rendering ----------
    def render(self, text, variables: dict) -> str:
        """``text`` rendered with ``variables``; raises :class:`TemplateProblem`, and lets the
        caller's own exceptions (an unknown name of its context) through."""
        template = self.template(text)
        out, size = [], 0
        try:
            for chunk in template.generate(**variables):
                size += len(chunk)
                if size > MAX_OUTPUT:
                    raise Refused(f"this text renders to more than {MAX_OUTPUT} characters")
                out.append(chunk)
        except SecurityError as error:
            raise TemplateProblem("refused", f"this text reaches for something texts may not: "
                                  f"{_security_message(error)}", error_position(text, error)) from None
        except jinja2.UndefinedError as error:
            raise TemplateProblem("unknown", f"this text names something it is not given: "
                                  f"{error.message}", error_position(text, error)) from None
        except (jinja2.TemplateError, ArithmeticError, AttributeError, LookupError, TypeError,
                ValueError, RecursionError, MemoryError) as error:
            raise TemplateProblem("failed", f"this text cannot be rendered: {error}",
                                  error_position(text, error)) from None
        return "".join(out)

    # ---------- what a template may reach ----------
    def is_safe_attribute(self, obj, attr: str, value) -> bool:
        """Jinja2's rule, and no ``format`` or ``format_map`` of a string."""
        if isinstance(obj, str) and attr in ("format", "format_map"):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def wrap_str_format(self, value):
        """``str.format`` is not wrapped but refused (see :meth:`is_safe_attribute`)."""
        return None

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja2's signature
        """Call ``__obj`` from a template when it is one of the callables a text may use."""
        if isinstance(__obj, jinja2.Undefined):
            return __obj(*args, **kwargs)          # raises the undefined name's error
        if not isinstance(__obj, Exposed):
            owner = getattr(__obj, "__self__", None)
            name = getattr(__obj, "__name__", "")
            if owner is None or not _method_allowed(owner, name):
                what = f"'{type(owner).__name__}.{name}'" if owner is not None else repr(type(__obj).__name__)
                raise Refused(f"{what} cannot be called in texts")
            if name == "replace" and isinstance(owner, str) and args:
                _check_replace(owner, *args[:2])
        return __context.call(__obj, *args, **kwargs)

    def call_binop(self, context, operator: str, left, right):
        """``*``, ``**`` and ``%`` within the size limits (see the module docstring)."""
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int) \
                        and len(sequence) * times > MAX_REPEAT:
                    raise Refused(f"'*' would make {len(sequence) * times} items; at most {MAX_REPEAT}")
            return left * right
        if operator == "**":
            if isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 0 \
                    and right * math.log2(abs(left)) > MAX_POWER_BITS:
                raise Refused(f"'**' would make a number of more than {MAX_POWER_BITS} bits")
            return left ** right
        if isinstance(left, str):
            _check_conversions(left, right)
        return left % right


def _method_allowed(owner, name: str) -> bool:
    if name in getattr(type(owner), "template_methods", ()):
        return True
    return any(isinstance(owner, kind) and name in allowed for kind, allowed in METHODS.items())


def _replace(eval_ctx, value, old, new, count=None):
    """The ``replace`` filter, refusing a result longer than :data:`MAX_OUTPUT`."""
    _check_replace(str(value), old, new)
    return JINJA_FILTERS["replace"](eval_ctx, value, old, new, count)


_replace.jinja_pass_arg = JINJA_FILTERS["replace"].jinja_pass_arg


def _check_replace(text: str, old, new="") -> None:
    old, new = str(old), str(new)
    times = text.count(old) if old else len(text) + 1
    if len(text) + times * (len(new) - len(old)) > MAX_OUTPUT:
        raise Refused(f"replace would make more than {MAX_OUTPUT} characters")


def _check_conversions(pattern: str, values) -> None:
    """``%``-formatting of plain values only, with widths and precisions up to :data:`MAX_WIDTH`."""
    for match in _CONVERSION.finditer(pattern):
        width, precision, conversion = match.groups()
        if "*" in (width, precision):
            raise Refused("'%' formatting with '*' widths is not available in texts")
        if max(int(width or 0), int(precision or 0)) > MAX_WIDTH:
            raise Refused(f"'%' formatting wider than {MAX_WIDTH} characters is not available in texts")
        if conversion in "ra":
            raise Refused(f"'%{conversion}' formatting is not available in texts")
    items = values.values() if isinstance(values, dict) else values if isinstance(values, tuple) else (values,)
    if not all(isinstance(item, PLAIN) for item in items):
        raise Refused("'%' formats numbers and text only")


def _too_deep(node, depth: int = 0):
    """The first for-loop nested deeper than :data:`MAX_LOOP_DEPTH`, or None."""
    depth += isinstance(node, nodes.For)
    if depth > MAX_LOOP_DEPTH:
        return node
    return next(filter(None, (_too_deep(child, depth) for child in node.iter_child_nodes())), None)


def _refusal(text, line: int, message: str, needle: str, hint: str | None = None) -> TemplateProblem:
    return TemplateProblem("refused", message, line_position(text, line, needle), hint)


def _security_message(error: SecurityError) -> str:
    message = str(error)
    found = re.match(r"access to attribute '(.*)' of '(.*)' object is unsafe\.", message)
    return f"the attribute '{found.group(1)}' of a {found.group(2)}" if found else message


def error_line(error: BaseException) -> int | None:
    """The template line an exception raised while rendering comes from (Jinja2 rewrites the
    traceback so that the template's frames carry its line numbers), or None."""
    line = None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def error_position(text, error: BaseException) -> Position | None:
    """Where in ``text`` a render error happened: its line, and the column of the attribute it
    names when that is on the line."""
    found = re.search(r"'([^']+)'", str(error))
    needle = found.group(1).rsplit(".", 1)[-1] if found else None
    return line_position(text, error_line(error) or 1, needle)


def line_position(text, line: int, needle: str | None = None) -> Position | None:
    """The position of ``needle`` on line ``line`` (1-based) of the text, else of the line's
    start; None when the text does not know its position (a plain string)."""
    if not hasattr(text, "at"):
        return None
    source = str(text)
    offset = 0
    for _ in range(max(line or 1, 1) - 1):
        following = source.find("\n", offset)
        if following < 0:
            break
        offset = following + 1
    if needle:
        end = source.find("\n", offset)
        found = source.find(needle, offset, end if end >= 0 else len(source))
        if found >= 0:
            offset = found
    return text.at(offset)
