"""The largest board and roster the limits allow compile and play (correctness, not timing:
``python -m rulecraft.benchmarks.scale`` measures how compile time grows)."""

from __future__ import annotations

from rulecraft.benchmarks.scale import board_spec, roster_spec
from rulecraft.limits import MAX_GRID, MAX_PIECES

from helpers import load_game, random_playout, spec_folder


def test_a_grid_of_the_largest_size_compiles_and_plays_a_match(tmp_path):
    game = load_game(spec_folder(tmp_path, board_spec(MAX_GRID)))
    start = game.new_initial_state()
    legal = start.legal_actions()
    # every square but the MAX_GRID - 1 due north of A1 (direction) and C1 (an edge at distance 2)
    assert len(legal) == MAX_GRID * MAX_GRID - MAX_GRID
    shown = {start.action_notation(action) for action in legal}
    assert {"A1", "B2", "D1", "B64"} <= shown and not shown & {"A2", "A64", "C1"}
    end = random_playout(game, seed=1)
    assert end.is_terminal() and end.ply == 4 and end.returns() == [0, 0]


def test_a_roster_of_the_most_pieces_compiles_and_plays_a_match(tmp_path):
    game = load_game(spec_folder(tmp_path, roster_spec(MAX_PIECES)))
    labels = game.rules.piece_labels
    assert len(labels) == MAX_PIECES and len(set(labels)) == MAX_PIECES
    assert (labels[0], labels[-1]) == ("x pawn 1", f"o pawn {MAX_PIECES // 2}")
    end = random_playout(game, seed=1)
    assert end.is_terminal() and end.ply == 2
