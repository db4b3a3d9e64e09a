"""Site benchmark: how long ``rulecraft site build`` takes, by stage, for the published games.

Run on demand (never as a timed unit test)::

    python3 benchmarks/bench_site.py [--rounds 3] [--lang en --lang fi ...] [--json FILE]

Each round builds every game of ``rulespecs/`` that has an English rulebook, in all six languages
by default, into a fresh temporary folder, with the compile cache warm (as after the first build).
The report gives, over the rounds, the median and the spread (min–max) of the wall time and of
this process's CPU time, each for the whole build and for its two stages: generating the pages
(texts, checks, scenarios played by the runtime, Markdown, SVG) and MkDocs. On a machine shared
with other work the wall time grows with the load while the CPU time does not; both are shown.
Target: under 30 s for one game in six languages.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
import statistics
import sys
import tempfile
import time

from rich.console import Console
from rich.table import Table

from rulecraft.site.book import game_folders
from rulecraft.site.build import generate, run_mkdocs
from rulecraft.site.texts import LANGUAGES

STAGES = ("generate", "mkdocs", "total")


def build_once(folders, languages) -> dict:
    """One full build in a temporary folder; returns the games published and the wall and CPU
    seconds per stage."""
    with tempfile.TemporaryDirectory(prefix="rulecraft-site-bench-") as folder:
        source, site = Path(folder) / "site-src", Path(folder) / "site"
        wall, cpu = time.perf_counter(), time.process_time()
        books = generate(folders, source, languages=languages, site_dir=site)
        wall_generated, cpu_generated = time.perf_counter(), time.process_time()
        run_mkdocs(source)
        wall_done, cpu_done = time.perf_counter(), time.process_time()
    return {"games": [book.slug for book in books],
            "wall": {"generate": wall_generated - wall, "mkdocs": wall_done - wall_generated,
                     "total": wall_done - wall},
            "cpu": {"generate": cpu_generated - cpu, "mkdocs": cpu_done - cpu_generated,
                    "total": cpu_done - cpu}}


def summarise(rounds: list[dict]) -> dict:
    """Median, min and max of every measurement over the rounds."""
    result = {}
    for clock in ("wall", "cpu"):
        for stage in STAGES:
            values = [r[clock][stage] for r in rounds]
            result[f"{clock}_{stage}"] = {"median": statistics.median(values),
                                          "min": min(values), "max": max(values)}
    return result


def main(argv: list[str] | None = None) -> int:
    """Build the site ``--rounds`` times and print (and optionally save) the timings."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="builds to time (default 3)")
    parser.add_argument("--lang", action="append", choices=LANGUAGES,
                        help="a language to build (repeatable; default: all six)")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    languages = tuple(args.lang or LANGUAGES)
    folders = game_folders()
    games = build_once(folders, languages)["games"]    # warms the compile cache and the imports
    rounds = [build_once(folders, languages) for _ in range(args.rounds)]
    summary = summarise(rounds)
    table = Table(title=f"rulecraft site build: {', '.join(games)}, "
                        f"{len(languages)} languages, {args.rounds} rounds")
    for column in ("stage", "wall median s", "wall min–max s", "CPU median s", "CPU min–max s"):
        table.add_column(column, justify="right" if column != "stage" else "left")
    for stage in STAGES:
        wall, cpu = summary[f"wall_{stage}"], summary[f"cpu_{stage}"]
        table.add_row(stage, f"{wall['median']:.1f}", f"{wall['min']:.1f}–{wall['max']:.1f}",
                      f"{cpu['median']:.1f}", f"{cpu['min']:.1f}–{cpu['max']:.1f}")
    Console().print(table)
    if args.json:
        args.json.write_text(json.dumps({"languages": languages, "rounds": rounds, "summary": summary},
                                        indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
