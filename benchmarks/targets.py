"""The performance targets, each read from one run's report and set against its goal.

:data:`TARGETS`: random games per second of taktinen at least 0.8 × the hand-written reference's,
of tic-tac-toe at least 2 × OpenSpiel's pure-Python ``python_tic_tac_toe``, of Breakthrough at
least 0.25 × (stretch 0.5 ×) OpenSpiel's C++ ``breakthrough``; the slowest game compiling in under
500 ms cold and loading in under 50 ms from a warm cache; batch playouts with ``--jobs 2`` at
least 1.7 × as fast as in one process; the rulebook site built in under 30 s per game in six
languages. A target is met when the median over the rounds meets its goal.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulecraft.benchmarks.peers import PAIRINGS


@dataclass(frozen=True)
class Target:
    """One goal: where its value is in the report, and how it compares.

    ``name`` is the benchmark's name in ``section``, or None for the one with the largest median
    (the slowest game; the only batch-playout game), named in the row's label. ``per_game`` divides the value by the number of games the benchmark covers.
    """

    label: str
    section: str
    name: str | None
    metric: str
    unit: str
    goal: float
    at_least: bool
    stretch: float | None = None
    per_game: bool = False

    def goal_text(self) -> str:
        """The goal as shown, e.g. ``≥ 0.25× (stretch 0.5×)`` or ``< 50 ms``."""
        text = f"{'≥' if self.at_least else '<'} {self.goal:g}{_unit(self.unit)}"
        return f"{text} (stretch {self.stretch:g}{_unit(self.unit)})" if self.stretch else text

    def reached(self, value: float, goal: float) -> bool:
        """Whether ``value`` meets ``goal`` in this target's direction."""
        return value >= goal if self.at_least else value < goal


TARGETS = (
    Target("taktinen ÷ hand-written reference", "peers", "taktinen", "ratio", "×", 0.8, True),
    Target("tic-tac-toe ÷ OpenSpiel python_tic_tac_toe", "peers", "tic-tac-toe", "ratio",
           "×", 2.0, True),
    Target("Breakthrough ÷ OpenSpiel C++ breakthrough", "peers", "breakthrough", "ratio",
           "×", 0.25, True, stretch=0.5),
    Target("compile, cold", "games", None, "compile_ms", "ms", 500, False),
    Target("load, warm cache", "games", None, "cached_ms", "ms", 50, False),
    Target("batch playouts, --jobs 2 ÷ 1", "jobs", None, "speedup", "×", 1.7, True),
    Target("site build, per game, 6 languages", "site", "rulebook", "wall_total", "s", 30, False,
           per_game=True),
)


def _unit(unit: str) -> str:
    return unit if unit == "×" else f" {unit}"


def evaluate(report: dict) -> list[dict]:
    """One row per target of :data:`TARGETS`, in order.

    A row holds ``target`` (the label, naming the game measured where it is one of several),
    ``goal`` (text), ``unit``, ``measured`` (``{"median", "min", "max"}``, or None) and ``status``:
    ``met``, ``met, stretch too``, ``missed``, ``skipped: <reason>`` (the benchmark could not run,
    e.g. its peer is not installed) or ``not measured: <reason>`` (not asked for).
    """
    rows = []
    for target in TARGETS:
        label, measured, status = target.label, None, None
        entries = report["results"].get(target.section, {})
        if target.name is None and entries:
            name = max(entries, key=lambda n: entries[n]["metrics"][target.metric]["median"])
            label = f"{label} ({name})"
        else:
            name = target.name
        if name in entries:
            summary = entries[name]["metrics"][target.metric]
            scale = len(entries[name]["games"]) if target.per_game else 1
            measured = {key: summary[key] / scale for key in ("median", "min", "max")}
            if not target.reached(measured["median"], target.goal):
                status = "missed"
            elif target.stretch and target.reached(measured["median"], target.stretch):
                status = "met, stretch too"
            else:
                status = "met"
        else:
            status = _absent(report, target)
        rows.append({"target": label, "goal": target.goal_text(), "unit": target.unit,
                     "measured": measured, "status": status})
    return rows


def _absent(report: dict, target: Target) -> str:
    """Why a target has no measurement: its benchmark was skipped, or not asked for."""
    prefix = f"{target.section}/{target.name or ''}"
    for key, reason in report["skipped"].items():
        if key.startswith(prefix):
            return f"skipped: {reason}"
    if target.section == "site":
        return "not measured: --no-site"
    if target.section == "peers":
        game = next(pairing.game for pairing in PAIRINGS if pairing.name == target.name)
        return f"not measured: {game} not selected"
    return "not measured: no game measured"
