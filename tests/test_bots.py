"""Bots: the greedy bot (one decision ahead on the spec's evaluation) beats the random bot over a
seeded series of matches, seat by seat; a seeded series is reproducible."""

from __future__ import annotations

from rulecraft.runtime.bots import GreedyBot, RandomBot
from rulecraft.runtime.seeding import bot_rng, chance_outcome

from helpers import load_game

SERIES = 40


def greedy_against_random(game: str, matches: int) -> list[float]:
    """Greedy's return in each of ``matches`` seeded matches, greedy taking the first seat in
    even-numbered matches and the second in odd-numbered ones."""
    loaded = load_game(game)
    results = []
    for number in range(matches):
        greedy_seat = number % 2
        bots = [RandomBot(), RandomBot()]
        bots[greedy_seat] = GreedyBot()
        state = loaded.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(chance_outcome(state, number))
            else:
                state.apply(bots[state.current_player()].choose(state, bot_rng(number, state.ply)))
        results.append(state.returns()[greedy_seat])
    return results


def test_greedy_beats_random_at_pig():
    results = greedy_against_random("pig", SERIES)
    wins = sum(r > 0 for r in results)
    assert wins >= 0.7 * SERIES, results
    assert sum(r > 0 for r in results[0::2]) > SERIES / 4 and sum(r > 0 for r in results[1::2]) > SERIES / 4


def test_greedy_beats_random_at_tictactoe():
    results = greedy_against_random("tictactoe", SERIES)
    assert sum(r > 0 for r in results) > SERIES / 2, results
    assert sum(r < 0 for r in results) <= SERIES / 10, results


def test_a_seeded_series_is_reproducible():
    assert greedy_against_random("pig", 6) == greedy_against_random("pig", 6)
