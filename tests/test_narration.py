"""The play-by-play in six languages: ``rulecraft play --lang`` narrates through the rulebook
site's :class:`Narration`, so a seeded match reads entirely in the language asked for, each event
reads the same in the terminal and in the site's example player, unknown languages and a missing
site extra are refused cleanly, and the English play-by-play is unchanged."""

from __future__ import annotations

import io
from pathlib import Path
import subprocess
import sys

import pytest
from rich.console import Console

from rulecraft.compiler import find_game
from rulecraft.play import play_match
from rulecraft.runtime.match import Match
from rulecraft.site.book import Book
from rulecraft.site.examples import SILENT_EVENTS, play, player_data
from rulecraft.site.narration import Narration

from helpers import FIXTURES, REPO, invoke, load_game
from test_cli import assert_clean_failure

# (game, seed, how its English end line starts): one full bot match per game
MATCHES = [("taktinen", 7, ("Returns:",)), ("ball", 3, ("Game over",))]


def play_by_play(game: str, seed: int, language: str | None) -> list[str]:
    """The lines of ``rulecraft play GAME --seed SEED [--lang L]`` after the header: the
    play-by-play, then the final board."""
    result = invoke("play", game, "--seed", seed, *(("--lang", language) if language else ()))
    assert result.exit_code == 0, result.output
    return result.output.splitlines()[1:]


def spec_ids(game: str) -> set[str]:
    """The spec's own identifiers a reader must never see: phase, action, event and field names
    and enumeration values (those with an underscore, so that no plain word is taken for one)."""
    rules = load_game(game).rules
    names = ({node.phase for node in rules.nodes} | {action.name for action in rules.actions}
             | set(rules.events) | {field.name for field in rules.fields}
             | {value for values in rules.enums.values() for value in values})
    return {name for name in names if "_" in name}


@pytest.fixture(scope="module")
def english():
    """The English play-by-play of each match of MATCHES."""
    return {game: play_by_play(game, seed, None) for game, seed, _ in MATCHES}


@pytest.mark.parametrize("language", ["fi", "ru"])
@pytest.mark.parametrize("game,seed,end", MATCHES, ids=[m[0] for m in MATCHES])
def test_a_bot_match_is_narrated_wholly_in_the_language(english, game, seed, end, language):
    source = english[game]
    stop = next(i for i, line in enumerate(source) if line.startswith(end))
    translated = play_by_play(game, seed, language)
    assert len(translated) == len(source), "one line per event in every language"
    drawn = lambda lines: [line for line in lines if not line.startswith("   ● ")]  # noqa: E731 (the legend is translated)
    assert drawn(translated[stop + 1:-1]) == drawn(source[stop + 1:-1]), "the final board follows the end line"
    assert translated[-1] != source[-1], "the terminal's end line is in the language too"
    lines = translated[:stop + 1]
    same = [line for line, original in zip(lines, source) if line == original]
    assert same == [], f"lines left in English: {same[:5]}"
    ids = spec_ids(game)
    raw = [(name, line) for line in lines for name in ids if name in line]
    assert raw == [], f"spec ids shown to the reader: {raw[:5]}"


def test_the_english_play_by_play_is_unchanged(english):
    golden = (FIXTURES / "narration" / "taktinen-seed7-en.txt").read_text(encoding="utf-8").splitlines()
    assert english["taktinen"][:len(golden) - 1] == golden[1:]
    assert invoke("play", "taktinen", "--seed", 7, "--lang", "en").output.splitlines()[1:] \
        == english["taktinen"]


@pytest.mark.parametrize("language", ["fi", "ru", "en"])
@pytest.mark.parametrize("game", ["taktinen", "ball"])
def test_an_event_reads_the_same_in_the_terminal_and_on_the_site(game, language):
    """Every event of the scenarios (those under the default options, to stay quick): the site's
    player lines equal the lines of the terminal's narrator, built as ``rulecraft play`` does."""
    from rulecraft.cli import _narrator
    book = Book(find_game(game).parent, (language,))
    terminal = _narrator(book.game(), game, language, {})
    assert isinstance(terminal, Narration) == (language != "en")
    compared = 0
    for scenario in [s for s in book.scenarios if not s.options]:
        frames = play(book, scenario)
        data = player_data(book, scenario, frames, language)
        for frame, shown in zip(frames, data["frames"]):
            lines = [terminal.line(event) for event in frame.events if event[0] not in SILENT_EVENTS]
            assert [line["text"] for line in shown["events"]] == [line for line in lines if line.strip()]
            compared += len(shown["events"])
    assert compared > 0


def test_a_person_chooses_by_the_translated_notation_or_the_number():
    game = load_game("taktinen")
    narration = Narration.of_game(find_game("taktinen").parent, "fi", game)
    match = Match(game, 3)
    console = Console(file=io.StringIO(), width=200)
    while match.state.is_chance_node() or match.state.is_secret():
        match.roll() if match.state.is_chance_node() else match.apply(match.state.legal_actions()[0])
    team, legal = match.state.current_player(), match.state.legal_actions()
    wanted = narration.notation(legal[-1])
    assert wanted != match.state.action_notation(legal[-1])
    answers = iter(["ei tällaista", wanted, "q"])
    play_match(match, {team}, "greedy", console, narrator=narration, language="fi",
               input_fn=lambda prompt: next(answers))
    output = console.file.getvalue()
    assert f"  {len(legal):>3}. {wanted}" in output
    assert f"”ei tällaista” ei ole vaihtoehto: kirjoita numero 1–{len(legal)}" in output
    assert [step.action for step in match.steps if step.actor == team][-1] == legal[-1]


def test_an_unknown_language_is_refused_naming_the_games_languages():
    assert_clean_failure(invoke("play", "taktinen", "--lang", "xx"),
                         "no play-by-play in 'xx'", "de, en, es, fi, it, ru")
    assert_clean_failure(invoke("play", "tictactoe", "--lang", "fi"), "its languages: en")


BLOCK_SITE = ("import sys; sys.modules['markdown_it'] = None; from rulecraft.cli import app; "
              "app(sys.argv[1:])")


def test_without_the_site_extra_english_plays_and_other_languages_ask_for_it():
    def run(*args):
        return subprocess.run([sys.executable, "-c", BLOCK_SITE, *args], capture_output=True,
                              text=True, cwd=REPO, timeout=300)
    english = run("play", "tictactoe", "--seed", "1")
    assert english.returncode == 0, english.stderr
    assert "game over" in english.stdout
    refused = run("play", "taktinen", "--seed", "1", "--lang", "fi")
    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr
    assert "rulecraft[site]" in refused.stderr and "error[RC110]" in refused.stderr
    site = run("site", "check")
    assert site.returncode == 1 and "Traceback" not in site.stderr
    assert "rulecraft[site]" in site.stderr


def test_a_translation_without_its_piece_pattern_names_pieces_by_the_engines_label(tmp_path):
    # a half-written translation must not stop a match: the missing text is site check's business
    import shutil
    import yaml
    from helpers import invoke
    game = tmp_path / "street-soccer"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rulespecs" / "street-soccer", game)
    path = game / "text" / "de.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["pages"].pop("examples")
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = invoke("play", game, "--seed", 1, "--lang", "de", "-O", "regular_moves=2", "-O", "golden_moves=0")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output[-2000:]
