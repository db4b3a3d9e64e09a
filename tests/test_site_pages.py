"""The built rulebook read as a player reads it, page by page, without a browser: the HTML MkDocs
wrote is parsed (lxml) and only what a person sees or hears is read — the text outside scripts
and styles, and the accessible names (``aria-label``, ``alt``, ``title``, an SVG's ``<title>``).

Issue 19: a translated page carries no spec furniture (the names of actions, phases,
definitions, procedures, fields and options, scenario ids, English strings of ``game.yaml``);
each language's credits use its own labels; every page's first heading names the game, and the
footer speaks the page's language. The site is built once for the module (every published
game, six languages).
"""

from __future__ import annotations

from pathlib import Path
import re
import shutil

import pytest
import yaml

from rulecraft.site.book import Book
from rulecraft.site.build import build_site
from rulecraft.site.markup import slug
from rulecraft.site.pages import PAGE_FILES, page_file, page_names
from rulecraft.site.texts import LANGUAGES, SITE_TEXT, SOURCE_LANGUAGE, load_texts

from helpers import REPO

lxml_html = pytest.importorskip("lxml.html")

TRANSLATED = [language for language in LANGUAGES if language != SOURCE_LANGUAGE]
GAMES = sorted(p.name for p in (REPO / "rulespecs").iterdir()
               if (p / "game.yaml").is_file() and Book(p, ("en",)).publishable)
NOT_TEXT = {"script", "style", "template", "noscript"}
NAMES = ("aria-label", "alt", "title")           # attributes that are accessible names
ENGLISH_WORDS = 3                                # a game.yaml string this long is prose, not a name
PROSE = {"summary", "doc", "reason", "name", "question", "resolution"}      # keys of game.yaml's prose


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The built site of a copy of every published game in every language: its folder."""
    root = tmp_path_factory.mktemp("pages-root")
    for game in GAMES:
        shutil.copytree(REPO / "rulespecs" / game, root / "rulespecs" / game)
    return build_site(root, out=root / "build" / "site", source=root / "build" / "site-src").site_dir


def built_page(site: Path, language: str, game: str, name: str) -> Path:
    """The HTML file of page ``name`` (``rules.md``) of ``game`` in ``language``."""
    folder = site if language == SOURCE_LANGUAGE else site / language
    stem = name.removesuffix(".md")
    return folder / game / ("index.html" if stem == "index" else f"{stem}/index.html")


def readable(path: Path) -> list[tuple[str, bool]]:
    """What a person meets on a page: each piece of text and each accessible name, with whether
    it is shown as code (inside ``<code>``)."""
    pieces: list[tuple[str, bool]] = []

    def read(element, outside: bool) -> None:
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else None
        if tag is not None and tag not in NOT_TEXT:
            code = outside or tag == "code"
            pieces.extend((element.get(name), False) for name in NAMES if element.get(name))
            if element.text and element.text.strip():
                pieces.append((element.text, code))
            for child in element:
                read(child, code)
        if element.tail and element.tail.strip():
            pieces.append((element.tail, outside))
    read(lxml_html.fromstring(path.read_bytes()), False)
    return pieces


def spec_identifiers(book: Book) -> dict[str, str]:
    """Every name the spec gives a thing, with its kind: actions, phases, definitions,
    procedures, fields, options and scenario ids."""
    ir = book.ir()
    names = {}
    for kind, found in (("action", [a.name for a in ir.actions]), ("phase", [n.phase for n in ir.nodes]),
                        ("definition", list(ir.constants)), ("procedure", [r.name for r in ir.routines]),
                        ("field", [f.name for f in ir.fields]), ("option", list(ir.options)),
                        ("scenario", [s.id for s in book.scenarios])):
        for name in found:
            names.setdefault(name, kind)
    return names


def spec_prose(book: Book) -> set[str]:
    """The English prose of ``game.yaml``: every :data:`PROSE` string of at least
    :data:`ENGLISH_WORDS` words (the game's summary, docs, refusal reasons, invariant names,
    open questions and their resolutions)."""
    found = set()

    def walk(value, key):
        if isinstance(value, dict):
            for name, item in value.items():
                walk(item, name)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif key in PROSE and isinstance(value, str) and len(re.findall(r"[^\W\d_]{2,}", value)) >= ENGLISH_WORDS:
            found.add(" ".join(value.split()))
    walk(yaml.safe_load(book.spec_path.read_text(encoding="utf-8")), None)
    return found


def furniture(book: Book, pieces: list[tuple[str, bool]]) -> list[str]:
    """The spec furniture among a page's ``pieces``: an identifier written with ``_`` or ``-``
    (never a word of any language) or shown as code, a scenario id anywhere, a string of the
    spec's English prose. Space names are not identifiers here (a page names spaces freely)."""
    names = {name: kind for name, kind in spec_identifiers(book).items()
             if name not in book.ir().board.spaces}
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True))
                         + r")(?![\w-])")
    prose = spec_prose(book)
    text = " ".join(" ".join(piece.split()) for piece, _ in pieces)
    hits = [f"English spec text {sentence!r}" for sentence in prose if sentence in text]
    for piece, code in pieces:
        for name in pattern.findall(piece):
            if code or names[name] == "scenario" or re.search(r"[_-]", name):
                hits.append(f"{names[name]} {name!r} in {' '.join(piece.split())[:80]!r}")
    return hits


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_translated_page_shows_spec_furniture(site, language):
    """Issue 19: in fi, ru, es, de and it no page of any game shows a spec identifier or the
    spec's English prose in its visible text or accessible names."""
    found = []
    for game in GAMES:
        book = Book(site.parent.parent / "rulespecs" / game, ("en",))
        for name in map(page_file, page_names(book)):
            found += [f"{game}/{name}: {hit}" for hit in furniture(book, readable(built_page(site, language, game, name)))]
    assert not found, f"{len(found)} pieces of spec furniture, first:\n  " + "\n  ".join(found[:25])


def _tree(path: Path):
    return lxml_html.fromstring(path.read_bytes())


def _labels(language: str) -> dict:
    return load_texts(SITE_TEXT, (language,))[language].entry("pages", "labels")


@pytest.mark.parametrize("game", GAMES)
def test_every_languages_credits_use_its_own_labels(site, game):
    """Issue 19: the credits name each person's part in the page's language. The spec cites
    the original rulebook as written (taktinen's designers carry Finnish role labels,
    "Pelisuunnittelu: Hannu Uusitalo; …"); a language shows them only where its own texts
    use those words, and every credits line starts with the language's own label."""
    book = Book(site.parent.parent / "rulespecs" / game, LANGUAGES)
    source = book.ir().meta.source or {}
    roles = re.findall(r"([^\W\d_][\w-]*)\s*:", str(source.get("designers", "")))
    wrong = []
    for language in LANGUAGES:
        labels = _labels(language)
        own = " ".join(str(v) for v in book.texts[language].data.get("pages", {}).get("overview", {}).values()).lower()
        tree = _tree(built_page(site, language, game, "index.md"))
        heading = [h for h in tree.iter("h2") if _heading_text(h) == labels["credits"]]
        assert heading, (language, labels["credits"])
        items = heading[0].xpath("following-sibling::ul[1]/li")
        for item in items:
            label = item.xpath("string(strong)").rstrip(":")
            text = item.text_content()
            if label not in {labels[k] for k in ("source", "designers", "publisher", "version", "licence")}:
                wrong.append((language, "label", label))
            if label == labels["designers"]:
                wrong += [(language, "role", role) for role in roles if role.lower() not in own and role in text]
        if "designers" in source and not any(i.xpath("string(strong)").rstrip(":") == labels["designers"]
                                             for i in items):
            wrong.append((language, "no designers line", None))
    assert not wrong, wrong


def _heading_text(heading) -> str:
    """A heading's words, without the permalink MkDocs adds (¶)."""
    return " ".join(heading.text_content().replace("¶", " ").split())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_heading_names_the_game_and_the_footer_speaks_the_language(site, language):
    """Issue 19: a page read on its own (printed, shared, found by a search) says which game it
    is of in its first heading; the footer's generator line is in the page's language."""
    generator = " ".join(str(_labels(language)["generator"]).split())
    wrong = []
    for game in GAMES:
        title = Book(site.parent.parent / "rulespecs" / game, ("en",)).ir().meta.title
        for name in PAGE_FILES.values():
            tree = _tree(built_page(site, language, game, name))
            heading = _heading_text(next(tree.iter("h1")))
            if title not in heading:
                wrong.append((game, name, heading))
            footer = " ".join(tree.xpath("string(//div[contains(@class, 'md-copyright')])").split())
            if footer != generator:
                wrong.append((game, name, footer))
    assert not wrong, wrong[:5]


def _spec_phase_rules(game: str, section: str) -> list[str]:
    """The rule each phase of ``setup:`` or ``turn:`` names (None: it names none), read from
    ``game.yaml`` itself."""
    data = yaml.safe_load((REPO / "rulespecs" / game / "game.yaml").read_text(encoding="utf-8"))
    return [str(phase["rule"]) if "rule" in phase else None for phase in data.get(section) or []]


@pytest.mark.parametrize("game", GAMES)
def test_the_sequences_cite_each_phases_own_rule_and_rules_nest_under_their_parents(site, game):
    """Issue 19: the setup and turn pages list the phases in order, each linked to the rule the
    spec's phase names (taktinen's target zone is 4.1, not the goal kick a step of it cites);
    on the rules page every numbered section stands under its parent's heading (5.5.2 under
    5.5, never under 5.4) and shows its own number."""
    for section, name in (("setup", "setup.md"), ("turn", "turn.md")):
        tree = _tree(built_page(site, "fi", game, name))
        links = [a.get("href").split("#", 1)[1] for a in tree.xpath("//article//ol/li/a[contains(@href, 'rules/#')]")]
        named = iter(links)       # a phase a step calls (phases:) is listed where it is played
        assert all(slug(rule) in named for rule in _spec_phase_rules(game, section) if rule), (section, links)
    tree = _tree(built_page(site, "fi", game, "rules.md"))
    above: dict[int, str] = {}
    misplaced = []
    for heading in tree.xpath("//article//*[self::h2 or self::h3 or self::h4 or self::h5 or self::h6]"):
        level, ident = int(heading.tag[1]), heading.get("id", "")
        above = {k: v for k, v in above.items() if k < level}
        above[level] = ident
        parts = ident.split(".")
        if not all(part.isdigit() for part in parts):
            continue
        if not _heading_text(heading).startswith(ident + " "):
            misplaced.append((ident, "number", _heading_text(heading)))
        if len(parts) > 1:
            parent = ".".join(parts[:-1])
            if above.get(level - 1) not in (parent, f"chapter-{parent}"):
                misplaced.append((ident, "under", above.get(level - 1)))
    assert not misplaced, misplaced


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_has_a_glossary_and_a_faq_where_its_original_has_one(site, language):
    """Issue 19: a glossary page per game and language lists every term of that language's
    glossary (a translation beside the English term); a game whose texts answer the original's
    questions (BALL's rulebook has a FAQ) has a FAQ page showing each question, reached from its
    overview."""
    for game in GAMES:
        book = Book(site.parent.parent / "rulespecs" / game, LANGUAGES)
        cells = [" ".join(cell.text_content().split())
                 for cell in _tree(built_page(site, language, game, "glossary.md")).iter("td")]
        terms = {str(entry["term"]) for entry in book.texts[language].section("glossary").values()}
        assert terms and terms <= set(cells), (game, sorted(terms - set(cells))[:5])
        questions = book.texts[language].section("faq")
        faq = built_page(site, language, game, "faq.md")
        assert faq.is_file() == bool(questions), game
        if questions:
            shown = {_heading_text(h) for h in _tree(faq).iter("h2")}
            assert {str(q["title"]) for q in questions.values()} <= shown, game
            overview = _tree(built_page(site, language, game, "index.md"))
            assert overview.xpath("//article//a[@href='faq/']"), game
    assert (site / "ball" / "faq" / "index.html").is_file()
