"""The random-playout loop every engine is timed with, and rulecraft's games paired with peers.

Every engine — a generated rulecraft game, the hand-written reference, an OpenSpiel game — is
driven by the same loop, :func:`random_playout`: uniformly random decisions and chance outcomes
drawn by their probabilities, from ``random.Random(seed)``; actions are applied without a legality
check (``apply_unchecked``, OpenSpiel's ``apply_action``). :func:`playout_rates` times whole passes
through a range of seeds; the per-game playout rates of :mod:`.bench` and both sides of a pairing
here are measured by it.

Three fixed pairings, and one per game with ``--baseline DIR`` (:func:`baseline_pairings`):

* taktinen: the engine generated from ``rulespecs/taktinen`` against the hand-written reference
  engine ``benchmarks/reference/taktinen.py`` (same rules, same action ids: the same seed plays
  the same match on both, but for the spec's known issues listed in
  ``tests/test_reference_taktinen.py``);
* tic-tac-toe: ``examples/tictactoe`` against OpenSpiel's pure-Python ``python_tic_tac_toe``;
* breakthrough: ``examples/breakthrough`` against OpenSpiel's C++ ``breakthrough``;
* ``GAME ÷ baseline``: the engine the current compiler generates for a game against the one a
  previous release generated (``DIR/<game>.py``, written by ``benchmarks/export_engines.py``),
  both on the current runtime in this process.

Within a round both sides of a pairing play the same seeds, over and over until ``min_seconds``
have passed; the side measured first alternates from round to round, so the machine's drift falls
on both. The ratio is rulecraft ÷ peer (1.0: as fast; 0.1: ten times slower).
"""

from __future__ import annotations

from dataclasses import dataclass
import functools
import gc
from pathlib import Path
import random
import time
from typing import Any, Callable

from rulecraft.compiler import load_rules
from rulecraft.compiler import pycode
from rulecraft.compiler.cache import run_module
from rulecraft.errors import InputError, RulecraftError
from rulecraft.limits import MAX_FILE_BYTES
from rulecraft.runtime.engine import Game, State

# Seeds per round of a baseline pairing: few, since the slowest games take tens of ms each.
BASELINE_GAMES = 4


@dataclass(frozen=True)
class Engine:
    """One way to play random games: a label, a factory of initial states and the apply call."""

    label: str
    new_state: Callable[[], Any]
    apply: Callable[[Any, int], None]


def random_playout(engine: Engine, seed: int, visit: Callable[[Any, int], None] | None = None) -> int:
    """Play one game to the end with random choices from ``random.Random(seed)``; returns its plies.

    Works on any state with ``is_terminal``, ``is_chance_node``, ``chance_outcomes`` and
    ``legal_actions`` (rulecraft, the reference, OpenSpiel). ``visit(state, action)``, when given,
    is called before each action is applied (to sample states).
    """
    rng = random.Random(seed)
    state = engine.new_state()
    apply = engine.apply
    plies = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        if visit is not None:
            visit(state, action)
        apply(state, action)
        plies += 1
    return plies


def playout_rates(engine: Engine, seeds: range, min_seconds: float = 0.0) -> dict:
    """Random games and plies per second over whole passes through ``seeds`` (at least one pass,
    and at least ``min_seconds`` long); returns ``{"games_per_s", "plies_per_s"}``."""
    gc.collect()
    games = plies = 0
    start = time.perf_counter()
    while True:
        for seed in seeds:
            plies += random_playout(engine, seed)
        games += len(seeds)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return {"games_per_s": games / elapsed, "plies_per_s": plies / elapsed}


# ---------------------------------------------------------------- the engines
def rulecraft_game(game: str, options: dict | None = None) -> Game:
    """A game compiled by rulecraft (through the cache). Picklable by reference, so a
    :func:`functools.partial` of it can build the game in worker processes."""
    return Game(load_rules(game, options))


def rulecraft_engine(game: Game) -> Engine:
    """A game compiled by rulecraft (see :func:`rulecraft_game`), played by the generic runtime."""
    return Engine(f"rulecraft {game.id}", game.new_initial_state, State.apply_unchecked)


def reference_engine() -> Engine:
    """The hand-written taktinen engine (benchmarks/reference/taktinen.py), default options."""
    from rulecraft.benchmarks.reference import taktinen
    return Engine("hand-written taktinen", taktinen.TaktinenGame().new_initial_state,
                  taktinen.TaktinenState.apply_unchecked)


def openspiel_engine(game: str) -> Engine:
    """An OpenSpiel game by its short name; the ``python_*`` games are registered on import.

    Raises ImportError when OpenSpiel (the optional extra ``rl``) is not installed.
    """
    import importlib
    import pyspiel
    importlib.import_module("open_spiel.python.games")  # registers python_tic_tac_toe and the others

    loaded = pyspiel.load_game(game)
    return Engine(f"OpenSpiel {game}", loaded.new_initial_state, pyspiel.State.apply_action)


def baseline_engine(folder: Path, game: str) -> Engine:
    """The engine a previous release generated for ``game`` (``folder/<game>.py``, see
    ``benchmarks/export_engines.py``), run by the current runtime.

    The file is executed as a module: only point this at engines you exported. Raises RC120 when
    the file cannot be read, is larger than ``MAX_FILE_BYTES`` or fails to run on this runtime.
    """
    path = folder / f"{game}.py"
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"{path}: larger than {MAX_FILE_BYTES} bytes", code="RC120")
        source = path.read_text(encoding="utf-8")
        module = run_module(pycode.code(source, str(path)), f"rulecraft_baseline_{game}", path)
        loaded = Game(module.RULES)
    except RulecraftError:
        raise
    except Exception as error:  # an old engine may fail in any way on a newer runtime
        raise InputError(f"{path}: the baseline engine does not run on this runtime "
                             f"({type(error).__name__}: {error})", code="RC120") from None
    return Engine(f"baseline {path.parent.name}/{path.name}", loaded.new_initial_state,
                  State.apply_unchecked)


@dataclass(frozen=True)
class Pairing:
    """A rulecraft game, the factory of its peer engine, and the seeds both play per round."""

    name: str
    game: str
    make_peer: Callable[[], Engine]
    games: int


PAIRINGS = (
    Pairing("taktinen", "taktinen", reference_engine, 2),
    Pairing("tic-tac-toe", "tictactoe", lambda: openspiel_engine("python_tic_tac_toe"), 200),
    Pairing("breakthrough", "breakthrough", lambda: openspiel_engine("breakthrough"), 20),
)


def baseline_pairings(folder: Path, games: list[str]) -> list[Pairing]:
    """One pairing ``<game> ÷ baseline`` per game of ``games`` that ``folder`` holds an engine of.

    Raises RC120 when ``folder`` is not a folder.
    """
    if not folder.is_dir():
        raise InputError(f"--baseline {folder}: not a folder", code="RC120")
    return [Pairing(f"{game} ÷ baseline", game, functools.partial(baseline_engine, folder, game),
                    BASELINE_GAMES) for game in games if (folder / f"{game}.py").is_file()]


class PairingBench:
    """Both sides of a pairing, timed once per round (see the module docstring).

    Building it loads both engines: raises ImportError when the peer is not installed and
    :class:`~rulecraft.errors.RulecraftError` when the rulecraft game does not compile.
    """

    section = "peers"

    def __init__(self, pairing: Pairing, min_seconds: float):
        self.name = pairing.name
        self.ours, self.peer = rulecraft_engine(rulecraft_game(pairing.game)), pairing.make_peer()
        self.games, self.min_seconds = pairing.games, min_seconds
        self.info = {"game": pairing.game, "ours": self.ours.label, "peer": self.peer.label}

    def measure(self, round_index: int) -> dict:
        """One round: each side's random games per second on the round's seeds, and the ratio."""
        seeds = range(round_index * self.games, (round_index + 1) * self.games)
        sides = [("ours", self.ours), ("peer", self.peer)]
        rates = {key: playout_rates(engine, seeds, self.min_seconds)["games_per_s"]
                 for key, engine in sides[::1 if round_index % 2 == 0 else -1]}
        return {"ours_games_per_s": rates["ours"], "peer_games_per_s": rates["peer"],
                "ratio": rates["ours"] / rates["peer"]}
