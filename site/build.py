"""``rulecraft site build``: every game of ``rulespecs/`` as a multilingual MkDocs Material site.

Two stages, both under a build folder outside ``site/`` (MkDocs' default output would be the
package folder itself):

1. :func:`generate` writes ``<source>/docs/<lang>/…`` (Markdown with inline SVG, the player's
   data in ``data-`` attributes), the player's assets, ``<source>/mkdocs.yml`` and, for
   inspection, ``<source>/data/<game>/`` (the board SVG, every example's JSON per language).
   Scenarios are played by the runtime here, so a failing scenario fails the build. A game
   without an English rulebook yet (no ``rules:`` in ``text/en.yaml``) is left out and reported;
   ``rulecraft site check`` lists what it lacks.
2. :func:`run_mkdocs` builds the HTML with mkdocs-static-i18n (one build per language, English
   at the root, the others under ``/<lang>/``). Any MkDocs warning (a broken link or anchor)
   fails the build. The language selector links to each language's root; ``assets/player.js``
   points it at the same page in the other language.

The build works offline: no web font (``theme.font: false``), no CDN, search bundled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import json
import logging
from pathlib import Path
import shutil
import time
from urllib.parse import urlsplit

import jinja2

from rulecraft.errors import SiteError
from rulecraft.site.board import board_svg
from rulecraft.site.book import Book, game_folders
from rulecraft.site.check import check_book, check_site_texts, worklist
from rulecraft.site.examples import play
from rulecraft.site.markup import attribute_escape
from rulecraft.site.outputs import MARKER, MARKER_TEXT, check_outputs, mark
from rulecraft.site.pages import GamePages, landing_page, page_file, page_names, site_labels
from rulecraft.site.texts import (LANGUAGE_NAMES, LANGUAGES, SITE_TEXT, SOURCE_LANGUAGE, load_texts,
                                  site_languages)

ASSETS = Path(__file__).with_name("assets")
THEME = Path(__file__).with_name("theme")        # additions to Material's templates (theme.custom_dir)
TEMPLATES = Path(__file__).with_name("templates")
DEFAULT_SITE_URL = "http://127.0.0.1:8000/"


@dataclass
class BuildResult:
    """What a build produced and how long it took."""

    site_dir: Path
    source_dir: Path
    games: list
    skipped: list
    languages: tuple
    seconds: float
    generate_seconds: float
    pdfs: list = field(default_factory=list)   # PrintedPdf, with --pdf
    pdf_seconds: float = 0.0


def generate(folders, source_dir: Path, *, languages=LANGUAGES, site_url=DEFAULT_SITE_URL,
             site_dir: Path | None = None) -> list[Book]:
    """Write the Markdown sources, assets and ``mkdocs.yml`` (see the module docstring).

    Raises :class:`RulecraftError` (RC806) with the translator's worklist when a text the pages
    need is missing or does not render, and :class:`ScenarioError` when a scenario fails.
    """
    languages = tuple(languages)
    books = [Book(Path(folder), languages) for folder in folders]
    books = [book for book in books if book.publishable]
    if not books:
        raise SiteError("no game has an English rulebook yet (rules: in text/en.yaml)", code="RC805")
    problems = [p for p in check_site_texts(languages) if not _stale(p)]
    for book in books:
        problems += [p for p in check_book(book) if not _stale(p)]
    if problems:
        raise SiteError("the texts are not ready to publish:\n" + worklist(problems), code="RC806")
    source_dir = Path(source_dir)
    site_texts = load_texts(SITE_TEXT, languages)
    files: dict[Path, str] = {}
    for book in books:
        frames = {scenario.id: play(book, scenario) for scenario in book.scenarios}
        data_dir = Path("data") / book.slug
        files[data_dir / "board.svg"] = board_svg(book.game().rules, label=book.ir().meta.title)
        for language in languages:
            labels = site_labels(site_texts[language])
            pages = GamePages(book, language, labels, frames)
            for name, text in pages.write().items():
                files[Path("docs") / language / book.slug / name] = text
            for scenario_id, data in pages.example_data.items():
                files[data_dir / f"{scenario_id}.{language}.json"] = json.dumps(data, ensure_ascii=False, indent=1)
    for language in languages:
        files[Path("docs") / language / "index.md"] = landing_page(
            language, site_texts, books, site_labels(site_texts[language]))
    for asset in sorted(ASSETS.iterdir()):
        files[Path("docs") / "assets" / "rulecraft" / asset.name] = asset.read_text(encoding="utf-8")
    for template in sorted(THEME.iterdir()):
        files[Path("overrides") / template.name] = template.read_text(encoding="utf-8")
    files[Path("mkdocs.yml")] = _mkdocs_config(books, languages, site_texts, site_url,
                                               Path(site_dir or source_dir.parent / "site"))
    files[Path(MARKER)] = MARKER_TEXT
    _sync(source_dir, files)
    return books


def run_mkdocs(source_dir: Path) -> None:
    """Build the HTML from ``source_dir/mkdocs.yml``.

    Raises :class:`RulecraftError` (RC807) naming MkDocs' warnings or error.
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException
    collector = _Warnings()
    logger = logging.getLogger("mkdocs")
    level = logger.level
    logger.addHandler(collector)
    logger.setLevel(logging.WARNING)
    try:
        config = load_config(str(Path(source_dir) / "mkdocs.yml"))
        site_dir, alternates = Path(config.site_dir), list(config.extra.get("alternate") or [])
        build(config)
    except MkDocsException as error:
        raise SiteError(f"MkDocs could not build the site: {error}", code="RC807") from None
    finally:
        logger.removeHandler(collector)
        logger.setLevel(level)
    if collector.messages:
        raise SiteError("MkDocs warned while building the site:\n  " + "\n  ".join(collector.messages),
                             code="RC807")
    _share_sitemap(site_dir, alternates)


def _share_sitemap(site_dir: Path, alternates: list) -> None:
    """Copy the site map (which lists every language) into each language's folder.

    Material fetches ``sitemap.xml`` beside each language root to switch languages; the i18n
    plugin writes it only at the site root.
    """
    for alternate in alternates:
        folder = site_dir / urlsplit(alternate["link"]).path.strip("/").split("/")[-1]
        if folder != site_dir and folder.is_dir():
            for name in ("sitemap.xml", "sitemap.xml.gz"):
                if (site_dir / name).is_file():
                    shutil.copyfile(site_dir / name, folder / name)


def build_site(root: Path | None = None, *, out: Path = Path("build/site"),
               source: Path = Path("build/site-src"), languages=LANGUAGES,
               site_url: str = DEFAULT_SITE_URL, games=None, pdf: bool = False) -> BuildResult:
    """Generate and build the whole site; returns a :class:`BuildResult` with timings.

    With ``pdf``, also print every game in every language as PDFs into ``out/pdf/``
    (:func:`rulecraft.site.pdf.write_pdfs`; raises its SiteError RC815).

    ``root`` is the folder holding ``rulespecs/``, ``games`` the games to publish instead (names
    or folders); by default the games the compiler finds. The languages and output folders are
    checked before any work (:func:`~rulecraft.site.texts.site_languages`,
    :func:`~rulecraft.site.outputs.check_outputs`).
    """
    started = time.perf_counter()
    languages = site_languages(languages)
    if pdf:
        from rulecraft.site.pdf import require, write_pdfs
        require()
    out, source = check_outputs(out, source)
    folders = game_folders(root, games)
    books = generate(folders, source, languages=languages, site_url=site_url, site_dir=out)
    generated = time.perf_counter()
    mark(out)
    run_mkdocs(source)
    built = time.perf_counter()
    pdfs = []
    if pdf:
        pdfs = write_pdfs(out, [b.slug for b in books], languages, {b.slug: b.ir().meta.title for b in books})
    skipped = sorted({f.name for f in folders} - {b.slug for b in books})
    return BuildResult(out, source, [b.slug for b in books], skipped, tuple(languages),
                       time.perf_counter() - started, generated - started, pdfs, time.perf_counter() - built)


class _Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _stale(problem) -> bool:
    """Stale or unstamped translations still render: they go on the worklist, not block a build."""
    return problem.message.startswith(("stale:", "not stamped:"))


def _mkdocs_config(books, languages, site_texts, site_url: str, site_dir: Path) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    base = urlsplit(site_url).path.rstrip("/")
    default = SOURCE_LANGUAGE if SOURCE_LANGUAGE in languages else languages[0]
    entries = [{"locale": language, "name": LANGUAGE_NAMES[language],
                "link": f"{base}/" if language == default else f"{base}/{language}/",
                "site_name": attribute_escape(site_texts[language].entry("pages", "landing")["title"]),
                "generator": attribute_escape(site_texts[language].entry("pages", "labels")["generator"]),
                "default": language == default}
               for language in languages]
    games = [{"slug": b.slug, "title": attribute_escape(b.ir().meta.title), "files": [page_file(n) for n in page_names(b)]}
             for b in books]
    return env.get_template("mkdocs.yml.j2").render(
        site_name=entries[0]["site_name"], generator=entries[0]["generator"], site_url=site_url, site_dir=str(site_dir),
        languages=entries, games=games)


def _sync(folder: Path, files: dict[Path, str]) -> None:
    """Make ``folder`` hold exactly ``files``: write what changed, delete what is no longer made."""
    folder.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        target = folder / path
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    wanted = {folder / path for path in files}
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file() and path not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            shutil.rmtree(path)
