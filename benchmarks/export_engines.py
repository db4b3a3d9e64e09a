"""Export the generated engines of this install: ``<game>.py`` per game, for ``bench --baseline``.

Run it with the interpreter of the release to compare against (it uses nothing but
``rulecraft.compiler.compile_source`` and ``game_names``, which every release has), from the
checkout whose games it should compile::

    python benchmarks/export_engines.py DIR [GAME ...]     # any release, as a file
    python -m rulecraft.benchmarks.export_engines DIR      # the current one

Each file is the module ``compile_source`` returns for the game with its default options, exactly
what that release's cache would hold; a game that release cannot compile is reported and left out.
``docs/benchmarks.md`` (the previous release, in the same run) says how the files are used.
"""

from __future__ import annotations

from pathlib import Path
import sys


def export_engines(folder: Path, games: list[str]) -> list[str]:
    """Write ``folder/<game>.py`` for each game (default: every game); returns the games written.

    A game that does not compile is reported on stderr and skipped.
    """
    from rulecraft.compiler import compile_source, game_names
    from rulecraft.errors import RulecraftError

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game in games or game_names():
        try:
            source = compile_source(game)
        except RulecraftError as error:
            print(f"{game}: not exported: {str(error).splitlines()[0]}", file=sys.stderr)
            continue
        (folder / f"{game}.py").write_text(source, encoding="utf-8")
        written.append(game)
    return written


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: python export_engines.py DIR [GAME ...]")
    done = export_engines(Path(sys.argv[1]), sys.argv[2:])
    print(f"exported {len(done)} engine(s) to {sys.argv[1]}: {', '.join(done)}")
