"""Load spec YAML with YAML 1.2 core-schema semantics, refusing duplicate keys, keeping positions.

YAML 1.1 (PyYAML's default) reads ``no``/``on``/``off`` as booleans and ``010`` as octal 8; here
only ``true``/``false`` are booleans, ``null``/``~`` is null and integers are decimal (``010`` is
ten). Every string is a :class:`Text` and every mapping and sequence knows where each of its items
stands, so later stages can point at ``file:line:col``.

Source: YAML 1.2.2 specification, §10.3 (core schema).
"""

from __future__ import annotations

from functools import partial
import math
import re

import yaml
from yaml.composer import Composer
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import AliasEvent, CollectionStartEvent, ScalarEvent, SequenceStartEvent
from yaml.nodes import ScalarNode, SequenceNode
from yaml.resolver import Resolver

from rulecraft.errors import Position, SpecLoadError
from rulecraft.limits import (MAX_ALIAS_NODES, MAX_FILE_BYTES, MAX_INT_DIGITS, MAX_LINE_CHARS,
                              MAX_YAML_DEPTH, MAX_YAML_NODES)


class Text(str):
    """A string from a spec file that knows its position and how to locate offsets inside it."""

    position: Position

    def __new__(cls, value: str, position: Position, offsets=None):
        text = super().__new__(cls, value)
        text.position = position
        text._offset_source = offsets
        return text

    @property
    def _offsets(self) -> list[Position] | None:
        """Each character's position: a list, or a function making it on first use (most texts
        never need it, and mapping every character of a long text is slow)."""
        if callable(self._offset_source):
            self._offset_source = self._offset_source()
        return self._offset_source

    def at(self, offset: int) -> Position:
        """Position of character ``offset`` (0-based) of the value; ``len`` gives the end."""
        if self._offsets and 0 <= offset < len(self._offsets):
            return self._offsets[offset]
        if self._offsets:
            last = self._offsets[-1]
            return Position(last.file, last.line, last.column + 1)
        return self.position


class Mapping(dict):
    """A YAML mapping; ``where(key)`` is the key's position, ``value_at(key)`` the value's."""

    position: Position
    key_positions: dict
    value_positions: dict

    def where(self, key) -> Position:
        """The position of ``key`` in the file, or the mapping's own when it is unknown."""
        return self.key_positions.get(key, self.position)

    def value_at(self, key) -> Position:
        """The position of ``key``'s value, else of the key (see :meth:`where`)."""
        return self.value_positions.get(key, self.where(key))


class Sequence(list):
    """A YAML sequence; ``positions[i]`` is where item ``i`` starts."""

    position: Position
    positions: list[Position]

    def at(self, index: int) -> Position:
        """The position where item ``index`` starts, or the sequence's own past the known ones."""
        return self.positions[index] if index < len(self.positions) else self.position


_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")


_CORE = "tag:yaml.org,2002:"


class _LimitedComposer(Composer):
    """A composer that refuses, before anything is built, a file passing a size limit (RC113:
    :data:`MAX_YAML_NODES` nodes, :data:`MAX_YAML_DEPTH` levels of nesting,
    :data:`MAX_ALIAS_NODES` nodes reached through aliases, a recursive alias) or a tag outside
    YAML 1.2's core schema (RC114), at the node, alias or tag that does.

    An alias costs the nodes it stands for, its aliases expanded: that size is kept for every
    composed node, so an alias bomb is refused at the alias that crosses the limit, never built.
    """

    def start_counting(self, path: str) -> None:
        """Reset the counts for a new file at ``path``."""
        self.spec_file = path
        self._depth = self._nodes = self._through_aliases = 0
        self._sizes: dict[int, int] = {}

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            self._count_alias(event)
            return super().compose_node(parent, index)
        self._nodes += 1
        if self._nodes > MAX_YAML_NODES:
            raise _too_large(self, event, f"this file holds more than {MAX_YAML_NODES:,} YAML nodes",
                             "split the data, or write it more compactly (a range such as 1..6)")
        if event.tag not in (None, "!"):
            _check_tag(self, event)
        nested = isinstance(event, CollectionStartEvent)
        if nested:
            self._depth += 1
            if self._depth > MAX_YAML_DEPTH:
                raise _too_large(self, event, f"lists and mappings are nested more than {MAX_YAML_DEPTH} deep here",
                                 "write the data flatter: no spec section nests that deep")
        node = super().compose_node(parent, index)
        self._depth -= nested
        if isinstance(node, ScalarNode):
            self._sizes[id(node)] = 1
        else:
            children = node.value if isinstance(node, SequenceNode) else [n for pair in node.value for n in pair]
            self._sizes[id(node)] = 1 + sum(self._sizes[id(child)] for child in children)
        return node

    def _count_alias(self, event) -> None:
        node = self.anchors.get(event.anchor)
        if node is None:
            return                      # an unknown anchor: the composer reports it
        if id(node) not in self._sizes:
            raise _too_large(self, event, f"the alias *{event.anchor} stands inside its own anchor",
                             "a value cannot contain itself; write the repeated part out")
        self._through_aliases += self._sizes[id(node)]
        if self._through_aliases > MAX_ALIAS_NODES:
            raise _too_large(self, event, f"with this alias the file reaches {self._through_aliases:,} nodes through "
                             f"aliases, more than {MAX_ALIAS_NODES:,}",
                             "write the repeated part out, or alias something smaller: aliases of aliases "
                             "grow exponentially")


def _too_large(loader, event, message: str, hint: str) -> SpecLoadError:
    return SpecLoadError(message, _position(loader, event.start_mark), code="RC113", hint=hint)


def _check_tag(loader, event) -> None:
    """Refuse an explicit tag that is not one of YAML 1.2's core schema, or that does not fit its
    value (``!!int 0x10``, ``!!bool 9``: the core tags mean what the plain value would): RC114."""
    tag = event.tag
    shown = "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag
    if isinstance(event, ScalarEvent):
        allowed = [_CORE + name for name in ("str", "int", "float", "bool", "null")]
    else:
        allowed = [_CORE + ("seq" if isinstance(event, SequenceStartEvent) else "map")]
    if tag not in allowed:
        raise SpecLoadError(f"the tag {shown} is not one of YAML 1.2's core schema here",
                            _position(loader, event.start_mark), code="RC114",
                            hint="remove the tag: a spec holds plain texts, numbers, true/false, null, lists "
                                 "and mappings")
    if isinstance(event, ScalarEvent) and tag != _CORE + "str" \
            and loader.resolve(ScalarNode, event.value, (True, False)) != tag:
        raise SpecLoadError(f"the tag {shown} does not fit the value {event.value[:40]!r}",
                            _position(loader, event.start_mark), code="RC114",
                            hint="remove the tag and write the value plainly: a decimal whole number, "
                                 "true or false, null")


class _Loader(_LimitedComposer, yaml.SafeLoader):
    """SafeLoader with the YAML 1.2 core schema, the size limits and positioned results."""


try:
    from yaml._yaml import CParser
except ImportError:                # PyYAML built without libyaml
    _FastLoader = _Loader
else:
    class _FastLoader(_LimitedComposer, CParser, SafeConstructor, Resolver):
        """:class:`_Loader` on libyaml's parser: several times faster, with the same events and
        marks (the nodes are composed in Python, to count them). Its error messages differ, so a
        file it refuses is read again by :class:`_Loader` for the message."""

        def __init__(self, stream):
            CParser.__init__(self, stream)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            Composer.__init__(self)


for _class in (_Loader, _FastLoader):
    _class.yaml_implicit_resolvers = {}
    _class.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(true|false)$"), list("tf"))
    _class.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(null|~|)$"), ["n", "~", ""])
    _class.add_implicit_resolver("tag:yaml.org,2002:int", _INT, list("-+0123456789"))
    _class.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-+.0123456789"))


def _position(loader: _Loader, mark) -> Position:
    return Position(loader.spec_file, mark.line + 1, mark.column + 1)


def _construct_int(loader: _Loader, node) -> int:
    digits = len(node.value.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise SpecLoadError(f"this whole number has {digits:,} digits, at most {MAX_INT_DIGITS:,}",
                            _position(loader, node.start_mark), code="RC116",
                            hint="no count of a game is that large; write a smaller number")
    return int(node.value, 10)


def _construct_float(loader: _Loader, node) -> float:
    value = float(node.value)
    if not math.isfinite(value):
        raise SpecLoadError(f"the number {node.value[:40]} is too large to compute with (beyond ±1.8e308)",
                            _position(loader, node.start_mark), code="RC116",
                            hint="write a number a game can reach, such as -1000 and 1000")
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def _construct_str(loader: _Loader, node) -> Text:
    value = node.value
    if _SURROGATE.search(value):      # \u escapes of UTF-16 halves: a pair is one character
        try:
            value = value.encode("utf-16", "surrogatepass").decode("utf-16")
        except UnicodeDecodeError:
            raise SpecLoadError("this text holds a lone surrogate escape (a \\uD800–\\uDFFF half of a "
                                "character), which stands for no character",
                                _position(loader, node.start_mark), code="RC101",
                                hint="write the character itself, or its \\U0001xxxx escape") from None
        return Text(value, _position(loader, node.start_mark))
    return Text(value, _position(loader, node.start_mark), partial(_offsets, loader, node))


def _construct_mapping(loader: _Loader, node) -> Mapping:
    result = Mapping()
    result.position = _position(loader, node.start_mark)
    result.key_positions, result.value_positions = {}, {}
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, bool)) or key is None:
            raise SpecLoadError("a mapping key must be a plain word or number",
                                _position(loader, key_node.start_mark), code="RC103")
        here = _position(loader, key_node.start_mark)
        if key in result:
            first = result.key_positions[key]
            raise SpecLoadError(
                f"duplicate key '{key}': it is already defined on line {first.line}",
                here, code="RC102", also=first,
                hint="each key may appear once in a mapping; merge or rename one of them")
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_positions[key] = here
        result.value_positions[key] = _position(loader, value_node.start_mark)
    return result


def _construct_sequence(loader: _Loader, node) -> Sequence:
    result = Sequence(loader.construct_object(child, deep=True) for child in node.value)
    result.position = _position(loader, node.start_mark)
    result.positions = [_position(loader, child.start_mark) for child in node.value]
    return result


for _class in (_Loader, _FastLoader):
    _class.add_constructor("tag:yaml.org,2002:int", _construct_int)
    _class.add_constructor("tag:yaml.org,2002:float", _construct_float)
    _class.add_constructor("tag:yaml.org,2002:str", _construct_str)
    _class.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
    _class.add_constructor("tag:yaml.org,2002:seq", _construct_sequence)


def _offsets(loader: _Loader, node) -> list[Position]:
    """Map each character of a scalar's value to its line and column in the source.

    Works for plain, quoted and block scalars alike by walking the raw source in step with the
    value: characters that YAML folded away (indentation, quotes, line breaks) are skipped.
    """
    raw = loader.spec_text[node.start_mark.index:node.end_mark.index]
    value = node.value
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    cursor = 0
    if node.style in ("|", ">"):
        newline = raw.find("\n")
        cursor = len(raw) if newline < 0 else newline
    elif node.style in ("'", '"'):
        cursor = 1
    for skipped in raw[:cursor]:
        line, column = (line + 1, 1) if skipped == "\n" else (line, column + 1)
    result = []
    for char in value:
        while cursor < len(raw) and raw[cursor] != char and not (char == " " and raw[cursor] == "\n"):
            line, column = (line + 1, 1) if raw[cursor] == "\n" else (line, column + 1)
            cursor += 1
        result.append(Position(loader.spec_file, line, column))
        if cursor < len(raw):
            line, column = (line + 1, 1) if raw[cursor] == "\n" else (line, column + 1)
            cursor += 1
    return result


def read_spec(path: str) -> str:
    """The text of the spec file at ``path``.

    Raises :class:`SpecLoadError` (RC104) when the file cannot be read or is not UTF-8 text.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise SpecLoadError(f"cannot read {path}: {error.strerror}", None, code="RC104") from None
    except UnicodeDecodeError as error:
        line = error.object[:error.start].count(b"\n") + 1
        line_start = error.object.rfind(b"\n", 0, error.start) + 1
        column = len(error.object[line_start:error.start].decode("utf-8", "replace")) + 1
        raise SpecLoadError(f"cannot read {path}: it is not UTF-8 text (byte {error.object[error.start]:#04x} "
                            f"on line {line}); save it as UTF-8", Position(path, line, column),
                            code="RC104") from None


def load_yaml(path: str, text: str | None = None):
    """Read the YAML file at ``path`` (or ``text`` standing for it) into positioned data.

    Returns nested :class:`Mapping`, :class:`Sequence`, :class:`Text`, ``int``, ``float``,
    ``bool`` and ``None``. Raises :class:`SpecLoadError` (RC101 unreadable YAML, RC102 duplicate
    key, RC103 unsupported key) with the position of the problem.
    """
    if text is None:
        text = read_spec(path)
    _check_characters(path, text)
    try:
        return _load(_FastLoader, path, text)
    except SpecLoadError:
        raise
    except yaml.YAMLError:
        pass                 # read again below, for the pure-Python parser's clearer message
    try:
        return _load(_Loader, path, text)
    except SpecLoadError:
        raise
    except (yaml.MarkedYAMLError, ConstructorError) as error:
        mark = error.problem_mark or error.context_mark
        position = Position(path, mark.line + 1, mark.column + 1) if mark else None
        raise SpecLoadError(f"this is not valid YAML: {error.problem}", position,
                            code="RC101") from None
    except yaml.YAMLError as error:
        raise SpecLoadError(f"this is not valid YAML: {error}", Position(path, 1, 1),
                            code="RC101") from None


# what YAML allows in a file: tab, line breaks and printable characters (YAML 1.2.2, §5.1)
_UNPRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


def _check_characters(path: str, text: str) -> None:
    """Refuse a file larger than :data:`MAX_FILE_BYTES`, a line longer than
    :data:`MAX_LINE_CHARS` (RC113) or a character YAML does not allow (RC115), at its own line
    and column (PyYAML would name only its offset in the file)."""
    if len(text) > MAX_FILE_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise SpecLoadError(f"this file is larger than {MAX_FILE_BYTES >> 20} MiB, at most "
                            f"{MAX_FILE_BYTES:,} bytes", Position(path, 1, 1), code="RC113",
                            hint="a spec and its texts are far smaller; split the file")
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE_CHARS:
            raise SpecLoadError(f"this line is {len(line):,} characters long, at most {MAX_LINE_CHARS:,}",
                                Position(path, number, MAX_LINE_CHARS + 1), code="RC113",
                                hint="break it: a long text can be a block (|) over several lines")
    found = _UNPRINTABLE.search(text)
    if found:
        start = text.rfind("\n", 0, found.start()) + 1
        raise SpecLoadError(f"the control character U+{ord(found.group()):04X} cannot appear in a YAML file",
                            Position(path, text.count("\n", 0, start) + 1, found.start() - start + 1),
                            code="RC115", hint="delete it (it is invisible: often pasted by mistake); in a "
                                               "double-quoted text an escape such as \\t is allowed")


def _load(loader_class, path: str, text: str):
    """The positioned data of ``text`` read by ``loader_class``; YAML errors propagate."""
    loader = loader_class(text)
    loader.start_counting(path)
    loader.spec_text = text
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


_PLAIN_NUMBER = re.compile(r"[-+0-9.eE]+")


def spelled_at(position: Position) -> str | None:
    """How the plain number at ``position`` of its file is written (``4.10``, where YAML read
    4.1), or None when the file cannot be read or holds no number there."""
    try:
        with open(position.file, encoding="utf-8") as handle:
            line = handle.read().split("\n")[position.line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return None
    found = _PLAIN_NUMBER.match(line, position.column - 1)
    return found.group() if found else None


def plain(value):
    """Loaded data with positions dropped: dicts, lists, str, int, float, bool, None."""
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, Text):
        return str(value)
    return value
