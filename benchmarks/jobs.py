"""Batch playouts (``rulecraft simulate``) in one process against :data:`JOBS` processes.

:class:`JobsBench` times :func:`rulecraft.runtime.batch.play_batch` with random bots, the whole
call (the worker pool's start included, as a user sees it), once with ``jobs=1`` and once with
``jobs=JOBS`` per round, the order alternating from round to round. The batch is sized once,
before the rounds, so that one process plays it in about ``2 * seconds`` (the pool's start, some
tens of milliseconds, then costs the parallel side a few per cent).
"""

from __future__ import annotations

from functools import partial
import math

from rulecraft.benchmarks.peers import rulecraft_game
from rulecraft.runtime.batch import play_batch

JOBS = 2
BOT = "random"


def batch_rate(make_game, games: int, seed: int, jobs: int) -> float:
    """Games per second of one :func:`play_batch` call of ``games`` random-bot matches."""
    batch = play_batch(make_game, games, seed, jobs=jobs, bot=BOT)
    return games / batch.seconds


class JobsBench:
    """The batch runner's throughput with 1 and with :data:`JOBS` worker processes.

    Building it sizes the batch (doubling from ``2 * JOBS`` matches until one process needs half
    of ``seconds``, then scaling); raises :class:`~rulecraft.errors.RulecraftError` when the game does
    not compile or a match fails.
    """

    section = "jobs"

    def __init__(self, game: str, seconds: float):
        self.name = game
        self.make_game = partial(rulecraft_game, game)
        games = 2 * JOBS
        while True:
            elapsed = games / batch_rate(self.make_game, games, 0, 1)
            if elapsed >= seconds / 2:
                break
            games *= 2
        self.games = max(games, JOBS * math.ceil(games * 2 * seconds / elapsed / JOBS))
        self.info = {"game": game, "matches": self.games, "jobs": JOBS, "bot": BOT}

    def measure(self, round_index: int) -> dict:
        """One round: games per second with 1 process and with :data:`JOBS`, and their ratio."""
        order = (1, JOBS) if round_index % 2 == 0 else (JOBS, 1)
        rates = {jobs: batch_rate(self.make_game, self.games, round_index, jobs) for jobs in order}
        return {"one_process_games_per_s": rates[1], "parallel_games_per_s": rates[JOBS],
                "speedup": rates[JOBS] / rates[1]}
