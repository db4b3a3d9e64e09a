"""Per game: how fast its compiled rules play, copy, save and compile.

For each game :class:`GameBench` measures, once per round,

* random full games per second and plies per second (:func:`.peers.playout_rates`: uniformly
  random decisions, chance outcomes drawn by their probabilities, ``apply_unchecked``),
* the cost per call, in microseconds, of ``legal_actions`` (on fresh clones, so nothing is cached),
  ``apply_unchecked``, ``clone`` and a JSON round trip (``to_json`` → ``json.dumps`` →
  ``state_from_json``), over states sampled from random games,
* bytes per state (``pickle`` and the JSON text; the mean over the sampled states),
* compile time cold (``compile_source``, no cache; the Lark parser is built once beforehand) and
  cached (``load_rules`` from a warm cache in a fresh temporary ``RULECRAFT_CACHE``, the module
  dropped from ``sys.modules`` before each load, as in a fresh process).

Timing uses :func:`time.perf_counter`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import gc
import json
import os
from pathlib import Path
import pickle
import statistics
import sys
import tempfile
import time

from rulecraft.benchmarks.peers import Engine, playout_rates, random_playout, rulecraft_engine, rulecraft_game
from rulecraft.compiler import compile_source, load_rules
from rulecraft.runtime.engine import Game, State

# metric key -> (label, unit)
METRICS = {
    "games_per_s": ("random games", "games/s"),
    "plies_per_s": ("random plies", "plies/s"),
    "legal_us": ("legal_actions", "µs/call"),
    "apply_us": ("apply_unchecked", "µs/call"),
    "clone_us": ("clone", "µs/call"),
    "json_us": ("JSON round trip", "µs/call"),
    "pickle_bytes": ("state as pickle", "bytes"),
    "json_bytes": ("state as JSON", "bytes"),
    "compile_ms": ("compile, cold", "ms"),
    "cached_ms": ("load, warm cache", "ms"),
}


@dataclass
class Sample:
    """Decision and chance states met in random games, each with the action taken there."""

    states: list = field(default_factory=list)
    actions: list = field(default_factory=list)


def sample_states(engine: Engine, count: int, seed: int = 0) -> Sample:
    """``count`` non-terminal states from random games (seeds from ``seed`` on), with their actions."""
    sample = Sample()

    def keep(state: State, action: int) -> None:
        sample.states.append(state.clone())
        sample.actions.append(action)

    while len(sample.states) < count:
        random_playout(engine, seed, keep)
        seed += 1
    del sample.states[count:], sample.actions[count:]
    return sample


def _per_call_us(function, items) -> float:
    start = time.perf_counter()
    for item in items:
        function(item)
    return (time.perf_counter() - start) / len(items) * 1e6


def measure_state_costs(game: Game, sample: Sample) -> dict:
    """Microseconds per call of legal_actions, apply_unchecked, clone and a JSON round trip."""
    fresh = [state.clone() for state in sample.states]
    legal_us = _per_call_us(State.legal_actions, fresh)
    fresh = [state.clone() for state in sample.states]
    start = time.perf_counter()
    for state, action in zip(fresh, sample.actions):
        state.apply_unchecked(action)
    apply_us = (time.perf_counter() - start) / len(fresh) * 1e6
    clone_us = _per_call_us(State.clone, sample.states)
    json_us = _per_call_us(lambda state: game.state_from_json(json.dumps(state.to_json())),
                           sample.states)
    return {"legal_us": legal_us, "apply_us": apply_us, "clone_us": clone_us, "json_us": json_us}


def measure_state_sizes(sample: Sample) -> dict:
    """Mean bytes per state as pickle and as JSON text."""
    states = sample.states
    return {"pickle_bytes": statistics.fmean(len(pickle.dumps(s)) for s in states),
            "json_bytes": statistics.fmean(len(json.dumps(s.to_json())) for s in states)}


def measure_compile(name: str, repeats: int) -> dict:
    """Milliseconds to compile the spec without a cache, and to load it from a warm cache."""
    start = time.perf_counter()
    for _ in range(repeats):
        compile_source(name)
    cold_ms = (time.perf_counter() - start) / repeats * 1e3
    previous = os.environ.get("RULECRAFT_CACHE")
    with tempfile.TemporaryDirectory(prefix="rulecraft-bench-") as cache:
        os.environ["RULECRAFT_CACHE"] = cache
        try:
            load_rules(name)
            total = 0.0
            for _ in range(repeats):
                _forget_modules_in(cache)
                start = time.perf_counter()
                load_rules(name)
                total += time.perf_counter() - start
            _forget_modules_in(cache)
        finally:
            if previous is None:
                del os.environ["RULECRAFT_CACHE"]
            else:
                os.environ["RULECRAFT_CACHE"] = previous
    return {"compile_ms": cold_ms, "cached_ms": total / repeats * 1e3}


def _forget_modules_in(folder: str) -> None:
    """Drop imported modules whose file lies in ``folder``, so the next load reads the cache."""
    root = Path(folder).resolve()
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if path and Path(path).resolve().parent == root:
            del sys.modules[name]


class GameBench:
    """Every per-game metric of :data:`METRICS`, measured once per round.

    Building it compiles the game and samples ``calls`` states from random games; raises
    :class:`~rulecraft.errors.RulecraftError` when the spec does not compile or a game fails.
    """

    section = "games"

    def __init__(self, name: str, *, games: int, calls: int, compile_repeats: int):
        self.name, self.info = name, {}
        self.game = rulecraft_game(name)
        self.engine = rulecraft_engine(self.game)
        self.sample = sample_states(self.engine, calls)
        self.games, self.compile_repeats = games, compile_repeats

    def measure(self, round_index: int) -> dict:
        """One round: ``games`` random games (the round's own seeds), the per-call costs, the
        state sizes and the compile times."""
        measured = playout_rates(self.engine, range(round_index * self.games, (round_index + 1) * self.games))
        gc.collect()
        measured.update(measure_state_costs(self.game, self.sample))
        measured.update(measure_state_sizes(self.sample))
        measured.update(measure_compile(self.name, self.compile_repeats))
        return measured
