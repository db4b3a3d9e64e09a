"""The site commands' user mistakes: each is a clear RC message before any work, never a
traceback (an unknown or wrongly cased language, a busy port, output folders that are files,
lie under a file, cannot be written, hold someone else's files or lie inside each other)."""

from __future__ import annotations

from pathlib import Path
import shutil
import socket

import pytest
from typer.testing import CliRunner

from rulecraft.cli import app

from helpers import FIXTURES, REPO, free_port

GAME = FIXTURES / "hostile"


def invoke(*args):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def _refused(result, code: str, *words: str) -> str:
    """Assert that a command failed with ``code`` and ``words`` and no traceback."""
    assert result.exit_code == 1, result.output
    assert f"error[{code}]" in result.output and "Traceback" not in result.output, result.output
    for word in words:
        assert word in result.output, result.output
    return result.output


def _build(*more):
    return invoke("site", "build", "--game", GAME, "--lang", "en", *more)


@pytest.mark.parametrize("command", [("site", "build"), ("site", "check"), ("site", "serve", "--port", "1")])
@pytest.mark.parametrize("language, words", [
    ("xx", ("unknown language 'xx'", "en, fi, ru, es, de, it")),
    ("EN", ("unknown language 'EN'", "lower case", "did you mean 'en'?")),
])
def test_an_unknown_language_is_named_with_the_languages_there_are(command, language, words):
    _refused(invoke(*command, "--game", GAME, "--lang", "en", "--lang", language), "RC810", *words)


def test_serve_on_a_busy_port_says_so_before_building_or_claiming_to_serve(tmp_path):
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        result = invoke("site", "serve", "--port", port, "--game", GAME, "--lang", "en")
    output = _refused(result, "RC812", f"port {port}", "already in use", "--port")
    assert "serving" not in output and "built" not in output


def test_serve_refuses_a_number_that_is_no_port():
    result = invoke("site", "serve", "--port", 70000, "--game", GAME)
    assert result.exit_code == 2 and "--port" in result.output and "Traceback" not in result.output


def test_an_output_folder_that_is_a_file_is_refused(tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("mine", encoding="utf-8")
    _refused(_build("--out", file, "--source", tmp_path / "src"), "RC811", "is a file, not a folder")
    _refused(_build("--out", tmp_path / "site", "--source", file), "RC811", "--source")
    assert file.read_text(encoding="utf-8") == "mine"


def test_an_output_folder_under_a_file_is_refused(tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("mine", encoding="utf-8")
    _refused(_build("--out", file / "site", "--source", tmp_path / "src"), "RC811",
             "cannot be made", "is a file")


def test_an_output_folder_that_cannot_be_written_is_refused(tmp_path):
    unwritable = Path("/proc/rulecraft-site")          # not writable, not even for root
    _refused(_build("--out", unwritable, "--source", tmp_path / "src"), "RC811",
             "--out", "cannot be written")


def test_a_folder_holding_someone_elses_files_is_never_emptied(tmp_path):
    folder = tmp_path / "my-project"
    folder.mkdir()
    (folder / "mkdocs.yml").write_text("site_name: mine\n", encoding="utf-8")
    for option, other in (("--out", "--source"), ("--source", "--out")):
        _refused(_build(option, folder, other, tmp_path / "other"), "RC811",
                 "holds files that rulecraft did not write")
    assert sorted(p.name for p in folder.iterdir()) == ["mkdocs.yml"]


def test_a_missing_output_folder_is_made_and_a_built_one_is_built_again(tmp_path):
    out, source = tmp_path / "a" / "b" / "site", tmp_path / "a" / "b" / "src"
    for _ in range(2):
        result = _build("--out", out, "--source", source)
        assert result.exit_code == 0, result.output
    assert (out / "hostile" / "index.html").is_file()


def test_output_folders_inside_each_other_are_refused(tmp_path):
    _refused(_build("--out", tmp_path / "site", "--source", tmp_path / "site" / "src"),
             "RC811", "separate folders")


def test_root_and_game_together_are_refused(tmp_path):
    _refused(invoke("site", "check", "--root", tmp_path, "--game", GAME), "RC813", "--root", "--game")


def test_a_game_that_is_not_a_game_folder_is_refused(tmp_path):
    _refused(invoke("site", "check", "--game", tmp_path / "nothing"), "RC105")
    (tmp_path / "rules.txt").write_text("not a spec", encoding="utf-8")
    _refused(invoke("site", "check", "--game", tmp_path / "rules.txt"), "RC105", "not a game folder")


def test_check_leaves_out_a_game_without_an_english_rulebook_unless_it_is_named(tmp_path):
    shutil.copytree(GAME, tmp_path / "rulespecs" / "hostile")
    (tmp_path / "rulespecs" / "pig").mkdir()
    shutil.copy(REPO / "examples" / "pig" / "game.yaml", tmp_path / "rulespecs" / "pig")
    result = invoke("site", "check", "--root", tmp_path, "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "not published yet" in result.output and "pig" in result.output
    named = invoke("site", "check", "--game", tmp_path / "rulespecs" / "pig", "--lang", "en")
    assert named.exit_code == 1 and "text problem(s)" in named.output and "Traceback" not in named.output
