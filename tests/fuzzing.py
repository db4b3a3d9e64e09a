"""The fuzz harness of issue 16: seeded mutations of the repository's specs, each checked, compiled
and played in a child process under a time and a memory cap, and every run classified.

One run (:func:`run`) draws a spec of ``rulespecs/*`` or ``examples/*`` and a mutator from its
seed alone, mutates the spec's text, then in a forked child with a :data:`RUN_SECONDS` timeout and
an address-space cap of :data:`MEMORY_BYTES` (``RLIMIT_AS``) checks and compiles it (what
``rulecraft check`` does) and, when it compiles, plays one seeded random match of at most
:data:`MATCH_PLIES` plies. The outcome is one of :data:`OUTCOMES`. A mutator that replaces one
YAML node knows where that node is, and a refusal of such a mutant must point inside it (or at
its key): otherwise the outcome is ``misplaced``.

The mutators take a :class:`random.Random` (hypothesis's ``st.randoms()`` too, so the property
test in ``tests/test_fuzz.py`` shrinks them) and the spec's text, and return a :class:`Mutant`.

From the repository root: ``python3 -m tests.fuzzing --runs 10000 --seed 1 --jobs 2`` prints the
table of outcomes per mutator.
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
import functools
import importlib
import multiprocessing
from pathlib import Path
import random
import re
import resource
import sys
import tempfile
import traceback

import yaml

REPO = Path(__file__).resolve().parent.parent
SPEC_FILES = sorted(REPO.glob("rulespecs/*/game.yaml")) + sorted(REPO.glob("examples/*/game.yaml"))

RUN_SECONDS = 10
"""Wall-clock seconds one run (check, compile and match) may take before it counts as a hang."""
MEMORY_BYTES = 2 << 30
"""Address space (``RLIMIT_AS``) of the child a run is made in: more is a memory blow-up."""
MATCH_PLIES = 2000
"""Plies of the random match played with a spec that compiles (a longer match is cut, not a fault)."""

OUTCOMES = ("ok", "play", "positioned", "unpositioned", "misplaced", "traceback", "timeout", "memory")
"""What a run can end in: the spec compiled and its match played; the spec compiled and the
rules refused to go on in the match (a PlayError: a dead end, the ply limit without
``on_limit:``, a formula that failed; it names the phase or the spec line); a refusal (a RulecraftError)
with a position other than 1:1; a refusal at 1:1 or without a position; a refusal positioned
outside the node the mutator replaced; any other exception; over :data:`RUN_SECONDS`; over
:data:`MEMORY_BYTES` (a MemoryError, or the child killed)."""
FAULTS = ("unpositioned", "misplaced", "traceback", "timeout", "memory")
"""The outcomes a fuzz run must have none of."""


@dataclass(frozen=True)
class Mutant:
    """A mutated spec: its ``text``, and where the node a mutator replaced lies in it, as character
    offsets ``[start, end]`` of ``text`` (None when a refusal may rightly point elsewhere, as at a
    reference to a deleted name)."""

    text: str
    node: tuple[int, int] | None = None
    names: tuple[str, ...] = ()
    """The keys naming the replaced node and the node holding it (``d6`` of ``dice: d6: ...``),
    and the names the node declared (its keys, its list's words): a refusal outside the node that names one of them, or stands on a line that does, is at a
    reference to what the mutator changed (``roll d6``), and rightly there."""


# ---------- the character and line mutators ----------
TOKEN = re.compile(r"\w+|[^\w\s]")
NUMBER = re.compile(r"\d+")
WORD = re.compile(r"\b[A-Za-z_]\w*\b")
KEY_LINE = re.compile(r"^( *)(- )?[\w\"']+:")
INSERTED = list(":-{}[],'\"#|>&*!%@` \n\tax01=()+;.~") + ["\u00e4", "\ufeff"]
NUMBERS = ["-1", "0", "1", "2", "7", "64", "65", "100000", "99999999999999999999", "-99999999999",
           "1.5", "-0.0", "1e999", "-1e999", ".nan", '"3"', "0x10", "0o17", "1_000", "9" * 4301]


def _index(rng: random.Random, text: str, end: int = 0) -> int:
    """A position in ``text`` (``end`` allows the position just after the last character)."""
    return rng.randint(0, max(len(text) - 1 + end, 0))


def delete(rng: random.Random, text: str) -> Mutant:
    """Delete one to three characters."""
    start = _index(rng, text)
    return Mutant(text[:start] + text[start + rng.randint(1, 3):])


def duplicate(rng: random.Random, text: str) -> Mutant:
    """Repeat a short slice right after itself."""
    start = _index(rng, text)
    piece = text[start:start + rng.randint(1, 40)]
    return Mutant(text[:start] + piece + text[start:])


def insert(rng: random.Random, text: str) -> Mutant:
    """Insert one character that YAML or the rule language gives a meaning to."""
    start = _index(rng, text, end=1)
    return Mutant(text[:start] + rng.choice(INSERTED) + text[start:])


def swap_tokens(rng: random.Random, text: str) -> Mutant:
    """Swap two tokens on one line (inside a rule string, that scrambles its syntax or types)."""
    lines = text.split("\n")
    number = rng.choice([i for i, line in enumerate(lines) if len(TOKEN.findall(line)) >= 2])
    spans = [m.span() for m in TOKEN.finditer(lines[number])]
    first, second = sorted(rng.sample(range(len(spans)), 2))
    (a, b), (c, d) = spans[first], spans[second]
    line = lines[number]
    lines[number] = line[:a] + line[c:d] + line[b:c] + line[a:b] + line[d:]
    return Mutant("\n".join(lines))


def drop_key(rng: random.Random, text: str) -> Mutant:
    """Remove one key of a mapping together with its (more indented) value lines."""
    lines = text.split("\n")
    start = rng.choice([i for i, line in enumerate(lines) if KEY_LINE.match(line)])
    indent = len(KEY_LINE.match(lines[start]).group(1))
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
        end += 1
    return Mutant("\n".join(lines[:start] + lines[end:]))


def change_number(rng: random.Random, text: str) -> Mutant:
    """Replace one number with another: zero, negative, huge, off by one, a float, text, hex."""
    a, b = rng.choice([m.span() for m in NUMBER.finditer(text)])
    return Mutant(text[:a] + rng.choice(NUMBERS) + text[b:])


# ---------- renames ----------
RESERVED = ["if", "then", "else", "and", "or", "not", "in", "none", "true", "false", "let", "while",
            "for", "lambda", "class", "def", "import", "return", "yield", "self", "state", "rules",
            "RULES", "__class__", "__import__", "__builtins__", "_", "exec", "eval", "open", "print",
            "len", "sum", "max", "min", "range", "int", "str", "type", "object", "None", "True"]
LOOK_ALIKE = {"a": "\u0430", "o": "\u03bf", "e": "\u0435", "p": "\u0440", "c": "\u0441", "i": "\u0456"}
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def _renamed(rng: random.Random, word: str) -> str:
    """``word`` as a reserved word or a Python name, with a look-alike letter, or a zero-width one."""
    kind = rng.randrange(3)
    if kind == 0:
        return rng.choice(RESERVED)
    if kind == 1 and any(letter in LOOK_ALIKE for letter in word):
        at = rng.choice([i for i, letter in enumerate(word) if letter in LOOK_ALIKE])
        return word[:at] + LOOK_ALIKE[word[at]] + word[at + 1:]
    at = rng.randint(0, len(word))
    return word[:at] + rng.choice(ZERO_WIDTH) + word[at:]


def rename_one(rng: random.Random, text: str) -> Mutant:
    """Rename one occurrence of a name (what refers to it is left behind)."""
    a, b = rng.choice([m.span() for m in WORD.finditer(text)])
    return Mutant(text[:a] + _renamed(rng, text[a:b]) + text[b:])


def rename_all(rng: random.Random, text: str) -> Mutant:
    """Rename a name everywhere (a consistent spec whose name is a reserved or a Python word)."""
    word = rng.choice(WORD.findall(text))
    return Mutant(re.sub(rf"\b{re.escape(word)}\b", lambda _: _renamed(random.Random(word), word), text))


# ---------- characters and lines ----------
CONTROLS = [chr(c) for c in (*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, 0x80, 0x9F)] + ["\ud800"]


def control(rng: random.Random, text: str) -> Mutant:
    """Insert one control character (or a lone surrogate): the refusal points at it."""
    start = _index(rng, text, end=1)
    return Mutant(text[:start] + rng.choice(CONTROLS) + text[start:], (start, start))


def tabs(rng: random.Random, text: str) -> Mutant:
    """Turn one line's indentation, or a space in it, into tabs."""
    lines = text.split("\n")
    number = rng.choice([i for i, line in enumerate(lines) if " " in line])
    line = lines[number]
    if line.startswith(" ") and rng.random() < 0.5:
        body = line.lstrip(" ")
        lines[number] = "\t" * rng.randint(1, 3) + body
    else:
        at = rng.choice([i for i, letter in enumerate(line) if letter == " "])
        lines[number] = line[:at] + "\t" + line[at + 1:]
    return Mutant("\n".join(lines))


def huge_line(rng: random.Random, text: str) -> Mutant:
    """Insert a line of 20,000 characters: a comment, a key or a list of numbers."""
    lines = text.split("\n")
    number = rng.randint(0, len(lines))
    line = rng.choice(["# " + "x" * 20_000, "x" * 20_000 + ": 1", "huge: [" + "1, " * 7000 + "1]"])
    start = sum(len(item) + 1 for item in lines[:number])
    return Mutant("\n".join(lines[:number] + [line] + lines[number:]), (start, start + len(line)))


# ---------- node replacements ----------
ANCHOR = re.compile(r"&[^\s,\[\]{}]")


def _leading(value) -> str:
    """The name a key or list item declares: ``far_row`` of ``far_row(t)``."""
    match = re.match(r"\w+", str(value))
    return match.group() if match else str(value)


def _declared(node) -> tuple[str, ...]:
    """The names a mapping's keys, a list's plain items or a plain value declare (state fields,
    dice, enum values, definitions): what refers to them fails when the node is replaced."""
    if isinstance(node, yaml.MappingNode):
        return tuple(_leading(key.value) for key, _ in node.value if isinstance(key, yaml.ScalarNode))
    if isinstance(node, yaml.SequenceNode):
        return tuple(_leading(item.value) for item in node.value if isinstance(item, yaml.ScalarNode))
    return (_leading(node.value),)          # an enum value, a team: a word others may name


@functools.cache
def _nodes(text: str) -> tuple:
    """Every node of ``text``'s YAML below the root but those holding an anchor (what refers to
    it would be refused first), as ``(start, end, near, block)``: the node's character offsets
    (a block collection's start right after its key's colon, so a one-line replacement stays
    valid YAML), where a refusal of its replacement may start (its parent's key, or its own
    key when the parent is the root: an error about the list or mapping the node is in is
    about the node too) and whether it is a block collection."""
    found, seen = [], set()

    def walk(node, key, near, names):
        if id(node) in seen:        # an alias: its anchor's node again (walking it would expand a bomb)
            return
        seen.add(id(node))
        start, end = node.start_mark.index, node.end_mark.index
        end = start + len(text[start:end].rstrip())
        block = isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style
        if key is not None and block:
            start = key.end_mark.index + 1          # right after "key:"
        names = (names + (_leading(key.value),))[-2:] if key is not None else names
        if not ANCHOR.search(text, start, end):
            found.append((start, end, near, block, names + _declared(node)))
        mine = key.start_mark.index if key is not None else start
        for item in node.value if isinstance(node, yaml.SequenceNode) else ():
            walk(item, None, mine, names)
        for key_node, value in node.value if isinstance(node, yaml.MappingNode) else ():
            walk(value, key_node, mine, names)

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):      # a text mutated before: no node to replace
        return ()
    for key_node, value in root.value if isinstance(root, yaml.MappingNode) else ():
        walk(value, key_node, key_node.start_mark.index, ())
    return tuple(found)


def _replace(rng: random.Random, text: str, replacement: str) -> Mutant:
    """``text`` with one node replaced by the one-line ``replacement`` (after the colon a block
    collection's key ends with, so ``key: replacement``). A text that is not YAML (mutated
    before) gets ``replacement`` inserted anywhere."""
    nodes = _nodes(text)
    if not nodes:
        at = _index(rng, text, end=1)
        return Mutant(text[:at] + replacement + text[at:])
    start, end, near, block, names = rng.choice(nodes)
    if block:
        replacement = " " + replacement
    mutated = text[:start] + replacement + text[end:]
    return Mutant(mutated, (near, start + len(replacement)), names)


VALUES = ['"text"', "7", "-1", "0", "1.5", "true", "null", "~", '""', "[]", "{}", "[1, 2]", "{a: 1}",
          "[a, [b]]", "{a: [1], b: {c: 2}}", "'{row.foo}'", '"{row:>200000000}"', "[-1e999, 1e999]",
          "[1..200000000]", '"1..200000000"', "100000000", "x" * 300]


def retype(rng: random.Random, text: str) -> Mutant:
    """Replace one node with a value of another kind: text, a number, a list, a mapping, null."""
    return _replace(rng, text, rng.choice(VALUES))


TAGGED = ["!!int 0x10", "!!bool 9", "!!set {nope}", "!!python/object:os.system {}",
          "!!python/name:os.system", "!!python/tuple [1, 2]", "!!float nan", "!!binary aGk=",
          "!!timestamp 2001-12-14", "!!str 5", "!!null x", "!!omap [a: 1]", "!!pairs [a: 1]",
          "!custom x", "!<tag:yaml.org,2002:int> 5", "!!map [1]", "!!seq {a: 1}", "!!int 1e3"]


def tag(rng: random.Random, text: str) -> Mutant:
    """Replace one node with a tagged value (tags outside YAML 1.2's core schema, or misused)."""
    return _replace(rng, text, rng.choice(TAGGED))


def deep(rng: random.Random, text: str) -> Mutant:
    """Replace one node with something nested 30 to 3,000 deep: lists, mappings, ``not not ...``,
    parentheses or a sum of sums."""
    depth = rng.choice([30, 63, 65, 100, 250, 1000, 3000])
    kind = rng.randrange(5)
    value = ["[" * depth + "1" + "]" * depth, "{a: " * depth + "1" + "}" * depth,
             '"' + "not " * depth + 'true"', '"' + "(" * depth + "1" + ")" * depth + '"',
             '"' + "(1 + " * depth + "1" + ")" * depth + '"'][kind]
    return _replace(rng, text, value)


def alias_bomb(rng: random.Random, text: str) -> Mutant:
    """Replace one node with an alias bomb: each anchor a list of ten aliases of the one before."""
    levels = rng.randint(3, 9)
    parts = ["&a0 [x, x, x, x, x, x, x, x, x, x]"]
    parts += [f"&a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]" for n in range(1, levels)]
    return _replace(rng, text, "[" + ", ".join(parts) + "]")


MUTATORS = [delete, duplicate, insert, swap_tokens, drop_key, change_number, rename_one, rename_all,
            control, tabs, huge_line, retype, tag, deep, alias_bomb]
"""Every mutator, each ``(rng, text) -> Mutant``."""


def mutate(seed: int) -> tuple[Path, str, Mutant]:
    """The spec file, the mutator's name and the mutant of run ``seed``: a function of the seed."""
    rng = random.Random(f"rulecraft/fuzz/{seed}")
    spec, mutator = rng.choice(SPEC_FILES), rng.choice(MUTATORS)
    return spec, mutator.__name__, mutator(rng, spec.read_text(encoding="utf-8"))


# ---------- one run in a child process ----------
def _offset(text: str, line: int, column: int) -> int:
    """The character offset of ``line:column`` (both from 1) in ``text``."""
    lines = text.split("\n")
    return sum(len(item) + 1 for item in lines[:line - 1]) + column - 1


@functools.cache
def warm() -> None:
    """Import rulecraft and compile one spec in this (the parent) process, so that every forked
    child starts with the rule-language parser built instead of building it again."""
    from rulecraft.compiler import load_rules
    for module in ("rulecraft.runtime.engine", "rulecraft.runtime.seeding"):
        importlib.import_module(module)
    load_rules(REPO / "examples" / "tictactoe" / "game.yaml", use_cache=False)


def _refers(mutant: Mutant, message: str, places) -> bool:
    """Whether a refusal with ``message`` at ``places`` (its position and its notes' places) is at
    a reference to the names of the node ``mutant`` replaced (see :attr:`Mutant.names`)."""
    lines = mutant.text.split("\n")
    seen = "\n".join([message] + [lines[place.line - 1] for place in places if place.line <= len(lines)])
    return any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", seen) for name in mutant.names)


def _play(path: Path, seed: int) -> None:
    """Check and compile the spec at ``path``, import its rules and play one seeded random match
    of at most :data:`MATCH_PLIES` plies. (``rulecraft check`` reads the spec a second time for
    its warnings only: the same checks, so a run reads it once.)"""
    from rulecraft.compiler import load_rules
    from rulecraft.errors import PlayError
    from rulecraft.runtime.engine import Game
    rules = load_rules(path, use_cache=False)
    try:
        _match(Game(rules), seed)
    except PlayError as error:
        raise _Played(error) from None


class _Played(Exception):
    """A refusal of the rules while the match was set up or played (a :class:`PlayError`)."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


def _match(game, seed: int) -> None:
    """One seeded random match of ``game``, cut after :data:`MATCH_PLIES` plies."""
    from rulecraft.runtime.seeding import chance_outcome
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal() and state.ply < MATCH_PLIES:
        if state.is_chance_node():
            state.apply_unchecked(chance_outcome(state, seed))
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))


def classify(mutant: Mutant, path: Path, seed: int) -> tuple[str, str]:
    """Write ``mutant`` to ``path`` and run it here; returns ``(outcome, detail)``: the outcome
    (one of :data:`OUTCOMES` but ``timeout``) and the error's code and first line, or for a
    traceback the exception and the innermost frame of rulecraft."""
    from rulecraft.errors import RulecraftError
    path.write_text(mutant.text, encoding="utf-8", errors="surrogatepass")
    try:
        try:
            _play(path, seed)
        except RulecraftError as error:
            str(error)              # what the user is shown must render too (its source line)
            raise
    except _Played as played:
        error = played.error
        return "play", f"{error.code}: {error.message.splitlines()[0][:200]}"
    except RulecraftError as error:
        where = getattr(error, "position", None)
        detail = f"{error.code} {where or '-'}: {error.message.splitlines()[0][:200]}"
        if where is None or (where.line, where.column) == (1, 1):
            return "unpositioned", detail
        if mutant.node is not None:
            places = [where] + [place for place, _ in getattr(error, "notes", ())]
            if not any(mutant.node[0] <= _offset(mutant.text, place.line, place.column) <= mutant.node[1]
                       for place in places) and not _refers(mutant, error.message, places):
                return "misplaced", detail
        return "positioned", detail
    except MemoryError:
        return "memory", "MemoryError"
    except Exception as error:  # noqa: BLE001 - every other exception is the fault looked for
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if "/rulecraft" in frame.filename
                  or "/compiler/" in frame.filename or "/runtime/" in frame.filename]
        where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
        return "traceback", f"{type(error).__name__} at {where}: {str(error)[:200]}"
    return "ok", ""


def _child(connection, mutant: Mutant, folder: str, seed: int) -> None:
    """The child of one run: cap its memory, classify the mutant, send the result back."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    try:
        result = classify(mutant, Path(folder) / "game.yaml", seed)
    except MemoryError:
        result = ("memory", "MemoryError")
    connection.send(result)
    connection.close()


@dataclass(frozen=True)
class Result:
    """One run: its seed, spec (the game's folder name), mutator, outcome and detail."""

    seed: int
    spec: str
    mutator: str
    outcome: str
    detail: str


def run(seed: int) -> Result:
    """Make run ``seed`` in a forked child under :data:`RUN_SECONDS` and :data:`MEMORY_BYTES`."""
    warm()
    spec, mutator, mutant = mutate(seed)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    with tempfile.TemporaryDirectory(prefix="rulecraft-fuzz-") as folder:
        child = context.Process(target=_child, args=(send, mutant, folder, seed), daemon=True)
        child.start()
        send.close()
        answered = receive.poll(RUN_SECONDS)
        try:
            outcome, detail = receive.recv() if answered else ("timeout", f"over {RUN_SECONDS} s")
        except EOFError:        # died without an answer: killed, most likely for its memory
            outcome, detail = "memory", "the child died"
        child.kill()
        child.join()
        if outcome == "memory" and detail == "the child died":
            detail += f" (exit {child.exitcode})"
    return Result(seed, spec.parent.name, mutator, outcome, detail)


def run_many(runs: int, seed: int = 0, jobs: int = 2) -> list[Result]:
    """Runs ``seed`` to ``seed + runs - 1``, ``jobs`` children at a time, in seed order."""
    warm()      # before the threads: a child forked while another thread compiles would inherit a held lock
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(run, range(seed, seed + runs)))


def table(results: list[Result]) -> str:
    """The counts of every outcome per mutator and in total, as a Markdown table."""
    counts = Counter((result.mutator, result.outcome) for result in results)
    rows = ["| mutator | runs | " + " | ".join(OUTCOMES) + " |", "|---" * (len(OUTCOMES) + 2) + "|"]
    for mutator in [item.__name__ for item in MUTATORS] + ["total"]:
        mine = [counts[(mutator, o)] for o in OUTCOMES] if mutator != "total" else \
            [sum(n for (_, o), n in counts.items() if o == outcome) for outcome in OUTCOMES]
        rows.append(f"| {mutator} | {sum(mine)} | " + " | ".join(str(n) for n in mine) + " |")
    return "\n".join(rows)


def faults(results: list[Result]) -> list[Result]:
    """The runs that ended in one of :data:`FAULTS`."""
    return [result for result in results if result.outcome in FAULTS]


def main(argv: list[str] | None = None) -> int:
    """The command line: make the runs, print the table and every fault; status 1 if any."""
    parser = argparse.ArgumentParser(prog="python3 -m tests.fuzzing", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0, help="the first run's seed")
    parser.add_argument("--jobs", type=int, default=2)
    arguments = parser.parse_args(argv)
    results = run_many(arguments.runs, arguments.seed, arguments.jobs)
    print(table(results))
    for result in faults(results):
        print(f"seed {result.seed} {result.spec} {result.mutator}: {result.outcome}: {result.detail}")
    return 1 if faults(results) else 0


if __name__ == "__main__":
    sys.exit(main())
