"""A hostile game: nothing a spec or a text file says runs, in the terminal or in the rulebook.

``tests/fixtures/hostile/`` is a small game whose every string a person can write (title,
versions, credits, rule ids, open-question and scenario ids, space names, notations, phase
titles, event messages, glossary terms, page texts, table headers) carries a payload with its own
marker: a global ``window.__pwned_<n>`` it would set in a page. ``play``, ``site check`` and one
``site build`` run on it, and Chromium opens every built page: no marker is set, and no event
handler, script, frame or ``javascript:`` link that rulecraft did not write exists in the DOM.

``tests/fixtures/hostile/refused.yaml`` holds the payloads that must be refused where they are
written (template escapes to Python, Markdown outside the allow-list, notation and grid-name
templates that reach for attributes or format specifications): each is reported with its code
at its file and line, and none creates its marker file ``pwned-<n>``.
"""

from __future__ import annotations

import os
from pathlib import Path
import re
import shutil

import pytest
from typer.testing import CliRunner
import yaml

from rulecraft.cli import app
from rulecraft.site.book import Book
from rulecraft.site.check import check_book

from helpers import CHROMIUM, CHROMIUM_ARGS, FIXTURES, free_port, served

HOSTILE = FIXTURES / "hostile"
REFUSED = yaml.safe_load((HOSTILE / "refused.yaml").read_text(encoding="utf-8"))
MARKER = re.compile(r"pwned(?:-|_)_?(\d+)")
# what a page may hold that a payload could have planted
INSPECT_PAGE = """() => {
  const found = {globals: Object.keys(window).filter(k => k.startsWith("__pwned")),
                 handlers: [], links: [], scripts: [], elements: []};
  for (const element of document.querySelectorAll("*")) {
    for (const attribute of element.attributes) {
      if (attribute.name.startsWith("on") || attribute.name.includes("pwned"))
        found.handlers.push(element.tagName + " " + attribute.name);
      if (/^(href|src|action|formaction|xlink:href|data)$/.test(attribute.name)
          && /^\\s*(javascript|data|vbscript):/i.test(attribute.value))
        found.links.push(element.tagName + " " + attribute.value.slice(0, 60));
    }
  }
  for (const script of document.querySelectorAll("script")) {   // Material's own, or a payload?
    const planted = script.src ? new URL(script.src).origin !== location.origin
                               : script.textContent.includes("pwned");
    if (planted) found.scripts.push(script.outerHTML.slice(0, 80));
  }
  for (const element of document.querySelectorAll("iframe, frame, object, embed, img, base, image, foreignObject"))
    found.elements.push(element.outerHTML.slice(0, 80));
  return found;
}"""


def invoke(*args):
    """Run the ``rulecraft`` command in-process; returns typer's result."""
    return CliRunner().invoke(app, [str(arg) for arg in args])


def markers(folder: Path) -> list[str]:
    """The marker files a payload would have created, in ``folder`` and the working folder."""
    return sorted({p.name for place in (folder, Path.cwd()) for p in place.rglob("pwned-*")})


def _set(data: dict, path: list, value) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _write_payloads(target: Path, payloads: list) -> Path:
    """Write ``payloads`` into the YAML file ``target`` (each at its path of keys)."""
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    for payload in payloads:
        _set(data, payload["at"], payload["payload"])
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10_000),
                      encoding="utf-8")
    return target


def _line_of(path: Path, marker: str) -> int:
    """The line of ``path`` holding ``marker`` (1-based)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if marker in line)


def _page_url(base: str, site: Path, page: Path) -> str:
    """The address a built page is served at (a folder's ``index.html`` as the folder)."""
    relative = page.relative_to(site)
    if page.name != "index.html":
        return base + relative.as_posix()
    folder = relative.parent.as_posix()
    return base + ("" if folder == "." else folder + "/")


def _marker(payload: str) -> str:
    return MARKER.search(payload).group(0)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A working folder for the commands (a payload's relative ``touch`` would land here)."""
    folder = tmp_path_factory.mktemp("hostile")
    previous = os.getcwd()
    os.chdir(folder)
    yield folder
    os.chdir(previous)


@pytest.fixture(scope="module")
def hostile_site(workspace):
    """``play``, ``site check`` and ``site build`` run on a copy of the hostile game."""
    game = workspace / "hostile"
    shutil.copytree(HOSTILE, game, ignore=shutil.ignore_patterns("refused.yaml"))
    port = free_port()
    runs = {"play": invoke("play", game, "--seed", 5),
            "check": invoke("site", "check", "--game", game, "--lang", "en"),
            "build": invoke("site", "build", "--game", game, "--lang", "en", "--out", workspace / "site",
                            "--source", workspace / "site-src", "--site-url", f"http://127.0.0.1:{port}/")}
    with served(workspace / "site", port) as base:
        yield {"runs": runs, "base": base, "site": workspace / "site", "game": game}


def test_play_check_and_build_run_on_the_hostile_game(hostile_site, workspace):
    runs = hostile_site["runs"]
    for name, result in runs.items():
        assert result.exit_code == 0, f"{name}: {result.output}"
        assert "Traceback" not in result.output
    assert "game over" in runs["play"].output
    assert "every text is complete" in runs["check"].output
    pages = sorted(hostile_site["site"].rglob("*.html"))
    assert len(pages) >= 10
    assert markers(workspace) == []


@pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed")
def test_no_built_page_runs_or_holds_a_payload(hostile_site):
    sync_api = pytest.importorskip("playwright.sync_api")
    site, base = hostile_site["site"], hostile_site["base"]
    urls = [_page_url(base, site, page) for page in sorted(site.rglob("*.html"))]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tab = browser.new_page()
        errors = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        dialogs = []
        tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for url in urls:
            tab.goto(url)
            tab.wait_for_load_state("load")
            for player in tab.locator(".rc-player").all():      # every frame the player draws
                steps = int(player.locator(".rc-steps").inner_text())
                for _ in range(steps - 1):
                    player.locator(".rc-next-step").click()
            tab.mouse.move(5, 5)
            tab.locator("body").hover()
            found = tab.evaluate(INSPECT_PAGE)
            assert found == {"globals": [], "handlers": [], "links": [], "scripts": [], "elements": []}, url
        tab.goto(base)                                      # search results show titles and text
        tab.locator("label.md-search__icon, .md-search__input").first.click()
        tab.locator("input.md-search__input").fill("hostile")
        tab.keyboard.press("End")
        tab.locator(".md-search-result__item").first.wait_for(timeout=15000)
        found = tab.evaluate(INSPECT_PAGE)
        assert found == {"globals": [], "handlers": [], "links": [], "scripts": [], "elements": []}, "search"
        browser.close()
    assert errors == [] and dialogs == []


# ---------------------------------------------------------------- refused payloads
@pytest.fixture(scope="module")
def refused_texts(workspace):
    """A copy of the hostile game with every refused text payload written into its en.yaml."""
    game = workspace / "refused-texts"
    shutil.copytree(HOSTILE, game, ignore=shutil.ignore_patterns("refused.yaml"))
    _write_payloads(game / "text" / "en.yaml", REFUSED["texts"])
    return game


@pytest.mark.parametrize("payload", REFUSED["texts"], ids=lambda p: _marker(p["payload"]))
def test_site_check_reports_each_refused_text_at_its_line(refused_texts, payload):
    problems = check_book(Book(refused_texts, ("en",)))
    text_file = refused_texts / "text" / "en.yaml"
    line = _line_of(text_file, _marker(payload["payload"]))
    here = [p for p in problems if p.where.startswith(f"{text_file}:{line}:")]
    assert [p.code for p in here] == [payload["code"]], problems


def test_site_check_and_build_refuse_the_texts_and_no_payload_runs(refused_texts, workspace):
    check = invoke("site", "check", "--game", refused_texts, "--lang", "en")
    assert check.exit_code == 1 and "Traceback" not in check.output
    assert f"{len(REFUSED['texts'])} text problem(s)" in check.output
    out = workspace / "refused-site"
    build = invoke("site", "build", "--game", refused_texts, "--lang", "en", "--out", out,
                   "--source", workspace / "refused-src")
    assert build.exit_code == 1 and "error[RC806]" in build.output and "Traceback" not in build.output
    assert list(out.rglob("*.html")) == []
    assert markers(workspace) == []


def test_play_refuses_an_event_message_that_reaches_for_python(refused_texts, workspace):
    result = invoke("play", refused_texts, "--seed", 5)
    assert result.exit_code == 1 and "Traceback" not in result.output
    events = [p for p in REFUSED["texts"] if p["at"][0] == "events"]
    lines = {_line_of(refused_texts / "text" / "en.yaml", _marker(p["payload"])) for p in events}
    found = re.search(r"en\.yaml:(\d+):\d+: error\[RC703\]", result.output)
    assert found and int(found.group(1)) in lines, result.output
    assert markers(workspace) == []


@pytest.mark.parametrize("payload", REFUSED["spec"], ids=lambda p: _marker(p["payload"]))
def test_a_spec_template_that_reaches_for_python_is_refused_at_its_position(payload, workspace):
    game = workspace / f"refused-{_marker(payload['payload'])}"
    shutil.copytree(HOSTILE, game, ignore=shutil.ignore_patterns("refused.yaml"))
    spec = _write_payloads(game / "game.yaml", [payload])
    line = _line_of(spec, _marker(payload["payload"]))
    where = re.compile(rf"game\.yaml:{line}:\d+: error\[{payload['code']}\]")
    for command in (("check", game), ("play", game, "--seed", 1), ("compile", game)):
        result = invoke(*command)
        assert result.exit_code == 1 and where.search(result.output), (command, result.output)
        assert "^" in result.output and "Traceback" not in result.output
    check = invoke("site", "check", "--game", game, "--lang", "en")
    assert check.exit_code == 1 and f"game.yaml:{line}:" in check.output, check.output
    build = invoke("site", "build", "--game", game, "--lang", "en", "--out", game / "out", "--source", game / "src")
    assert build.exit_code == 1 and where.search(build.output), build.output
    assert markers(workspace) == []
