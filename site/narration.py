"""A game's play-by-play in one language: the same lines on the site and in the terminal.

:class:`Narration` is the runtime's :class:`~rulecraft.runtime.narrate.Narrator` speaking a
language of the game's text files: event messages are rendered with the language's glossary
(``term[…]``, grammatical forms, the ``plural``, ``signed`` and ``upfirst`` filters) and may name
pieces with ``piece_name(…)``; phases get the language's titles; actions are written with its
``notations:``. The rulebook's example player (:mod:`rulecraft.site.examples`) and
``rulecraft play --lang`` both narrate through it, so a line reads the same in both.
:class:`Names` says how spec names (teams, pieces, actions) read in a language.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path

from rulecraft.runtime.engine import notation_values, parse_notation
from rulecraft.runtime.narrate import Narrator
from rulecraft.sandbox import Exposed
from rulecraft.site.book import Book


class Names:
    """How spec names read in one language: pieces, teams, actions (``notations:``)."""

    def __init__(self, book, language, game, options=None):
        self.ir = book.ir(options)
        self.renderer = book.renderer(language)
        self.terms = self.renderer.names["term"]
        self.texts = book.texts[language]
        self.game = game
        self._piece_names: dict[int, str] = {}
        self._notations: dict = {}

    def word(self, name: str):
        """The glossary term of a spec name, or the name itself (space names, numbers)."""
        return self.terms[name] if name in self.terms else name

    def piece_variables(self, piece: int) -> dict:
        """``team`` and ``kind`` (glossary terms) and ``number`` of a piece, for its name."""
        ir_piece = self.ir.pieces[piece]
        kind = self.ir.kinds[ir_piece.kind] if ir_piece.kind >= 0 else "piece"
        same = [i for i, q in enumerate(self.ir.pieces)
                if q.team == ir_piece.team and q.kind == ir_piece.kind]
        number = str(ir_piece.number or (same.index(piece) + 1 if len(same) > 1 else ""))
        return {"team": self.word(self.ir.teams[ir_piece.team]), "kind": self.word(kind), "number": number}

    def piece(self, piece: int) -> str:
        """A piece's name in this language, from ``pages.examples.piece`` ("home outfield 3");
        the engine's label while a translation lacks it (``site check`` lists it as missing)."""
        if piece not in self._piece_names:
            entry = self.texts.entry("pages", "examples")
            pattern = entry.get("piece") if isinstance(entry, dict) else None
            name = (self.renderer.render(pattern, **self.piece_variables(piece)) if pattern
                    else self.game.rules.piece_labels[piece])
            self._piece_names[piece] = " ".join(name.split())
        return self._piece_names[piece]

    def piece_named(self, label: str) -> str:
        """The name in this language of the piece the engine calls ``label``."""
        return self.piece(self.game.rules.piece_labels.index(label))

    def mark(self, piece: int) -> str:
        """The short mark drawn on a piece: its number, or its kind's ``short`` form; a piece
        numbered in the spec of a game with several kinds shows both (X5, □4)."""
        variables = self.piece_variables(piece)
        kind = variables["kind"]
        short = kind.form("short") if hasattr(kind, "form") else None
        if self.ir.pieces[piece].number and len(self.ir.kinds) > 1:
            return f"{short or kind}{variables['number']}"
        return variables["number"] or short or str(kind)[:1].upper()

    def pieces(self) -> list[dict]:
        """Every piece as the player draws it: team, kind, mark and name."""
        ir = self.ir
        return [{"team": piece.team, "kind": ir.kinds[piece.kind] if piece.kind >= 0 else "piece",
                 "mark": self.mark(index), "name": self.piece(index)}
                for index, piece in enumerate(ir.pieces)]

    def notation_template(self, definition):
        """The parsed notation of an action in this language: its ``notations:`` entry, else the
        spec's. Raises :class:`~rulecraft.errors.SpecError` (RC348) at the text file's line and
        column for a template that is not a notation of the action."""
        if definition.name not in self._notations:
            template = self.texts.section("notations").get(definition.name)
            self._notations[definition.name] = parse_notation(definition, template)
        return self._notations[definition.name]

    def notation(self, action: int) -> str:
        """An action id written with this language's ``notations:`` template."""
        game = self.game
        definition = game.action_def(action)
        return self.notation_template(definition).fill(*notation_values(game, definition, action, self.shown))

    def shown(self, kind: str, value: int) -> str:
        """A parameter's value as this language's notation writes it (piece names, glossary terms)."""
        if kind == "piece":
            return self.piece(value)
        shown = self.game.display(kind, value)
        if kind in ("team", "kind") or kind.startswith("enum:"):
            return str(self.word(shown))
        return shown


class Narration(Narrator):
    """The play-by-play of ``game`` (played under ``options``) in ``language``, from ``book``'s
    text files (see the module docstring)."""

    def __init__(self, book: Book, language: str, game, options: dict | None = None):
        texts = book.texts[language]
        self.renderer = book.renderer(language)
        super().__init__(game, templates=texts.section("events"), phases=texts.section("phases"))
        self.names = Names(book, language, game, options)

    @classmethod
    def of_game(cls, folder, language: str, game, options: dict | None = None) -> "Narration":
        """The narration of the game whose spec is in ``folder`` (as ``rulecraft play`` needs it)."""
        return cls(Book(Path(folder), (language,)), language, game, options)

    def word(self, name: str) -> str:
        """A spec name (a field, a team, an enum value) in the language: its glossary term,
        else the name with its underscores as spaces."""
        return str(self.names.terms[name]) if name in self.names.terms else super().word(name)

    def piece_name(self, piece: int) -> str:
        """A piece's name in the language, as the play-by-play names it (:meth:`Names.piece`)."""
        return self.names.piece(piece)

    def notation(self, action: int) -> str:
        """A decision action id written with the language's ``notations:``."""
        return self.names.notation(action)

    def rule_title(self, rule: str) -> str | None:
        """The title of rule ``rule`` in the language's ``rules:`` section (rendered), or None
        when the texts give none."""
        entry = self.names.texts.entry("rules", rule) if rule else None
        title = entry.get("title") if isinstance(entry, Mapping) else None
        return self.renderer.render(title) if title is not None else None

    def check(self, kind: str, message) -> None:
        """Read a message through the rulebook's renderer (its filters included); raises
        :class:`~rulecraft.site.texts.TextError` at the text file's line and column."""
        self.renderer.check(message)

    def render(self, kind: str, shown: dict) -> str:
        """The language's message of ``kind`` through the rulebook's renderer (raises
        :class:`~rulecraft.site.texts.TextError` at the text file's line and column)."""
        return self.renderer.render(self.messages[kind], piece_name=self._piece_name, **shown)

    @cached_property
    def _piece_name(self) -> Exposed:
        """``piece_name('X5')`` in a message: the piece's name in this language."""
        return Exposed(self.names.piece_named)
