"""The compile cache: compiled rule modules kept on disk, and loaded only when they check out.

An entry is keyed by a hash of everything that shapes the generated module: the spec text, the
options, every file of the compiler package (Python sources, grammar, templates; found
recursively, so a new compiler module is covered without listing it), the loader and the errors
it raises (``rulecraft/loader.py``, ``rulecraft/errors.py``), the runtime contract
(``runtime/tables.py``, and any runtime module the compiler imports) and the rulecraft version.

An entry named ``<folder>_<key>`` (the folder name sanitised to ASCII word characters) is three
files in ``$RULECRAFT_CACHE`` (default ``~/.cache/rulecraft``, created private): the module's
source (``.py``, readable; tracebacks point into it), its compiled code (``.<tag>.code``, saved on
first load: compiling a large module costs more than the rest of a load) and a manifest
(``.json``: the game, spec hash, options, spec path and the SHA-256 of the source), written last.
Each file is written to a temporary name and renamed into place. Before anything is executed the
source must match the manifest's hash and the code must carry the hash of its bytes and of that
source; an entry that is missing, corrupt or does not match is compiled anew, never executed and
never an error. The hashes guard against corruption and stray edits, not against someone who may
write the cache folder (who could run code as its owner anyway).

Loading is serialised per key, across threads (a lock per key) and processes (a file lock), and
a module is published in :data:`sys.modules` only once it has run to its end, so no thread ever
sees a half-imported module.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import logging
import marshal
import os
from pathlib import Path
import re
import sys
import tempfile
import threading
from typing import Callable

from filelock import FileLock

from rulecraft import __version__
from rulecraft.compiler import pycode

log = logging.getLogger(__name__)

PACKAGE = Path(__file__).resolve().parent          # the compiler package
ROOT = PACKAGE.parent
CONTRACT = ("rulecraft/loader.py", "rulecraft/errors.py", "runtime/tables.py")
MODULE_PREFIX = "rulecraft_rules_"
MANIFEST_FORMAT = 1

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def cache_dir() -> Path:
    """The cache folder: ``$RULECRAFT_CACHE``, else ``~/.cache/rulecraft``."""
    return Path(os.environ.get("RULECRAFT_CACHE") or Path.home() / ".cache" / "rulecraft")


def entry_name(folder_name: str, key: str) -> str:
    """The file stem of an entry: the game folder's name as ASCII word characters (at most 40;
    a folder name is untrusted), then the key."""
    safe = re.sub(r"\W", "_", folder_name, flags=re.ASCII)[:40] or "game"
    return f"{safe}_{key}"


def cache_key(spec_text: str, options: dict) -> str:
    """The key of a spec text compiled under ``options``: 16 hex digits (see the module docstring)."""
    digest = hashlib.sha256()
    for part in (spec_text, json.dumps(options, sort_keys=True, default=str), sources_digest(),
                 __version__):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def source_files() -> list[Path]:
    """Every file whose content shapes a generated module (see the module docstring), sorted."""
    compiler = [p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                and p.suffix not in (".pyc", ".pyo")]
    imported = set()
    for path in compiler:
        if path.suffix == ".py":
            imported.update(_runtime_imports(path.read_text(encoding="utf-8")))
    contract = [ROOT / name for name in CONTRACT] + [ROOT / "runtime" / f"{name}.py" for name in imported]
    return sorted(set(compiler) | {p for p in contract if p.is_file()})


def _runtime_imports(source: str) -> set[str]:
    """The runtime modules a compiler source imports (``rulecraft.runtime.X`` → ``X``)."""
    names = set()
    for node in ast.walk(pycode.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            continue
        names.update(m.split(".")[2] for m in modules
                     if m.startswith("rulecraft.runtime.") and len(m.split(".")) > 2)
    return names


def sources_digest() -> str:
    """The SHA-256 of :func:`source_files` (names and contents), computed again only when a
    file of the compiler or the runtime changes (checked by size and modification time)."""
    stamps = []
    for path in sorted([*PACKAGE.rglob("*"), *(ROOT / "runtime").glob("*.py"),
                        *(ROOT / name for name in CONTRACT)]):
        if path.is_file() and "__pycache__" not in path.parts:
            stat = path.stat()
            stamps.append((str(path), stat.st_mtime_ns, stat.st_size))
    return _digest_of(tuple(stamps))


@functools.lru_cache(maxsize=8)
def _digest_of(stamps: tuple) -> str:
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(str(path.relative_to(ROOT)).encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def load(spec_path: Path, spec_text: str, options: dict, build: Callable[[], str]):
    """The ``RuleTables`` of a spec under ``options``: from this process, else from a valid cache
    entry, else from ``build()`` (the module's source), which is then cached.

    Raises whatever ``build`` raises (a :class:`~rulecraft.errors.SpecError` for a bad spec).
    """
    key = cache_key(spec_text, options)
    folder = cache_dir()
    name = entry_name(spec_path.parent.name, key)
    module_name = MODULE_PREFIX + name
    loaded = sys.modules.get(module_name)
    if loaded is not None:
        return loaded.RULES
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with _thread_lock(name), FileLock(str(folder / f"{name}.lock")):
        loaded = sys.modules.get(module_name)
        if loaded is not None:
            return loaded.RULES
        entry = Entry(folder, name)
        module = entry.load(module_name)
        if module is None:
            source = build()
            code = pycode.code(source, str(entry.source))
            module = run_module(code, module_name, entry.source)
            entry.save(source, code, module.RULES, spec_path)
        sys.modules[module_name] = module
        return module.RULES


def run_module(code, module_name: str, path: Path | None = None):
    """Execute compiled module ``code`` as a fresh module (not published in sys.modules)."""
    module = type(sys)(module_name)
    if path is not None:
        module.__file__ = str(path)
    exec(code, module.__dict__)
    return module


def spec_paths(spec_hash: str) -> list[Path]:
    """The spec files of the cache entries compiled from a spec with this hash (newest first):
    where a pickled state's game can be compiled again. Unreadable manifests are skipped."""
    found = []
    folder = cache_dir()
    for manifest in folder.glob("*.json") if folder.is_dir() else ():
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
            if data.get("spec_hash") == spec_hash and isinstance(data.get("spec"), str):
                found.append((manifest.stat().st_mtime, Path(data["spec"])))
        except (OSError, ValueError, AttributeError):
            continue
    return [path for _, path in sorted(found, reverse=True)]


class Entry:
    """One cache entry's files (see the module docstring)."""

    def __init__(self, folder: Path, name: str):
        self.source = folder / f"{name}.py"
        self.manifest = folder / f"{name}.json"
        self.code = folder / f"{name}.{sys.implementation.cache_tag}.code"

    def load(self, module_name: str):
        """The entry's module, executed; None when the entry is missing or does not check out."""
        try:
            manifest = json.loads(self.manifest.read_text(encoding="utf-8"))
            source = self.source.read_bytes()
        except (OSError, ValueError):
            return None
        source_hash = hashlib.sha256(source).hexdigest()
        if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT \
                or manifest.get("source_sha256") != source_hash:
            log.warning("compile cache entry %s does not match its manifest: compiling anew", self.source)
            return None
        code = self._saved_code(source_hash)
        try:
            if code is None:
                code = pycode.code(source.decode("utf-8"), str(self.source))
                self._save_code(source_hash, code)
            return run_module(code, module_name, self.source)
        except Exception as error:  # a checked entry that still fails: compile it anew
            log.warning("compile cache entry %s failed to load (%s): compiling anew", self.source, error)
            return None

    def save(self, source: str, code, rules, spec_path: Path) -> None:
        """Write the entry: the source, its compiled ``code``, then the manifest that makes it
        valid (with ``rules``' game, spec hash and options)."""
        data = source.encode("utf-8")
        source_hash = hashlib.sha256(data).hexdigest()
        self._write(self.source, data)
        self._save_code(source_hash, code)
        manifest = {"format": MANIFEST_FORMAT, "game": rules.game_id, "spec_hash": rules.spec_hash,
                    "options": rules.options, "spec": str(spec_path.resolve()),
                    "source_sha256": source_hash, "rulecraft": __version__}
        self._write(self.manifest, json.dumps(manifest, indent=1, default=str).encode("utf-8"))

    def _save_code(self, source_hash: str, code) -> None:
        data = marshal.dumps(code)
        self._write(self.code, self._code_digest(source_hash, data) + data)

    def _saved_code(self, source_hash: str):
        try:
            data = self.code.read_bytes()
        except OSError:
            return None
        digest, code = data[:32], data[32:]
        if digest != self._code_digest(source_hash, code):
            return None
        try:
            return marshal.loads(code)
        except (ValueError, EOFError, TypeError):
            return None

    @staticmethod
    def _code_digest(source_hash: str, code: bytes) -> bytes:
        return hashlib.sha256(source_hash.encode("ascii") + code).digest()

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise


def _thread_lock(name: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(name, threading.Lock())
