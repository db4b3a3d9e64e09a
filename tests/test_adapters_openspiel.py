"""The OpenSpiel adapter, checked by OpenSpiel's own test suite over every game.

Every game under examples/ and rulespecs/, and a throwaway rock-paper-scissors written here (a
secret choice no runtime code knows), runs ``pyspiel.random_sim_test`` with serialisation in a
fresh interpreter of its own (a failed check there can abort the process); is serialised,
deserialised and pickled at every step, also into a fresh process; and keeps other teams' secret
choices hidden. Planting a fault in the runtime (unsorted legal actions, chance probabilities not
summing to 1, returns outside the declared range) makes random_sim_test fail.
"""

from __future__ import annotations

import json
from pathlib import Path
import pickle
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from rulecraft.compiler import game_names  # noqa: E402
import rulecraft.rl as rl  # noqa: E402
from rulecraft.runtime.adapters.openspiel import has_hidden_information, short_name  # noqa: E402

GAMES = game_names()
SECRET = "throwaway-rps"
ALL_GAMES = GAMES + [SECRET]
# random_sim_test runs this many games per game by default, and the slow run many more.
SIMS, SLOW_SIMS = 1, 100
# The round-trip and hidden-information checks stop a random game after this many plies.
STEP_BUDGET, SLOW_STEP_BUDGET = 60, 100_000
HIDDEN_SEEDS, SLOW_HIDDEN_SEEDS = 5, 100

# Rock-paper-scissors, invented for these tests: both teams pick a hand in secret, then both
# hands are revealed. Nothing in the runtime or the adapters knows it.
SECRET_SPEC = """\
game:
  id: rps
  title: Rock-paper-scissors
  teams: [left, right]

enums:
  hand: [rock, paper, scissors]

tables:
  beats:
    rule: "2"
    keys: [hand]
    type: hand
    values: {rock: scissors, paper: rock, scissors: paper}

state:
  choice: {type: hand, of: team, visible: owner, until: revealed}
  winner: {type: team}

turn:
  - phase: choose
    rule: "1"
    secret: [pick]
  - phase: show
    rule: "2"
    do: |
      reveal choice;
      if beats[left.choice] == right.choice then { winner = left }
      else if beats[right.choice] == left.choice then { winner = right };
      finish

actions:
  pick:
    rule: "1"
    params: {hand: hand}
    effect: "actor.choice = hand"
    notation: "{hand}"

end:
  rule: "2"
  returns: "if winner == none then 0 else if winner == team then 1 else -1"
  range: [-1, 1]

limits:
  max_plies: 2
"""

SIM_SCRIPT = """\
import json, sys
import pyspiel
import rulecraft.rl as rl
from rulecraft.runtime.engine import State
{fault}
game = pyspiel.load_game(rl.register(sys.argv[1]), json.loads(sys.argv[3]))
pyspiel.random_sim_test(game, num_sims=int(sys.argv[2]), serialize=True, verbose=False)
print("random_sim_test passed")
"""

FRESH_PROCESS_SCRIPT = """\
import json, pickle, sys
import rulecraft.rl as rl
sys.path.insert(0, sys.argv[3])
from test_adapters_openspiel import views
rl.register(sys.argv[1])
with open(sys.argv[2], "rb") as file:
    states = pickle.load(file)
print(json.dumps([views(state) for state in states]))
"""

# A planted fault: a patch of the runtime's State, the game it breaks, and the check that must
# catch it (a part of OpenSpiel's failure message).
FAULTS = {
    "unsorted legal actions": (
        "State.legal_actions = lambda self, real=State.legal_actions: "
        "sorted(real(self), reverse=True)",
        "actions[i - 1] < actions[i]"),
    "chance probabilities summing to 0.9": (
        "State.chance_outcomes = lambda self, real=State.chance_outcomes: "
        "[(outcome, 0.9 * p) for outcome, p in real(self)]",
        "Near(static_cast<float>(sum), static_cast<float>(1.0))"),
    "returns outside the declared range": (
        "State.returns = lambda self, real=State.returns: [2 * value for value in real(self)]",
        "final_return"),
}


@pytest.fixture(scope="session")
def secret_game(tmp_path_factory) -> Path:
    """The folder of the throwaway rock-paper-scissors spec."""
    folder = tmp_path_factory.mktemp("secret") / "rps"
    folder.mkdir()
    (folder / "game.yaml").write_text(SECRET_SPEC, encoding="utf-8")
    return folder


@pytest.fixture
def game_ref(request, secret_game) -> str:
    """A game to test: a name from game_names(), or the throwaway game's folder."""
    return str(secret_game) if request.param == SECRET else request.param


def load(game_ref: str) -> pyspiel.Game:
    """The game registered and loaded through OpenSpiel, with its default options."""
    return pyspiel.load_game(rl.register(game_ref))


def run_python(code: str, *args) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter (same compile cache) with ``args`` as sys.argv[1:]."""
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                          text=True, timeout=1800)


def random_sim(game_ref: str, sims: int, options: dict | None = None, fault: str = ""):
    """``pyspiel.random_sim_test`` with serialisation in a fresh interpreter, after ``fault``."""
    return run_python(SIM_SCRIPT.format(fault=fault), game_ref, sims, json.dumps(options or {}))


def play_random(game: pyspiel.Game, seed: int, budget: int):
    """The states of a seeded random game (chance by its probabilities), the initial one first;
    at most ``budget`` + 1 of them."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(budget):
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            action = rng.choice(outcomes, p=probabilities)
        else:
            action = rng.choice(state.legal_actions())
        state = state.child(int(action))
    yield state


def views(state: pyspiel.State) -> dict:
    """Everything OpenSpiel shows of ``state``, as JSON-ready data (for comparing two states)."""
    game = state.get_game()
    kind = game.get_type()
    players = range(game.num_players())
    result = {"text": str(state), "history": state.history(), "player": state.current_player(),
              "terminal": state.is_terminal(), "returns": state.returns(),
              "legal": state.legal_actions(),
              "notation": [state.action_to_string(state.current_player(), action)
                           for action in state.legal_actions()],
              "outcomes": state.chance_outcomes() if state.is_chance_node() else None,
              "observation": [state.observation_string(p) for p in players],
              "observation_tensor": [state.observation_tensor(p) for p in players],
              "information_state": [state.information_state_string(p) for p in players]}
    if kind.provides_information_state_tensor:
        result["information_state_tensor"] = [state.information_state_tensor(p) for p in players]
    return json.loads(json.dumps(result))


# ---------- the game's type and parameters ----------

@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_game_type_and_info_come_from_the_spec(game_ref):
    game = load(game_ref)
    runtime = rl.runtime_game(game_ref)
    rules = runtime.rules
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert (kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC) == bool(rules.dice)
    assert (kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION) == \
        has_hidden_information(runtime)
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == kind.max_num_players == kind.min_num_players == len(rules.teams)
    assert game.get_parameters() == rules.options
    assert game.num_distinct_actions() == max(rules.num_distinct_actions, 1)
    assert game.max_chance_outcomes() == max((len(d.outcomes) for d in rules.dice.values()),
                                             default=0)
    assert (game.min_utility(), game.max_utility()) == tuple(map(float, rules.returns_range))
    assert game.utility_sum() is None
    assert game.max_game_length() == rules.max_plies
    assert game.observation_tensor_size() == rules.slots
    spelled = ",".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                       for name, value in rules.options.items())
    assert pyspiel.load_game(f"{kind.short_name}({spelled})").get_parameters() == rules.options


def test_options_are_game_parameters():
    game = pyspiel.load_game("rulecraft_pig(target=50)")
    assert game.get_parameters()["target"] == 50
    assert game.runtime_game.rules.options == {**rl.runtime_game("pig").rules.options, "target": 50}
    *_, end = play_random(game, seed=1, budget=100_000)
    assert end.is_terminal()
    assert max(end.state.value("score", team) for team in range(2)) >= 50


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_registered_on_import(game):
    rl.runtime_game(game)  # raises the spec's error if it does not compile
    assert short_name(game) in pyspiel.registered_names()


# ---------- OpenSpiel's random simulation test ----------

@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_random_sim_test(game_ref):
    result = random_sim(game_ref, SIMS)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_random_sim_test_many_games(game_ref):
    result = random_sim(game_ref, SLOW_SIMS)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("fault", [None, *FAULTS])
def test_planted_fault_fails_random_sim_test(fault):
    """A runtime broken on purpose fails OpenSpiel's checks; the same game unbroken passes."""
    patch, message = FAULTS.get(fault, ("", None))
    result = random_sim("pig", 5, {"target": 10}, patch)
    if fault is None:
        assert result.returncode == 0, result.stderr
    else:
        assert result.returncode != 0 and "random_sim_test passed" not in result.stdout
        assert "SpielError" in result.stderr and message in result.stderr, result.stderr


# ---------- serialisation ----------

def check_round_trips(game_ref: str, budget: int, tmp_path: Path) -> None:
    """Every state of a random game survives serialize/deserialize, pickle and clone, and
    unpickles in a fresh process showing exactly the same."""
    game = load(game_ref)
    states = list(play_random(game, seed=0, budget=budget))
    for state in states:
        expected = views(state)
        _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert views(copy) == expected
        assert views(pickle.loads(pickle.dumps(state))) == expected
        assert views(state.clone()) == expected
    path = tmp_path / "states.pickle"
    path.write_bytes(pickle.dumps(states))
    result = run_python(FRESH_PROCESS_SCRIPT, game_ref, path, Path(__file__).parent)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [views(state) for state in states]


@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_serialisation_round_trip_at_every_step(game_ref, tmp_path):
    check_round_trips(game_ref, STEP_BUDGET, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_serialisation_round_trip_whole_games(game_ref, tmp_path):
    check_round_trips(game_ref, SLOW_STEP_BUDGET, tmp_path)


# ---------- hidden information ----------

def reveals(before, after) -> bool:
    """True when the ply from runtime state ``before`` to ``after`` revealed a secret field."""
    return any(not before.s[f.reveal_slot] and after.s[f.reveal_slot]
               for f in before.game.rules.fields if f.reveal_slot is not None)


def check_secrets_stay_hidden(game_ref: str, seeds: int, budget: int) -> int:
    """At every secret choice met in ``seeds`` random games (``budget`` plies each), the
    children that differ only in the choice look the same to every other player (observation
    and information state, string and tensor), unless the ply itself ran a reveal (the last
    choice of a round, say); the chooser tells them apart. Returns how many were checked."""
    game = load(game_ref)
    checked = 0
    for seed in range(seeds):
        for state in play_random(game, seed, budget):
            if state.is_terminal() or not state.state.is_secret() or len(state.legal_actions()) < 2:
                continue
            chooser = state.current_player()
            children = [state.child(action) for action in state.legal_actions()]
            seen = [views(child) for child in children]
            assert len({v["information_state"][chooser] for v in seen}) == len(seen)
            if any(reveals(state.state, child.state) for child in children):
                continue
            for other in set(range(game.num_players())) - {chooser}:
                for view in ("observation", "observation_tensor", "information_state",
                             "information_state_tensor"):
                    if view in seen[0]:
                        assert len({json.dumps(v[view][other]) for v in seen}) == 1, \
                            f"{view} of player {other} shows player {chooser}'s secret choice " \
                            f"at ply {len(state.history())}:\n{state}"
            checked += 1
    return checked


@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_secret_choices_stay_hidden(game_ref):
    if not has_hidden_information(rl.runtime_game(game_ref)):
        pytest.skip("the game has no field visible to its owner alone and no secret choice")
    if not check_secrets_stay_hidden(game_ref, HIDDEN_SEEDS, STEP_BUDGET):
        pytest.skip(f"no secret choice between two actions in {HIDDEN_SEEDS} random games")


@pytest.mark.slow
@pytest.mark.parametrize("game_ref", ALL_GAMES, indirect=True)
def test_secret_choices_stay_hidden_many_games(game_ref):
    if not has_hidden_information(rl.runtime_game(game_ref)):
        pytest.skip("the game has no field visible to its owner alone and no secret choice")
    if not check_secrets_stay_hidden(game_ref, SLOW_HIDDEN_SEEDS, SLOW_STEP_BUDGET):
        pytest.skip(f"no secret choice between two actions in {SLOW_HIDDEN_SEEDS} random games")


def test_information_states_have_perfect_recall(secret_game):
    """Over the whole tree of the throwaway game: every information state of a player fixes
    that player's earlier information states and actions, and its string and tensor name the
    same set of histories."""
    game = load(str(secret_game))
    recalled, tensors = {}, {}

    def walk(state, trail):
        for player in range(game.num_players()):
            info = state.information_state_string(player)
            assert recalled.setdefault((player, info), trail[player]) == trail[player], info
            tensor = tuple(state.information_state_tensor(player))
            assert tensors.setdefault((player, tensor), info) == info
        if state.is_terminal():
            return
        actor = state.current_player()
        for action in state.legal_actions():
            if actor >= 0:
                step = ((state.information_state_string(actor), action),)
                walk(state.child(action), {**trail, actor: trail[actor] + step})
            else:
                walk(state.child(action), trail)

    walk(game.new_initial_state(), {player: () for player in range(game.num_players())})
    # left: the start, its 3 picks, 9 revealed ends; right: the start, left's hidden pick, 9 ends
    assert len(tensors) == len(recalled) == (1 + 3 + 9) + (1 + 1 + 9)


# ---------- layering ----------

def test_the_core_runtime_needs_no_rl_package():
    code = ("import sys\n"
            "import rulecraft.runtime.engine, rulecraft.runtime.bots, rulecraft.runtime.match, "
            "rulecraft.runtime.render, rulecraft.runtime.adapters\n"
            "print(sorted({'pyspiel', 'pettingzoo', 'gymnasium', 'numpy'} & set(sys.modules)))")
    assert run_python(code).stdout.strip() == "[]"


def test_the_adapters_never_import_the_compiler():
    code = ("import sys\n"
            "import rulecraft.runtime.adapters.openspiel, rulecraft.runtime.adapters.pettingzoo, "
            "rulecraft.runtime.adapters.gym\n"
            "print('rulecraft.compiler' in sys.modules)")
    assert run_python(code).stdout.strip() == "False"
