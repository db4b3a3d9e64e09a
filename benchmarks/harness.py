"""Interleaved rounds over every benchmark, their medians and spreads, and the JSON report.

A benchmark is an object with a ``section`` (``games``, ``peers``, ``jobs``, ``site``), a
``name``, an ``info`` dict and ``measure(round_index) -> {metric: value}``; building it does its
set-up (compiling, sampling states, sizing a batch, the first site build). The machine is assumed
small and noisy, so :func:`run` measures in rounds: round ``r`` measures every benchmark once
before round ``r + 1`` starts, and each metric is reported as the median and the spread (min–max)
of its rounds. A benchmark that cannot be set up or fails in a round is reported as skipped, with
the reason (a peer that is not installed, a spec that does not compile); the others go on.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
import json
import os
from pathlib import Path
import platform
import statistics
from typing import Callable

from rulecraft.benchmarks.bench import METRICS, GameBench
from rulecraft.benchmarks.bench_site import SiteBench
from rulecraft.benchmarks.jobs import JobsBench
from rulecraft.benchmarks.peers import PAIRINGS, PairingBench, baseline_pairings
from rulecraft.benchmarks.targets import evaluate
from rulecraft.compiler import compile_source, game_names
from rulecraft.errors import RulecraftError

SECTIONS = ("games", "peers", "jobs", "site")
# The game whose batches the jobs row plays when it is measured; else the first game measured.
JOBS_GAME = "taktinen"


@dataclass(frozen=True)
class Config:
    """What ``rulecraft bench`` measures and how often (the command's options)."""

    games: tuple = ()
    rounds: int = 5
    playouts: int = 200
    calls: int = 5000
    compile_repeats: int = 3
    min_seconds: float = 1.0
    site: bool = True
    baseline: str | None = None  # a folder of exported engines (see benchmarks/export_engines.py)


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


def _why(error: Exception) -> str:
    """The reason a benchmark is skipped, in one line, from the error that stopped it (a long
    message, such as the site's translation worklist, is cut after its first line)."""
    if isinstance(error, ImportError):
        extra = "rl" if "spiel" in (error.name or "") else "site"
        return f"{error.name or 'a module'} is not installed (optional extra: pip install -e '.[{extra}]')"
    first, *rest = str(error).splitlines() or [""]
    return f"{first} … ({len(rest)} more lines)" if rest else first


def _benchmarks(config: Config, skipped: dict, progress: Callable[[str], None]) -> list:
    """Set up every benchmark of ``config``; those that cannot be set up go to ``skipped``."""
    made = []

    def attempt(key: str, build: Callable[[], object]) -> None:
        progress(f"setting up {key}")
        try:
            made.append(build())
        except (RulecraftError, ImportError) as error:
            skipped[key] = _why(error)

    names = list(config.games) or game_names()
    for name in names:
        attempt(f"games/{name}", lambda: GameBench(name, games=config.playouts, calls=config.calls,
                                                   compile_repeats=config.compile_repeats))
    measured = [bench.name for bench in made]
    if measured:
        compile_source(measured[0])  # build the Lark parser once, outside the timings
    pairings = [pairing for pairing in PAIRINGS if pairing.game in names]
    if config.baseline is not None:
        pairings += baseline_pairings(Path(config.baseline), measured)
    for pairing in pairings:
        attempt(f"peers/{pairing.name}", lambda: PairingBench(pairing, config.min_seconds))
    if measured:
        jobs_game = JOBS_GAME if JOBS_GAME in measured else measured[0]
        attempt(f"jobs/{jobs_game}", lambda: JobsBench(jobs_game, config.min_seconds))
    if config.site:
        attempt("site/rulebook", SiteBench)
    return made


def run(config: Config, progress: Callable[[str], None] = lambda text: None) -> dict:
    """Measure everything ``config`` asks for; returns the report (see ``docs/benchmarks.md``).

    The report holds ``machine``, ``config``, ``units`` (of the per-game metrics), ``results``
    (``{section: {name: {**info, "metrics": {metric: summary}}}}``, a summary as from
    :func:`summarize`), ``targets`` (:func:`rulecraft.benchmarks.targets.evaluate`) and
    ``skipped`` (``{"section/name": reason}``). ``progress`` is called with a short text before
    each step.
    """
    skipped: dict = {}
    benchmarks = _benchmarks(config, skipped, progress)
    values: dict = {id(bench): {} for bench in benchmarks}
    for round_index in range(config.rounds):
        for bench in list(benchmarks):
            progress(f"round {round_index + 1}/{config.rounds}: {bench.section} {bench.name}")
            try:
                measured = bench.measure(round_index)
            except RulecraftError as error:
                skipped[f"{bench.section}/{bench.name}"] = _why(error)
                benchmarks.remove(bench)
                continue
            for metric, value in measured.items():
                values[id(bench)].setdefault(metric, []).append(value)
    results: dict = {section: {} for section in SECTIONS}
    for bench in benchmarks:
        results[bench.section][bench.name] = {
            **bench.info, "metrics": {metric: summarize(v) for metric, v in values[id(bench)].items()}}
    report = {"machine": machine(), "config": asdict(config),
              "units": {metric: unit for metric, (_, unit) in METRICS.items()},
              "results": results, "skipped": skipped}
    report["targets"] = evaluate(report)
    return report


def write_json(report: dict, path: Path) -> None:
    """Write ``report`` to ``path`` as indented JSON."""
    Path(path).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
