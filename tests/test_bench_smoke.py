"""Smoke test of the benchmark harness: it runs on tic-tac-toe with tiny counts.

No timing is asserted (the machine is shared and noisy); only that every measurement comes out
positive and that the command line writes its JSON report.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
import sys

import pytest

BENCH_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    """The harness module, loaded from its file (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("rulecraft_bench", BENCH_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_every_metric_is_positive(bench):
    results, skipped = bench.run(["tictactoe"], rounds=2, games=3, calls=20, compile_repeats=1)
    assert skipped == {}
    metrics = results["tictactoe"]
    assert set(metrics) == set(bench.METRICS)
    for name, summary in metrics.items():
        assert len(summary["samples"]) == 2, name
        assert 0 < summary["min"] <= summary["median"] <= summary["max"], name
    assert [table.title for table in bench.tables(results)] == ["tictactoe"]


def test_unknown_game_is_skipped(bench):
    results, skipped = bench.run(["no-such-game"], rounds=1, games=1, calls=1, compile_repeats=1)
    assert results == {}
    assert "RC105" in skipped["no-such-game"]


def test_command_line_writes_json(bench, tmp_path, capsys):
    out = tmp_path / "bench.json"
    status = bench.main(["tictactoe", "--rounds", "1", "--games", "2", "--calls", "10",
                         "--compile-repeats", "1", "--json", str(out)])
    assert status == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["config"]["rounds"] == 1
    assert report["results"]["tictactoe"]["plies_per_s"]["median"] > 0
    assert "tictactoe" in capsys.readouterr().out
