"""The compile cache: one compilation per key however many threads or processes ask at once, a
corrupt entry rebuilt, an edited entry never executed, a key that changes with everything that
shapes the module (compiler files, loader, runtime contract), a sanitised entry name, and
pickled states that find their game without executing the cache folder."""

from __future__ import annotations

import json
from pathlib import Path
import pickle
import shutil
import subprocess
import sys
import threading
import time

import pytest

from rulecraft.compiler import cache, load_rules, pycode
import rulecraft.compiler as compiler

from helpers import REPO, load_game


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty cache folder, and no rules of tic-tac-toe imported in this process."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULECRAFT_CACHE", str(folder))
    forget("tictactoe")
    yield folder
    forget("tictactoe")


def forget(stem: str) -> None:
    """Drop imported rule modules of ``stem``, as in a fresh process."""
    for name in [n for n in sys.modules if n.startswith(f"{cache.MODULE_PREFIX}{stem}_")]:
        del sys.modules[name]


def entry_files(folder: Path, stem: str = "tictactoe") -> dict:
    """The entry's files by suffix: py, json, code."""
    found = {}
    for path in folder.glob(f"{stem}_*"):
        kind = path.suffix.lstrip(".")
        if kind in ("py", "json", "code"):
            found[kind] = path
    return found


def test_two_threads_compiling_one_key_compile_once_and_share_a_whole_module(fresh_cache, monkeypatch):
    builds = []
    real = compiler.compile_source

    def slow_compile(*args, **kwargs):
        builds.append(threading.get_ident())
        source = real(*args, **kwargs)
        time.sleep(0.3)                     # a wide window for the other thread to look in
        return source

    monkeypatch.setattr(compiler, "compile_source", slow_compile)
    start = threading.Barrier(4)
    results, failures = [], []

    def load():
        start.wait()
        try:
            results.append(load_rules("tictactoe"))
        except Exception as error:         # collected: the test asserts there were none
            failures.append(error)

    threads = [threading.Thread(target=load) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and len(builds) == 1
    assert len({id(rules) for rules in results}) == 1 and results[0].game_id == "tictactoe"



@pytest.mark.parametrize("use_cache", [False, True])
def test_compiling_waits_while_another_thread_runs_pythons_compiler(fresh_cache, use_cache):
    # CPython 3.11's AST converter counts its recursion per interpreter: two threads in it at once
    # can fail with "AST constructor recursion depth mismatch" (a CI run met it), so every
    # compilation of a game's module takes one lock; holding it here must hold the compilation.
    done = threading.Event()

    def load():
        load_rules("tictactoe", use_cache=use_cache)
        done.set()

    with pycode.LOCK:
        worker = threading.Thread(target=load)
        worker.start()
        assert not done.wait(1.0)
    assert done.wait(30.0)
    worker.join()

PROCESS_SCRIPT = """
import sys, time
from rulecraft.compiler import load_rules
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
print(load_rules("tictactoe").game_id)
"""


def test_two_processes_compiling_one_key_both_succeed(fresh_cache):
    begin = str(time.time() + 2.0)
    processes = [subprocess.Popen([sys.executable, "-c", PROCESS_SCRIPT, begin], cwd=REPO,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
    outputs = [process.communicate(timeout=120) for process in processes]
    assert [process.returncode for process in processes] == [0, 0], outputs
    assert [out.strip() for out, _ in outputs] == ["tictactoe", "tictactoe"]
    assert sorted(entry_files(fresh_cache)) == ["code", "json", "py"]
    assert not list(fresh_cache.glob(".*.tmp"))


@pytest.mark.parametrize("part", ["py", "code", "json"])
@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "removed"])
def test_a_corrupt_entry_is_rebuilt_not_a_crash(fresh_cache, part, damage):
    first = load_rules("tictactoe")
    files = entry_files(fresh_cache)
    target = files[part]
    data = target.read_bytes()
    if damage == "removed":
        target.unlink()
    else:
        target.write_bytes({"garbage": b"\x00\xff not an entry {", "truncated": data[:len(data) // 2],
                            "empty": b""}[damage])
    forget("tictactoe")
    again = load_rules("tictactoe")
    assert again is not first and again.spec_hash == first.spec_hash
    assert again.game_id == "tictactoe" and len(again.actions) == len(first.actions)
    rebuilt = entry_files(fresh_cache)
    assert sorted(rebuilt) == ["code", "json", "py"]
    forget("tictactoe")
    assert load_rules("tictactoe").spec_hash == first.spec_hash     # and it is valid again


MARKER_CODE = "\nimport pathlib\npathlib.Path({marker!r}).write_text('executed')\n"


def test_an_edited_entry_is_never_executed(fresh_cache, tmp_path):
    load_rules("tictactoe")
    files = entry_files(fresh_cache)
    marker = tmp_path / "marker"
    payload = MARKER_CODE.format(marker=str(marker))
    files["py"].write_text(files["py"].read_text(encoding="utf-8") + payload, encoding="utf-8")
    forget("tictactoe")
    assert load_rules("tictactoe").game_id == "tictactoe"
    assert not marker.exists()
    assert payload not in files["py"].read_text(encoding="utf-8")       # rebuilt from the spec
    # compiled code edited to match an edited source, manifest untouched: refused as well
    source = files["py"].read_text(encoding="utf-8") + payload
    files["py"].write_text(source, encoding="utf-8")
    import marshal
    code = marshal.dumps(compile(source, str(files["py"]), "exec"))
    files["code"].write_bytes(files["code"].read_bytes()[:32] + code)
    forget("tictactoe")
    assert load_rules("tictactoe").game_id == "tictactoe"
    assert not marker.exists()


def copy_of_the_sources(root: Path) -> Path:
    """A copy of every file the key reads, laid out as in the checkout, under ``root``."""
    shutil.copytree(REPO / "compiler", root / "compiler", ignore=shutil.ignore_patterns("__pycache__"))
    for name in cache.CONTRACT:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, root / name)
    return root


@pytest.mark.parametrize("edit", ["rulecraft/loader.py", "runtime/tables.py", "rulecraft/errors.py",
                                  "compiler/grammar.lark", "compiler/templates/rules.py.j2",
                                  "compiler/a_new_pass.py", "compiler/passes/deeper.py"])
def test_the_key_changes_with_everything_that_shapes_the_module(tmp_path, monkeypatch, edit):
    root = copy_of_the_sources(tmp_path / "checkout")
    monkeypatch.setattr(cache, "ROOT", root)
    monkeypatch.setattr(cache, "PACKAGE", root / "compiler")
    before = cache.cache_key("spec text", {"a": 1})
    assert before == cache.cache_key("spec text", {"a": 1})
    path = root / edit
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n# changed\n")
    assert cache.cache_key("spec text", {"a": 1}) != before
    assert cache.cache_key("other spec", {"a": 1}) != cache.cache_key("spec text", {"a": 1})
    assert cache.cache_key("spec text", {"a": 2}) != cache.cache_key("spec text", {"a": 1})


def test_a_runtime_module_the_compiler_imports_is_in_the_key(tmp_path, monkeypatch):
    root = copy_of_the_sources(tmp_path / "checkout")
    (root / "runtime" / "flow.py").write_text("SLOTS = 4\n", encoding="utf-8")
    monkeypatch.setattr(cache, "ROOT", root)
    monkeypatch.setattr(cache, "PACKAGE", root / "compiler")
    assert root / "runtime" / "flow.py" not in cache.source_files()
    (root / "compiler" / "uses_flow.py").write_text("from rulecraft.runtime.flow import SLOTS\n",
                                                    encoding="utf-8")
    assert root / "runtime" / "flow.py" in cache.source_files()
    before = cache.cache_key("spec", {})
    (root / "runtime" / "flow.py").write_text("SLOTS = 5\n", encoding="utf-8")
    assert cache.cache_key("spec", {}) != before


def test_the_entry_name_of_an_untrusted_folder_name_is_sanitised(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "../x; rm -rf ~ ü" / "..evil name.py"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "examples" / "tictactoe" / "game.yaml", folder / "game.yaml")
    assert load_rules(folder).game_id == "tictactoe"
    names = [path.name for path in (tmp_path / "cache").iterdir()]
    assert names and all(name.startswith("__evil_name_py_") for name in names), names
    assert cache.entry_name("ü/..", "k") == "_____k" and cache.entry_name("", "k") == "game_k"


# ---------- pickled states ----------
UNPICKLE_SCRIPT = """
import pickle, sys
{imports}
with open(sys.argv[1], "rb") as file:
    states = pickle.load(file)
print(",".join(str(state.ply) for state in states))
"""


def test_unpickling_compiles_through_the_checked_path_and_runs_nothing_else(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULECRAFT_CACHE", str(folder))
    spec = tmp_path / "somewhere" / "my-pig"
    spec.mkdir(parents=True)
    shutil.copy(REPO / "examples" / "pig" / "game.yaml", spec / "game.yaml")
    game = load_game(spec)
    state = game.new_initial_state()
    state.apply(0)
    saved = tmp_path / "states.pickle"
    saved.write_bytes(pickle.dumps([state, load_game("tictactoe").new_initial_state()]))
    marker = tmp_path / "marker"
    (folder / "planted_0000000000000000.py").write_text(MARKER_CODE.format(marker=str(marker)))
    done = subprocess.run([sys.executable, "-c", UNPICKLE_SCRIPT.format(imports="import rulecraft.compiler"),
                           saved], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1,0"
    assert not marker.exists()
    alone = subprocess.run([sys.executable, "-c", UNPICKLE_SCRIPT.format(imports=""), saved],
                           capture_output=True, text=True, cwd=REPO, timeout=120)
    assert alone.returncode != 0 and "error[RC503]" in alone.stderr
    assert "import rulecraft.compiler" in alone.stderr and not marker.exists()
    manifests = [json.loads(p.read_text()) for p in folder.glob("*.json")]
    assert {m["spec_hash"] for m in manifests} >= {game.rules.spec_hash}
