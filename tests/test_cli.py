"""The ``rulecraft`` command line: reproducible play, logs that replay and refuse tampering, spec
errors without tracebacks, human play with undo, quit and resume, the action table."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from helpers import FIXTURES, REPO, invoke, load_game


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


# ---------- logs and replays (tampering: test_logs.py) ----------
@pytest.fixture(scope="module")
def tictactoe_log(tmp_path_factory):
    """A finished tic-tac-toe match log (seed 7)."""
    path = tmp_path_factory.mktemp("logs") / "tictactoe.log"
    assert invoke("play", "tictactoe", "--seed", 7, "--log", path).exit_code == 0
    return path


def test_play_log_then_replay_verifies(tictactoe_log):
    records = log_lines(tictactoe_log)
    assert records[0]["format"] == "rulecraft-log" and records[0]["seed"] == 7
    plies = [record for record in records if "ply" in record]
    result = invoke("replay", tictactoe_log)
    assert result.exit_code == 0, result.output
    assert f"{len(plies)} plies replayed and verified; game over" in result.output


def test_pig_log_replays_every_roll(tmp_path):
    path = tmp_path / "pig.log"
    assert invoke("play", "pig", "--seed", 3, "--log", path).exit_code == 0
    assert any(record.get("actor") == "chance" for record in log_lines(path))
    assert invoke("replay", path).exit_code == 0


def test_log_of_another_game_is_refused(tictactoe_log, tmp_path):
    assert_clean_failure(invoke("replay", tictactoe_log, "--game", "pig"),
                         "this log is of the game 'tictactoe', not 'pig'")
    assert_clean_failure(invoke("play", "pig", "--resume", tictactoe_log),
                         "this log is of the game 'tictactoe', not 'pig'")
    pig = tmp_path / "pig.log"                     # a log with options, replayed on a game without
    assert invoke("play", "pig", "--seed", 1, "--log", pig).exit_code == 0
    assert_clean_failure(invoke("replay", pig, "--game", "tictactoe"),
                         "this log is of the game 'pig', not 'tictactoe'")


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
    assert "'Z9' is not an option: type a number from 1 to 9, a legal notation or ? for help." in result.output
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
    assert f"Game over — x {x:+g}, o {o:+g}" in played.output.splitlines()


def test_simulate_refuses_mistakes_cleanly():
    assert_clean_failure(invoke("simulate", "no-such-game", "--games", 2), "RC105", "no-such-game")
    assert_clean_failure(invoke("simulate", "pig", "--bot", "clever"), "RC107", "unknown bot 'clever'")
    assert_clean_failure(invoke("simulate", "pig", "-O", "colour=red"), "RC329")
    refused = invoke("simulate", "pig", "--games", 0)
    assert refused.exit_code == 2 and "Traceback" not in refused.output


# ---------- user mistakes: one clear message each, before any work is done ----------
OUTPUTS = {
    "compile -o": ("compile", "tictactoe", "-o"),
    "play --log": ("play", "tictactoe", "--seed", 1, "--log"),
    "simulate --json": ("simulate", "pig", "--games", 2, "--json"),
    "bench --json": ("bench", "tictactoe", "--rounds", 1, "--no-site", "--json"),
}


@pytest.mark.parametrize("place", ["in a missing folder", "at a folder", "under a file"])
@pytest.mark.parametrize("command", OUTPUTS.values(), ids=OUTPUTS.keys())
def test_an_output_path_that_cannot_be_written_is_refused_before_any_work(tmp_path, command, place):
    afile = tmp_path / "file.txt"
    afile.write_text("keep me", encoding="utf-8")
    path, message = {"in a missing folder": (tmp_path / "missing" / "out", "does not exist"),
                     "at a folder": (tmp_path, "that is a folder"),
                     "under a file": (afile / "out", "is a file, not a folder")}[place]
    result = invoke(*command, path)
    assert_clean_failure(result, "RC111", f"{command[-1]} {path}: ", message)
    assert afile.read_text(encoding="utf-8") == "keep me"
    assert "plies" not in result.output and "games/s" not in result.output   # nothing was played


def test_an_existing_file_is_not_overwritten_by_a_new_match_log(tmp_path):
    kept = tmp_path / "notes.txt"
    kept.write_text("a whole afternoon's notes", encoding="utf-8")
    assert_clean_failure(invoke("play", "tictactoe", "--seed", 1, "--log", kept), "RC111",
                         "the file exists; continue that match with --resume")
    assert kept.read_text(encoding="utf-8") == "a whole afternoon's notes"


def test_resume_takes_its_seed_and_options_from_the_log(tictactoe_log):
    assert_clean_failure(invoke("play", "tictactoe", "--resume", tictactoe_log, "--seed", 3),
                         "RC112", "--seed 3 (the log's seed is 7): leave them out")


@pytest.mark.parametrize("command", ["check", "compile", "actions", "play", "simulate"])
def test_an_option_of_a_spec_without_options_is_refused(command):
    args = ("--seed", 1) if command == "play" else ("--games", 1) if command == "simulate" else ()
    assert_clean_failure(invoke(command, "tictactoe", "-O", "size=4", *args), "RC329",
                         "the game has no option 'size'", "its spec has no options: section")


def test_a_failing_formula_in_the_greedy_look_ahead_is_rc404(tmp_path):
    folder = tmp_path / "pig-divides"
    folder.mkdir()
    text = (REPO / "examples" / "pig" / "game.yaml").read_text(encoding="utf-8")
    evaluation = next(line for line in text.splitlines() if line.startswith("evaluation:"))
    (folder / "game.yaml").write_text(text.replace(evaluation, 'evaluation: "team.score // turns"'),
                                      encoding="utf-8")
    assert_clean_failure(invoke("play", folder, "--seed", 1, "--bot", "greedy"), "RC404",
                         "the rules failed to compute", "ZeroDivisionError")
    assert_clean_failure(invoke("simulate", folder, "--games", 1, "--bot", "greedy"), "RC404")


def test_the_rl_module_without_its_extra_names_the_extra():
    script = ("import sys\nsys.modules['pyspiel'] = None\n"
              "try:\n    import rulecraft.rl\nexcept ImportError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "error[RC110]: this needs the optional extra 'rl' (pyspiel is not installed)" in done.stdout
    assert "pip install 'rulecraft[rl]'" in done.stdout


def test_a_game_is_found_by_its_spec_id_when_its_folder_is_named_otherwise(tmp_path, monkeypatch):
    """A slug may differ from ``game: id:`` (ids are names, slugs may hold '-'); logs name the
    id, so ``find_game`` falls back to the spec whose id it is."""
    from rulecraft.compiler import find_game
    from rulecraft.errors import RulecraftError
    folder = tmp_path / "rulespecs" / "two-words"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("game: {id: two_words, title: T, teams: [a, b]}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert find_game("two-words").resolve() == (folder / "game.yaml").resolve()
    assert find_game("two_words").resolve() == (folder / "game.yaml").resolve()
    with pytest.raises(RulecraftError) as error:
        find_game("two")
    assert error.value.code == "RC105"
