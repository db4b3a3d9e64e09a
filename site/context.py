"""What a rulebook text may name: the spec's numbers, tables and terms, as Jinja2 variables.

Every value a text shows comes from here (DESIGN.md principle 1): change the spec and every
language changes with it. Lookups are strict: a name that does not exist raises
:class:`UnknownName` with the full dotted path and the names that do exist, never an empty string.

Variables (see :func:`spec_context`):

``game``     id, title, version, teams, summary and ``source`` (title, publisher, designers, licence)
``board``    ``spaces`` (names), ``size`` (how many), ``attributes`` per space; on a grid board
             also ``rows``, ``columns`` and ``column_letters``/``row_letters`` (A, B, … as the
             grid's ``{col_letter}``/``{row_letter}`` names them)
``pieces``   ``per_team`` and ``kinds`` (how many of each kind each team has)
``dice``     per die: ``faces`` and ``sides``
``option``   per option: its value in the compiled rules
``state``    per state field: ``initial`` (when it is a plain value)
``define``   per zero-argument ``define:`` whose formula is a fixed number: its value
``table``    per table: values by key label (``table.T1.more``, ``table.T5.left.dive_left``);
             printed whole, a table renders as a Markdown table
``term``     the language's glossary (``term.zone``, ``term.zone.gen``, ``term['home']``)

Filters: ``plural`` (a counted phrase, :mod:`rulecraft.plural`: ``{{ 3 | plural(term.player) }}``
→ "3 players", ``{{ n | plural(one="# left", other="# left") }}``), ``signed`` (+1, −2), ``upfirst``.
"""

from __future__ import annotations

from rulecraft.errors import SiteError, did_you_mean
from rulecraft.loader import Mapping
from rulecraft.plural import choose
from rulecraft.site.markup import Safe, markdown_escape_inline

MINUS = "\u2212"


class UnknownName(SiteError):
    """A text names something the spec or the glossary does not have (RC802)."""

    code = "RC802"

    def __init__(self, path: str, known=(), name: str | None = None):
        super().__init__(path)
        self.path = path
        self.name = name or path.rsplit(".", 1)[-1]
        self.known = sorted(map(str, known))

    def suggestion(self) -> str:
        """A did-you-mean for :attr:`name` among the known names, else up to twelve of them,
        else an empty string."""
        return did_you_mean(self.name, self.known) or (
            "known here: " + ", ".join(self.known[:12]) + (" …" if len(self.known) > 12 else "")
            if self.known else "")


class Namespace:
    """A read-only mapping whose attributes and items are its keys; unknown keys raise UnknownName."""

    __slots__ = ("_path", "_items")

    def __init__(self, path: str, items: dict):
        self._path = path
        self._items = items

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, key):
        for candidate in (key, str(key)):
            if candidate in self._items:
                return self._items[candidate]
        raise UnknownName(f"{self._path}.{key}", self._items)

    def __contains__(self, key) -> bool:
        return key in self._items or str(key) in self._items

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __str__(self) -> str:
        return ", ".join(str(v) for v in self._items.values())

    def __repr__(self) -> str:
        return f"<{self._path}>"


def namespace_items(namespace: "Namespace") -> dict:
    """The keys and values of a :class:`Namespace` as a dict (a namespace has no methods of its
    own, so that every attribute a template reads is one of its keys)."""
    return dict(namespace._items)


class Term(str):
    """A glossary term: prints as its base form; ``.gen``, ``.pl`` … are its grammatical forms."""

    template_methods = ("form", "counted")     # what a text may call (rulecraft.sandbox)

    def __new__(cls, path: str, text: str, forms: dict, count: dict, language: str):
        term = super().__new__(cls, text)
        term._path, term._forms, term._count, term._language = path, forms, count, language
        return term

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._forms:
            return self._forms[name]
        raise UnknownName(f"{self._path}.{name}", self._forms)

    @property
    def countable(self) -> bool:
        """True when the glossary gives this term's plural forms (``count:``)."""
        return bool(self._count)

    def form(self, name: str) -> str | None:
        """The grammatical form ``name``, or None when the glossary does not give it."""
        return self._forms.get(name)

    def counted(self, number: int) -> str:
        """``number``, a no-break space and this term in the form the language's plural rule
        asks for (:func:`rulecraft.plural.choose`); raises :class:`UnknownName` for a term
        whose ``count:`` lacks both that form and ``other``."""
        try:
            form = choose(self._language, number, self._count)
        except KeyError:
            raise UnknownName(f"{self._path}.count.other", self._count) from None
        return f"{number}\u00a0{form}"


def glossary_terms(glossary: Mapping, language: str) -> Namespace:
    """The ``term`` variable of a language: its glossary entries as :class:`Term` objects."""
    terms = {}
    for key, entry in glossary.items():
        path = f"term.{key}"
        forms = {str(k): str(v) for k, v in (entry.get("forms") or {}).items()}
        count = {str(k): str(v) for k, v in (entry.get("count") or {}).items()}
        terms[str(key)] = Term(path, str(entry.get("term", "")), forms, count, language)
    return Namespace("term", terms)


def signed(number) -> str:
    """Jinja2 filter: a modifier with its sign: +2, 0, −1 (a true minus sign)."""
    number = int(number)
    return f"+{number}" if number > 0 else f"{MINUS}{-number}" if number < 0 else "0"


def upfirst(text) -> str:
    """Jinja2 filter: the first letter in capitals, the rest unchanged (``capitalize`` lowers it)."""
    text = str(text)
    return text[:1].upper() + text[1:]


class TableView(Namespace):
    """A spec table: ``table.T1.more`` reads a value; printed, the table renders as Markdown.

    ``labels`` turns a key or value label into the language's words (the glossary); ``headers``
    are the key headers and the value header from the text file.
    """

    __slots__ = ("_definition", "_labels", "_headers")

    def __init__(self, definition, labels, headers):
        rows = definition.keys[0]
        if len(definition.keys) == 1:
            items = {label: _value(definition, value) for label, value in zip(rows, definition.values)}
        else:
            items = {label: Namespace(f"table.{definition.name}.{label}",
                                      {column: _value(definition, value)
                                       for column, value in zip(definition.keys[1], row)})
                     for label, row in zip(rows, definition.values)}
        super().__init__(f"table.{definition.name}", items)
        self._definition, self._labels, self._headers = definition, labels, headers

    def __str__(self) -> str:
        return table_markdown(self._definition, self._labels, self._headers)

    def __markdown__(self) -> Safe:
        """Printed in a page's text, a table is rulecraft's own (escaped) Markdown."""
        return Safe(str(self))


def _value(definition, value):
    return definition.value_labels[value] if definition.value_labels else value


def table_markdown(definition, labels, headers) -> str:
    """A spec table as a Markdown table: one row per first key, one column per second key.

    Numbers show their sign when any value of the table is negative; enumeration values and key
    labels go through ``labels`` (the glossary). Every cell and header is escaped.
    """
    numbers = [v for row in _rows(definition) for v in row if isinstance(v, int)]
    show_sign = any(v < 0 for v in numbers) and not definition.value_labels

    def cell(value):
        if definition.value_labels:
            return labels(definition.value_labels[value])
        return signed(value) if show_sign else str(value)

    key_headers = [str(header) for header in headers.get("keys") or []]
    if len(definition.keys) == 1:
        head = [key_headers[0] if key_headers else "", str(headers.get("value", ""))]
        body = [[labels(label), cell(value)] for label, value in zip(definition.keys[0], definition.values)]
    else:
        corner = " / ".join(key_headers[:2])
        head = [corner] + [labels(label) for label in definition.keys[1]]
        body = [[labels(label)] + [cell(v) for v in row] for label, row in zip(definition.keys[0], definition.values)]
    head = [markdown_escape_inline(text) for text in head]
    body = [[markdown_escape_inline(text) for text in row] for row in body]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines.extend("| " + " | ".join(row) + " |" for row in body)
    return "\n".join(lines)


def _rows(definition):
    if len(definition.keys) == 1:
        return [definition.values]
    return list(definition.values)


def spec_context(ir, rules, terms: Namespace, table_headers, tables: dict | None = None) -> dict:
    """The variables a text of one language may use, from the spec's IR and its compiled rules.

    ``ir`` is the compiler's :class:`GameIR`, ``rules`` the :class:`RuleTables` the engine runs,
    ``terms`` the language's glossary and ``table_headers(name)`` the text file's headers of a
    table (a dict with ``keys`` and ``value``); ``tables`` replaces ``rules.tables`` (the book's
    tables, whose space values are labelled with the space names).
    """
    labels = term_label(terms)
    meta = ir.meta
    source = meta.source or {}
    game = Namespace("game", {
        "id": meta.id, "title": meta.title, "version": meta.version,
        "teams": list(ir.teams), "summary": meta.summary,
        "source": Namespace("game.source", dict(source)),
    })
    attributes = {name: Namespace(f"board.attributes.{name}", dict(zip(ir.board.spaces, values)))
                  for name, (_, values) in ir.board.attributes.items()}
    board = {"spaces": list(ir.board.spaces), "size": len(ir.board.spaces),
             "attributes": Namespace("board.attributes", attributes)}
    if ir.board.grid:
        board.update(rows=ir.board.grid.rows, columns=ir.board.grid.columns,
                     column_letters=[chr(ord("A") + c) for c in range(ir.board.grid.columns)],
                     row_letters=[chr(ord("A") + r) for r in range(ir.board.grid.rows)])
    board = Namespace("board", board)
    kinds = {}
    for piece in ir.pieces:
        if piece.team == 0:
            name = ir.kinds[piece.kind] if piece.kind >= 0 else "piece"
            kinds[name] = kinds.get(name, 0) + 1
    pieces = Namespace("pieces", {"per_team": sum(kinds.values()),
                                  "kinds": Namespace("pieces.kinds", kinds)})
    dice = Namespace("dice", {name: Namespace(f"dice.{name}", {
        "faces": list(die.outcomes), "sides": len(die.outcomes)}) for name, die in rules.dice.items()})
    option = Namespace("option", {name: spec.value for name, spec in ir.options.items()})
    state = Namespace("state", {f.name: Namespace(f"state.{f.name}", {"initial": _initial(f)})
                                for f in ir.fields if _initial(f) is not None})
    table = Namespace("table", {name: TableView(definition, labels, table_headers(name))
                                for name, definition in (tables or rules.tables).items()})
    define = Namespace("define", dict(ir.constants))
    return {"game": game, "board": board, "pieces": pieces, "dice": dice, "option": option,
            "state": state, "table": table, "define": define, "term": terms}


def term_label(terms: Namespace):
    """A function giving the language's word for a spec name: the glossary term, else the name
    (plain text: whoever puts it into a page escapes it)."""
    def label(name) -> str:
        name = str(name)
        return str(terms[name]) if name in terms else name
    return label


def _initial(field):
    """A number field's initial value when it is a fixed whole number, else None."""
    return field.initial_value if field.type == "int" else None
