"""Bots: a uniform random bot and a greedy bot that maximises the spec's evaluation one decision ahead.

A bot is anything with a ``name`` and ``choose(state, rng) -> action id``. It keeps no
generator of its own: all its randomness comes from ``rng``, which the match hands it, derived
from the match seed and the ply (:func:`rulecraft.runtime.seeding.bot_rng`), so a seeded match
is reproducible and a resumed one continues as it would have. Every bot follows this rule
(a search bot draws its playouts from ``rng`` too).

The greedy bot applies each legal action to a copy of the state and scores the result with the
spec's ``evaluation`` formula from its own team's point of view; chance nodes met on the way are
averaged over their outcomes (exact expectation), up to ``chance_depth`` of them. Ties are broken
with ``rng``. A formula that fails during the look-ahead is RC404, as when applying an action.
"""

from __future__ import annotations

import random
import re
from typing import Protocol

from rulecraft.runtime.engine import RULE_ERRORS, State, rule_failure
from rulecraft.runtime.mcts import MAX_ITERATIONS, ISMCTSBot, MCTSBot
from rulecraft.limits import MAX_SECONDS


class Bot(Protocol):
    """What a match needs of a bot (see the module docstring)."""

    name: str

    def choose(self, state: State, rng: random.Random) -> int:
        """One legal action id of ``state`` (a decision node), drawing randomness from ``rng``."""


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> int:
        """One legal action id of ``state`` (which must be a decision node), drawn with ``rng``."""
        return rng.choice(state.legal_actions())


class GreedyBot:
    """Maximises the evaluation one decision ahead (see the module docstring)."""

    name = "greedy"

    def __init__(self, chance_depth: int = 2):
        self.chance_depth = chance_depth

    def choose(self, state: State, rng: random.Random) -> int:
        """The legal action with the best expected evaluation for the acting team, ties broken
        with ``rng``. Raises :class:`~rulecraft.errors.RuleFailure` (RC404) when a formula
        fails on the way."""
        team = state.current_player()
        best, best_actions = None, []
        for action in state.legal_actions():
            child = state.clone()
            try:
                child.apply_unchecked(action)
                value = self._expected(child, team, self.chance_depth)
            except RULE_ERRORS as error:
                raise rule_failure(state, error) from None
            if best is None or value > best + 1e-9:
                best, best_actions = value, [action]
            elif abs(value - best) <= 1e-9:
                best_actions.append(action)
        return rng.choice(best_actions)

    def _expected(self, state: State, team: int, depth: int) -> float:
        if depth > 0 and state.is_chance_node():
            total = 0.0
            for outcome, probability in state.chance_outcomes():
                child = state.clone()
                child.apply_unchecked(outcome)
                total += probability * self._expected(child, team, depth - 1)
            return total
        return state.evaluation(team)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot, "ismcts": ISMCTSBot}
#: the bots that take a budget: ``name:N`` (N iterations per decision) or ``name:Ts`` (T seconds)
BUDGETED = ("mcts", "ismcts")


def per_side(spec: str) -> dict[str, str] | None:
    """``{team name: bot}`` of a per-side spec ``home=mcts:200,away=greedy``, or None for one
    bot for every team. Raises ValueError when a part is no ``team=bot`` or a team comes twice."""
    if "=" not in spec:
        return None
    sides: dict[str, str] = {}
    for part in spec.split(","):
        team, equals, bot = (piece.strip() for piece in part.partition("="))
        if not equals or not team or not bot:
            raise ValueError(f"bot '{spec}': '{part}' is not TEAM=BOT (e.g. home=mcts:200,away=greedy)")
        if team in sides:
            raise ValueError(f"bot '{spec}': the team '{team}' is given twice")
        sides[team] = bot
    return sides


def bot_problem(spec: str) -> str | None:
    """Why ``spec`` names no bot (a sentence for the user), or None: a name of :data:`BOTS`,
    ``mcts:N`` / ``ismcts:N`` with N a whole number 1 … :data:`MAX_ITERATIONS`, ``mcts:Ts`` /
    ``ismcts:Ts`` with T seconds in (0, :data:`MAX_SECONDS`], or one of those
    per team, ``home=mcts:200,away=greedy`` (the team names are checked against the game by
    :func:`rulecraft.runtime.match.seat_bots`)."""
    try:
        sides = per_side(spec)
    except ValueError as error:
        return str(error)
    if sides is not None:
        return next(filter(None, map(bot_problem, sides.values())), None)
    name, colon, budget = spec.partition(":")
    if name not in BOTS:
        return f"unknown bot '{spec}' (bots: {', '.join(BOTS)}; mcts and ismcts take :N iterations)"
    if not colon:
        return None
    if name not in BUDGETED:
        return f"bot '{spec}': only {' and '.join(BUDGETED)} take an iteration budget (:N)"
    if _seconds(budget) is not None:
        return None
    if not (budget.isascii() and budget.isdigit()) or not 1 <= int(budget) <= MAX_ITERATIONS:
        return (f"bot '{spec}': the budget must be a whole number of iterations from 1 to "
                f"{MAX_ITERATIONS} (e.g. {name}:200) or seconds per decision, more than 0 and at "
                f"most {MAX_SECONDS:g} (e.g. {name}:2s)")
    return None


def _seconds(budget: str) -> float | None:
    """The seconds of a time budget ``T s`` (``2s``, ``0.5s``) in (0, :data:`MAX_SECONDS`], or None."""
    number = budget[:-1]
    if not budget.endswith("s") or not re.fullmatch(r"[0-9]{1,4}(\.[0-9]{1,3})?", number):
        return None
    return float(number) if 0 < float(number) <= MAX_SECONDS else None


def timed(spec: str) -> bool:
    """Whether the bot spec ``spec`` (as :func:`bot_problem` accepts) gives any team a time
    budget (``mcts:2s``): such a bot's choices depend on the machine's speed, so a match it
    plays cannot be reproduced from its seed."""
    sides = per_side(spec)
    return any(_seconds(part.partition(":")[2]) is not None for part in (sides or {"": spec}).values())


def make_bot(spec: str) -> Bot:
    """A new bot from its name as the command line and saved games spell it: ``random``,
    ``greedy``, ``mcts``, ``ismcts``, ``mcts:N`` / ``ismcts:N`` (iterations) or ``mcts:Ts`` /
    ``ismcts:Ts`` (seconds). Its ``name`` spells it back (``mcts:N`` round-trips). Raises ValueError with :func:`bot_problem`'s sentence (a per-side
    spec is seated by :func:`rulecraft.runtime.match.seat_bots`)."""
    problem = bot_problem(spec) or ("a per-side bot is seated per team" if "=" in spec else None)
    if problem is not None:
        raise ValueError(problem)
    name, _, budget = spec.partition(":")
    if not budget:
        return BOTS[name]()
    seconds = _seconds(budget)
    return BOTS[name](seconds=seconds) if seconds is not None else BOTS[name](int(budget))
