"""The ``rulecraft`` command line: reproducible play, logs that replay and refuse tampering, spec
errors without tracebacks, human play with undo, quit and resume, the action table."""

from __future__ import annotations

import json
import re

import pytest

from helpers import FIXTURES, invoke, load_game


def assert_clean_failure(result, *fragments: str) -> None:
    """Exit status 1 through the CLI's own error path (no traceback), naming each fragment."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), f"crashed with {result.exception!r}"
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output


def log_lines(path) -> list[dict]:
    """The JSON records of a match log, header first."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path, records) -> None:
    """Write JSON records (or raw text lines) as a log file."""
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n",
                    encoding="utf-8")


# ---------- reproducible play ----------
def test_same_seed_same_transcript():
    first, second = invoke("play", "tictactoe", "--seed", 7), invoke("play", "tictactoe", "--seed", 7)
    assert first.exit_code == second.exit_code == 0
    assert "seed 7" in first.output and "game over" in first.output
    assert first.output == second.output


def test_another_seed_another_transcript():
    first, second = invoke("play", "pig", "--seed", 7), invoke("play", "pig", "--seed", 8)
    assert first.exit_code == second.exit_code == 0
    assert first.output.splitlines()[1:] != second.output.splitlines()[1:]


# ---------- logs and replays ----------
@pytest.fixture(scope="module")
def tictactoe_log(tmp_path_factory):
    """A finished tic-tac-toe match log (seed 7)."""
    path = tmp_path_factory.mktemp("logs") / "tictactoe.log"
    assert invoke("play", "tictactoe", "--seed", 7, "--log", path).exit_code == 0
    return path


def test_play_log_then_replay_verifies(tictactoe_log):
    records = log_lines(tictactoe_log)
    assert records[0]["format"] == "rulecraft-log" and records[0]["seed"] == 7
    result = invoke("replay", tictactoe_log)
    assert result.exit_code == 0, result.output
    assert f"{len(records) - 1} plies replayed and verified; game over" in result.output


def test_pig_log_replays_every_roll(tmp_path):
    path = tmp_path / "pig.log"
    assert invoke("play", "pig", "--seed", 3, "--log", path).exit_code == 0
    assert any(record.get("actor") == "chance" for record in log_lines(path))
    assert invoke("replay", path).exit_code == 0


def _bad_json(records):
    records[2] = "{not json"
    return "3:", "this line is not JSON"


def _wrong_format(records):
    records[0]["format"] = "chess-pgn"
    return "1:", "not a rulecraft log"


def _wrong_version(records):
    records[0]["format_version"] = 99
    return "1:", "log format version 99 is not supported"


def _illegal_action(records):
    records[2]["action"] = records[1]["action"]        # the square the first ply marked
    return "3: ply 2:", "is not legal here"


def _other_legal_action(records):
    played = {record["action"] for record in records[1:4]}
    records[3]["action"] = next(a for a in range(9) if a not in played)
    return "4: ply 3:", "differs from the log"


def _tampered_hash(records):
    records[5]["hash"] = "0" * 16
    return "6: ply 5:", "differs from the log"


def _missing_ply(records):
    del records[4]
    return "5:", "expected ply 4, found 5"


def _wrong_actor(records):
    records[1]["actor"] = "o"
    return "2: ply 1:", "the log says o acted, but the rules give the turn to x"


CORRUPTIONS = [_bad_json, _wrong_format, _wrong_version, _illegal_action, _other_legal_action,
               _tampered_hash, _missing_ply, _wrong_actor]


@pytest.mark.parametrize("command", ["replay", "resume"])
@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=[c.__name__.strip("_") for c in CORRUPTIONS])
def test_corrupt_log_is_refused(corrupt, command, tictactoe_log, tmp_path):
    records = log_lines(tictactoe_log)
    where, message = corrupt(records)
    path = tmp_path / "corrupt.log"
    write_lines(path, records)
    args = ("replay", path) if command == "replay" else ("play", "tictactoe", "--resume", path)
    assert_clean_failure(invoke(*args), f"{path}:{where}", message)


def test_log_of_another_game_is_refused(tictactoe_log):
    assert_clean_failure(invoke("replay", tictactoe_log, "--game", "pig"),
                         "this log is of the game 'tictactoe', not 'pig'")
    assert_clean_failure(invoke("play", "pig", "--resume", tictactoe_log),
                         "this log is of the game 'tictactoe', not 'pig'")


def test_empty_and_binary_logs_are_refused(tmp_path):
    empty, binary = tmp_path / "empty.log", tmp_path / "binary.log"
    empty.write_text("")
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert_clean_failure(invoke("replay", empty), f"{empty}: the file is empty")
    assert_clean_failure(invoke("replay", binary), f"{binary}: cannot read the log")


# ---------- spec errors ----------
def test_check_a_valid_spec():
    result = invoke("check", "tictactoe")
    assert result.exit_code == 0 and "tictactoe: the spec is valid." in result.output


def test_check_a_bad_spec_prints_the_position():
    path = FIXTURES / "spec_errors" / "rc201_operand_expected.yaml"
    result = invoke("check", path)
    assert_clean_failure(result, f"{path}:9:17: error[RC201]: unexpected 'and'", '     9 |     when: "n >= and"',
                         "       |                 ^")


def test_unknown_game_and_bad_options_are_refused():
    assert_clean_failure(invoke("play", "no-such-game"), "no game called 'no-such-game'")
    assert_clean_failure(invoke("play", "pig", "-O", "target"), "--option takes NAME=VALUE")
    assert_clean_failure(invoke("play", "pig", "-O", "target=5"), "option 'target' cannot be 5: allowed 10..1000")
    assert_clean_failure(invoke("play", "pig", "--bot", "clever"), "unknown bot 'clever'")
    assert_clean_failure(invoke("play", "pig", "--human", "third"), "no team 'third'")


# ---------- human play: undo, quit, resume ----------
def test_human_play_with_undo_quit_and_resume(tmp_path):
    path = tmp_path / "human.log"
    first = invoke("play", "tictactoe", "--human", "x", "--seed", 1, "--log", path, input="1\nu\n2\nq\n")
    assert first.exit_code == 0, first.output
    assert "undone." in first.output and f"saved to {path}" in first.output
    saved = log_lines(path)[1:]
    assert [(r["actor"], r["notation"]) for r in saved][:1] == [("x", "B1")]    # A1 was undone
    assert [r["actor"] for r in saved] == ["x", "o"]

    second = invoke("play", "tictactoe", "--resume", path, "--human", "x", input="1\n" * 5)
    assert second.exit_code == 0, second.output
    resumed = log_lines(path)[1:]
    assert resumed[:2] == saved and len(resumed) > 2
    replayed = invoke("replay", path)
    assert replayed.exit_code == 0 and "game over" in replayed.output


def test_human_types_a_notation_and_a_wrong_answer(tmp_path):
    path = tmp_path / "typed.log"
    result = invoke("play", "tictactoe", "--human", "x", "--seed", 1, "--log", path, input="Z9\nC3\nq\n")
    assert result.exit_code == 0
    assert "'Z9' is not one of the numbers 1–9 or a legal notation." in result.output
    assert log_lines(path)[1]["notation"] == "C3"


# ---------- the action table ----------
def test_actions_lists_every_id():
    result = invoke("actions", "tictactoe")
    assert result.exit_code == 0
    listed = [(int(number), notation) for number, notation in re.findall(r"^\s*(\d+)\s+(\S+)$", result.output, re.M)]
    assert len(listed) == 9
    assert listed == load_game("tictactoe").action_table()


# ---------- batch playouts ----------
def simulate_json(tmp_path, game: str, *args) -> dict:
    """Run ``rulecraft simulate`` with ``--json`` and return what it wrote."""
    path = tmp_path / f"simulate-{len(list(tmp_path.iterdir()))}.json"
    result = invoke("simulate", game, *args, "--json", path)
    assert result.exit_code == 0, result.output
    return json.loads(path.read_text(encoding="utf-8"))


def test_simulate_gives_the_same_matches_whatever_the_jobs(tmp_path):
    one = simulate_json(tmp_path, "pig", "--games", 6, "--seed", 11, "--jobs", 1)
    two = simulate_json(tmp_path, "pig", "--games", 6, "--seed", 11, "--jobs", 2)
    assert (one["jobs"], two["jobs"]) == (1, 2)
    assert [m["index"] for m in one["matches"]] == list(range(6))
    assert one["matches"] == two["matches"]
    assert one["teams"] == two["teams"] and one["plies"] == two["plies"]
    other = simulate_json(tmp_path, "pig", "--games", 6, "--seed", 12, "--jobs", 1)
    assert [m["seed"] for m in other["matches"]] != [m["seed"] for m in one["matches"]]


def test_simulate_summary_counts_every_match(tmp_path):
    result = invoke("simulate", "tictactoe", "--games", 20, "--seed", 3)
    assert result.exit_code == 0, result.output
    assert "tictactoe, 20 matches, random bots, seed 3, 1 process" in result.output
    assert "games/s" in result.output and "plies per match" in result.output
    report = simulate_json(tmp_path, "tictactoe", "--games", 20, "--seed", 3)
    for team in ("x", "o"):
        counts = report["teams"][team]
        assert counts["wins"] + counts["draws"] + counts["losses"] == 20
        mean = re.escape(f"{counts['mean_return']:+.3g}")
        assert re.search(rf"│ {team}\s+│\s+{mean} │\s+{counts['wins']} │", result.output)
    assert report["teams"]["x"]["wins"] == report["teams"]["o"]["losses"]


def test_a_simulated_match_is_the_played_match_of_its_seed(tmp_path):
    match = simulate_json(tmp_path, "tictactoe", "--games", 3, "--seed", 5, "--bot", "greedy")["matches"][2]
    played = invoke("play", "tictactoe", "--bot", "greedy", "--seed", match["seed"])
    assert played.exit_code == 0, played.output
    x, o = match["returns"]
    assert f"returns x={x:+g}, o={o:+g}" in played.output


def test_simulate_refuses_mistakes_cleanly():
    assert_clean_failure(invoke("simulate", "no-such-game", "--games", 2), "RC105", "no-such-game")
    assert_clean_failure(invoke("simulate", "pig", "--bot", "clever"), "RC107", "unknown bot 'clever'")
    assert_clean_failure(invoke("simulate", "pig", "-O", "colour=red"), "RC329")
    refused = invoke("simulate", "pig", "--games", 0)
    assert refused.exit_code == 2 and "Traceback" not in refused.output
