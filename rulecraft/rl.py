"""Every rulecraft game as an OpenSpiel game, a PettingZoo environment or a Gymnasium environment.

Importing this module registers every game that :func:`rulecraft.compiler.game_names` finds with
OpenSpiel as ``rulecraft_<slug>``, the spec's options being the game's parameters, so that
``pyspiel.load_game("rulecraft_pig(target=50)")`` works; a spec that does not compile is logged
and left out (:func:`register` raises its error). It lives outside :mod:`rulecraft.runtime`
because it compiles specs; the adapters themselves (:mod:`rulecraft.runtime.adapters`) take an
already built runtime game. Needs the ``rl`` extra: ``pip install 'rulecraft[rl]'``; without it
the import raises :class:`~rulecraft.errors.MissingExtraError` (RC110, an ImportError) saying so.
"""

from __future__ import annotations

from contextlib import contextmanager
import functools
import json
import logging
from typing import TYPE_CHECKING

from rulecraft.compiler import find_game, game_names, load_rules
from rulecraft.errors import MissingExtraError
from rulecraft.runtime.engine import Game
from rulecraft.runtime.registry import register as remember_game

EXTRA_MODULES = ("pyspiel", "pettingzoo", "gymnasium", "numpy")


@contextmanager
def _rl_extra():
    """Turn the import error of a package of the ``rl`` extra into :class:`MissingExtraError`."""
    try:
        yield
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in EXTRA_MODULES:
            raise
        raise MissingExtraError("rl", error.name) from None


with _rl_extra():
    import pyspiel
    from rulecraft.runtime.adapters.openspiel import register_game, short_name

if TYPE_CHECKING:
    from rulecraft.runtime.adapters.gym import RulecraftGymEnv
    from rulecraft.runtime.adapters.pettingzoo import RulecraftAECEnv

log = logging.getLogger(__name__)


def runtime_game(game, options: dict | None = None) -> Game:
    """The runtime :class:`Game` of a game name or folder under ``options`` (option values).

    Built once per process for each distinct set of options (options equal to their defaults
    count as not given) and remembered by the runtime registry. Raises
    :class:`~rulecraft.errors.RulecraftError` for an unknown game, a broken spec or a bad option.
    """
    path = str(find_game(game).resolve())
    default = _build(path, "{}")
    defaults = default.rules.options
    changed = {name: value for name, value in (options or {}).items()
               if name not in defaults or defaults[name] != value}
    return _build(path, json.dumps(changed, sort_keys=True)) if changed else default


@functools.lru_cache(maxsize=None)
def _build(path: str, options: str) -> Game:
    game = Game(load_rules(path, json.loads(options)))
    remember_game(game)
    return game


def register(game) -> str:
    """Register a game (name or folder) with OpenSpiel as ``rulecraft_<folder name>``.

    Returns the OpenSpiel name; raises :class:`~rulecraft.errors.RulecraftError` when the spec
    does not compile. Registering again is harmless.
    """
    path = find_game(game).resolve()
    name = short_name(path.parent.name)
    register_game(name, functools.partial(runtime_game, str(path)))
    return name


def register_all() -> list[str]:
    """Register every game found under ``rulespecs/`` and ``examples/``; returns their names.

    A game whose spec fails to compile is logged (with the error) and skipped, so one broken spec
    does not keep the others from OpenSpiel.
    """
    names = []
    for slug in game_names():
        try:
            names.append(register(slug))
        except Exception as error:  # a broken spec must not break the import for every game
            log.warning("rulecraft game %s is not registered with OpenSpiel: %s", slug, error)
    return names


def openspiel_game(game, **options) -> pyspiel.Game:
    """The game (name or folder) as a loaded pyspiel game with the given option values."""
    return pyspiel.load_game(register(game), options)


def pettingzoo_env(game, options: dict | None = None,
                   render_mode: str | None = None) -> RulecraftAECEnv:
    """The game (name or folder) as a PettingZoo AEC environment (see its adapter module)."""
    with _rl_extra():
        from rulecraft.runtime.adapters.pettingzoo import RulecraftAECEnv  # PettingZoo loads slowly
    return RulecraftAECEnv(runtime_game(game, options), render_mode)


def gym_env(game, options: dict | None = None, *, learner: int | str = 0, opponent: str = "greedy",
            render_mode: str | None = None) -> RulecraftGymEnv:
    """The game (name or folder) as a single-agent Gymnasium environment: ``learner`` against
    ``opponent`` bots (see its adapter module)."""
    with _rl_extra():
        from rulecraft.runtime.adapters.gym import RulecraftGymEnv  # Gymnasium loads slowly
    return RulecraftGymEnv(runtime_game(game, options), learner, opponent, render_mode)


register_all()
