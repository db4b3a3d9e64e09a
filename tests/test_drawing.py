"""A board is drawn from its spec's ``board: drawing:``, the same way on the site and in the terminal.

What a person meets: the rulebook's SVG and the board ``rulecraft play`` prints both change when
the drawing entry does; taktinen's terminal board shows its zones with the pieces on them and
both goals; BALL's squares are shaded stripe by stripe. (Bad entries: tests/test_spec_errors.py.)
"""

from __future__ import annotations

from pathlib import Path
import re
import tempfile

from hypothesis import given, settings, strategies as st
import pytest

from rulecraft.compiler import load_rules
from rulecraft.layout import board_layout
from rulecraft.runtime.engine import Game
from rulecraft.runtime.render import render_text
from rulecraft.site.board import board_svg, space_boxes

from helpers import REPO, invoke, spec_folder

ZONES = """
game: {id: zones, title: Zones, teams: [home, away]}
board:
  spaces:
    - {id: back, column: 1, low: 1, high: 1}
    - {id: left, column: 0, low: 1, high: 2}
    - {id: middle, column: 1, low: 2, high: 3}
    - {id: right, column: 2, low: 1, high: 2}
    - {id: front, column: 1, low: 4, high: 4}
  adjacent: "abs(a.column - b.column) + abs(a.low - b.low) == 1"
  drawing:
    place: {x: "z.column", y: "z.low", height: "z.high - z.low + 1"}
DRAWING
pieces:
  roster:
    - {team: home, count: 2, at: left}
    - {team: away, count: 3, at: front}
turn:
  - {phase: p, rule: "1", do: "finish"}
end: {rule: "1", returns: "0"}
limits: {max_plies: 3}
"""
GOALS_AND_SHADE = """    lines: [halfway, centre_circle]
    goals: {width: 1, depth: 0.3}
    shade: "z.column % 2"
"""
PLAIN = """    shade: "0"
"""
TONES = re.compile(r'class="rc-space rc-tone-(\d)" data-space="([^"]+)"')


def drawn(tmp_path, drawing: str) -> tuple[str, str]:
    """The site's SVG and the terminal's board (without the state's fields below it) of the zone
    game with this drawing entry."""
    rules = load_rules(spec_folder(tmp_path, ZONES.replace("DRAWING\n", drawing)) / "game.yaml")
    text = render_text(Game(rules).new_initial_state())
    return board_svg(rules, label="zones"), text.split("\ngame over")[0]


def test_changing_the_drawing_changes_both_the_site_and_the_terminal(tmp_path):
    svg, text = drawn(tmp_path, GOALS_AND_SHADE)
    assert svg.count('class="rc-goal"') == 2 and 'class="rc-centre-circle"' in svg
    assert dict((name, tone) for tone, name in TONES.findall(svg))["left"] == "0"
    assert dict((name, tone) for tone, name in TONES.findall(svg))["middle"] == "1"
    goal_lines = [line for line in text.splitlines() if line.strip() and set(line.strip()) == {"#"}]
    assert len(goal_lines) == 2 and "O" in text and "=" in text
    assert "|left H2" in text and "|front A3" in text

    plain_svg, plain_text = drawn(tmp_path, PLAIN)
    assert 'class="rc-goal"' not in plain_svg and "rc-centre-circle" not in plain_svg
    assert {tone for tone, _ in TONES.findall(plain_svg)} == {"0"}
    assert "#" not in plain_text and "=" not in plain_text and "(" not in plain_text
    assert ":" in text and ":" not in plain_text         # the shaded centre column is plain now
    assert "|left H2" in plain_text


def test_taktinen_terminal_board_shows_its_zones_pieces_and_goals():
    result = invoke("play", "taktinen", "--seed", "7")
    assert result.exit_code == 0, result.output
    board = result.output.split("Returns:")[1]
    for zone in ("L1", "C1", "R1", "C3", "L4", "C5", "R4"):
        assert re.search(rf"\|{zone}\b", board), zone
    counts = re.findall(r"\|[LCR]\d((?: [HA]\d+)+)", board)
    pieces = sum(int(n) for found in counts for n in re.findall(r"\d+", found))
    assert 0 < pieces <= 22
    goals = [line for line in board.splitlines() if line.strip() and set(line.strip()) == {"#"}]
    assert len(goals) == 2
    assert re.search(r"\(=*O=*\)", board), "the centre circle on the halfway line"


@pytest.fixture(scope="module")
def ball_tones() -> dict:
    rules = load_rules(REPO / "rulespecs" / "ball" / "game.yaml")
    tones = {name: int(tone) for tone, name in TONES.findall(board_svg(rules, label="BALL"))}
    assert tones == board_layout(rules).shades
    return tones


def test_ball_squares_are_shaded_stripe_by_stripe(ball_tones):
    """Along a stripe (up and to the left) the shade stays; to the next stripe (up and to the
    right) it changes."""
    def name(row, col):
        return f"{row}{chr(64 + col)}"
    same = changed = 0
    for square, tone in ball_tones.items():
        row, col = int(square[:-1]), ord(square[-1]) - 64
        if name(row + 1, col - 1) in ball_tones:
            assert ball_tones[name(row + 1, col - 1)] == tone, square
            same += 1
        if name(row + 1, col + 1) in ball_tones:
            assert ball_tones[name(row + 1, col + 1)] != tone, square
            changed += 1
    assert same > 50 and changed > 50 and set(ball_tones.values()) == {0, 1}


@settings(max_examples=15, deadline=None)
@given(st.lists(st.lists(st.integers(1, 3), min_size=1, max_size=4), min_size=1, max_size=3))
def test_stacked_zones_are_drawn_apart_and_named_in_both_outputs(columns):
    """Zones stacked in columns, of any heights: on the site no two boxes overlap and every box
    lies on the board; in the terminal every zone's name shows."""
    spaces, zones = [], []
    for column, heights in enumerate(columns):
        low = 1
        for number, height in enumerate(heights):
            zones.append(f"z{column}_{number}")
            spaces.append(f"    - {{id: {zones[-1]}, column: {column}, low: {low}, high: {low + height - 1}}}")
            low += height
    spec = ZONES.replace("DRAWING\n", "").replace("pieces:\n  roster:\n    - {team: home, count: 2, at: left}\n"
                                                   "    - {team: away, count: 3, at: front}\n", "")
    spec = re.sub(r"  spaces:\n(    - .*\n)+", "  spaces:\n" + "\n".join(spaces) + "\n", spec)
    with tempfile.TemporaryDirectory() as folder:
        rules = load_rules(spec_folder(Path(folder), spec) / "game.yaml")
    boxes = list(space_boxes(rules).values())
    layout = board_layout(rules)
    assert layout.width == len(columns) and layout.height == max(sum(h) for h in columns)
    for i, one in enumerate(boxes):
        for two in boxes[:i]:
            assert (one.x + one.width <= two.x or two.x + two.width <= one.x
                    or one.y + one.height <= two.y or two.y + two.height <= one.y)
    text = render_text(Game(rules).new_initial_state())
    assert all(f"|{zone}" in text for zone in zones)
