"""The one progress layer of the command line: a spinner with what is being done and the time
it has taken, for every run that lasts more than a couple of seconds (``site build``,
``simulate``, ``ladder``, ``bench``).

It is drawn only on a terminal: when the output is piped (tests, CI logs) nothing is drawn, so
the logs hold exactly what the command prints. It is transient: it vanishes when the run ends.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn


@contextmanager
def working(console: Console, description: str,
            fallback: Callable[[str], None] | None = None) -> Iterator[Callable[[str], None]]:
    """Show ``description`` with a spinner and the elapsed time on ``console`` while the block
    runs; yields ``update(text)``, which replaces the description (on a terminal) or passes the
    text to ``fallback`` (elsewhere; nothing when None). Takes a rich Console, returns nothing."""
    if not console.is_terminal:
        yield fallback or (lambda text: None)
        return
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task(description, total=None)
        yield lambda text: progress.update(task, description=f"{description}: {text}")
