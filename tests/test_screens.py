"""Golden screens: what a person sees before a decision in ``rulecraft play``, compared with a file.

For each game, ``tests/golden/screens/<game>-first.txt`` holds the screen of the first decision
and ``<game>-mid.txt`` the screen of the first decision at or after a mid-game ply: the board,
the status line and the numbered legal actions (:func:`rulecraft.play.decision_screen`, the
lines ``rulecraft play --human`` prints before its prompt), in English, of a match seeded with
:data:`SEED` in which random bots play every team (each drawing from the match seed and the
ply, as in ``rulecraft play``). One game is a test fixture (``tests/fixtures/sowing``): a board
of spaces without geometry whose spaces hold seeds.

A change to the board drawing, the status line, the notations or the rules that alters a screen
shows up here; when it is intended, record the files again with
``python -m pytest tests/test_screens.py --update-golden`` and review the diff (``git diff
tests/golden/screens``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import FIXTURES, load_game
from rulecraft.compiler import find_game
from rulecraft.play import decision_screen
from rulecraft.runtime.match import Match, seat_bots
from rulecraft.runtime.narrate import Narrator
from rulecraft.texts import messages

SCREENS = Path(__file__).with_name("golden") / "screens"
SEED = 1
# (file stem, game, the ply at or after which the mid-game screen is taken)
CASES = [("taktinen", "taktinen", 120), ("ball", "ball", 60), ("breakthrough", "breakthrough", 20),
         ("tictactoe", "tictactoe", 4), ("pig", "pig", 12), ("sowing", str(FIXTURES / "sowing"), 6)]


def screens(game_name: str, mid: int) -> dict[str, str]:
    """``{"first": text, "mid": text}``: the screens of the first decision and of the first one
    at or after ply ``mid``, each as the deciding team sees it."""
    game = load_game(game_name)
    narrator = Narrator(game, **messages(find_game(game_name).parent))
    match = Match(game, SEED)
    bots = seat_bots(game, "random")
    shown: dict[str, str] = {}
    while not match.state.is_terminal() and len(shown) < 2:
        state = match.state
        if not state.is_chance_node():
            key = "first" if not shown else "mid" if state.ply >= mid else None
            if key:
                team = state.current_player()
                shown[key] = "\n".join(decision_screen(state, team, narrator, "en")) + "\n"
        match.advance(bots)
    assert len(shown) == 2, f"{game_name} ended at ply {match.state.ply}, before ply {mid}"
    return shown


@pytest.mark.parametrize("stem, game_name, mid", CASES, ids=[case[0] for case in CASES])
def test_screens_match_the_recorded_ones(stem, game_name, mid, request):
    update = request.config.getoption("--update-golden")
    for key, text in screens(game_name, mid).items():
        path = SCREENS / f"{stem}-{key}.txt"
        if update:
            SCREENS.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            continue
        assert path.is_file(), f"{path} is not recorded: python -m pytest tests/test_screens.py --update-golden"
        assert text == path.read_text(encoding="utf-8"), (
            f"the {key} screen of {stem} changed; if intended, record it again "
            f"(python -m pytest tests/test_screens.py --update-golden) and review the diff")


def test_a_board_of_spaces_lists_every_space_with_its_seeds():
    first = screens(str(FIXTURES / "sowing"), 6)["first"].splitlines()
    assert first[:8] == ["         s1: seeds in 3", "         s2: seeds in 3", "         s3: seeds in 3",
                         "south_store: seeds in 0", "         n1: seeds in 3", "         n2: seeds in 3",
                         "         n3: seeds in 3", "north_store: seeds in 0"]
    assert first[-3:] == ["    1. s1", "    2. s2", "    3. s3"]
