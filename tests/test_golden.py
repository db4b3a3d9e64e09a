"""Golden playthroughs: what every game offers at every ply, compared with a recorded file.

For each game (and option set) under ``tests/golden/``, the file holds a digest of the game's whole
action encoding (every id with its notation) and of seeded random playthroughs: at every ply the
acting team, the legal actions with their notations, the chance outcomes and the returns. A change to
the compiler, the runtime or a spec that alters any of these shows up here; when the change is
intended, record the files again with ``python -m pytest tests/test_golden.py --update-golden`` and
review the diff. Source: the golden "playthrough" files of OpenSpiel's test suite.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
import random

import pytest

from helpers import load_game

GOLDEN = Path(__file__).with_name("golden")
# (file stem, game, options); the recorded files say how many playthroughs they hold
CASES = [("ball", "ball", {}), ("breakthrough", "breakthrough", {}), ("pig", "pig", {}),
         ("taktinen", "taktinen", {}), ("taktinen-layout-B", "taktinen", {"layout": "B"}),
         ("tictactoe", "tictactoe", {})]
PLAYTHROUGHS = 50          # recorded per game; the default run checks the first CHECKED
CHECKED = 8
EVERY = 25                 # a digest every EVERY plies locates the first difference
MAX_PLIES = 4000


def _digest(*parts) -> str:
    return hashlib.blake2b(json.dumps(parts, separators=(",", ":")).encode(), digest_size=8).hexdigest()


def encoding(game) -> list:
    """Per action: its name, first id, number of ids and a digest of every id's notation."""
    return [[a.name, a.base, a.size, _digest([game.action_notation(i) for i in range(a.base, a.base + a.size)])]
            for a in game.rules.actions]


def playthrough(game, seed: int) -> dict:
    """A seeded random playthrough: its length and a chained digest every ``EVERY`` plies."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    chain, marks = "", []
    while True:
        legal = state.legal_actions()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            seen = ["chance", outcomes]
        else:
            seen = [state.current_player(), [(a, state.action_notation(a)) for a in legal]]
        chain = _digest(chain, seen, state.is_terminal(), state.returns())
        if state.ply % EVERY == 0:
            marks.append(chain)
        if state.is_terminal() or state.ply >= MAX_PLIES:
            return {"seed": seed, "plies": state.ply, "final": chain, "marks": marks}
        if state.is_chance_node():
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(legal)
        state.apply(action)


def record(stem: str, game_name: str, options: dict) -> None:
    """Write ``tests/golden/<stem>.json`` from the current compiler and runtime."""
    game = load_game(game_name, options)
    data = {"game": game_name, "options": options, "encoding": encoding(game),
            "playthroughs": [playthrough(game, seed) for seed in range(PLAYTHROUGHS)]}
    (GOLDEN / f"{stem}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def update(request) -> bool:
    return request.config.getoption("--update-golden")


def _check(stem, game_name, options, count, update):
    if update:
        record(stem, game_name, options)
        return
    data = json.loads((GOLDEN / f"{stem}.json").read_text(encoding="utf-8"))
    game = load_game(game_name, options)
    assert encoding(game) == data["encoding"], f"{stem}: the action encoding changed"
    for recorded in data["playthroughs"][:count]:
        now = playthrough(game, recorded["seed"])
        first = next((i for i, (a, b) in enumerate(zip(now["marks"], recorded["marks"])) if a != b), None)
        where = f"first difference before ply {first * EVERY}" if first is not None else "at the end"
        assert now == recorded, f"{stem}, playthrough seed {recorded['seed']}: {where}"


@pytest.mark.parametrize("stem, game_name, options", CASES, ids=[c[0] for c in CASES])
def test_golden_playthroughs(stem, game_name, options, update):
    _check(stem, game_name, options, CHECKED, update)


@pytest.mark.slow
@pytest.mark.parametrize("stem, game_name, options", CASES, ids=[c[0] for c in CASES])
def test_golden_playthroughs_all(stem, game_name, options, update):
    _check(stem, game_name, options, PLAYTHROUGHS, update)
