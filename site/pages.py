"""Write a game's rulebook pages (Markdown with inline SVG) in one language.

Pages: overview (``index.md``), board, setup, turn, rules (one section per rule id, the id as its
anchor), tables, notes (the designer's notes: each open question with the project's resolution),
examples (every scenario as an interactive animation) and a one-page quick reference; plus the
landing page of each language. Page layouts are Jinja2 templates in ``templates/``; every word
comes from the language's text files, every number from the spec.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
import json
from pathlib import Path

import jinja2

from rulecraft.site.board import board_svg
from rulecraft.site.context import (Namespace, markdown_escape, namespace_items, table_markdown,
                                    term_label, upfirst)
from rulecraft.site.examples import PLAY_TEMPLATES, player_data
from rulecraft.site.narration import Names
from rulecraft.site.templating import Renderer
from rulecraft.site.texts import PAGES, TextError

TEMPLATES = Path(__file__).with_name("templates")
PAGE_FILES = {"overview": "index.md", "board": "board.md", "setup": "setup.md", "turn": "turn.md",
              "rules": "rules.md", "tables": "tables.md", "notes": "notes.md",
              "examples": "examples.md", "quick_reference": "quick-reference.md"}


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, autoescape=False,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["attr"] = lambda value: escape(json.dumps(
        namespace_items(value) if isinstance(value, Namespace) else value, ensure_ascii=False), quote=True)
    env.filters["anchor"] = lambda value: "{#" + str(value) + "}"
    env.filters["yaml_string"] = lambda value: json.dumps(str(value), ensure_ascii=False)
    env.filters["indent4"] = lambda text: "\n".join(("    " + line) if line else line
                                                  for line in str(text).splitlines())
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
        self.terms = self.renderer.env.globals["term"]
        self.word = term_label(self.terms)
        self.example_data: dict[str, dict] = {}

    def text(self, section: str, key: str, part: str, **variables) -> str:
        """One rendered text of this language (``pages.board.title``, ``rules.4.4.text`` …)."""
        entry = self.texts.entry(section, key)
        return self.renderer.render(entry[part], **variables) if part in entry else ""

    def page(self, name: str) -> dict:
        """Every text of page ``name`` rendered, by key."""
        entry = self.texts.entry("pages", name)
        return {key: self.renderer.render(value) if isinstance(value, str) else value
                for key, value in entry.items()
                if key != "source_hash" and ("pages", name, key) not in PLAY_TEMPLATES}

    def write(self) -> dict[str, str]:
        """Render every page; returns ``{file name: Markdown}``."""
        return {PAGE_FILES[name]: self.render(name) for name in PAGES}

    def render(self, name: str) -> str:
        """The Markdown of one page (``overview``, ``board``, ``rules``, … see ``PAGES``)."""
        return getattr(self, f"_{name}")()

    def _render(self, template: str, name: str, **values) -> str:
        return _environment().get_template(template).render(
            page=self.page(name), labels=self.labels,
            title=markdown_escape(self.book.ir().meta.title), **values)

    def _overview(self) -> str:
        ir = self.book.ir()
        rules = self.book.game().rules
        kinds = self.renderer.env.globals["pieces"].kinds
        pieces = [self._counted(kinds[kind], kind) for kind in kinds]
        dice = [f"{markdown_escape(name)} ({self.labels['faces']} "
                f"{', '.join(markdown_escape(str(v)) for v in die.outcomes)})" for name, die in rules.dice.items()]
        source = {k: markdown_escape(v) for k, v in (ir.meta.source or {}).items()}
        return self._render("overview.md.j2", "overview", teams=[self.word(t) for t in ir.teams],
                            pieces=pieces, spaces=self._counted(len(ir.board.spaces), "space"), dice=dice, source=source,
                            version=markdown_escape(ir.meta.version),
                            contents=[(PAGE_FILES[n], self.page(n)["title"]) for n in PAGES[1:]])

    def _counted(self, count: int, name: str) -> str:
        if name in self.terms and self.terms[name].countable:
            return self.terms[name].counted(count)
        return f"{count} {self.word(name)}"

    def _space_header(self) -> str:
        """The board table's first header: the game's own word for a space (zone, square)."""
        return upfirst(self.word("space")) if "space" in self.terms else self.labels["space"]

    def _board(self) -> str:
        ir = self.book.ir()
        areas = self.book.areas()
        attributes = self.page("board").get("attributes") or {}
        unknown = [a for a in attributes if a not in ir.board.attributes]
        if unknown:
            raise TextError(f"pages: board: attributes: names '{unknown[0]}', which no space of "
                            "the spec has", self.texts.position("pages", "board"))
        rows = []
        for index, space in enumerate(ir.board.spaces):
            rows.append([markdown_escape(space),
                         ", ".join(markdown_escape(ir.board.spaces[n]) for n in ir.board.neighbors[index])]
                        + [str(ir.board.attributes[a][1][index]) for a in attributes])
        svg = board_svg(ir, areas, label=self.page("board")["title"],
                        area_names={a: self.word(a) for a in areas},
                        end_names=[self.word(t) for t in ir.teams] if len(ir.teams) == 2 else ())
        start = {"pieces": [], "frames": []}
        at = start_positions(self.book)
        if any(space >= 0 for space in at):
            start = {"pieces": Names(self.book, self.language, self.book.game()).pieces(),
                     "spaces": list(ir.board.spaces), "markers": [],
                     "frames": [{"at": at, "markers": []}]}
        return self._render("board.md.j2", "board", svg=svg, rows=rows,
                            headers=[self._space_header(), self.labels["neighbours"]] + list(attributes.values()),
                            areas=[(self.word(a), [ir.board.spaces[i] for i in members]) for a, members in areas.items()],
                            start=start)

    def _sequence(self, section: str) -> list[dict]:
        """The phases of ``setup`` or ``turn`` in order, each rule's summary at its first phase."""
        phases = self.texts.section("phases")
        steps, summarised = [], set()
        for phase, rule in self.book.phase_order(section):
            steps.append({"title": markdown_escape(phases.get(phase, phase)), "rule": rule,
                          "rule_title": self.text("rules", rule, "title"),
                          "summary": "" if rule in summarised else self.text("rules", rule, "summary")})
            summarised.add(rule)
        return steps

    def _setup(self) -> str:
        return self._render("sequence.md.j2", "setup", steps=self._sequence("setup"))

    def _turn(self) -> str:
        return self._render("sequence.md.j2", "turn", steps=self._sequence("turn"))

    def _rules(self) -> str:
        chapters = self.page("rules").get("chapters") or {}
        phases = self.texts.section("phases")
        sections = []
        seen_chapters = set()
        for rule, uses in self.book.rule_uses.items():
            chapter = rule.split(".")[0]
            if chapter not in seen_chapters and chapter != rule:
                sections.append({"chapter": chapter, "title": markdown_escape(chapters.get(chapter, chapter))})
            seen_chapters.add(chapter)
            spec = []
            for kind, name in uses:
                if kind == "phase":
                    spec.append(f"{self.labels['phase']} {markdown_escape(phases.get(name, name))}")
                elif kind == "table":
                    spec.append(f"[{self.labels['table']} {markdown_escape(self.text('tables', name, 'title'))}]"
                                f"(tables.md#table-{name})")
                else:
                    spec.append(f"{self.labels[kind]} `{name}`")
            sections.append({"rule": rule, "level": min(rule.count(".") + 2, 6),
                             "title": self.text("rules", rule, "title"),
                             "text": self.text("rules", rule, "text"), "spec": spec})
        return self._render("rules.md.j2", "rules", sections=sections)

    def _tables(self) -> str:
        return self._render("tables.md.j2", "tables", tables=self._table_list())

    def _table_list(self) -> list[dict]:
        result = []
        for name, definition in self.book.tables().items():
            headers = self.texts.entry("tables", name)
            result.append({"name": name, "rule": definition.rule,
                           "title": self.text("tables", name, "title"),
                           "markdown": table_markdown(definition, self.word, headers)})
        return result

    def _notes(self) -> str:
        notes = []
        for question in self.book.ir().open_questions:
            key = question["id"]
            notes.append({"id": key, "section": markdown_escape(question["section"]),
                          "option": question.get("option"),
                          "title": self.text("open_questions", key, "title"),
                          "question": self.text("open_questions", key, "question"),
                          "resolution": self.text("open_questions", key, "resolution")})
        return self._render("notes.md.j2", "notes", notes=notes)

    def _examples(self) -> str:
        examples = []
        for scenario in self.book.scenarios:
            ir = self.book.ir(scenario.options)
            data = player_data(self.book, scenario, self.frames[scenario.id], self.language)
            self.example_data[scenario.id] = data
            examples.append({"id": scenario.id, "rule": scenario.rule,
                             "section": self.book.rule_section(scenario.rule),
                             "title": self.text("examples", scenario.id, "title"),
                             "svg": board_svg(ir, self.book.areas(scenario.options),
                                              label=self.text("examples", scenario.id, "title"),
                                              end_names=[self.word(t) for t in ir.teams]
                                              if len(ir.teams) == 2 else ()),
                             "data": data})
        return self._render("examples.md.j2", "examples", examples=examples)

    def _quick_reference(self) -> str:
        return self._render("quick_reference.md.j2", "quick_reference",
                            setup=self._sequence("setup"), turn=self._sequence("turn"),
                            tables=self._table_list())


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
    renderer = Renderer({})
    games = []
    for book in books:
        summary = book.texts[language].entry("pages", "overview")
        games.append({"slug": book.slug, "title": markdown_escape(book.ir().meta.title),
                      "summary": book.renderer(language).render(summary["summary"])})
    return _environment().get_template("landing.md.j2").render(
        page={key: renderer.render(value) for key, value in entry.items() if key != "source_hash"},
        games=games, labels=labels)
