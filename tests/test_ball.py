"""BALL: the board and the movement vectors as the rulebook states them, written out here.

The expected values come from the seed (001, the board page and §4) and RULES-BRIEF §2, not from
the spec, so a changed grid, parity mask or vector in ``rulespecs/ball/game.yaml`` fails here.
"""

from __future__ import annotations

from rulecraft.compiler import find_game
from rulecraft.compiler.model import SpecReader
from rulecraft.loader import load_yaml

COLUMNS = "ABCDEFGHIJKLM"


def _board():
    """The compiler's reading of the ball spec (spaces in board order, neighbour lists)."""
    path = str(find_game("ball"))
    return SpecReader(load_yaml(path), path).build()


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
