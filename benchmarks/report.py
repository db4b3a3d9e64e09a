"""The tables ``rulecraft bench`` prints, from the report of :func:`rulecraft.benchmarks.harness.run`.

Every figure is shown as the median over the rounds and, where it varies, its spread (min–max).
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from rulecraft.benchmarks.bench import METRICS
from rulecraft.benchmarks.bench_site import STAGES

STATUS_STYLES = {"met": "green", "missed": "bold red"}


def number(value: float) -> str:
    """A figure with about three significant digits, thousands separated (``1,656``, ``6.50``)."""
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def spread(summary: dict, unit: str = "") -> str:
    """``median (min–max)`` of a summary, ``unit`` after the median (``2.41× (2.30–2.52)``)."""
    return f"{number(summary['median'])}{unit} ({number(summary['min'])}–{number(summary['max'])})"


def heading(report: dict) -> str:
    """One line: the machine, the interpreter and the number of rounds."""
    info, rounds = report["machine"], report["config"]["rounds"]
    return (f"{info['cpus']} CPUs, {info['cpu']}, Python {info['python']}; "
            f"median and min–max of {rounds} interleaved round{'s' if rounds != 1 else ''}")


def game_tables(report: dict) -> list[Table]:
    """One table per game: metric, median, spread (min–max) and unit."""
    out = []
    for name, entry in report["results"]["games"].items():
        table = Table(title=name, title_justify="left")
        for column, justify in (("metric", "left"), ("median", "right"), ("min–max", "right"),
                                ("unit", "left")):
            table.add_column(column, justify=justify)
        for metric, (label, unit) in METRICS.items():
            summary = entry["metrics"][metric]
            table.add_row(label, number(summary["median"]),
                          f"{number(summary['min'])}–{number(summary['max'])}", unit)
        out.append(table)
    return out


def peers_table(report: dict) -> Table | None:
    """Random games per second of rulecraft and of each peer, and the ratio; None without peers."""
    peers = report["results"]["peers"]
    if not peers:
        return None
    table = Table(title="against peers: random games/s (medians); ratio = rulecraft ÷ peer",
                  title_justify="left")
    for column in ("pairing", "peer", "rulecraft", "peer", "ratio (min–max)"):
        table.add_column(column, justify="left" if column == "pairing" else "right")
    table.columns[1].justify = "left"
    for name, entry in peers.items():
        metrics = entry["metrics"]
        table.add_row(name, entry["peer"], number(metrics["ours_games_per_s"]["median"]),
                      number(metrics["peer_games_per_s"]["median"]), spread(metrics["ratio"], "×"))
    return table


def jobs_table(report: dict) -> Table | None:
    """Batch-playout games per second with one process and with several; None if not measured."""
    jobs = report["results"]["jobs"]
    if not jobs:
        return None
    table = Table(title="batch playouts (rulecraft simulate, random bots): games/s (medians)",
                  title_justify="left")
    for column in ("game", "matches", "1 process", "processes", "games/s", "speed-up (min–max)"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name, entry in jobs.items():
        metrics = entry["metrics"]
        table.add_row(name, str(entry["matches"]), number(metrics["one_process_games_per_s"]["median"]),
                      str(entry["jobs"]), number(metrics["parallel_games_per_s"]["median"]),
                      spread(metrics["speedup"], "×"))
    return table


def site_table(report: dict) -> Table | None:
    """Wall and CPU seconds of each stage of the site build; None if not measured."""
    site = report["results"]["site"]
    if not site:
        return None
    entry = next(iter(site.values()))
    table = Table(title=f"rulecraft site build: {', '.join(entry['games'])}, "
                        f"{len(entry['languages'])} languages, seconds", title_justify="left")
    for column in ("stage", "wall", "CPU (this process)"):
        table.add_column(column, justify="left" if column == "stage" else "right")
    for stage in STAGES:
        metrics = entry["metrics"]
        table.add_row(stage, spread(metrics[f"wall_{stage}"]), spread(metrics[f"cpu_{stage}"]))
    return table


def targets_table(report: dict) -> Table:
    """The targets: what was measured, the goal, and met, missed or why it was not measured."""
    table = Table(title="performance targets", title_justify="left")
    for column in ("target", "measured (min–max)", "goal", "status"):
        table.add_column(column, justify="right" if column.startswith("measured") else "left")
    for row in report["targets"]:
        measured = row["measured"]
        unit = row["unit"] if row["unit"] == "×" else f" {row['unit']}"
        table.add_row(row["target"], spread(measured, unit) if measured else "—", row["goal"],
                      Text(row["status"], style=STATUS_STYLES.get(row["status"].split(",")[0], "yellow")))
    return table


def renderables(report: dict) -> list:
    """Everything ``rulecraft bench`` prints, in order: heading, per-game tables, peers, batch
    playouts, site, the targets table and one line per skipped benchmark."""
    out: list = [Text(heading(report))]
    out += game_tables(report)
    out += [table for table in (peers_table(report), jobs_table(report), site_table(report)) if table]
    out.append(targets_table(report))
    out += [Text(f"{key}: skipped; {reason}") for key, reason in report["skipped"].items()]
    return out
