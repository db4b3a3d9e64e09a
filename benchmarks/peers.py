"""rulecraft's generated engines against hand-written peers, timed in one process.

Three pairings (issue 7, parts 2 and 3):

* taktinen: the engine generated from ``rulespecs/taktinen`` against the hand-written reference
  engine ``benchmarks/reference/taktinen.py`` (same rules, same action ids: the same seed plays
  the same match on both, but for the spec's known issues listed in
  ``tests/test_reference_taktinen.py``);
* tic-tac-toe: ``examples/tictactoe`` against OpenSpiel's pure-Python ``python_tic_tac_toe``;
* breakthrough: ``examples/breakthrough`` against OpenSpiel's C++ ``breakthrough``.

Every engine is driven by the same loop, :func:`random_playout`: uniformly random decisions and
chance outcomes drawn by their probabilities, from ``random.Random(seed)``; actions are applied
without a legality check (``apply_unchecked``, OpenSpiel's ``apply_action``). Within a round both
sides of a pairing play the same seeds, over and over until ``min_seconds`` have passed, and the
rounds are interleaved (every pairing, both sides, then the next round; the side measured first
alternates), so the machine's drift falls on both. The report gives, per pairing, each side's
random games per second and the ratio rulecraft ÷ peer (1.0: as fast; 0.1: ten times slower)
as the median and the spread (min–max) over the rounds. Run on demand, never as a timed test::

    python3 benchmarks/peers.py [--rounds 5] [--min-seconds 1.0]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
import gc
import importlib.util
from pathlib import Path
import random
import statistics
import sys
import time
from typing import Any, Callable

from rulecraft.compiler import load_rules
from rulecraft.runtime.engine import Game, State

REFERENCE_PATH = Path(__file__).resolve().parent / "reference" / "taktinen.py"


@dataclass(frozen=True)
class Engine:
    """One way to play random games: a label, a factory of initial states and the apply call."""

    label: str
    new_state: Callable[[], Any]
    apply: Callable[[Any, int], None]


@dataclass(frozen=True)
class Pairing:
    """A rulecraft engine, its peer, and the seeds both play in each round."""

    name: str
    ours: Engine
    peer: Engine
    games: int


@dataclass
class Comparison:
    """The per-round games per second of both sides of a pairing."""

    name: str
    ours: str
    peer: str
    ours_games_per_s: list = field(default_factory=list)
    peer_games_per_s: list = field(default_factory=list)

    @property
    def ratios(self) -> list[float]:
        """rulecraft's games per second divided by the peer's, round by round."""
        return [ours / peer for ours, peer in zip(self.ours_games_per_s, self.peer_games_per_s)]

    def summary(self) -> dict:
        """Median and min–max of each side's games per second and of the ratio."""
        return {key: {"median": statistics.median(values), "min": min(values), "max": max(values)}
                for key, values in (("ours", self.ours_games_per_s), ("peer", self.peer_games_per_s),
                                    ("ratio", self.ratios))}


def random_playout(engine: Engine, seed: int) -> int:
    """Play one game to the end with random choices from ``random.Random(seed)``; returns its plies.

    Works on any state with ``is_terminal``, ``is_chance_node``, ``chance_outcomes`` and
    ``legal_actions`` (rulecraft, the reference, OpenSpiel).
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
        apply(state, action)
        plies += 1
    return plies


def games_per_second(engine: Engine, seeds: range, min_seconds: float) -> float:
    """Random games per second over whole passes through ``seeds``, at least ``min_seconds`` long."""
    gc.collect()
    played, start = 0, time.perf_counter()
    while True:
        for seed in seeds:
            random_playout(engine, seed)
        played += len(seeds)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return played / elapsed


# ---------------------------------------------------------------- the engines
def rulecraft_engine(game: str, options: dict | None = None) -> Engine:
    """A game compiled by rulecraft (through the cache), played by the generic runtime."""
    runtime = Game(load_rules(game, options))
    return Engine(f"rulecraft {game}", runtime.new_initial_state, State.apply_unchecked)


def reference_engine() -> Engine:
    """The hand-written taktinen engine (benchmarks/reference/taktinen.py), default options."""
    spec = importlib.util.spec_from_file_location("taktinen_reference", REFERENCE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = module.TaktinenGame()
    return Engine("hand-written taktinen", game.new_initial_state, module.TaktinenState.apply_unchecked)


def openspiel_engine(game: str) -> Engine:
    """An OpenSpiel game by its short name; the ``python_*`` games are registered on import.

    Raises ImportError when OpenSpiel is not installed.
    """
    import pyspiel
    import open_spiel.python.games  # noqa: F401 - registers python_tic_tac_toe and the others

    loaded = pyspiel.load_game(game)
    return Engine(f"OpenSpiel {game}", loaded.new_initial_state, pyspiel.State.apply_action)


def taktinen_vs_reference(games: int = 2) -> Pairing:
    """The generated taktinen against the hand-written reference, ``games`` seeds per round."""
    return Pairing("taktinen", rulecraft_engine("taktinen"), reference_engine(), games)


def tictactoe_vs_openspiel_python(games: int = 200) -> Pairing:
    """rulecraft tic-tac-toe against OpenSpiel's pure-Python ``python_tic_tac_toe``."""
    return Pairing("tic-tac-toe", rulecraft_engine("tictactoe"), openspiel_engine("python_tic_tac_toe"), games)


def breakthrough_vs_openspiel(games: int = 20) -> Pairing:
    """rulecraft breakthrough against OpenSpiel's C++ ``breakthrough``."""
    return Pairing("breakthrough", rulecraft_engine("breakthrough"), openspiel_engine("breakthrough"), games)


PAIRINGS = (taktinen_vs_reference, tictactoe_vs_openspiel_python, breakthrough_vs_openspiel)


# ---------------------------------------------------------------- measuring and reporting
def compare(pairings: list[Pairing], rounds: int = 5, min_seconds: float = 1.0,
            progress: Callable[[str], None] | None = None) -> list[Comparison]:
    """Time every pairing over ``rounds`` interleaved rounds (see the module docstring)."""
    results = [Comparison(p.name, p.ours.label, p.peer.label) for p in pairings]
    for round_index in range(rounds):
        for pairing, result in zip(pairings, results):
            if progress is not None:
                progress(f"round {round_index + 1}/{rounds}: {pairing.name}")
            seeds = range(round_index * pairing.games, (round_index + 1) * pairing.games)
            sides = [(pairing.ours, result.ours_games_per_s), (pairing.peer, result.peer_games_per_s)]
            for engine, values in sides[::1 if round_index % 2 == 0 else -1]:
                values.append(games_per_second(engine, seeds, min_seconds))
    return results


def report(results: list[Comparison], rounds: int) -> list[str]:
    """One line per pairing: each side's games per second and the ratio, median (min–max)."""
    lines = [f"random games per second, median (min–max) of {rounds} interleaved rounds; "
             "ratio = rulecraft ÷ peer"]
    for result in results:
        summary = result.summary()
        shown = {key: f"{_number(s['median'])} ({_number(s['min'])}–{_number(s['max'])})"
                 for key, s in summary.items()}
        lines.append(f"{result.name}: {result.ours} {shown['ours']}, {result.peer} {shown['peer']}; "
                     f"ratio {shown['ratio']}")
    return lines


def _number(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: measure every pairing and print the report; returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--min-seconds", type=float, default=1.0,
                        help="least time each side plays per pairing and round (default 1.0)")
    args = parser.parse_args(argv)
    pairings = [make() for make in PAIRINGS]
    results = compare(pairings, args.rounds, args.min_seconds,
                      progress=lambda text: print(text, file=sys.stderr, flush=True))
    print("\n".join(report(results, args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
