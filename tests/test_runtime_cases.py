"""The runtime cases of /work/shared/cases/runtime.md, over every game: serialisation keeps
everything, seeds make matches reproducible (and undo cannot re-roll a die), illegal input is
refused naming the rule and leaves the state unchanged."""

from __future__ import annotations

import itertools
import json
import pickle
import random

import pytest

from rulecraft.compiler import game_names
from rulecraft.errors import IllegalActionError
from rulecraft.runtime.bots import RandomBot
from rulecraft.runtime.match import Match, seat_bots
from rulecraft.runtime.seeding import bot_rng, chance_outcome

from helpers import assert_refused, assert_same_state, invoke, json_round_trip, load_game, refusable_ids

GAMES = game_names()
MATCHES = 3              # seeded matches per game and case
CASE_PLIES = 150         # plies of a match checked at every step, per game


def bot_match(game, seed: int):
    """Yield a seeded match (random bots, the seeded sampler) as it goes.

    The :class:`Match` is yielded before every step and once more at the end.
    """
    match = Match(game, seed)
    bots = seat_bots(game, "random")
    while True:
        yield match
        if match.state.is_terminal():
            return
        match.advance(bots)


def bot_matches(game, first_seed: int, plies: int):
    """Yield the steps of seeded matches (as :func:`bot_match`), one match after another from
    seed ``first_seed`` on, until ``plies`` steps have been yielded: a short game (Connect Four
    ends before a column fills) is checked over as many steps as a long one."""
    yielded = 0
    for seed in itertools.count(first_seed):
        for match in bot_match(game, seed):
            yield match
            yielded += 1
            if yielded == plies:
                return


# ---------- 1. serialisation keeps everything ----------
@pytest.mark.parametrize("game", GAMES)
def test_serialisation_keeps_everything_at_every_step(game):
    """Every named field, and what each team may see, survives JSON and pickle (mid-turn too)."""
    loaded = load_game(game)
    for match in itertools.islice(bot_match(loaded, 100), CASE_PLIES):
        state = match.state
        for copy in (json_round_trip(state), pickle.loads(pickle.dumps(state))):
            assert_same_state(copy, state, "round trip")
            assert copy.describe() == state.describe()
            for team in range(loaded.num_teams):
                assert copy.describe(team) == state.describe(team)
                assert copy.observation(team) == state.observation(team)


def pig_mid_turn():
    """A Pig state in the middle of a turn: points already rolled, the roller to choose again."""
    game = load_game("pig")
    for seed in range(100):
        for match in bot_match(game, seed):
            state = match.state
            if not match.is_chance() and not state.is_terminal() and state.value("turn_total") > 0:
                return state
    raise AssertionError("no seed reached the middle of a turn")


def test_pig_mid_turn_serialisation():
    state = pig_mid_turn()
    restored = json_round_trip(state)
    assert_same_state(restored, state, "JSON round trip")
    assert restored.current_player() == state.current_player() == state.value("to_move")
    assert [restored.action_notation(a) for a in restored.legal_actions()] == ["roll", "hold"]
    for name in ("turn_total", "last_roll", "turns", "to_move"):
        assert restored.value(name) == state.value(name)
    assert [restored.value("score", t) for t in (0, 1)] == [state.value("score", t) for t in (0, 1)]
    assert str(restored) == str(state) and f"turn_total: {state.value('turn_total')}" in str(state)


@pytest.mark.parametrize("seed", range(5))
def test_a_restored_state_plays_on_identically(seed):
    """Roll on from a mid-turn Pig state and from its JSON copy: the same future, step by step."""
    original = pig_mid_turn()
    copy = json_round_trip(original)
    bot = RandomBot()
    while not original.is_terminal():
        action = (chance_outcome(original, seed) if original.is_chance_node()
                  else bot.choose(original, bot_rng(seed, original.ply)))
        original.apply(action)
        copy.apply(action)
        assert_same_state(copy, original, f"after {original.ply} plies")


# ---------- 2. seeds ----------
def transcript(game, seed: int) -> list[tuple]:
    """Every step of a seeded random match: who acted, the id, the notation and the state's hash."""
    *_, match = bot_match(game, seed)
    return [(step.actor, step.action, step.notation, step.hash) for step in match.steps]


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_match(game):
    loaded = load_game(game)
    for seed in range(MATCHES):
        assert transcript(loaded, seed) == transcript(loaded, seed)


def test_another_seed_another_match():
    loaded = load_game("pig")
    assert len({tuple(transcript(loaded, seed)) for seed in range(MATCHES)}) == MATCHES


def test_matches_without_a_seed_differ(tmp_path):
    """The CLI picks a fresh random seed when none is given: two matches are not the same."""
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    for log in logs:
        assert invoke("play", "pig", "--log", log).exit_code == 0
    headers = [json.loads(log.read_text().splitlines()[0]) for log in logs]
    assert headers[0]["seed"] != headers[1]["seed"]
    assert logs[0].read_text().splitlines()[1:] != logs[1].read_text().splitlines()[1:]


@pytest.mark.parametrize("game", GAMES)
def test_undo_cannot_reroll_a_die(game):
    """At every decision followed by a roll: undo it, decide again, roll again: the same face."""
    loaded = load_game(game)
    undone = 0
    for seed in range(MATCHES):
        match = Match(loaded, seed)
        bots = seat_bots(loaded, "random")
        while not match.state.is_terminal() and match.state.ply < CASE_PLIES:
            if match.is_chance():
                match.roll()
                continue
            team = match.state.current_player()
            before = match.state.clone()
            action = match.bot_choice(bots[team])
            match.apply(action)
            if not match.is_chance():
                continue
            face = match.roll()
            after = match.state.clone()
            for _ in range(3):
                assert match.undo(team)
                assert_same_state(match.state, before, "undo")
                match.apply(action)
                assert match.roll() == face
                assert_same_state(match.state, after, "the roll after undo")
            undone += 1
    if not undone:
        pytest.skip(f"{game} has no decision followed by a roll")


# ---------- 3. illegal input ----------
@pytest.mark.parametrize("game", GAMES)
def test_illegal_actions_are_refused_naming_the_rule(game):
    """Ids of the game's action space (and faces of the die) name the rule; -1 and the like do not."""
    loaded = load_game(game)
    rng = random.Random(0)
    refused = 0
    for match in bot_matches(loaded, 0, CASE_PLIES):
        state = match.state
        for action in refusable_ids(state, rng):
            error = assert_refused(state, action)
            in_game = 0 <= action < loaded.num_distinct_actions or state.is_chance_node()
            if in_game and not state.is_terminal():
                assert f"rule {error.rule}" in error.message, error.message
                refused += 1
    assert refused


def test_pig_hold_with_nothing_to_bank():
    state = load_game("pig").new_initial_state()
    hold = next(a for a in range(state.game.num_distinct_actions) if state.action_notation(a) == "hold")
    error = assert_refused(state, hold)
    assert (error.rule, error.message) == ("3", "'hold' is forbidden by rule 3: there is nothing to bank yet")


def test_tictactoe_marked_square():
    state = load_game("tictactoe").new_initial_state()
    first = state.legal_actions()[0]
    state.apply(first)
    error = assert_refused(state, first)
    assert error.rule == "1"
    assert error.message == f"'{state.action_notation(first)}' is forbidden by rule 1: the square is already marked"


def test_no_action_after_the_end():
    *_, match = bot_match(load_game("tictactoe"), 0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        match.state.apply(0)
