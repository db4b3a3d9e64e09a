"""``rulecraft bench --profile GAME``: where a game's random matches spend their time.

The game is compiled (through the cache) and ``matches`` seeded random games (seeds 0, 1, …; the
loop of :func:`rulecraft.benchmarks.peers.random_playout`) are played under :mod:`cProfile`. The
functions kept are those of the generated module and of the generic runtime
(``rulecraft.runtime``), sorted by cumulative time; a generated function is shown with the first
line of its docstring, which names the phase or action and the rule it was compiled from
(``Action move_player, rule 4.4.2``), so a designer sees which rule is slow.
"""

from __future__ import annotations

import cProfile
from dataclasses import dataclass
import os
import pstats
import sys

from rich.table import Table

from rulecraft.benchmarks.peers import random_playout, rulecraft_engine, rulecraft_game
import rulecraft.runtime

RUNTIME_DIR = os.path.dirname(os.path.abspath(rulecraft.runtime.__file__))


@dataclass(frozen=True)
class Hot:
    """One profiled function: where it is, what it comes from and its times (seconds)."""

    where: str  # "generated" or "runtime"
    name: str
    origin: str  # the generated function's docstring line, or the runtime file:line
    calls: int
    own_s: float
    cumulative_s: float


def _generated_functions(module) -> list[tuple[int, str, str]]:
    """``(first line, name, docstring's first line)`` of the generated module's top-level
    functions, by first line."""
    out = []
    for value in vars(module).values():
        code = getattr(value, "__code__", None)
        if code is not None and code.co_filename == module.__file__:
            doc = (value.__doc__ or "").strip().splitlines()
            out.append((code.co_firstlineno, code.co_name, doc[0] if doc else ""))
    return sorted(out)


def _origin(functions: list[tuple[int, str, str]], line: int, name: str) -> str:
    """What a generated function at ``line`` comes from: its docstring line; for a nested
    function (a generator expression) or one without a docstring, the enclosing top-level
    function's name and docstring line."""
    enclosing = [item for item in functions if item[0] <= line]
    if not enclosing:
        return f"line {line}"
    first, outer, doc = enclosing[-1]
    if first == line and outer == name and doc:
        return doc
    return f"in {outer}: {doc}" if doc else f"line {line}"


def profile_game(game: str, matches: int) -> tuple[list[Hot], float]:
    """Play ``matches`` seeded random games of ``game`` under cProfile.

    Returns the generated and runtime functions by cumulative time (largest first) and the total
    profiled seconds. Raises :class:`~rulecraft.errors.RulecraftError` when the game does not
    compile.
    """
    compiled = rulecraft_game(game)
    engine = rulecraft_engine(compiled)
    module = sys.modules[compiled.rules.actions[0].generate.__module__] if compiled.rules.actions \
        else None
    generated_file = getattr(module, "__file__", None)
    functions = _generated_functions(module) if module is not None else []
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(matches):
        random_playout(engine, seed)
    profiler.disable()
    stats = pstats.Stats(profiler)
    hot = []
    for (filename, line, name), (_, calls, own, cumulative, _) in stats.stats.items():
        if filename == generated_file:
            hot.append(Hot("generated", name, _origin(functions, line, name), calls, own,
                           cumulative))
        elif os.path.dirname(os.path.abspath(filename)) == RUNTIME_DIR:
            hot.append(Hot("runtime", name, f"{os.path.basename(filename)}:{line}", calls, own,
                           cumulative))
    hot.sort(key=lambda item: item.cumulative_s, reverse=True)
    return hot, stats.total_tt


def profile_table(game: str, hot: list[Hot], total_s: float, matches: int, top: int) -> Table:
    """The ``top`` functions of :func:`profile_game` as a table (share = cumulative ÷ total);
    a runtime function's ``from`` is ``runtime file:line``."""
    table = Table(title=f"{game}: {matches} random match{'es' if matches != 1 else ''} under "
                        f"cProfile, {total_s * 1000:,.0f} ms; by cumulative time", title_justify="left")
    table.add_column("function", no_wrap=True)  # a name cut short could not be searched for
    for column in ("calls", "own ms", "cum. ms", "share"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("from", ratio=1)
    for item in hot[:top]:
        share = item.cumulative_s / total_s if total_s else 0.0
        origin = item.origin if item.where == "generated" else f"runtime {item.origin}"
        table.add_row(item.name, f"{item.calls:,}", f"{item.own_s * 1000:,.1f}",
                      f"{item.cumulative_s * 1000:,.1f}", f"{share:.0%}", origin)
    return table
