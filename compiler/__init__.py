"""The rulecraft compiler: a game spec folder in, a module of Python rule tables out.

Pipeline: :mod:`rulecraft.loader` (YAML 1.2, positions) → :mod:`reader` (the sections; rule
strings parsed by :mod:`parser`/:mod:`syntax` and checked by :mod:`checker` into the typed IR of
:mod:`ir`) → :mod:`optimize` (IR passes) → :mod:`module` (Python ``ast``, unparsed once).
Compiled modules are cached under ``$RULECRAFT_CACHE`` (default ``~/.cache/rulecraft``) by a
hash of the spec, the options, the compiler's sources and the rulecraft version.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
from pathlib import Path
import sys

from rulecraft import __version__
from rulecraft.errors import InputError, RulecraftError
from rulecraft.loader import load_yaml, read_spec
from rulecraft.compiler.module import generate
from rulecraft.compiler.optimize import optimize as optimize_game
from rulecraft.compiler.reader import SpecReader

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
    known = ", ".join(game_names()) or "none"
    raise InputError(f"no game called '{game}' (known games: {known})", code="RC105")


def _compiler_text() -> str:
    """The sources that shape a generated module (the compiler's, the loader's and the runtime's
    contract): editing any of them invalidates every cached module."""
    folder = Path(__file__).parent
    files = sorted(p for p in folder.rglob("*") if p.suffix in (".py", ".lark"))
    files += [folder.parent / "rulecraft" / "loader.py", folder.parent / "runtime" / "tables.py",
              folder.parent / "runtime" / "support.py"]
    return "".join(p.read_text(encoding="utf-8") for p in files if p.is_file())


def _key(spec_text: str, options: dict) -> str:
    digest = hashlib.sha256()
    for part in (spec_text, json.dumps(options, sort_keys=True), _compiler_text(), __version__):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:16]


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
    tests). Raises :class:`SpecError` for any mistake in the spec.
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
    spec_hash = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return generate(game_ir, spec_path=_display(path), spec_hash=spec_hash, version=__version__,
                    optimize=optimize)


def check(game, options: dict | None = None) -> tuple[str, list]:
    """Validate a spec fully (check it, compile it, import the result); returns the game id and
    the checker's warnings (:class:`rulecraft.errors.SpecWarning`). Raises :class:`SpecError`."""
    warnings = read_game(game, options).warnings
    return load_rules(game, options, use_cache=False).game_id, warnings


def load_rules(game, options: dict | None = None, *, use_cache: bool = True):
    """Compile (or fetch from the cache) and import a game's rules; returns its ``RuleTables``."""
    path = find_game(game)
    text = read_spec(str(path))
    options = dict(options or {})
    cache_dir = Path(os.environ.get("RULECRAFT_CACHE", Path.home() / ".cache" / "rulecraft"))
    key = _key(text, options)
    module_path = cache_dir / f"{path.parent.name}_{key}.py"
    if not (use_cache and module_path.is_file()):
        source = compile_source(path, options)
        if use_cache:
            cache_dir.mkdir(parents=True, exist_ok=True)
            temporary = module_path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(source, encoding="utf-8")
            temporary.replace(module_path)
        else:
            return _import_source(source, f"rulecraft_rules_{path.parent.name}_{key}")
    return _import_file(module_path)


def _import_file(module_path: Path):
    """Import a cached module, from its compiled code when saved beside it (the code is saved on
    first use: Python's own bytecode cache may be switched off, and compiling a large module
    costs more than the rest of a load)."""
    name = f"rulecraft_rules_{module_path.stem}"
    if name in sys.modules:
        return sys.modules[name].RULES
    code_path = module_path.with_suffix(f".{sys.implementation.cache_tag}.code")
    try:
        code = marshal.loads(code_path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        code = compile(module_path.read_text(encoding="utf-8"), str(module_path), "exec")
        temporary = code_path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(marshal.dumps(code))
        temporary.replace(code_path)
    module = type(sys)(name)
    module.__file__ = str(module_path)
    sys.modules[name] = module
    exec(code, module.__dict__)
    return module.RULES


def _import_source(source: str, name: str):
    module = type(sys)(name)
    sys.modules[name] = module
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module.RULES


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)

