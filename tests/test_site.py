"""The rulebook site: text checks, placeholders, one source of truth, originality.

Every test that edits something works on a copy of ``rulespecs/taktinen`` under a temporary
``rulespecs/`` folder, so the real spec and texts are never touched and games still in progress
elsewhere in ``rulespecs/`` do not matter. The browser tests are in ``test_site_browser.py``.
"""

from __future__ import annotations

import os
from pathlib import Path
import re
import shutil
import socket
import threading
import time
import urllib.request

import pytest
from typer.testing import CliRunner
import yaml

from rulecraft.cli import app
from rulecraft.compiler import load_rules
from rulecraft.errors import RulecraftError
from rulecraft.runtime.engine import Game
from rulecraft.site.board import board_svg
from rulecraft.site.book import Book
from rulecraft.site.check import check_book, check_site
from rulecraft.site.context import glossary_terms
from rulecraft.site.examples import enclosing_phases, play, player_data, trails
from rulecraft.site.pages import GamePages
from rulecraft.site.serve import serve
from rulecraft.site.templating import Renderer
from rulecraft.site.texts import LANGUAGES, SITE_TEXT, load_text

REPO = Path(__file__).resolve().parent.parent
GAME = REPO / "rulespecs" / "taktinen"
SEEDS = Path(os.environ.get("RULECRAFT_SEEDS", REPO.parent / "shared" / "seeds"))
RUN = 8   # words: no run this long may be shared with a seed


@pytest.fixture
def root(tmp_path) -> Path:
    """A folder holding ``rulespecs/taktinen``, a copy of the real game (spec, scenarios, texts)."""
    shutil.copytree(GAME, tmp_path / "rulespecs" / "taktinen")
    return tmp_path


def _game_dir(root: Path) -> Path:
    return root / "rulespecs" / "taktinen"


def _edit_text(root: Path, language: str, change) -> None:
    """Load a text file of the copy as plain YAML, let ``change`` edit it, write it back."""
    path = _game_dir(root) / "text" / f"{language}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.dump(data, Dumper=_QuotingDumper, allow_unicode=True, sort_keys=False, width=1000),
                    encoding="utf-8")


class _QuotingDumper(yaml.SafeDumper):
    """PyYAML's YAML 1.1 dumper leaves a hash such as 43e090160310 unquoted, which YAML 1.2
    reads as a number (too large a one: RC116): every text is written double-quoted."""


_QuotingDumper.add_representer(str, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text,
                                                                                 style='"'))


def _problems(root: Path, languages=LANGUAGES, **filters) -> list:
    found = check_book(Book(_game_dir(root), languages))
    return [p for p in found if all(getattr(p, k) == v for k, v in filters.items())]


def _check_cli(root: Path, *languages):
    return CliRunner().invoke(app, ["site", "check", "--root", str(root)]
                              + [f"--lang={language}" for language in languages])


# ---------------------------------------------------------------- completeness and staleness
def test_taktinen_texts_are_complete_and_current_in_every_language():
    problems = check_book(Book(GAME))
    assert not problems, "\n".join(map(str, problems))


def test_site_labels_are_complete_and_current_in_every_language(root):
    problems = [p for p in check_site([_game_dir(root)]) if p.game == "(site)"]
    assert not problems, "\n".join(map(str, problems))


def test_a_missing_italian_rule_text_fails_the_check_naming_game_language_and_rule(root):
    italian = ("en", "it")
    assert not _problems(root, italian, language="it", key="4.4")
    _edit_text(root, "it", lambda data: data["rules"].pop("4.4"))
    missing = _problems(root, italian, language="it", kind="rule", key="4.4")
    assert [p.message for p in missing] == ["missing"]
    result = _check_cli(root, "it")
    assert result.exit_code == 1
    assert "taktinen · it" in result.output
    assert "rule 4.4: missing" in result.output


@pytest.mark.parametrize("name", ["half", "formation"])      # a shown field, an action
def test_a_name_the_terminal_prints_without_a_term_fails_the_check(root, name):
    # the status line, `state` and --summary print shown fields and actions in words: a language
    # without the term would print the spec's English name, so the check asks for it
    finnish = ("en", "fi")
    _edit_text(root, "fi", lambda data: data["glossary"].pop(name))
    missing = _problems(root, finnish, language="fi", kind="term", key=name)
    assert [p.message for p in missing] == ["missing"]


def test_an_english_edit_makes_every_translation_of_that_rule_stale(root):
    def retitle(data):
        data["rules"]["4.4"]["title"] = "Keeping the ball"
    _edit_text(root, "en", retitle)
    stale = _problems(root, kind="rule", key="4.4")
    assert sorted(p.language for p in stale) == sorted(set(LANGUAGES) - {"en"})
    assert all(p.message.startswith("stale: the English text changed") for p in stale)
    assert not [p for p in _problems(root) if p.key != "4.4"]
    result = _check_cli(root)
    assert result.exit_code == 1
    for language in ("fi", "ru", "es", "de", "it"):
        assert f"taktinen · {language}" in result.output
    assert "rule 4.4: stale" in result.output


def test_text_for_a_rule_id_the_spec_no_longer_has_fails_the_check(root):
    spec = _game_dir(root) / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count('rule: "4.7.7"') == 1
    spec.write_text(text.replace('rule: "4.7.7"', 'rule: "4.7"'), encoding="utf-8")
    vanished = _problems(root, kind="rule", key="4.7.7")
    assert {p.language for p in vanished} == set(LANGUAGES)
    assert all("no longer exists in the spec" in p.message for p in vanished)
    # the text of 4.7 links to 4.7.7: that link names a vanished rule id too
    links = _problems(root, kind="rule", key="4.7")
    assert {p.language for p in links} == set(LANGUAGES)
    assert all("names rule id 4.7.7" in p.message for p in links)
    result = _check_cli(root)
    assert result.exit_code == 1 and "rule 4.7.7: names a rule id that no longer exists" in result.output


# ---------------------------------------------------------------- placeholders
def test_a_placeholder_typo_names_the_text_file_line_column_and_unknown_name(root):
    path = _game_dir(root) / "text" / "en.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines) if text.strip() == "{{ table.T1 }}")
    lines[line] = lines[line].replace("table.T1", "table.contorl_test")
    path.write_text("\n".join(lines), encoding="utf-8")
    column = lines[line].index("table.contorl_test") + 1
    [problem] = _problems(root, ("en",), language="en", kind="rule", key="4.4")
    assert problem.where == f"{path}:{line + 1}:{column}"
    assert "unknown name 'table.contorl_test'" in problem.message
    with pytest.raises(RulecraftError) as raised:
        GamePages(Book(_game_dir(root)), "en").render("rules")
    assert f"{path}:{line + 1}:{column}" in str(raised.value)
    assert "table.contorl_test" in str(raised.value) and "RC802" in str(raised.value)


def test_unknown_names_never_render_as_empty_text():
    renderer = Renderer({"term": glossary_terms({}, "en")}, language="en")
    for source in ("{{ tabel }}", "{{ term.zone }}", "{{ rule('9.9') }}"):
        with pytest.raises(RulecraftError):
            renderer.render(source)


def test_plural_forms_follow_each_language_cldr_rule():
    russian = load_text(GAME / "text", "ru")
    renderer = Renderer({"term": glossary_terms(russian.section("glossary"), "ru")}, language="ru")
    shown = [renderer.render("{{ n | plural(term.player) }}", n=n) for n in (1, 2, 5, 21, 22, 11)]
    assert shown == ["1\u00a0игрок", "2\u00a0игрока", "5\u00a0игроков", "21\u00a0игрок",
                     "22\u00a0игрока", "11\u00a0игроков"]
    finnish = load_text(GAME / "text", "fi")
    renderer = Renderer({"term": glossary_terms(finnish.section("glossary"), "fi")}, language="fi")
    assert renderer.render("{{ 10 | plural(term.outfield) }}") == "10\u00a0kenttäpelaajaa"


# ---------------------------------------------------------------- one source of truth
def test_changing_numbers_in_the_spec_changes_them_in_all_six_languages(root):
    spec = _game_dir(root) / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    changed = (text.replace("max_turns_per_half: {type: int, default: 60,", "max_turns_per_half: {type: int, default: 77,")
                   .replace("corner: 1, penalty: 2", "corner: 4, penalty: 2")
                   .replace('half_length: "45"', 'half_length: "40"'))
    assert changed.count("default: 77") == 1 and changed.count("corner: 4") == 1
    assert changed.count('half_length: "40"') == 1
    spec.write_text(changed, encoding="utf-8")
    book = Book(_game_dir(root))
    for language in LANGUAGES:
        pages = GamePages(book, language)
        rules, tables = pages.render("rules"), pages.render("tables")
        corner = str(pages.terms["corner"])
        assert "77" in rules and " 60 " not in rules, language
        minutes = set(re.findall(r"\b\d+\b", rules))
        assert {"40", "41", "80"} <= minutes and not {"45", "46", "90"} & minutes, language
        assert f"| {corner} | 4 |" in tables and f"| {corner} | 1 |" not in tables, language


# ---------------------------------------------------------------- board drawing
def test_a_grid_board_is_drawn_square_by_square():
    book = Book(REPO / "examples" / "tictactoe")
    svg = board_svg(book.game().rules, label="tic-tac-toe")
    assert svg.count('class="rc-space ') == 9 and 'data-space="B2"' in svg


def test_spec_text_is_escaped_on_the_board():
    book = Book(GAME)
    svg = board_svg(book.game().rules, label='<script>alert("x")</script>')
    assert "<script>" not in svg and "&lt;script&gt;" in svg


BALL = REPO / "rulespecs" / "ball"


def test_ball_english_text_is_complete_and_renders():
    problems = check_book(Book(BALL, ("en",)))
    assert not problems, "\n".join(map(str, problems))


def test_grid_board_facts_define_constants_and_space_tables_reach_the_texts():
    renderer = Book(BALL, ("en",)).renderer("en")
    text = ("{{ board.columns }}x{{ board.rows }} {{ board.column_letters | first }}-"
            "{{ board.column_letters | last }} {{ define.ap_per_turn }} {{ table.formation[5] }}")
    assert renderer.render(text) == "13x17 A-M 2 7F"
    assert "| 5 | 7F |" in renderer.render("{{ table.formation }}")


def test_the_board_page_shows_the_line_up_a_decision_free_setup_makes():
    book = Book(BALL, ("en",))
    markdown = GamePages(book, "en").render("board")
    drawn = re.findall(r'<g class="rc-piece [^"]*" data-piece="\d+" data-space="(\w+)"[^>]*>.*?<title>([^<]*)</title>',
                       markdown)
    assert ("11F", "DEF O6") in drawn and len(drawn) == len(book.ir().pieces)
    assert "<li>7F: ATK X5</li>" in markdown          # the line-up as text, for screen readers
    assert markdown.count('class="rc-space ') == 110 and 'data-area="def_goal_area"' in markdown
    # taktinen's formations are chosen in play: its board page still shows no pieces
    taktinen = GamePages(Book(GAME, ("en",)), "en").render("board")
    assert 'class="rc-piece ' not in taktinen and 'class="rc-position"' not in taktinen


def test_examples_mark_the_carrier_and_flag_knocked_down_pieces():
    book = Book(BALL, ("en",))
    scenario = next(s for s in book.scenarios if s.id == "BALL-5-fumble")
    pages = GamePages(book, "en", frames={scenario.id: play(book, scenario)})
    book.scenarios[:] = [scenario]
    pages.render("examples")
    data = pages.example_data[scenario.id]
    labels = book.game().rules.piece_labels
    fields = [m["field"] for m in data["markers"]]
    flags = [f["field"] for f in data["flags"]]
    assert fields == ["carrier", "free_ball"] and "down" in flags
    first, after = data["frames"][0], data["frames"][1]
    carrier = fields.index("carrier")
    assert first["markers"][carrier] == first["at"][labels.index("ATK X5")]
    assert after["flags"][flags.index("down")] == [labels.index("ATK X5")]
    assert [p["mark"] for p in data["pieces"]][:3] == ["X1", "X1", "O2"]
    assert "knocked down: ATK X5" in after["status"]


def test_overview_of_a_game_without_dice_has_no_dice_row():
    overview = GamePages(Book(BALL, ("en",)), "en").render("overview")
    assert "| Dice |" not in overview and "4\u00a0X pieces" in overview


# ---------------------------------------------------------------- originality
def _words(text: str) -> list[str]:
    """A text as a normalised word sequence: lower case, letters and digits only."""
    return re.findall(r"\w+", text.lower())


def _runs(words: list[str]) -> set:
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seed texts are not at {SEEDS} (set RULECRAFT_SEEDS)")
def test_no_text_file_shares_a_run_of_eight_words_with_a_seed():
    seeds = set()
    for seed in sorted(SEEDS.glob("*.txt")):
        seeds |= _runs(_words(seed.read_text(encoding="utf-8")))
    files = sorted((REPO / "rulespecs").glob("*/text/*.yaml")) + sorted(SITE_TEXT.glob("*.yaml"))
    assert files
    copied = {f"{path.relative_to(REPO)}: {' '.join(run)}"
              for path in files for run in _runs(_words(path.read_text(encoding="utf-8"))) & seeds}
    assert not copied, "\n".join(sorted(copied))


def test_the_examples_page_shows_every_scenario_as_played_by_the_runtime():
    book = Book(GAME)
    frames = {s.id: play(book, s) for s in book.scenarios}
    pages = GamePages(book, "en", frames=frames)
    markdown = pages.render("examples")
    game = Game(load_rules(GAME / "game.yaml"))
    at = game.field("at")
    for scenario in book.scenarios:
        data = pages.example_data[scenario.id]
        assert f'{{#{scenario.id}}}' in markdown
        assert [f["at"] for f in data["frames"]] == [
            [frame.state.s[at.base + p] for p in range(at.size)] for frame in frames[scenario.id]]
    # every label is a text: a label named like a dict method (keys) must not print a method
    assert "built-in method" not in markdown and "bound method" not in markdown
    assert "rc-keys\">←" not in markdown and re.search(r'rc-keys">[^<]*Esc', markdown)


# ---------------------------------------------------------------- serve
@pytest.mark.slow
def test_serve_rebuilds_when_a_text_file_changes(root):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    reports, stop = [], threading.Event()
    worker = threading.Thread(target=serve, args=(root,), daemon=True, kwargs=dict(
        port=port, out=root / "build" / "site", source=root / "build" / "site-src", languages=("en",),
        report=reports.append, stop=stop, interval=0.2))
    worker.start()
    try:
        _wait_for(lambda: reports, "the first build")
        page = f"http://127.0.0.1:{port}/taktinen/rules/"
        assert "Rolling the dice" in urllib.request.urlopen(page).read().decode()
        time.sleep(1.1)            # a new modification time, even on coarse file systems
        path = _game_dir(root) / "text" / "en.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace('title: "Rolling the dice"',
                                                                  'title: "Both teams roll"'), encoding="utf-8")
        _wait_for(lambda: any("rebuilt" in line for line in reports), "the rebuild")
        assert "Both teams roll" in urllib.request.urlopen(page).read().decode()
    finally:
        stop.set()
        worker.join(timeout=30)


def _wait_for(condition, what: str, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def test_an_actions_own_steps_show_the_phase_that_offers_the_action():
    phases = enclosing_phases(load_rules(BALL / "game.yaml"))
    assert phases["dodge"] == phases["short_pass"] == "action_phase"
    assert phases["release"] == "release_phase" and phases["end_of_turn"] == "end_of_turn"


def test_each_frame_shows_the_position_after_the_events_it_narrates():
    """Issue 14 (BALL-FIRST-TURN step 2): the step that narrates a knock-down shows the piece
    knocked down on that square in the same frame, and the step before it does not yet; the
    dodger moves in the frame that narrates its exit (the position is the one after the events)."""
    book = Book(REPO / "rulespecs" / "ball", ("en",))
    scenario = next(s for s in book.scenarios if s.id == "BALL-FIRST-TURN")
    frames = play(book, scenario)
    data = player_data(book, scenario, frames, "en")
    down = [f["field"] for f in data["flags"]].index("down")
    knocked = [(index, values) for index, frame in enumerate(frames)
               for kind, _, values in frame.events if kind == "knocked_down"]
    assert knocked
    for index, values in knocked:
        shown, before = data["frames"][index], data["frames"][index - 1]
        assert values["piece"] in shown["flags"][down] and values["piece"] not in before["flags"][down]
        assert shown["at"][values["piece"]] == values["square"]
        assert any("knocked down on " + data["spaces"][values["square"]] in line["text"] for line in shown["events"])
    for index, frame in enumerate(frames):
        for kind, _, values in frame.events:
            if kind == "done":
                assert data["frames"][index]["at"][values["piece"]] == values["to"]
                assert data["frames"][index - 1]["at"][values["piece"]] == values["from"]


def test_a_marker_path_is_kept_over_a_kick_and_cleared_by_the_next_decision_that_moves_a_piece():
    """:func:`rulecraft.site.examples.trails` on a played scenario: the ball's path grows by one
    field per frame of a kick, keeps the team-mate flag of the moment the ball got there, and
    shows nothing before the kick."""
    folder = REPO / "rulespecs" / "street-soccer"
    if not folder.is_dir():
        pytest.skip("street-soccer is not in rulespecs/")
    book = Book(folder, ("en",))
    scenario = next(s for s in book.scenarios if s.id == "SS-KICK-EXTENSION")
    game = book.game(scenario.options)
    frames = play(book, scenario)
    markers = [f for f in game.rules.fields if f.of is None and f.type in ("space", "piece") and f.show]
    ball = [f.name for f in markers].index("ball")
    paths = [frame_paths[ball] for frame_paths in trails(frames, markers, game.field("at"))]
    names = [[game.rules.spaces[s] for s in path["spaces"]] for path in paths]
    longest = max(names, key=len)
    assert longest == ["C6", "C7", "C8", "D8", "E9"]
    full = paths[names.index(longest)]
    assert full["met"] == [True, False, True, False, False]     # the kicker, then the team-mate on C8
    grown = [len(n) for n in names]
    assert grown == sorted(grown[:grown.index(5) + 1]) + grown[grown.index(5) + 1:]
    assert all(len(n) <= 1 for n in names[:3])                   # nothing drawn before the kick
