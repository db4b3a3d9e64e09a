"""PettingZoo adapter: any compiled rulecraft game as a PettingZoo AEC environment.

Implements PettingZoo's agent-environment-cycle API (``pettingzoo.AECEnv``; the classic
``tictactoe_v3`` environment is the model). Nothing here knows any game:

* The agents are the spec's team names in seating order; the agent to act is the team the runtime
  names. A secret choice is made by each listed team in turn, and an agent's observation hides the
  other teams' choices until the rules reveal them.
* Chance nodes never reach an agent. They are resolved by the sampler of live matches
  (:func:`rulecraft.runtime.match.chance_outcome`) with the episode's seed, which ``reset`` sets:
  ``reset(seed=N)`` uses ``N`` itself, so given the same decisions the dice fall as in
  ``rulecraft play GAME --seed N``; ``reset()`` draws the next episode's seed from the generator
  that the last seeded reset started (from the operating system's entropy before any). All chance
  is therefore driven by the seed given to ``reset``.
* ``observe(agent)`` is a dict: ``observation``, the float32 vector of
  :meth:`State.observation` for the agent's team, and ``action_mask``, an int8 vector over the
  game's ``num_distinct_actions`` with 1 for each legal action of the agent to act (all zeros for
  the others and at the end). ``observation_space(agent)`` and ``action_space(agent)`` return the
  same cached space objects on every call.
* Rewards are zero until the game ends, then each team's return; all agents terminate together,
  or are truncated together when the match reached the spec's ``limits: max_plies`` (the rewards
  are then its ``on_limit`` returns).
* ``render_mode="ansi"``: ``render()`` returns the state as text (the board and every field, as a
  referee sees it); ``"human"``: it prints that text, and so does every ``reset`` and ``step``.

``history`` lists every action id applied in the episode, decisions and chance outcomes, in the
order of OpenSpiel's ``State.history()``; ``game_state`` is the runtime state itself.
"""

from __future__ import annotations

import gymnasium
from gymnasium import spaces
from gymnasium.utils import seeding
import numpy as np
from pettingzoo import AECEnv

from rulecraft.runtime.engine import Game, as_action_id
from rulecraft.runtime.match import chance_outcome
from rulecraft.runtime.render import render_text

SEED_RANGE = 2**31
"""Episode seeds drawn by an unseeded ``reset`` lie in ``0 … SEED_RANGE - 1``."""


class RulecraftAECEnv(AECEnv):
    """A rulecraft game as a PettingZoo ``AECEnv`` (see the module docstring).

    Takes the runtime :class:`Game` and ``render_mode`` (None, ``"ansi"`` or ``"human"``); raises
    ValueError for another render mode.
    """

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None, "
                             f"not {render_mode!r}")
        self.metadata = {**self.metadata, "name": f"rulecraft_{game.id}"}
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = list(game.teams)
        self.agents = []
        self._team = {agent: index for index, agent in enumerate(self.possible_agents)}
        actions = game.num_distinct_actions
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, (game.rules.slots,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.np_random = None
        self.episode_seed = None
        self.game_state = None
        self.history = []

    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's (cached) observation space: ``observation`` and ``action_mask`` boxes."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The agent's (cached) action space: every action id of the game."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start an episode whose chance is driven by ``seed`` (see the module docstring).

        ``options`` is accepted for the API and unused: the game's options are fixed when it is
        compiled, before the environment is built.
        """
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            self.episode_seed = seed
        else:
            if self.np_random is None:
                self.np_random, _ = seeding.np_random()
            self.episode_seed = int(self.np_random.integers(SEED_RANGE))
        self.game_state = self.game.new_initial_state()
        self.history = []
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._settle()
        if self.render_mode == "human":
            self.render()

    def step(self, action) -> None:
        """Apply the selected agent's action (a legal action id), then any chance that follows.

        An agent that has terminated steps with None and leaves. Raises
        :class:`~rulecraft.errors.IllegalActionError` (the state unchanged) for an illegal action.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._apply(as_action_id(action))
        self._settle()
        if self.render_mode == "human":
            self.render()

    def _apply(self, action: int) -> None:
        self.game_state.apply(action)
        self.history.append(action)

    def _settle(self) -> None:
        """Resolve chance nodes with the episode's sampler; then select the team to act, or end."""
        state = self.game_state
        while state.is_chance_node():
            self._apply(chance_outcome(state, self.episode_seed))
        if state.is_terminal():
            self.rewards = dict(zip(self.agents, state.returns()))
            if state.is_truncated():
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[state.current_player()]

    def observe(self, agent: str) -> dict:
        """The agent's observation and action mask (see the module docstring)."""
        state = self.game_state
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        if agent == self.agent_selection and not state.is_terminal():
            mask[state.legal_actions()] = 1
        return {"observation": np.asarray(state.observation(self._team[agent]), np.float32),
                "action_mask": mask}

    def state(self) -> np.ndarray:
        """The whole state, secrets included, as a float32 vector (for centralised training)."""
        return np.asarray(self.game_state.s, np.float32)

    def render(self) -> str | None:
        """The state as text in ``ansi`` mode; printed (returning None) in ``human`` mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; "
                                  "build the environment with render_mode='ansi' or 'human'")
            return None
        text = render_text(self.game_state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the environment holds no window, process or file."""
