"""Read a game's text files (``text/<lang>.yaml``) for the play-by-play.

Only what the terminal's English play-by-play needs is read here, without the rulebook extra:
``events`` (a Jinja2 template per event kind), ``phases`` (a title per phase id) and the
``glossary``'s terms (the words the status line names fields and values with). Other
languages are narrated by :class:`rulecraft.site.narration.Narration` (the glossary, piece names
and notations of the language).
"""

from __future__ import annotations

from pathlib import Path

from rulecraft.errors import RulecraftError, SiteError, SpecError
from rulecraft.loader import load_yaml


def messages(game_dir, language: str = "en") -> dict:
    """``{"templates": {...}, "phases": {...}, "terms": {...}}`` from the game's text file (empty
    when absent; ``terms`` maps a glossary key to its ``term``);
    the messages keep their positions in the file, so that a bad one is reported there.

    Raises :class:`RulecraftError` for a text file that is not valid YAML.
    """
    path = Path(game_dir) / "text" / f"{language}.yaml"
    if not path.is_file():
        return {}
    try:
        data = load_yaml(str(path)) or {}
    except SpecError as error:
        raise RulecraftError(str(error), code=error.code, hint="") from None  # str() ends with its hint
    if not isinstance(data, dict):
        raise SiteError(f"{path}: a text file is a mapping of sections", code="RC801")
    sections = {name: data.get(name) or {} for name in ("events", "phases")}
    for name, section in sections.items():
        if not isinstance(section, dict) or not all(isinstance(v, str) for v in section.values()):
            raise SiteError(f"{path}: '{name}:' is a mapping of texts", code="RC801")
    glossary = data.get("glossary") or {}
    if not isinstance(glossary, dict):
        raise SiteError(f"{path}: 'glossary:' is a mapping of terms", code="RC801")
    terms = {str(key): str(entry["term"]) for key, entry in glossary.items()
             if isinstance(entry, dict) and isinstance(entry.get("term"), str)}
    return {"templates": dict(sections["events"]), "phases": {k: str(v) for k, v in sections["phases"].items()},
            "terms": terms}


def text_languages(game_dir) -> list[str]:
    """The languages the game's play-by-play can be narrated in: English (the spec's own names,
    text file or not) and every language with a text file, sorted."""
    folder = Path(game_dir) / "text"
    return sorted({"en"} | ({path.stem for path in folder.glob("*.yaml")} if folder.is_dir() else set()))
