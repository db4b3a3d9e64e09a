"""Untrusted input to the Python API: ``State.apply`` takes only int ids and refuses everything
else with RC401, leaving the state and the game's caches as they were; ``state_from_json`` and
unpickling check every value of the layout (RC502); every slot is either checked or rebuilt."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
import itertools
import json
import random

import pytest

from rulecraft.compiler import game_names
from rulecraft.errors import RulecraftError
from rulecraft.runtime.engine import SLOT_DONE, SLOT_PC, SLOT_PENDING, State, as_action_id
from rulecraft.runtime.match import Match, seat_bots

from helpers import load_game

TRIES = 70_000


class Sly(int):
    """An int subclass that claims to equal everything."""

    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class Agreeable:
    """Equal to everything, and hashes like 0."""

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class Unprintable:
    def __repr__(self):
        raise RuntimeError("no repr")


def positions(game: str, count: int, seed: int = 0) -> list:
    """States of a seeded random match: decisions, chance nodes, secret choices, the end."""
    loaded = load_game(game)
    match = Match(loaded, seed)
    bots = seat_bots(loaded, "random")
    found = [match.state.clone()]
    while not match.state.is_terminal():
        match.advance(bots)
        found.append(match.state.clone())
    step = max(1, len(found) // count)
    return found[::step][:count] + [found[-1]]


def wrong_ids(state, rng: random.Random):
    """An endless mix of ids of the wrong type and int ids that are not legal in ``state``."""
    size = len(state.chance_outcomes()) if state.is_chance_node() else state.game.num_distinct_actions
    legal = set(state.legal_actions())
    try:
        import numpy as np
        numpys = [np.int64(legal and min(legal) or 0), np.float64(1.0), np.bool_(True)]
    except ModuleNotFoundError:
        numpys = []
    for _ in itertools.count():
        some = rng.choice(sorted(legal)) if legal else 0
        kind = rng.randrange(8)
        if kind == 0:
            yield rng.choice([float(some), some + 0.5, -0.0, float("nan"), float("inf"), True, False])
        elif kind == 1:
            yield rng.choice([None, str(some), [some], (some,), {some: some}, {some}, b"\x04",
                              Fraction(some), Decimal(some), complex(some), Sly(some), Agreeable(),
                              Unprintable(), *numpys])
        elif kind == 2:
            outside = rng.choice([-1, -2, size, size + 1, -(10 ** rng.randrange(1, 40)),
                                  10 ** rng.randrange(1, 40), 1 << rng.randrange(64, 5000)])
            if outside not in legal:
                yield outside
        else:
            illegal = rng.randrange(-3, size + 3)
            if illegal not in legal:
                yield illegal


GAMES = game_names()


@pytest.mark.parametrize("game", GAMES)
def test_every_wrong_id_is_refused_with_rc401_and_nothing_changes(game):
    states = positions(game, 12)
    rng = random.Random(game)
    per_state = TRIES // (len(GAMES) * len(states)) + 1
    refused = 0
    for state in states:
        state.legal_actions(), state.current_player()      # the caches a refusal must not touch
        decoded = dict(state.game._decoded)
        before = (list(state.s), state.ply, state._legal and list(state._legal), state._actor)
        for action in itertools.islice(wrong_ids(state, rng), per_state):
            with pytest.raises(RulecraftError) as refusal:
                state.apply(action)
            assert refusal.value.code == "RC401", (action, refusal.value)
            refused += 1
        assert (state.s, state.ply, state._legal, state._actor) == before
        assert state.game._decoded == decoded
        assert all(type(key) is int and all(type(v) is int for v in values)
                   for key, (_, values) in state.game._decoded.items())
    assert refused * len(GAMES) >= TRIES


def test_a_float_id_no_longer_poisons_the_decode_cache():
    state = load_game("tictactoe").new_initial_state()
    with pytest.raises(RulecraftError, match="an action is an int id, not float 4.0"):
        state.apply(4.0)
    state.apply(4)
    assert state.to_json()["state"] == json.loads(json.dumps(state.to_json()))["state"]
    assert all(type(v) is int for v in state.s)


def test_adapters_convert_integers_exactly_and_refuse_the_rest():
    assert as_action_id(7) == 7
    numpy = pytest.importorskip("numpy")
    assert as_action_id(numpy.int32(7)) == 7 and type(as_action_id(numpy.int32(7))) is int
    for wrong in (7.0, True, numpy.float32(7), "7", None):
        with pytest.raises(RulecraftError) as refusal:
            as_action_id(wrong)
        assert refusal.value.code == "RC401"


# ---------- saved states ----------
def test_every_slot_is_checked_or_rebuilt_from_the_fields():
    """A slot without a range is a derived index, which restoring rebuilds: no slot is taken
    on trust."""
    for game in GAMES:
        loaded = load_game(game)
        state = positions(game, 3)[1]
        derived = [slot for slot, allowed in enumerate(loaded._slot_ranges()) if allowed is None]
        values = list(state.s)
        for slot in derived:
            values[slot] += 7
        assert loaded.restore(values, state.ply).s == state.s, game


def mutations(game):
    """(name, edit of a to_json dict, expected fragment): out-of-range data of every kind."""
    rules = game.rules
    field = {f.type: f for f in rules.fields}

    def slot_of(kind):
        return field[kind].base

    edits = [
        ("flow position", lambda s: s.__setitem__(SLOT_PC, len(rules.nodes)), "the flow position"),
        ("game over flag", lambda s: s.__setitem__(SLOT_DONE, 2), "the game-over flag"),
        ("pending mask", lambda s: s.__setitem__(SLOT_PENDING, 1 << game.num_teams), "pending secret"),
        ("a float", lambda s: s.__setitem__(5, 1.5), "not a whole number"),
        ("a bool", lambda s: s.__setitem__(5, True), "not a whole number"),
        ("too few", lambda s: s.pop(), "not a list of"),
        ("a huge int", lambda s: s.__setitem__(slot_of("int"), 1 << 70), "outside"),
        ("a team out of range", lambda s: s.__setitem__(slot_of("team"), game.num_teams), "outside -1.."),
        ("a space out of range", lambda s: s.__setitem__(slot_of("space"), len(rules.spaces)), "outside -1.."),
        ("a bool field of 2", lambda s: s.__setitem__(slot_of("bool"), 2), "outside 0..1"),
        ("an enum out of range", lambda s: s.__setitem__(slot_of("enum:keeper_die"), 3), "outside -1..2"),
        ("a piece out of range", lambda s: s.__setitem__(slot_of("piece"), len(rules.piece_labels)), "outside -1.."),
        ("a revealed flag", lambda s: s.__setitem__(field["enum:keeper_die"].reveal_slot, 5), "the revealed flag"),
    ]
    return edits


def test_out_of_range_saves_are_refused_with_rc502():
    game = load_game("taktinen")
    state = positions("taktinen", 4)[2]
    for name, edit, fragment in mutations(game):
        data = state.to_json()
        edit(data["state"])
        with pytest.raises(RulecraftError) as refusal:
            game.state_from_json(json.dumps(data))
        assert refusal.value.code == "RC502" and fragment in refusal.value.message, (name, refusal.value)
    for name, data, fragment in [
            ("a negative ply", {**state.to_json(), "ply": -1}, "its ply -1"),
            ("a ply past max_plies", {**state.to_json(), "ply": game.rules.max_plies + 1}, "its ply"),
            ("a list", [1, 2], "not a JSON object"),
            ("another game", {**state.to_json(), "game": "pig"}, "it belongs to 'pig'"),
            ("a deep nest", "[" * 100000 + "]" * 100000, "recursion"),
            ("a huge text", " " * (1 << 23), "longer than")]:
        with pytest.raises(RulecraftError) as refusal:
            game.state_from_json(data if isinstance(data, str) else json.dumps(data))
        assert refusal.value.code == "RC502" and fragment in refusal.value.message, (name, refusal.value)


def test_a_save_the_rules_cannot_play_on_from_is_refused():
    game = load_game("tictactoe")
    state = game.new_initial_state()
    data = state.to_json()
    data["state"][game.field("to_move").base] = -1           # nobody to move
    with pytest.raises(RulecraftError, match="RC502"):
        game.state_from_json(data)
    full = state.to_json()
    mark = game.field("mark")
    full["state"][mark.base:mark.base + mark.size] = [0] * mark.size   # nine x marks, x to move
    with pytest.raises(RulecraftError, match="invariant|no legal action"):
        game.state_from_json(full)


def test_an_unpickled_state_is_checked_too():
    import pickle
    state = load_game("pig").new_initial_state()
    assert pickle.loads(pickle.dumps(state)) == state
    game_id, options, spec_hash, values, ply = state.__getstate__()
    for data, code in [((game_id, options, "0" * 16, values, ply), "RC503"),
                       ((game_id, options, spec_hash, values[:-1], ply), "RC502"),
                       ((game_id, options, spec_hash, values, -5), "RC502"),
                       (("not", "a", "state"), "RC502")]:
        with pytest.raises(RulecraftError) as refusal:
            State.__new__(State).__setstate__(data)
        assert refusal.value.code == code, data
