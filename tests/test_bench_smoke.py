"""Smoke tests of the benchmark harness (``rulecraft bench``): it runs on tic-tac-toe with tiny
counts, reports what it could not measure instead of crashing, and judges the targets.

No timing is asserted (the machine is shared and noisy); only that every measurement comes out
positive, that the command prints the targets table and writes its JSON report. The site build is
left out (``--no-site``): it takes tens of seconds.
"""

from __future__ import annotations

import json

import pytest

from rulecraft.benchmarks import harness, targets
from rulecraft.benchmarks.bench import METRICS
from rulecraft.benchmarks.peers import Pairing

from helpers import invoke

TINY = dict(rounds=2, playouts=3, calls=20, compile_repeats=1, min_seconds=0.01, site=False)


@pytest.fixture(scope="module")
def tictactoe_report():
    """The report of a tiny run on tic-tac-toe."""
    return harness.run(harness.Config(games=("tictactoe",), **TINY))


def test_every_metric_is_positive(tictactoe_report):
    results = tictactoe_report["results"]
    metrics = results["games"]["tictactoe"]["metrics"]
    assert set(metrics) == set(METRICS)
    jobs = results["jobs"]["tictactoe"]
    assert jobs["jobs"] == 2 and jobs["matches"] >= 4
    for entry in [results["games"]["tictactoe"], jobs, *results["peers"].values()]:
        for name, summary in entry["metrics"].items():
            assert len(summary["samples"]) == 2, name
            assert 0 < summary["min"] <= summary["median"] <= summary["max"], name


def test_targets_rows_name_what_was_not_measured(tictactoe_report):
    rows = {row["target"].split(" (")[0]: row for row in tictactoe_report["targets"]}
    assert len(rows) == len(targets.TARGETS)
    assert rows["taktinen ÷ hand-written reference"]["status"] == "not measured: taktinen not selected"
    assert rows["site build, per game, 6 languages"]["status"] == "not measured: --no-site"
    for label in ("compile, cold", "load, warm cache", "batch playouts, --jobs 2 ÷ 1"):
        assert rows[label]["status"] in ("met", "missed") and rows[label]["measured"]["median"] > 0
    tictactoe = rows["tic-tac-toe ÷ OpenSpiel python_tic_tac_toe"]
    if "peers/tic-tac-toe" in tictactoe_report["skipped"]:        # OpenSpiel (extra rl) missing
        assert tictactoe["status"].startswith("skipped: ") and tictactoe["measured"] is None
    else:
        assert tictactoe["status"] in ("met", "missed")


def test_a_missing_peer_is_skipped_not_a_crash(monkeypatch):
    def not_installed():
        raise ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel")

    monkeypatch.setattr(harness, "PAIRINGS", (Pairing("tic-tac-toe", "tictactoe", not_installed, 5),))
    report = harness.run(harness.Config(games=("tictactoe",), **{**TINY, "rounds": 1}))
    assert "pip install -e '.[rl]'" in report["skipped"]["peers/tic-tac-toe"]
    row = next(r for r in report["targets"] if r["target"].startswith("tic-tac-toe"))
    assert row["status"] == "skipped: pyspiel is not installed (optional extra: pip install -e '.[rl]')"
    assert report["results"]["games"]["tictactoe"]["metrics"]["games_per_s"]["median"] > 0


def test_unknown_game_is_skipped():
    report = harness.run(harness.Config(games=("no-such-game",), **{**TINY, "rounds": 1}))
    assert report["results"]["games"] == {} and report["results"]["jobs"] == {}
    assert "RC105" in report["skipped"]["games/no-such-game"]
    compile_row = next(r for r in report["targets"] if r["target"].startswith("compile, cold"))
    assert compile_row["status"].startswith("skipped: ") and "RC105" in compile_row["status"]


def _summary(median: float) -> dict:
    return {"median": median, "min": median, "max": median, "samples": [median]}


def test_targets_compare_the_median_with_the_goal():
    report = {"skipped": {}, "results": {
        "games": {"pig": {"metrics": {"compile_ms": _summary(40.0), "cached_ms": _summary(2.0)}},
                  "taktinen": {"metrics": {"compile_ms": _summary(600.0), "cached_ms": _summary(6.0)}}},
        "peers": {"breakthrough": {"metrics": {"ratio": _summary(0.6)}},
                  "taktinen": {"metrics": {"ratio": _summary(0.5)}}},
        "jobs": {"taktinen": {"metrics": {"speedup": _summary(1.8)}}},
        "site": {"rulebook": {"games": ["taktinen", "ball"], "metrics": {"wall_total": _summary(50.0)}}}}}
    rows = [(row["target"], row["status"]) for row in targets.evaluate(report)]
    assert rows == [
        ("taktinen ÷ hand-written reference", "missed"),
        ("tic-tac-toe ÷ OpenSpiel python_tic_tac_toe", "not measured: tictactoe not selected"),
        ("Breakthrough ÷ OpenSpiel C++ breakthrough", "met, stretch too"),
        ("compile, cold (taktinen)", "missed"),
        ("load, warm cache (taktinen)", "met"),
        ("batch playouts, --jobs 2 ÷ 1 (taktinen)", "met"),
        ("site build, per game, 6 languages", "met")]          # 50 s for two games: 25 s each
    assert targets.evaluate(report)[-1]["measured"]["median"] == 25.0


def test_command_prints_the_targets_and_writes_json(tmp_path):
    out = tmp_path / "bench.json"
    result = invoke("bench", "tictactoe", "--rounds", 1, "--games", 2, "--calls", 10,
                    "--compile-repeats", 1, "--min-seconds", 0.01, "--no-site", "--json", out)
    assert result.exit_code == 0, result.output
    assert "performance targets" in result.output and "random games" in result.output
    for start in ("taktinen ÷", "tic-tac-toe ÷", "Breakthrough ÷", "compile, cold", "not measured"):
        assert start in result.output        # (the table wraps longer texts at 80 columns)
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["config"]["rounds"] == 1 and report["config"]["games"] == ["tictactoe"]
    assert report["results"]["games"]["tictactoe"]["metrics"]["plies_per_s"]["median"] > 0
    assert [row["target"].split(" (")[0] for row in report["targets"]] == [t.label for t in targets.TARGETS]


def test_command_refuses_an_unknown_game():
    result = invoke("bench", "no-such-game", "--rounds", 1, "--no-site")
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    assert "error[RC105]: no game called 'no-such-game'" in result.output


def test_profile_prints_the_games_hottest_generated_functions():
    """``bench --profile GAME`` shows the generated functions of that game (its move generators,
    with the rule they come from) and the runtime's, by cumulative time."""
    result = invoke("bench", "--profile", "taktinen", "--games", 1, "--top", 40)
    assert result.exit_code == 0, result.output
    assert "taktinen: 1 random match under cProfile" in result.output
    for name in ("gen_move_player", "apply_unchecked", "legal_actions"):
        assert name in result.output
    row = next(line for line in result.output.splitlines() if "gen_move_player" in line)
    assert "Rule 4.7" in row                 # the rule it is compiled from (the cell may wrap)
    assert "engine.py:" in result.output and "Traceback" not in result.output


def test_profile_refuses_an_unknown_game():
    """An unknown game given to --profile is refused with the usual message, nothing profiled."""
    result = invoke("bench", "--profile", "no-such-game")
    assert result.exit_code == 1, result.output
    assert "error[RC105]: no game called 'no-such-game'" in result.output
    assert "cProfile" not in result.output


def test_baseline_pairs_a_game_with_an_exported_engine(tmp_path):
    """``bench --baseline DIR`` pairs each measured game with ``DIR/<game>.py`` as exported by
    benchmarks/export_engines.py; the report carries the ratio."""
    from rulecraft.benchmarks.export_engines import export_engines

    assert export_engines(tmp_path / "engines", ["tictactoe"]) == ["tictactoe"]
    out = tmp_path / "bench.json"
    result = invoke("bench", "tictactoe", "--baseline", tmp_path / "engines", "--rounds", 1,
                    "--games", 2, "--calls", 10, "--compile-repeats", 1, "--min-seconds", 0.01,
                    "--no-site", "--json", out)
    assert result.exit_code == 0, result.output
    assert "tictactoe ÷" in result.output and "baseline" in result.output
    pairing = json.loads(out.read_text(encoding="utf-8"))["results"]["peers"]["tictactoe ÷ baseline"]
    assert pairing["peer"] == "baseline engines/tictactoe.py"
    assert pairing["metrics"]["ratio"]["median"] > 0


def test_a_baseline_that_does_not_run_is_reported_not_raised(tmp_path):
    """A baseline engine that fails on this runtime is skipped with RC120 and the file named;
    a --baseline that is no folder is refused with RC120."""
    (tmp_path / "tictactoe.py").write_text("from rulecraft.runtime.support import gone\n",
                                           encoding="utf-8")
    report = harness.run(harness.Config(games=("tictactoe",), baseline=str(tmp_path), **TINY))
    reason = report["skipped"]["peers/tictactoe ÷ baseline"]
    assert "tictactoe.py: the baseline engine does not run on this runtime" in reason
    assert "ImportError" in reason
    result = invoke("bench", "tictactoe", "--baseline", tmp_path / "missing", "--no-site")
    assert result.exit_code == 1 and "error[RC120]" in result.output, result.output
    assert "Traceback" not in result.output
