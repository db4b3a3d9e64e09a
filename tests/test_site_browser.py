"""The built rulebook site in a real browser: Playwright driving Debian's Chromium.

The site is built once (a copy of every game under ``rulespecs/``, six languages) and served by a local
``http.server`` thread on 127.0.0.1, at the address given to the build as ``site_url``. No
browser download is used: ``/usr/bin/chromium`` (Debian's ``chromium`` package) is launched
headless with networking features off, and every request outside 127.0.0.1 fails a test, so the
site is proven to work offline. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

import html
import itertools
from pathlib import Path
import re
import shutil

import pytest

import rulecraft.site
from rulecraft.compiler import load_rules
from rulecraft.runtime.engine import Game
from rulecraft.runtime.scenario import load_scenarios, run_scenario
from rulecraft.site.board import across_segments
from rulecraft.site.book import Book
from rulecraft.site.build import build_site
from rulecraft.site.pages import PAGE_FILES, GamePages
from rulecraft.site.texts import LANGUAGES

from colours import DEFICIENCIES, contrast, delta_e_seen
from helpers import CHROMIUM, CHROMIUM_ARGS, free_port, served

sync_api = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "test-output"
# the published games: a game whose English rulebook is not written yet is left out of the site
GAMES = sorted(p.name for p in (REPO / "rulespecs").iterdir()
               if (p / "game.yaml").is_file() and Book(p, ("en",)).publishable)
PAGES = ["index.md"] + [f"{game}/{name}" for game in GAMES for name in PAGE_FILES.values()]


def sampled_pages(language: str) -> list[str]:
    """The pages one language loads in the default set: the landing page and every page type,
    each of one game, the games taken in turn across page types and languages (every page of
    every game in every language in the slow set)."""
    shift = LANGUAGES.index(language)
    return ["index.md"] + [f"{GAMES[(shift + number) % len(GAMES)]}/{name}"
                           for number, name in enumerate(PAGE_FILES.values())]

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


def test_every_game_page_title_names_the_game_in_every_language(site):
    """A browser tab, a bookmark and a search result show which game a page is of: every page of
    a game is titled "<page> · <game> - <rulebooks>" (its overview by the game's name)."""
    untitled = []
    for game in GAMES:
        title = load_rules(site["root"] / "rulespecs" / game / "game.yaml").title
        for path in site["result"].site_dir.rglob(f"{game}/**/index.html"):
            found = re.search(r"<title>([^<]*)</title>", path.read_text(encoding="utf-8"))
            if not found or html.unescape(found.group(1)).count(title) != 1:
                untitled.append((str(path.relative_to(site["result"].site_dir)), found and found.group(1)))
    assert not untitled, untitled[:5]


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
def test_every_page_type_loads_without_console_errors(page, site, language):
    _load_without_errors(page, site, language, sampled_pages(language))


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_loads_without_console_errors(page, site, language):
    _load_without_errors(page, site, language, PAGES)


def _load_without_errors(page, site, language: str, names: list[str]) -> None:
    for name in names:
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
    """Every frame of the examples, a step shown phase by phase as the runtime plays it
    (``run_scenario(by_phase=True)``, nobody to act inside a step): the pieces stand where the runtime's state puts them, the
    lines across the pitch (taktinen's offside lines) where its state draws them, each die rolled
    beside the name of the team that rolled it, and the
    highlighted squares are exactly those the runtime's legal actions name (every example in
    one language, the languages in turn: the player is the same code in every language)."""
    folder = site["root"] / "rulespecs" / game
    page.goto(_url(site["base"], language, f"{game}/examples.md"))
    players = page.locator(".rc-player")
    scenarios = load_scenarios(folder)
    assert players.count() == len(scenarios)
    shift = LANGUAGES.index(language)
    for index, scenario in enumerate(scenarios):
        if index % len(LANGUAGES) != shift:       # each example once, the languages in turn
            continue
        runtime = Game(load_rules(folder / "game.yaml", scenario.options))
        at = runtime.field("at")
        player = players.nth(index)
        frames = run_scenario(runtime, scenario, by_phase=True)
        for number, frame in enumerate(frames):
            state = frame.state
            expected = [runtime.rules.spaces[s] if s >= 0 else "" for s in state.s[at.base:at.base + at.size]]
            legal = set() if state.is_terminal() or state.is_chance_node() or not frame.ends_step else {
                runtime.rules.spaces[value] for action in state.legal_actions()
                for (_, kind, _, _), value in zip(*_params(runtime, action)) if kind == "space"}
            lines = [segment and segment[2] for segment in across_segments(runtime.rules, state)]
            sync_api.expect(player).to_have_attribute("data-frame", str(number))
            teams = player.evaluate("root => root.rcPlayer.data.teams")
            rolled = [[teams[v["team"]] if v["team"] is not None else "", runtime.display(v["type"], v["value"])]
                      for kind, _, v in frame.events if kind == "roll"]
            shown, highlighted, drawn, dice, inside_a_step = player.evaluate(
                "root => [[...root.querySelectorAll('svg.rc-board g.rc-piece')].map(e => e.dataset.space),"
                " [...root.querySelectorAll('svg.rc-board g.rc-space.rc-legal')].map(e => e.dataset.space),"
                " [...root.querySelectorAll('svg.rc-board g.rc-across > line')].map(e =>"
                "   getComputedStyle(e).display === 'none' ? null : Number(e.getAttribute('y1'))),"
                " [...root.querySelectorAll('.rc-dice > li')].map(li => [li.querySelector('.rc-die-by') ?"
                "   li.querySelector('.rc-die-by').innerText : '', li.querySelector('.rc-die').lastChild.textContent]),"
                " root.querySelector('.rc-actor').hidden]")
            assert shown == expected, f"{scenario.id}, frame {number}"
            assert set(highlighted) == legal, f"{scenario.id}, frame {number}"
            assert drawn == lines, f"{scenario.id}, frame {number}: lines across the pitch"
            assert dice == rolled, f"{scenario.id}, frame {number}: each die by the team that rolled it"
            assert inside_a_step == (not frame.ends_step), f"{scenario.id}, frame {number}: nobody acts inside a step"
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


def test_switching_language_keeps_the_place_on_the_page(page, site):
    page.goto(_url(site["base"], "es", "taktinen/rules.md") + "#4.4")
    page.locator(".md-header .md-select > button").hover()
    page.locator("a.md-select__link[hreflang=de]").click()
    page.wait_for_url("**/de/taktinen/rules/#4.4")
    assert page.evaluate("document.getElementById('4.4') !== null")
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


# Every highlighted space and piece of every frame of a page's players: its computed colours, and
# those of the same element with its highlight classes taken away (its plain rendering); for a
# space, the fills of the pieces standing on it.
_HIGHLIGHTS = """root => {
  const seen = [];
  const player = root.rcPlayer;
  const board = root.querySelector('svg.rc-board');
  const paint = (element, inner) => {
    const lit = getComputedStyle(element.querySelector(inner));
    const state = {fill: lit.fill, stroke: lit.stroke};
    const classes = ['rc-legal', 'rc-chosen'].filter(c => element.classList.contains(c));
    element.classList.remove(...classes);
    const plain = getComputedStyle(element.querySelector(inner));
    Object.assign(state, {classes, plainFill: plain.fill, plainStroke: plain.stroke});
    element.classList.add(...classes);
    return state;
  };
  for (let i = 0; i < player.data.frames.length; i++) {
    player.go(i);
    board.querySelectorAll('g.rc-space.rc-legal, g.rc-space.rc-chosen').forEach(space => {
      const on = [...board.querySelectorAll(`g.rc-piece[data-space="${space.dataset.space}"]`)]
        .map(piece => getComputedStyle(piece.querySelector('.rc-piece-shape')).fill);
      seen.push({frame: i, space: space.dataset.space, pieces: on, ...paint(space, 'rect')});
    });
    board.querySelectorAll('g.rc-piece.rc-legal, g.rc-piece.rc-chosen').forEach(piece => {
      seen.push({frame: i, piece: piece.dataset.piece, ...paint(piece, '.rc-piece-shape')});
    });
  }
  player.go(0);
  return seen;
}"""


@pytest.mark.parametrize("game", GAMES)
def test_every_highlighted_space_stands_out_from_its_plain_rendering(browser, site, game):
    """WCAG 1.4.11: a legal or chosen space's fill or rim has contrast >= 3 : 1 with the same
    space drawn plain, and its fill 3 : 1 with every piece standing on it; a legal or chosen
    piece's rim 3 : 1 with its plain rim and with its own fill; in every frame of every example
    (colours as computed by the browser)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    tab = context.new_page()
    tab.goto(_url(site["base"], "en", f"{game}/examples.md"))
    players = tab.locator(".rc-player[data-rc-ready]")
    players.first.wait_for()
    weak, spaces = [], 0
    for index in range(players.count()):
        for seen in players.nth(index).evaluate(_HIGHLIGHTS):
            if "space" in seen:
                spaces += 1
                best = max(contrast(seen["fill"], seen["plainFill"]), contrast(seen["stroke"], seen["plainStroke"]))
                worst_piece = min((contrast(seen["fill"], piece) for piece in seen["pieces"]), default=21)
                low = min(best, worst_piece)
            else:
                low = min(contrast(seen["stroke"], seen["plainStroke"]), contrast(seen["stroke"], seen["fill"]))
            if low < 3:
                weak.append((index, seen, round(low, 2)))
    context.close()
    assert spaces > 0
    assert not weak, weak[:5]


def test_teams_differ_by_colour_for_every_colour_vision_and_by_shape(browser, site):
    """Any two teams' pieces, as computed on each game's examples page, differ by CIEDE2000 >= 20
    under simulated protanopia, deuteranopia and tritanopia, and are drawn in different shapes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    for game in GAMES:
        tab.goto(_url(site["base"], "en", f"{game}/examples.md"))
        teams = tab.locator(".rc-player").first.evaluate("""root => {
          const teams = {};
          root.querySelectorAll('svg.rc-board g.rc-piece').forEach(piece => {
            const team = [...piece.classList].find(c => c.startsWith('rc-team-'));
            const shape = piece.querySelector('.rc-piece-shape');
            teams[team] = [getComputedStyle(shape).fill, shape.tagName];
          });
          return Object.values(teams);
        }""")
        assert len(teams) >= 2, game
        for (one, shape_one), (two, shape_two) in itertools.combinations(teams, 2):
            assert shape_one != shape_two, (game, shape_one)
            for deficiency in DEFICIENCIES:
                assert delta_e_seen(one, two, deficiency) >= 20, (game, one, two, deficiency)
    context.close()


# What a board shows (over every frame of a player), as legend keys, and its legend's entries.
_LEGEND = """root => {
  const shown = new Set();
  const visible = e => getComputedStyle(e).display !== 'none';
  const look = () => {
    root.querySelectorAll('svg.rc-board g.rc-piece').forEach(piece => {
      if (!visible(piece)) return;
      piece.classList.forEach(c => {
        if (c.startsWith('rc-team-') || c.startsWith('rc-flag-')) shown.add(c.slice(3));
      });
    });
    root.querySelectorAll('svg.rc-board .rc-legal').forEach(() => shown.add('legal'));
    root.querySelectorAll('svg.rc-board .rc-chosen').forEach(() => shown.add('chosen'));
    root.querySelectorAll('svg.rc-board .rc-refused-target').forEach(() => shown.add('refused'));
    root.querySelectorAll('svg.rc-board g.rc-marker').forEach(marker => {
      if (visible(marker)) marker.classList.forEach(c => { if (c.startsWith('rc-marker-')) shown.add(c.slice(3)); });
    });
    root.querySelectorAll('svg.rc-board g.rc-area[data-area]').forEach(a => shown.add('area-' + a.dataset.area));
    root.querySelectorAll('svg.rc-board g.rc-across > line').forEach(line => {
      if (visible(line)) shown.add('across-' + line.dataset.across);
    });
    root.querySelectorAll('svg.rc-board g.rc-paths > g.rc-path').forEach(path => {
      if (!visible(path)) return;
      path.classList.forEach(c => { if (c.startsWith('rc-path-')) shown.add(c.slice(3)); });
      if (path.querySelector('.rc-path-bend')) shown.add('path-bend');
      if (path.querySelector('.rc-path-touch')) shown.add('path-touch');
    });
  };
  const player = root.rcPlayer;
  if (player) {
    for (let i = 0; i < player.data.frames.length; i++) { player.go(i); look(); }
    player.go(0);
  } else look();
  const paint = shape => shape ? [getComputedStyle(shape).fill, shape.tagName] : null;
  const teams = {};
  root.querySelectorAll('svg.rc-board g.rc-piece').forEach(piece => {
    const team = [...piece.classList].find(c => c.startsWith('rc-team-')).slice(3);
    teams[team] = paint(piece.querySelector('.rc-piece-shape'));
  });
  const legend = [...root.querySelectorAll('.rc-legend li')].map(li => ({
    key: li.dataset.legend, text: li.textContent.trim(), visible: li.getBoundingClientRect().width > 0,
    paint: paint(li.querySelector('svg g.rc-piece .rc-piece-shape'))}));
  return {shown: [...shown].sort(), teams, legend};
}"""


def _assert_legend(found: dict, team_names: list[str], where: str):
    """The legend names exactly what the board shows, each entry with words and a swatch, and a
    team's entry is that team's name beside a piece painted and shaped as its pieces are."""
    keys = [item["key"] for item in found["legend"]]
    assert sorted(keys) == found["shown"], (where, keys, found["shown"])
    for item in found["legend"]:
        assert item["text"] and item["visible"], (where, item)
        if item["key"].startswith("team-"):
            assert item["text"] == team_names[int(item["key"][5:])], (where, item)
            assert item["paint"] == found["teams"][item["key"]], (where, item)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_legend_names_each_colour_and_marker_its_board_shows(page, site, game, language):
    """Under the board page's board and under each example: one entry per team on the board, per
    highlight, marker, marker's path (and its bends and team-mates), flag and area the board shows
    in some step, and nothing else (the examples
    sampled across languages: every example in one language, each language a sixth)."""
    page.goto(_url(site["base"], language, f"{game}/examples.md"))
    players = page.locator(".rc-player[data-rc-ready]")
    players.first.wait_for()
    names = players.first.evaluate("root => root.rcPlayer.data.teams")
    for index in range(LANGUAGES.index(language), players.count(), len(LANGUAGES)):
        _assert_legend(players.nth(index).evaluate(_LEGEND), names, f"example {index}")
    page.goto(_url(site["base"], language, f"{game}/board.md"))
    _assert_legend(page.locator(".rc-board-frame").evaluate(_LEGEND), names, "board page")
    assert not page.problems, page.problems


# How a player sits on the screen over every frame: its size against the window, whether it
# scrolls inside, where the narration is against the board, the smallest space name, piece mark and
# piece drawn, and any marker drawn over a space's name.
_FIT = """root => {
  const player = root.rcPlayer;
  const box = e => e.getBoundingClientRect();
  const visible = e => getComputedStyle(e).display !== 'none' && box(e).width > 0;
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const result = {heights: [], scrolls: [], text: 99, piece: 99, hidden: []};
  for (let i = 0; i < player.data.frames.length; i++) {
    player.go(i);
    result.heights.push([box(root).height, box(root.querySelector('.rc-controls')).bottom - box(root).top]);
    [root, ...root.querySelectorAll('*')].forEach(e => {
      const style = getComputedStyle(e);
      if (['auto', 'scroll'].includes(style.overflowY) && e.scrollHeight > e.clientHeight + 1
          || ['auto', 'scroll'].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1)
        result.scrolls.push(e.className.baseVal ?? e.className);
    });
    const names = [...root.querySelectorAll('svg.rc-board .rc-space-name')];
    [...names, ...root.querySelectorAll('svg.rc-board g.rc-piece .rc-piece-mark')].forEach(text => {
      if (visible(text.parentNode)) result.text = Math.min(result.text, box(text).height);
    });
    root.querySelectorAll('svg.rc-board g.rc-piece').forEach(piece => {
      if (visible(piece)) result.piece = Math.min(result.piece, box(piece.querySelector('.rc-piece-shape')).width);
    });
    root.querySelectorAll('svg.rc-board g.rc-marker').forEach(marker => {
      if (!visible(marker)) return;
      names.filter(name => overlap(box(marker), box(name))).forEach(name => result.hidden.push([i, name.textContent]));
    });
  }
  player.go(0);
  const board = box(root.querySelector('svg.rc-board')), side = box(root.querySelector('.rc-side'));
  result.beside = side.left >= board.right - 1;
  result.below = side.top >= board.bottom - 1;
  result.width = box(root).width;
  return result;
}"""

VIEWPORTS = {"wide": (1280, 900), "phone": (390, 844)}
# On a phone the board, its legend and the controls come first and fit the window; the step's
# narration follows below them and may run past the window's bottom (a readable board stacked
# over even one phase's narration is taller than a phone's window).
NARRATION_BELOW = ("phone",)
# The smallest space name or piece mark drawn, in px (a crowded taktinen zone on a phone).
SMALLEST_TEXT = {"wide": 7, "phone": 6}


def _fit_cases():
    """(viewport, game, language): each viewport and game once, the languages taken in turn."""
    cases = [(viewport, game) for viewport in VIEWPORTS for game in GAMES]
    return [(viewport, game, LANGUAGES[number % len(LANGUAGES)]) for number, (viewport, game) in enumerate(cases)]


@pytest.mark.parametrize("viewport, game, language", _fit_cases())
def test_every_example_player_fits_the_screen(browser, site, viewport, game, language):
    """At 1280 x 900 the board stands beside the narration, on a 390 x 844 phone above it; in
    every step of every example the whole player (on the phone: the board, legend and controls,
    ``NARRATION_BELOW``) fits the window below the header without scrolling inside it; space
    names and piece marks are at least ``SMALLEST_TEXT`` tall, pieces at least 7 px wide, and no
    marker covers a space's name."""
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    tab = context.new_page()
    tab.goto(_url(site["base"], language, f"{game}/examples.md"))
    players = tab.locator(".rc-player[data-rc-ready]")
    players.first.wait_for()
    header = tab.locator(".md-header").bounding_box()["height"]
    too_tall = []
    for index in range(players.count()):
        fit = players.nth(index).evaluate(_FIT)
        where = (index, fit)
        for step, (whole, controls) in enumerate(fit["heights"]):
            tall = controls if viewport in NARRATION_BELOW else whole
            if tall > height - header:
                too_tall.append((index, step, round(tall)))
        assert fit["width"] <= width, where
        assert not fit["scrolls"], where
        assert fit["beside"] if viewport == "wide" else fit["below"], where
        assert fit["text"] >= SMALLEST_TEXT[viewport] and fit["piece"] >= 7, where
        assert not fit["hidden"], where
    context.close()
    assert not too_tall, too_tall


# --- access: what a screen reader, a keyboard, reduced motion and a browser without JavaScript get

ACCESS_LANGUAGES = ("en", "ru")       # languages whose players a screen reader's view is checked in
AXE_PAGES = tuple(PAGE_FILES.values())    # every page type


def _told(lines: list[str]) -> dict[str, list[str]]:
    """The position list read back: space (or the off-board heading) → the names on it, without
    what is said of each piece in brackets."""
    told = {}
    for line in lines:
        space, _, rest = line.partition(": ")
        told[space] = re.sub(r" \([^)]*\)", "", rest).split(", ")
    return told


@pytest.mark.parametrize("language", ACCESS_LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_screen_reader_gets_the_position_as_text_at_every_step(page, site, game, language):
    """The board drawing is hidden from screen readers; beside it a list tells, space by space,
    the pieces the runtime puts there (and the free ball), and it follows every step."""
    folder = site["root"] / "rulespecs" / game
    page.goto(_url(site["base"], language, f"{game}/examples.md"))
    players = page.locator(".rc-player[data-rc-ready]")
    players.first.wait_for()
    for index, scenario in enumerate(load_scenarios(folder)[:3]):
        runtime = Game(load_rules(folder / "game.yaml", scenario.options))
        at = runtime.field("at")
        player = players.nth(index)
        assert player.get_by_role("img").count() == 0
        names, markers = player.evaluate(
            "root => [root.rcPlayer.data.pieces.map(p => p.name), root.rcPlayer.data.markers.map(m => m.label)]")
        frames = run_scenario(runtime, scenario, by_phase=True)
        for number, frame in enumerate(frames):
            sync_api.expect(player).to_have_attribute("data-frame", str(number))
            told = _told(player.locator(".rc-position").get_by_role("listitem").all_text_contents())
            where = frame.state.s[at.base:at.base + at.size]
            for space in {s for s in where if s >= 0}:
                expected = {names[p] for p, s in enumerate(where) if s == space}
                said = set(told.pop(runtime.rules.spaces[space], []))
                assert expected <= said and said - expected <= set(markers), (scenario.id, number, space, said)
            rest = [name for name in sum(told.values(), []) if name not in markers]   # the off-board line
            assert sorted(rest) == sorted(names[p] for p, s in enumerate(where) if s < 0), (scenario.id, number)
            if number + 1 < len(frames):
                player.locator(".rc-next-step").click()
    assert not page.problems, page.problems


def test_the_narration_is_announced_and_the_text_says_who_is_down_and_has_the_ball(page, site):
    """BALL-5-fumble, step 2: the live region holds the step's narration, and the position text
    names the knocked-down piece and the new ball carrier, as the runtime's fields say."""
    page.goto(_url(site["base"], "en", "ball/examples.md"))
    player = page.locator("h2[id='BALL-5-fumble'] ~ .rc-player").first
    live = player.locator("[aria-live=polite]")
    player.locator(".rc-next-step").click()
    sync_api.expect(live).to_contain_text("ATK X5 is knocked down on 8G")
    sync_api.expect(live).to_contain_text("forced fumble: DEF X3 takes the ball from ATK X5")
    lines = player.locator(".rc-position").get_by_role("listitem").all_text_contents()
    assert "8G: ATK X5 (knocked down)" in lines
    assert any(line.endswith("DEF X3 (no new action this turn, ball carrier)") for line in lines), lines


def test_space_and_enter_on_a_focused_button_press_only_that_button(page, site):
    """Space on a focused Next steps once and starts no autoplay; Enter steps too; Space on Play
    plays; the player's own shortcuts still work when the player itself has the focus."""
    page.goto(_url(site["base"], "en", "taktinen/examples.md"))
    player = page.locator(".rc-player[data-rc-ready]").last
    player.locator(".rc-next-step").focus()
    page.keyboard.press(" ")
    sync_api.expect(player).to_have_attribute("data-frame", "1")
    page.keyboard.press("Enter")
    sync_api.expect(player).to_have_attribute("data-frame", "2")
    page.wait_for_timeout(2500)                  # longer than a played step
    assert player.get_attribute("data-frame") == "2"
    assert player.locator(".rc-play").get_attribute("aria-label") == "Play"
    player.locator(".rc-play").focus()
    page.keyboard.press(" ")
    sync_api.expect(player).to_have_attribute("data-frame", "3", timeout=5000)
    assert player.locator(".rc-play").get_attribute("aria-label") == "Pause"
    page.keyboard.press("Enter")
    assert player.locator(".rc-play").get_attribute("aria-label") == "Play"


def test_with_reduced_motion_playing_does_not_start(browser, site):
    """With the system's reduced-motion setting, Play and Space leave the player on its step, the
    Play button says why, and pieces move without a transition."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    tab = context.new_page()
    tab.goto(_url(site["base"], "en", "taktinen/examples.md"))
    player = tab.locator(".rc-player[data-rc-ready]").last
    play = player.locator(".rc-play")
    play.click(force=True)                       # a click on the greyed-out button
    play.press("Enter")
    player.focus()
    tab.keyboard.press(" ")
    tab.wait_for_timeout(2500)                   # longer than a played step
    assert player.get_attribute("data-frame") == "0"
    assert play.get_attribute("aria-label") == "Autoplay is off: your device asks for reduced motion"
    assert play.get_attribute("aria-disabled") == "true"
    assert player.locator("svg.rc-board g.rc-piece").first.evaluate("e => getComputedStyle(e).transitionDuration") == "0s"
    context.close()


@pytest.mark.parametrize("language", ACCESS_LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_without_javascript_each_example_shows_its_first_position(browser, site, game, language):
    """JavaScript off: every example's board has its pieces drawn inside the squares the runtime
    puts them on before the first step, and the position list is there."""
    folder = site["root"] / "rulespecs" / game
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    tab = context.new_page()
    tab.goto(_url(site["base"], language, f"{game}/examples.md"))
    players = tab.locator(".rc-player")
    scenarios = load_scenarios(folder)
    assert players.count() == len(scenarios)
    for index, scenario in enumerate(scenarios):
        runtime = Game(load_rules(folder / "game.yaml", scenario.options))
        at = runtime.field("at")
        where = run_scenario(runtime, scenario)[0].state.s[at.base:at.base + at.size]
        player = players.nth(index)
        pieces = player.locator("svg.rc-board g.rc-piece")
        assert pieces.count() == len(where)
        shown = pieces.evaluate_all("els => els.map(e => getComputedStyle(e).display === 'none' ? '' : e.dataset.space)")
        assert shown == [runtime.rules.spaces[s] if s >= 0 else "" for s in where], scenario.id
        on_board = [p for p, s in enumerate(where) if s >= 0]
        if on_board and index < 3:        # geometry of a few: a piece is drawn inside its square
            piece = pieces.nth(on_board[0]).bounding_box()
            square = player.locator(f"svg.rc-board g.rc-space[data-space='{runtime.rules.spaces[where[on_board[0]]]}'] rect")
            box = square.bounding_box()
            assert box["x"] <= piece["x"] and piece["x"] + piece["width"] <= box["x"] + box["width"] + 1
            assert box["y"] <= piece["y"] and piece["y"] + piece["height"] <= box["y"] + box["height"] + 1
        assert player.locator(".rc-position li").count() > 0
    context.close()


def _axe_cases():
    """Every (game, page, language): each game's page types in one language each by default,
    rotating through the languages; the other languages in the slow set."""
    cases = []
    for number, (game, page) in enumerate((g, p) for g in GAMES for p in AXE_PAGES):
        for language in LANGUAGES:
            sampled = language == LANGUAGES[number % len(LANGUAGES)]
            cases.append(pytest.param(game, page, language, marks=() if sampled else pytest.mark.slow))
    return cases


@pytest.mark.parametrize("game, name, language", _axe_cases())
def test_axe_finds_no_serious_or_critical_violation(page, site, game, name, language):
    """axe-core on the page as a reader first meets it (players initialised)."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page.goto(_url(site["base"], language, f"{game}/{name}"))
    page.wait_for_load_state("networkidle")
    if name == "examples.md":
        page.locator(".rc-player[data-rc-ready]").first.wait_for()
    response = axe.run(page).response
    found = [(v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["target"]) for v in response["violations"]
             if v["impact"] in ("serious", "critical")]
    assert not found, found
    assert not page.problems, page.problems


# ---------------------------------------------------------------- a kick's path
STREET_SOCCER = REPO / "rulespecs" / "street-soccer"
KICKS = ("SS-KICK-BEND", "SS-KICK-EXTENSION", "SS-KICK-TOUCH-ONCE", "SS-GOAL-INNER-POST", "SS-WALL-KICK-FROM-LINE")


def _kick_paths(frames, spaces):
    """The runtime's own account of each frame's kick, from its events: the fields of the ball's
    way in order (the kicker's field, then each field it steps to or a team-mate takes it on),
    the fields where it bends and those where a team-mate carries it on, and whether it went on
    into the goal (``in_goal``); None between kicks (a run, a placement ends the last kick's path)."""
    result, path = [], None
    for frame in frames:
        for kind, _, values in frame.events:
            if kind in ("run", "placed", "keeper_placed"):
                path = None
            if kind == "kick":
                path = {"spaces": [spaces[values["at"]]], "bends": [], "touches": [], "in_goal": False}
            elif kind == "ball_in" and path:
                path["in_goal"] = True
                if values["bend"]:
                    path["bends"].append(spaces[values["from"]])
            elif kind == "ball_step" and path:
                path["spaces"].append(spaces[values["to"]])
                if values["bend"]:
                    path["bends"].append(spaces[values["from"]])
            elif kind == "extension" and path:
                path["spaces"].append(spaces[values["at"]])
                path["touches"].append(spaces[values["at"]])
        result.append(None if not path or len(path["spaces"]) + path["in_goal"] < 2 else
                      {key: value if isinstance(value, bool) else list(value) for key, value in path.items()})
    return result


@pytest.mark.skipif(not STREET_SOCCER.is_dir(), reason="street-soccer is not in rulespecs/")
def test_a_kick_is_drawn_field_by_field_through_the_runtimes_fields(browser):
    """Issue 22: the examples' player draws each kick's path through the centres of the fields
    the runtime's events name, in order, with a dot on each bend and a ring on each team-mate who
    carried the ball on (and none on a field player moved onto the path after the kick); a goal's
    last step goes on from the goal-line field to a point inside the goal drawn at that end. The
    page is street-soccer's examples page as the site renders it, shown without the site around
    it, so the test runs while the game's rulebook is still unpublished."""
    book = Book(STREET_SOCCER, ("en",))
    frames = {s.id: run_scenario(book.game(s.options), s, by_phase=True) for s in book.scenarios}
    markdown = GamePages(book, "en", frames=frames).render("examples")
    players = dict(re.findall(r'\n## [^\n]*\{#(\S+)\}.*?(<div class="rc-player".*?)(?=\n\n## |\Z)', markdown, re.S))
    assets = Path(rulecraft.site.__file__).parent / "assets"
    page_html = (f"<!doctype html><html lang='en'><head><style>{(assets / 'player.css').read_text()}</style>"
                 f"</head><body>{''.join(players[id] for id in KICKS)}"
                 f"<script>{(assets / 'player.js').read_text()}</script></body></html>")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        tab = context.new_page()
        problems = []
        tab.on("pageerror", lambda error: problems.append(str(error)))
        tab.set_content(page_html)
        drawn_any, into_goal = set(), set()
        for index, scenario_id in enumerate(KICKS):
            scenario = next(s for s in book.scenarios if s.id == scenario_id)
            spaces = book.game(scenario.options).rules.spaces
            player = tab.locator(".rc-player").nth(index)
            for number, expected in enumerate(_kick_paths(frames[scenario_id], spaces)):
                sync_api.expect(player).to_have_attribute("data-frame", str(number))
                shown = player.evaluate("""root => {
                  const group = root.querySelector('svg.rc-board g.rc-paths > g.rc-path-ball');
                  const centre = name => {
                    const r = root.querySelector(`g.rc-space[data-space="${name}"] rect`);
                    return [+r.getAttribute('x') + r.getAttribute('width') / 2,
                            +r.getAttribute('y') + r.getAttribute('height') / 2];
                  };
                  const at = circle => [+circle.getAttribute('cx'), +circle.getAttribute('cy')];
                  if (getComputedStyle(group).display === 'none') return null;
                  const names = group.dataset.spaces.split(' ');
                  const points = group.querySelector('polyline').getAttribute('points').trim().split(/\\s+/)
                    .map(p => p.split(',').map(Number));
                  const named = list => list.map(point => names.find(name => {
                    const c = centre(name); return Math.abs(c[0] - point[0]) < 0.2 && Math.abs(c[1] - point[1]) < 0.2; }));
                  const inside = (point, rect) => ['x', 'y'].every((axis, i) =>
                    +rect.getAttribute(axis) < point[i] &&
                    point[i] < +rect.getAttribute(axis) + +rect.getAttribute(i ? 'height' : 'width'));
                  const beyond = points.slice(names.length);
                  return {spaces: names,
                          beyond: beyond.length,
                          in_goal: beyond.length === 1 &&
                            [...root.querySelectorAll('svg.rc-board rect.rc-goal')].some(rect => inside(beyond[0], rect)),
                          centres_match: points.slice(0, names.length).every((p, i) =>
                            Math.abs(p[0] - centre(names[i])[0]) < 0.2 && Math.abs(p[1] - centre(names[i])[1]) < 0.2),
                          bends: named([...group.querySelectorAll('.rc-path-bend')].map(at)),
                          touches: named([...group.querySelectorAll('.rc-path-touch')].map(at))};
                }""")
                where = f"{scenario_id}, frame {number}"
                if expected is None:
                    assert shown is None, (where, shown)
                else:
                    drawn_any.add(scenario_id)
                    assert shown["spaces"] == expected["spaces"] and shown["centres_match"], (where, shown, expected)
                    assert shown["bends"] == expected["bends"], (where, shown, expected)
                    assert shown["touches"] == expected["touches"], (where, shown, expected)
                    assert (shown["beyond"], shown["in_goal"]) == (int(expected["in_goal"]), expected["in_goal"]), \
                        (where, shown, expected)
                    if expected["in_goal"]:
                        into_goal.add(scenario_id)
                if number + 1 < len(frames[scenario_id]):
                    player.locator(".rc-next-step").click()
        assert drawn_any == set(KICKS)
        assert into_goal == {"SS-GOAL-INNER-POST"}
        legend = tab.locator(".rc-legend").first.inner_text()
        assert "path" in legend and "bend" in legend
        assert not problems, problems
    finally:
        context.close()
