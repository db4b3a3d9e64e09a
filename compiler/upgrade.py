"""``rulecraft fmt --upgrade``: a spec file with its deprecated forms rewritten, by position.

The spec is compiled first (a spec that does not compile is refused, RC119); every rule string
holding a form the compiler warned of as deprecated (RC373) is rewritten by :mod:`rewrite`, and
each edit is made on the file's own text at the characters the loader's :class:`Text` maps the
string to. Everything else of the file — comments, quoting, layout, key order — is kept byte for
byte, and an upgraded file has nothing left to upgrade.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from rulecraft.errors import InputError, RulecraftError
from rulecraft.loader import Mapping, Sequence, Text, load_yaml, read_spec
from rulecraft.compiler import rewrite

DEPRECATED = ("RC373",)


@dataclass(frozen=True)
class Upgrade:
    """The spec file ``path`` before and after its upgrade."""

    path: Path
    before: str
    after: str

    @property
    def changed(self) -> bool:
        """Whether the upgrade changes the file."""
        return self.before != self.after

    def diff(self, output: Path | None = None) -> str:
        """The change as a unified diff (empty when nothing changes)."""
        return "".join(difflib.unified_diff(self.before.splitlines(True), self.after.splitlines(True),
                                            str(self.path), str(output or self.path)))


def upgrade_spec(game, output: Path | None = None) -> Upgrade:
    """The upgrade of the spec of ``game`` (a name or a path, as :func:`find_game` takes); writes
    nothing. Raises :class:`InputError` RC118 for a game that cannot be found or an output
    (``output``, else the spec itself) that cannot be written, RC119 for a spec that does not
    compile."""
    from rulecraft.compiler import find_game
    try:
        path = find_game(game)
    except RulecraftError as error:
        raise InputError(error.message, code="RC118") from None
    _writable(output or path)
    text = read_spec(str(path))
    return Upgrade(path, text, upgraded_text(str(path), text))


def upgraded_text(path: str, text: str) -> str:
    """The spec ``text`` (of the file ``path``) with every deprecated form rewritten. Raises
    :class:`InputError` RC119 when the spec does not compile."""
    from rulecraft.compiler.reader import SpecReader
    try:
        data = load_yaml(path, text)
        warnings = SpecReader(data, path).build().warnings
    except RulecraftError as error:
        raise InputError(f"{path} does not compile, so it cannot be upgraded; fix this first:\n{error}",
                         code="RC119") from None
    flagged = {w.position for w in warnings if w.code in DEPRECATED}
    return edited(text, data, lambda rule: [e for e in rewrite.edits(rule) if rule.at(e.start) in flagged])


def edited(text: str, data, edits_of) -> str:
    """The file ``text`` (loaded as ``data``) with the :class:`rewrite.Edit` list ``edits_of(rule)``
    of each of its rule strings made on the file's characters, copied spans taken from the file."""
    line_starts = [0]
    line_starts += [i + 1 for i, char in enumerate(text) if char == "\n"]
    changes = []
    for rule in _texts(data):
        found = edits_of(rule) if rule.position.file == data.position.file else []
        if not found:
            continue

        def boundary(offset: int, rule=rule) -> int:
            """Where, in the file, the character ``offset`` of the rule string starts."""
            if offset >= len(rule):
                return boundary(len(rule) - 1) + 1
            position = rule.at(offset)
            return line_starts[position.line - 1] + position.column - 1

        def raw(a: int, b: int, boundary=boundary) -> str:
            return text[boundary(a):boundary(b)]

        changes += [(boundary(e.start), boundary(e.end), rewrite.replacement(found, e, raw))
                    for e in rewrite.outermost(found)]
    for start, end, new in sorted(changes, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def write(upgrade: Upgrade, output: Path | None = None) -> Path:
    """Write the upgraded spec to ``output`` (default: over the spec); returns where."""
    target = output or upgrade.path
    target.write_text(upgrade.after, encoding="utf-8")
    return target


def _texts(data):
    """Every string of the loaded spec ``data`` that knows its place in the file."""
    if isinstance(data, Text):
        yield data
    elif isinstance(data, Mapping):
        for value in data.values():
            yield from _texts(value)
    elif isinstance(data, Sequence):
        for item in data:
            yield from _texts(item)


def _writable(path: Path) -> None:
    """Refuse (RC118) a file that could not be written: a folder, in a missing or read-only
    folder, or a read-only file."""
    folder = path.parent
    if path.is_dir():
        raise InputError(f"{path}: that is a folder; give the name of a file", code="RC118")
    if not folder.is_dir():
        raise InputError(f"{path}: the folder {folder} does not exist", code="RC118")
    if not os.access(path, os.W_OK) if path.exists() else not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{path}: the file cannot be written", code="RC118")
