"""Batch playouts: many seeded bot-against-bot matches, in parallel worker processes.

Match ``i`` of a batch seeded ``S`` is played with the seed :func:`match_seed` ``(S, i)``, which
depends on nothing else, exactly as ``rulecraft play GAME --seed <that seed> --bot <bot>`` plays
it (:func:`~rulecraft.runtime.match.seat_bots`, :meth:`~rulecraft.runtime.match.Match.advance`).
So the results are the same whatever the number of worker processes and however the matches are
shared out among them, and any match of a batch can be replayed on its own.

The workers are a :class:`concurrent.futures.ProcessPoolExecutor`; each builds the game once from
a picklable factory (a module-level function, or a :func:`functools.partial` of one), so the
batch works with every start method (fork, forkserver, spawn).
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
import math
import random
import statistics
import time
from typing import Callable

from rulecraft.errors import RulecraftError
from rulecraft.runtime.engine import Game
from rulecraft.runtime.match import Match, seat_bots

# Each worker gets about this many chunks of matches, so uneven match lengths even out.
CHUNKS_PER_WORKER = 4

_worker_game: Game | None = None


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` (from 0) of a batch seeded ``seed``; a function of both only."""
    return random.Random(f"rulecraft/batch/{seed}/{index}").randrange(10**9)


@dataclass(frozen=True)
class MatchResult:
    """One finished match: its index in the batch, its seed, the returns per team and its plies."""

    index: int
    seed: int
    returns: tuple
    plies: int


def play_bot_match(game: Game, seed: int, bot: str, index: int = 0) -> MatchResult:
    """Play one match of ``game`` seeded ``seed`` to the end, every team played by ``bot``.

    Raises :class:`RulecraftError` when the rules fail during the match; ValueError for an unknown
    ``bot`` name (see :func:`rulecraft.runtime.bots.make_bot`).
    """
    match = Match(game, seed, history=False)
    bots = seat_bots(game, bot)
    while not match.state.is_terminal():
        match.advance(bots)
    return MatchResult(index, seed, tuple(match.state.returns()), match.state.ply)


def _play_indices(game: Game, seed: int, bot: str, indices: range) -> list[MatchResult]:
    """Play the batch's matches ``indices``; a failure is re-raised naming the match and its seed."""
    results = []
    for index in indices:
        one_seed = match_seed(seed, index)
        try:
            results.append(play_bot_match(game, one_seed, bot, index))
        except RulecraftError as error:
            raise RulecraftError(f"match {index} (seed {one_seed}, replay it with --seed "
                                 f"{one_seed}): {error.message}", code=error.code) from None
    return results


def _start_worker(make_game: Callable[[], Game]) -> None:
    global _worker_game
    _worker_game = make_game()


def _play_chunk(seed: int, bot: str, indices: range) -> list[MatchResult] | tuple[str, str]:
    """A worker's chunk: its results, or the message and code of the error that stopped it
    (returned, not raised: a :class:`RulecraftError` subclass need not survive pickling)."""
    try:
        return _play_indices(_worker_game, seed, bot, indices)
    except RulecraftError as error:
        return error.message, error.code


@dataclass
class Batch:
    """A finished batch: what was played, how long it took, and every match's result by index."""

    game: str
    options: dict
    teams: tuple
    bot: str
    seed: int
    jobs: int
    seconds: float
    matches: list

    def summary(self) -> dict:
        """Per team the mean return and the wins, draws and losses; plies per match; games/s.

        A team wins a match when its return is above every other team's, loses when another
        team's is above its own, and draws otherwise (tied for the top).
        """
        teams = {}
        for team, name in enumerate(self.teams):
            own = [m.returns[team] for m in self.matches]
            best_other = [max(r for t, r in enumerate(m.returns) if t != team) for m in self.matches]
            wins = sum(mine > other for mine, other in zip(own, best_other))
            losses = sum(mine < other for mine, other in zip(own, best_other))
            teams[name] = {"mean_return": statistics.fmean(own), "wins": wins,
                           "draws": len(own) - wins - losses, "losses": losses}
        plies = [m.plies for m in self.matches]
        return {"teams": teams,
                "plies": {"mean": statistics.fmean(plies), "min": min(plies), "max": max(plies)},
                "games_per_s": len(self.matches) / self.seconds if self.seconds else math.inf}

    def to_json(self) -> dict:
        """The batch as JSON-ready data: its settings, :meth:`summary` (whose ``teams`` maps each
        team, in order, to its results) and every match."""
        return {"game": self.game, "options": self.options, "bot": self.bot, "seed": self.seed,
                "games": len(self.matches), "jobs": self.jobs, "seconds": self.seconds,
                **self.summary(), "matches": [asdict(m) for m in self.matches]}


def play_batch(make_game: Callable[[], Game], games: int, seed: int, *, jobs: int = 1,
               bot: str = "random") -> Batch:
    """Play ``games`` matches (match ``i`` seeded :func:`match_seed` ``(seed, i)``) in ``jobs``
    processes; returns the :class:`Batch`, its matches in index order.

    ``make_game`` builds the :class:`Game`; with ``jobs > 1`` it must be picklable (see the module
    docstring). ``jobs == 1`` plays in this process. Raises ValueError when ``games`` or ``jobs``
    is below 1, ValueError for an unknown ``bot``, and :class:`RulecraftError` naming the first
    failed match (by index) and its seed when the rules fail.
    """
    if games < 1 or jobs < 1:
        raise ValueError(f"a batch needs games >= 1 and jobs >= 1, not games={games}, jobs={jobs}")
    game = make_game()
    seat_bots(game, bot)  # an unknown bot fails here, before any worker starts
    start = time.perf_counter()
    if jobs == 1:
        matches = _play_indices(game, seed, bot, range(games))
    else:
        size = math.ceil(games / (jobs * CHUNKS_PER_WORKER))
        chunks = [range(first, min(first + size, games)) for first in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), initializer=_start_worker,
                                 initargs=(make_game,)) as pool:
            done = list(pool.map(_play_chunk, [seed] * len(chunks), [bot] * len(chunks), chunks))
        failures = [chunk for chunk in done if isinstance(chunk, tuple)]
        if failures:                                 # the first failed match, by index
            message, code = failures[0]
            raise RulecraftError(message, code=code)
        matches = [result for chunk in done for result in chunk]
    return Batch(game.id, dict(game.rules.options), tuple(game.teams), bot, seed, jobs,
                 time.perf_counter() - start, matches)
