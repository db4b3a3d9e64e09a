"""Match logs (format 2): JSON lines that record a match, replay it exactly and show who changed what.

Line 1 is the header: the game, the hash of its spec (a log of another revision is refused unless
the caller allows it), the options, the match seed and whether chance outcomes were ``sampled``
from the seed (a replay then checks every roll against the sampler) or ``chosen``. Each further
line is a ply (who acted, the action id and its notation, and a hash of the public observation
after it), a secret choice's commitment in place of its action, the opening of an earlier
commitment once the choice is public, or, last, the closing line of a finished match (returns and
the final state's hash). Every line carries ``chain``, a hash of the line and the previous line's
chain, so an inserted, removed, reordered or edited line breaks the chain where it is; a log cut
short has no closing line and reads as unfinished. The chain is an integrity check, not a
signature: whoever rewrites every chain can forge a log, but not a roll of a ``sampled`` log, which
the seed fixes, nor a move the rules refuse.

Files are written as ASCII JSON (``ensure_ascii``: a notation's U+2028 is ``\\u2028``) and read
back by splitting at newlines only. A log is also a save file: resuming re-applies it. Reading
never half-applies a log: it is checked and replayed on a fresh state before anything is
returned. Format 1 logs (no chain, no commitments, a hash of the full state per ply) still replay.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
import hashlib
import json
import os
import re
import tempfile

from rulecraft import __version__
from rulecraft.errors import IllegalActionError, LogError
from rulecraft.runtime.engine import CHANCE, Game, State
from rulecraft.runtime.match import CHANCE_MODES, Match, chance_outcome, commit
from rulecraft.limits import MAX_LOG_BYTES

FORMAT = "rulecraft-log"
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
_HEX16, _HEX32, _HEX64 = (re.compile(f"[0-9a-f]{{{n}}}") for n in (16, 32, 64))


# ---------------------------------------------------------------- writing
def write_log(match: Match, path: str) -> None:
    """Write ``match`` to ``path`` as a format-2 log, atomically (a crash leaves the old file
    whole). Raises OSError when the file cannot be written (the command line checks the path
    before the match starts)."""
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write("\n".join(log_lines(match)) + "\n")
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def log_lines(match: Match) -> list[str]:
    """The lines of ``match``'s log, each a JSON object with its ``chain`` hash."""
    lines, chain = [], FORMAT
    for record in _records(match):
        chain = record["chain"] = _chain(chain, record)
        lines.append(json.dumps(record, ensure_ascii=True))
    return lines


def _records(match: Match):
    game = match.game
    yield {"format": FORMAT, "format_version": FORMAT_VERSION, "rulecraft": __version__,
           "game": game.id, "spec": game.rules.spec_hash, "options": game.rules.options,
           "seed": match.seed, "chance": match.chance, "bot": match.bot}
    openings = defaultdict(list)
    for ply, step in enumerate(match.steps, 1):
        if step.secret is not None and step.secret.opened is not None:
            openings[step.secret.opened].append(ply)
    for ply, step in enumerate(match.steps, 1):
        actor = "chance" if step.actor == CHANCE else game.teams[step.actor]
        if step.secret is not None:
            yield {"ply": ply, "actor": actor, "secret": step.secret.commitment, "view": step.hash}
        else:
            yield {"ply": ply, "actor": actor, "action": step.action, "notation": step.notation,
                   "view": step.hash}
        for opened in openings[ply]:
            chosen = match.steps[opened - 1]
            yield {"open": opened, "action": chosen.action, "notation": chosen.notation,
                   "nonce": chosen.secret.nonce}
    if match.state.is_terminal():
        yield {"end": len(match.steps), "returns": dict(zip(game.teams, match.state.returns())),
               "state": match.state.hash()}


def _chain(previous: str, record: dict) -> str:
    """The chain hash of ``record`` (without its own ``chain``) after the line chained ``previous``."""
    body = json.dumps({k: v for k, v in record.items() if k != "chain"}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=True)
    return hashlib.blake2b(f"{previous}\n{body}".encode(), digest_size=8).hexdigest()


# ---------------------------------------------------------------- reading
@dataclass
class LogHeader:
    """What a log says about its match; ``chance`` is ``sampled``, ``chosen`` or, for format 1,
    ``unrecorded``; ``bot`` the name of the bot that played (None when not recorded; an
    untrusted text: check it before use)."""

    game: str
    spec: str
    options: dict
    seed: int
    version: int = FORMAT_VERSION
    chance: str = "sampled"
    bot: str | None = None


@dataclass
class Log:
    """A log read and checked for shape (:func:`read_log`), not yet against the rules.

    ``plies`` are the ply records in order (each with its ``line`` number); ``openings`` maps a
    secret ply to the record that opens it; ``closing`` is the closing record (None: the log
    ends without one); ``last_line`` is the number of the last line.
    """

    path: str
    header: LogHeader
    plies: list
    openings: dict = field(default_factory=dict)
    closing: dict | None = None
    last_line: int = 1


def read_log(path: str) -> Log:
    """Read a log file and check its shape: header, hash chain, ply numbers, commitments and their
    openings, the closing line. Raises :class:`LogError` naming the line for anything that is not a
    rulecraft log: RC501, RC506 for a broken chain."""
    records = _json_lines(path)
    number, head = records[0]
    if head.get("format") != FORMAT:
        raise LogError(f"{path}:{number}: not a rulecraft log (no '\"format\": \"{FORMAT}\"' header)")
    version = head.get("format_version")
    if version not in READABLE_VERSIONS:
        raise LogError(f"{path}:{number}: log format version {version} is not supported (this "
                       f"rulecraft reads versions {', '.join(map(str, READABLE_VERSIONS))})")
    try:
        header = LogHeader(str(head["game"]), str(head["spec"]), dict(head["options"]),
                           _whole(head["seed"]), version,
                           head["chance"] if version == 2 else "unrecorded",
                           None if head.get("bot") is None else str(head["bot"]))
    except (KeyError, TypeError, ValueError) as error:
        raise LogError(f"{path}:{number}: the header lacks or garbles {error}") from None
    if header.chance not in (*CHANCE_MODES, "unrecorded"):
        raise LogError(f"{path}:{number}: the header's chance is {header.chance!r}, not one of "
                       f"{', '.join(CHANCE_MODES)}")
    log = Log(path, header, [], last_line=records[-1][0])
    (_read_v1 if version == 1 else _read_v2)(log, records)
    return log


def _json_lines(path: str) -> list[tuple[int, dict]]:
    """The log's non-blank lines as ``(line number, JSON object)``."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_LOG_BYTES + 1)
        if len(data) > MAX_LOG_BYTES:
            raise LogError(f"{path}: the file is larger than {MAX_LOG_BYTES >> 20} MiB, more than "
                           "any match log")
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LogError(f"{path}: cannot read the log: {error}") from None
    records = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as error:
            reason = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
            raise LogError(f"{path}:{number}: this line is not JSON ({reason}); the log is "
                           "corrupt") from None
        if not isinstance(record, dict):
            raise LogError(f"{path}:{number}: expected a JSON object on each line")
        records.append((number, record))
    if not records:
        raise LogError(f"{path}: the file is empty, not a rulecraft log")
    return records


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number a log holds")


def _whole(value) -> int:
    if type(value) is not int:
        raise ValueError(f"{value!r} (not a whole number)")
    return value


def _read_v1(log: Log, records) -> None:
    for number, record in records[1:]:
        if not {"ply", "actor", "action", "hash"} <= record.keys() or type(record["action"]) is not int:
            raise LogError(f"{log.path}:{number}: a ply record needs ply, actor, action (a number) and hash")
        if record["ply"] != len(log.plies) + 1:
            raise LogError(f"{log.path}:{number}: expected ply {len(log.plies) + 1}, found {record['ply']}")
        log.plies.append({**record, "line": number})


def _read_v2(log: Log, records) -> None:
    path, chain = log.path, FORMAT
    secrets: dict = {}
    for number, record in records:
        chain = _chain(chain, record)
        if record.get("chain") != chain:
            raise LogError(f"{path}:{number}: the hash chain breaks at this line: a line was inserted, "
                           "removed or reordered here, or this line was edited", code="RC506")
        if number == records[0][0]:
            continue
        if log.closing is not None:
            raise LogError(f"{path}:{number}: a line after the closing line")
        where = f"{path}:{number}"
        if "ply" in record:
            _check_keys(record, {"ply", "actor", "view", "chain"}, ({"action", "notation"}, {"secret"}), where)
            if record["ply"] != len(log.plies) + 1:
                raise LogError(f"{where}: expected ply {len(log.plies) + 1}, found {record['ply']!r}")
            if "secret" in record:
                _check_hex(record["secret"], _HEX64, "a secret's commitment", where)
                secrets[record["ply"]] = record
            else:
                _check_action(record, where)
            _check_hex(record["view"], _HEX16, "the view hash", where)
            log.plies.append({**record, "line": number})
        elif "open" in record:
            _check_keys(record, {"open", "action", "notation", "nonce", "chain"}, (), where)
            _check_action(record, where)
            _check_hex(record["nonce"], _HEX32, "the nonce", where)
            ply = record["open"]
            if type(ply) is not int or ply not in secrets or ply in log.openings:
                raise LogError(f"{where}: this line opens ply {ply!r}, which is no secret choice "
                               "still hidden in the lines before it")
            log.openings[ply] = {**record, "line": number}
        elif "end" in record:
            _check_keys(record, {"end", "returns", "state", "chain"}, (), where)
            if record["end"] != len(log.plies):
                raise LogError(f"{where}: the closing line counts {record['end']!r} plies, the log "
                               f"has {len(log.plies)}")
            hidden = sorted(set(secrets) - set(log.openings))
            if hidden:
                raise LogError(f"{where}: the match closes with the secret choice of ply "
                               f"{hidden[0]} never opened")
            log.closing = {**record, "line": number}
        else:
            raise LogError(f"{where}: neither a ply, an opening nor a closing line")


def _check_keys(record: dict, required: set, choices: tuple, where: str) -> None:
    keys = set(record)
    if not required <= keys or (choices and not any(keys == required | extra for extra in choices)) \
            or (not choices and keys != required):
        wanted = " and ".join(sorted(required - {"chain"}))
        if choices:
            wanted += ", and " + " or ".join("/".join(sorted(extra)) for extra in choices)
        raise LogError(f"{where}: this line needs exactly {wanted} (and its chain)")


def _check_action(record: dict, where: str) -> None:
    if type(record["action"]) is not int or not isinstance(record["notation"], str):
        raise LogError(f"{where}: the action must be a whole number and its notation a text")


def _check_hex(value, pattern, what: str, where: str) -> None:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise LogError(f"{where}: {what} is not a hex digest of the right length")


# ---------------------------------------------------------------- replaying
@dataclass
class Replay:
    """A replayed log: the match rebuilt from it, the log, whether the log closes the match
    (``closed``), and the first secret ply whose commitment is not opened yet (``waiting``, its
    record), where the replay stopped."""

    match: Match
    log: Log
    closed: bool
    waiting: dict | None

    @property
    def replayed(self) -> int:
        """How many plies were replayed (and verified)."""
        return len(self.match.steps)

    def summary(self) -> str:
        """One sentence on how the log ends: game over, waiting on a secret, or unfinished."""
        state, log = self.match.state, self.log
        returns = ", ".join(f"{team} {value:+g}" for team, value in
                            zip(self.match.game.teams, state.returns()))
        if self.closed:
            return f"game over, returns {returns}"
        if self.waiting is not None:
            team, line = self.waiting["actor"], self.waiting["line"]
            return (f"the match is not over: the secret choice of {team} at line {line} (ply "
                    f"{self.waiting['ply']}) is not revealed yet")
        if log.header.version == 1:
            return (f"game over, returns {returns}" if state.is_terminal()
                    else "the match is not over yet") + " (format 1: no hash chain, rolls not checked)"
        if state.is_terminal():
            return (f"unfinished: the log ends at line {log.last_line} without its closing line "
                    "although the game is over there; it was cut")
        return f"unfinished: the log ends at line {log.last_line}, ply {len(log.plies)}, without a closing line"


def replay(game: Game, source, *, verify: bool = True, allow_revision: bool = False) -> Replay:
    """Replay a log (a path or a :class:`Log`) on ``game``; returns the :class:`Replay`.

    Checks the log's game, options and spec revision (RC505 for another revision unless
    ``allow_revision``), then every ply: actor, legality, notation, a ``sampled`` log's rolls
    against the seed (RC507), a secret's opening against its commitment (RC508) and, with
    ``verify``, the public hash after each ply; finally the closing line. Raises
    :class:`LogError` naming the line of the first ply that does not fit.
    """
    log = source if isinstance(source, Log) else read_log(source)
    header, path = log.header, log.path
    if header.game != game.id:
        raise LogError(f"{path}: this log is of the game '{header.game}', not '{game.id}'")
    if header.options != game.rules.options:
        raise LogError(f"{path}: the log was played with options {header.options}, "
                       f"not {game.rules.options}")
    revised = header.spec != game.rules.spec_hash
    if revised and not allow_revision:
        raise LogError(f"{path}:1: the log was written under revision {header.spec} of {game.id}'s "
                       f"spec, and this is revision {game.rules.spec_hash}; replay it anyway with "
                       "--allow-revision", code="RC505")
    cause = (f"the log was written under spec revision {header.spec} (now {game.rules.spec_hash}), "
             "whose rules play differently from here" if revised else
             "the line was edited (the spec is the revision the log was written under)")
    samples = header.chance == "sampled"
    match = Match(game, header.seed, chance="sampled" if samples else "chosen", bot=header.bot)
    waiting = None
    for record in log.plies:
        where = f"{path}:{record['line']}: ply {record['ply']}"
        state = match.state
        _check_turn(state, record, where, header.version)
        nonce = None
        if "secret" in record:
            opening = log.openings.get(record["ply"])
            if opening is None:
                waiting = record
                break
            if commit(opening["action"], opening["nonce"]) != record["secret"]:
                raise LogError(f"{path}:{opening['line']}: this opening of ply {record['ply']} does "
                               f"not match its commitment at line {record['line']}: the secret "
                               "choice was changed after it was made", code="RC508")
            record, nonce = {**record, **opening, "line": record["line"]}, opening["nonce"]
        action = record["action"]
        _check_action_fits(state, record, where, cause)
        if samples and state.is_chance_node():
            expected = chance_outcome(state, header.seed)
            if action != expected:
                raise LogError(f"{where}: the roll {state.action_notation(action)} is not the one "
                               f"the match seed {header.seed} gives ({state.action_notation(expected)}): "
                               "the roll or the seed was changed", code="RC507")
        match.apply(action, nonce=nonce)
        recorded = record["hash"] if header.version == 1 else record["view"]
        actual = match.state.hash() if header.version == 1 else match.state.public_hash()
        if verify and actual != recorded:
            raise LogError(f"{where}: after {record['notation']} the state differs from the one the "
                           f"log recorded (hash {actual} != {recorded}): {cause}")
    if header.version == 1:
        match.chance = "sampled" if _rolls_sampled(match) else "chosen"
    closed = log.closing is not None and waiting is None
    if closed:
        _check_closing(match, log.closing, f"{path}:{log.closing['line']}", cause, verify)
    return Replay(match, log, closed, waiting)


def _check_turn(state: State, record: dict, where: str, version: int) -> None:
    """The record's actor, and (format 2) whether it is a commitment, fit whom the rules give
    the turn to and how."""
    game = state.game
    if state.is_terminal():
        raise LogError(f"{where}: the game is already over at this point, but the log goes on")
    expected = "chance" if state.current_player() == CHANCE else game.teams[state.current_player()]
    if record["actor"] != expected:
        raise LogError(f"{where}: the log says {record['actor']} acted, but the rules give the "
                       f"turn to {expected}")
    if version > 1 and ("secret" in record) != state.is_secret():
        raise LogError(f"{where}: " + ("the log keeps this choice secret, but the rules make it in "
                                       "the open" if "secret" in record else
                                       "this secret choice is written in the clear, not as a commitment"))


def _check_action_fits(state: State, record: dict, where: str, cause: str) -> None:
    """The record's action is legal here and its notation is the game's."""
    action, written = record["action"], record.get("notation")
    game = state.game
    if state.is_chance_node():
        size = len(state.chance_outcomes())
        if not 0 <= action < size:
            raise LogError(f"{where}: outcome {action} is no face of the die rolled here "
                           f"(0..{size - 1}); the log calls it '{written}'")
    elif not 0 <= action < game.rules.num_distinct_actions:
        raise LogError(f"{where}: action {action} is no action id of {game.id} "
                       f"(0..{game.rules.num_distinct_actions - 1}); the log calls it '{written}'")
    actual = state.action_notation(action)
    if action not in state.legal_actions():
        try:
            state.clone().apply(action)
        except IllegalActionError as refusal:
            raise LogError(f"{where}: {refusal.message}; the log diverges from the rules from "
                           "this ply on") from None
    if written is not None and written != actual:
        raise LogError(f"{where}: the log writes '{written}' for action {action}, which is "
                       f"'{actual}' in {game.id}: {cause}")


def _check_closing(match: Match, closing: dict, where: str, cause: str, verify: bool) -> None:
    state = match.state
    if not state.is_terminal():
        raise LogError(f"{where}: the closing line says the game ended after ply {closing['end']}, "
                       f"but the rules go on: {cause}")
    returns = dict(zip(match.game.teams, state.returns()))
    if closing["returns"] != returns or (verify and closing["state"] != state.hash()):
        raise LogError(f"{where}: the closing line's returns or state hash are not the game's "
                       f"({returns}): {cause}")


def _rolls_sampled(match: Match) -> bool:
    """True when every chance outcome of a replayed match is the one its seed gives."""
    for before, step in zip(match._snapshots, match.steps):
        if step.actor == CHANCE and step.action != chance_outcome(before, match.seed):
            return False
    return True


__all__ = ["FORMAT", "FORMAT_VERSION", "Log", "LogHeader", "Replay", "log_lines",
           "read_log", "replay", "write_log"]
