"""rulecraft's breakthrough, tic-tac-toe, Pig, Connect Four and Othello against OpenSpiel's own
``breakthrough``, ``tic_tac_toe``, ``pig``, ``connect_four`` and ``othello``, along random
playouts driven by the same decisions and dice faces.

At every step both engines must agree on who acts, on terminal states and returns, and on the legal
moves, compared through a common notation (square coordinates, "roll"/"hold", die faces), since
the two sides number their actions differently (Connect Four and Othello number them alike: there
the ids must match too, each move's id on one side being its id on the other, pass included).
Connect Four and Othello also compare the board, square by square, at every ply. Decisions are
drawn with ``random.Random(seed).choice`` from the moves both allow; dice with
:func:`rulecraft.runtime.match.chance_outcome` on the rulecraft state.

Pig differs on purpose, and the comparison bridges it (see :func:`pig_moves_in_rulecraft`):
OpenSpiel lets a player stop with nothing to bank, where rulecraft's Pig (examples/pig, rule 3)
needs a turn total to hold; both force a stop once the banked score plus the turn total reaches
the target. OpenSpiel ends a
game as a draw after ``horizon`` decisions (rolls and stops), rulecraft after ``max_turns`` turns:
the two cannot be matched, so both are set out of reach and a drawn end fails the test.
"""

from __future__ import annotations

from dataclasses import dataclass
import random
import re
from typing import Callable

import pytest

from rulecraft.runtime.match import chance_outcome

from helpers import load_game

pyspiel = pytest.importorskip("pyspiel")

PIG_TARGET = 100
PIG_NEVER = 100_000      # horizon (OpenSpiel) and max_turns (rulecraft) far beyond any playout


def _square(notation: str) -> str:
    """rulecraft's square name (``B3``: column letter, row from 1) as OpenSpiel's ``(row,col)``
    from 0."""
    return f"({int(notation[1:]) - 1},{ord(notation[0]) - ord('A')})"


def _pig_ours(notation: str) -> str:
    return notation.removeprefix("d6=")


def _pig_theirs(notation: str) -> str:
    return {"roll": "roll", "stop": "hold"}.get(notation) or notation.removeprefix("Roll ")


def pig_moves_in_rulecraft(state, moves: set) -> set:
    """OpenSpiel's legal Pig moves turned into rulecraft's (see the module docstring)."""
    if state.is_chance_node():
        return moves
    total = state.value("turn_total")
    if total == 0:
        moves = moves - {"hold"}
    return moves


def pig_scores_agree(ours, theirs) -> None:
    """The banked scores and the turn total are the same on both sides."""
    shown = re.match(r"Scores: (\d+) (\d+), Turn total: (\d+)", str(theirs))
    assert [ours.value("score", 0), ours.value("score", 1), ours.value("turn_total")] == \
        [int(number) for number in shown.groups()], f"pig, ply {ours.ply}: {shown.group(0)}"


def disc_board(symbols: str, rows_from_the_first: Callable[[str], list]):
    """A :attr:`Pairing.agree` comparing rulecraft's ``disc`` field (team ``t`` shown as
    ``symbols[t]``, an empty square as ``.``) with OpenSpiel's board, which
    ``rows_from_the_first(str(state))`` gives as one string per row from rulecraft's row 1."""
    def agree(ours, theirs) -> None:
        grid = ours.game.rules.grid
        columns = grid["columns"]
        mine = ["".join(symbols[disc] if (disc := ours.value("disc", (row - 1) * columns + col)) >= 0 else "."
                        for col in range(columns)) for row in range(1, grid["rows"] + 1)]
        assert mine == rows_from_the_first(str(theirs)), f"{ours.game.rules.game_id}, ply {ours.ply}"
    return agree


def _connect_four_rows(text: str) -> list:
    """OpenSpiel prints Connect Four's top row first."""
    return text.split()[::-1]


def _othello_rows(text: str) -> list:
    """OpenSpiel prints Othello's rows labelled 1 to 8, each square as x (black), o or -."""
    rows = re.findall(r"^(\d) ((?:[xo-] )+)\1$", text, re.MULTILINE)
    return [cells.replace(" ", "").replace("-", ".") for _, cells in rows]


@dataclass(frozen=True)
class Pairing:
    """A rulecraft game and its OpenSpiel counterpart, with each side's move notation mapped to
    the common one (``ours`` gets rulecraft's notation, ``theirs`` OpenSpiel's action string)."""

    game: str
    options: dict
    openspiel: str
    params: dict
    ours: Callable[[str], str]
    theirs: Callable[[str], str]
    can_draw: bool
    bridge: Callable = lambda state, moves: moves
    agree: Callable = lambda ours, theirs: None
    same_ids: bool = False
    exercised: frozenset = frozenset()      # moves the default playouts must include


PAIRINGS = {
    "breakthrough": Pairing("breakthrough", {}, "breakthrough", {}, str.lower,
                            lambda notation: notation.rstrip("*"), can_draw=False),
    "tictactoe": Pairing("tictactoe", {}, "tic_tac_toe", {}, _square,
                         lambda notation: notation[1:], can_draw=True),
    "pig": Pairing("pig", {"target": PIG_TARGET, "max_turns": PIG_NEVER}, "pig",
                   {"players": 2, "winscore": PIG_TARGET, "horizon": PIG_NEVER},
                   _pig_ours, _pig_theirs, can_draw=False, bridge=pig_moves_in_rulecraft,
                   agree=pig_scores_agree),
    "connect_four": Pairing("connect_four", {}, "connect_four", {}, str,
                            lambda notation: str(int(notation[1:]) + 1), can_draw=True,
                            agree=disc_board("xo", _connect_four_rows), same_ids=True),
    "othello": Pairing("othello", {}, "othello", {}, str.lower, str, can_draw=True,
                       agree=disc_board("xo", _othello_rows), same_ids=True, exercised=frozenset({"pass"})),
}
SEEDS = {"breakthrough": 20, "tictactoe": 100, "pig": 30, "connect_four": 20, "othello": 20}
SLOW_FACTOR = 15


def play(pairing: Pairing, seed: int) -> list:
    """Play one seeded random match on both engines, asserting agreement at every step; returns
    the moves played, in the common notation."""
    game = load_game(pairing.game, pairing.options)
    ours = game.new_initial_state()
    theirs = pyspiel.load_game(pairing.openspiel, pairing.params).new_initial_state()
    rng = random.Random(seed)
    played = []
    while True:
        where = f"{pairing.game}, seed {seed}, ply {ours.ply}"
        assert ours.current_player() == theirs.current_player(), where
        assert ours.is_terminal() == theirs.is_terminal(), where
        pairing.agree(ours, theirs)
        if ours.is_terminal():
            assert ours.returns() == theirs.returns(), where
            assert pairing.can_draw or ours.returns() != [0.0, 0.0], f"{where}: a drawn end"
            return played
        our_moves = {pairing.ours(ours.action_notation(a)): a for a in ours.legal_actions()}
        their_moves = {pairing.theirs(theirs.action_to_string(theirs.current_player(), a)): a
                       for a in theirs.legal_actions()}
        assert set(our_moves) == pairing.bridge(ours, set(their_moves)), where
        if pairing.same_ids:
            assert our_moves == their_moves, where
        if ours.is_chance_node():
            move = pairing.ours(ours.action_notation(chance_outcome(ours, seed)))
        else:
            move = rng.choice(sorted(set(our_moves) & set(their_moves)))
        ours.apply(our_moves[move])
        theirs.apply_action(their_moves[move])
        played.append(move)


@pytest.mark.parametrize("name", sorted(PAIRINGS))
def test_matches_openspiel(name):
    """A modest number of random playouts per game agree with OpenSpiel step by step."""
    played = set()
    for seed in range(SEEDS[name]):
        played.update(play(PAIRINGS[name], seed))
    assert PAIRINGS[name].exercised <= played


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PAIRINGS))
def test_matches_openspiel_many(name):
    """Many more playouts, as above."""
    for seed in range(SEEDS[name], SEEDS[name] * SLOW_FACTOR):
        play(PAIRINGS[name], seed)
