"""Playing ``rulecraft play`` in a pseudo-terminal, as a person does, for the pty tests.

:func:`play_in_terminal` starts the command under :mod:`pexpect` (a real pseudo-terminal: the
secret choice's no-echo prompt, rich's terminal detection and colours are those a person meets),
types one answer at each prompt and returns everything the screen showed; :func:`play_by_screen`
plays as a person who reads the screen (:func:`screen_choice`), and :func:`zone_lists` reads
back what a zone board says stands in each zone (:func:`expected_lists`: what the rule tables
say). :func:`english_only` is the test of "no English line" under ``--lang``: the words of the
English texts (the terminal's and the game's, and the spec's names) that no text of the
language uses.
"""

from __future__ import annotations

import os
from pathlib import Path
import re
import sys

from rulecraft.compiler import find_game
from rulecraft.loader import load_yaml
from rulecraft.runtime.narrate import DEFAULTS

ROOT = Path(__file__).resolve().parent.parent
PROMPT = r"\)> "
PROMPT_END = ")> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
WORD = re.compile(r"[^\W\d_]{2,}")
NEUTRAL = re.compile(r"--[\w-]+|\S+\.log\b|\b\w+=\S+")   # flags, save files, -O name=value


def spawn(args, cwd, env: dict | None, timeout: int):
    """``python -m rulecraft <args>`` started in a pseudo-terminal of 50 × 250 characters in
    ``cwd`` (a :class:`pexpect.spawn`), with ``env`` over this environment (a None value unsets
    a variable)."""
    import pexpect
    environment = {**os.environ, "COLUMNS": "250", **(env or {})}
    environment = {key: value for key, value in environment.items() if value is not None}
    return pexpect.spawn(sys.executable, ["-m", "rulecraft", *map(str, args)], cwd=str(cwd),
                         encoding="utf-8", timeout=timeout, dimensions=(50, 250), env=environment)


def play_in_terminal(args, answers, cwd, *, env=None, timeout: int = 120) -> str:
    """Run ``python -m rulecraft <args>`` in a pseudo-terminal of 250 columns in ``cwd``, type
    each of ``answers`` at a prompt (a line ending ``)> ``) and return the screen's text (ANSI
    codes kept: see :data:`ANSI`), once the command ends. Fails when it does not end in time."""
    import pexpect
    child = spawn(args, cwd, env, timeout)
    shown = []
    for answer in answers:
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
        shown.append(child.before + child.after)
        child.sendline(answer)
    child.expect(pexpect.EOF)
    shown.append(child.before)
    child.close()
    assert child.exitstatus == 0, "".join(shown)[-3000:]
    return "".join(shown).replace("\r\n", "\n")


def _strings(value):
    """Every text inside a YAML value (mappings' values and lists' items, nested)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{[^{}]*\}", re.S)   # Jinja2 and format blanks


def _words(texts) -> set[str]:
    """The words of ``texts``, case-folded, without their templates' blanks (``{{ clock }}``)."""
    return {word.casefold() for text in texts for word in WORD.findall(TEMPLATE.sub(" ", str(text)))}


def english_only(game: str, language: str, rules) -> set[str]:
    """The words an English line of ``rulecraft play GAME`` may hold that no text of
    ``language`` uses: from the terminal's English words, the play-by-play's default messages
    (:data:`rulecraft.runtime.narrate.DEFAULTS`), the game's English ``phases``,
    ``events``, ``notations`` and glossary terms, and the spec's names (fields, teams, named
    values, actions, pieces' labels; ``moves_left`` gives "moves" and "left"), less every word of
    the language's texts (the terminal's and the game's) and the space names."""
    folder = find_game(game).parent
    english_game = load_yaml(str(folder / "text" / "en.yaml")) or {}
    english = [*_strings(load_yaml(str(ROOT / "rulecraft" / "text" / "en.yaml"))), *DEFAULTS.values()]
    english += [*_strings({key: english_game.get(key) for key in ("phases", "events", "notations")})]
    english += [entry["term"] for entry in (english_game.get("glossary") or {}).values() if isinstance(entry, dict)]
    names = [f.name for f in rules.fields] + list(rules.teams) + [a.name for a in rules.actions]
    names += [str(label) for label in rules.piece_labels] + list(rules.kinds)
    names += [value for values in rules.enums.values() for value in values]
    names += [node.phase for node in rules.nodes]
    english += [name.replace("_", " ") for name in names]
    translated = [*_strings(load_yaml(str(ROOT / "rulecraft" / "text" / f"{language}.yaml")))]
    translated += [*_strings(load_yaml(str(folder / "text" / f"{language}.yaml")))]
    neutral = _words(rules.spaces) | {rules.game_id.casefold()}
    return _words(english) - _words(translated) - neutral


def english_lines(screen: str, vocabulary: set[str]) -> list[tuple[str, list[str]]]:
    """The lines of ``screen`` holding a word of ``vocabulary`` (outside flags, save files,
    ``name=value`` options and the answers typed after a prompt), each with those words."""
    found = []
    for line in ANSI.sub("", screen).splitlines():
        line = line.split(PROMPT_END, 1)[0]              # what the person typed is theirs
        words = [w for w in WORD.findall(NEUTRAL.sub(" ", line)) if w.casefold() in vocabulary]
        if words:
            found.append((line, words))
    return found


CHOICE = re.compile(r"(?<!\S)(\d+)\. ")
PLY = re.compile(r" · ply (\d+) · ")


def screen_choice(screen: str, seed: int) -> str:
    """The answer a person gives at the prompt that ends ``screen``, from what it shows alone:
    one of the numbered choices listed under the last status line (the line naming the ply),
    drawn by a generator seeded with ``seed`` and that ply, so that the same screen always gets
    the same answer (in a match played through and in one resumed from a save)."""
    import random
    plain = ANSI.sub("", screen)
    status = list(PLY.finditer(plain))
    assert status, plain[-2000:]
    listed = plain[status[-1].end():]
    numbers = [int(n) for n in CHOICE.findall(listed)]
    assert numbers == list(range(1, len(numbers) + 1)) and numbers, listed
    return str(random.Random(f"{seed}:{status[-1].group(1)}").choice(numbers))


def play_by_screen(args, cwd, seed: int, *, quit_at: int | None = None, timeout: int = 60):
    """Play ``python -m rulecraft <args>`` in a pseudo-terminal as a person who reads the screen:
    at every prompt the answer is :func:`screen_choice` of what the screen showed since the last
    answer; at prompt number ``quit_at`` (from 0) the person types ``q`` instead. Returns the
    screen as a list: the text before each prompt (the prompt included, the echo of the previous
    answer first), then what followed the last answer up to the end. Fails when the command
    does not end with exit status 0 or a prompt does not come within ``timeout`` seconds."""
    import pexpect
    child = spawn(args, cwd, None, timeout)
    chunks = []
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        chunks.append((child.before + child.after).replace("\r\n", "\n"))
        child.sendline("q" if len(chunks) - 1 == quit_at else screen_choice(chunks[-1], seed))
    chunks.append(child.before.replace("\r\n", "\n"))
    child.close()
    assert child.exitstatus == 0, "".join(chunks)[-3000:]
    return chunks


def zone_lists(lines: list[str], rules) -> dict[str, set[tuple[int, str]]]:
    """What each zone's box of a drawn zone board says stands on it: ``{zone: {(team, piece)}}``,
    ``piece`` a number as text or ``G`` (a goalkeeper), read back from the box's text (a team's
    initial, then its pieces; ``1-3`` a run)."""
    from rulecraft.layout import board_layout
    from rulecraft.runtime.render import ZONE_HEIGHT, ZONE_WIDTH
    layout = board_layout(rules)
    above = 1 if layout.goals else 0
    teams = {name[:1].upper(): index for index, name in enumerate(rules.teams)}
    found = {}
    for name, box in layout.boxes.items():
        left, right = int(box.x * ZONE_WIDTH) + 3, int((box.x + box.width) * ZONE_WIDTH) + 3
        top = above + int((layout.height - box.y - box.height) * ZONE_HEIGHT)
        bottom = above + int((layout.height - box.y) * ZONE_HEIGHT)
        text = " ".join(line[left + 1:right].ljust(right - left - 1) for line in lines[top + 1:bottom])
        tokens = text.split()
        assert tokens[0] == name, (name, text)
        team, pieces = None, set()
        for token in tokens[1:]:
            if token in teams:
                team = teams[token]
            elif team is not None and (token == "G" or token.isdigit()):
                pieces.add((team, token))
            elif team is not None and "-" in token:
                low, high = map(int, token.split("-"))
                pieces |= {(team, str(n)) for n in range(low, high + 1)}
            else:
                assert set(token) <= set("●◆▲■:=()O~"), (name, token, text)  # markers, shade, lines
        found[name] = pieces
    return found


def expected_lists(state) -> dict[str, set[tuple[int, str]]]:
    """Where the rule tables put each piece: ``{zone: {(team, number or "G")}}``."""
    rules = state.game.rules
    at = state.game.field("at")
    found = {name: set() for name in rules.spaces}
    for piece, label in enumerate(rules.piece_labels):
        space = state.s[at.base + piece]
        if space >= 0:
            token = "G" if label.endswith("goalkeeper") else label.split()[-1]
            found[rules.spaces[space]].add((rules.piece_team[piece], token))
    return found
