"""A live match: a state, its action history, the seeded sampler and bots, undo, and secrets.

Chance outcomes and bots' randomness are drawn from the match seed and the ply
(:mod:`rulecraft.runtime.seeding`). A match's chance is ``sampled`` (every outcome is the one the
seeded sampler picks: :meth:`Match.roll`; the log can then be checked roll by roll) or
``chosen`` (the caller applies outcomes of its choice, as scenarios and programs do).

A secret choice is kept as a commitment until the information is public: :class:`Secret` holds a
random nonce and ``commit(action, nonce)``; it is *opened* at the first ply after which every slot
the choice decided (those in which the legal choices' results differ) is public and still holds
what the choice put there, or the game is over. A log shows the commitment when the choice is
made and the action with its nonce once opened, so no line tells an unrevealed secret.

:func:`seat_bots` seats a bot per team; :meth:`Match.advance` plays one ply that needs no person.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import hashlib
import secrets

from rulecraft.errors import PlayError, RulecraftError
from rulecraft.runtime.bots import make_bot, per_side
from rulecraft.runtime.engine import CHANCE, RULE_FAILURES, Game, State
from rulecraft.runtime.seeding import bot_rng, chance_outcome

CHANCE_MODES = ("sampled", "chosen")

__all__ = ["CHANCE_MODES", "Match", "Secret", "Step", "bot_rng", "chance_outcome", "commit",
           "seat_bots"]


def commit(action: int, nonce: str) -> str:
    """The commitment to a secret ``action``: SHA-256 of the action and a nonce, in hex."""
    return hashlib.sha256(f"rulecraft-secret/{nonce}/{action}".encode()).hexdigest()


@dataclass
class Secret:
    """A secret choice's commitment: the nonce, the commitment, the slots the choice decided
    with their values right after it, and the ply after which it was opened (None: hidden)."""

    nonce: str
    commitment: str
    decided: dict = field(default_factory=dict)
    opened: int | None = None


@dataclass
class Step:
    """One applied action: who acted (a team index or CHANCE), the id, its notation, the public
    hash of the state after it (:meth:`State.public_hash`) and, for a secret choice, its
    :class:`Secret`."""

    actor: int
    action: int
    notation: str
    hash: str
    secret: Secret | None = None


def seat_bots(game: Game, bot: str, humans=()) -> dict:
    """The bots of a match: ``{team: bot}`` for every team not in ``humans``.

    ``bot`` is a name :func:`~rulecraft.runtime.bots.make_bot` reads (``mcts:200``), or one per
    team, ``home=mcts:200,away=greedy``, naming every team not in ``humans``. Raises ValueError
    for an unknown bot or team, or a team left without a bot.
    """
    sides = per_side(bot)
    if sides is None:
        return {team: make_bot(bot) for team in range(game.num_teams) if team not in humans}
    teams = ", ".join(game.teams)
    for name in sides:
        if name not in game.teams:
            raise ValueError(f"bot '{bot}': no team '{name}' in {game.id} (teams: {teams})")
    missing = [game.teams[t] for t in range(game.num_teams) if t not in humans and game.teams[t] not in sides]
    if missing:
        raise ValueError(f"bot '{bot}': no bot for {', '.join(missing)} (teams: {teams})")
    return {team: make_bot(sides[game.teams[team]]) for team in range(game.num_teams) if team not in humans}


@dataclass
class Match:
    """A match in progress (see the module docstring).

    ``chance`` is ``"sampled"`` or ``"chosen"``; ``bot`` names the bot that plays the teams no
    person plays, for the log (None: not recorded). With ``history=False`` nothing is kept for
    undo or the log (no steps, no snapshots, no commitments): the match plays the same, faster;
    batch playouts use it.
    """

    game: Game
    seed: int
    state: State = None
    steps: list = field(default_factory=list)
    _snapshots: list = field(default_factory=list)
    history: bool = True
    chance: str = "sampled"
    bot: str | None = None

    def __post_init__(self):
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance is one of {CHANCE_MODES}, not {self.chance!r}")
        if self.state is None:
            self.state = self.game.new_initial_state()

    def apply(self, action: int, events: list | None = None, *, nonce: str | None = None) -> None:
        """Apply a legal action (checked), recording it for undo and the log.

        In a ``sampled`` match a chance outcome must be the sampler's (RC407 otherwise). A
        secret choice is committed with ``nonce`` (a fresh random one when None). Raises
        :class:`~rulecraft.errors.IllegalActionError` (RC401) for an illegal action.
        """
        state = self.state
        if (self.chance == "sampled" and type(action) is int and state.is_chance_node()
                and action in state.legal_actions()):
            expected = chance_outcome(state, self.seed)
            if action != expected:
                raise PlayError(
                    f"this match draws its dice from seed {self.seed}: the outcome at ply "
                    f"{state.ply + 1} is {state.action_notation(expected)}, not "
                    f"{state.action_notation(action)} (a match with chance='chosen' takes any)",
                    code="RC407")
        if not self.history:
            state.apply(action, events)
            return
        actor = state.current_player()
        before = state.clone()
        state.apply(action, events)
        notation = before.action_notation(action)
        secret = None
        if before.is_secret():
            nonce = nonce or secrets.token_hex(16)
            secret = Secret(nonce, commit(action, nonce), _decided(before, state))
        self._snapshots.append(before)
        self.steps.append(Step(actor, action, notation, state.public_hash(), secret))
        self._open_revealed()

    def roll(self, events: list | None = None) -> int:
        """Resolve the current chance node with the seeded sampler; returns the outcome index."""
        outcome = chance_outcome(self.state, self.seed)
        self.apply(outcome, events)
        return outcome

    def advance(self, bots: dict, events: list | None = None) -> None:
        """Play one ply that needs no person: roll at a chance node, else the acting team's bot
        chooses with the randomness of this seed and ply (``bots`` as from :func:`seat_bots`;
        KeyError when the acting team has none)."""
        state = self.state
        if state.is_chance_node():
            self.roll(events)
        else:
            self.apply(self.bot_choice(bots[state.current_player()]), events)

    def bot_choice(self, bot) -> int:
        """What ``bot`` chooses now, from the match seed and the current ply."""
        return bot.choose(self.state, bot_rng(self.seed, self.state.ply))

    def events_of(self, index: int) -> list:
        """The events step ``index`` (of :attr:`steps`) produced, recomputed by applying it
        again to a copy of the state before it: what the play-by-play said then (whose roll a
        die was, from the rules), which the log need not record. IndexError for no such step."""
        events: list = []
        self._snapshots[index].clone().apply(self.steps[index].action, events)
        return events

    def undo(self, team: int) -> bool:
        """Go back to just before ``team``'s last decision; False when it has made none."""
        for index in range(len(self.steps) - 1, -1, -1):
            if self.steps[index].actor == team:
                self.state = self._snapshots[index]
                del self.steps[index:]
                del self._snapshots[index:]
                for step in self.steps:
                    if step.secret is not None and (step.secret.opened or 0) > index:
                        step.secret.opened = None
                self._open_revealed()
                return True
        return False

    def is_chance(self) -> bool:
        """True when the current state awaits a chance outcome (its player is :data:`CHANCE`)."""
        return self.state.current_player() == CHANCE

    def _open_revealed(self) -> None:
        """Open every secret whose decided slots are all public now (or the game is over)."""
        state = self.state
        over = state.is_terminal()
        hidden = None if over else state.hidden_slots()
        for step in self.steps:
            secret = step.secret
            if secret is None or secret.opened is not None:
                continue
            if over or all(slot not in hidden and state.s[slot] == value
                           for slot, value in secret.decided.items()):
                secret.opened = len(self.steps)


def _decided(before: State, after: State) -> dict:
    """The slots a secret choice decided: where the results of the legal choices at ``before``
    differ, with their values in ``after`` (the result of the choice made)."""
    decided = set()
    for action in before.legal_actions():
        other = before.clone()
        try:
            other.apply_unchecked(action)
        except (RulecraftError, *RULE_FAILURES):  # that choice would have failed: it tells nothing
            continue
        decided.update(i for i, (a, b) in enumerate(zip(other.s, after.s)) if a != b)
    return {slot: after.s[slot] for slot in sorted(decided)}
