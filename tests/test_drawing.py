"""A board is drawn from its spec's ``board: drawing:``, the same way on the site and in the terminal.

What a person meets: the rulebook's SVG and the board ``rulecraft play`` prints both change when
the drawing entry does; taktinen's terminal board shows its zones with the pieces on them and
both goals; BALL's squares are shaded stripe by stripe; each end's own goal, a marked penalty
area, side fields beside a grid and lines across the pitch that move with the game (an offside
line) show in both; ``rulecraft play`` shows the line-up. (Bad entries: tests/test_spec_errors.py.)
"""

from __future__ import annotations

from pathlib import Path
import re
import tempfile

from hypothesis import given, settings, strategies as st
import pytest

from rulecraft.compiler import load_rules
from rulecraft.layout import board_layout, lines_across
from rulecraft.limits import MAX_SHADES
from rulecraft.runtime.engine import Game
from rulecraft.runtime.render import ACROSS as ACROSS_MARK, OUTLINE, ZONE_WIDTH, board_lines, render_text
from rulecraft.site.board import across_segments, board_svg, space_boxes

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
    assert "|left " in text and "|H 1 2 " in text         # each zone's pieces by team and number
    assert "|front " in text and "|A 1-3 " in text        # three in a row as a run

    plain_svg, plain_text = drawn(tmp_path, PLAIN)
    assert 'class="rc-goal"' not in plain_svg and "rc-centre-circle" not in plain_svg
    assert {tone for tone, _ in TONES.findall(plain_svg)} == {"0"}
    assert "#" not in plain_text and "=" not in plain_text and "(" not in plain_text
    assert ":" in text and ":" not in plain_text         # the shaded centre column is plain now
    assert "|H 1 2 " in plain_text


def test_taktinen_terminal_board_shows_its_zones_pieces_and_goals():
    result = invoke("play", "taktinen", "--seed", "7")
    assert result.exit_code == 0, result.output
    board = result.output.split("Returns:")[1]
    for zone in ("L1", "C1", "R1", "C3", "L4", "C5", "R4"):
        assert re.search(rf"\|{zone}\b", board), zone
    lists = re.findall(r"\|[HA]((?: (?:G|\d+-\d+|\d+))+)", board)        # "H G 1-3 7": a team's pieces
    runs = [token.split("-") for found in lists for token in found.split()]
    pieces = sum(1 if run == ["G"] else int(run[-1]) - int(run[0]) + 1 for run in runs)
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


PITCH = """
game: {id: pitch, title: Pitch, teams: [home, away]}
board:
  grid: {rows: 6, columns: 5}
  adjacent: orthogonal
  areas:
    home_box: "z.row <= 2 and z.col >= 2 and z.col <= 4"
    away_box: "z.row >= 5 and z.col >= 2 and z.col <= 4"
  drawing:
DRAWING
pieces:
  roster:
    - {team: home, count: 2, at: A1}
    - {team: away, count: 1, at: E6}
turn:
  - {phase: p, rule: "1", do: "finish"}
end: {rule: "1", returns: "0"}
limits: {max_plies: 3}
"""
GOAL_RECT = re.compile(r'<rect class="rc-goal" data-end="(\d)" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"')


def pitch(tmp_path, drawing: str) -> tuple[str, list[str]]:
    """The site's SVG and the terminal's board lines of the 6 × 5 grid pitch with this drawing."""
    rules = load_rules(spec_folder(tmp_path, PITCH.replace("DRAWING", drawing)) / "game.yaml")
    text = render_text(Game(rules).new_initial_state())
    return board_svg(rules, label="pitch"), text.split("\ngame over")[0].splitlines()


def goal_marks(lines: list[str]) -> list[tuple[int, int]]:
    """Where each line of ``#`` of a terminal board starts and ends, top to bottom."""
    found = [line for line in lines if line.strip() and set(line.strip()) == {"#"}]
    return [(len(line) - len(line.lstrip()), len(line)) for line in found]


def test_each_end_can_have_its_own_goal_in_both_outputs(tmp_path):
    same_svg, same_text = pitch(tmp_path, "    goals: {width: 1, depth: 0.3}")
    own_svg, own_text = pitch(tmp_path, "    goals: [{width: 1, depth: 0.3}, {width: 3, depth: 0.5, at: 1.5}]")
    same, own = GOAL_RECT.findall(same_svg), GOAL_RECT.findall(own_svg)
    assert same[0][1:] == same[1][1:], "the short form: one goal, centred, at both ends"
    assert own[0][1:] == same[0][1:] and own[1][1:] != same[1][1:]
    assert float(own[1][2]) == 3 * float(own[0][2]) and float(own[1][1]) < float(own[0][1])
    (top, bottom), (own_top, own_bottom) = goal_marks(same_text), goal_marks(own_text)
    assert top == bottom and own_bottom == bottom
    assert own_top[0] < top[0] and own_top[1] - own_top[0] > top[1] - top[0]


def test_marked_areas_are_framed_in_both_outputs(tmp_path):
    svg, lines = pitch(tmp_path, "    marks: {home_box: box}")
    plain_svg, plain_lines = pitch(tmp_path, "    lines: [halfway]")
    assert re.findall(r'class="rc-area-mark" data-area="([^"]+)"', svg) == ["home_box"]
    assert "rc-area-mark" not in plain_svg and not any("*" in line for line in plain_lines)
    framed = [line for line in lines if "*" in line]
    assert len(framed) == 4, "the box's top edge, its two rows with sides, its bottom edge"
    assert framed[1].lstrip().startswith("2 ") and framed[2].lstrip().startswith("1 ")
    assert all(line.count("*") == 2 for line in framed[1:3])
    edge = framed[0].strip()
    assert set(edge) == {"*"} and framed[0].index("*") == framed[1].index("*")
    assert framed[0].rindex("*") == framed[1].rindex("*")
    assert framed[2].split("*")[0].rstrip().endswith("H1+H2"), "A1 lies left of the box"


def test_a_marked_zone_is_framed_in_the_terminal(tmp_path):
    spec = ZONES.replace("DRAWING\n", "    marks: {own_box: box}\n").replace(
        "  adjacent:", '  areas:\n    own_box: "z.low == 1 and z.column == 1"\n  adjacent:')
    rules = load_rules(spec_folder(tmp_path, spec) / "game.yaml")
    text = render_text(Game(rules).new_initial_state())
    assert board_layout(rules).marks["own_box"] == board_layout(rules).boxes["back"]
    assert '<rect class="rc-area-mark" data-area="own_box"' in board_svg(rules, label="zones")
    assert re.search(r"\*back", text) and re.search(rf"\*{{{ZONE_WIDTH}}}", text)


SIDE_FIELDS = """    place: {x: "z.col + z.col // 5 - 1 // z.col", y: "z.row"}
    shade: "z.col == 1 or z.col == 5"
    lines: [halfway]
    goals: {width: 1, depth: 0.3}"""


def test_side_fields_are_drawn_apart_from_the_grid(tmp_path):
    """Columns A and E are side fields beside the touchlines: drawn a cell apart, shaded."""
    svg, lines = pitch(tmp_path, SIDE_FIELDS)
    rules = load_rules(tmp_path / "game.yaml")
    layout = board_layout(rules)
    assert (layout.width, layout.height) == (7, 6)
    assert [layout.boxes[f"{c}1"].x for c in "ABCDE"] == [0, 2, 3, 4, 6]
    assert {layout.shades[f"A{r}"] for r in range(1, 7)} == {1} and layout.shades["C3"] == 0
    boxes = space_boxes(rules)
    assert boxes["B1"].x - (boxes["A1"].x + boxes["A1"].width) == pytest.approx(boxes["B1"].width, abs=0.02), "a cell apart"
    assert re.search(r'data-space="A1"', svg) and re.search(r'data-space="E6"', svg)
    board = "\n".join(lines)
    assert re.search(r"\|A1 +\|.*\n.*\|H 1 2 ", board) and re.search(r"\|E6 +\|.*\n.*\|A 1 ", board)
    a1, b1 = (re.search(rf"[|{OUTLINE[1]}]{name}\b", board).start() for name in ("A1", "B1"))   # B1: home_box outlined
    assert b1 - a1 > 2 * ZONE_WIDTH - 2, "the gap column between the side field and the pitch"


@pytest.mark.parametrize("area, rows", [("home_box", ("1", "2")), ("away_box", ("5", "6"))])
def test_an_outlined_area_of_placed_fields_is_framed_in_both_outputs(tmp_path, area, rows):
    """Issue 14: a grid whose fields are drawn by ``place:`` (street-soccer's side fields) gets
    its outlined areas in the terminal too, from the same layout as the site: one frame round
    the area's fields (none between two of them), named in the legend."""
    svg, lines = pitch(tmp_path, SIDE_FIELDS + f"\n    outline: [{area}]")
    assert re.findall(r'class="rc-area" data-area="([^"]+)"', svg) == [area]
    sides = [line for line in lines if OUTLINE[1] in line and not line.lstrip().startswith(OUTLINE[1])]
    assert sides and all(line.count(OUTLINE[1]) == 2 for line in sides), "left and right only"
    framed = [found.group(1) for line in sides if (found := re.search(rf"{OUTLINE[1]}(B\d)", line))]
    assert tuple(sorted(framed)) == tuple(f"B{row}" for row in rows)
    edges = [line for line in lines if OUTLINE[0] in line]
    assert len(edges) == 2 and all(line.count(OUTLINE[0]) == 3 * (ZONE_WIDTH - 1) for line in edges)
    assert lines[-1].strip() == f"{OUTLINE[1]} {area.replace('_', ' ')}"


@settings(max_examples=20, deadline=None)
@given(st.sets(st.tuples(st.integers(1, 6), st.integers(1, 5)), min_size=1, max_size=8))
def test_a_marked_box_is_the_smallest_rectangle_around_its_area(cells):
    condition = " or ".join(f"(z.row == {row} and z.col == {col})" for row, col in sorted(cells))
    spec = PITCH.replace('home_box: "z.row <= 2 and z.col >= 2 and z.col <= 4"', f'home_box: "{condition}"')
    with tempfile.TemporaryDirectory() as folder:
        rules = load_rules(spec_folder(Path(folder), spec.replace("DRAWING", "    marks: {home_box: box}"))
                           / "game.yaml")
    box = board_layout(rules).marks["home_box"]
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    assert (box.x, box.y, box.width, box.height) == (min(cols) - 1, min(rows) - 1, max(cols) - min(cols) + 1,
                                                     max(rows) - min(rows) + 1)


ACROSS = """
game: {id: lines, title: Lines, teams: [home, away]}
board:
  grid: {rows: 6, columns: 3}
  adjacent: orthogonal
  drawing:
    across: [offside_line]
pieces:
  roster:
    - {team: home, count: 1, at: B2}
    - {team: away, count: 2, at: B5}
state:
  offside_line:
    type: int
    of: team
    derived: "if team == home then max(p.at.row for p in away.pieces) else 0"
  to_move: {type: team, initial: home}
actions:
  advance:
    rule: "1"
    params: {piece: piece}
    legal:
      - {if: "piece.team == actor and piece.at.row < 6", rule: "1", reason: "move one of yours up"}
    effect: "piece.at = space(piece.at.row + 1, piece.at.col); to_move = actor.opponent"
turn:
  - {phase: p, rule: "1", choose: advance, by: to_move}
end: {rule: "1", returns: "0"}
limits: {max_plies: 20}
"""


def test_a_line_across_the_pitch_moves_with_the_game_in_both_outputs(tmp_path):
    # home's offside line is the row of the furthest away piece's top edge; away's value (0) is
    # on the end, so it draws nothing
    game = Game(load_rules(spec_folder(tmp_path, ACROSS) / "game.yaml"))
    state = game.new_initial_state()
    layout = board_layout(game.rules)
    assert [(line.team, line.y) for line in lines_across(layout, state)] == [(0, 5), (1, None)]
    assert across_segments(game.rules, state)[1] is None
    first = across_segments(game.rules, state)[0]
    board = board_lines(state)
    marked = [row for row in board if "offside line: home" in row]
    assert len(marked) == 1 and set(marked[0].split("  offside")[0].strip()) == {ACROSS_MARK}
    assert board.index(marked[0]) == board.index(next(r for r in board if r.startswith("  6"))) + 1
    for _ in range(2):          # home's piece, then an away piece, one row up
        state.apply(state.legal_actions()[0])
    assert [line.y for line in lines_across(layout, state)] == [None, None]      # away's reached the end
    assert across_segments(game.rules, state) == [None, None]
    assert not any(ACROSS_MARK in row for row in board_lines(state))
    x1, x2, y = first           # the SVG line spans the pitch at the top edge of row 5
    boxes = space_boxes(game.rules)
    assert (x1, x2) == (boxes["A5"].x, boxes["C5"].x + boxes["C5"].width) and y == boxes["B5"].y


def test_every_shade_has_its_own_colour_on_both_kinds_of_board():
    # shade: may give 0 to MAX_SHADES - 1; a shade without a colour of its own would look like 0
    css = (REPO / "site" / "assets" / "player.css").read_text(encoding="utf-8")
    for scope in (r"\.rc-space", r"\.rc-board-grid \.rc-space"):
        base = re.search(rf"(?m)^{scope} \{{[^}}]*--rc-square: (#[0-9a-f]{{6}})", css).group(1)
        tones = [re.search(rf"(?m)^{scope}\.rc-tone-{n} \{{\s*--rc-square: (#[0-9a-f]{{6}})", css)
                 for n in range(1, MAX_SHADES)]
        assert all(tones), scope
        assert len({base, *(tone.group(1) for tone in tones)}) == MAX_SHADES, scope
