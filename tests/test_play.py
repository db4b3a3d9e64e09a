"""Playing in the terminal as a person: the status line, the commands (in any case), refusals
naming their rule, quitting without --log saves to a file named on screen, and the terminal's
words in every site language."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from helpers import invoke
from rulecraft.words import LANGUAGES, words


def play(*args, input: str):
    """``rulecraft play`` with the given answers typed; the result (exit code 0 asserted)."""
    result = invoke("play", *args, input=input)
    assert result.exit_code == 0, result.output
    return result


def test_a_status_line_replaces_the_state_dump(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    screen = play("taktinen", "--human", "home", "--seed", 3, input="q\n").output
    status = [line for line in screen.splitlines() if "to play: home" in line]
    assert status, screen
    assert status[0].split(" · ")[2:] == ["half 1", "minute 1", "goals home 0, away 0", "to play: home"]
    assert "|C3 ●            |" in screen and "\n   ● ball\n" in screen       # the ball on the board
    assert "defenders" not in screen and "=-1" not in screen        # no dump, no raw hidden value


def test_the_status_line_keeps_to_possession_half_minute_score_and_whose_decision(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    screen = play("taktinen", "--human", "home", "--seed", 3, input="1\n" * 12 + "q\n").output
    status = [line for line in screen.splitlines() if "to play: home" in line][-1]
    assert [part.split(" ")[0] for part in status.split(" · ")[2:]] == ["possession", "half", "minute",
                                                                       "goals", "to"], status
    assert "\n   ● ball\n" in screen                        # the ball drawn on the board instead


@pytest.mark.parametrize("game, team", [("tictactoe", "o"), ("ball", "DEF"), ("pig", "second")])
def test_the_field_a_phase_is_decided_by_is_shown_once_as_to_play(game, team, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                         # quitting saves GAME-1.log here
    screen = play(game, "--human", team, "--seed", 1, input="state\nq\n").output
    status = [line for line in screen.splitlines() if " · to play: " in line]
    assert status and not [line for line in status if "to move" in line], status
    assert re.search(r"(^|> )(side )?to move: \w+$", screen, re.M)   # the state command still lists it


def test_state_shows_hidden_fields_as_hidden(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    screen = play("taktinen", "--human", "home", "--seed", 3, input="STATE\nq\n").output
    assert "half: 1" in screen and "ball value: 3" in screen and "yellow cards: home 0, away 0" in screen
    assert "defenders: home 0, away hidden" in screen
    assert not [line for line in screen.splitlines() if ":" in line and line.endswith("-1")]


def test_commands_in_any_case_and_help(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    screen = play("tictactoe", "--human", "x", "--seed", 1, input="?\nHelp\nBOARD\nQ\n").output
    assert screen.count("u or undo: take back your last decision") == 2
    assert screen.count("    A B C") == 2                         # the board, then redrawn
    assert "saved to tictactoe-1.log" in screen


def test_a_notation_typed_in_another_case_is_played(tmp_path):
    path = tmp_path / "case.log"
    screen = play("tictactoe", "--human", "x", "--seed", 1, "--log", path, input="c3\nq\n").output
    assert "x: C3" in screen


def test_a_formation_is_listed_and_typed_as_the_rulebook_writes_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    screen = play("taktinen", "--human", "home", "--seed", 3, input="4-4-2\nq\n").output
    assert re.search(r"(^|  ) +\d+\. 4-4-2( |$)", screen, re.M) and "formation 0-0" not in screen
    # the 66 formations grouped by the number of defenders, six to a line
    assert re.search(r"^ +39\. 4-0-6 +40\. 4-1-5 +41\. 4-2-4 +42\. 4-3-3 +43\. 4-4-2 +44\. 4-5-1$\n"
                     r" +45\. 4-6-0$", screen, re.M)
    assert "  home lines up 4-4-2" in screen


def test_a_formation_is_typed_as_written_also_under_finnish(tmp_path, monkeypatch):
    pytest.importorskip("babel")
    monkeypatch.chdir(tmp_path)
    screen = play("taktinen", "--human", "home", "--seed", 3, "--lang", "fi", input="4-4-2\nq\n").output
    assert re.search(r" +\d+\. ryhmitys 4-4-2( |$)", screen, re.M)
    assert "  Kotijoukkue: ryhmitys 4-4-2" in screen


def test_an_illegal_move_names_the_rule_that_forbids_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    screen = play("tictactoe", "--human", "x", "--human", "o", "--seed", 1, input="A1\nA1\nq\n").output
    assert "not now: 'A1' is forbidden by rule 1: the square is already marked" in screen


def test_every_language_file_has_only_the_english_keys():
    assert all(set(words(language)) == set(words("en")) for language in LANGUAGES)


def test_one_option_is_offered_in_the_singular():
    from rulecraft.words import say
    assert say("en", "not_an_answer_one", answer="x") == \
        "'x' is not an option: type 1, the legal notation or ? for help."


def test_quitting_without_log_saves_to_a_named_file_that_resumes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = play("tictactoe", "--human", "x", "--seed", 1, input="1\nq\n").output
    assert "saved to tictactoe-1.log; resume with --resume tictactoe-1.log" in first
    second = play("tictactoe", "--human", "x", "--seed", 1, input="q\n").output
    assert "saved to tictactoe-1-2.log" in second               # an existing save is kept
    resumed = play("tictactoe", "--resume", "tictactoe-1.log", "--human", "x", input="q\n").output
    assert "x: A1" not in resumed.split("— seed 1", 1)[1].splitlines()[0]
    assert (tmp_path / "tictactoe-1.log").exists()


def test_end_of_input_saves_like_quit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    screen = play("pig", "--human", "first", "--seed", 2, input="").output
    assert "saved to pig-2.log" in screen


@pytest.mark.parametrize("key", sorted(words("en")))
def test_every_terminal_text_is_in_every_language_with_the_same_blanks(key):
    assert all(key in words(language) for language in LANGUAGES), key
    blanks = {language: {part[1] for part in Formatter().parse(words(language)[key]) if part[1]}
              for language in LANGUAGES}
    assert all(names == blanks["en"] for names in blanks.values()), blanks


def test_finnish_prompt_and_help(tmp_path, monkeypatch):
    pytest.importorskip("babel")
    monkeypatch.chdir(tmp_path)
    screen = play("taktinen", "--human", "home", "--seed", 3, "--lang", "fi", input="?\nq\n").output
    assert "(salainen valinta, ei näy kirjoitettaessa; ? = ohjeet)>" in screen
    assert "u tai undo: peru oma edellinen päätöksesi" in screen and "tallennettu tiedostoon" in screen


SNAKE_CASE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_finnish_status_state_and_end_lines_name_fields_in_words(tmp_path, monkeypatch):
    pytest.importorskip("babel")
    monkeypatch.chdir(tmp_path)
    screen = play("taktinen", "--human", "home", "--seed", 3, "--lang", "fi", input="state\nq\n").output
    status = next(line for line in screen.splitlines() if "vuorossa:" in line)
    assert "puoliaika 1 · minuutti 1 · maalit kotijoukkue 0, vierasjoukkue 0" in status   # glossary terms
    assert "pallon arvo: 3" in screen and "pelitilanne: alkupotku" in screen     # the state command
    end = play("taktinen", "--seed", 7, "--lang", "fi", "--quiet", input="").output
    assert "tulos kotijoukkue" in end
    after_header = screen.split("\n", 1)[1]          # the header's -O options stay as typed
    assert not SNAKE_CASE.findall(after_header + end), SNAKE_CASE.findall(after_header + end)


def test_english_status_line_names_fields_in_words(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    screen = play("taktinen", "--human", "home", "--seed", 3, input="q\n").output
    status = next(line for line in screen.splitlines() if "to play: home" in line)
    assert "minute 1" in status and "clock" not in status
    assert "ball value: 3" in play("taktinen", "--human", "home", "--seed", 3, input="state\nq\n").output


def test_status_state_and_end_lines_name_pieces_and_truth_values_in_the_matchs_language(tmp_path, monkeypatch):
    """Issue 23: a field holding a player (futbol-dados' ball holder) is named as the game's
    texts name him, not by the engine's label (``away #9``); a yes-or-no field (street-soccer's
    golden goal) reads as a word of the language, not ``true``/``false``."""
    monkeypatch.chdir(tmp_path)
    screen = play("futbol-dados", "--human", "home", "--seed", 1, "--lang", "es", input="state\nq\n").output
    status = next(line for line in screen.splitlines() if "turno de local" in line)
    assert "con la pelota visitante n.º 9" in status and "#" not in status
    assert "con la pelota: visitante n.º 9" in screen.splitlines()
    screen = play("street-soccer", "--human", "home", "--seed", 1, "--lang", "de", input="state\nq\n").output
    assert "Verlängerung mit Golden Goal: nein" in screen.splitlines()
    assert not re.search(r"\b(true|false)\b", screen.split("\n", 1)[1])
    end = play("street-soccer", "--seed", 1, "--lang", "it", "--quiet", input="").output
    assert not re.search(r"\b(true|false)\b", end), end


def test_an_action_of_another_phase_is_refused_by_its_own_rule_under_translation(tmp_path, monkeypatch):
    """A kick typed during the placement is not "forbidden by rule Startaufstellung": the
    refusal names the kick's own rule with its title and what the placement offers instead."""
    monkeypatch.chdir(tmp_path)
    screen = play("street-soccer", "--human", "home", "--seed", 1, "--lang", "de", input="Ball nach Norden\nq\n").output
    assert ("jetzt nicht: „Ball nach Norden“ gehört zu Regel Ball schießen (Den Ball schießen); "
            "in der Phase Aufstellung gibt es nur Aufstellen einer Figur.") in screen
    assert "verbietet" not in screen


# ---------- resume ----------
def moves(path) -> list[tuple[str, str]]:
    """The (actor, notation) of every step in a match log."""
    import json
    records = map(json.loads, path.read_text().splitlines()[1:])
    return [(r["actor"], r["notation"]) for r in records if "actor" in r]


@pytest.mark.parametrize("game, team, bot", [("tictactoe", "x", "random"), ("pig", "first", "random")])
def test_a_resumed_match_continues_exactly_as_the_uninterrupted_one(tmp_path, game, team, bot):
    whole, cut = tmp_path / "whole.log", tmp_path / "cut.log"
    answers = "1\n" * 60
    played = play(game, "--human", team, "--bot", bot, "--seed", 5, "--log", whole, input=answers)
    play(game, "--human", team, "--bot", bot, "--seed", 5, "--log", cut, input="1\nq\n")
    resumed = play(game, "--resume", cut, "--human", team, input=answers[2:])
    assert moves(cut) == moves(whole)
    assert screen_end(resumed.output) == screen_end(played.output)       # the same screens


def screen_end(output: str, lines: int = 30) -> list[str]:
    """The last screen lines of a play, without the line naming the save file."""
    return [line for line in output.splitlines() if "saved to" not in line][-lines:]


def test_resume_recaps_the_last_moves(tmp_path):
    path = tmp_path / "m.log"
    play("tictactoe", "--human", "x", "--seed", 1, "--log", path, input="1\n1\nq\n")
    screen = play("tictactoe", "--resume", path, "--human", "x", input="q\n").output
    assert "resumed at ply 4; the last moves:\nx: A1\no: B2\nx: B1\no: C1\n" in screen


def test_the_recap_names_each_team_once_as_the_play_by_play_does(tmp_path):
    path = tmp_path / "m.log"
    play("taktinen", "--human", "home", "--seed", 7, "--log", path, input="1\n" * 40 + "q\n")
    screen = play("taktinen", "--resume", path, "--human", "home", input="q\n").output
    recap = screen.split("the last moves:\n", 1)[1].splitlines()[:5]
    assert len(recap) == 5 and any(line.startswith("home: ") for line in recap), recap
    assert not [line for line in recap for team in ("home", "away")
                if line.startswith(f"{team}: ") and f" {team} " in line], recap


def test_the_recap_names_whose_roll_it_was(tmp_path):
    path = tmp_path / "m.log"
    play("pig", "--human", "first", "--seed", 4, "--log", path, input="roll\nroll\nhold\nq\n")
    screen = play("pig", "--resume", path, "--human", "first", input="q\n").output
    recap = screen.split("the last moves:\n", 1)[1].splitlines()[:5]
    assert recap == ["second: roll", "second rolls 3", "second: roll", "second rolls 5", "second: hold"]


def test_the_recap_names_the_roller_in_finnish(tmp_path):
    pytest.importorskip("babel")
    path = tmp_path / "m.log"
    play("taktinen", "--human", "home", "--seed", 7, "--log", path, input="1\nq\n")
    screen = play("taktinen", "--resume", path, "--human", "home", "--lang", "fi", input="q\n").output
    recap = screen.split("viimeiset siirrot:\n", 1)[1].splitlines()[:4]
    assert recap[2:] == ["kotijoukkueen nopanheitto: 5", "vierasjoukkueen nopanheitto: 4"], recap


def test_resume_refuses_a_conflicting_seed_and_accepts_the_same(tmp_path):
    path = tmp_path / "m.log"
    play("tictactoe", "--human", "x", "--seed", 1, "--log", path, input="1\nq\n")
    refused = invoke("play", "tictactoe", "--resume", path, "--seed", 2)
    assert refused.exit_code == 1 and "--seed 2 (the log's seed is 1): leave them out" in refused.output
    assert "Traceback" not in refused.output
    assert invoke("play", "tictactoe", "--resume", path, "--seed", 1, "--human", "x", input="q\n").exit_code == 0


# ---------- bot matches ----------
def test_a_bot_match_ends_with_one_line_of_score_and_the_result_once():
    screen = play("taktinen", "--seed", 7, "-O", "max_turns_per_half=10", input="").output
    lines = screen.splitlines()
    assert lines[0] == ("Taktinen jalkapallopeli — seed 7, layout=A, custom_formations=true, "
                        "keepers_placed_home=false, max_turns_per_half=10")
    assert lines[-1].startswith("game over after ") and "goals home 1, away 1" in lines[-1]
    assert [line for line in lines if "home +0, away +0" in line] == ["Returns: home +0, away +0"]


def test_the_result_is_printed_once_also_in_finnish():
    pytest.importorskip("babel")
    lines = play("taktinen", "--seed", 7, "-O", "max_turns_per_half=10", "--lang", "fi",
                 input="").output.splitlines()
    assert [line for line in lines if "+0" in line] == ["Pisteet: kotijoukkue +0, vierasjoukkue +0"]
    assert lines[-1].startswith("peli päättyi 403 siirron jälkeen") and "tulos" not in lines[-1]


def test_dice_lines_name_whose_roll_it_is():
    pig = play("pig", "--seed", 3, "-O", "target=20", input="").output.splitlines()
    rolls = [line.strip() for line in pig if " rolls " in line]
    assert rolls and all(line.split()[0] in ("first", "second") for line in rolls), rolls[:5]
    lines = play("taktinen", "--seed", 7, "-O", "max_turns_per_half=10", input="").output.splitlines()
    start = lines.index("— Starting roll (rule 3.2)")
    assert [line.strip() for line in lines[start + 1:start + 3]] == ["home rolls 5", "away rolls 4"]
    assert "d6 rolls" not in "\n".join(lines[start:start + 3])


def test_dice_lines_name_the_roller_in_finnish():
    pytest.importorskip("babel")
    lines = play("taktinen", "--seed", 7, "-O", "max_turns_per_half=10", "--lang", "fi",
                 input="").output.splitlines()
    assert "  kotijoukkueen nopanheitto: 5" in lines and "  vierasjoukkueen nopanheitto: 4" in lines


def test_no_line_names_a_team_twice():
    lines = play("taktinen", "--seed", 7, "-O", "max_turns_per_half=10", input="").output.splitlines()
    twice = [line for line in lines for team in ("home", "away")
             if line.startswith(f"{team}: ") and f" {team} " in line[len(team) + 1:]]
    assert twice == [], twice[:5]
    assert "free move home outfield 1 to C2" in lines


def test_quiet_prints_the_end_line_only_and_summary_counts_actions():
    quiet = play("tictactoe", "--seed", 7, "--quiet", input="").output
    assert quiet == "game over after 9 plies · returns x +0, o +0\n"
    summed = play("tictactoe", "--seed", 7, "--quiet", "--summary", input="").output.splitlines()
    assert summed[1:] == ["9 plies, 0 of them dice rolls; actions by team:", "  x: place 5", "  o: place 4"]


# ---------- the command itself ----------
def test_version_and_games_with_titles():
    from rulecraft import __version__
    assert invoke("--version").output == f"rulecraft {__version__}\n"
    listed = invoke("games").output
    assert "  taktinen         Taktinen jalkapallopeli (home, away)" in listed
    assert "  tictactoe        Tic-tac-toe (x, o)" in listed


def test_play_help_names_its_placeholders_and_commands():
    shown = invoke("play", "--help").output
    for placeholder in ("TEAM", "BOT", "FILE", "LOG", "LANGUAGE", "NAME=VALUE"):
        assert placeholder in shown
    assert "<list[str]>" not in shown and "u or undo" in shown


def test_ctrl_c_at_a_prompt_saves_and_says_where(tmp_path):
    import io
    from rich.console import Console
    from helpers import load_game
    from rulecraft.play import play_match
    from rulecraft.runtime.match import Match

    def interrupt(prompt):
        raise KeyboardInterrupt

    console = Console(file=io.StringIO(), width=200)
    path = tmp_path / "kept.log"
    play_match(Match(load_game("tictactoe"), 1), {0}, "greedy", console, input_fn=interrupt,
               quit_path=str(path))
    assert f"saved to {path}; resume with --resume {path}" in console.file.getvalue()
    assert path.exists()
