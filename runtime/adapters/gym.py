"""Gymnasium adapter: a rulecraft game as a single-agent environment for training one policy.

Implements Gymnasium's ``Env`` API (``reset`` → ``(observation, info)``, ``step`` →
``(observation, reward, terminated, truncated, info)``) on top of
:class:`~rulecraft.runtime.adapters.pettingzoo.RulecraftAECEnv`. One team is the learner; every
other team is played by a rulecraft bot (any name :func:`rulecraft.runtime.bots.make_bot` reads
with an iteration budget: ``greedy``, ``random``, ``mcts:50``, ``ismcts:20``), and chance by the seeded sampler, so ``step`` returns at the learner's next decision
or at the end. Observations are the AEC environment's dicts (``observation`` and
``action_mask``); ``action_masks()`` gives the mask as booleans, as maskable-action trainers
(e.g. sb3-contrib's ``MaskablePPO``) expect. The reward is the learner's return at the end and 0
before.

Seeding: ``reset(seed=N)`` plays the dice with seed ``N`` and hands the bots the randomness of
seed ``N`` and the ply (:func:`~rulecraft.runtime.seeding.bot_rng`), as ``rulecraft play GAME
--seed N --human LEARNER`` does, so the same learner actions give the same match. ``reset()`` draws the episode's seed from the generator
Gymnasium's ``reset`` seeds.
"""

from __future__ import annotations

import gymnasium
import numpy as np

from rulecraft.runtime.adapters.pettingzoo import SEED_RANGE, RulecraftAECEnv
from rulecraft.runtime.bots import bot_problem, make_bot, timed
from rulecraft.runtime.engine import Game
from rulecraft.runtime.seeding import bot_rng


class RulecraftGymEnv(gymnasium.Env):
    """One team of a rulecraft game against bots (see the module docstring).

    Takes the runtime :class:`Game`, the ``learner`` team (a name or an index), the ``opponent``
    bot's name (``mcts:50``; one bot for every other team, not a time budget: an episode is
    reproducible from its seed) and ``render_mode`` (None, ``"ansi"`` or ``"human"``). Raises
    ValueError for an unknown team, bot or render mode.
    """

    metadata = {"render_modes": RulecraftAECEnv.metadata["render_modes"]}

    def __init__(self, game: Game, learner: int | str = 0, opponent: str = "greedy",
                 render_mode: str | None = None):
        self.env = RulecraftAECEnv(game, render_mode)
        teams = self.env.possible_agents
        if learner not in teams and learner not in range(len(teams)):
            raise ValueError(f"the learner is one of the teams {teams} (or its index), "
                             f"not {learner!r}")
        problem = bot_problem(opponent) or ("it is one bot for every other team"
                                            if "=" in opponent else None)
        if problem is None and timed(opponent):
            problem = (f"'{opponent}' has a time budget, and an episode must be reproducible "
                       "from its seed: give iterations (e.g. mcts:50)")
        if problem is not None:
            raise ValueError(f"the opponent: {problem}")
        self.learner = learner if learner in teams else teams[learner]
        self.team = teams.index(self.learner)
        self.opponent = opponent
        self.render_mode = render_mode
        self.observation_space = self.env.observation_space(self.learner)
        self.action_space = self.env.action_space(self.learner)
        self.bots = {}
        self.episode_seed = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Start a match and play until the learner's first decision; returns ``(observation, {})``.

        ``options`` is passed on to the AEC environment (which ignores it).
        """
        super().reset(seed=seed)
        episode_seed = seed if seed is not None else int(self.np_random.integers(SEED_RANGE))
        self.env.reset(seed=episode_seed, options=options)
        self.episode_seed = episode_seed
        self.bots = {team: make_bot(self.opponent)
                     for team in range(len(self.env.possible_agents)) if team != self.team}
        self._play_others()
        return self.env.observe(self.learner), {}

    def step(self, action) -> tuple[dict, float, bool, bool, dict]:
        """Apply the learner's action, then the bots' and chance's until the learner acts again.

        Raises :class:`~rulecraft.errors.IllegalActionError` for an illegal action.
        """
        self.env.step(action)
        self._play_others()
        state = self.env.game_state
        ended = state.is_terminal()
        reward = state.returns()[self.team] if ended else 0.0
        truncated = ended and state.is_truncated()
        return self.env.observe(self.learner), reward, ended and not truncated, truncated, {}

    def _play_others(self) -> None:
        env = self.env
        while not env.game_state.is_terminal() and env.agent_selection != self.learner:
            state = env.game_state
            bot = self.bots[state.current_player()]
            env.step(bot.choose(state, bot_rng(self.episode_seed, state.ply)))

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a boolean mask over every action id."""
        return self.env.observe(self.learner)["action_mask"].astype(bool)

    def render(self) -> str | None:
        """The state as text in ``ansi`` mode; printed (returning None) in ``human`` mode."""
        return self.env.render()

    def close(self) -> None:
        """Close the underlying AEC environment."""
        self.env.close()
