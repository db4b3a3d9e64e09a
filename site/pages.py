"""Write a game's rulebook pages (Markdown with inline SVG) in one language.

Pages: overview (``index.md``), board, setup, turn, rules (one section per rule id, the id as its
anchor), tables, notes (the designer's notes: each open question with the project's resolution),
examples (every scenario as an interactive animation) and a one-page quick reference; plus the
landing page of each language. Page layouts are Jinja2 templates in ``templates/``; every word
comes from the language's text files, every number from the spec.
"""

from __future__ import annotations

from functools import lru_cache
import json
from pathlib import Path
import unicodedata
from urllib.parse import quote

import jinja2

from rulecraft.site.board import EMPTY_LAYERS, board_svg, space_boxes
from rulecraft.site.context import Namespace, namespace_items, table_markdown, term_label, upfirst
from rulecraft.site.examples import PLAY_TEMPLATES, player_data
from rulecraft.layout import board_layout
from rulecraft.site.legend import legend_items
from rulecraft.site.position import layers_svg, stage
from rulecraft.site.markup import Safe, attribute_escape, code_span, markdown_escape_inline, plain_text, slug
from rulecraft.site.narration import Names
from rulecraft.site.templating import Renderer, escape_value, markdown_join
from rulecraft.site.texts import PAGES, SOURCE_LANGUAGE, TextError

TEMPLATES = Path(__file__).with_name("templates")
PAGE_FILES = {"overview": "index.md", "board": "board.md", "setup": "setup.md", "turn": "turn.md",
              "rules": "rules.md", "tables": "tables.md", "notes": "notes.md",
              "examples": "examples.md", "quick_reference": "quick-reference.md", "glossary": "glossary.md"}
FAQ_FILE = "faq.md"           # only for a game whose original rulebook has questions and answers
LABELLED_PAGES = ("glossary", "faq")     # titled by the site's labels, their words all from the texts
BLOCK_PARTS = ("text", "aim", "credits", "question", "resolution", "answer")   # Markdown blocks; others are one line


def render_part(renderer: Renderer, section: str, key: str, part: str, text, **variables):
    """One text of an entry, rendered for where the page puts it: a block of Markdown
    (:data:`BLOCK_PARTS`), plain text (the example player's templates) or a line of Markdown."""
    if (section, str(key), str(part)) in PLAY_TEMPLATES:
        return renderer.render(text, **variables)
    if str(part) in BLOCK_PARTS:
        return renderer.markdown(text, **variables)
    return renderer.inline(text, **variables)


def _plain(value) -> str:
    """A page value as plain words: rulecraft's Markdown without its marks, other text as it is."""
    return plain_text(value) if isinstance(value, Safe) else str(value)


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    """The page layouts' environment: every value a layout prints is escaped for Markdown unless
    it is rulecraft's own (:class:`~rulecraft.site.markup.Safe`); the filters write values for
    the other places a page holds (attributes, ids, front matter)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, autoescape=False, finalize=escape_value,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(
        attr=lambda value: attribute_escape(json.dumps(
            namespace_items(value) if isinstance(value, Namespace) else value, ensure_ascii=False)),
        e=lambda value: attribute_escape(_plain(value)),
        anchor=lambda value: Safe("{#" + slug(value) + "}"),
        slug=lambda value: Safe(slug(value)),
        url=lambda value: Safe(quote(str(value))),
        code=code_span,
        heading=lambda level: Safe("#" * int(level)),
        join=markdown_join,
        yaml_string=lambda value: Safe(json.dumps(attribute_escape(_plain(value)), ensure_ascii=False)),
        indent4=lambda text: Safe("\n".join(("    " + line) if line else line
                                            for line in escape_value(text).splitlines())))
    return env


class GamePages:
    """The pages of one game in one language (see the module docstring).

    ``labels`` are the site's words in this language (default: :func:`site_labels`), ``frames``
    maps scenario ids to their played frames (run once, shown in every language; needed only for
    the examples page); after :meth:`write`, ``example_data`` holds each example's player data.
    """

    def __init__(self, book, language: str, labels: Namespace | None = None, frames: dict | None = None):
        self.book = book
        self.language = language
        self.texts = book.texts[language]
        self.renderer = book.renderer(language)
        self.labels = labels if labels is not None else site_labels(book.site_texts[language])
        self.frames = frames or {}
        self.terms = self.renderer.names["term"]
        self.word = term_label(self.terms)
        self.example_data: dict[str, dict] = {}

    def text(self, section: str, key: str, part: str, **variables) -> Safe:
        """One rendered text of this language (``pages.board.title``, ``rules.4.4.text`` …), as
        the page's Markdown (see :func:`render_part`); empty when the entry lacks it."""
        entry = self.texts.entry(section, key)
        return render_part(self.renderer, section, key, part, entry[part], **variables) \
            if part in entry else Safe("")

    def page(self, name: str) -> dict:
        """Every text of page ``name`` rendered, by key (a mapping of texts, such as the rules
        page's chapter titles, rendered value by value)."""
        entry = self.texts.entry("pages", name)
        rendered = {}
        for key, value in entry.items():
            if key == "source_hash" or ("pages", name, key) in PLAY_TEMPLATES:
                continue
            if isinstance(value, dict):
                rendered[key] = {k: self.renderer.inline(v) for k, v in value.items()}
            else:
                rendered[key] = render_part(self.renderer, "pages", name, key, value)
        return rendered

    def write(self) -> dict[str, str]:
        """Render every page; returns ``{file name: Markdown}``."""
        return {page_file(name): self.render(name) for name in page_names(self.book)}

    def render(self, name: str) -> str:
        """The Markdown of one page (``overview``, ``board``, ``rules``, … see ``PAGES``)."""
        return getattr(self, f"_{name}")()

    def _render(self, template: str, name: str, **values) -> str:
        page = {"title": self.labels[name]} if name in LABELLED_PAGES else self.page(name)
        return _environment().get_template(template).render(
            page=page, labels=self.labels, title=self.book.ir().meta.title, **values)

    def _title(self, name: str):
        return self.labels[name] if name in LABELLED_PAGES else self.page(name)["title"]

    def _overview(self) -> str:
        ir = self.book.ir()
        rules = self.book.game().rules
        kinds = self.renderer.names["pieces"].kinds
        pieces = [self._counted(kinds[kind], kind) for kind in kinds]
        dice = [f"{name} ({self.labels['faces']} {', '.join(str(v) for v in die.outcomes)})"
                for name, die in rules.dice.items()]
        return self._render("overview.md.j2", "overview", teams=[self.word(t) for t in ir.teams],
                            pieces=pieces, spaces=self._counted(len(ir.board.spaces), "space"), dice=dice,
                            source=dict(ir.meta.source or {}), version=ir.meta.version,
                            contents=[(page_file(n), self._title(n)) for n in page_names(self.book)[1:]])

    def _counted(self, count: int, name: str) -> str:
        if name in self.terms and self.terms[name].countable:
            return self.terms[name].counted(count)
        return f"{count} {self.word(name)}"

    def _space_header(self) -> str:
        """The board table's first header: the game's own word for a space (zone, square)."""
        return upfirst(self.word("space")) if "space" in self.terms else self.labels["space"]

    def _board(self) -> str:
        ir = self.book.ir()
        rules = self.book.game().rules
        areas = self.book.areas()
        attributes = self.page("board").get("attributes") or {}
        unknown = [a for a in attributes if a not in ir.board.attributes]
        if unknown:
            raise TextError(f"pages: board: attributes: names '{unknown[0]}', which no space of "
                            "the spec has", self.texts.position("pages", "board"))
        rows = []
        for index, space in enumerate(ir.board.spaces):
            rows.append([space, ", ".join(ir.board.spaces[n] for n in ir.board.neighbors[index])]
                        + [str(ir.board.attributes[a][1][index]) for a in attributes])
        at = start_positions(self.book)
        start = stage({"pieces": Names(self.book, self.language, self.book.game()).pieces(),
                       "teams": [str(self.word(t)) for t in ir.teams],
                       "spaces": list(ir.board.spaces), "markers": [], "flags": [],
                       "frames": [{"at": at, "markers": [], "flags": []}]}, space_boxes(rules), self.labels)
        legend = self._legend(start, None)
        if not any(space >= 0 for space in at):
            start = None
        svg = board_svg(rules, label=None if start else plain_text(self.page("board")["title"]),
                        area_names={a: self.word(a) for a in areas},
                        end_names=[self.word(t) for t in ir.teams] if len(ir.teams) == 2 else (),
                        layers=layers_svg(start, start["frames"][0]) if start else EMPTY_LAYERS)
        return self._render("board.md.j2", "board", svg=Safe(svg), rows=rows,
                            headers=[self._space_header(), self.labels["neighbours"]] + list(attributes.values()),
                            areas=[(self.word(a), [ir.board.spaces[i] for i in members]) for a, members in areas.items()],
                            position=start["frames"][0]["position"] if start else None, legend=legend)

    def _sequence(self, section: str) -> list[dict]:
        """The phases of ``setup`` or ``turn`` in order, each rule's summary at its first phase."""
        phases = self.texts.section("phases")
        steps, summarised = [], set()
        for phase, rule in self.book.phase_order(section):
            steps.append({"title": str(phases.get(phase, phase)), "rule": rule, "ref": self._rule_ref(rule),
                          "heading": self._rule_heading(rule),
                          "summary": "" if rule in summarised else self.text("rules", rule, "summary")})
            summarised.add(rule)
        return steps

    def _rule_ref(self, rule: str) -> Safe:
        """How a page cites a rule: its number, or its title when the id is no number."""
        return Safe(markdown_escape_inline(rule)) if _numbered(rule) else self.text("rules", rule, "title")

    def _rule_heading(self, rule: str) -> Safe:
        """A rule's number and title, as its heading on the rules page shows them."""
        title = self.text("rules", rule, "title")
        return Safe(f"{markdown_escape_inline(rule)} {title}") if _numbered(rule) else title

    def _setup(self) -> str:
        return self._render("sequence.md.j2", "setup", steps=self._sequence("setup"))

    def _turn(self) -> str:
        return self._render("sequence.md.j2", "turn", steps=self._sequence("turn"))

    def _rules(self) -> str:
        chapters = self.page("rules").get("chapters") or {}
        sections = []
        seen_chapters = set()
        for rule in self.book.section_ids:
            uses = self.book.rule_uses.get(rule, [])
            chapter = rule.split(".")[0]
            if chapter not in seen_chapters and chapter != rule:
                sections.append({"chapter": chapter, "title": chapters.get(chapter, chapter)})
            seen_chapters.add(chapter)
            sections.append({"rule": rule, "number": rule if _numbered(rule) else None,
                             "level": min(rule.count(".") + 2, 6),
                             "title": self.text("rules", rule, "title"),
                             "text": self.text("rules", rule, "text"), "see_also": self._see_also(uses)})
        return self._render("rules.md.j2", "rules", sections=sections)

    def _see_also(self, uses: list[tuple[str, str]]) -> list[Safe]:
        """What a reader may look up beside a rule: the phases it is played in (by their titles)
        and the tables it uses (linked). Actions, triggers and invariants are the spec's own
        machinery, which the rule's text already tells in words."""
        phases = self.texts.section("phases")
        found = []
        for kind, name in uses:
            if kind == "phase":
                found.append(Safe(markdown_escape_inline(f"{self.labels['phase']} {phases.get(name, name)}")))
            elif kind == "table":
                found.append(Safe(f"[{markdown_escape_inline(self.labels['table'])} "
                                  f"{self.text('tables', name, 'title')}](tables.md#{slug('table-' + name)})"))
        return list(dict.fromkeys(found))

    def _tables(self) -> str:
        return self._render("tables.md.j2", "tables", tables=self._table_list())

    def _table_list(self) -> list[dict]:
        result = []
        for name, definition in self.book.tables().items():
            headers = self.texts.entry("tables", name)
            result.append({"name": name, "rule": definition.rule, "ref": self._rule_ref(definition.rule),
                           "title": self.text("tables", name, "title"),
                           "markdown": Safe(table_markdown(definition, self.word, headers))})
        return result

    def _notes(self) -> str:
        notes = []
        for question in self.book.ir().open_questions:
            key = question["id"]
            notes.append({"id": key, "section": question["section"],
                          "option": question.get("option"),
                          "title": self.text("open_questions", key, "title"),
                          "question": self.text("open_questions", key, "question"),
                          "resolution": self.text("open_questions", key, "resolution")})
        return self._render("notes.md.j2", "notes", notes=notes)

    def _examples(self) -> str:
        examples = []
        for scenario in self.book.scenarios:
            ir = self.book.ir(scenario.options)
            rules = self.book.game(scenario.options).rules
            data = stage(player_data(self.book, scenario, self.frames[scenario.id], self.language),
                         space_boxes(rules), self.labels)
            self.example_data[scenario.id] = data
            section = self.book.rule_section(scenario.rule)
            examples.append({"id": scenario.id, "rule": scenario.rule, "section": section,
                             "ref": Safe(markdown_escape_inline(scenario.rule)) if _numbered(scenario.rule) else None,
                             "section_ref": self._rule_ref(section) if section else None,
                             "title": self.text("examples", scenario.id, "title"),
                             "svg": Safe(board_svg(rules, label=None,
                                                   end_names=[self.word(t) for t in ir.teams]
                                                   if len(ir.teams) == 2 else (),
                                                   layers=layers_svg(data, data["frames"][0]))),
                             "data": data, "legend": self._legend(data, scenario.options)})
        return self._render("examples.md.j2", "examples", examples=examples)

    def _legend(self, data: dict, options: dict | None) -> list[dict]:
        """The legend of a staged board (:func:`rulecraft.site.legend.legend_items`) of the game
        under ``options``: its areas are those the board outlines (a named area the drawing
        does not outline, a half or a goal line, is not on the board)."""
        outlined = board_layout(self.book.game(options).rules).outlines
        return legend_items(data, self.labels, {area: str(self.word(area)) for area in self.book.areas(options)
                                                if area in outlined})

    def _glossary(self) -> str:
        """Every term of the language's glossary in its alphabetical order, each word once; in a
        translation beside the English term it renders (a translator's notes stay in the texts)."""
        english = self.book.texts[SOURCE_LANGUAGE].section("glossary")
        rows = {}
        for key, entry in self.texts.section("glossary").items():
            source = english.get(key)
            rows.setdefault(str(entry["term"]), [] if source is None or self.language == SOURCE_LANGUAGE
                            else [str(source["term"])])
        terms = [[term] + rows[term] for term in sorted(rows, key=lambda word: alphabetical(word, self.language))]
        return self._render("glossary.md.j2", "glossary", terms=terms,
                            translated=self.language != SOURCE_LANGUAGE)

    def _faq(self) -> str:
        questions = [{"id": key, "title": self.text("faq", key, "title"),
                      "answer": self.text("faq", key, "answer")}
                     for key in self.book.texts[SOURCE_LANGUAGE].section("faq")]
        return self._render("faq.md.j2", "faq", questions=questions)

    def _quick_reference(self) -> str:
        return self._render("quick_reference.md.j2", "quick_reference",
                            setup=self._sequence("setup"), turn=self._sequence("turn"),
                            tables=self._table_list())


def page_names(book) -> tuple[str, ...]:
    """The pages of a game, in the navigation's order: the pages every game has, its glossary,
    and a FAQ where its English texts have questions and answers (``faq:``)."""
    faq = ("faq",) if book.texts[SOURCE_LANGUAGE].section("faq") else ()
    return PAGES + ("glossary",) + faq


def page_file(name: str) -> str:
    """The Markdown file of page ``name``."""
    return FAQ_FILE if name == "faq" else PAGE_FILES[name]


def alphabetical(word: str, language: str) -> tuple:
    """A sort key putting words in a glossary's order: case and accents ignored (é with e, ä
    with a), except the letters Finnish alphabetises after z (å, ä, ö)."""
    kept = "åäö" if language == "fi" else ""
    letters = "".join(c if c in kept else unicodedata.normalize("NFD", c)[0] for c in word.casefold())
    return (letters, word)


def _numbered(rule_id: str) -> bool:
    """Whether a rule id is a section number (4, 4.7.5) that a heading shows, rather than a
    name the spec keeps only as the section's anchor (street-soccer's "Ball schießen")."""
    return all(part.isdigit() for part in str(rule_id).split("."))


def start_positions(book) -> list[int]:
    """Where each piece stands before the first decision: its ``at:`` in the spec, else where a
    setup without decisions puts it (BALL's line-up is a ``do:`` of the setup phase); -1 when off
    the board."""
    ir = book.ir()
    at = [p.at for p in ir.pieces]
    if any(space >= 0 for space in at):
        return at
    game = book.game()
    state = game.new_initial_state()
    field = game.field("at")
    return [state.s[field.base + piece] for piece in range(field.size)]


def site_labels(texts) -> Namespace:
    """The site's shared labels (``pages.labels`` of ``site/text/<lang>.yaml``); a template
    reads ``labels.keys`` as the label named keys, and an unknown label fails the build."""
    return Namespace("labels", {str(k): str(v) for k, v in texts.entry("pages", "labels").items()
                                if k != "source_hash"})


def landing_page(language: str, site_texts, books, labels: Namespace) -> str:
    """The landing page of ``language``: the published games with their one-line summaries."""
    entry = site_texts[language].entry("pages", "landing")
    renderer = Renderer({}, language=language)
    games = []
    for book in books:
        summary = book.texts[language].entry("pages", "overview")
        games.append({"slug": book.slug, "title": book.ir().meta.title,
                      "summary": book.renderer(language).inline(summary["summary"])})
    return _environment().get_template("landing.md.j2").render(
        page={key: render_part(renderer, "pages", "landing", key, value)
              for key, value in entry.items() if key != "source_hash"},
        games=games, labels=labels)
