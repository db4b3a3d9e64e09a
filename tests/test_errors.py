"""The error-code registry: every code the sources use is registered with its meaning, and every
error is raised as the class of its code's family (so ``except LogError`` catches each log error)."""

from __future__ import annotations

import ast
from pathlib import Path
import re

import pytest

from rulecraft import codes, errors

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("rulecraft", "compiler", "runtime", "site", "benchmarks")
                 for p in (ROOT / folder).rglob("*.py"))
CLASSES = {name: value for name, value in vars(errors).items()
           if isinstance(value, type) and issubclass(value, errors.RulecraftError)}


def _raised() -> list:
    """``(file, line, class name, code)`` of every error made with an explicit code."""
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        local = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            for keyword in node.keywords:
                if keyword.arg == "code" and isinstance(keyword.value, ast.Constant):
                    found.append((path.relative_to(ROOT), node.lineno, node.func.id, keyword.value.value,
                                  local.get(node.func.id)))
    return found


def test_every_code_used_is_registered():
    used = {code for path in SOURCES for code in re.findall(r"\bRC\d{3}\b", path.read_text(encoding="utf-8"))}
    assert used - set(codes.CODES) == set()


def test_every_registered_code_is_used():
    used = {code for path in SOURCES for code in re.findall(r"\bRC\d{3}\b", path.read_text(encoding="utf-8"))}
    defaults = {cls.code for cls in CLASSES.values()}
    assert set(codes.CODES) - used - defaults == set()


def test_every_error_is_raised_as_its_familys_class():
    wrong = []
    for path, line, name, code, local in _raised():
        cls = CLASSES.get(name)
        if cls is None and local is not None:       # a class defined beside its use
            bases = {b.id for b in local.bases if isinstance(b, ast.Name)}
            cls = next((CLASSES[b] for b in bases if b in CLASSES), None)
        if cls is None:
            continue
        family = errors.FAMILIES[codes.family_of(code)]
        if not issubclass(cls, family):
            wrong.append(f"{path}:{line}: {name}(code={code!r}) is not a {family.__name__}")
    assert wrong == []


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_each_class_default_code_is_of_its_family(name):
    cls = CLASSES[name]
    assert cls.code in codes.CODES
    assert issubclass(cls, errors.FAMILIES[codes.family_of(cls.code)])


def test_each_family_has_its_class_under_the_one_root():
    assert set(errors.FAMILIES) == set(codes.FAMILY_TITLES)
    assert all(issubclass(cls, errors.RulecraftError) for cls in errors.FAMILIES.values())
