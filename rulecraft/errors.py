"""One error root for every stage of rulecraft, each error printable without a traceback.

Each error carries a stable code from the registry :data:`rulecraft.codes.CODES`, so tests and
translations can refer to it. The code's hundreds are its family, and each family has its class
here (:data:`FAMILIES`): RC1xx reading the spec and the command line, RC2xx rule syntax, RC3xx the
spec's meaning, RC4xx play, RC5xx logs and saves, RC6xx scenarios, RC7xx the play-by-play, RC8xx
the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass
import difflib

from rulecraft.codes import HINTS


@dataclass(frozen=True)
class Position:
    """A place in a source file: ``line`` and ``column`` count from 1."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class RulecraftError(Exception):
    """Root of every error rulecraft reports to a user.

    ``code`` is stable across releases; ``str(error)`` is the whole user-facing message, ending
    with the ``hint`` — the code's own (:data:`rulecraft.codes.HINTS`) unless one is given; ``""``
    for none, when the message already holds one (an error quoting another).
    """

    code = "RC000"

    def __init__(self, message: str, *, code: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code:
            self.code = code

    def __str__(self) -> str:
        return report("error", self.code, self.message, None, self.hint)


class SpecError(RulecraftError):
    """A mistake in a game spec, reported gcc-style: ``file:line:col: error[CODE]: message``.

    ``position`` is where the mistake is; ``hint`` suggests the fix (often a did-you-mean).
    The formatted message shows the offending source line with a caret under the column.
    """

    code = "RC300"

    def __init__(self, message: str, position: Position | None, *, code: str | None = None,
                 hint: str | None = None, also: Position | None = None):
        super().__init__(message, code=code, hint=hint)
        self.position = position
        self.notes: list[tuple[Position, str]] = [(also, "first defined here")] if also else []

    @property
    def also(self) -> Position | None:
        """The place of the first note (where a name was first defined), or None."""
        return self.notes[0][0] if self.notes else None

    def __str__(self) -> str:
        return report("error", self.code, self.message, self.position, self.hint, self.notes)


@dataclass(frozen=True)
class SpecWarning:
    """Something the checker accepts but a designer should change, printed like a
    :class:`SpecError`: ``file:line:col: warning[CODE]: message``, the line, a caret, a hint."""

    code: str
    message: str
    position: Position | None
    hint: str | None = None

    def __str__(self) -> str:
        return report("warning", self.code, self.message, self.position, self.hint)


def report(kind: str, code: str, message: str, position: Position | None, hint: str | None = None,
           notes=()) -> str:
    """A message gcc-style: ``file:line:col: kind[code]: message``, then the source line with a
    caret under the column, each of ``notes`` (``(position, text)``: where a name was first
    defined, the calls of the procedures the error is in) and the hint: ``hint``, or when
    it is None the code's hint from :data:`rulecraft.codes.HINTS` (``""``: no hint)."""
    if hint is None:
        hint = HINTS.get(code)
    head = f"{position}: " if position else ""
    lines = [f"{head}{kind}[{code}]: {message}"]
    if position:
        lines.extend(_source_excerpt(position))
    lines.extend(f"{place}: note: {text}" for place, text in notes)
    if hint:
        lines.append(f"  hint: {hint}")
    return "\n".join(lines)


class InputError(RulecraftError):
    """A spec file or a command line that cannot be used (RC1xx)."""

    code = "RC105"


class MissingExtraError(InputError, ImportError):
    """A feature needs an optional extra (``rl``, ``site``) that is not installed: RC110, naming
    the extra and the ``pip install`` that adds it. Also an ImportError, so ``import
    rulecraft.rl`` fails the way a missing package does."""

    code = "RC110"

    def __init__(self, extra: str, module: str | None):
        super().__init__(f"this needs the optional extra '{extra}' ({module} is not installed): "
                         f"python3 -m pip install 'rulecraft[{extra}]', or from the checkout "
                         f"python3 -m pip install -e '.[{extra}]'")
        self.extra = extra


class SpecLoadError(SpecError, InputError):
    """The YAML itself is unreadable or surprising (duplicate keys, YAML 1.1 types)."""

    code = "RC100"


class RuleSyntaxError(SpecError):
    """A condition, formula or effect string does not parse (RC2xx)."""

    code = "RC200"


class PlayError(RulecraftError):
    """Something that goes wrong while a game is played (RC4xx)."""

    code = "RC404"


class IllegalActionError(PlayError):
    """An action that is not legal in the state; ``rule`` names the rule that forbids it. For an
    action the current phase does not offer at all (one of another phase), ``rule`` is the
    phase's and ``offered`` the names of the actions it offers (else None)."""

    code = "RC401"

    def __init__(self, message: str, rule: str | None = None, offered: tuple | None = None):
        super().__init__(message)
        self.rule = rule
        self.offered = offered


class DeadEndError(PlayError):
    """The rules reached a decision with nothing legal to choose: a fault of the spec."""

    code = "RC402"


class RuleFailure(PlayError):
    """A formula of the spec failed to compute (a division by zero) while the game was set up or
    played, or a bot looked ahead; the state is unchanged.

    ``section`` names where the rules were (``"phase play (rule 2)"``, ``"end: returns"``);
    ``position``, when known, is the spec formula that failed, printed gcc-style with its line
    and a caret like a :class:`SpecError`."""

    code = "RC404"

    def __init__(self, message: str, *, section: str | None = None, position: Position | None = None,
                 code: str | None = None, hint: str | None = None):
        super().__init__(message, code=code, hint=hint)
        self.section = section
        self.position = position

    def __str__(self) -> str:
        return report("error", self.code, self.message, self.position, self.hint)


class RuleFault(RuleFailure):
    """A rule met a value it cannot use while the game was played: an attribute of none, a
    table key outside the table. The message names the spec position; the engine leaves the
    state as it was before the action."""

    code = "RC405"


class LogError(RulecraftError):
    """A match log or save file that is corrupt, foreign or diverges from the rules (RC5xx)."""

    code = "RC501"


class ScenarioError(RulecraftError):
    """A scenario that is malformed or whose expectation failed (RC6xx)."""

    code = "RC601"


class NarrationError(RulecraftError):
    """A play-by-play message that cannot be used (RC7xx)."""

    code = "RC701"


class MessageError(SpecError, NarrationError):
    """A play-by-play message of a text file that cannot be used, at its file:line:col (RC7xx)."""

    code = "RC701"


class SiteError(RulecraftError):
    """A rulebook text or site build that cannot be used (RC8xx)."""

    code = "RC801"


# the class of each family of codes (the code's hundreds); RC0xx is the root's
FAMILIES = {"0": RulecraftError, "1": InputError, "2": RuleSyntaxError, "3": SpecError, "4": PlayError,
            "5": LogError, "6": ScenarioError, "7": NarrationError, "8": SiteError}


def did_you_mean(word: str, candidates) -> str | None:
    """Return ``"did you mean 'x'?"`` for the closest candidate to ``word``, or None."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _source_excerpt(position: Position) -> list[str]:
    try:
        with open(position.file, encoding="utf-8", errors="replace") as handle:   # RC104: not UTF-8
            text = handle.read().splitlines()
    except OSError:
        return []
    if not 1 <= position.line <= len(text):
        return []
    line = text[position.line - 1].replace("\t", " ")
    return [f"  {position.line:>4} | {line}", "       | " + " " * (position.column - 1) + "^"]
