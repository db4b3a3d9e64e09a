"""``rulecraft play`` in a pseudo-terminal, as a person meets it: a whole taktinen match against
the greedy bot played from what the screen shows, quit without ``--log`` and resumed exactly; no
English line under
``--lang fi`` (every line from a Finnish text, or language-neutral tokens only), ``--no-hints``
(no options listed, notations typed, refusals naming the rule, the same log), colour only
where the terminal takes it (plain text under ``NO_COLOR`` or when not a terminal), and each
thing the issue lists as a person meets it in a real terminal: the status line, a formation
typed as 4-4-2, commands in any case and help, a refusal naming its rule, Ctrl-C saving, the
resume recap and a conflicting seed refused, --quiet, --summary, dice lines naming the roller,
--version and the games' titles."""

from __future__ import annotations

import re

import pytest

from helpers import invoke, load_game
from terminal import (ANSI, PROMPT, english_lines, english_only, expected_lists, play_by_screen, play_in_terminal, spawn,
                      zone_lists)

pexpect = pytest.importorskip("pexpect")


@pytest.fixture(scope="module")
def finnish_words():
    pytest.importorskip("babel")
    return english_only("taktinen", "fi", load_game("taktinen").rules)


def test_the_vocabulary_catches_english_lines(finnish_words):
    found = english_lines("half 1 · clock 1\npuoliaika 1 · C3\nkotijoukkue (? = ohjeet)> target C5\n", finnish_words)
    assert found == [("half 1 · clock 1", ["half", "clock"])]


def test_a_finnish_match_in_a_terminal_prints_no_english_line(tmp_path, finnish_words):
    answers = ["state", "?", "board", "zz", "4-4-2", "target C5", *["1"] * 70, "state", "q"]
    screen = play_in_terminal(["play", "taktinen", "--human", "home", "--seed", 3, "--lang", "fi"],
                              answers, tmp_path)
    plain = ANSI.sub("", screen)
    # a target typed while the starting side is chosen: the target's own rule, not the phase's
    assert ("ei nyt: ”kohdealue C5” kuuluu sääntöön 4.1 (Kohdealueen valinta); "
            "vaiheessa Aloittajan valinta käy vain: aloittajan valinta.") in plain
    assert "pelitilanne: alkupotku" in plain and "tallennettu tiedostoon taktinen-3.log" in plain
    assert re.search(r"· puoliaika 1 · minuutti \d+ · maalit kotijoukkue \d, vierasjoukkue \d · "
                     r"vuorossa: kotijoukkue$", plain, re.M)
    assert "   ● pallo   ◆ kohdealue" in plain                # the board's legend, in Finnish
    assert english_lines(screen, finnish_words) == []


def test_a_finnish_bot_match_prints_no_english_line(finnish_words):
    screen = invoke("play", "taktinen", "--seed", 7, "-O", "max_turns_per_half=10", "--lang", "fi",
                    "--summary").output
    assert "peli päättyi" in screen
    assert english_lines(screen, finnish_words) == []


# ---------- --no-hints ----------
def test_no_hints_lists_no_options_and_takes_notations_only(tmp_path):
    screen = ANSI.sub("", play_in_terminal(
        ["play", "tictactoe", "--human", "x", "--human", "o", "--seed", 1, "--no-hints"],
        ["?", "1", "B2", "B2", "A1", "q"], tmp_path))
    assert not re.search(r"^ +\d+\. ", screen, re.M)                      # nothing listed
    assert "x (notation, ? for help)> " in screen and "no options are listed under --no-hints" in screen
    assert "'1' is not a legal notation now: type the notation of a legal move or ? for help." in screen
    assert "x: B2" in screen and "o: A1" in screen
    assert "not now: 'B2' is forbidden by rule 1: the square is already marked" in screen


def test_no_hints_under_finnish_names_the_rule_in_finnish(tmp_path):
    pytest.importorskip("babel")
    screen = ANSI.sub("", play_in_terminal(
        ["play", "taktinen", "--human", "home", "--seed", 3, "--lang", "fi", "--no-hints"],
        ["4-4-2", "target C5", "q"], tmp_path))
    assert "kotijoukkue (salainen valinta merkintänä, ei näy kirjoitettaessa; ? = ohjeet)> " in screen
    assert not re.search(r"^ +\d+\. ", screen, re.M)
    assert ("ei nyt: ”kohdealue C5” kuuluu sääntöön 4.1 (Kohdealueen valinta); "
            "vaiheessa Aloittajan valinta käy vain: aloittajan valinta.") in screen


@pytest.mark.parametrize("game, team, answers", [
    ("tictactoe", "x", ["B2", "A1", "C3", "q"]),
    ("pig", "first", ["roll", "roll", "hold", "roll", "hold", "q"])])
def test_a_log_played_with_and_without_hints_is_byte_identical(tmp_path, game, team, answers):
    logs = []
    for flags in ([], ["--no-hints"]):
        log = tmp_path / f"{game}{len(logs)}.log"
        play_in_terminal(["play", game, "--human", team, "--seed", 4, "--log", log, *flags], answers, tmp_path)
        logs.append(log.read_bytes())
    assert logs[0] == logs[1] and logs[0].count(b"\n") > 2


def test_help_and_readme_document_no_hints():
    from helpers import REPO
    assert "--no-hints" in invoke("play", "--help").output
    assert "--no-hints" in (REPO / "README.md").read_text(encoding="utf-8")


# ---------- colour ----------
HOME, AWAY = "38;2;213;94;0", "38;2;0;114;178"          # vermillion and blue, true colour
COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-9]|9[0-7])[;m]")  # any foreground colour


def test_the_terminal_colours_match_the_rulebook():
    from helpers import REPO
    from rulecraft.layout import TEAM_COLOURS
    css = (REPO / "site" / "assets" / "player.css").read_text(encoding="utf-8")
    for team, colour in enumerate(TEAM_COLOURS):
        assert re.search(rf"\.rc-team-{team} \{{\s*--rc-team: {colour};", css), (team, colour)


@pytest.mark.parametrize("game, team, answers, colours", [
    ("tictactoe", "o", ["q"], [HOME]),                               # x's mark, in the first colour
    ("taktinen", "home", ["1"] * 14 + ["q"], [HOME, AWAY])])          # each team's count on a zone
def test_a_colour_terminal_shows_pieces_in_their_team_colours(tmp_path, game, team, answers, colours):
    screen = play_in_terminal(["play", game, "--human", team, "--seed", 3], answers, tmp_path,
                              env={"COLORTERM": "truecolor", "TERM": "xterm-256color", "NO_COLOR": None})
    board = [line for line in screen.splitlines() if HOME in line or AWAY in line]
    assert board and all(any(colour in line for line in board) for colour in colours), screen[-2000:]


def test_no_color_or_no_terminal_prints_plain_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                         # quitting saves tictactoe-3.log here
    screen = play_in_terminal(["play", "tictactoe", "--human", "o", "--seed", 3], ["q"], tmp_path,
                              env={"COLORTERM": "truecolor", "TERM": "xterm-256color", "NO_COLOR": "1"})
    assert "2 : X :" in ANSI.sub("", screen) and not COLOUR.search(screen)
    piped = invoke("play", "tictactoe", "--human", "o", "--seed", 3, input="q\n").output
    assert "2 : X :" in piped and "\x1b[" not in piped


# ---------- a whole match from the screen, quit and resumed ----------
GOALS = re.compile(r"^ *#+$", re.M)


def board_of(chunk: str) -> list[str]:
    """The board drawn in a screen's chunk (from its first goal line), as plain lines."""
    plain = ANSI.sub("", chunk)
    return plain[GOALS.search(plain).start():].splitlines()


def states_by_ply(game, path) -> dict:
    """The state before each ply of the match in the log at ``path``, by ply."""
    from rulecraft.runtime.logs import replay
    state, states = game.new_initial_state(), {}
    for step in replay(game, str(path)).match.steps:
        states[state.ply] = state.clone()
        state.apply(step.action)
    states[state.ply] = state
    return states


def whole_match_quit_and_resumed(tmp_path, options: list, quit_share: float):
    """Play taktinen as home against the greedy bot from the screen alone (see
    :func:`terminal.play_by_screen`) three times: through to the end (with a log, to check every
    board against the true position), then quitting without ``--log`` at a share
    ``quit_share`` of the prompts, then resuming the file that quitting saved. Checks that every
    decision's board and the final one list each piece in its zone, and that the resumed
    transcript equals the uninterrupted one from the decision where the person quit."""
    args = ["play", "taktinen", "--human", "home", "--seed", 3, *options]
    for folder in ("whole", "cut"):
        (tmp_path / folder).mkdir()
    whole = play_by_screen([*args, "--log", "whole.log"], tmp_path / "whole", 11)
    game = load_game("taktinen", {k: int(v) for k, v in (o.split("=") for o in options[1::2])} or None)
    states = states_by_ply(game, tmp_path / "whole" / "whole.log")
    plies = [int(re.search(r" · ply (\d+) · ", ANSI.sub("", chunk)).group(1)) for chunk in whole[:-1]]
    assert states[max(states)].is_terminal() and "game over after" in whole[-1]
    for chunk, ply in zip(whole[:-1], plies):                       # the board before every decision
        assert zone_lists(board_of(chunk), game.rules) == expected_lists(states[ply]), ply
    assert zone_lists(board_of(whole[-1]), game.rules) == expected_lists(states[max(states)])
    assert sum(map(len, expected_lists(states[max(states)]).values())) > 10

    quit_at = int(len(whole) * quit_share)
    cut = play_by_screen(args, tmp_path / "cut", 11, quit_at=quit_at)
    assert cut[:quit_at + 1] == whole[:quit_at + 1] and len(cut) == quit_at + 2
    saved = re.search(r"saved to (\S+); resume with --resume \1", ANSI.sub("", cut[-1])).group(1)
    assert (tmp_path / "cut" / saved).is_file()
    resumed = play_by_screen(["play", "taktinen", "--resume", saved, "--human", "home"], tmp_path / "cut", 11)
    recap = ANSI.sub("", resumed[0]).split("\n")
    assert recap[1] == f"resumed at ply {plies[quit_at]}; the last moves:", recap[:3]
    first = resumed[0].split("\n", 7)[7]                             # after the header and the recap
    assert GOALS.match(ANSI.sub("", first)) and whole[quit_at].endswith(first)
    assert resumed[1:] == whole[quit_at + 1:]
    return whole


def test_a_short_match_played_from_the_screen_quits_and_resumes_identically(tmp_path):
    whole = whole_match_quit_and_resumed(tmp_path, ["-O", "max_turns_per_half=10"], 0.5)
    assert len(whole) > 100


@pytest.mark.slow
def test_a_full_match_played_from_the_screen_quits_and_resumes_identically(tmp_path):
    whole = whole_match_quit_and_resumed(tmp_path, [], 0.6)
    assert "half 2 · minute 9" in ANSI.sub("", whole[-1])


# ---------- each thing a person meets, in a real terminal ----------
TICTACTOE = ["play", "tictactoe", "--human", "x", "--seed", 1]
TAKTINEN = ["play", "taktinen", "--human", "home", "--seed", 3]
TAKTINEN_BOTS = ["play", "taktinen", "--seed", 7, "-O", "max_turns_per_half=10"]
ITEMS = {
    "status line": (TAKTINEN, ["q"], [r"· half 1 · minute \d+ · goals home 0, away 0 · to play: home$"]),
    "4-4-2 typed": (TAKTINEN, ["4-4-2", "q"], [r"(^|  ) +\d+\. 4-4-2( |$)", r"^  home lines up 4-4-2$"]),
    "any case and help": (TICTACTOE, ["?", "Help", "BOARD", "Q"],
                          [r"u or undo: take back your last decision(.|\n)*u or undo", r"saved to tictactoe-1\.log"]),
    "a notation in another case": (TICTACTOE, ["c3", "q"], [r"^x: C3$"]),
    "a refusal names its rule": (TICTACTOE + ["--human", "o"], ["A1", "A1", "q"],
                                 [r"not now: 'A1' is forbidden by rule 1: the square is already marked"]),
    "--quiet": (["play", "tictactoe", "--seed", 7, "--quiet"], [], [r"\Agame over after 9 plies · returns x \+0, o \+0\n\Z"]),
    "--summary": (["play", "tictactoe", "--seed", 7, "--quiet", "--summary"], [],
                  [r"^9 plies, 0 of them dice rolls; actions by team:$", r"^  x: place 5$"]),
    "dice lines name the roller": (TAKTINEN_BOTS, [], [r"— Starting roll \(rule 3\.2\)\n +home rolls 5\n +away rolls 4"]),
    "--version": (["--version"], [], [r"\Arulecraft \d+\.\d+\.\d+\n\Z"]),
    "games with titles": (["games"], [], [r"^  taktinen +Taktinen jalkapallopeli \(home, away\)$"]),
}


@pytest.mark.parametrize("item", ITEMS)
def test_what_a_person_meets_in_a_terminal(tmp_path, item):
    args, answers, patterns = ITEMS[item]
    screen = ANSI.sub("", play_in_terminal(args, answers, tmp_path))
    for pattern in patterns:
        assert re.search(pattern, screen, re.M), (item, pattern, screen[-1500:])


def test_ctrl_c_in_a_terminal_saves_and_says_where(tmp_path):
    child = spawn(TICTACTOE, tmp_path, None, 60)
    child.expect(PROMPT)
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    assert "saved to tictactoe-1.log" in ANSI.sub("", child.before)
    assert (tmp_path / "tictactoe-1.log").is_file()


def test_resuming_in_a_terminal_recaps_and_refuses_a_conflicting_seed(tmp_path):
    play_in_terminal(TICTACTOE + ["--log", "m.log"], ["1", "1", "q"], tmp_path)
    resumed = ANSI.sub("", play_in_terminal(["play", "tictactoe", "--resume", "m.log", "--human", "x"], ["q"], tmp_path))
    assert "resumed at ply 4; the last moves:\nx: A1\no: B2\nx: B1\no: C1\n" in resumed
    child = spawn(["play", "tictactoe", "--resume", "m.log", "--seed", 2], tmp_path, None, 60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and "--seed 2 (the log's seed is 1): leave them out" in ANSI.sub("", child.before)
    assert "Traceback" not in child.before
