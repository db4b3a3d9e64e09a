"""The PettingZoo and Gymnasium adapters, checked by PettingZoo's own tests over every game.

Every game (and the throwaway rock-paper-scissors of test_adapters_openspiel) passes PettingZoo's
api_test, seed_test and render_test, looped over several seeds; played with the same seeded
actions, the PettingZoo environment and the OpenSpiel game show the same observations, legal
masks and returns; a secret choice stays hidden in the environment; and the single-agent
Gymnasium wrapper plays whole episodes reproducibly against each rulecraft bot.
"""

from __future__ import annotations

import pytest

pettingzoo = pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import rulecraft.rl as rl  # noqa: E402
from rulecraft.runtime.bots import BOTS  # noqa: E402

from test_adapters_openspiel import ALL_GAMES, game_ref, load, secret_game  # noqa: E402,F401

SEEDS, SLOW_SEEDS = range(3), range(100, 110)
CYCLES, SLOW_CYCLES = 50, 1000
# The cross-check and the Gymnasium episodes stop after this many decisions.
DECISIONS, SLOW_DECISIONS = 100, 100_000
GYM_DECISIONS = 30

# PettingZoo's style advice (agent names like player_0, unbounded observation boxes, an all-zero
# mask for an agent that is not to act) comes as warnings, not failures.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def seeded_env(game_ref: str, seed: int, render_mode: str | None = None):
    """The game's environment, reset with ``seed`` and with its action spaces seeded from it."""
    env = rl.pettingzoo_env(game_ref, render_mode=render_mode)
    env.reset(seed=seed)
    for index, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed * 100 + index)
    return env


def check_suites(game_ref: str, seeds, cycles: int, capsys) -> None:
    """api_test and render_test for each seed, and seed_test."""
    for seed in seeds:
        api_test(seeded_env(game_ref, seed), num_cycles=cycles)
        render_test(lambda render_mode=None: seeded_env(game_ref, seed, render_mode),
                    custom_tests={"ansi": lambda text: bool(text.strip())})
        printed = capsys.readouterr().out
        assert "to act" in printed or "game over" in printed, "human mode printed no board"
    seed_test(lambda: rl.pettingzoo_env(game_ref), num_cycles=cycles)


@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_pettingzoo_suites(game_ref, capsys):
    check_suites(game_ref, SEEDS, CYCLES, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_pettingzoo_suites_many_cycles(game_ref, capsys):
    check_suites(game_ref, SLOW_SEEDS, SLOW_CYCLES, capsys)


# ---------- PettingZoo against OpenSpiel ----------

def cross_check(game_ref: str, seed: int, decisions: int) -> None:
    """Play the environment with seeded random legal actions, mirroring every applied action
    (chance outcomes included, read from its history) on the OpenSpiel game: both name the same
    player, show each player the same observation and legal mask, and end with the same returns."""
    env = seeded_env(game_ref, seed)
    state = load(game_ref).new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        for action in env.history[len(state.history()):]:
            state.apply_action(action)
        assert state.history() == env.history
        if state.is_terminal():
            assert env.game_state.is_terminal() and all(env.terminations.values())
            assert state.returns() == [env.rewards[agent] for agent in env.possible_agents]
            return
        assert state.current_player() == env.possible_agents.index(env.agent_selection)
        for player, agent in enumerate(env.possible_agents):
            seen = env.observe(agent)
            assert seen["observation"].tolist() == state.observation_tensor(player)
            # the mask's ones, compared as a list: OpenSpiel's own mask is built from it
            assert len(seen["action_mask"]) == state.num_distinct_actions()
            assert np.flatnonzero(seen["action_mask"]).tolist() == state.legal_actions(player)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
@pytest.mark.parametrize("seed", SEEDS)
def test_pettingzoo_and_openspiel_agree(game_ref, seed):
    cross_check(game_ref, seed, DECISIONS)


@pytest.mark.slow
@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_pettingzoo_and_openspiel_agree_whole_games(game_ref):
    for seed in SLOW_SEEDS:
        cross_check(game_ref, seed, SLOW_DECISIONS)


def test_same_seed_same_dice_as_a_live_match():
    """reset(seed=N) rolls as `rulecraft play --seed N` does: the match sampler with seed N
    (rolling without ever holding, nobody scores, so the game goes on)."""
    from rulecraft.runtime.match import Match
    env = seeded_env("pig", 7)
    match = Match(env.game, 7)
    for _ in range(30):
        env.step(0)
        match.apply(0)
        while match.is_chance():
            match.roll()
        assert [step.action for step in match.steps] == env.history


def test_a_secret_choice_stays_hidden_from_the_other_agent(secret_game):
    """Each hand left may pick shows right the same observation; left sees its own hand; once
    both have picked, the reveal shows it to right too."""
    seen = {"left": set(), "right": set(), "revealed": set()}
    for hand in range(3):
        env = seeded_env(str(secret_game), 0)
        env.step(hand)
        for agent in ("left", "right"):
            seen[agent].add(env.observe(agent)["observation"].tobytes())
        env.step(0)
        seen["revealed"].add(env.observe("right")["observation"].tobytes())
    assert (len(seen["left"]), len(seen["right"]), len(seen["revealed"])) == (3, 1, 3)


def test_bad_render_mode_is_refused():
    with pytest.raises(ValueError, match="render_mode"):
        rl.pettingzoo_env("tictactoe", render_mode="rgb_array")


# ---------- the Gymnasium wrapper ----------

def play_episode(env, seed: int, decisions: int) -> list:
    """Play the learner with seeded random legal actions; returns what each step gave back.

    Every observation handed to the learner is in the observation space and offers it a choice.
    """
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    trace = []
    for _ in range(decisions):
        assert env.observation_space.contains(observation)
        assert env.action_masks().any() and env.env.agent_selection == env.learner
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        observation, reward, terminated, truncated, _ = env.step(action)
        trace.append((observation["observation"].tolist(), reward, terminated, truncated))
        if terminated:
            break
    return trace


# The tree-search bots at their full default budget (200 iterations of up to 40 plies per
# decision) cost minutes on a game of long turns (street-soccer): the default suite plays them
# with 8 iterations, the slow suite at full budget.
FULL_BUDGET = [pytest.param(name, marks=pytest.mark.slow) for name in ("mcts", "ismcts")]


@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
@pytest.mark.parametrize("opponent", [name for name in sorted(BOTS) if name not in ("mcts", "ismcts")]
                         + ["mcts:8", "ismcts:8"] + FULL_BUDGET)
def test_gym_episode_against_a_bot(game_ref, opponent):
    env = rl.gym_env(game_ref, learner=1, opponent=opponent)
    trace = play_episode(env, seed=3, decisions=GYM_DECISIONS)
    again = rl.gym_env(game_ref, learner=1, opponent=opponent)
    assert trace == play_episode(again, seed=3, decisions=GYM_DECISIONS)
    *_, (_, reward, terminated, truncated) = trace
    assert not truncated
    state = env.env.game_state
    if terminated:
        assert state.is_terminal() and reward == state.returns()[1]
    else:
        assert not state.is_terminal() and reward == 0


def test_gym_unseeded_resets_follow_the_first_seed():
    first, second = rl.gym_env("pig", learner="second"), rl.gym_env("pig", learner="second")
    for env in (first, second):
        env.reset(seed=11)
    assert first.reset()[0]["observation"].tolist() == second.reset()[0]["observation"].tolist()
    assert first.env.episode_seed == second.env.episode_seed != 11


def test_gym_renders_as_text():
    env = rl.gym_env("tictactoe", render_mode="ansi")
    env.reset(seed=0)
    assert "to act: x" in env.render()


@pytest.mark.parametrize("arguments, message", [({"learner": "nobody"}, "learner"),
                                                ({"learner": 5}, "learner"),
                                                ({"opponent": "oracle"}, "opponent"),
                                                ({"opponent": "mcts:0"}, "opponent"),
                                                ({"opponent": "mcts:1s"}, "time budget"),
                                                ({"opponent": "x=greedy"}, "one bot")])
def test_gym_refuses_unknown_teams_and_bots(arguments, message):
    with pytest.raises(ValueError, match=message):
        rl.gym_env("tictactoe", **arguments)
