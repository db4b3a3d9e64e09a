"""``rulecraft site build --pdf``: the printed rulebooks, read back as a reader of the PDF meets them.

The default set builds one game in two languages once (a module fixture) and reads the PDFs with
poppler's ``pdftotext`` and ``pdfinfo`` (Debian's ``poppler-utils``): the game's name and page
number on every page, every rule id, every table cell's text, each example's key diagrams and no
player controls, a quick reference of exactly one page. The built pages are also laid out in
Chromium's print emulation at the A4 width the PDFs use: no table may be wider than its page. The
slow set does the same for every published game in all six languages.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
import re
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rulecraft.cli import app
from rulecraft.site.book import Book
from rulecraft.site.build import build_site
from rulecraft.site.pages import site_labels
from rulecraft.errors import SiteError
from rulecraft.site.pdf import (BOOK_PAGES, CONTENT_HEIGHT, CONTENT_WIDTH, QUICK, QUICK_MIN_SCALE, one_page_pdf,
                                  page_count, page_file)
from rulecraft.site.texts import LANGUAGES

from helpers import CHROMIUM, CHROMIUM_ARGS

sync_api = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (REPO / "rulespecs").iterdir()
               if (p / "game.yaml").is_file() and Book(p, ("en",)).publishable)
DEFAULT_GAME, DEFAULT_LANGUAGES = "taktinen", ("en", "ru")

pytestmark = [pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
              pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")]


def _build(tmp_path_factory, games, languages) -> dict:
    out = tmp_path_factory.mktemp("pdf-site")
    result = build_site(None, out=out / "site", source=out / "src", languages=languages, games=games, pdf=True)
    return {"result": result, "games": list(games), "languages": tuple(languages)}


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """One game in two languages, built and printed once for the module."""
    return _build(tmp_path_factory, [DEFAULT_GAME], DEFAULT_LANGUAGES)


@pytest.fixture(scope="module")
def printed_all(tmp_path_factory):
    """Every published game in all six languages (the slow set)."""
    return _build(tmp_path_factory, GAMES, LANGUAGES)


def pdf_pages(path: Path) -> list[str]:
    """The text of each page of a PDF, as pdftotext reads it, whitespace collapsed."""
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    return [squash(page) for page in text.split("\f")[:-1]]


def pdf_page_count(path: Path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def squash(text: str) -> str:
    return " ".join(text.split())


def pdf_columns(path: Path) -> list[str]:
    """The PDF's text as runs of lines that continue one another: a line joins the run whose last
    line ends just above it at the same left edge, so a table cell wrapped over lines reads as one
    run (plain pdftotext reads a table row by row, the neighbouring cells' lines between its lines).
    Whitespace is dropped, since a long word may be broken inside (``overflow-wrap``)."""
    xml = subprocess.run(["pdftotext", "-enc", "UTF-8", "-bbox-layout", str(path), "-"], check=True,
                         capture_output=True, text=True).stdout
    runs = []
    for page in re.findall(r"<page .*?</page>", xml, re.S):
        open_runs = []
        lines = [(float(x), float(top), float(bottom), "".join(html.unescape(w) for w in words))
                 for x, top, bottom, words in
                 ((m.group(1), m.group(2), m.group(3), re.findall(r"<word[^>]*>(.*?)</word>", m.group(4)))
                  for m in re.finditer(r'<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*?)</line>',
                                       page, re.S))]
        for x, top, bottom, text in sorted(lines, key=lambda line: line[1]):
            height = bottom - top
            run = next((run for run in open_runs if abs(run["x"] - x) < 1.5
                        and -0.1 * height <= top - run["bottom"] < 0.8 * height), None)
            if run is None:
                run = {"x": x, "text": ""}
                open_runs.append(run)
                runs.append(run)
            run["text"] += text
            run["bottom"] = bottom
    return [run["text"] for run in runs]


def printed_cell(cell: str, text: str, columns: list[str]) -> bool:
    """Whether a table cell's text is in the PDF: in its text, or in one run of its lines."""
    joined = "".join(cell.split())
    return cell in text or any(joined in run for run in columns)


# Each table of the page: its cells' text, the width its content takes, and the room it has: the
# width of its column where it stands in a multi-column box (the quick reference's card), else of
# the page's text.
TABLES = """() => {
  const article = document.querySelector("article.md-content__inner");
  const room = (table) => {
    for (let box = table.parentElement; box && box !== article; box = box.parentElement) {
      const style = getComputedStyle(box);
      const count = parseInt(style.columnCount, 10);
      if (count > 1) {
        const gap = parseFloat(style.columnGap) || 0;
        const inner = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return (inner - gap * (count - 1)) / count;
      }
    }
    return article.getBoundingClientRect().width;
  };
  return Array.from(article.querySelectorAll("table")).map((table) => ({
    cells: Array.from(table.querySelectorAll("th, td")).map((cell) => cell.textContent),
    width: Math.max(table.scrollWidth, table.getBoundingClientRect().width),
    room: room(table)}));
}"""


def print_layout(site_dir: Path, game: str, language: str, quick_scale: float) -> dict:
    """Each page of the book and the quick reference in Chromium's print emulation at the width
    the PDFs lay them out at (the quick reference's is widened by the scale it was printed at):
    every table's text by cell, and each table whose content is wider than its room."""
    report = {"cells": {}, "too_wide": []}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": CONTENT_WIDTH, "height": 1000})
        tab.emulate_media(media="print")
        for name in BOOK_PAGES + (QUICK,):
            tab.set_viewport_size({"width": round(CONTENT_WIDTH / (quick_scale if name == QUICK else 1)),
                                   "height": 1000})
            tab.goto(page_file(site_dir, language, game, name).as_uri())
            tables = tab.evaluate(TABLES)
            report["cells"][name] = [squash(cell) for table in tables for cell in table["cells"] if cell.strip()]
            report["too_wide"] += [f"{name}: table {index + 1} is {table['width']:.0f} px in {table['room']:.0f} px"
                                   for index, table in enumerate(tables) if table["width"] > table["room"] + 1]
        browser.close()
    return report


def check_book(site: dict, game: str, language: str) -> None:
    """Everything a reader of ``game``'s PDFs in ``language`` must find (see the module docstring)."""
    site_dir = site["result"].site_dir
    book = Book(REPO / "rulespecs" / game, (language,))
    title = book.ir().meta.title
    labels = site_labels(book.site_texts[language])
    pages = pdf_pages(site_dir / "pdf" / f"{game}-{language}.pdf")
    unnamed = [number for number, text in enumerate(pages, 1)
               if title not in text or f"{number} / {len(pages)}" not in text]
    assert not unnamed, f"pages without the game's name or their number: {unnamed}"
    text = " ".join(pages)
    missing_rules = [rule for rule in book.rule_ids if not re.search(rf"(?<![\d.]){re.escape(rule)}(?![\d])", text)]
    assert not missing_rules, f"rule ids not in the PDF: {missing_rules}"
    quick = site_dir / "pdf" / f"{game}-{language}-quick.pdf"
    scale = next(pdf.scale for pdf in site["result"].pdfs if pdf.path == quick)
    layout = print_layout(site_dir, game, language, scale)
    assert not layout["too_wide"], layout["too_wide"]
    book_cells = [cell for name in BOOK_PAGES for cell in layout["cells"][name]]
    assert book_cells, "the book has no table"
    columns = pdf_columns(site_dir / "pdf" / f"{game}-{language}.pdf")
    lost = sorted({cell for cell in book_cells if not printed_cell(cell, text, columns)})
    assert not lost, f"table cells not in the PDF: {lost[:20]}"
    for path in sorted((site["result"].source_dir / "data" / game).glob(f"*.{language}.json")):
        frames = len(json.loads(path.read_text(encoding="utf-8"))["frames"])
        last = f"{labels['step']} {frames} {labels['of']} {frames}"
        assert last in text, f"{path.name}: its last diagram ({last}) is not printed"
    for control in (labels["keys"], labels["legal"]):
        assert squash(control) not in text, f"the player's {control!r} is printed"
    assert pdf_page_count(quick) == 1
    quick_text = " ".join(pdf_pages(quick))
    assert title in quick_text
    quick_columns = pdf_columns(quick)
    lost = [cell for cell in layout["cells"][QUICK] if not printed_cell(cell, quick_text, quick_columns)]
    assert not lost, f"quick-reference cells not in its PDF: {lost[:20]}"


@pytest.mark.parametrize("language", DEFAULT_LANGUAGES)
def test_pdf_holds_the_whole_rulebook_and_a_one_page_quick_reference(printed, language):
    """One game's book in two languages: named and numbered pages, every rule id and table cell,
    tables within the page in print, each example's last diagram, no player controls; its quick
    reference on one page."""
    check_book(printed, DEFAULT_GAME, language)


def test_pdf_files_are_one_book_and_one_card_per_language(printed):
    names = sorted(pdf.path.name for pdf in printed["result"].pdfs)
    assert names == sorted(f"{DEFAULT_GAME}-{language}{suffix}.pdf"
                           for language in DEFAULT_LANGUAGES for suffix in ("", "-quick"))
    for pdf in printed["result"].pdfs:
        assert pdf.pages == pdf_page_count(pdf.path)
        info = subprocess.run(["pdfinfo", str(pdf.path)], capture_output=True, text=True, check=True).stdout
        assert re.search(r"^Page size:.*\(A4\)", info, re.M), info


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_prints_in_every_language(printed_all, game, language):
    check_book(printed_all, game, language)


def test_pdf_without_chromium_names_what_to_install(monkeypatch, tmp_path):
    """No Chromium on PATH: the command stops before building, naming the package (no traceback)."""
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
    result = CliRunner().invoke(app, ["site", "build", "--pdf", "--game", DEFAULT_GAME, "--lang", "en",
                                      "--out", str(tmp_path / "site"), "--source", str(tmp_path / "src")])
    assert result.exit_code == 1
    assert "RC815" in result.output and "apt-get install chromium" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "site").exists()


def test_pdf_without_playwright_names_the_site_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "playwright", None)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    result = CliRunner().invoke(app, ["site", "build", "--pdf", "--game", DEFAULT_GAME, "--lang", "en",
                                      "--out", str(tmp_path / "site"), "--source", str(tmp_path / "src")])
    assert result.exit_code == 1
    assert "RC110" in result.output and "rulecraft[site]" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("height", [1.6, 3.0])
def test_quick_reference_is_scaled_to_one_page_or_refused(height):
    """A card taller than its sheet is printed smaller on exactly one sheet; one that would need
    less than QUICK_MIN_SCALE stops with RC815, naming what to shorten."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        tab = browser.new_page()
        tab.emulate_media(media="print")
        tab.set_content(f'<body style="margin:0"><article class="md-content__inner">'
                        f'<div style="height:{round(height * CONTENT_HEIGHT)}px">a card</div></article></body>')
        if 1 / height >= QUICK_MIN_SCALE:
            data, scale = one_page_pdf(tab, "Card")
            assert page_count(data) == 1
            assert QUICK_MIN_SCALE <= scale <= 1 / height + 0.005
        else:
            with pytest.raises(SiteError, match="RC815.*does not fit one A4 page"):
                one_page_pdf(tab, "Card")
        browser.close()
