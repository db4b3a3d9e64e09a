"""``rulecraft site build --pdf``: each published game's rulebook as PDFs, one per language.

The built HTML site is printed by headless Chromium through Playwright (Debian's ``chromium``;
Playwright's own browser download is never used), on A4 with the game's name in every page's
header and the page number in its footer:

- ``<game>-<lang>.pdf``: the game's pages in the site's order (:data:`BOOK_PAGES`), composed into
  one document so the page numbers run through it; each page starts on a new sheet, links between
  the pages become links inside the PDF, and each example prints as its key diagrams (the print
  style and ``rulecraftPreparePrint`` of ``assets/player.js``).
- ``<game>-<lang>-quick.pdf``: the quick reference on exactly one page, scaled down until it
  fits (never below :data:`QUICK_MIN_SCALE`): a card of its own, to lay beside the board, where
  the book is printed at full size.

The files go to ``<site>/pdf/``. Without the site extra's Playwright or pypdf the import fails
and the command reports RC110; without Chromium, or when the quick reference cannot fit one page,
:class:`SiteError` RC815.
"""

from __future__ import annotations

from dataclasses import dataclass
import html
import importlib
from io import BytesIO
from pathlib import Path
import shutil

from rulecraft.errors import SiteError
from rulecraft.site.pages import PAGE_FILES
from rulecraft.site.texts import SOURCE_LANGUAGE

QUICK = PAGE_FILES["quick_reference"]
BOOK_PAGES = tuple(name for name in PAGE_FILES.values() if name != QUICK)
CHROMIUM_NAMES = ("chromium", "chromium-browser")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAPER = {"format": "A4", "margin": {"top": "16mm", "bottom": "14mm", "left": "13mm", "right": "13mm"}}
# the page's content box in CSS pixels (96 per inch): A4 less the margins above
CONTENT_WIDTH, CONTENT_HEIGHT = round((210 - 26) / 25.4 * 96), round((297 - 30) / 25.4 * 96)
QUICK_MIN_SCALE = 0.45
SCALE_STEP = 0.95
TIMEOUT_MS = 120_000
HEADER = ('<div style="font-size:8px;width:100%;margin:0 13mm;font-family:sans-serif;color:#444">'
          '{game}</div>')
FOOTER = ('<div style="font-size:8px;width:100%;text-align:center;font-family:sans-serif;color:#444">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')

# Appends the other pages' articles (parsed from their HTML) to this page's, each as a part of its
# own, and points links to a composed page (and its anchors) inside the document.
COMPOSE = """(pages) => {
  const article = document.querySelector("article.md-content__inner");
  const wrap = (nodes, url, index) => {
    const part = document.createElement("section");
    part.className = "rc-print-part";
    part.id = "rc-print-part-" + index;
    part.dataset.url = url;
    part.append(...nodes);
    return part;
  };
  const first = wrap(Array.from(article.childNodes), location.href, 0);
  article.append(first);
  pages.forEach((page, index) => {
    const other = new DOMParser().parseFromString(page.html, "text/html")
      .querySelector("article.md-content__inner");
    article.append(wrap(Array.from(other.childNodes), page.url, index + 1));
  });
  const key = (url) => url.pathname.replace(/index\\.html$/, "");
  const parts = new Map(Array.from(article.querySelectorAll(".rc-print-part"))
    .map((part) => [key(new URL(part.dataset.url)), part]));
  article.querySelectorAll(".rc-print-part").forEach((part) => {
    part.querySelectorAll("a[href]").forEach((link) => {
      const target = new URL(link.getAttribute("href"), part.dataset.url);
      if (target.protocol !== "file:") return;
      const inside = parts.get(key(target));
      if (!inside) { link.removeAttribute("href"); return; }
      const id = decodeURIComponent(target.hash.slice(1));
      const anchor = id && inside.querySelector("[id='" + CSS.escape(id) + "']");
      link.setAttribute("href", "#" + (anchor ? anchor.id : inside.id));
    });
  });
  window.rulecraftPreparePrint();
}"""
# the height the page's content takes, in CSS pixels, as laid out for print at this width
CONTENT_BOTTOM = """() => Math.ceil(document.querySelector("article.md-content__inner").getBoundingClientRect().bottom
  + window.scrollY)"""


@dataclass
class PrintedPdf:
    """One written PDF: its path, game slug, language, page count and the scale it was printed at."""

    path: Path
    game: str
    language: str
    pages: int
    scale: float


def page_file(site_dir: Path, language: str, game: str, name: str) -> Path:
    """The built HTML of page ``name`` (``rules.md``) of ``game`` in ``language`` under ``site_dir``
    (English at the root, another language under ``<lang>/``, as the build lays them out)."""
    folder = Path(site_dir) if language == SOURCE_LANGUAGE else Path(site_dir) / language
    stem = name.removesuffix(".md")
    return folder / game / ("index.html" if stem == "index" else f"{stem}/index.html")


def chromium_path() -> str:
    """The Chromium to print with: the first of :data:`CHROMIUM_NAMES` on ``PATH``.

    Raises :class:`SiteError` RC815 naming the package to install when there is none.
    """
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise SiteError("printing the PDFs needs Chromium, and none is on PATH (chromium, chromium-browser): "
                    "install it, on Debian with apt-get install chromium", code="RC815")


def require() -> str:
    """Check, before any work, that printing can run: Playwright and pypdf importable (a
    ModuleNotFoundError names the missing one; the command turns it into RC110 naming the site
    extra) and Chromium installed (:func:`chromium_path`, whose path is returned)."""
    for module in ("playwright.sync_api", "pypdf"):
        importlib.import_module(module)
    return chromium_path()


def write_pdfs(site_dir: Path, games, languages, titles: dict[str, str]) -> list[PrintedPdf]:
    """Print each of ``games`` (slugs) in each of ``languages`` from the built ``site_dir`` into
    ``site_dir/pdf/`` (see the module docstring); ``titles`` maps a slug to the game's name, shown
    in every page's header. Returns the PDFs written, book then quick reference per game and language.

    Raises :class:`SiteError` RC815 without Chromium, when Chromium fails, or when a quick
    reference does not fit one page at :data:`QUICK_MIN_SCALE`.
    """
    from playwright.sync_api import Error as PlaywrightError, sync_playwright
    executable = require()
    out = Path(site_dir) / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    printed = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                for game in games:
                    for language in languages:
                        printed += _print_game(browser, Path(site_dir), out, game, language, titles[game])
            finally:
                browser.close()
    except PlaywrightError as error:
        raise SiteError(f"Chromium ({executable}) could not print the PDFs: {error.message}",
                        code="RC815") from None
    return printed


def _print_game(browser, site_dir: Path, out: Path, game: str, language: str, title: str) -> list[PrintedPdf]:
    """The book and the quick reference of one game in one language."""
    context = browser.new_context(viewport={"width": CONTENT_WIDTH, "height": CONTENT_HEIGHT})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        tab = context.new_page()
        tab.emulate_media(media="print")
        pages = [page_file(site_dir, language, game, name) for name in BOOK_PAGES]
        tab.goto(pages[0].as_uri(), wait_until="load")
        tab.evaluate(COMPOSE, [{"url": path.as_uri(), "html": path.read_text(encoding="utf-8")}
                               for path in pages[1:]])
        book = _pdf(tab, title, 1.0)
        tab.goto(page_file(site_dir, language, game, QUICK).as_uri(), wait_until="load")
        tab.evaluate("() => window.rulecraftPreparePrint()")
        quick, scale = one_page_pdf(tab, title)
    finally:
        context.close()
    results = []
    for suffix, data, used in (("", book, 1.0), ("-quick", quick, scale)):
        path = out / f"{game}-{language}{suffix}.pdf"
        path.write_bytes(data)
        results.append(PrintedPdf(path, game, language, page_count(data), used))
    return results


def one_page_pdf(tab, title: str) -> tuple[bytes, float]:
    """The PDF bytes of the page shown in ``tab`` (a Playwright page in print emulation, its text
    in ``article.md-content__inner``) printed on one A4 sheet headed ``title``, and the scale used
    (at most 1): the scale its print layout
    needs to fit, measured at the width that scale gives (a wider layout is shorter, so the first
    estimates are a little small), checked in the PDF and lowered in :data:`SCALE_STEP` steps
    while it still spills over. Raises SiteError RC815 below :data:`QUICK_MIN_SCALE`."""
    scale = 1.0
    while scale >= QUICK_MIN_SCALE:
        tab.set_viewport_size({"width": round(CONTENT_WIDTH / scale), "height": CONTENT_HEIGHT})
        height = tab.evaluate(CONTENT_BOTTOM) * scale
        if height <= CONTENT_HEIGHT:
            data = _pdf(tab, title, scale)
            if page_count(data) == 1:
                return data, scale
        scale = min(scale * SCALE_STEP, scale * CONTENT_HEIGHT / max(height, 1))
    raise SiteError(f"the quick reference of {title} ({tab.url}) does not fit one A4 page even at "
                    f"{QUICK_MIN_SCALE:.0%}: shorten its texts or tables", code="RC815")


def _pdf(tab, game: str, scale: float) -> bytes:
    """The tab printed on A4 at ``scale`` with the game's name above each page, its number below."""
    header = HEADER.format(game=html.escape(game))
    return tab.pdf(**PAPER, print_background=True, display_header_footer=True, header_template=header,
                   footer_template=FOOTER, scale=round(scale, 3), prefer_css_page_size=False)


def page_count(data: bytes) -> int:
    """The number of pages of a PDF given as bytes (read with pypdf)."""
    from pypdf import PdfReader
    return len(PdfReader(BytesIO(data)).pages)
