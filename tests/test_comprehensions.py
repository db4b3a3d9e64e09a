"""Comprehensions (docs/spec-reference.md, "Comprehensions"): one list form, valid wherever a list
is, with what count/any/all/sum/min/max/first give of it — checked against the same computation
in Python over every square a player may choose — and the old selection giving the same game."""

from __future__ import annotations

import pytest

from helpers import load_game, spec_folder
from rulecraft.compiler import check

LISTS = """
game: {id: lists, title: Lists, teams: [a, b]}
board:
  grid: {rows: 3, columns: 4}
state:
  stone: {type: team, of: space}
  facts: {type: int, of: team}
  looped: int
define:
  low(z): "[y for y in spaces where y.row < z.row or y.col < z.col]"
  around(z): "[y for y in spaces where abs(y.row - z.row) <= 1 and abs(y.col - z.col) <= 1 and y != z]"
turn:
  - {phase: p, rule: "1", choose: put, by: a}
actions:
  put:
    rule: "1"
    params:
      at: {type: space, from: "[z for z in spaces where z.row + z.col != 4]"}
    effect: |
      for y in [y for y in low(at) until y.col == 3] do { y.stone = b; looped += 1 };
      let near = [y.row * 10 + y.col for y in around(at)];
      a.facts = count(y.stone == b for y in spaces) * 100000 + count(y for y in low(at) where y.col > 1) * 10000
                + sum(near) % 1000 + (if any(y.stone == none for y in around(at)) then 1000 else 0);
      b.facts = min(near) * 1000 + max(n for n in near where n < 30) + (if all(n > 10 for n in near) then 100000 else 0)
                + (if at in [y for y in spaces where y.row == 1] then 200000 else 0)
                + first(y.col for y in around(at) where y.row != at.row) * 10000000;
      finish
end: {rule: "1", returns: "0"}
limits: {max_plies: 2}
"""


def squares(rows=3, columns=4):
    return [(r, c) for r in range(1, rows + 1) for c in range(1, columns + 1)]


def neighbours(r, c):
    """The squares around (r, c), in board order."""
    return [(y, x) for (y, x) in squares() if (y, x) != (r, c) and abs(y - r) <= 1 and abs(x - c) <= 1]


def expected(r, c) -> list:
    low = [(y, x) for (y, x) in squares() if y < r or x < c]
    run = []
    for y, x in low:
        if x == 3:
            break
        run.append((y, x))
    near = [y * 10 + x for (y, x) in neighbours(r, c)]
    stones = set(run)
    a = (len(stones) * 100000 + sum(1 for (y, x) in low if x > 1) * 10000 + sum(near) % 1000
         + (1000 if any(n not in stones for n in neighbours(r, c)) else 0))
    b = (min(near) * 1000 + max([n for n in near if n < 30], default=0) + (100000 if all(n > 10 for n in near) else 0)
         + (200000 if r == 1 else 0) + next((x for (y, x) in neighbours(r, c) if y != r), 0) * 10000000)
    return [a, b, len(run)]


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    return load_game(spec_folder(tmp_path_factory.mktemp("lists"), LISTS))


def _square(notation: str) -> tuple:
    """The (row, column) of ``put A1``'s square (columns are letters, rows numbers)."""
    name = notation.split()[-1]
    return int(name[1:]), ord(name[0]) - ord("A") + 1


def test_a_parameter_from_a_comprehension_offers_its_items(lists):
    state = lists.new_initial_state()
    offered = sorted(_square(state.action_notation(a)) for a in state.legal_actions())
    assert offered == sorted(s for s in squares() if sum(s) != 4)


def test_every_list_function_over_comprehensions_gives_what_python_gives(lists):
    start = lists.new_initial_state()
    for action in start.legal_actions():
        state = lists.new_initial_state()
        state.apply(action)
        square = _square(start.action_notation(action))
        assert [state.value("facts", 0), state.value("facts", 1), state.value("looped")] == expected(*square), square


def test_the_old_selection_gives_the_same_game_with_a_warning(lists, tmp_path):
    old = LISTS.replace("count(y for y in low(at) where y.col > 1)", "count(y in low(at) where y.col > 1)") \
        .replace("any(y.stone == none for y in around(at))", "any(y in around(at) where y.stone == none)")
    folder = spec_folder(tmp_path, old)
    warnings = [w for w in check(str(folder))[1] if w.code == "RC373"]
    assert [w.hint for w in warnings] == ["write count(y for y in low(at) where y.col > 1)",
                                          "write any(y.stone == none for y in around(at))"]
    game = load_game(folder)
    for action in lists.new_initial_state().legal_actions():
        ours, theirs = lists.new_initial_state(), game.new_initial_state()
        ours.apply(action)
        theirs.apply(action)
        assert ours.s == theirs.s
