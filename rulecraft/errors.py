"""One error root for every stage of rulecraft, each error printable without a traceback.

Stages: the spec loader (YAML), the rule-language parser, the checker (names and types), the
runtime (illegal actions, dead ends), and match logs. Each error carries a stable code
(``RC1xx`` spec loading, ``RC2xx`` syntax, ``RC3xx`` meaning, ``RC4xx`` play, ``RC5xx`` logs and
files) so tests and translations can refer to it.
"""

from __future__ import annotations

from dataclasses import dataclass
import difflib


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

    ``code`` is stable across releases; ``str(error)`` is the whole user-facing message.
    """

    code = "RC000"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code

    def __str__(self) -> str:
        return f"error[{self.code}]: {self.message}"


class MissingExtraError(RulecraftError, ImportError):
    """A feature needs an optional extra (``rl``, ``site``) that is not installed: RC110, naming
    the extra and the ``pip install`` that adds it. Also an ImportError, so ``import
    rulecraft.rl`` fails the way a missing package does."""

    code = "RC110"

    def __init__(self, extra: str, module: str | None):
        super().__init__(f"this needs the optional extra '{extra}' ({module} is not installed): "
                         f"python3 -m pip install 'rulecraft[{extra}]', or from the checkout "
                         f"python3 -m pip install -e '.[{extra}]'")
        self.extra = extra


class SpecError(RulecraftError):
    """A mistake in a game spec, reported gcc-style: ``file:line:col: error[CODE]: message``.

    ``position`` is where the mistake is; ``hint`` suggests the fix (often a did-you-mean).
    The formatted message shows the offending source line with a caret under the column.
    """

    code = "RC300"

    def __init__(self, message: str, position: Position | None, *, code: str | None = None,
                 hint: str | None = None, also: Position | None = None):
        super().__init__(message, code=code)
        self.position = position
        self.hint = hint
        self.also = also

    def __str__(self) -> str:
        head = f"{self.position}: " if self.position else ""
        lines = [f"{head}error[{self.code}]: {self.message}"]
        if self.position:
            lines.extend(_source_excerpt(self.position))
        if self.also:
            lines.append(f"{self.also}: note: first defined here")
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


class SpecLoadError(SpecError):
    """The YAML itself is unreadable or surprising (duplicate keys, YAML 1.1 types)."""

    code = "RC100"


class RuleSyntaxError(SpecError):
    """A condition, formula or effect string does not parse."""

    code = "RC200"


class IllegalActionError(RulecraftError):
    """An action that is not legal in the state; ``rule`` names the rule that forbids it."""

    code = "RC401"

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule


class DeadEndError(RulecraftError):
    """The rules reached a decision with nothing legal to choose: a fault of the spec."""

    code = "RC402"


class RuleFailure(RulecraftError):
    """A formula of the rules failed to compute (a division by zero, a key outside a table)
    while an action was applied or a bot looked ahead; the state is unchanged."""

    code = "RC404"


class LogError(RulecraftError):
    """A match log or save file that is corrupt, foreign or diverges from the rules."""

    code = "RC501"


class ScenarioError(RulecraftError):
    """A scenario that is malformed or whose expectation failed."""

    code = "RC601"


def did_you_mean(word: str, candidates) -> str | None:
    """Return ``"did you mean 'x'?"`` for the closest candidate to ``word``, or None."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _source_excerpt(position: Position) -> list[str]:
    try:
        with open(position.file, encoding="utf-8") as handle:
            text = handle.read().splitlines()
    except OSError:
        return []
    if not 1 <= position.line <= len(text):
        return []
    line = text[position.line - 1].replace("\t", " ")
    return [f"  {position.line:>4} | {line}", "       | " + " " * (position.column - 1) + "^"]
