"""Performance harness: how fast every game's compiled rules play, copy, save and compile.

Run on demand (never as a timed unit test)::

    python3 benchmarks/bench.py [GAME ...] [--rounds 5] [--games 200] [--calls 5000] [--json FILE]

For each game (all of :func:`rulecraft.compiler.game_names` by default) it measures

* random full games per second and plies per second (a seeded :class:`RandomBot` per team, chance
  nodes resolved by :func:`rulecraft.runtime.match.chance_outcome`),
* the cost per call, in microseconds, of ``legal_actions`` (on fresh clones, so nothing is cached),
  ``apply_unchecked``, ``clone`` and a JSON round trip (``to_json`` → ``json.dumps`` →
  ``state_from_json``), over states sampled from random games,
* bytes per state (``pickle`` and the JSON text; the mean over the sampled states),
* compile time cold (``compile_source``, no cache; the Lark parser is built once beforehand) and
  cached (``load_rules`` from a warm cache in a fresh temporary ``RULECRAFT_CACHE``, the module
  dropped from ``sys.modules`` before each load, as in a fresh process).

The machine is assumed small and noisy: every measurement is repeated over ``rounds`` rounds, each
round going through all games in turn (interleaved), and the report gives the median and the spread
(min–max) of the rounds. Timing uses :func:`time.perf_counter`.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
import gc
import json
import os
from pathlib import Path
import pickle
import platform
import random
import statistics
import sys
import tempfile
import time

from rich.console import Console
from rich.table import Table

from rulecraft.compiler import compile_source, game_names, load_rules
from rulecraft.errors import RulecraftError
from rulecraft.runtime.bots import RandomBot
from rulecraft.runtime.engine import Game, State
from rulecraft.runtime.match import chance_outcome

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


def play_random_game(game: Game, seed: int) -> int:
    """Play one random game to the end with seeded random bots; returns its number of plies."""
    state = game.new_initial_state()
    bots = [RandomBot(seed * 100 + team) for team in range(game.num_teams)]
    while not state.is_terminal():
        if state.is_chance_node():
            action = chance_outcome(state, seed)
        else:
            action = bots[state.current_player()].choose(state)
        state.apply_unchecked(action)
    return state.ply


def sample_states(game: Game, count: int, seed: int = 0) -> Sample:
    """``count`` non-terminal states from random games (seeds from ``seed`` on), with their actions."""
    sample = Sample()
    rng = random.Random(seed)
    game_seed = seed
    while len(sample.states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(sample.states) < count:
            if state.is_chance_node():
                action = chance_outcome(state, game_seed)
            else:
                action = rng.choice(state.legal_actions())
            sample.states.append(state.clone())
            sample.actions.append(action)
            state.apply_unchecked(action)
        game_seed += 1
    return sample


def measure_playouts(game: Game, games: int, first_seed: int) -> dict:
    """Random full games per second and plies per second over ``games`` games."""
    start = time.perf_counter()
    plies = sum(play_random_game(game, seed) for seed in range(first_seed, first_seed + games))
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "plies_per_s": plies / elapsed}


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


def run(names: list[str] | None = None, *, rounds: int = 5, games: int = 200, calls: int = 5000,
        compile_repeats: int = 3, progress=None) -> tuple[dict, dict]:
    """Benchmark ``names`` (default: every game); returns ``(results, skipped)``.

    ``results`` maps each game to ``{metric: summary}``, a summary holding the ``median``, ``min``,
    ``max`` and the per-round ``samples``; ``skipped`` maps each game that could not be measured
    (its spec does not compile, or a random game of it fails) to the reason. Rounds are interleaved: round ``r`` measures every game before round
    ``r + 1`` starts. ``progress`` is called with a short text before each game of each round.
    """
    loaded, skipped = {}, {}
    for name in names or game_names():
        try:
            loaded[name] = Game(load_rules(name))
        except RulecraftError as error:
            skipped[name] = f"its spec does not compile: {error}"
    samples = {}
    for name, game in list(loaded.items()):
        try:
            samples[name] = sample_states(game, calls)
        except RulecraftError as error:
            skipped[name] = f"a random game failed: {error}"
            del loaded[name]
    if not loaded:
        return {}, skipped
    compile_source(next(iter(loaded)))  # build the Lark parser once, outside the timings
    results: dict = {name: {metric: [] for metric in METRICS} for name in loaded}
    for round_index in range(rounds):
        for name, game in list(loaded.items()):
            if progress is not None:
                progress(f"round {round_index + 1}/{rounds}: {name}")
            gc.collect()
            measured = {}
            try:
                measured.update(measure_playouts(game, games, first_seed=round_index * games))
            except RulecraftError as error:
                skipped[name] = f"a random game failed: {error}"
                del loaded[name], results[name]
                continue
            measured.update(measure_state_costs(game, samples[name]))
            measured.update(measure_state_sizes(samples[name]))
            measured.update(measure_compile(name, compile_repeats))
            for metric, value in measured.items():
                results[name][metric].append(value)
    summaries = {name: {metric: summarize(values) for metric, values in metrics.items()}
                 for name, metrics in results.items()}
    return summaries, skipped


def summarize(values: list[float]) -> dict:
    """The median, min and max of one metric's per-round values, with the values themselves."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "samples": list(values)}


def machine() -> dict:
    """A short description of the machine and interpreter the numbers come from."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    return {"cpus": os.cpu_count(), "cpu": model, "python": platform.python_version(),
            "platform": platform.platform()}


def _number(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def tables(results: dict) -> list[Table]:
    """One rich table per game: metric, median, spread (min–max) and unit."""
    out = []
    for name, metrics in results.items():
        table = Table(title=name, title_justify="left")
        table.add_column("metric")
        table.add_column("median", justify="right")
        table.add_column("min–max", justify="right")
        table.add_column("unit")
        for metric, (label, unit) in METRICS.items():
            summary = metrics[metric]
            table.add_row(label, _number(summary["median"]),
                          f"{_number(summary['min'])}–{_number(summary['max'])}", unit)
        out.append(table)
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints the tables and optionally writes JSON.

    Returns 0, or 1 when a game named on the command line had to be skipped.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="games to measure (default: all)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--games", dest="playouts", type=int, default=200,
                        help="random games per game and round (default 200)")
    parser.add_argument("--calls", type=int, default=5000,
                        help="sampled states for the per-call costs (default 5000)")
    parser.add_argument("--compile-repeats", type=int, default=3,
                        help="compilations and cached loads per game and round (default 3)")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    console = Console()
    status = Console(stderr=True)
    results, skipped = run(args.games, rounds=args.rounds, games=args.playouts, calls=args.calls,
                           compile_repeats=args.compile_repeats,
                           progress=lambda text: status.print(text, style="dim", highlight=False))
    info = machine()
    console.print(f"{info['cpus']} CPUs, {info['cpu']}, Python {info['python']}; "
                  f"median and min–max of {args.rounds} rounds", highlight=False)
    for table in tables(results):
        console.print(table)
    for name, message in skipped.items():
        console.print(f"{name}: skipped; {message}", highlight=False, markup=False)
    if args.json is not None:
        config = {"rounds": args.rounds, "games": args.playouts, "calls": args.calls,
                  "compile_repeats": args.compile_repeats}
        units = {metric: unit for metric, (_, unit) in METRICS.items()}
        args.json.write_text(json.dumps({"machine": info, "config": config, "units": units,
                                         "results": results, "skipped": skipped},
                                        indent=2) + "\n", encoding="utf-8")
        console.print(f"wrote {args.json}")
    return 1 if args.games and skipped else 0


if __name__ == "__main__":
    sys.exit(main())
