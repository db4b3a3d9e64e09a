"""How compile time grows with the board and the roster: ``python -m rulecraft.benchmarks.scale``.

Each :class:`ScaleBench` compiles (``compile_source``, no cache) a small and a large variant of
one generated spec per round and reports both times and their ratio: a grid of
:data:`SMALL_SIDE` × :data:`SMALL_SIDE` against one of :data:`~rulecraft.limits.MAX_GRID` squares
a side (16 times the spaces), and a roster of :data:`SMALL_ROSTER` pieces against
:data:`~rulecraft.limits.MAX_PIECES` (5 times the pieces). A ratio near the ratio of the sizes
means compiling is linear in them; far above it, something is quadratic. The grid spec reads
every per-space table a rule can ask for (a field of every space, ``lines(n)``, ``distance``,
``direction``, a board attribute), so each of them is made at both sizes.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import statistics
import tempfile
import time

from rulecraft.compiler import compile_source
from rulecraft.limits import MAX_GRID, MAX_PIECES

SMALL_SIDE = 16
SMALL_ROSTER = 2_000

_HEAD = """game:
  id: {id}
  title: Scale
  version: "1.0"
  teams: [x, o]
  source: {{title: "a generated benchmark", licence: "public domain"}}
"""
_TAIL = """end:
  rule: "1"
  returns: "0"
  range: [-1, 1]
limits:
  max_plies: {plies}
"""


def board_spec(side: int) -> str:
    """A game on a ``side`` × ``side`` grid: the teams take turns marking a free square (not
    one of the ``side - 1`` due north of A1, nor C1), four marks in all (or four in a row) end it
    in a draw. Its rules read a field of every space,
    ``lines(4)``, ``distance``, ``direction`` and a board attribute."""
    return _HEAD.format(id=f"grid{side}") + f"""board:
  grid: {{rows: {side}, columns: {side}}}
  adjacent: king
  attributes:
    edge: "z.row == 1 or z.col == 1"
state:
  mark: {{type: team, of: space}}
  to_move: {{type: team, initial: x}}
  placed: int
turn:
  - phase: mark
    rule: "1"
    choose: place
    by: to_move
actions:
  place:
    rule: "1"
    doc: "Mark an empty square that is neither due north of A1 nor an edge square two steps from it."
    params: {{square: space}}
    legal:
      - {{if: "square.mark == none", rule: "1", reason: "the square is already marked"}}
      - {{if: "direction(square, A1) != s", rule: "1", reason: "the square is due north of A1"}}
      - {{if: "not (square.edge and distance(square, A1) == 2)", rule: "1",
         reason: "an edge square two steps from A1"}}
    effect: |
      square.mark = actor;
      placed = placed + 1;
      to_move = actor.opponent
    notation: "{{square}}"
triggers:
  - rule: "1"
    doc: "Four in a row, or four marks in all, end the game."
    when: "placed == 4 or any(all(q.mark == to_move.opponent for q in line) for line in lines(4))"
    do: "finish"
""" + _TAIL.format(plies=4)


def roster_spec(pieces: int) -> str:
    """A game with ``pieces`` pieces (half a team each, on no square) in which each team passes
    once."""
    return _HEAD.format(id=f"roster{pieces}") + f"""board:
  grid: {{rows: 8, columns: 8}}
  adjacent: king
pieces:
  kinds:
    pawn: {{}}
  roster:
    - {{team: each, kind: pawn, count: {pieces // 2}}}
state:
  to_move: {{type: team, initial: x}}
  passes: int
turn:
  - phase: wait
    rule: "1"
    choose: pass
    by: to_move
actions:
  pass:
    rule: "1"
    doc: "Pass; the game ends after two passes."
    effect: |
      passes = passes + 1;
      to_move = actor.opponent;
      if passes == 2 then {{ finish }}
    notation: "pass"
""" + _TAIL.format(plies=2)


class ScaleBench:
    """Compile time of a small and a large variant of one generated spec (see the module
    docstring); ``name`` is ``board`` or ``roster``. Building it writes both specs into a
    temporary folder, removed by :meth:`close`."""

    section = "scale"

    def __init__(self, name: str):
        self.name = name
        make, small, large, unit = {"board": (board_spec, SMALL_SIDE, MAX_GRID, "squares a side"),
                                    "roster": (roster_spec, SMALL_ROSTER, MAX_PIECES, "pieces")}[name]
        self.info = {"small": small, "large": large, "unit": unit}
        self.folder = tempfile.TemporaryDirectory(prefix="rulecraft-scale-")
        self.specs = []
        for size in (small, large):
            path = Path(self.folder.name) / f"{name}{size}" / "game.yaml"
            path.parent.mkdir()
            path.write_text(make(size), encoding="utf-8")
            self.specs.append(path)

    def measure(self, round_index: int) -> dict:
        """One round: ``small_s`` and ``large_s`` seconds to compile each, and ``ratio``."""
        small, large = (_compile_seconds(path) for path in self.specs)
        return {"small_s": small, "large_s": large, "ratio": large / small}

    def close(self) -> None:
        """Remove the generated specs."""
        self.folder.cleanup()


def _compile_seconds(path: Path) -> float:
    start = time.perf_counter()
    compile_source(path)
    return time.perf_counter() - start


def main(argv: list | None = None) -> None:
    """Print, per benchmark, the median and min–max over ``--rounds`` of each measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args(argv).rounds
    for name in ("board", "roster"):
        bench = ScaleBench(name)
        try:
            compile_source(bench.specs[0])       # builds the Lark parser, outside the timings
            values = [bench.measure(r) for r in range(rounds)]
        finally:
            bench.close()
        info = bench.info
        print(f"{name}: {info['large']} ÷ {info['small']} {info['unit']}")
        for metric in values[0]:
            samples = [v[metric] for v in values]
            print(f"  {metric}: {statistics.median(samples):.3g} ({min(samples):.3g}–{max(samples):.3g})")


if __name__ == "__main__":
    main()
