"""Match logs: JSON lines that record a match and replay it exactly.

Line 1 is a header (format, rulecraft version, game, spec hash, options, seed); each further
line is one ply: who acted, the action id, its notation and the state's hash after it. A log is
also a save file: resuming re-applies its actions. Reading never half-applies a log: the whole
file is checked and replayed on a fresh state before anything is returned.
"""

from __future__ import annotations

from dataclasses import dataclass
import json
import os

from rulecraft import __version__
from rulecraft.errors import LogError
from rulecraft.runtime.engine import CHANCE, Game
from rulecraft.runtime.match import Match

FORMAT = "rulecraft-log"
FORMAT_VERSION = 1


def write_log(match: Match, path: str) -> None:
    """Write ``match`` to ``path`` as a log (atomically: a crash leaves the old file whole)."""
    game = match.game
    lines = [json.dumps({"format": FORMAT, "format_version": FORMAT_VERSION, "rulecraft": __version__,
                         "game": game.id, "spec": game.rules.spec_hash, "options": game.rules.options,
                         "seed": match.seed})]
    for ply, step in enumerate(match.steps, 1):
        actor = "chance" if step.actor == CHANCE else game.teams[step.actor]
        lines.append(json.dumps({"ply": ply, "actor": actor, "action": step.action,
                                 "notation": step.notation, "hash": step.hash}, ensure_ascii=False))
    temporary = f"{path}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    os.replace(temporary, path)


@dataclass
class LogHeader:
    """What a log says about its match."""

    game: str
    spec: str
    options: dict
    seed: int


def read_log(path: str) -> tuple[LogHeader, list[dict]]:
    """Parse a log file; returns its header and ply records.

    Raises :class:`LogError` naming the line for anything that is not a rulecraft log.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            raw = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise LogError(f"{path}: cannot read the log: {error}") from None
    if not raw:
        raise LogError(f"{path}: the file is empty, not a rulecraft log")
    records = []
    for number, line in enumerate(raw, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise LogError(f"{path}:{number}: this line is not JSON ({error.msg}); "
                           "the log is corrupt") from None
        if not isinstance(record, dict):
            raise LogError(f"{path}:{number}: expected a JSON object on each line")
        records.append((number, record))
    number, head = records[0]
    if head.get("format") != FORMAT:
        raise LogError(f"{path}:{number}: not a rulecraft log (no '\"format\": \"{FORMAT}\"' header)")
    if head.get("format_version") != FORMAT_VERSION:
        raise LogError(f"{path}:{number}: log format version {head.get('format_version')} is not "
                       f"supported (this rulecraft reads version {FORMAT_VERSION})")
    try:
        header = LogHeader(str(head["game"]), str(head["spec"]), dict(head["options"]), int(head["seed"]))
    except (KeyError, TypeError, ValueError) as error:
        raise LogError(f"{path}:{number}: the header lacks or garbles {error}") from None
    plies = []
    for number, record in records[1:]:
        if not {"ply", "actor", "action", "hash"} <= record.keys() or type(record["action"]) is not int:
            raise LogError(f"{path}:{number}: a ply record needs ply, actor, action (a number) and hash")
        if record["ply"] != len(plies) + 1:
            raise LogError(f"{path}:{number}: expected ply {len(plies) + 1}, found {record['ply']}")
        record["line"] = number
        plies.append(record)
    return header, plies


def replay(game: Game, path: str, *, verify: bool = True) -> Match:
    """Replay a log on ``game``; returns the finished :class:`Match`.

    Raises :class:`LogError` for a foreign or corrupt log, and names the first ply whose action is
    illegal or whose resulting state differs from the recorded hash.
    """
    header, plies = read_log(path)
    if header.game != game.id:
        raise LogError(f"{path}: this log is of the game '{header.game}', not '{game.id}'")
    if header.options != game.rules.options:
        raise LogError(f"{path}: the log was played with options {header.options}, "
                       f"not {game.rules.options}")
    match = Match(game, header.seed)
    for record in plies:
        state = match.state
        expected_actor = "chance" if state.current_player() == CHANCE else (
            None if state.is_terminal() else game.teams[state.current_player()])
        where = f"{path}:{record['line']}: ply {record['ply']}"
        if record["actor"] != expected_actor:
            raise LogError(f"{where}: the log says {record['actor']} acted, but the rules give the "
                           f"turn to {expected_actor or 'nobody (the game is over)'}")
        if record["action"] not in state.legal_actions():
            raise LogError(f"{where}: action {record['action']} ({record.get('notation', '?')}) is "
                           "not legal here; the log diverges from the rules from this ply on")
        match.apply(record["action"])
        if verify and match.state.hash() != record["hash"]:
            raise LogError(f"{where}: after {record.get('notation', record['action'])} the state "
                           f"differs from the log (hash {match.state.hash()} != {record['hash']}); "
                           "the rules have changed since the log was written")
    return match
