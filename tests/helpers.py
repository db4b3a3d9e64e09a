"""Helpers shared by the test files: loading games and the conformance checks every game passes.

The conformance checks know no game: they read only what the runtime offers (who acts, legal
actions, chance outcomes, serialisation, invariants, limits), so a new spec is covered by
pointing :func:`run_conformance` at its folder.
"""

from __future__ import annotations

from contextlib import contextmanager
import functools
import http.server
import json
import math
from pathlib import Path
import pickle
import random
import socket
import threading

import pytest

from rulecraft.compiler import compile_source, find_game, load_rules
from rulecraft.errors import IllegalActionError
from rulecraft.runtime.bots import RandomBot
from rulecraft.runtime.engine import TERMINAL, Game, State
from rulecraft.runtime.seeding import bot_rng, chance_outcome
from rulecraft.runtime.registry import register
from rulecraft.runtime.scenario import load_scenarios, run_scenario

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).with_name("fixtures")
# Lark's own names for terminals and trees: none may ever reach a designer.
LARK_INTERNALS = ("__ANON", "$END", "LPAR", "RPAR", "Token(", "Tree(")
# Debian's Chromium, driven by Playwright (it cannot download browsers): headless, networking off.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# Check every refused id when a game has at most this many ids; otherwise a random sample.
ALL_REFUSALS, REFUSAL_SAMPLE = 64, 16

_GAMES: dict = {}


def spec_folder(folder: Path, text: str) -> Path:
    """``folder`` with ``text`` written as its ``game.yaml``: a throwaway game a test compiles."""
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def load_game(game, options: dict | None = None) -> Game:
    """The :class:`Game` for a game name or folder, compiled through the cache and registered.

    One ``Game`` object is kept per spec and options, and it is (re-)registered on every call,
    so that unpickling a state finds the very game the state came from.
    """
    path = find_game(game).resolve()
    key = (str(path), json.dumps(options or {}, sort_keys=True))
    if key not in _GAMES:
        _GAMES[key] = Game(load_rules(path, options))
    register(_GAMES[key])
    return _GAMES[key]


def observables(state: State) -> dict:
    """Everything a person or a program can see of ``state``, for comparing two states."""
    legal = state.legal_actions()
    return {"values": list(state.s), "ply": state.ply, "player": state.current_player(),
            "terminal": state.is_terminal(), "chance": state.is_chance_node(),
            "legal": [(action, state.action_notation(action)) for action in legal],
            "outcomes": state.chance_outcomes() if state.is_chance_node() else None,
            "text": str(state), "returns": state.returns(),
            "phase": state.phase(), "hash": state.hash()}


def assert_same_state(copy: State, original: State, how: str, seen: dict | None = None) -> None:
    """Assert that ``copy`` equals ``original`` and shows exactly the same observables.

    ``seen`` may hold ``observables(original)`` already computed.
    """
    assert copy == original, f"{how}: the copy is not equal to the original"
    expected = seen if seen is not None else observables(original)
    assert observables(copy) == expected, f"{how}: the copy shows something else"


def json_round_trip(state: State) -> State:
    """``state`` through :meth:`State.to_json`, a JSON text and :meth:`Game.state_from_json`."""
    return state.game.state_from_json(json.dumps(state.to_json()))


def refusable_ids(state: State, rng: random.Random) -> list[int]:
    """Ids that are not legal in ``state``: every one of a small action space, else a sample.

    Both edges just outside the space (-1 and its size) are always included; at a chance node
    the space is the die's outcomes.
    """
    size = len(state.chance_outcomes()) if state.is_chance_node() else state.game.num_distinct_actions
    candidates = {-1, size}
    if size <= ALL_REFUSALS:
        candidates.update(range(size))
    else:
        candidates.update(rng.randrange(size) for _ in range(REFUSAL_SAMPLE))
    return sorted(candidates - set(state.legal_actions()))


def assert_refused(state: State, action: int) -> IllegalActionError:
    """Assert that ``action`` is refused with an error naming a rule and leaves ``state`` as it was."""
    values, ply, legal = list(state.s), state.ply, list(state.legal_actions())
    with pytest.raises(IllegalActionError) as refusal:
        state.apply(action)
    assert refusal.value.rule, f"refusing {action} names no rule: {refusal.value}"
    assert (state.s, state.ply) == (values, ply), f"refusing {action} changed the state"
    assert state.legal_actions() == legal
    return refusal.value


def check_state(state: State, rng: random.Random, previous: State | None = None) -> None:
    """Every conformance check on one state (``previous``: the state one ply earlier, if any)."""
    game = state.game
    rules = game.rules
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
    assert state.ply <= rules.max_plies, f"ply {state.ply} exceeds max_plies {rules.max_plies}"
    assert not game.broken_invariants(state, previous), \
        f"invariant broken at ply {state.ply}:\n{state}"
    if state.is_terminal():
        assert legal == [] and state.current_player() == TERMINAL
        low, high = rules.returns_range
        assert all(low <= value <= high for value in state.returns()), state.returns()
    elif state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [outcome for outcome, _ in outcomes] == legal
        assert all(probability > 0 for _, probability in outcomes)
        assert math.isclose(sum(probability for _, probability in outcomes), 1.0)
    else:
        assert legal, f"dead end: nobody can act at ply {state.ply}"
        assert 0 <= state.current_player() < game.num_teams
        assert all(0 <= action < game.num_distinct_actions for action in legal)
        notations = [state.action_notation(action) for action in legal]
        assert len(set(notations)) == len(notations), f"two legal actions share a notation: {notations}"
    assert state.clone() == state, "a clone is not equal to the original"
    assert state.stale_derived_field() is None, f"a derived field is stale at ply {state.ply}"
    seen = observables(state)
    assert_same_state(json_round_trip(state), state, "JSON round trip", seen)
    assert_same_state(pickle.loads(pickle.dumps(state)), state, "pickle round trip", seen)
    if legal:
        values = list(state.s)
        state.clone().apply(legal[0])
        assert state.s == values, "applying an action to a clone changed the original"
    for action in refusable_ids(state, rng):
        assert_refused(state, action)


def random_playout(game: Game, seed: int) -> State:
    """Play one match with a seeded :class:`RandomBot` and the seeded chance sampler.

    Every state on the way passes :func:`check_state`; returns the terminal state.
    """
    bot = RandomBot()
    rng = random.Random(seed)
    state, previous = game.new_initial_state(), None
    while True:
        check_state(state, rng, previous)
        if state.is_terminal():
            return state
        action = (chance_outcome(state, seed) if state.is_chance_node()
                  else bot.choose(state, bot_rng(seed, state.ply)))
        previous = state.clone()
        events: list = []
        state.apply(action, events)
        assert state.ply == previous.ply + 1
        assert all(isinstance(kind, str) and isinstance(values, dict) for kind, _, values in events)


def random_matches(game: Game, count: int) -> int:
    """Play ``count`` seeded random matches (seeds 0 to count - 1: decisions drawn uniformly with
    ``random.Random(seed)``, dice with the match sampler); returns the longest match in plies.

    Asserts after every ply that no spec invariant is broken (the never-decreasing ones against
    the ply before), that the match has not reached ``limits: max_plies`` and, at the end, that
    the returns lie within ``end: range``. A dead end (no legal action) fails in ``choice``.
    """
    low, high = game.rules.returns_range
    longest = 0
    for seed in range(count):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            before = state.clone()
            if state.is_chance_node():
                state.apply_unchecked(chance_outcome(state, seed))
            else:
                state.apply_unchecked(rng.choice(state.legal_actions()))
            broken = game.broken_invariants(state, before)
            assert not broken, f"seed {seed}, ply {state.ply}: {broken}"
            assert state.ply < game.rules.max_plies, f"seed {seed} reached max_plies"
        assert all(low <= r <= high for r in state.returns())
        longest = max(longest, state.ply)
    return longest


def run_scenarios(game) -> int:
    """Run every scenario of ``game`` (its ``scenarios/`` folder), checking each frame's state.

    Returns how many scenarios ran.
    """
    folder = find_game(game).parent
    scenarios = load_scenarios(folder)
    rng = random.Random(0)
    for scenario in scenarios:
        for frame in run_scenario(load_game(folder, scenario.options), scenario):
            check_state(frame.state, rng)
    return len(scenarios)


def run_conformance(game, playouts: int, *, first_seed: int = 0, step_budget: int | None = None) -> None:
    """The whole conformance suite for one game (a name or a folder).

    The spec compiles to valid Python; ``playouts`` random matches are checked at every step
    (stopping early, after a whole match, once ``step_budget`` plies have been checked); then
    every scenario runs.
    """
    compile(compile_source(game), "<generated rules>", "exec")
    loaded = load_game(game)
    plies = 0
    for seed in range(first_seed, first_seed + playouts):
        plies += random_playout(loaded, seed).ply
        if step_budget is not None and plies >= step_budget:
            break
    run_scenarios(game)


def invoke(*args: str, input: str | None = None):
    """Run the ``rulecraft`` command line in-process; returns Click's result (output, exit code)."""
    from typer.testing import CliRunner
    from rulecraft.cli import app
    return CliRunner().invoke(app, [str(arg) for arg in args], input=input)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (at the moment of asking)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(directory: Path, port: int):
    """Serve ``directory`` on 127.0.0.1:``port`` from a thread while the block runs."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                             functools.partial(_QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.shutdown()
        server.server_close()


def play_with_undo_and_resume(game: Game, seed: int, tmp_path, before: int, after: int) -> str:
    """A scripted person (always option 1; one undo after ``before`` answers, ``after`` more,
    then quit) plays the first team against the greedy bot with a log; the match is resumed from
    the log where it stopped and played to its end, and the log replays to the final state.
    Returns everything the console printed (asserts the rest)."""
    import io

    from rich.console import Console

    from rulecraft.play import play_match
    from rulecraft.runtime.logs import replay
    from rulecraft.runtime.match import Match

    log = str(tmp_path / "match.jsonl")
    answers = iter(["1"] * before + ["u"] + ["1"] * after + ["q"])
    console = Console(file=io.StringIO(), width=120)
    first = play_match(Match(game, seed), {0}, "greedy", console, log_path=log,
                       input_fn=lambda prompt: next(answers), secret_input_fn=lambda prompt: "1")
    assert not first.state.is_terminal()
    assert "undone." in console.file.getvalue()
    resumed = replay(game, log).match
    assert resumed.state == first.state
    finished = play_match(resumed, {0}, "greedy", console, log_path=log,
                          input_fn=lambda prompt: "1", secret_input_fn=lambda prompt: "1")
    assert finished.state.is_terminal()
    assert replay(game, log).match.state == finished.state
    return console.file.getvalue()
