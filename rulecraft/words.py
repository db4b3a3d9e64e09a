"""The terminal's own words (prompts, help, status, save messages) in the six site languages.

A game's texts (its play-by-play, phases, notations) live in the game's text files; these are
the words the terminal itself says around them, the same in every game. They are written in
``rulecraft/text/<lang>.yaml``, one file per language, read with the project's safe YAML loader,
each a template of the text sandbox (:class:`rulecraft.sandbox.Sandbox`): ``{{ path }}`` writes a
value, and a count is a counted phrase, ``{{ plies | plural(one="# ply", other="# plies") }}``
(:mod:`rulecraft.plural`). :func:`say` looks one up for ``rulecraft play --lang``; a language
without a text falls back to English, and ``tests/test_play.py`` checks that every text is written
in all six languages and that its counted phrases have the forms its language needs.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from rulecraft.loader import load_yaml
from rulecraft.plural import plural_filter
from rulecraft.sandbox import Sandbox

LANGUAGES = ("en", "fi", "ru", "es", "de", "it")
TEXT = Path(__file__).with_name("text")


@cache
def words(language: str) -> dict:
    """``{key: text}`` from ``rulecraft/text/<language>.yaml`` (empty for a language without a
    file); each text keeps its place in the file. Raises
    :class:`rulecraft.errors.SpecLoadError` if the file is not valid YAML."""
    path = TEXT / f"{language}.yaml"
    if language not in LANGUAGES or not path.is_file():
        return {}
    return {str(key): text for key, text in (load_yaml(str(path)) or {}).items()}


@cache
def sandbox(language: str) -> Sandbox:
    """The sandbox the terminal's words of ``language`` render in: its ``plural`` filter
    follows that language's plural rule."""
    return Sandbox(filters={"plural": plural_filter(language)})


def say(language: str, key: str, **values) -> str:
    """The terminal text ``key`` in ``language`` (English when that language lacks it), with
    ``values`` filled in; ``values`` are shown as given (names, numbers, paths), never read as
    templates of their own. Raises ``KeyError`` for a key English lacks, and
    :class:`rulecraft.sandbox.TemplateProblem` for a text that does not render."""
    own = words(language).get(key)
    if own is None:
        language, own = "en", words("en")[key]
    return sandbox(language).render(own, values)
