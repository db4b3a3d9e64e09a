"""Text files of the rulebook: one per language, English the source, translations hash-stamped.

A game's ``rulespecs/<game>/text/<lang>.yaml`` (and the site's own ``site/text/<lang>.yaml``) holds

``phases:``         a title per phase id (also used by the terminal's play-by-play)
``events:``         a Jinja2 message per event kind (also used by the terminal)
``notations:``      how each action is written in this language (``{param}`` as in the spec)
``rules:``          per rule id: ``title``, ``summary`` (one line) and ``text`` (Markdown)
``open_questions:`` per open question id: ``question`` and ``resolution`` (Markdown)
``glossary:``       per term: ``term`` and optional ``forms`` (cases), ``count`` (CLDR plural forms)
                    and ``note`` (why this word)
``pages:``          per page: ``title``, ``text`` and the page's other labels
``tables:``         per table: ``title``, ``keys`` (one header per key) and ``value``
``examples:``       per scenario id: ``title``
``faq:``            optional, where the original rulebook has questions and answers: per question
                    id, ``title`` (the question, one line) and ``answer`` (Markdown)

In a translation every mapping entry carries ``source_hash:``, the :func:`entry_hash` of the
English entry it was translated from; string entries (``phases``, ``events``, ``notations``) are
stamped under ``source_hashes: {section: {key: hash}}``. An entry whose stamp differs from the
English entry's hash is stale. Text values are Jinja2 templates filled from the spec
(:mod:`rulecraft.site.templating`); a count in them is a counted phrase,
``{{ n | plural(one='# move', other='# moves') }}`` (:mod:`rulecraft.plural`).
"""

from __future__ import annotations

from dataclasses import dataclass
import hashlib
import json
from pathlib import Path

from rulecraft.errors import Position, SiteError, SpecError, did_you_mean
from rulecraft.loader import Mapping, Text, load_yaml, plain

LANGUAGES = ("en", "fi", "ru", "es", "de", "it")
SOURCE_LANGUAGE = "en"
PAGES = ("overview", "board", "setup", "turn", "rules", "tables", "notes", "examples",
         "quick_reference")                      # the entries every game's pages: section needs
LANGUAGE_NAMES = {"en": "English", "fi": "Suomi", "ru": "Русский", "es": "Español",
                  "de": "Deutsch", "it": "Italiano"}
STRING_SECTIONS = ("phases", "events", "notations")
ENTRY_SECTIONS = ("rules", "open_questions", "glossary", "pages", "tables", "examples", "faq")
SECTIONS = STRING_SECTIONS + ENTRY_SECTIONS
HASH_KEY = "source_hash"
SITE_TEXT = Path(__file__).with_name("text")


class TextError(SpecError, SiteError):
    """A text file that is malformed, or a text whose template cannot be rendered."""

    code = "RC801"


@dataclass
class TextFile:
    """One language's text file, loaded with positions (``data`` is empty when the file is absent)."""

    language: str
    path: Path
    data: Mapping

    @property
    def exists(self) -> bool:
        return self.path.is_file()

    def section(self, name: str) -> Mapping:
        """The mapping of section ``name`` (empty when absent)."""
        value = self.data.get(name)
        return value if value is not None else _empty(self.path)

    def entry(self, section: str, key: str):
        """The entry ``key`` of ``section``, or None."""
        section_data = self.section(section)
        return section_data.get(key, section_data.get(_as_int(key)))

    def stamp(self, section: str, key: str) -> str | None:
        """The ``source_hash`` this translation recorded for an entry, or None."""
        if section in STRING_SECTIONS:
            stamps = self.section("source_hashes").get(section) or {}
            value = stamps.get(key)
        else:
            entry = self.entry(section, key)
            value = entry.get(HASH_KEY) if isinstance(entry, Mapping) else None
        return str(value) if value is not None else None

    def position(self, section: str, key: str | None = None) -> Position:
        """Where ``section`` (or its entry ``key``) stands in the file."""
        if section not in self.data:
            return self.data.position
        if key is None:
            return self.data.where(section)
        return self.section(section).where(key)


def site_languages(requested=None) -> tuple[str, ...]:
    """The rulebook languages asked for (``--lang``), checked: all of :data:`LANGUAGES` when
    none is asked for, duplicates dropped. Raises :class:`RulecraftError` (RC810) for a code that
    is not one of them (``xx``, or ``EN``: codes are lower case)."""
    if not requested:
        return LANGUAGES
    for language in requested:
        if language not in LANGUAGES:
            close = str(language).lower() if str(language).lower() in LANGUAGES else None
            hint = f": language codes are lower case, did you mean '{close}'?" if close else \
                f" (the rulebook's languages: {', '.join(LANGUAGES)})"
            raise SiteError(f"unknown language '{language}'{hint}", code="RC810")
    return tuple(dict.fromkeys(requested))


def load_text(folder: Path, language: str) -> TextFile:
    """Read ``folder/<language>.yaml`` and check its shape.

    Returns an empty :class:`TextFile` when the file does not exist. Raises :class:`TextError`
    (RC801) for an unknown section or an entry of the wrong shape, and the loader's
    :class:`SpecLoadError` for YAML that cannot be read.
    """
    path = Path(folder) / f"{language}.yaml"
    data = load_yaml(str(path)) if path.is_file() else None
    if data is None:
        data = _empty(path)
    if not isinstance(data, Mapping):
        raise TextError("a text file is a mapping of sections (rules:, glossary:, pages:, ...)",
                        Position(str(path), 1, 1))
    allowed = SECTIONS + ("source_hashes",)
    for key in data:
        if key not in allowed:
            raise TextError(f"unknown section '{key}'", data.where(key),
                            hint=did_you_mean(str(key), allowed) or "sections: " + ", ".join(allowed))
        if not isinstance(data[key], Mapping):
            raise TextError(f"'{key}:' is a mapping", data.value_at(key))
    for name in STRING_SECTIONS:
        section = data.get(name) or {}
        for key, value in section.items():
            if not isinstance(value, str):
                raise TextError(f"{name}: '{key}' is a text", section.value_at(key))
    for name in ENTRY_SECTIONS:
        section = data.get(name) or {}
        for key, value in section.items():
            if not isinstance(value, Mapping):
                raise TextError(f"{name}: '{key}' is a mapping of its texts", section.value_at(key))
            if language == SOURCE_LANGUAGE and HASH_KEY in value:
                raise TextError("the English source carries no source_hash", value.where(HASH_KEY))
    return TextFile(language, path, data)


def load_texts(folder: Path, languages=LANGUAGES) -> dict[str, TextFile]:
    """The :class:`TextFile` of each language in ``folder`` (a game's ``text/`` or the site's),
    always including English, the source the others are checked against."""
    return {language: load_text(folder, language)
            for language in dict.fromkeys((SOURCE_LANGUAGE,) + tuple(languages))}


def entry_hash(entry) -> str:
    """The stamp of an English entry: 12 hex digits of the SHA-256 of its canonical JSON.

    ``source_hash`` itself is left out, so a translation's stamp never hashes itself.
    """
    value = plain(entry)
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k != HASH_KEY}
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def texts_of(entry) -> list[Text]:
    """The template texts inside an entry (a string, or a mapping's string values, nested)."""
    if isinstance(entry, str):
        return [entry if isinstance(entry, Text) else Text(entry, Position("", 0, 0))]
    if isinstance(entry, dict):
        found = []
        for key, value in entry.items():
            if key != HASH_KEY:
                found.extend(texts_of(value))
        return found
    if isinstance(entry, list):
        return [text for item in entry for text in texts_of(item)]
    return []


def _empty(path: Path) -> Mapping:
    mapping = Mapping()
    mapping.position = Position(str(path), 1, 1)
    mapping.key_positions, mapping.value_positions = {}, {}
    return mapping


def _as_int(key):
    try:
        return int(key)
    except (TypeError, ValueError):
        return key
