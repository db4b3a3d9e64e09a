"""A live match: a state, its action history, the seeded chance sampler, undo and the log.

The sampler draws the outcome of the chance node at ply ``k`` from a generator seeded with
``(seed, k)`` alone, so the sampler's state travels with the match: the same seed gives the same
game, replaying a log reproduces every roll, and undoing a roll and rolling again gives the same
face (undo cannot re-roll a die). Source: DESIGN.md principle 4; boardgame.io's seeded PRNG.

A bot-played match is seeded the same way everywhere (``rulecraft play``, ``rulecraft simulate``):
:func:`seat_bots` gives team ``t`` a bot seeded ``seed * 100 + t``, and :meth:`Match.advance`
plays one ply that needs no person.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import random

from rulecraft.errors import LogError, RulecraftError
from rulecraft.runtime.bots import BOTS
from rulecraft.runtime.engine import CHANCE, Game, State


def chance_outcome(state: State, seed: int) -> int:
    """The outcome index the seeded sampler picks at this chance node."""
    draw = random.Random(f"rulecraft/{seed}/{state.ply}").random()
    total = 0.0
    outcomes = state.chance_outcomes()
    for outcome, probability in outcomes:
        total += probability
        if draw < total:
            return outcome
    return outcomes[-1][0]


@dataclass
class Step:
    """One applied action: who acted (a team index or CHANCE), the id, and the state's hash after."""

    actor: int
    action: int
    notation: str
    hash: str


def seat_bots(game: Game, seed: int, bot: str, humans=()) -> dict:
    """The bots of a match seeded ``seed``: ``{team: bot}`` for every team not in ``humans``.

    Team ``t`` gets ``BOTS[bot](seed=seed * 100 + t)``. Raises KeyError for an unknown ``bot``
    (the command line checks the name first).
    """
    return {team: BOTS[bot](seed=seed * 100 + team) for team in range(game.num_teams)
            if team not in humans}


@dataclass
class Match:
    """A match in progress (see the module docstring).

    With ``history=False`` nothing is kept for undo or the log (no steps, no snapshots): the
    match plays the same, faster; batch playouts use it.
    """

    game: Game
    seed: int
    state: State = None
    steps: list = field(default_factory=list)
    _snapshots: list = field(default_factory=list)
    history: bool = True

    def __post_init__(self):
        if self.state is None:
            self.state = self.game.new_initial_state()

    def apply(self, action: int, events: list | None = None) -> None:
        """Apply a legal action (checked), recording it for undo and the log.

        Raises :class:`~rulecraft.errors.IllegalActionError` for an illegal one.
        """
        state = self.state
        if not self.history:
            state.apply(action, events)
            return
        actor = state.current_player()
        notation = state.action_notation(action)
        before = state.clone()
        state.apply(action, events)
        self._snapshots.append(before)
        self.steps.append(Step(actor, action, notation, state.hash()))

    def roll(self, events: list | None = None) -> int:
        """Resolve the current chance node with the seeded sampler; returns the outcome index."""
        outcome = chance_outcome(self.state, self.seed)
        self.apply(outcome, events)
        return outcome

    def advance(self, bots: dict, events: list | None = None) -> None:
        """Play one ply that needs no person: roll at a chance node, else the acting team's bot
        chooses (``bots`` as from :func:`seat_bots`; KeyError when the acting team has none)."""
        state = self.state
        if state.is_chance_node():
            self.roll(events)
        else:
            self.apply(bots[state.current_player()].choose(state), events)

    def undo(self, team: int) -> bool:
        """Go back to just before ``team``'s last decision; False when it has made none."""
        for index in range(len(self.steps) - 1, -1, -1):
            if self.steps[index].actor == team:
                self.state = self._snapshots[index]
                del self.steps[index:]
                del self._snapshots[index:]
                return True
        return False

    def is_chance(self) -> bool:
        """True when the current state awaits a chance outcome (its player is :data:`CHANCE`)."""
        return self.state.current_player() == CHANCE


def resume(game: Game, seed: int, actions) -> Match:
    """Rebuild a match by applying ``actions`` (ids) in order; raises on the first illegal one."""
    match = Match(game, seed)
    for ply, action in enumerate(actions):
        try:
            match.apply(action)
        except RulecraftError as error:
            raise LogError(f"step {ply + 1}: {error.message}", code="RC504") from None
    return match
