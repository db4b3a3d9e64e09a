"""How long ``rulecraft site build`` takes, by stage, for the published games.

Each round of :class:`SiteBench` builds every game of ``rulespecs/`` that has an English
rulebook, in all six languages, into a fresh temporary folder, with the compile cache warm (as
after the first build, which is made once before the rounds). It gives the wall time and this
process's CPU time, each for the whole build and for its two stages: generating the pages (texts,
checks, scenarios played by the runtime, Markdown, SVG) and MkDocs. On a machine shared with
other work the wall time grows with the load while the CPU time does not; both are kept.
Target: under 30 s per game in six languages.
"""

from __future__ import annotations

from pathlib import Path
import tempfile
import time

STAGES = ("generate", "mkdocs", "total")


def build_once(folders, languages) -> dict:
    """One full build in a temporary folder; returns the games published and the wall and CPU
    seconds per stage (``{"games": [...], "wall": {stage: s}, "cpu": {stage: s}}``).

    Raises ImportError without the ``site`` extra, and
    :class:`~rulecraft.errors.RulecraftError` when the site cannot be built.
    """
    from rulecraft.site.build import generate, run_mkdocs
    with tempfile.TemporaryDirectory(prefix="rulecraft-site-bench-") as folder:
        source, site = Path(folder) / "site-src", Path(folder) / "site"
        wall, cpu = time.perf_counter(), time.process_time()
        books = generate(folders, source, languages=languages, site_dir=site)
        wall_generated, cpu_generated = time.perf_counter(), time.process_time()
        run_mkdocs(source)
        wall_done, cpu_done = time.perf_counter(), time.process_time()
    return {"games": [book.slug for book in books],
            "wall": {"generate": wall_generated - wall, "mkdocs": wall_done - wall_generated,
                     "total": wall_done - wall},
            "cpu": {"generate": cpu_generated - cpu, "mkdocs": cpu_done - cpu_generated,
                    "total": cpu_done - cpu}}


class SiteBench:
    """The site build, once per round (see the module docstring).

    Building it makes the first, untimed build (warming the compile cache and the imports); raises
    ImportError without the ``site`` extra and :class:`~rulecraft.errors.RulecraftError` when the
    site cannot be built (no publishable game, texts not ready, MkDocs warnings).
    """

    section = "site"
    name = "rulebook"

    def __init__(self):
        from rulecraft.site.book import game_folders
        from rulecraft.site.texts import LANGUAGES
        self.folders, self.languages = game_folders(), tuple(LANGUAGES)
        games = build_once(self.folders, self.languages)["games"]
        self.info = {"games": games, "languages": list(self.languages)}

    def measure(self, round_index: int) -> dict:
        """One build: ``wall_<stage>`` and ``cpu_<stage>`` seconds for every stage of :data:`STAGES`."""
        built = build_once(self.folders, self.languages)
        return {f"{clock}_{stage}": built[clock][stage] for clock in ("wall", "cpu") for stage in STAGES}
