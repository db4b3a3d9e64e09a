"""Keep docs/spec-reference.md true: its examples work and it covers everything the code has.

Examples in the document are fenced blocks preceded by an HTML comment naming what they are:

* ``<!-- spec -->``: a complete spec, compiled and started;
* ``<!-- fragment -->``: some sections, compiled after adding the sections it leaves out from the
  ``<!-- skeleton -->`` block;
* ``play`` after either (``<!-- spec play -->``): random games are also played to the end, within
  ``max_plies``, checking the invariants at every ply;
* ``<!-- formula -->``: one rule-language formula per line, each parsed;
* ``<!-- effects -->``: one block of effects, parsed;
* ``<!-- scenario: GAME -->``: scenarios run against that game's spec;
* ``<!-- log: GAME -->``: a match log read and replayed on that game (a format-2 log against the
  current spec revision; a format-1 log as an old log is).

Coverage: every section of the spec reader, every key it accepts, every grammar keyword, every
standard-library entry, every scenario key and every error code in the sources must appear in the
document. The standard-library table is generated from ``compiler/library.py``; run this file
(``python3 tests/test_reference_doc.py``) to rewrite it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
import random
import re
import shutil
import sys

import pytest

from rulecraft.compiler import compile_source, find_game, load_rules
from rulecraft import codes, limits
from rulecraft.compiler import library, reader, schema
from rulecraft.compiler.parser import GRAMMAR_PATH, parse_effects, parse_formula
from rulecraft.runtime import scenario as scenarios
from rulecraft.runtime.engine import Game
from rulecraft.runtime.logs import read_log, replay

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "spec-reference.md"
SOURCE_FOLDERS = ("compiler", "runtime", "rulecraft", "site")
# generated tables of the document: (start marker, end marker, the function writing the table)
GENERATED = {"library": ("<!-- library:start -->", "<!-- library:end -->"),
             "limits": ("<!-- limits:start -->", "<!-- limits:end -->"),
             "codes": ("<!-- codes:start -->", "<!-- codes:end -->")}
PLAYOUTS = 20

_BLOCK = re.compile(r"^<!-- (?P<marker>[^>]*?) -->\n```(?P<lang>\w*)\n(?P<body>.*?)^```$",
                    re.MULTILINE | re.DOTALL)
_FENCE = re.compile(r"^```(?P<lang>\w*)$", re.MULTILINE)


@dataclass
class Block:
    """A marked example of the document: its kind, flags, argument, text and line number."""

    kind: str
    flags: tuple
    argument: str
    body: str
    line: int

    def __str__(self) -> str:
        return f"{self.kind}@{self.line}"


def doc_text() -> str:
    """The reference document's text."""
    return DOC.read_text(encoding="utf-8")


def blocks(kind: str | None = None) -> list[Block]:
    """The marked examples of the document (only those of ``kind`` when given)."""
    text = doc_text()
    found = []
    for match in _BLOCK.finditer(text):
        head, _, argument = match["marker"].partition(":")
        kind_word, *flags = head.split()
        found.append(Block(kind_word, tuple(flags), argument.strip(), match["body"],
                           text.count("\n", 0, match.start()) + 2))
    return [b for b in found if kind is None or b.kind == kind]


def library_table() -> str:
    """The standard-library table, in Markdown, generated from ``library.REFERENCE``."""
    rows = ["| function | written | gives |", "|---|---|---|"]
    for name, (signature, meaning) in library.REFERENCE.items():
        forms = " or ".join(f"`{form.strip()}`" for form in signature.split(" | "))
        rows.append(f"| `{name}` | {forms} | {meaning} |")
    return "\n".join(rows)


def generated(kind: str) -> str:
    """The table the document holds between the ``kind`` markers, as it should be."""
    return {"library": library_table, "limits": limits.reference_table, "codes": codes.reference_table}[kind]()


def written(text: str, kind: str) -> tuple[int, int]:
    """Where the ``kind`` table stands in ``text``: (start, end) offsets between its markers."""
    start_marker, end_marker = GENERATED[kind]
    return text.index(start_marker) + len(start_marker), text.index(end_marker)


def write_generated_tables() -> None:
    """Rewrite the generated tables (standard library, limits, error codes) in the document."""
    text = doc_text()
    for kind in GENERATED:
        start, end = written(text, kind)
        text = text[:start] + "\n" + generated(kind) + "\n" + text[end:]
    DOC.write_text(text, encoding="utf-8")


def complete_spec(block: Block) -> str:
    """The block's text, with the skeleton's sections it leaves out added for a fragment."""
    if block.kind == "spec":
        return block.body
    present = set(re.findall(r"^(\w+):", block.body, re.MULTILINE))
    skeleton = blocks("skeleton")[0].body
    missing = [line for line in skeleton.splitlines() if line.split(":")[0] not in present]
    return block.body + "\n" + "\n".join(missing) + "\n"


def compiled_game(text: str, folder: Path) -> Game:
    """Compile a spec's text in ``folder`` without the compile cache; returns the playable game."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    source = compile_source(folder)
    namespace: dict = {"__name__": f"doc_example_{folder.name}"}
    exec(compile(source, f"<{folder.name}>", "exec"), namespace)
    return Game(namespace["RULES"])


def play_to_the_end(game: Game, seed: int) -> None:
    """Play one random game, checking max_plies and the invariants at every ply."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.ply < game.max_game_length, f"seed {seed}: longer than max_plies"
        before = state.clone()
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        action = (rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0] if outcomes
                  else rng.choice(state.legal_actions()))
        state.apply(action)
        assert game.broken_invariants(state, before) == [], f"seed {seed}, ply {state.ply}"


def _ids(items) -> list[str]:
    return [str(item) for item in items]


# ---------------------------------------------------------------- the examples work

SPECS = blocks("spec") + blocks("fragment")


@pytest.mark.parametrize("block", SPECS, ids=_ids(SPECS))
def test_spec_example_compiles(block, tmp_path):
    game = compiled_game(complete_spec(block), tmp_path / f"example{block.line}")
    state = game.new_initial_state()
    assert state.is_terminal() or state.legal_actions()


PLAYED = [b for b in SPECS if "play" in b.flags]


@pytest.mark.parametrize("block", PLAYED, ids=_ids(PLAYED))
def test_spec_example_plays_to_the_end(block, tmp_path):
    game = compiled_game(complete_spec(block), tmp_path / f"example{block.line}")
    for seed in range(PLAYOUTS):
        play_to_the_end(game, seed)


FORMULAS = blocks("formula")


@pytest.mark.parametrize("block", FORMULAS, ids=_ids(FORMULAS))
def test_formula_examples_parse(block):
    lines = [line for line in block.body.splitlines() if line.strip()]
    assert lines
    for line in lines:
        parse_formula(line)


EFFECTS = blocks("effects")


@pytest.mark.parametrize("block", EFFECTS, ids=_ids(EFFECTS))
def test_effects_examples_parse(block):
    parse_effects(block.body)


SCENARIOS = blocks("scenario")


@pytest.mark.parametrize("block", SCENARIOS, ids=_ids(SCENARIOS))
def test_scenario_examples_pass(block, tmp_path):
    folder = tmp_path / block.argument
    (folder / "scenarios").mkdir(parents=True)
    shutil.copy(find_game(block.argument), folder / "game.yaml")
    (folder / "scenarios" / "doc.yaml").write_text(block.body, encoding="utf-8")
    loaded = scenarios.load_scenarios(folder)
    assert loaded
    for item in loaded:
        scenarios.run_scenario(Game(load_rules(folder, item.options, use_cache=False)), item)


LOGS = blocks("log")


@pytest.mark.parametrize("block", LOGS, ids=_ids(LOGS))
def test_log_examples_replay(block, tmp_path):
    path = tmp_path / "match.log"
    path.write_text(block.body, encoding="utf-8")
    log = read_log(str(path))
    assert log.header.game == block.argument and log.plies
    game = Game(load_rules(block.argument, log.header.options, use_cache=False))
    old_format = log.header.version == 1     # kept to show that format 1 still replays
    # the view hashes are not compared: they follow the compiler's state layout; the chain, the
    # rolls against the seed, legality, notations and the closing returns are
    replayed = replay(game, log, verify=False, allow_revision=old_format)
    assert replayed.replayed == len(log.plies)
    assert replayed.closed or old_format


def test_every_example_is_marked():
    marked = {b.line for b in blocks()}
    text = doc_text()
    fences = [m for m in _FENCE.finditer(text)]
    openings = fences[0::2]
    assert len(fences) % 2 == 0, "an unclosed ``` fence"
    for fence in openings:
        line = text.count("\n", 0, fence.start()) + 1
        if fence["lang"] == "yaml":
            assert line in marked, f"line {line}: a yaml block without an example marker"
    assert {b.kind for b in blocks()} >= {"spec", "fragment", "skeleton", "formula", "effects",
                                          "scenario", "log"}


# ---------------------------------------------------------------- the document is complete

@pytest.mark.parametrize("kind", GENERATED)
def test_generated_tables_are_current(kind):
    text = doc_text()
    start, end = written(text, kind)
    assert text[start:end].strip() == generated(kind), \
        "run 'python3 tests/test_reference_doc.py' to regenerate the generated tables"
    for name in library.REFERENCE:
        assert f"| `{name}` |" in text


def test_every_grammar_keyword_is_documented():
    rules = [line.split("//")[0] for line in GRAMMAR_PATH.read_text(encoding="utf-8").splitlines()]
    keywords = set(re.findall(r'"([a-z]+)"', "\n".join(rules)))
    assert keywords >= {"if", "goto", "event"}
    text = doc_text()
    missing = sorted(k for k in keywords if f"`{k}`" not in text)
    assert missing == []


def test_every_section_is_documented():
    text = doc_text()
    missing = [s for s in reader.SECTIONS if f"`{s}:`" not in text]
    assert missing == []


def spec_keys() -> set:
    """Every key the compiler's section readers accept: the keys of every mapping of fixed keys
    in the spec's declared shape (:data:`schema.SPEC`)."""
    keys, shapes = set(), [schema.SPEC]
    while shapes:
        shape = shapes.pop()
        if isinstance(shape, schema.Keyed):
            keys.update(shape.keys)
            shapes += [*shape.required.values(), *shape.optional.values()]
        elif isinstance(shape, schema.Either):
            shapes += shape.kinds
        elif isinstance(shape, (schema.Listed, schema.Named)):
            shapes.append(shape.item if isinstance(shape, schema.Listed) else shape.value)
    return keys


def test_every_spec_key_is_documented():
    keys = spec_keys()
    assert {"roster", "max_plies", "repeat"} <= keys
    text = doc_text()
    missing = sorted(k for k in keys if f"`{k}`" not in text and f"`{k}:" not in text)
    assert missing == []


def test_every_scenario_key_is_documented():
    text = doc_text()
    keys = set(scenarios.STEP_KINDS) | set(scenarios.EXPECT_KEYS) | {
        "id", "title", "rule", "options", "start", "position", "steps", "doc"}
    missing = sorted(k for k in keys if f"`{k}" not in text)
    assert missing == []


def test_every_error_code_is_documented():
    codes = set()
    for folder in SOURCE_FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            codes.update(re.findall(r"\bRC\d{3}\b", path.read_text(encoding="utf-8")))
    assert "RC401" in codes
    text = doc_text()
    missing = sorted(code for code in codes if f"| {code} |" not in text)
    assert missing == []


if __name__ == "__main__":
    write_generated_tables()
    sys.stdout.write(f"rewrote the standard-library, limits and error-code tables in {DOC}\n")
