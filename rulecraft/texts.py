"""Read a game's text files (``text/<lang>.yaml``) for the play-by-play.

Only the messages the terminal needs are read here: ``events`` (a Jinja2 template per event kind)
and ``phases`` (a title per phase id).
"""

from __future__ import annotations

from pathlib import Path

from rulecraft.errors import RulecraftError, SpecError
from rulecraft.loader import load_yaml, plain


def messages(game_dir, language: str = "en") -> dict:
    """``{"templates": {...}, "phases": {...}}`` from the game's text file (empty when absent).

    Raises :class:`RulecraftError` for a text file that is not valid YAML.
    """
    path = Path(game_dir) / "text" / f"{language}.yaml"
    if not path.is_file():
        return {}
    try:
        data = plain(load_yaml(str(path))) or {}
    except SpecError as error:
        raise RulecraftError(str(error), code=error.code) from None
    return {"templates": dict(data.get("events") or {}), "phases": dict(data.get("phases") or {})}
