"""Fútbol de dados: the dice, the tackle odds and the match as the reglamento states them.

The expected values come from the seed (004, rules 3, 6, 9 and 10) and RULES-BRIEF §5 (table D2),
worked out here by hand, not read from the spec: the tackle odds are computed by expanding the
engine's own chance nodes exactly, so a changed die face, threshold or re-roll fails here.
"""

from __future__ import annotations

import re

import itertools
from fractions import Fraction
from math import comb

import pytest

from helpers import invoke, load_game, play_with_undo_and_resume, random_matches

from rulecraft.runtime.scenario import Scenario, run_scenario

SLUG = "futbol-dados"
SIXTH = Fraction(1, 6)


def _position(game, pieces: dict, fields: dict, steps: list):
    """The state after ``steps`` played from a turn start with ``pieces`` and ``fields``."""
    scenario = Scenario("probe", "probe", "6", "<test>", {}, [],
                        {"phase": "turn_start", "fields": fields, "pieces": pieces}, steps)
    return run_scenario(game, scenario)[-1].state


def _exact(state, done, dice: tuple = ()) -> Fraction:
    """The probability, over the engine's chance outcomes from ``state``, that the chance nodes
    end in a state where ``done`` holds. The expansion stops at the first decision or, when
    ``dice`` names dice, at the first chance node of another die."""
    if not state.is_chance_node() or dice and state.game.rules.dice[state.node().die].name not in dice:
        return Fraction(int(done(state)))
    total = Fraction(0)
    for outcome, probability in state.chance_outcomes():
        total += Fraction(probability).limit_denominator(10 ** 6) * _exact(_after(state, outcome), done, dice)
    return total


def _after(state, action):
    """A copy of ``state`` with ``action`` applied."""
    child = state.clone()
    child.apply(action)
    return child


def _tackle_odds(number: int, squares: int) -> Fraction:
    """The engine's chance that home's player ``number``, running ``squares`` squares straight
    onto away's carrier on E8, wins the ball (the expansion stops when the ball dice come)."""
    game = load_game(SLUG)
    start = f"E{8 - squares}"
    state = _position(game, {"away #4": "E8", "away #1": "E15", f"home #{number}": start},
                      {"to_move": "home", "ball": "E8", "holder": "away #4"},
                      [{"do": f"home #{number} to E8"}])
    tackler = game.rules.piece_labels.index(f"home #{number}")
    return _exact(state, lambda s: s.value("holder") == tackler, ("tackle_die",))


def _at_least(k: int, p: Fraction, n: int = 3) -> Fraction:
    """P(at least k successes in n independent trials of chance p)."""
    return sum(comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))


def test_the_dice_faces_have_their_seed_probabilities():
    """Three numeric d6, the R/E die (three R, three E), the tackle dice (one G, one orange,
    four P): each outcome's probability is its face count / 6 and they sum to 1."""
    dice = load_game(SLUG).rules.dice
    expected = {"numeric": {str(v): SIXTH for v in range(1, 7)},
                "flight_die": {"ground": Fraction(1, 2), "lofted": Fraction(1, 2)},
                "tackle_die": {"g": SIXTH, "orange": SIXTH, "p": Fraction(4, 6)}}
    game = load_game(SLUG)
    for name, faces in expected.items():
        die = dice[name]
        got = {game.display(die.type, o): Fraction(p).limit_denominator(1000)
               for o, p in zip(die.outcomes, die.probabilities)}
        assert got == faces, name
        assert sum(got.values()) == 1


@pytest.mark.parametrize("squares, odds", [(1, Fraction(91, 216)), (2, Fraction(16, 216)), (3, Fraction(1, 216))])
def test_players_7_to_11_need_one_g_per_square(squares, odds):
    assert _tackle_odds(9, squares) == odds


@pytest.mark.parametrize("squares, odds", [(1, Fraction(19, 27)), (2, Fraction(7, 27)), (3, Fraction(1, 27))])
def test_players_1_to_6_count_g_or_orange(squares, odds):
    assert _tackle_odds(3, squares) == odds


def test_player_7_from_four_squares_can_never_win():
    game = load_game(SLUG)
    state = _position(game, {"away #4": "E8", "away #1": "E15", "home #7": "E4"},
                      {"to_move": "home", "ball": "E8", "holder": "away #4"}, [{"do": "home #7 to E8"}])
    tackler = game.rules.piece_labels.index("home #7")
    assert state.value("need") == 4
    assert _exact(state, lambda s: s.value("holder") == tackler, ("tackle_die",)) == 0


@pytest.mark.parametrize("squares", [1, 2, 3])
def test_the_goalkeepers_second_roll_is_a_fresh_chance(squares):
    """Out of his area the goalkeeper tackles like players 1-6, and rolls all three dice again
    after a failure: 1 - (1 - P)^2."""
    first = _at_least(squares, Fraction(1, 3))
    assert _tackle_odds(1, squares) == 1 - (1 - first) ** 2


@pytest.mark.parametrize("squares", [1, 2, 3])
def test_player_5_rerolls_only_his_unfavourable_dice(squares):
    """Re-rolling only the dice that failed makes each die qualify with 1 - (2/3)^2 = 5/9 in
    all: P = P(Binomial(3, 5/9) >= k). Needing one face, a failure means all three failed, so
    it equals the goalkeeper's full re-roll; needing two or three, it differs from it."""
    assert _tackle_odds(5, squares) == _at_least(squares, Fraction(5, 9))
    assert (_tackle_odds(5, squares) == _tackle_odds(1, squares)) == (squares == 1)


def test_a_kick_stops_and_a_shot_scores_as_the_step_model_says():
    """The engine's goal chance of home #4's shot north from E12 (goal 4 squares away, away #3 on
    E14 braking a ground ball by one): ground scores on 5 or 6, lofted only on exactly 4."""
    game = load_game(SLUG)
    state = _position(game, {"home #4": "E12", "away #3": "E14", "away #1": "A15"},
                      {"to_move": "home", "ball": "E12", "holder": "home #4"},
                      [{"roll": 1}, {"roll": 1}, {"roll": 1}, {"roll": "ground"}, {"do": "shoot n"}])
    assert _exact(state, lambda s: s.value("goals", 0) == 1) == Fraction(1, 2) * Fraction(2, 6) + Fraction(1, 2) * SIXTH


def test_player_11_keeps_the_better_of_two_shot_dice():
    """Player 11's two shot dice are two exact chance nodes. From 4 squares, with nobody in the
    way, he keeps the higher die for a ground shot (a goal unless both are below 4: 3/4) and a 4
    for a lofted one (1 - (5/6)^2 = 11/36): 1/2 × 3/4 + 1/2 × 11/36 = 19/36."""
    game = load_game(SLUG)
    state = _position(game, {"home #11": "E12", "away #1": "A15"},
                      {"to_move": "home", "ball": "E12", "holder": "home #11"},
                      [{"roll": 1}, {"roll": 1}, {"roll": 1}, {"roll": "ground"}, {"do": "shoot n"}])

    def play(s):
        """Expand the shot dice; at the keep-die decision keep a 4 when there is one."""
        if s.is_chance_node():
            return sum(Fraction(p).limit_denominator(1000) * play(_after(s, o)) for o, p in s.chance_outcomes())
        if not s.is_terminal() and any(s.action_notation(a).startswith("keep die") for a in s.legal_actions()):
            lofted = s.value("shot_flight") == 1
            better = s.value("s2") == 4 if lofted else s.value("s2") > s.value("s1")
            keep = "keep die 2" if better else "keep die 1"
            return play(_after(s, next(a for a in s.legal_actions() if s.action_notation(a) == keep)))
        return Fraction(int(s.value("goals", 0) == 1))
    assert play(state) == Fraction(19, 36)


def test_penalty_odds_with_a_uniform_keeper_are_two_thirds():
    """Rule 10: 1 out, 6 goal, 2-5 saved on the keeper's square: with the keeper's square drawn
    uniformly, P(goal) = 1/6 + 4/6 × 3/4 = 2/3 (RULES-BRIEF D4), from the engine's outcomes."""
    game = load_game(SLUG, {"shootout": True})
    total = Fraction(0)
    for square in range(2, 6):
        scenario = Scenario("probe", "probe", "10", "<test>", {"shootout": True}, [],
                            {"phase": "shoot_out", "fields": {"half": 2, "kicker_team": "home", "starter": "home"}},
                            [{"do": f"keeper on {square}"}])
        state = run_scenario(game, scenario)[-1].state
        total += Fraction(1, 4) * _exact(state, lambda s: s.value("pen_goals", 0) == 1)
    assert total == Fraction(2, 3)


def test_the_keepers_square_is_hidden_from_the_kicker_until_revealed():
    game = load_game(SLUG, {"shootout": True})
    scenario = Scenario("probe", "probe", "10", "<test>", {"shootout": True}, [],
                        {"phase": "shoot_out", "fields": {"half": 2, "kicker_team": "home", "starter": "home"}},
                        [{"do": "keeper on 3"}])
    state = run_scenario(game, scenario)[-1].state
    dive = game.field("dive").base + 1      # away's keeper square
    assert state.s[dive] == 3
    assert state.observation(0)[dive] == -1 and state.observation(1)[dive] == 3
    state.apply(2)                           # the kicker rolls a 3: saved, and now revealed
    assert state.observation(0)[dive] == 3


def test_play_by_play_shows_each_turns_dice_and_the_die_chosen():
    """`rulecraft play` (bot against bot) plays a short match to its end: the kick-off, each
    turn's four ball dice, every kick with the die chosen, the final whistle."""
    result = invoke("play", SLUG, "--seed", "1", "-O", "period_turns=1")
    assert result.exit_code == 0, result.output
    shown = result.output
    assert re.search(r"^    dice: \d · \d · \d · (ground|lofted) \(rule 3\)$", shown, re.M)
    assert re.search(r"^    \S+ #\d+ kicks with die \d \(dice \d · \d · \d\): ", shown, re.M)
    assert "— Kick-off (rule 4)" in shown and "game over after " in shown


@pytest.mark.parametrize("options", [{}, {"area_depth": 1}, {"area_depth": 6}, {"shootout": True, "period_turns": 2},
                                     {"period_turns": 1}, {"shootout": False, "period_turns": 3}])
def test_each_option_plays_a_full_random_match(options):
    game = load_game(SLUG, options)
    assert random_matches(game, 1) < game.rules.max_plies


@pytest.mark.slow
def test_every_option_combination_plays():
    for depth, shootout, turns in itertools.product([1, 3, 6], [False, True], [1, 45]):
        game = load_game(SLUG, {"area_depth": depth, "shootout": shootout, "period_turns": turns})
        random_matches(game, 2)


@pytest.mark.slow
def test_a_thousand_random_matches_keep_the_declared_invariants():
    """1,000 random matches (seeded): no dead end, every spec invariant after every ply, below
    the ply bound, returns within range."""
    game = load_game(SLUG)
    longest = random_matches(game, 1000)
    print(f"futbol-dados: the longest of 1,000 random matches has {longest} plies "
          f"(limits: max_plies {game.rules.max_plies})")


@pytest.mark.slow
def test_a_person_plays_a_short_match_against_the_greedy_bot_with_undo_and_resume(tmp_path):
    """A scripted person (always the first legal action, one undo) plays home against the
    greedy bot; the match is saved, resumed from its log, finished, and the log replays."""
    shown = play_with_undo_and_resume(load_game(SLUG, {"period_turns": 1, "shootout": True}), 3, tmp_path, 12, 5)
    assert "full_time" in shown
