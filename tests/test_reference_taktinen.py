"""The hand-written reference engine of taktinen (benchmarks/reference/taktinen.py) against the
engine rulecraft generates from rulespecs/taktinen/game.yaml.

Both engines play the same match: decisions are drawn with ``random.Random(seed).choice`` from the
sorted legal list, dice with :func:`rulecraft.runtime.match.chance_outcome` on the generated state,
and every step must show the same player to act, the same legal action ids and the same returns.

The reference follows the rulebook (RULES-BRIEF §1) with the spec's resolutions, so a divergence
is a bug in one of the two engines (the first run found three in the spec: ball carrying across
columns, the keeper's penalty die, a kick-off after a free-kick goal).
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from rulecraft.runtime.match import chance_outcome

from helpers import load_game

REFERENCE_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "reference" / "taktinen.py"


def _load_reference():
    spec = importlib.util.spec_from_file_location("taktinen_reference", REFERENCE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load_reference()

# Default seeds play short halves (the option's minimum) over every option; the slow run plays
# full-length matches.
SEEDS = range(24)
SLOW_SEEDS = range(1000, 1300)
OPTION_SETS = ({}, {"layout": "B"}, {"custom_formations": False, "keepers_placed_home": True},
               {"layout": "B", "keepers_placed_home": True})


def options_for(seed: int, short: bool) -> dict:
    """The options a seed plays: one of OPTION_SETS in turn, short halves when ``short``."""
    options = dict(OPTION_SETS[seed % len(OPTION_SETS)])
    if short:
        options["max_turns_per_half"] = 10
    return options


def play_side_by_side(seed: int, options: dict, reference_class) -> str | None:
    """Play one match on both engines; None when every step agrees, else what differed first."""
    game = load_game("taktinen", options)
    generated = game.new_initial_state()
    reference = reference_class(ref.TaktinenGame(**options))
    rng = random.Random(seed)
    history = []
    while True:
        seen = (generated.current_player(), generated.legal_actions(), generated.returns())
        wanted = (reference.current_player(), reference.legal_actions(), reference.returns())
        if seen != wanted:
            return _describe(game, generated, seen, wanted, history)
        if generated.is_terminal():
            return None
        legal = seen[1]
        action = chance_outcome(generated, seed) if generated.is_chance_node() else rng.choice(legal)
        history.append(generated.action_notation(action))
        generated.apply_unchecked(action)
        reference.apply(action)


def _describe(game, generated, seen, wanted, history) -> str:
    """What differs between the generated engine's view ``seen`` and the reference's ``wanted``."""
    phase, rule = generated.phase()
    lines = [f"ply {generated.ply}, phase {phase} (rule {rule}); last actions: {history[-6:]}"]
    for label, mine, theirs in zip(("player", "legal", "returns"), seen, wanted):
        if mine == theirs:
            continue
        if label == "legal" and seen[0] == wanted[0] and seen[0] >= 0:
            lines.append(f"  only generated: {_notations(game, mine, theirs)}; "
                         f"only reference: {_notations(game, theirs, mine)}")
        else:
            lines.append(f"  {label}: generated {mine}, reference {theirs}")
    return "\n".join(lines)


def _notations(game, actions, others) -> list[str]:
    return [game.action_notation(action) for action in actions if action not in others]


def check_seed(seed: int, short: bool) -> None:
    """Fail when the reference and the generated engine diverge on this seed."""
    options = options_for(seed, short)
    divergence = play_side_by_side(seed, options, ref.TaktinenState)
    if divergence is not None:
        pytest.fail(f"seed {seed}, options {options}: the reference and the generated engine "
                    f"diverge:\n{divergence}")


def test_action_blocks_match_the_spec():
    """The reference's action id blocks are the spec's (base and size of every action)."""
    rules = load_game("taktinen").rules
    blocks = [value for name, value in vars(ref).items() if name.startswith("A_")]
    assert sorted(blocks) == [action.base for action in rules.actions]
    assert ref.NUM_ACTIONS == rules.num_distinct_actions


def test_clone_is_independent():
    """A clone moves on alone; illegal actions and misplaced chance queries raise ValueError."""
    state = ref.TaktinenGame().new_initial_state()
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.current_player() == ref.HOME and copy.current_player() == ref.AWAY
    with pytest.raises(ValueError):
        state.apply(ref.A_END_MOVES)
    with pytest.raises(ValueError):
        state.chance_outcomes()


@pytest.mark.parametrize("seed", SEEDS)
def test_reference_plays_the_generated_match(seed):
    """Short matches over every option: the reference plays the generated engine's match."""
    check_seed(seed, short=True)


@pytest.mark.slow
def test_reference_plays_many_full_matches():
    """Hundreds of full-length matches over every option, as above."""
    for seed in SLOW_SEEDS:
        check_seed(seed, short=False)
