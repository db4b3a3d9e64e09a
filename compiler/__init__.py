"""The rulecraft compiler: a game spec folder in, a module of Python rule tables out.

Pipeline: :mod:`rulecraft.loader` (YAML 1.2, positions) → :mod:`reader` (the sections; rule
strings parsed by :mod:`parser`/:mod:`syntax` and checked by :mod:`checker` into the typed IR of
:mod:`ir`) → :mod:`optimize` (IR passes) → :mod:`module` (Python ``ast``, unparsed once).
Compiled modules are cached under ``$RULECRAFT_CACHE`` (default ``~/.cache/rulecraft``) by
:mod:`.cache`. Importing this
package lets the runtime find the game of a pickled state again
(:func:`rulecraft.runtime.registry.set_loader`).
"""

from __future__ import annotations

import hashlib
import re
import os
from pathlib import Path

from rulecraft import __version__
from rulecraft.errors import InputError, RulecraftError, SpecError
from rulecraft.compiler import cache, pycode
from rulecraft.compiler.module import generate
from rulecraft.compiler.optimize import optimize as optimize_game
from rulecraft.compiler.reader import SpecReader
from rulecraft.loader import load_yaml, read_spec
from rulecraft.runtime import registry

__all__ = ["compile_source", "load_rules", "find_game", "game_names", "check", "read_game"]

REPO_ROOT = Path(__file__).resolve().parent.parent
GAME_FOLDERS = ("rulespecs", "examples")


def game_names(kind: str | None = None) -> list[str]:
    """The slugs of the games under ``rulespecs/`` and ``examples/`` (or only ``kind``)."""
    names = []
    for folder in (kind,) if kind else GAME_FOLDERS:
        for root in _roots():
            base = root / folder
            if base.is_dir():
                names.extend(p.name for p in sorted(base.iterdir()) if (p / "game.yaml").is_file())
    return sorted(set(names))


def _roots():
    return [Path.cwd(), REPO_ROOT] if Path.cwd() != REPO_ROOT else [REPO_ROOT]


def find_game(game: str | os.PathLike) -> Path:
    """Resolve a game name or path to its ``game.yaml``.

    Accepts a path to ``game.yaml``, a folder holding one, or a slug found under ``rulespecs/``
    or ``examples/``. Raises :class:`RulecraftError` (RC105) naming the known games otherwise.
    """
    path = Path(game)
    if path.is_file():
        return path
    if (path / "game.yaml").is_file():
        return path / "game.yaml"
    for root in _roots():
        for folder in GAME_FOLDERS:
            candidate = root / folder / str(game) / "game.yaml"
            if candidate.is_file():
                return candidate
    by_id = _game_with_id(str(game))
    if by_id is not None:
        return by_id
    known = ", ".join(game_names()) or "none"
    raise InputError(f"no game called '{game}' (known games: {known})", code="RC105")


def _game_with_id(name: str) -> Path | None:
    """The ``game.yaml`` under ``rulespecs/`` or ``examples/`` whose ``game: id:`` is ``name``:
    a slug may differ from its spec's id (``street-soccer`` is ``street_soccer``), and logs and
    saves name a game by its id. Only a valid name is looked up; a spec that does not read as
    YAML is passed over (``rulecraft check`` reports it)."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,63}", name, flags=re.ASCII):
        return None
    for root in _roots():
        for folder in GAME_FOLDERS:
            base = root / folder
            for candidate in sorted(base.glob("*/game.yaml")) if base.is_dir() else []:
                try:
                    head = load_yaml(str(candidate)) or {}
                except SpecError:
                    continue
                meta = head.get("game") if isinstance(head, dict) else None
                if isinstance(meta, dict) and meta.get("id") == name:
                    return candidate
    return None


def spec_hash(text: str) -> str:
    """The hash a compiled module, a log and a saved state name a spec revision by: 16 hex digits."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def read_game(game, options: dict | None = None):
    """The checked IR (:class:`rulecraft.compiler.ir.GameIR`) of a game spec under ``options``,
    before optimisation: the static facts of the game (board, areas, tables, rule ids) and the
    checker's warnings. Raises :class:`SpecError` for any mistake in the spec."""
    path = find_game(game)
    return SpecReader(load_yaml(str(path), read_spec(str(path))), str(path), options).build()


def compile_source(game, options: dict | None = None, *, optimize: bool = True) -> str:
    """Compile a game spec into the source of its rule-table module (no cache).

    ``options`` maps option names to values (strings from the command line are converted);
    ``optimize`` false skips the optimising passes (the plain translation, for differential
    tests). Raises :class:`SpecError` for any mistake in the spec (RC329 for an option the spec
    does not declare).
    """
    path = find_game(game)
    text = read_spec(str(path))
    game_ir = SpecReader(load_yaml(str(path), text), str(path), options).build()
    if optimize:
        def allocate(size: int) -> int:
            base = game_ir.slots
            game_ir.slots += size
            return base
        optimize_game(game_ir, allocate)
    else:
        game_ir.piece_index = None
    return generate(game_ir, spec_path=_display(path), spec_hash=spec_hash(text), version=__version__,
                    optimize=optimize)


def check(game, options: dict | None = None) -> tuple[str, list]:
    """Validate a spec fully (check it, compile it, import the result); returns the game id and
    the checker's warnings (:class:`rulecraft.errors.SpecWarning`). Raises :class:`SpecError`."""
    warnings = read_game(game, options).warnings
    return load_rules(game, options, use_cache=False).game_id, warnings


def load_rules(game, options: dict | None = None, *, use_cache: bool = True):
    """Compile (or fetch from the cache, :mod:`.cache`) and import a game's rules; returns its
    ``RuleTables``. Raises :class:`SpecError` for a bad spec and RC105 for an unknown game."""
    path = find_game(game)
    options = dict(options or {})
    if not use_cache:
        source = compile_source(path, options)
        name = cache.MODULE_PREFIX + cache.entry_name(path.parent.name, "unchecked")
        return cache.run_module(pycode.code(source, f"<{name}>"), name).RULES
    return cache.load(path, read_spec(str(path)), options, lambda: compile_source(path, options))


def _rules_for_state(game_id: str, wanted_hash: str, options: dict):
    """The rules of a pickled state's game (the runtime registry's loader): compiled through the
    cache from the game named ``game_id`` or from a spec the cache remembers, whichever has the
    spec hash ``wanted_hash``; None when neither has."""
    candidates = []
    try:
        candidates.append(find_game(game_id))
    except RulecraftError:
        pass
    candidates += cache.spec_paths(wanted_hash)
    for path in candidates:
        try:
            if spec_hash(read_spec(str(path))) == wanted_hash:
                return load_rules(path, options)
        except RulecraftError:
            continue
    return None


registry.set_loader(_rules_for_state)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)

