"""Search bots: Monte Carlo tree search (UCT) and information-set MCTS by determinisation.

Both work on any compiled game through the :class:`~rulecraft.runtime.engine.State` API alone
(``legal_actions``, ``apply_unchecked``, ``clone``, ``is_chance_node``, ``chance_outcomes``,
``current_player``, ``is_terminal``, ``returns``, ``evaluation``).

* :class:`MCTSBot` is UCT (Kocsis & Szepesvári, "Bandit based Monte-Carlo Planning", ECML 2006):
  each iteration descends the tree by UCB1 for the team to act at each node, expands one
  action, plays a random rollout and backs up one value per team. Chance nodes are sampled by
  their probabilities. It sees the whole state, so it is meant for games without hidden fields.
* :class:`ISMCTSBot` is single-observer information-set MCTS (Cowling, Powley & Whitehouse,
  "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012): before each iteration it draws a
  *determinisation* of the state consistent with its team's observation (:func:`determinise`),
  and UCB counts each child's availability; another team's secret choices inside the tree are
  drawn at random and not branched on, so the tree never conditions the bot's choices on them.

Budgets are in iterations, so a seeded match is reproducible, or in seconds per decision (the
search stops at the first iteration that ends after the time is up, and at
:data:`MAX_ITERATIONS` at most): how far it gets then depends on the machine, so the command line
refuses a time budget where a seed or a log is asked for. All randomness comes from the ``rng``
handed to ``choose`` (see :mod:`rulecraft.runtime.bots`).

Rollouts are random and cut after ``rollout_depth`` plies. Values lie in (-1, 1): a finished
game scores each team ``squash(return)``, a cut rollout ``0.5 * squash(evaluation)``, where
``squash(x) = x / (1 + |x|)`` — the spec's ``evaluation`` when it defines one (the compiler
falls back to the returns, 0 before the end, otherwise), and a real result always outweighs a
heuristic one. A ply refused at ``limits: max_plies`` (RC406) ends the rollout like a cut.
"""

from __future__ import annotations

import math
import random
import time

from rulecraft.errors import PlayError
from rulecraft.runtime.engine import RULE_ERRORS, State, rule_failure
from rulecraft.limits import MAX_ITERATIONS

__all__ = ["ISMCTSBot", "MAX_ITERATIONS", "MCTSBot", "determinise"]


def _squash(x: float) -> float:
    return x / (1.0 + abs(x))


class _Node:
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self, teams: int):
        self.children: dict = {}
        self.visits = 0
        self.total = [0.0] * teams
        self.avail: dict = {}


def _sample_outcome(state: State, rng: random.Random) -> int:
    """A chance outcome of ``state`` drawn by its probabilities."""
    outcomes = state.chance_outcomes()
    point = rng.random()
    for outcome, probability in outcomes:
        point -= probability
        if point < 0:
            return outcome
    return outcomes[-1][0]


def determinise(state: State, team: int, rng: random.Random) -> State:
    """A copy of ``state`` whose fields hidden from ``team`` are redrawn without reading them.

    Every owner-only field of another team that is not yet revealed is first overwritten (a
    value drawn uniformly from the field's domain for a finite type, 0 for an ``int``); then,
    for each distinct secret step of the game, a legal choice of that step is drawn uniformly
    for that team and its effect is applied to a scratch copy, and only that team's hidden
    slots are taken from it. So the hidden values are ones a real secret choice could have set
    (a taktinen formation from the cards, a keeper's die), and two states differing only in
    those fields give the same determinisations for the same ``rng``. Effects that fail
    (RC404 failures) are skipped. Returns ``state`` cloned as is when nothing is hidden.
    """
    game = state.game
    copy = state.clone()
    hidden = {}
    for f in game._hidden:
        if f.reveal_slot is not None and copy.s[f.reveal_slot]:
            continue
        for owner in range(f.size):
            if owner != team:
                hidden.setdefault(owner, []).append((f, f.base + owner))
    if not hidden:
        return copy
    ranges = game._slot_ranges()
    for owner in sorted(hidden):
        for f, slot in hidden[owner]:
            domain = ranges[slot]
            copy.s[slot] = rng.randrange(max(domain.start, 0), domain.stop) \
                if domain.stop - domain.start < 1 << 32 and domain.stop > max(domain.start, 0) else 0
    seen = set()
    for node in game.rules.nodes:
        if node.kind != "secret" or tuple(node.actions) in seen:
            continue
        seen.add(tuple(node.actions))
        for owner in sorted(hidden):
            try:
                legal = sorted(node.legal(copy.s, owner))
                if not legal:
                    continue
                definition, values = game.decoded(rng.choice(legal))
                scratch = copy.s[:]
                definition.apply(scratch, owner, *values, None)
            except RULE_ERRORS:
                continue
            for _, slot in hidden[owner]:
                copy.s[slot] = scratch[slot]
    copy.refresh()
    return copy


class MCTSBot:
    """UCT over the state (see the module docstring).

    ``iterations`` is the budget per decision, or ``seconds`` (wall-clock, > 0) when given;
    ``rollout_depth`` the plies a rollout may play, ``exploration`` the UCB1 constant; ``name``
    spells the budget, ``mcts:200`` or ``mcts:2s``. :meth:`choose` raises
    :class:`~rulecraft.errors.RuleFailure` (RC404) when a formula fails during the search.
    """

    name = "mcts"
    determinised = False

    def __init__(self, iterations: int = 200, rollout_depth: int = 40, exploration: float = 0.7,
                 seconds: float | None = None):
        self.iterations = MAX_ITERATIONS if seconds is not None else iterations
        self.seconds = seconds
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.name = f"{type(self).name}:{f'{seconds:g}s' if seconds is not None else iterations}"

    def choose(self, state: State, rng: random.Random) -> int:
        """The legal action of ``state`` (a decision node) visited most by the search, ties
        broken with ``rng``; all randomness is drawn from ``rng``."""
        team = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = _Node(state.game.num_teams)
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        for _ in range(self.iterations):
            if deadline is not None and root.visits and time.monotonic() >= deadline:
                break
            start = determinise(state, team, rng) if self.determinised else state.clone()
            try:
                self._iterate(root, start, team, rng)
            except RULE_ERRORS as error:
                raise rule_failure(state, error) from None
        most = max(root.children[a].visits if a in root.children else 0 for a in legal)
        return rng.choice([a for a in legal if a in root.children and root.children[a].visits == most]
                          or legal)

    def _iterate(self, root: _Node, state: State, team: int, rng: random.Random) -> None:
        node, path = root, [root]
        try:
            while not state.is_terminal():
                expanded = False
                if state.is_chance_node():
                    action = key = _sample_outcome(state, rng)
                else:
                    actor = state.current_player()
                    legal = state.legal_actions()
                    if self.determinised and actor != team and state.is_secret():
                        action, key = rng.choice(legal), None
                    else:
                        for a in legal:
                            node.avail[a] = node.avail.get(a, 0) + 1
                        untried = [a for a in legal if a not in node.children]
                        if untried:
                            action, expanded = rng.choice(untried), True
                        else:
                            action = self._select(node, legal, actor)
                        key = action
                state.apply_unchecked(action)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(len(root.total))
                node = child
                path.append(node)
                if expanded:
                    break
            values = self._rollout(state, rng)
        except PlayError as error:
            if error.code != "RC406":
                raise
            values = self._score(state)
        for visited in path:
            visited.visits += 1
            for t, v in enumerate(values):
                visited.total[t] += v

    def _select(self, node: _Node, legal: list, actor: int) -> int:
        best, best_action = -math.inf, legal[0]
        for a in legal:
            child = node.children[a]
            score = child.total[actor] / child.visits + \
                self.exploration * math.sqrt(math.log(node.avail[a]) / child.visits)
            if score > best:
                best, best_action = score, a
        return best_action

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        try:
            for _ in range(self.rollout_depth):
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    state.apply_unchecked(_sample_outcome(state, rng))
                else:
                    state.apply_unchecked(rng.choice(state.legal_actions()))
        except PlayError as error:
            if error.code != "RC406":
                raise
        return self._score(state)

    @staticmethod
    def _score(state: State) -> list[float]:
        teams = range(state.game.num_teams)
        if state.is_terminal():
            return [_squash(r) for r in state.returns()]
        return [0.5 * _squash(state.evaluation(t)) for t in teams]


class ISMCTSBot(MCTSBot):
    """Information-set MCTS by determinisation (see the module docstring and
    :func:`determinise`): it never reads another team's unrevealed hidden fields."""

    name = "ismcts"
    determinised = True
