"""Numbers that size a game's structure, fixed when compiling: grid rows and columns, parameter
and table-key ranges, ``max_plies``, and ``lines(n)``.

Each may be a plain whole number or a formula over options, named constants and arithmetic
(``rows: "size"``, ``type: 1..size * size``, ``max_plies: "size * size + 1"``), so one spec
carries every board size its options allow. The formula is checked like any rule string and
computed by the compile-time evaluator (:mod:`evaluate`); a formula that reads the game state
is refused (RC356) at its own position.
"""

from __future__ import annotations

from rulecraft.errors import Position, SpecError
from rulecraft.loader import Text
from rulecraft.compiler import types as T
from rulecraft.compiler.evaluate import NotConstant, evaluate
from rulecraft.compiler.shapes import Shapes
from rulecraft.limits import RANGE_BOUND

_FIXED_HINT = "use whole numbers, options, named constants and arithmetic (+ - * // %)"


class Sizes(Shapes):
    """The fixed-number reading shared by the section readers (needs ``self.checker``)."""

    def fixed_number(self, value, position: Position, what: str, low: int, high: int, code: str) -> int:
        """``value`` — a YAML whole number or a formula text — computed now, checked to lie in
        ``low..high``. Raises SpecError ``code`` (wrong type or out of range) or RC356 (the
        formula reads something that changes during a game, or fails)."""
        if isinstance(value, str):
            text = value if isinstance(value, Text) else Text(value, position)
            value = self.fixed_formula(text, what)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SpecError(f"{what} is a whole number from {low:,} to {high:,}, not {value!r}"[:300],
                            position, code=code, hint="or a formula of the options, such as \"size\"")
        return value

    def fixed_range(self, word, position: Position, code: str) -> tuple[int, int] | None:
        """The bounds ``(low, high)`` of a range ``LOW..HIGH`` (each side a whole number or a
        formula over options), or None when ``word`` is not a range. SpecError ``code`` when
        high < low, RC356 when a side is not fixed when compiling."""
        if not isinstance(word, str) or ".." not in word:
            return None
        text = word if isinstance(word, Text) else Text(word, position)
        cut = text.index("..")
        low, high = (self.fixed_formula(text_part(text, start, end), "a range bound")
                     for start, end in ((0, cut), (cut + 2, len(text))))
        if high < low:
            raise SpecError(f"a range goes from low to high, not {low}..{high}", position, code=code,
                            hint=f"write the smaller bound first: {high}..{low}")
        if not -RANGE_BOUND <= low <= high <= RANGE_BOUND:
            raise SpecError(f"a range's bounds lie within ±{RANGE_BOUND:,}, not {low}..{high}", position,
                            code=code, hint="count something smaller, or use an option with min: and max:")
        return low, high

    def fixed_formula(self, text: Text, what: str) -> int:
        """The whole number the formula ``text`` gives when compiling; RC310 when it is not a
        number, RC356 when it reads the game state or fails."""
        return compile_time_value(self.checker.formula(text, None, T.INT, what), {}, text.position, what)


def compile_time_value(formula, env: dict, position: Position, what: str, code: str = "RC356"):
    """The value of the checked ``formula`` for the variables ``env`` (:func:`evaluate`), computed
    while compiling. SpecError ``code`` at ``position`` when it reads the game state or fails."""
    try:
        return evaluate(formula, env)
    except NotConstant:
        raise SpecError(f"{what} must be fixed when compiling, but this formula reads the game state",
                        position, code=code, hint=_FIXED_HINT) from None
    except (ArithmeticError, LookupError) as error:
        raise SpecError(f"{what} fails when compiling: {error}", position, code=code,
                        hint="make the formula give a value for everything it is computed for") from None


def text_part(text: Text, start: int, end: int) -> Text:
    """The substring ``text[start:end]`` keeping each character's position."""
    return Text(text[start:end], text.at(start),
                offsets=lambda: [text.at(i) for i in range(start, end)])
