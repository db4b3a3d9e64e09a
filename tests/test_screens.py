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

from hypothesis import given, settings, strategies as st

from helpers import FIXTURES, load_game
from rulecraft.compiler import find_game
from rulecraft.play import decision_screen
from rulecraft.runtime.match import Match, seat_bots
from rulecraft.runtime.narrate import Narrator
from rulecraft.texts import messages
from terminal import expected_lists, zone_lists

SCREENS = Path(__file__).with_name("golden") / "screens"
SEED = 1
# (file stem, game, the ply at or after which the mid-game screen is taken)
CASES = [("taktinen", "taktinen", 120), ("ball", "ball", 60), ("breakthrough", "breakthrough", 20),
         ("tictactoe", "tictactoe", 4), ("pig", "pig", 12), ("sowing", str(FIXTURES / "sowing"), 6),
         ("street-soccer", "street-soccer", 40)]


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


# ---------- a zone board lists each piece by number ----------
@pytest.mark.parametrize("seed", [1, 2])
def test_a_zone_board_lists_every_piece_in_its_zone_by_number(seed):
    from rulecraft.runtime.render import board_lines
    game = load_game("taktinen")
    match = Match(game, seed)
    bots = seat_bots(game, "random")
    checked = 0
    while not match.state.is_terminal() and match.state.ply < 400:
        if match.state.ply % 7 == 0:
            lines = board_lines(match.state)
            assert zone_lists(lines, game.rules) == expected_lists(match.state), "\n".join(lines)
            assert max(map(len, lines)) <= 100, "\n".join(lines)
            checked += any(expected_lists(match.state).values())
        match.advance(bots)
    assert checked > 20


def test_the_goalkeeper_is_marked_and_named_in_every_language():
    pytest.importorskip("babel")
    from rulecraft.runtime.render import board_lines
    from rulecraft.site.narration import Narration
    game = load_game("taktinen")
    match = Match(game, 3)
    bots = seat_bots(game, "random")
    while match.state.ply < 200 or not any(line.count("~") > 20 for line in board_lines(match.state)):
        match.advance(bots)
    english = board_lines(match.state, None, Narrator(game, **messages(find_game("taktinen").parent)).word)
    assert english[-1] == "   ● ball   ◆ target zone   G goalkeeper"
    assert any(" H G" in line for line in english) or any("|H G" in line for line in english)
    for language in ("fi", "de", "es", "it", "ru"):
        narration = Narration.of_game(find_game("taktinen").parent, language, game)
        lines = board_lines(match.state, None, narration.word)
        assert lines[-1].endswith(f"G {narration.word('goalkeeper')}"), (language, lines[-1])
        assert max(map(len, lines)) <= 100, (language, "\n".join(lines))
        assert zone_lists(lines, game.rules) == expected_lists(match.state)


def test_a_zone_too_small_for_its_pieces_says_how_many_more():
    from rulecraft.runtime.render import _zone_text
    teams = [(0, ["H", "G", "1", "3", "5", "7", "9"]), (1, ["A", "G", "2", "4", "6", "8", "10"])]
    lines = _zone_text([("C1", None)], teams, 12, 2)
    texts = ["".join(text for text, _ in line) for line in lines]
    assert len(texts) == 2 and all(len(text) <= 12 for text in texts), texts
    assert texts == ["C1 H G 1 3 5", " 7 9 A G +5"], texts      # five away pieces left out: 2 4 6 8 10
    roomy = ["".join(text for text, _ in line) for line in _zone_text([("C1", None)], teams, 16, 4)]
    assert roomy == ["C1", "H G 1 3 5 7 9", "A G 2 4 6 8 10"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(1, 12), min_size=1, max_size=11, unique=True), min_size=1, max_size=3),
       st.integers(10, 24), st.integers(1, 5), st.booleans())
def test_a_zone_shows_its_pieces_in_order_within_its_box_or_counts_the_rest(teams, width, rows, marker):
    from rulecraft.runtime.render import _run_size, _runs, _zone_text
    listed = [(team, ["HAB"[team], *_runs(sorted(numbers))]) for team, numbers in enumerate(teams)]
    head = [("C3", None)] + ([("●", None)] if marker else [])
    lines = _zone_text(head, listed, width, rows)
    texts = ["".join(text for text, _ in line) for line in lines]
    assert 1 <= len(lines) <= rows and all(len(text) <= width for text in texts), texts
    shown = [text for line in lines for text, owner in line if owner is not None]
    flat = [token for _, tokens in listed for token in tokens]
    assert shown == flat[:len(shown)], (shown, flat)                    # in order, none skipped
    left = sum(_run_size(token) for k, token in
               [(k, token) for _, tokens in listed for k, token in enumerate(tokens)][len(shown):] if k)
    more = [text for text, owner in lines[-1] if owner is None and text.startswith(" +")]
    if len(shown) == len(flat):
        assert not more
    else:
        assert more == [f" +{left}"] and left > 0, (texts, left)
