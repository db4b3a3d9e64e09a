"""Where loaded games live, so a pickled state can find its game again in a fresh process.

A state pickles as its game id, options and values. Unpickling looks the game up here; in a fresh
process the generated module is found in the compile cache (``$RULECRAFT_CACHE``), which holds
plain Python modules that import only the runtime.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
import sys

from rulecraft.errors import LogError, RulecraftError

_GAMES: dict = {}


def _key(game_id: str, options: dict) -> tuple:
    return game_id, json.dumps(options, sort_keys=True)


def register(game) -> None:
    """Remember a :class:`~rulecraft.runtime.engine.Game` under its id and options."""
    _GAMES[_key(game.id, game.rules.options)] = game


def game_for(game_id: str, options: dict):
    """The game with this id and options: a registered one, else one from the compile cache.

    Raises :class:`RulecraftError` (RC503) when the game was never compiled on this machine.
    """
    key = _key(game_id, options)
    if key not in _GAMES:
        from rulecraft.runtime.engine import Game
        for rules in _cached_rules(game_id):
            if _key(rules.game_id, rules.options) == key:
                register(Game(rules))
                break
        else:
            raise LogError(f"game {game_id} with options {options} is not compiled here; "
                                 f"run 'rulecraft compile {game_id}' first", code="RC503")
    return _GAMES[key]


def _cached_rules(game_id: str):
    cache = Path(os.environ.get("RULECRAFT_CACHE", Path.home() / ".cache" / "rulecraft"))
    for path in sorted(cache.glob("*.py"), key=lambda p: p.stat().st_mtime, reverse=True):
        name = f"rulecraft_rules_{path.stem}"
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception:  # a stale file from another rulecraft version
                continue
            sys.modules[name] = module
        rules = getattr(module, "RULES", None)
        if rules is not None and rules.game_id == game_id:
            yield rules
