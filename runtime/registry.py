"""Where loaded games live, so that a pickled state finds its game again, also in a fresh process.

A state pickles as its game's id, spec hash and options, and its values. Unpickling looks the
game up among the games registered in this process (by spec hash and options), else asks the
loader that the compiler installs when it is imported (:func:`set_loader`): it compiles the game
through the normal, checked compile path, from the game of that id or from a spec the compile
cache remembers, if its spec hash is the state's. Nothing is executed that the compile path would
not execute; the runtime itself never imports the compiler.
"""

from __future__ import annotations

import json
from typing import Callable

from rulecraft.errors import LogError

_GAMES: dict = {}
_loader: Callable | None = None


def _key(spec_hash: str, options: dict) -> tuple:
    return spec_hash, json.dumps(options, sort_keys=True, default=str)


def register(game) -> None:
    """Remember a :class:`~rulecraft.runtime.engine.Game` under its spec hash and options."""
    _GAMES[_key(game.rules.spec_hash, game.rules.options)] = game


def set_loader(loader: Callable) -> None:
    """Install ``loader(game_id, spec_hash, options)`` → ``RuleTables`` or None, which builds a
    game that is not registered yet (the compiler installs one when imported)."""
    global _loader
    _loader = loader


def game_for(game_id: str, spec_hash: str, options: dict):
    """The game with this spec hash and options: a registered one, else one the loader builds
    (and registers).

    Raises :class:`RulecraftError` (RC503) when neither has it: the spec of that revision is not
    on this machine, or nothing installed a loader (import ``rulecraft.compiler`` first).
    """
    key = _key(spec_hash, options)
    if key not in _GAMES:
        rules = _loader(game_id, spec_hash, options) if _loader is not None else None
        if rules is None or rules.spec_hash != spec_hash:
            how = ("no spec of that revision is under rulespecs/ or examples/, nor remembered by the "
                   "compile cache" if _loader is not None else "import rulecraft.compiler (or load "
                   "the game) before unpickling")
            raise LogError(f"a state of {game_id} (spec {spec_hash}, options {options}) needs "
                                 f"its game, which is not loaded here: {how}", code="RC503")
        from rulecraft.runtime.engine import Game
        register(Game(rules))
    return _GAMES[key]
