"""Directions and rays on grids (``step``, ``ray``, ``turn``, ``direction``), runs cut by
``x in S until C``, and ``first``/``min``/``max`` over numbers: the tables the compiler makes,
what compiled rules compute, and that the built-in enumeration stays out of games that do not
use it. The reference document's examples run in tests/test_reference_doc.py; the error
fixtures in tests/test_spec_errors.py."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
import pytest

from rulecraft.compiler import compile_source
from rulecraft.compiler.board import DIRECTIONS, grid_directions, grid_towards
from rulecraft.compiler.ir import GridIR
from rulecraft.runtime.engine import Game

from helpers import load_game, spec_folder

NAMES = [name for name, _, _ in DIRECTIONS]


def _grid(rows: int, columns: int, holes=frozenset()) -> GridIR:
    return GridIR(rows, columns, tuple((r, c) for r in range(1, rows + 1) for c in range(1, columns + 1)
                                       if (r, c) not in holes))


def test_north_is_towards_higher_rows_and_east_towards_higher_columns():
    grid = _grid(3, 3)
    step, ray = grid_directions(grid)
    square = {rc: i for i, rc in enumerate(grid.coords)}
    b2 = square[(2, 2)]
    assert [grid.coords[step[b2][d]] for d in range(8)] == \
        [(3, 2), (3, 3), (2, 3), (1, 3), (1, 2), (1, 1), (2, 1), (3, 1)]
    assert ray[square[(1, 1)]][NAMES.index("ne")] == (b2, square[(3, 3)])
    assert step[square[(3, 3)]][NAMES.index("n")] == -1 and ray[square[(3, 3)]][NAMES.index("n")] == ()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_a_ray_is_repeated_steps_and_points_back_along_its_direction(rows, columns, data):
    holes = data.draw(st.frozensets(st.tuples(st.integers(1, rows), st.integers(1, columns)), max_size=4))
    grid = _grid(rows, columns, holes)
    if not grid.coords:
        return
    step, ray = grid_directions(grid)
    towards = grid_towards(grid)
    z = data.draw(st.integers(0, len(grid.coords) - 1))
    for d in range(8):
        walked, here = [], step[z][d]
        while here >= 0:
            walked.append(here)
            here = step[here][d]
        assert ray[z][d] == tuple(walked)
        for q in ray[z][d]:
            assert towards[z][q] == d and towards[q][z] == (d + 4) % 8
    assert towards[z][z] == -1


SPEC = """\
game: {id: rays, title: Rays, teams: [white, black], language: 2}
board:
  grid: {rows: 4, columns: 5}
state:
  disc: {type: team, of: space}
  heading: {type: direction, initial: n}
  run: int
  cut: int
  flipped: int
  firstodd: int
  least: int
  most: int
  nothing: int
  corner: {type: direction}
setup:
  - phase: discs
    rule: "1"
    do: "A3.disc = black; B1.disc = white; C1.disc = white; E1.disc = black"
turn:
  - phase: play
    rule: "1"
    do: |
      run = count(q for q in ray(A1, e) until q.disc != white);
      cut = count(q for q in ray(A1, n) until q.disc == black) + 10 * count(ray(A1, ne));
      heading = turn(turn(heading, 2), -5);
      firstodd = first(k for k in range(1, 9) where k % 2 == 1 and k > 4);
      least = min([4, 2, 7]) + min(q.row for q in ray(C2, n) until q.row > 3);
      most = max(k for k in range(1, 5) where k < 3);
      nothing = first(k for k in range(1, 3) where k > 5) + min(q.row for q in ray(E4, n)) + max(k for k in range(1, 3) where k > 5);
      corner = direction(E4, A4);
      for q in ray(A1, e) until q.disc != white do { q.disc = black; flipped += 1 };
      finish
end: {rule: "1", returns: "0"}
limits: {max_plies: 1}
"""


@pytest.fixture(scope="module")
def rays(tmp_path_factory):
    folder = spec_folder(tmp_path_factory.mktemp("rays"), SPEC)
    return folder


@pytest.mark.parametrize("optimize", [True, False])
def test_compiled_rules_compute_rays_turns_and_numbers(rays, optimize):
    namespace: dict = {}
    exec(compile(compile_source(rays, optimize=optimize), "<rays>", "exec"), namespace)
    state = Game(namespace["RULES"]).new_initial_state()
    assert state.is_terminal()
    values = {name: state.value(name) for name in
              ("run", "cut", "heading", "firstodd", "least", "most", "nothing", "corner", "flipped")}
    assert values == {"run": 2, "cut": 1 + 10 * 3, "heading": NAMES.index("sw"), "firstodd": 5,
                      "least": 2 + 3, "most": 2, "nothing": 0, "corner": NAMES.index("w"), "flipped": 2}
    # the loop's run ends before D1, the first square that is not white
    assert [state.value("disc", i) for i in range(5)] == [-1, 1, 1, -1, 1]


def test_the_direction_tables_are_emitted_only_where_used(rays):
    source = compile_source(rays)
    assert "\nRAY = " in source and "\nSTEP = " not in source
    # direction(E4, A4) is computed when compiling; unoptimised rules look it up
    assert "\nDIRECTION_TO = " not in source and "\nDIRECTION_TO = " in compile_source(rays, optimize=False)
    assert "\nRAY = " not in compile_source("tictactoe")


def test_the_direction_enumeration_belongs_only_to_games_that_use_it(rays):
    assert "direction" not in load_game("ball").rules.enums
    assert load_game(rays).rules.enums["direction"] == tuple(NAMES)
    assert load_game("othello").rules.enums["direction"] == tuple(NAMES)


def test_a_spec_name_comes_before_a_direction(tmp_path):
    spec = SPEC.replace("teams: [white, black]", "teams: [white, e]").replace("black", "e") \
        .replace("ray(A1, e)", "ray(A1, turn(n, 2))")
    (tmp_path / "game.yaml").write_text(spec, encoding="utf-8")
    state = load_game(tmp_path).new_initial_state()
    assert state.value("run") == 2 and state.value("cut") == 31
