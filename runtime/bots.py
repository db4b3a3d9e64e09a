"""Bots: a uniform random bot and a greedy bot that maximises the spec's evaluation one decision ahead.

The greedy bot applies each legal action to a copy of the state and scores the result with the
spec's ``evaluation`` formula from its own team's point of view; chance nodes met on the way are
averaged over their outcomes (exact expectation), up to ``chance_depth`` of them. Ties are broken
by the bot's own seeded generator, so a seeded series of games is reproducible.
"""

from __future__ import annotations

import random

from rulecraft.runtime.engine import State


class RandomBot:
    """Picks uniformly among the legal actions with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        """One legal action id of ``state`` (which must be a decision node)."""
        return self.rng.choice(state.legal_actions())


class GreedyBot:
    """Maximises the evaluation one decision ahead (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int = 0, chance_depth: int = 2):
        self.rng = random.Random(seed)
        self.chance_depth = chance_depth

    def choose(self, state: State) -> int:
        """The legal action with the best expected evaluation for the acting team."""
        team = state.current_player()
        best, best_actions = None, []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_unchecked(action)
            value = self._expected(child, team, self.chance_depth)
            if best is None or value > best + 1e-9:
                best, best_actions = value, [action]
            elif abs(value - best) <= 1e-9:
                best_actions.append(action)
        return self.rng.choice(best_actions)

    def _expected(self, state: State, team: int, depth: int) -> float:
        if depth > 0 and state.is_chance_node():
            total = 0.0
            for outcome, probability in state.chance_outcomes():
                child = state.clone()
                child.apply_unchecked(outcome)
                total += probability * self._expected(child, team, depth - 1)
            return total
        return state.evaluation(team)


BOTS = {"random": RandomBot, "greedy": GreedyBot}
