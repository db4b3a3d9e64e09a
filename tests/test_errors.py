"""The error-code registry: every code the sources use is registered with its meaning, and every
error is raised as the class of its code's family (so ``except LogError`` catches each log error)."""

from __future__ import annotations

import ast
from pathlib import Path
import re

import pytest

from rulecraft import codes, errors
from helpers import invoke

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


def test_every_code_has_a_hint_for_the_designer():
    assert set(codes.HINTS) == set(codes.CODES)
    empty = [code for code, hint in codes.HINTS.items() if len(hint.split()) < 4]
    assert empty == []


@pytest.mark.parametrize("family", sorted(errors.FAMILIES))
def test_an_error_without_a_hint_of_its_own_shows_its_codes(family):
    code = next(c for c in codes.CODES if codes.family_of(c) == family)
    shown = str(errors.FAMILIES[family]("something went wrong", code=code) if family not in "23" else
                errors.FAMILIES[family]("something went wrong", None, code=code))
    assert shown.splitlines()[-1] == f"  hint: {codes.HINTS[code]}"
    assert str(errors.RulecraftError("quoting another error", code=code, hint="")).count("hint:") == 0


PIG = ROOT / "examples" / "pig" / "game.yaml"


def _pig(folder: Path, old: str = "", new: str = "", texts: str | None = None) -> Path:
    text = PIG.read_text(encoding="utf-8")
    assert old in text
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")
    if texts is not None:
        (folder / "text").mkdir()
        (folder / "text" / "en.yaml").write_text(texts, encoding="utf-8")
    return folder


def _cases(tmp_path: Path) -> dict:
    """Per family, a command that fails with an error of that family."""
    log = tmp_path / "broken.log"
    log.write_text("not a log\n", encoding="utf-8")
    return {
        "1": ("play", "no-such-game"),
        "2": ("check", _pig(tmp_path / "syntax", 'when: "', 'when: "and ')),
        "3": ("check", _pig(tmp_path / "meaning", "  d6: {faces", "  d6: {fces")),
        "4": ("play", _pig(tmp_path / "play", 'evaluation: "', 'evaluation: "1 // (turns - turns) + '),
              "--seed", "1", "--bot", "greedy"),
        "5": ("replay", log),
        "6": ("scenario", "pig"),
        "7": ("play", _pig(tmp_path / "narration", texts='events:\n  bank: "{{ nothing_here }}"\n'),
              "--seed", "1"),
        "8": ("site", "build", "--game", "ball", "--lang", "EN"),
    }


@pytest.mark.parametrize("family", "12345678")
def test_a_raised_error_of_each_family_prints_a_hint(family, tmp_path):
    result = invoke(*_cases(tmp_path)[family])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    found = re.search(r"error\[(RC\d{3})\]", result.output)
    assert found and codes.family_of(found.group(1)) == family, result.output
    assert "  hint: " in result.output, result.output
