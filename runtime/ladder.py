"""The bot ladder: is each rung of a list of bots stronger than the one below it?

For each adjacent pair of rungs (weaker, stronger) :func:`run_ladder` plays ``games`` seeded
matches with :func:`rulecraft.runtime.batch.play_batch` and per-side bots, the stronger rung on
the first team in the first half of the matches and on the second team in the other half (two
batches, seeded by :func:`rung_seed`), so the figures are the same for any number of jobs.
The stronger rung's score is (wins + ½ draws) / matches, given with its 95 % Wilson score
interval (E. B. Wilson, "Probable inference, the law of succession, and statistical
inference", JASA 22, 1927). A rung *holds* when the interval's lower bound is above ½, or when
the stronger rung lost no match (in a game the weaker side can never win, such as tic-tac-toe
between good players, every match may be a draw).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
import math
import random
from typing import Callable

from rulecraft.runtime.batch import play_batch
from rulecraft.runtime.bots import bot_problem, timed
from rulecraft.runtime.engine import Game

#: the two-sided normal quantile of a 95 % interval
Z95 = 1.959963984540054


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (Wilson 1927) of a proportion: ``score`` successes (a draw
    counts ½) out of ``n`` trials, at normal quantile ``z`` (95 % by default); returns
    ``(low, high)``. Raises ValueError when ``n < 1`` or ``score`` is outside 0 … n."""
    if n < 1 or not 0 <= score <= n:
        raise ValueError(f"a Wilson interval needs n >= 1 and 0 <= score <= n, not {score} of {n}")
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Rung:
    """One step of the ladder: the weaker and stronger bots, the stronger's wins, draws and
    losses over ``matches``, its score and 95 % Wilson interval, and whether the rung holds."""

    weaker: str
    stronger: str
    matches: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    holds: bool


def rung_seed(seed: int, pair: int, seating: int) -> int:
    """The batch seed of the ``pair``-th rung's ``seating`` (0: the stronger plays the first
    team, 1: the second) in a ladder seeded ``seed``; a function of the three alone."""
    return random.Random(f"rulecraft/ladder/{seed}/{pair}/{seating}").randrange(10**9)


def ladder_problem(game: Game, rungs: list[str]) -> str | None:
    """Why ``rungs`` cannot be laddered on ``game`` (a sentence for the user), or None: the game
    must have two teams, and there must be at least two rungs, each a single bot
    (:func:`~rulecraft.runtime.bots.bot_problem`; no per-side spec) with an iteration budget,
    not a time budget: the ladder's figures are reproducible from its seed."""
    if game.num_teams != 2:
        return f"the ladder needs a two-team game; {game.id} has {game.num_teams} teams"
    if len(rungs) < 2:
        return f"the ladder needs at least two rungs (e.g. random,greedy), not '{','.join(rungs)}'"
    for rung in rungs:
        if "=" in rung:
            return f"a rung is one bot for both sides, not '{rung}'"
        problem = bot_problem(rung)
        if problem is not None:
            return problem
        if timed(rung):
            return (f"rung '{rung}': the ladder's matches are seeded, and a time budget would "
                    "make them depend on the machine's speed; give iterations (e.g. mcts:200)")
    return None


def run_ladder(make_game: Callable[[], Game], rungs: list[str], games: int, seed: int, *,
               jobs: int = 1) -> list[Rung]:
    """Play the ladder (see the module docstring): ``games`` matches (at least 2; an odd one
    goes to the first seating) for each adjacent pair of ``rungs``, weakest first, in ``jobs``
    processes; returns one :class:`Rung` per pair. Raises ValueError for what
    :func:`ladder_problem` refuses or ``games < 2``, and
    :class:`~rulecraft.errors.RulecraftError` when the rules fail during a match."""
    game = make_game()
    problem = ladder_problem(game, rungs)
    if problem is None and games < 2:
        problem = f"the ladder needs at least 2 matches per rung (both seatings), not {games}"
    if problem is not None:
        raise ValueError(problem)
    first, second = game.teams
    results = []
    for pair, (weaker, stronger) in enumerate(zip(rungs, rungs[1:])):
        wins = draws = losses = 0
        for seating, count in enumerate(((games + 1) // 2, games // 2)):
            sides = (stronger, weaker) if seating == 0 else (weaker, stronger)
            batch = play_batch(make_game, count, rung_seed(seed, pair, seating), jobs=jobs,
                               bot=f"{first}={sides[0]},{second}={sides[1]}")
            for match in batch.matches:
                mine, other = match.returns[seating], match.returns[1 - seating]
                wins += mine > other
                losses += mine < other
                draws += mine == other
        score = wins + draws / 2
        low, high = wilson_interval(score, games)
        results.append(Rung(weaker, stronger, games, wins, draws, losses, score / games, low,
                            high, low > 0.5 or losses == 0))
    return results


def ladder_json(game: Game, rungs: list[Rung], games: int, seed: int) -> dict:
    """The ladder's figures as JSON-ready data: the game, matches per rung, the seed, and every
    :class:`Rung` (the interval is the 95 % Wilson score interval)."""
    return {"game": game.id, "games": games, "seed": seed, "interval": "wilson-95",
            "rungs": [asdict(rung) for rung in rungs]}
