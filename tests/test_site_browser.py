"""The built rulebook site in a real browser: Playwright driving Debian's Chromium.

The site is built once (a copy of every game under ``rulespecs/``, six languages) and served by a local
``http.server`` thread on 127.0.0.1, at the address given to the build as ``site_url``. No
browser download is used: ``/usr/bin/chromium`` (Debian's ``chromium`` package) is launched
headless with networking features off, and every request outside 127.0.0.1 fails a test, so the
site is proven to work offline. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

from pathlib import Path
import re
import shutil

import pytest

from rulecraft.compiler import load_rules
from rulecraft.runtime.engine import Game
from rulecraft.runtime.scenario import load_scenarios, run_scenario
from rulecraft.site.build import build_site
from rulecraft.site.pages import PAGE_FILES
from rulecraft.site.texts import LANGUAGES

from colours import contrast
from helpers import CHROMIUM, CHROMIUM_ARGS, free_port, served

sync_api = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "test-output"
GAMES = sorted(p.name for p in (REPO / "rulespecs").iterdir() if (p / "game.yaml").is_file())
EVERY_EXAMPLE = ("en", "ru")       # languages whose every example is stepped through
PAGES = ["index.md"] + [f"{game}/{name}" for game in GAMES for name in PAGE_FILES.values()]

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed")


def _url(base: str, language: str, page: str) -> str:
    prefix = "" if language == "en" else f"{language}/"
    path = page.removesuffix("index.md").removesuffix(".md")
    return f"{base}{prefix}{path}{'/' if path and not path.endswith('/') else ''}"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Build the site from a copy of every game, serve it, yield its base URL and folders."""
    root = tmp_path_factory.mktemp("site-root")
    for game in GAMES:
        shutil.copytree(REPO / "rulespecs" / game, root / "rulespecs" / game)
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    result = build_site(root, out=root / "build" / "site", source=root / "build" / "site-src", site_url=base)
    with served(result.site_dir, port):
        yield {"base": base, "root": root, "result": result}


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, site):
    """A fresh page that records console errors, page errors and requests leaving 127.0.0.1."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(90_000)      # a shared CI machine can be slow
    tab = context.new_page()
    tab.problems = []
    tab.on("console", lambda message: tab.problems.append(f"console {message.type}: {message.text}")
           if message.type == "error" else None)
    tab.on("pageerror", lambda error: tab.problems.append(f"page error: {error}"))
    tab.on("request", lambda request: tab.problems.append(f"outside request: {request.url}")
           if not request.url.startswith(site["base"]) and not request.url.startswith("data:") else None)
    yield tab
    context.close()


def test_the_build_uses_no_external_resource(site):
    """No stylesheet, script, font or image is fetched from outside the site."""
    external = re.compile(r"""(?:src|href)\s*=\s*["']https?://(?!127\.0\.0\.1)[^"']+["'][^>]*""")
    offending = []
    for path in site["result"].site_dir.rglob("*.html"):
        for tag in re.findall(r"<(?:link|script|img)\b[^>]*>", path.read_text(encoding="utf-8")):
            if external.search(tag) and 'rel="alternate"' not in tag:
                offending.append(f"{path.name}: {tag}")
    assert not offending, offending[:5]
    css = "".join(p.read_text(encoding="utf-8") for p in site["result"].site_dir.rglob("*.css"))
    assert "fonts.googleapis" not in css and "@import url(http" not in css


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_loads_without_console_errors(page, site, language):
    for name in PAGES:
        page.goto(_url(site["base"], language, name))
        page.wait_for_load_state("networkidle")
        assert page.locator("html").get_attribute("lang") == language
        assert not page.problems, f"{name}: {page.problems}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_board_svg_is_drawn(page, site, game, language):
    spaces = load_rules(site["root"] / "rulespecs" / game / "game.yaml").spaces
    page.goto(_url(site["base"], language, f"{game}/board.md"))
    drawn = page.locator(".rc-board-frame svg.rc-board g.rc-space")
    assert drawn.count() == len(spaces)
    box = page.locator(".rc-board-frame svg.rc-board").bounding_box()
    assert box["width"] > 200 and box["height"] > 200
    middle = spaces[len(spaces) // 2]
    assert page.locator(f".rc-board-frame svg g.rc-space[data-space='{middle}'] rect").bounding_box()["width"] > 10


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_stepping_an_example_puts_every_piece_where_the_runtime_says(page, site, game, language):
    """Every frame of the examples: the pieces stand where the runtime's state puts them, and
    the highlighted squares are exactly those the runtime's legal actions name (every example in
    two languages, the first few in the others: the player is the same code in every language)."""
    folder = site["root"] / "rulespecs" / game
    page.goto(_url(site["base"], language, f"{game}/examples.md"))
    players = page.locator(".rc-player")
    scenarios = load_scenarios(folder)
    assert players.count() == len(scenarios)
    for index, scenario in enumerate(scenarios if language in EVERY_EXAMPLE else scenarios[:3]):
        runtime = Game(load_rules(folder / "game.yaml", scenario.options))
        at = runtime.field("at")
        player = players.nth(index)
        frames = run_scenario(runtime, scenario)
        for number, frame in enumerate(frames):
            state = frame.state
            expected = [runtime.rules.spaces[s] if s >= 0 else "" for s in state.s[at.base:at.base + at.size]]
            legal = set() if state.is_terminal() or state.is_chance_node() else {
                runtime.rules.spaces[value] for action in state.legal_actions()
                for (_, kind, _, _), value in zip(*_params(runtime, action)) if kind == "space"}
            sync_api.expect(player).to_have_attribute("data-frame", str(number))
            shown, highlighted = player.evaluate(
                "root => [[...root.querySelectorAll('g.rc-piece')].map(e => e.dataset.space),"
                " [...root.querySelectorAll('g.rc-space.rc-legal')].map(e => e.dataset.space)]")
            assert shown == expected, f"{scenario.id}, frame {number}"
            assert set(highlighted) == legal, f"{scenario.id}, frame {number}"
            if number + 1 < len(frames):
                player.locator(".rc-next-step").click()
        assert not page.problems, page.problems


def _params(game, action):
    """An action's parameter declarations and their values."""
    definition = game.action_def(action)
    return definition.params, definition.decode(action)


def test_the_keyboard_steps_plays_and_restarts(page, site):
    page.goto(_url(site["base"], "en", "taktinen/examples.md"))
    player = page.locator(".rc-player").last
    player.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert player.get_attribute("data-frame") == "2"
    page.keyboard.press("ArrowLeft")
    assert player.get_attribute("data-frame") == "1"
    page.keyboard.press(" ")
    assert "rc-playing" in player.get_attribute("class")
    page.keyboard.press("Escape")
    assert player.get_attribute("data-frame") == "0"
    assert "rc-playing" not in player.get_attribute("class")


def test_the_language_selector_lands_on_the_same_page_after_instant_navigation(page, site):
    page.goto(_url(site["base"], "fi", "taktinen/index.md"))
    page.locator("nav.md-nav--primary a[href$='taktinen/board/']").first.click()
    page.wait_for_url("**/fi/taktinen/board/")
    page.locator(".md-header .md-select > button").hover()
    page.locator("a.md-select__link[hreflang=ru]").click()
    page.wait_for_url("**/ru/taktinen/board/")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert not page.problems, page.problems


@pytest.mark.parametrize("language, word", [("fi", "pallonhallintatesti"), ("ru", "вратарь")])
def test_search_finds_a_word_of_the_language_on_its_pages(page, site, language, word):
    page.goto(_url(site["base"], language, "taktinen/index.md"))
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").fill(word)
    # Material reads the query on keyup; Playwright inserts non-Latin text without key events,
    # as an input method would, so finish with a key press as a person typing does
    page.keyboard.press("End")
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=15000)
    hrefs = results.evaluate_all("els => els.map(e => e.href)")
    assert hrefs and all(f"/{language}/" in href for href in hrefs), hrefs


def test_screenshots_of_a_finnish_board_and_russian_rules(page, site):
    OUTPUT.mkdir(exist_ok=True)
    page.goto(_url(site["base"], "fi", "taktinen/board.md"))
    page.screenshot(path=str(OUTPUT / "fi-board.png"), full_page=True)
    page.goto(_url(site["base"], "ru", "taktinen/rules.md"))
    page.screenshot(path=str(OUTPUT / "ru-rules.png"))
    assert (OUTPUT / "fi-board.png").stat().st_size > 10_000
    assert (OUTPUT / "ru-rules.png").stat().st_size > 10_000


# Every highlighted space of every frame of a page's players: its computed fill and stroke, and
# those of the same space with its highlight classes taken away (its plain rendering).
_HIGHLIGHTS = """root => {
  const seen = [];
  const player = root.rcPlayer;
  for (let i = 0; i < player.data.frames.length; i++) {
    player.go(i);
    root.querySelectorAll('g.rc-space.rc-legal, g.rc-space.rc-chosen').forEach(space => {
      const rect = space.querySelector('rect');
      const lit = getComputedStyle(rect);
      const state = [lit.fill, lit.stroke];
      const classes = ['rc-legal', 'rc-chosen'].filter(c => space.classList.contains(c));
      space.classList.remove(...classes);
      const plain = getComputedStyle(rect);
      seen.push({frame: i, space: space.dataset.space, classes, fill: state[0], stroke: state[1],
                 plainFill: plain.fill, plainStroke: plain.stroke});
      space.classList.add(...classes);
    });
  }
  player.go(0);
  return seen;
}"""


@pytest.mark.parametrize("game", GAMES)
def test_every_highlighted_space_stands_out_from_its_plain_rendering(browser, site, game):
    """WCAG 1.4.11: a legal or chosen space's fill or rim has contrast >= 3 : 1 with the same
    space drawn plain, in every frame of every example (colours as computed by the browser)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    tab = context.new_page()
    tab.goto(_url(site["base"], "en", f"{game}/examples.md"))
    players = tab.locator(".rc-player[data-rc-ready]")
    players.first.wait_for()
    weak, count = [], 0
    for index in range(players.count()):
        for seen in players.nth(index).evaluate(_HIGHLIGHTS):
            count += 1
            best = max(contrast(seen["fill"], seen["plainFill"]), contrast(seen["stroke"], seen["plainStroke"]))
            if best < 3:
                weak.append((index, seen, round(best, 2)))
    context.close()
    assert count > 0
    assert not weak, weak[:5]
