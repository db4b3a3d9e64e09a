"""BALL: the board and the movement vectors as the rulebook states them, written out here.

The expected values come from the seed (001, the board page and §4) and RULES-BRIEF §2, not from
the spec, so a changed grid, parity mask or vector in ``rulespecs/ball/game.yaml`` fails here.
"""

from __future__ import annotations

import json
import re

import pytest

from helpers import invoke, load_game, random_matches

from rulecraft.compiler import read_game

COLUMNS = "ABCDEFGHIJKLM"
# The board page's line-up, in the rulebook's order; piece n stands on the n-th square, and ATK X5
# has the ball. DEF's list is ATK's turned half a turn about 9G, square by square.
SEED_LINE_UP = {"ATK": ("8E", "8G", "8I", "7D", "7F", "7H", "7J"),
                "DEF": ("10I", "10G", "10E", "11J", "11H", "11F", "11D")}


def _board():
    """The compiler's reading of the ball board (spaces in board order, neighbour lists)."""
    return read_game("ball").board


def test_only_the_110_striped_squares_are_spaces_named_row_then_column():
    board = _board()
    expected = {f"{row}{COLUMNS[col - 1]}" for row in range(1, 18) for col in range(1, 14)
                if (row + col) % 2 == 1}
    assert len(expected) == 110
    assert set(board.spaces) == expected
    assert "8F" not in board.spaces and "8E" in board.spaces and "8G" in board.spaces


def test_squares_touch_diagonally_only():
    board = _board()
    index = {name: i for i, name in enumerate(board.spaces)}
    for name in ("8E", "1B", "17L", "9F"):
        row, col = int(name[:-1]), COLUMNS.index(name[-1]) + 1
        diagonal = {f"{row + dr}{COLUMNS[col + dc - 1]}" for dr in (-1, 1) for dc in (-1, 1)
                    if 1 <= row + dr <= 17 and 1 <= col + dc <= 13}
        assert {board.spaces[n] for n in board.neighbors[index[name]]} == diagonal, name


def test_the_standard_line_up_puts_piece_n_on_the_nth_square_of_the_rulebook():
    game = load_game("ball")
    state = game.new_initial_state()
    rules = game.rules
    standing = {label: rules.spaces[state.value("at", index)]
                for index, label in enumerate(rules.piece_labels)}
    for team, squares in SEED_LINE_UP.items():
        numbered = {int(re.search(r"(\d+)$", label).group(1)): square
                    for label, square in standing.items() if label.startswith(team)}
        assert numbered == dict(enumerate(squares, start=1)), team
    for atk, dfn in zip(SEED_LINE_UP["ATK"], SEED_LINE_UP["DEF"]):
        row, col = int(atk[:-1]), COLUMNS.index(atk[-1]) + 1
        assert dfn == f"{18 - row}{COLUMNS[14 - col - 1]}", "DEF stands on the 180° rotation"
    assert rules.piece_labels[state.value("carrier")] == "ATK X5"


def test_the_readme_match_plays_to_a_touchdown_in_the_seeds_notation_with_the_ap_ledger(tmp_path):
    log = tmp_path / "ball.log"
    result = invoke("play", "ball", "--seed", 1, "--log", str(log))
    assert result.exit_code == 0, result.output
    assert re.search(r"TOUCHDOWN! (DEF|ATK) \S+ has the ball on \d+[A-M]", result.output)
    assert re.search(r"(DEF|ATK) [XO□]\d \d+[A-M](-\d+[A-M])+ · [a-z ]+ · -\d AP → \d left", result.output)
    assert "— Turn 1 · DEF · 2 AP" in result.output
    replayed = invoke("replay", str(log))
    assert replayed.exit_code == 0 and "game over" in replayed.output, replayed.output


def test_a_person_plays_def_quits_and_resumes(tmp_path):
    log = tmp_path / "human.log"
    first = invoke("play", "ball", "--human", "DEF", "--seed", 2, "--log", str(log),
                   input="DEF X3 moves to 9D\n1\nq\n")
    assert first.exit_code == 0, first.output
    moves = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()[1:]]
    assert moves[0]["actor"] == "DEF" and moves[0]["notation"] == "DEF X3 moves to 9D"
    second = invoke("play", "ball", "--resume", str(log), "--human", "DEF", input="q\n")
    assert second.exit_code == 0, second.output
    assert invoke("replay", str(log)).exit_code == 0


@pytest.mark.slow
def test_a_thousand_random_matches_end_below_the_ply_bound():
    """1,000 random matches (seeded): every invariant after every ply, no dead end, and none
    reaches limits: max_plies: each ends with a touchdown or at the turn cap."""
    game = load_game("ball")
    longest = random_matches(game, 1000)
    print(f"ball: the longest of 1,000 random matches has {longest} plies "
          f"(limits: max_plies {game.rules.max_plies})")
