"""Spec errors: one invalid spec per error code (tests/fixtures/spec_errors/), each reported
gcc-style at its exact file, line and column with a stable code; and the cases of
/work/shared/cases/spec-language.md (precedence, messages, positions, duplicate keys, YAML 1.1)."""

from __future__ import annotations

from pathlib import Path
import re

from lark import Lark
from lark.exceptions import GrammarError
import pytest

from rulecraft.compiler import check, compile_source, game_names, load_rules
from rulecraft.compiler.parser import GRAMMAR_PATH, _parser, grammar_text, parse_effects, parse_formula
from rulecraft.errors import Position, RulecraftError, RuleSyntaxError, SpecError, SpecLoadError
from rulecraft.loader import Text, load_yaml, plain
from rulecraft.runtime.engine import Game

from helpers import FIXTURES, LARK_INTERNALS, REPO

SPEC_ERRORS = FIXTURES / "spec_errors"
ANY = object()      # a hint the test does not pin down

# fixture file, code, line, column, message, hint
CASES = [
    ("rc101_unclosed_flow", "RC101", 5, 8, "this is not valid YAML: expected ',' or ']', but got ':'", ANY),
    ("rc102_duplicate_key", "RC102", 9, 5, "duplicate key 'do': it is already defined on line 8",
     "each key may appear once in a mapping; merge or rename one of them"),
    ("rc103_null_key", "RC103", 4, 3, "a mapping key must be a plain word or number", None),
    ("rc113_alias_bomb", "RC113", 9, 10, 'with this alias the file reaches 15,670 nodes through aliases, more than 10,000',
     'write the repeated part out, or alias something smaller: aliases of aliases grow exponentially'),
    ("rc114_tag", "RC114", 8, 21, "the tag !!int does not fit the value '0x10'",
     'remove the tag and write the value plainly: a decimal whole number, true or false, null'),
    ("rc115_control_character", "RC115", 2, 24, 'the control character U+0007 cannot appear in a YAML file',
     'delete it (it is invisible: often pasted by mistake); in a double-quoted text an escape such as \\t is allowed'),
    ("rc116_huge_number", "RC116", 7, 40, 'the number -1e999 is too large to compute with (beyond ±1.8e308)',
     'write a number a game can reach, such as -1000 and 1000'),
    ("rc201_operand_expected", "RC201", 9, 17, "unexpected 'and': expected a number, a name or '('", ANY),
    ("rc202_unexpected_character", "RC202", 9, 19, "the character '&' cannot appear here",
     "write 'and' instead of '&&'"),
    ("rc203_end_plain", "RC203", 8, 17, "unexpected end of expression: expected a number, a name or '('", None),
    ("rc203_end_quoted", "RC203", 8, 18, "unexpected end of expression: expected a number, a name or '('", None),
    ("rc203_end_single_quoted", "RC203", 8, 18,
     "unexpected end of expression: expected a number, a name or '('", None),
    ("rc203_end_block", "RC203", 10, 15, "unexpected end of expression: expected a number, a name or '('", None),
    ("rc203_end_folded", "RC203", 10, 15, "unexpected end of expression: expected a number, a name or '('", None),
    ("rc204_empty_rule", "RC204", 9, 11, "this rule is empty", "write a condition, a formula or effects here"),
    ("rc301_unknown_name", "RC301", 9, 12, "unknown name 'nn'", "did you mean 'n'?"),
    ("rc302_function_as_name", "RC302", 9, 12, "'abs' is a function: call it as abs(...)", None),
    ("rc303_no_attribute", "RC303", 9, 14, "a team has no attribute 'colour'", "known: next, opponent, pieces"),
    ("rc304_not_indexable", "RC304", 9, 12, "a number cannot be indexed with [...]", None),
    ("rc305_unknown_function", "RC305", 9, 12, "unknown function 'nax'", "did you mean 'max'?"),
    ("rc306_arity", "RC306", 9, 12, "abs() takes 1 argument(s), not 2", None),
    ("rc307_recursive_definition", "RC307", 6, 14, "twice() calls itself; definitions may not be recursive", None),
    ("rc308_all_of_entities", "RC308", 9, 16, "all() goes through true/false values, not a list of a team",
     "write all(C for x in S), e.g. all(p.at != none for p in pieces)"),
    ("rc308_all_until", "RC308", 9, 16, "all() goes through true/false values, not a list of a space",
     "write all(C for x in S), e.g. all(p.at != none for p in pieces)"),
    ("rc308_first_of_lines", "RC308", 8, 48, "first() picks from a list of numbers, teams, spaces, pieces, "
     "kinds or values, not a list of list of a space", None),
    ("rc309_not_a_list", "RC309", 9, 29, "a number is not a list to go through", ANY),
    ("rc310_type", "RC310", 9, 12, "this condition gives a number, but a condition (true or false) is needed", None),
    ("rc310_turn_of_a_number", "RC310", 8, 47, "the direction of turn() must be a value of 'direction', "
     "not a number", None),
    ("rc310_min_of_spaces", "RC310", 8, 40, "min() of a list needs numbers, not a list of a space",
     "write min(E for x in S) to take a number of each item"),
    ("rc312_goto_nowhere", "RC312", 8, 15, "no phase or step is called 'nowhere'", None),
    ("rc313_reveal", "RC313", 8, 17, "only a state field declared with 'until: revealed' can be revealed", None),
    ("rc314_assign_constant", "RC314", 8, 10, "cannot assign to 'a': it cannot be changed", ANY),
    ("rc315_event_types", "RC315", 8, 48, "event 'scored' had 'by' as a team elsewhere", None),
    ("rc316_lines_needs_a_number", "RC316", 9, 24,
     "the length in lines(n) must be fixed when compiling, but this formula reads the game state", ANY),
    ("rc317_none_in_language_2", "RC317", 10, 23, "'target.row' needs a value here, but it may be none",
     "write 'target != none and ...' first, or give the field an initial: value"),
    ("rc317_step_off_the_board", "RC317", 8, 44, "'step(C3, n).mark' needs a value here, but it may be none",
     "write 'step(C3, n) != none and ...' first, or give the field an initial: value"),
    ("rc318_while_limit", "RC318", 6, 50,
     "a while loop's limit must be fixed when compiling, but this formula reads the game state", ANY),
    ("rc319_derived_circle", "RC319", 5, 28, "derived fields depend on each other in a circle: up → down → up", ANY),
    ("rc320_not_a_mapping", "RC320", 1, 1, "a game spec is a mapping of sections (game:, board:, turn:, ...)", None),
    ("rc320_section_not_a_mapping", "RC320", 2, 7, "game: must be a mapping of keys", None),
    ("rc320_params_not_a_mapping", "RC320", 8, 13,
     "'params' in action 'go' must be a mapping of names to values, not a text, 'square'", ANY),
    ("rc320_triggers_not_a_list", "RC320", 7, 11, "triggers: must be a list", None),
    ("rc321_unknown_section", "RC321", 3, 1, "unknown section 'turns'", "did you mean 'turn'?"),
    ("rc321_unknown_key", "RC321", 2, 40, "unknown key 'sumary' in game:", "did you mean 'summary'?"),
    ("rc322_missing_section", "RC322", 3, 1, "the spec needs a 'end:' section", None),
    ("rc323_not_a_text", "RC323", 9, 12,
     "'returns' in end: must be a text (a rule string, a formula, a condition), not a list", ANY),
    ("rc324_invalid_name", "RC324", 5, 14, "the team 'b-c' is not a valid name", ANY),
    ("rc324_reserved_word", "RC324", 4, 3, "the state field 'where' is a reserved word", None),
    ("rc325_declared_twice", "RC325", 4, 3, "the name 'b' is declared twice", ANY),
    ("rc325_direction_enumeration", "RC325", 4, 3, "the enumeration 'direction' is built in: the eight grid "
     "directions n, ne, e, se, s, sw, w, nw", "give yours another name"),
    ("rc326_phase_without_rule", "RC326", 6, 5,
     "phase 'p' needs a rule id ('rule: \"4.1\"') naming its rulebook section", None),
    ("rc327_teams_not_a_list", "RC327", 5, 10, "'teams' in game: must be a list, not a text, 'a'", ANY),
    ("rc367_count_not_a_number", "RC367", 8, 32, "'count' in a roster entry must be a whole number, not a text, '3'",
     "write count: as a whole number"),
    ("rc352_choose_nothing", "RC352", 5, 45, "choose: offers no action", "list the actions offered: choose: [go]"),
    ("rc367_choose_null", "RC367", 5, 45, "'choose' in a phase must be a name or a list, not null (nothing)", ANY),
    ("rc328_option_type", "RC328", 4, 17, "option type 'float' is unknown", "use int, bool or choice"),
    ("rc329_option_out_of_range", "RC329", 4, 32, "option 'target' cannot be 50: allowed 1..10", None),
    ("rc330_empty_enumeration", "RC330", 4, 11, "enumeration 'colour' lists its values", None),
    ("rc331_grid_and_spaces", "RC331", 4, 3, "a board has either grid: or spaces:, exactly one", None),
    ("rc332_grid_size", "RC332", 4, 16, "'rows' is a whole number from 1 to 64, not 0", ANY),
    ("rc333_space_names_clash", "RC333", 4, 37, "this name pattern gives two spaces the same name", None),
    ("rc334_no_spaces", "RC334", 4, 11, "spaces: lists the board's spaces", None),
    ("rc335_preset_needs_grid", "RC335", 7, 13, "'king' adjacency needs a grid board", None),
    ("rc336_area_not_a_condition", "RC336", 8, 11, "an area is a condition on the space z", None),
    ("rc337_kind_attribute", "RC337", 5, 19,
     "kind attribute 'speed' must be a whole number or a list of grid steps [rows, columns]", None),
    ("rc338_roster_team", "RC338", 5, 14, "unknown team 'c'", None),
    ("rc339_die_without_faces", "RC339", 4, 15, "faces: lists the die's faces", None),
    ("rc340_unknown_type", "RC340", 4, 13, "unknown type 'integer'", ANY),
    ("rc341_visibility", "RC341", 4, 27, "visible: is all or owner", None),
    ("rc342_table_keys", "RC342", 4, 27, "keys: lists one or two key types", None),
    ("rc343_table_row_missing", "RC343", 7, 13, "table 'gain' has no row for 3", None),
    ("rc344_definition_head", "RC344", 4, 3, "'twice(x' is not a definition head like 'name(a, b)'", None),
    ("rc345_empty_turn", "RC345", 3, 7, "turn: needs at least one phase", None),
    ("rc346_phase_twice", "RC346", 7, 13, "two phases are called 'p'", None),
    ("rc347_two_step_kinds", "RC347", 9, 9, "a step does exactly one of do:, choose:, secret:, roll: or call:", None),
    ("rc348_notation_parameter", "RC348", 8, 20, "the notation of 'go' names 'where', which is not one of its fields", "its fields: none"),
    ("rc349_parameter_type", "RC349", 8, 19, "'colour' is not a parameter type", ANY),
    ("rc350_stop_in_do", "RC350", 8, 9, "stop leaves a choice; it belongs in an action's effect", None),
    ("rc351_unknown_die", "RC351", 8, 33, "unknown die 'd7'", "declare it under dice:"),
    ("rc352_unknown_action", "RC352", 4, 35, "unknown action 'og'", "declare it under actions:"),
    ("rc353_choose_without_chooser", "RC353", 4, 5, "choose: needs by: naming the team that chooses", None),
    ("rc370_follow_up_parameter", "RC370", 15, 7, "the parameter 'to' has the name of a parameter of 'go', "
     "which offers this action: that one is already in scope here",
     "call it, say, 'to_here' (the notation writes it as {to_here})"),
    ("rc370_let_hides_parameter", "RC370", 13, 18, "'to' is a parameter of the action that started this chain; "
     "a new name cannot hide it", "call it, say, 'to_here'"),
    ("rc371_offering_action_lacks", "RC371", 20, 21, "'to' is not a parameter of action 'wait', which also "
     "offers this action", "give the actions that offer this one the same parameters, or read only those they share"),
    ("rc372_reason_unclosed", "RC372", 13, 54, "this '{' opens a placeholder that is never closed",
     "close it with '}', or write '{{' for a brace"),
    ("rc354_nested_then", "RC354", 9, 9, "action 'inner' has then: steps, so it cannot be chosen inside "
     "another action's then: steps", None),
    ("rc355_no_limits", "RC355", 2, 1, "limits: max_plies: is needed — a true upper bound on the plies of a "
     "game, which the rules must guarantee", None),
    ("rc356_board_formula_fails", "RC356", 8, 11,
     "a board formula fails when compiling: integer division or modulo by zero", ANY),
    ("rc357_invariant_kinds", "RC357", 9, 5, "an invariant has either holds: (a condition on every state) or "
     "never_decreases: (a number that may not go down from one state to the next)", None),
    ("rc358_end_range", "RC358", 7, 39, "range: is [lowest, highest], the bounds of every team's return", None),
    ("rc360_step_needs_a_grid", "RC360", 11, 39, "step() needs a grid board: directions are those of rows, "
     "columns and diagonals", "give a board of spaces: a coordinates: {row: ..., column: ...} of each zone, or use neighbors(z) and adjacent(a, b)"),
    ("rc361_rule_as_number", "RC361", 6, 22, 'the rule id 4.10 is read by YAML as the number 4.1, not as a text',
     'quote it: rule: "4.10"'),
    ("rc362_roster_count", "RC362", 5, 24, 'this makes 100,000,000 pieces in the roster, more than the limit of 10,000',
     'a roster lists the pieces a game starts with; count fewer'),
    ("rc363_nested_formula", "RC363", 6, 263, 'this rule string is nested more than 60 deep',
     'name a part of it under define:, or write it with fewer nested parts'),
    ("rc374_across_unknown_field", "RC374", 6, 14, "'ofside_line' in across: is no state field",
     "did you mean 'offside_line'?"),
    ("rc374_across_not_a_number", "RC374", 6, 14,
     "'ball' in across: is not a whole-number state field, plain or one per team", ANY),
    ("rc375_next_unknown_phase", "RC375", 9, 33, "next: names no phase of setup: or turn: called 'ending'", None),
    ("rc375_call_unknown", "RC375", 9, 15, "no called phase 'q' (called phases are declared under phases:)",
     "it is a phase of setup:/turn:; go there with next:"),
    ("rc376_call_cycle", "RC376", 17, 11, "the calls form a cycle: scoring → bonus → scoring",
     "a called phase returns to its caller, so it cannot call itself again"),
    ("rc377_goto_out_of_called", "RC377", 15, 23, "a called phase may not goto 'q' outside itself", ANY),
    ("rc379_zones_share_a_place", "RC379", 8, 22, "two zones are at row 1, column 1",
     "give every zone its own row and column"),
    ("rc321_drawing_unknown_key", "RC321", 6, 5, "unknown key 'shades' in board: drawing:", "did you mean 'shade'?"),
    ("rc380_spaces_drawn_over_each_other", "RC380", 8, 12, "the spaces A and B are drawn over each other", None),
    ("rc381_shade_not_a_number", "RC381", 6, 12,
     "the drawing's shade: must be a number or a condition on the space z", None),
    ("rc382_shade_out_of_range", "RC382", 6, 12, "the shade of the space C1 is 4, not one of 0 to 3", None),
    ("rc383_unknown_line", "RC383", 6, 22, "the drawing has no line 'center_circle'", "did you mean 'centre_circle'?"),
    ("rc384_goal_too_wide", "RC384", 6, 20, "a goal 5 cells wide does not fit an end 3 cells wide", None),
    ("rc385_outline_unknown_area", "RC385", 8, 15, "'penalty_areas' in outline: is no area of the board",
     "did you mean 'penalty_area'?"),
    ("rc386_place_fails_on_a_space", "RC386", 8, 16, "the drawing's place x: on the space B fails when compiling: "
     "integer division or modulo by zero", "make the formula give a value for everything it is computed for"),
    ("rc387_three_goals", "RC387", 6, 12, "goals: lists 3 goals; it gives one for both ends or a list of two, "
     "the first team's end then the second's", None),
    ("rc387_goal_past_the_corner", "RC387", 6, 64, "a goal 2 cells wide centred at 2.5 reaches past the end, "
     "which runs from 0 to 3", None),
    ("rc321_goal_unknown_key", "RC321", 6, 60, "unknown key 'att' in board: drawing: goals:", "did you mean 'at'?"),
    ("rc388_mark_unknown_area", "RC388", 8, 13, "'penalty_aera' in marks: is no area of the board with spaces",
     "did you mean 'penalty_area'?"),
    ("rc389_unknown_mark", "RC389", 8, 27, "an area cannot be drawn as 'boxes'", "did you mean 'box'?"),
    ("rc359_language", "RC359", 2, 50, "language: is the version of the rule language the spec is written "
     "in, 1 or 2", None),
]

# Codes the compiler declares but no spec can reach, each with the reason.
UNREACHABLE = {
    "RC311": "every rule of the grammar has a translation, so 'this construct is not a value' "
             "only guards against a grammar rule added without one",
}
# Warnings: the spec compiles, and the one warning is at (line, column) with this message.
WARNING_CASES = [
    ("rc378_goto_between_phases", "RC378", 8, 39, "goto 'q' leaves the phase (deprecated)"),
    ("rc373_old_selection", "RC373", 9, 18, "'x in S where C' is deprecated: a list is written as a "
     "comprehension, [x for x in S where C]"),
]
# Codes raised without a position in a spec file; tested below by their own tests (RC118 and
# RC119, of `rulecraft fmt`, in test_upgrade.py).
WITHOUT_POSITION = {"RC104", "RC105", "RC118", "RC119"}


def spec_error(path: Path, options: dict | None = None) -> SpecError:
    """The :class:`SpecError` that compiling the spec at ``path`` raises (failing if none)."""
    with pytest.raises(SpecError) as raised:
        compile_source(str(path), options)
    return raised.value


def assert_gcc_format(error: SpecError) -> None:
    """``file:line:col: error[CODE]: message``, then the source line and a caret under the column."""
    where = error.position
    lines = str(error).splitlines()
    assert lines[0] == f"{where.file}:{where.line}:{where.column}: error[{error.code}]: {error.message}"
    source = Path(where.file).read_text(encoding="utf-8").splitlines()[where.line - 1]
    assert lines[1] == f"  {where.line:>4} | {source}"
    assert lines[2] == "       | " + " " * (where.column - 1) + "^"


@pytest.mark.parametrize("name, code, line, column, message, hint", CASES, ids=[c[0] for c in CASES])
def test_spec_error(name, code, line, column, message, hint):
    path = SPEC_ERRORS / f"{name}.yaml"
    error = spec_error(path)
    assert (error.code, error.message) == (code, message)
    assert error.position == Position(str(path), line, column)
    if hint is not ANY:
        assert error.hint == hint
    assert_gcc_format(error)


def test_every_fixture_is_in_the_table():
    assert sorted(p.stem for p in SPEC_ERRORS.glob("*.yaml")) == sorted(c[0] for c in CASES + WARNING_CASES)


@pytest.mark.parametrize("name, code, line, column, message", WARNING_CASES)
def test_spec_warning(name, code, line, column, message):
    path = SPEC_ERRORS / f"{name}.yaml"
    _, warnings = check(str(path))
    assert [(w.code, w.message, w.position) for w in warnings] == [(code, message, Position(str(path), line, column))]
    assert str(warnings[0]).startswith(f"{path}:{line}:{column}: warning[{code}]: {message}")


def test_old_selection_warning_shows_the_new_form_of_that_expression():
    _, warnings = check(str(SPEC_ERRORS / "rc373_old_selection.yaml"))
    assert warnings[0].hint == "write count(x for x in teams where x != a)"


def test_every_spec_error_code_has_a_fixture():
    """Each code the loader, parser and compiler can raise has a fixture (or a stated reason)."""
    sources = [REPO / "rulecraft" / "loader.py", *sorted((REPO / "compiler").glob("*.py"))]
    raised = {code for path in sources for code in re.findall(r'"(RC\d{3})"', path.read_text())}
    covered = {c[1] for c in CASES + WARNING_CASES} | set(UNREACHABLE) | WITHOUT_POSITION
    assert raised - covered == set(), "write a fixture for these codes"
    assert covered - raised == set(), "these codes are no longer raised"


def test_duplicate_key_names_both_lines():
    error = spec_error(SPEC_ERRORS / "rc102_duplicate_key.yaml")
    assert error.also == Position(error.position.file, 8, 5)
    assert f"{error.also}: note: first defined here" in str(error).splitlines()


def test_second_phase_of_a_name_points_at_the_first():
    error = spec_error(SPEC_ERRORS / "rc346_phase_twice.yaml")
    assert error.also == Position(error.position.file, 6, 13)


def test_no_message_mentions_lark_internals():
    messages = [str(spec_error(SPEC_ERRORS / f"{case[0]}.yaml")) for case in CASES]
    for text in INLINE_SYNTAX_ERRORS:
        with pytest.raises(RuleSyntaxError) as raised:
            parse_effects(Text(text, Position("<inline>", 1, 1)))
        messages.append(str(raised.value))
    for message in messages:
        assert not [word for word in LARK_INTERNALS if word in message], message


# Broken rule strings beyond the fixtures, for the Lark-internals check.
INLINE_SYNTAX_ERRORS = ["(n", "n)", "n ==", "if n then", "n = (3", "x = [1, 2", "n = 3 4", "n = 1 +* 2",
                        "for x in do { }", "event e(", "goto", "n += 1;;", "n = -", "n = a.", "n = a[",
                        "n = 'open", "{ n = 1 }", "n = 1 else", "= 3", "n = f(1,)", "n = 3 @ 4"]


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(RulecraftError) as raised:
        compile_source("no-such-game")
    assert raised.value.code == "RC105"
    assert raised.value.message == f"no game called 'no-such-game' (known games: {', '.join(game_names())})"


def test_unreadable_spec_file(tmp_path):
    missing = tmp_path / "missing.yaml"
    with pytest.raises(SpecLoadError) as raised:
        load_yaml(str(missing))
    assert raised.value.code == "RC104"
    assert raised.value.message.startswith(f"cannot read {missing}: ")


def test_spec_file_that_is_not_utf8(tmp_path):
    spec = tmp_path / "game.yaml"
    spec.write_bytes("game: {id: g, title: 'Peli – äö'}\n".encode("latin-1", errors="replace"))
    with pytest.raises(SpecLoadError) as raised:
        compile_source(spec)
    assert raised.value.code == "RC104"
    assert "UTF-8" in raised.value.message and "line 1" in raised.value.message


def test_unknown_option_is_named_with_a_suggestion():
    error = spec_error(REPO / "examples" / "pig" / "game.yaml", {"targte": 5})
    assert (error.code, error.message, error.hint) == ("RC329", "the game has no option 'targte'",
                                                       "did you mean 'target'?")
    assert str(error).splitlines()[0] == "error[RC329]: the game has no option 'targte'"


# ---------- precedence and associativity, evaluated by a compiled spec ----------
ARITHMETIC_SPEC = """\
game: {id: arithmetic, title: Arithmetic, teams: [a, b]}
state:
  value: {type: int, initial: "2 * 3 - 1"}
  chained: {type: int, initial: "20 - 4 - 3 - 2"}
  divided: {type: int, initial: "-7 // 2 * 3 % 5"}
turn:
  - {phase: p, rule: "1", do: finish}
end: {rule: "1", returns: "0"}
invariants:
  - {name: minus is left associative, holds: "10 - 4 - 3 == 3"}
  - {name: not binds looser than a comparison, holds: "not 1 + 1 == 3 and 2 * 2 == 4 or 1 // 0 == 0"}
limits: {max_plies: 1}
"""


def test_precedence_and_associativity(tmp_path):
    spec = tmp_path / "game.yaml"
    spec.write_text(ARITHMETIC_SPEC, encoding="utf-8")
    game = Game(load_rules(spec))
    state = game.new_initial_state()
    assert state.value("value") == 5
    assert state.value("chained") == 11
    assert state.value("divided") == (-7 // 2 * 3) % 5
    assert [formula(state.s) for *_, formula in game.rules.invariants] == [True, True]


def test_comparisons_do_not_chain():
    with pytest.raises(RuleSyntaxError):
        parse_formula(Text("1 < 2 < 3", Position("<inline>", 1, 1)))


# ---------- YAML 1.1 surprises ----------
def test_yaml_1_1_words_and_octals_stay_yaml_1_2():
    data = plain(load_yaml("<inline>", "languages: [fi, no]\non: 1\noff: 2\nten: 010\neight: 08\nyes: y\n"))
    assert data == {"languages": ["fi", "no"], "on": 1, "off": 2, "ten": 10, "eight": 8, "yes": "y"}


YAML_1_1_SPEC = """\
game: {id: surprises, title: Surprises, teams: [fi, no]}
board:
  grid: {rows: 010, columns: 08}
state:
  on: {type: bool}
  off: {type: int, initial: "010"}
turn:
  - {phase: p, rule: "1", do: "on = true; finish"}
end: {rule: "1", returns: "0"}
limits: {max_plies: 1}
"""


def test_yaml_1_1_surprises_in_a_compiled_spec(tmp_path):
    spec = tmp_path / "game.yaml"
    spec.write_text(YAML_1_1_SPEC, encoding="utf-8")
    game = Game(load_rules(spec))
    assert game.teams == ("fi", "no")
    assert (game.rules.grid["rows"], game.rules.grid["columns"]) == (10, 8)
    assert [f.name for f in game.rules.fields] == ["at", "on", "off"]
    state = game.new_initial_state()
    assert (state.value("on"), state.value("off")) == (1, 10)


# ---------- the grammar is built in strict mode ----------
def test_grammar_builds_in_strict_mode():
    parser = _parser()
    assert parser.options.strict and parser.options.parser == "lalr"
    assert grammar_text() == GRAMMAR_PATH.read_text(encoding="utf-8")


def test_a_conflicting_grammar_is_refused():
    """An ambiguous sum (``sum "+" sum``) is a shift/reduce conflict: strict mode refuses it."""
    original = '| sum "+" product                                -> add'
    text = grammar_text()
    assert original in text
    conflicting = text.replace(original, '| sum "+" sum                                    -> add')
    options = dict(parser="lalr", start=["start_formula", "start_effects"], lexer="basic",
                   maybe_placeholders=True)
    Lark(conflicting, **options)                     # silently resolved without strict mode
    with pytest.raises(GrammarError):
        Lark(conflicting, strict=True, **options)


def test_an_error_in_a_procedure_names_the_call_and_where_its_argument_was_set(tmp_path):
    """A procedure's body is checked with each call's argument types, so an error there comes
    with notes: the call (with each argument's type) and the let that set the argument."""
    text = (REPO / "rulespecs" / "ball" / "game.yaml").read_text(encoding="utf-8")
    broken = text.replace('piece_on(z): "first(p for p in pieces where p.at == z)"', 'piece_on(z): "1"')
    assert broken != text
    (tmp_path / "game.yaml").write_text(broken, encoding="utf-8")
    error = spec_error(tmp_path / "game.yaml")
    lines = broken.splitlines()
    assert (error.code, lines[error.position.line - 1].strip()) == ("RC303", "p.down = true;")
    (call, called), (let, set_here) = error.notes
    assert called == "in knock_down(), called here with p = opponent (a number)"
    assert lines[call.line - 1].strip() == "knock_down(opponent);"
    assert set_here == "opponent is set here" and "let opponent = piece_on(to)" in lines[let.line - 1]
    assert f"{call}: note: {called}" in str(error).splitlines()
