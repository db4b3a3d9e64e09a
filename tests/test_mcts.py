"""The search bots: UCT never loses tic-tac-toe against random, a seeded choice is reproducible,
information-set MCTS never reads the other side's hidden fields, and the command line takes
``mcts:N`` / ``ismcts:N`` (iterations) and ``mcts:Ts`` (seconds, refused where a seed or a
log is asked for) and refuses a bad budget cleanly."""

from __future__ import annotations

import time

import pytest

from rulecraft.runtime.bots import MAX_ITERATIONS, RandomBot, make_bot
from rulecraft.runtime.match import seat_bots
from rulecraft.runtime.mcts import determinise
from rulecraft.runtime.seeding import bot_rng

from helpers import invoke, load_game
from test_cli import assert_clean_failure


def mcts_against_random(matches: int, bot: str = "mcts:200") -> list[float]:
    """The search bot's returns over seeded tic-tac-toe matches, seats alternating."""
    game = load_game("tictactoe")
    results = []
    for seed in range(matches):
        seat = seed % 2
        bots = {seat: make_bot(bot), 1 - seat: RandomBot()}
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply(bots[state.current_player()].choose(state, bot_rng(seed, state.ply)))
        results.append(state.returns()[seat])
    return results


def test_mcts_never_loses_tictactoe_against_random():
    assert min(mcts_against_random(20)) >= 0


@pytest.mark.slow
def test_mcts_never_loses_200_tictactoe_matches_against_random():
    assert min(mcts_against_random(200)) >= 0


def test_mcts_blocks_at_tictactoe():
    game = load_game("tictactoe")
    state = game.new_initial_state()
    for action in (0, 4, 1):      # x A1, o B2, x B1: o must block at C1
        state.apply(action)
    choice = make_bot("mcts:300").choose(state, bot_rng(1, state.ply))
    assert choice == 2, game.action_notation(choice)


@pytest.mark.parametrize("game_name", ["tictactoe", "pig", "taktinen"])
def test_same_seed_same_choice(game_name):
    game = load_game(game_name)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    for name in ("mcts:30", "ismcts:30"):
        first = make_bot(name).choose(state.clone(), bot_rng(5, state.ply))
        assert first == make_bot(name).choose(state.clone(), bot_rng(5, state.ply))
        assert first in state.legal_actions()


def formations_apart():
    """Two taktinen states after team 0's secret formation, differing only in that formation."""
    game = load_game("taktinen")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    assert state.is_secret() and state.current_player() == 0
    legal = state.legal_actions()
    first, second = state.clone(), state.clone()
    first.apply(legal[0])
    second.apply(legal[-1])
    differing = {slot for slot, (a, b) in enumerate(zip(first.s, second.s)) if a != b}
    assert differing and differing <= first.hidden_slots()
    assert first.current_player() == 1 and first.is_secret()
    return first, second


def test_ismcts_ignores_the_other_sides_hidden_fields():
    first, second = formations_apart()
    for seed in range(3):
        bot = make_bot("ismcts:40")
        assert bot.choose(first, bot_rng(seed, first.ply)) == bot.choose(second, bot_rng(seed, second.ply))
    assert determinise(first, 1, bot_rng(0, 0)).s == determinise(second, 1, bot_rng(0, 0)).s


def test_determinisations_are_formations_a_real_choice_could_set():
    first, _ = formations_apart()
    game = first.game
    defenders, midfielders, forwards = (game.field(name) for name in ("defenders", "midfielders", "forwards"))
    rng = bot_rng(2, 0)
    drawn = set()
    for _ in range(20):
        s = determinise(first, 1, rng).s
        team0 = s[defenders.base], s[midfielders.base], s[forwards.base]
        assert min(team0) >= 0 and sum(team0) == 10
        drawn.add(team0)
        assert s[defenders.base + 1:defenders.base + 2] == first.s[defenders.base + 1:defenders.base + 2]
    assert len(drawn) > 1


def test_ismcts_plays_a_taktinen_opening():
    game = load_game("taktinen")
    state = game.new_initial_state()
    bots = seat_bots(game, "ismcts:8")
    for _ in range(12):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(bots[state.current_player()].choose(state, bot_rng(1, state.ply)))


# Matching pennies, invented for this test: both teams show a coin in secret; matcher wins when
# they match. Nothing in the runtime knows it.
PENNIES_SPEC = """\
game:
  id: pennies
  title: Matching pennies
  teams: [matcher, mismatcher]

enums:
  coin: [heads, tails]

state:
  coin: {type: coin, of: team, visible: owner, until: revealed}
  winner: {type: team}

turn:
  - phase: show
    rule: "1"
    secret: [show]
  - phase: compare
    rule: "2"
    do: |
      reveal coin;
      if matcher.coin == mismatcher.coin then { winner = matcher } else { winner = mismatcher };
      finish

actions:
  show:
    rule: "1"
    params: {side: coin}
    effect: "actor.coin = side"
    notation: "{side}"

end:
  rule: "2"
  returns: "if winner == team then 1 else -1"
  range: [-1, 1]

limits:
  max_plies: 2
"""


def test_ismcts_cannot_read_a_throwaway_secret(tmp_path):
    folder = tmp_path / "pennies"
    folder.mkdir()
    (folder / "game.yaml").write_text(PENNIES_SPEC, encoding="utf-8")
    game = load_game(folder)
    start = game.new_initial_state()
    heads, tails = start.clone(), start.clone()
    heads.apply(start.legal_actions()[0])
    tails.apply(start.legal_actions()[1])
    assert heads.current_player() == 1 and heads.s != tails.s
    for seed in range(5):
        rng = (bot_rng(seed, 1), bot_rng(seed, 1))
        assert make_bot("ismcts:50").choose(heads, rng[0]) == make_bot("ismcts:50").choose(tails, rng[1])
    # the plain UCT bot sees the whole state and mismatches: what ISMCTS must not do
    cheat = make_bot("mcts:50")
    assert [cheat.choose(state, bot_rng(0, 1)) for state in (heads, tails)] == start.legal_actions()[::-1]


def test_the_name_round_trips():
    assert make_bot("mcts:50").name == "mcts:50"
    assert make_bot("ismcts").name == make_bot("ismcts:200").name == "ismcts:200"
    with pytest.raises(ValueError, match="whole number"):
        make_bot("mcts:0")


def test_cli_plays_with_mcts(tmp_path):
    result = invoke("play", "tictactoe", "--bot", "mcts:50", "--seed", 1)
    assert result.exit_code == 0, result.output
    assert "game over" in result.output
    assert result.output == invoke("play", "tictactoe", "--bot", "mcts:50", "--seed", 1).output
    path = tmp_path / "match.jsonl"
    assert invoke("play", "tictactoe", "--bot", "mcts:20", "--seed", 2, "--log", path).exit_code == 0
    assert '"bot": "mcts:20"' in path.read_text(encoding="utf-8").splitlines()[0]
    replayed = invoke("replay", path)
    assert replayed.exit_code == 0, replayed.output


def test_cli_simulates_with_ismcts():
    result = invoke("simulate", "tictactoe", "--bot", "ismcts:10", "--games", 2, "--seed", 1)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("bot", ["mcts:x", "mcts:0", f"mcts:{MAX_ITERATIONS + 1}", "mcts:-3", "greedy:5", "mcts:"])
def test_a_bad_bot_budget_is_a_clean_error(bot):
    assert_clean_failure(invoke("play", "tictactoe", "--bot", bot, "--seed", 1), "RC107", f"'{bot}'")


def test_bots_per_side(tmp_path):
    path = tmp_path / "match.jsonl"
    result = invoke("play", "tictactoe", "--bot", "x=mcts:100,o=random", "--seed", 3, "--log", path)
    assert result.exit_code == 0, result.output
    assert '"bot": "x=mcts:100,o=random"' in path.read_text(encoding="utf-8").splitlines()[0]
    assert invoke("replay", path).exit_code == 0
    bots = seat_bots(load_game("taktinen"), "home=ismcts:10,away=greedy")
    assert [bot.name for bot in bots.values()] == ["ismcts:10", "greedy"]
    assert invoke("play", "tictactoe", "--human", "x", "--bot", "o=mcts:5", "--seed", 1,
                  input="q\n").exit_code == 0


@pytest.mark.parametrize("bot, fragment", [("x=mcts:5", "no bot for o"), ("x=mcts:5,q=random", "no team 'q'"),
                                           ("x=mcts:5,o=clever", "unknown bot 'clever'"),
                                           ("x=mcts:5,x=random", "given twice"), ("x=,o=random", "is not TEAM=BOT")])
def test_a_bad_per_side_bot_is_a_clean_error(bot, fragment):
    assert_clean_failure(invoke("play", "tictactoe", "--bot", bot, "--seed", 1), "RC107", fragment)
    assert_clean_failure(invoke("simulate", "tictactoe", "--bot", bot, "-n", 2), "RC107", fragment)


def test_a_time_budget_searches_until_the_time_is_up():
    bot = make_bot("mcts:0.2s")
    assert bot.name == "mcts:0.2s" and make_bot(bot.name).seconds == 0.2
    state = load_game("tictactoe").new_initial_state()
    started = time.monotonic()
    assert bot.choose(state, bot_rng(1, 0)) in state.legal_actions()
    assert 0.2 <= time.monotonic() - started < 5


@pytest.mark.parametrize("flags", [["--seed", 1], ["--log", "LOG"], ["--seed", 2, "--log", "LOG"]])
def test_a_time_budget_is_refused_where_the_match_must_be_reproducible(tmp_path, flags):
    flags = [str(tmp_path / "m.jsonl") if flag == "LOG" else flag for flag in flags]
    result = invoke("play", "tictactoe", "--bot", "x=mcts:1s,o=random", *flags)
    assert result.exit_code != 0 and "RC107" in result.output and "mcts:200" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "m.jsonl").exists()
    for command in (["simulate", "tictactoe", "--bot", "mcts:1s"],
                    ["ladder", "tictactoe", "--rungs", "random,mcts:1s"]):
        refused = invoke(*command)
        assert refused.exit_code != 0 and "RC107" in refused.output and "time budget" in refused.output


def test_a_timed_bot_plays_a_match_without_a_seed():
    result = invoke("play", "tictactoe", "--bot", "x=mcts:0.05s,o=random")
    assert result.exit_code == 0, result.output
