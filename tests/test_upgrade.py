"""``rulecraft fmt --upgrade``: a spec written with the old selections ``x in S where C`` is
rewritten into comprehensions that play exactly as before, keeping its comments and layout.

Each repo spec is turned back into the old forms here (the reverse rewrite, over the same
position edits the upgrade makes), upgraded, and played against the spec itself: the same action
ids and seeded random playthroughs (legal actions, notations, players, returns).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Token, Tree

from helpers import load_game
from test_golden import encoding, playthrough
from rulecraft.compiler import check, find_game
from rulecraft.compiler.parser import token_tree
from rulecraft.compiler.rewrite import Edit
from rulecraft.compiler.upgrade import edited, upgraded_text
from rulecraft.loader import load_yaml

GAMES = ["tictactoe", "pig", "breakthrough", "connect_four", "othello", "taktinen", "ball"]
SEEDS = range(4)


def _span(node) -> tuple:
    tokens = [node] if isinstance(node, Token) else list(node.scan_values(lambda v: isinstance(v, Token)))
    return tokens[0].start_pos, tokens[-1].end_pos


def _old_edits(rule) -> list:
    """Edits writing each comprehension of ``rule`` the old way: ``f(x for x in S where C)`` →
    ``f(x in S where C)``, ``any(C for x in S)`` → ``any(x in S where C)`` (and ``all``),
    ``[y for y in S where C]`` → ``y in S where C``."""
    tree = token_tree(rule)
    found = []
    for node in tree.iter_subtrees() if tree is not None else ():
        if node.data not in ("sole_comprehension", "comprehension"):
            continue
        sole = node.data == "sole_comprehension"
        value, binder = node.children[2:4] if sole else node.children[1:3]
        _, var, _, source, condition = binder.children
        identity = isinstance(value, Tree) and value.data == "name" and str(value.children[0]) == str(var)
        start, end = (_span(value)[0], _span(binder)[1]) if sole else _span(node)
        if identity and condition is not None:
            found.append(Edit(start, end, (_span(var), " in ", (_span(source)[0], _span(binder)[1])), ()))
        elif sole and not identity and condition is None and str(node.children[0]) in ("any", "all"):
            found.append(Edit(start, end, (_span(var), " in ", _span(source), " where ", _span(value)), ()))
    return found


def _old_copy(game: str, folder: Path) -> Path:
    """A copy of ``game``'s folder under ``folder`` whose spec uses the old selections."""
    copy = folder / game
    shutil.copytree(find_game(game).parent, copy)
    spec = copy / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(edited(text, load_yaml(str(spec), text), _old_edits), encoding="utf-8")
    return spec


def _deprecations(spec: Path) -> int:
    return sum(1 for w in check(str(spec))[1] if w.code == "RC373")


@pytest.mark.parametrize("game", GAMES)
def test_an_upgraded_old_spec_plays_as_the_spec(game, tmp_path):
    spec = _old_copy(game, tmp_path)
    assert _deprecations(spec) > 0
    spec.write_text(upgraded_text(str(spec), spec.read_text(encoding="utf-8")), encoding="utf-8")
    assert _deprecations(spec) == 0
    original, upgraded = load_game(game), load_game(str(spec))
    assert encoding(upgraded) == encoding(original)
    assert [playthrough(upgraded, seed) for seed in SEEDS] == [playthrough(original, seed) for seed in SEEDS]


def test_upgrading_twice_is_upgrading_once(tmp_path):
    spec = _old_copy("tictactoe", tmp_path)
    once = upgraded_text(str(spec), spec.read_text(encoding="utf-8"))
    assert once != spec.read_text(encoding="utf-8")
    spec.write_text(once, encoding="utf-8")
    assert upgraded_text(str(spec), once) == once


OLD = '''game: {id: g, title: G, teams: [a, b]}   # the title stays
state:
  n: {type: int}
turn:
  - {phase: p, rule: "1", do: "n += count(t in teams where t != a)"}
triggers:
  - rule: "2"
    # a comment between the keys
    when: >-
      any(t in teams where
          t == a and n > 1)   # the YAML comment after it
    do: finish
end: {rule: "2", returns: "0"}
limits: {max_plies: 3}
'''


def test_comments_quoting_and_layout_survive(tmp_path):
    spec = tmp_path / "game.yaml"
    spec.write_text(OLD, encoding="utf-8")
    assert upgraded_text(str(spec), OLD) == OLD.replace(
        "count(t in teams where t != a)", "count(t for t in teams where t != a)").replace(
        "any(t in teams where\n          t == a and n > 1)", "any(t == a and n > 1 for t in teams)")


def _fmt(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulecraft", "fmt", *args], capture_output=True, text=True)


def test_fmt_check_diff_and_output(tmp_path):
    spec = tmp_path / "game.yaml"
    spec.write_text(OLD, encoding="utf-8")
    checked = _fmt("--upgrade", "--check", "--diff", str(spec))
    assert checked.returncode == 1 and "+  - {phase: p, rule: \"1\", do: \"n += count(t for t in teams" in checked.stdout
    assert spec.read_text(encoding="utf-8") == OLD
    out = tmp_path / "new.yaml"
    assert _fmt("--upgrade", "-o", str(out), str(spec)).returncode == 0
    assert spec.read_text(encoding="utf-8") == OLD and out.read_text(encoding="utf-8") == upgraded_text(str(spec), OLD)
    assert _fmt("--upgrade", str(spec)).returncode == 0
    assert _fmt("--upgrade", "--check", str(spec)).returncode == 0


@pytest.mark.parametrize("args, code", [
    (["--upgrade", "no_such_game"], "RC118"),
    (["--upgrade", "-o", "/no/such/folder/game.yaml", "tictactoe"], "RC118"),
    (["tictactoe"], "RC118"),
])
def test_fmt_refusals(args, code):
    result = _fmt(*args)
    assert result.returncode == 1 and f"error[{code}]" in result.stderr and "Traceback" not in result.stderr


def test_fmt_refuses_a_spec_that_does_not_compile(tmp_path):
    spec = tmp_path / "game.yaml"
    spec.write_text(OLD.replace("n > 1", "nn > 1"), encoding="utf-8")
    result = _fmt("--upgrade", str(spec))
    assert result.returncode == 1 and "error[RC119]" in result.stderr and "unknown name 'nn'" in result.stderr


@pytest.mark.parametrize("game", GAMES)
def test_no_spec_of_the_repo_uses_a_deprecated_form(game):
    assert _deprecations(find_game(game)) == 0
