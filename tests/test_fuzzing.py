"""Issue 16's fuzz runs (tests/fuzzing.py): mutated specs of the repository are refused with a
positioned rulecraft error or compile and play, and never end in a traceback, a hang or a memory
blow-up; and the kinds of fault the harness found, each fixed for its whole class."""

from __future__ import annotations

import time

import pytest

from rulecraft.compiler import check
from rulecraft.errors import SpecError, SpecLoadError

import fuzzing
from fuzzing import FAULTS, MUTATORS, run, run_many, table
from helpers import REPO

TICTACTOE = (REPO / "examples" / "tictactoe" / "game.yaml").read_text(encoding="utf-8")


def _fuzz(runs: int, seed: int) -> list:
    results = run_many(runs, seed, jobs=2)
    print(table(results))
    faults = [f"seed {r.seed} {r.spec} {r.mutator}: {r.outcome}: {r.detail}" for r in results
              if r.outcome in FAULTS]
    assert not faults, "\n".join(faults)
    return results


def test_a_sample_of_300_fuzzed_specs_is_refused_where_it_is_wrong_or_plays():
    results = _fuzz(300, seed=0)
    assert {r.mutator for r in results} == {m.__name__ for m in MUTATORS}
    assert {r.outcome for r in results} >= {"ok", "positioned"}


@pytest.mark.slow
def test_ten_thousand_fuzzed_specs():
    _fuzz(10_000, seed=1)


def _hang(*_):
    time.sleep(60)


def _blow_up(*_):
    return bytearray(fuzzing.MEMORY_BYTES)


@pytest.mark.parametrize("fault, outcome", [(_hang, "timeout"), (_blow_up, "memory")])
def test_a_run_that_hangs_or_blows_up_its_memory_is_stopped_and_counted(monkeypatch, fault, outcome):
    """The harness itself: a run over its time is killed, one over its memory cap is refused."""
    monkeypatch.setattr(fuzzing, "RUN_SECONDS", 1)
    monkeypatch.setattr(fuzzing, "classify", fault)
    assert run(0).outcome == outcome


# ---------- what the fuzzer found ----------
def _refused(tmp_path, text: str, *, binary: bytes | None = None) -> SpecError:
    """The error checking ``text`` (or the bytes ``binary``) as a game.yaml gives."""
    path = tmp_path / "game.yaml"
    if binary is None:
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(binary)
    with pytest.raises(SpecError) as raised:
        check(path)
    return raised.value


def _line_of(text: str, snippet: str) -> int:
    return text.splitlines().index(snippet) + 1


@pytest.mark.parametrize("old, new, where", [
    ("  to_move: {type: team, initial: x}", "  to_move: 5", "state field 'to_move'"),
    ("  mark: {type: team, of: space, doc: \"whose mark stands on each square\"}", "  mark: null",
     "state field 'mark'"),
    ("  - rule: \"3\"", "  - true\n  - rule: \"3\"", "a trigger"),
    ("  place:", "  place: 7\n  other:", "action 'place'"),
])
def test_a_value_without_a_position_where_a_mapping_goes_is_refused_where_it_stands(tmp_path, old, new, where):
    """A number, true or null has no position of its own: it was refused at 1:1."""
    text = TICTACTOE.replace(old, new, 1)
    error = _refused(tmp_path, text)
    assert error.code == "RC320" and error.message == f"{where} must be a mapping of keys"
    assert error.position.line == _line_of(text, new.splitlines()[0])
    assert error.position.column > 1


def test_a_turn_that_is_not_a_list_is_refused_at_its_value(tmp_path):
    text = TICTACTOE.replace('turn:\n  - phase: mark\n    rule: "1"\n    choose: place\n    by: to_move',
                             "turn: 3", 1)
    error = _refused(tmp_path, text)
    assert (error.code, error.message) == ("RC345", "turn: is a list of phases")
    assert (error.position.line, error.position.column) == (_line_of(text, "turn: 3"), 7)


def test_options_written_as_a_list_are_refused_not_a_traceback(tmp_path):
    text = TICTACTOE.replace("board:", "options: [a, b]\n\nboard:", 1)
    error = _refused(tmp_path, text)
    assert (error.code, error.message) == ("RC320", "options: must be a mapping of keys")
    assert error.position.line == _line_of(text, "options: [a, b]")


def test_a_byte_that_is_not_utf8_is_refused_at_its_line_and_column(tmp_path):
    binary = TICTACTOE.replace("title: Tic-tac-toe", "title: Tic-\udcedtac", 1).encode("utf-8", "surrogateescape")
    error = _refused(tmp_path, "", binary=binary)
    assert isinstance(error, SpecLoadError) and error.code == "RC104"
    assert (error.position.line, error.position.column) == (5, 14)
    shown = str(error)                       # the excerpt of a file that is not UTF-8 renders
    assert "   5 |   title: Tic-\ufffdtac" in shown and "not UTF-8 text (byte 0xed on line 5)" in shown


def test_a_kind_attribute_of_steps_and_of_a_number_names_both_kinds(tmp_path):
    """The message named one kind only: the one read second."""
    text = (REPO / "rulespecs" / "ball" / "game.yaml").read_text(encoding="utf-8")
    changed = "    O: {step: 1, leap: [[0, ±2], [±2, 0]]}"
    text = text.replace("    O: {step: [[±1, ±1]], leap: [[0, ±2], [±2, 0]]}", changed, 1)
    error = _refused(tmp_path, text)
    assert error.code == "RC337" and "is grid steps for one kind and a number for another" in error.message
    assert (error.position.line, error.also.line) == (_line_of(text, changed), _line_of(text, changed) - 1)
