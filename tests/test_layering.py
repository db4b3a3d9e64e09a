"""The pipeline's layers: the runtime never imports the compiler, and a generated rule module
imports only the runtime (and ``fractions``) and calls nothing that could run spec text."""

from __future__ import annotations

import ast
import json
from pathlib import Path
import subprocess
import sys

import pytest

from rulecraft.compiler import compile_source, game_names

from helpers import REPO

RUNTIME_SOURCES = sorted((REPO / "runtime").rglob("*.py"))
FORBIDDEN_CALLS = {"eval", "exec", "compile", "open", "__import__", "getattr", "setattr", "globals",
                   "locals", "vars", "input", "breakpoint"}


def imported_modules(source: str, package: str | None = None) -> set[str]:
    """Every module an import statement in ``source`` names (anywhere, functions included).

    Relative imports are resolved against ``package`` (the dotted name of the file's package).
    """
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = (package or "").split(".")
                base = base[:len(base) - node.level + 1]
                names.add(".".join(base + ([node.module] if node.module else [])))
            else:
                names.add(node.module)
    return names


def _package_of(path: Path) -> str:
    """The dotted package name of a runtime source file (``runtime/`` is ``rulecraft.runtime``)."""
    parts = path.relative_to(REPO / "runtime").parent.parts
    return ".".join(("rulecraft", "runtime") + parts)


@pytest.mark.parametrize("path", RUNTIME_SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_runtime_source_imports_no_compiler(path):
    modules = imported_modules(path.read_text(encoding="utf-8"), _package_of(path))
    assert not [m for m in modules if m.split(".")[:2] == ["rulecraft", "compiler"] or m == "compiler"]


IMPORT_EVERY_RUNTIME_MODULE = """
import importlib, json, pkgutil, sys
import rulecraft.runtime
missing = []
for info in pkgutil.walk_packages(rulecraft.runtime.__path__, "rulecraft.runtime."):
    try:
        importlib.import_module(info.name)
    except ModuleNotFoundError as error:   # an optional third-party dependency (the rl extra)
        if (error.name or "").startswith("rulecraft"):
            raise
        missing.append(info.name)
print(json.dumps({"loaded": sorted(m for m in sys.modules if m.startswith("rulecraft")),
                  "missing": missing}))
"""


def test_importing_the_whole_runtime_loads_no_compiler():
    done = subprocess.run([sys.executable, "-c", IMPORT_EVERY_RUNTIME_MODULE], capture_output=True,
                          text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    runtime = [m for m in report["loaded"] if m.startswith("rulecraft.runtime.")]
    assert {"rulecraft.runtime.engine", "rulecraft.runtime.scenario", "rulecraft.runtime.logs"} <= set(runtime)
    assert [m for m in report["loaded"] if m.startswith("rulecraft.compiler")] == []


@pytest.mark.parametrize("game", game_names())
def test_generated_module_imports_only_the_runtime(game):
    source = compile_source(game)
    modules = imported_modules(source)
    assert modules, "a rule module imports its table shapes from the runtime"
    assert {m for m in modules if m != "fractions" and not m.startswith("rulecraft.runtime")} == set()
    calls = {node.func.id for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert calls & FORBIDDEN_CALLS == set()
