"""Everything random in a match is drawn from the match seed and the ply, nothing else.

The chance outcome at ply ``k`` of a match seeded ``S`` comes from a generator seeded with
``(S, k)`` alone, and so does the randomness a bot is handed when it chooses at ply ``k``. So the
same seed gives the same match, replaying a log reproduces every roll, undoing a roll and rolling
again gives the same face (undo cannot re-roll a die), and a match resumed from its log continues
exactly as it would have. Dice and bots draw from separate streams. Source: DESIGN.md principle 4;
boardgame.io's seeded PRNG.
"""

from __future__ import annotations

import random

from rulecraft.runtime.engine import State


def chance_outcome(state: State, seed: int) -> int:
    """The outcome index the seeded sampler picks at this chance node (``state`` must be one;
    RC403 otherwise), by the outcomes' probabilities."""
    draw = random.Random(f"rulecraft/{seed}/{state.ply}").random()
    total = 0.0
    outcomes = state.chance_outcomes()
    for outcome, probability in outcomes:
        total += probability
        if draw < total:
            return outcome
    return outcomes[-1][0]


def bot_rng(seed: int, ply: int) -> random.Random:
    """The generator a bot choosing at ply ``ply`` of a match seeded ``seed`` draws from."""
    return random.Random(f"rulecraft/bot/{seed}/{ply}")
