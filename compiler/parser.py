"""Parse rule-language strings (conditions, formulas, effects) with the Lark grammar.

The parser is LALR, built once in strict mode (a grammar conflict is an error, never resolved
silently). Syntax errors are reported at the spec file's line and column, in the designer's words:
no Lark-internal terminal name ever reaches a message.

Source: ``compiler/grammar.lark``; Lark documentation, "Parsers" and "Error handling".
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Tree, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulecraft.errors import RuleSyntaxError, SpecError
from rulecraft.limits import MAX_FORMULA_DEPTH, MAX_INT_DIGITS
from rulecraft.loader import Text

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

_KEYWORDS = ("if", "then", "else", "and", "or", "not", "in", "for", "do", "where", "true",
             "false", "none", "goto", "stop", "finish", "reveal", "event", "until")

# How each terminal is named to a designer.
_DESCRIBE = {
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text",
    "COMPARE": "a comparison", "$END": "the end of the expression",
}
_STARTERS = {"NAME", "INT", "LPAR", "MINUS", "STRING", "LSQB"}


@lru_cache(maxsize=2)
def _parser(positions: bool = False) -> Lark:
    # no propagate_positions but to point at a part too deeply nested: it slows every parse by a
    # third, and an error's position is found from the first token of the offending tree
    # (expressions.ExpressionCompiler._where)
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", strict=True,
                propagate_positions=positions, start=["start_formula", "start_effects"], lexer="basic",
                maybe_placeholders=True)


@lru_cache(maxsize=1)
def _token_parser() -> Lark:
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", strict=True, keep_all_tokens=True,
                start=["start_formula", "start_effects"], lexer="basic", maybe_placeholders=True)


def token_tree(text: str) -> Tree | None:
    """The parse tree of a rule string with every token kept (keywords, brackets, commas), each
    knowing its offsets: what rewriting the string by position needs. None when the string is
    neither effects nor a formula."""
    for start in ("start_effects", "start_formula"):
        try:
            return _token_parser().parse(str(text), start=start)
        except UnexpectedInput:
            continue
    return None


def grammar_text() -> str:
    """The grammar's source text (part of the compile cache key)."""
    return GRAMMAR_PATH.read_text(encoding="utf-8")


def parse_formula(text: Text) -> Tree:
    """Parse a condition or value formula; returns its syntax tree.

    Raises :class:`RuleSyntaxError` (RC201 unexpected token, RC202 unexpected character,
    RC203 unexpected end) positioned in the spec file.
    """
    return _parse(text, "start_formula").children[0]


def parse_effects(text: Text) -> Tree:
    """Parse a sequence of effect statements; returns the ``effects`` tree."""
    return _parse(text, "start_effects").children[0]


def _parse(text, start: str) -> Tree:
    source = str(text)
    if not source.strip():
        raise RuleSyntaxError("this rule is empty", _at(text, 0), code="RC204",
                              hint="write a condition, a formula or effects here")
    try:
        tree = _parser().parse(source, start=start)
    except UnexpectedInput as error:
        raise _translate(error, text, source) from None
    _check_size(tree, text, start)
    return tree


def _check_size(tree: Tree, text, start: str) -> None:
    """Refuse a tree nested deeper than :data:`MAX_FORMULA_DEPTH` or holding a number of more
    than :data:`MAX_INT_DIGITS` digits (SpecError RC363 where the part starts), walking it with
    an explicit stack: every later stage is recursive, this check must not be."""
    too_deep = _too_deep(tree)
    if isinstance(too_deep, Token):
        raise SpecError(f"this number has {len(too_deep):,} digits, at most {MAX_INT_DIGITS:,}",
                        _at(text, too_deep.start_pos), code="RC363",
                        hint="no count of a game is that large; use a smaller number")
    if too_deep is not None:
        # the tree keeps no positions (they slow every parse): parse again with them to point there
        positioned = _too_deep(_parser(positions=True).parse(str(text), start=start))
        raise SpecError(f"this rule string is nested more than {MAX_FORMULA_DEPTH} deep",
                        _at(text, positioned.meta.start_pos), code="RC363",
                        hint="name a part of it under define:, or write it with fewer nested parts")


def _too_deep(tree: Tree):
    """The first (outermost, leftmost) subtree of ``tree`` deeper than :data:`MAX_FORMULA_DEPTH`,
    or else the first INT token of too many digits, or else None."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            if node.type == "INT" and len(node) > MAX_INT_DIGITS:
                return node
        elif depth > MAX_FORMULA_DEPTH:
            return node
        else:
            stack.extend((child, depth + 1) for child in reversed(node.children) if child is not None)
    return None


def _translate(error: UnexpectedInput, text, source: str) -> RuleSyntaxError:
    if isinstance(error, UnexpectedEOF) or (
            isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        return RuleSyntaxError("unexpected end of expression: " + _expected(error.expected),
                               _at(text, len(source.rstrip())), code="RC203")
    if isinstance(error, UnexpectedCharacters):
        char = source[error.pos_in_stream]
        return RuleSyntaxError(f"the character '{char}' cannot appear here",
                               _at(text, error.pos_in_stream), code="RC202",
                               hint=_char_hint(char))
    token: Token = error.token
    word = str(token)
    hint = None
    if word in _KEYWORDS and "NAME" in error.expected:
        hint = f"'{word}' is a reserved word of the rule language; pick another name"
    elif word == "=" and "COMPARE" not in error.expected:
        hint = "to compare two values write '=='"
    return RuleSyntaxError(f"unexpected '{word}': {_expected(error.expected)}",
                           _at(text, token.start_pos), code="RC201", hint=hint)


def _expected(names) -> str:
    names = set(names)
    if names & _STARTERS and len(names & _STARTERS) >= 3:
        return "expected a number, a name or '('"
    described = sorted({_DESCRIBE.get(name, _keyword(name)) for name in names})
    if not described:
        return "the expression cannot continue here"
    if len(described) > 6:
        described = described[:6] + ["…"]
    return "expected " + ", ".join(described[:-1]) + (" or " if len(described) > 1 else "") + described[-1]


def _keyword(terminal: str) -> str:
    """Describe a terminal by its literal text, never by Lark's internal name."""
    for definition in _parser().terminals:
        if definition.name == terminal and definition.pattern.type == "str":
            return f"'{definition.pattern.value}'"
    return "a symbol"


def _char_hint(char: str) -> str | None:
    if char == "&":
        return "write 'and' instead of '&&'"
    if char == "|":
        return "write 'or' instead of '||'"
    if char == "!":
        return "write 'not' to negate, or '!=' to compare"
    if char == "/":
        return "integer division is written '//'"
    return None


def _at(text, offset: int):
    return text.at(offset) if isinstance(text, Text) else None
