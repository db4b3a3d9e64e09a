"""``rulecraft site check``: is every text of every language complete, current and renderable?

For each published game and language it reports, as a translator's worklist:

* a rule id of the spec (phase, step, action, condition, table, trigger, invariant) without text;
* an event kind without a message: the spec's, and the built-in ones its play-by-play shows
  (``phase``, ``end``, ``action``, ``roll``, ``secret``);
* text for a rule id (or an open question, example, table, phase, event kind, action) that the
  spec no longer has, and any ``{{ rule('…') }}`` naming a vanished rule id;
* a translated entry whose ``source_hash`` differs from the English entry's hash (stale), or has
  no stamp;
* a glossary without a term for a team, piece kind or enumeration value of the spec, or a term
  without the plural forms its language needs;
* a text whose template fails to render (unknown placeholder, bad syntax, something the sandbox
  refuses) or whose Markdown is outside the allow-list (raw HTML, an image, a ``javascript:``
  link), with file:line:col; an event message or a notation that is not a valid template;
* a counted phrase (:mod:`rulecraft.plural`) lacking a plural form its language needs, at its
  file:line:col.

The site's own labels (``site/text/<lang>.yaml``) are checked the same way, as game ``(site)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulecraft.errors import RulecraftError
from rulecraft.runtime.engine import parse_notation
from rulecraft.runtime.narrate import DEFAULTS as BUILT_IN_EVENTS
from rulecraft.site.book import Book, rule_sort_key
from rulecraft.plural import needed
from rulecraft.site.examples import sample_variables
from rulecraft.site.pages import render_part
from rulecraft.site.templating import Renderer
from rulecraft.site.texts import (ENTRY_SECTIONS, HASH_KEY, LANGUAGES, PAGES, SITE_TEXT,
                                  SOURCE_LANGUAGE, STRING_SECTIONS, TextFile, entry_hash,
                                  load_texts, texts_of)

SITE_GAME = "(site)"
LABEL_PARTS = {("tables", "keys"), ("tables", "value")}   # plain headers, shown as written
KIND_NAMES = {"rules": "rule", "open_questions": "open question", "glossary": "term",
              "pages": "page", "tables": "table", "examples": "example", "phases": "phase",
              "events": "event", "notations": "notation", "faq": "question"}


@dataclass(frozen=True)
class Problem:
    """One line of the worklist: what is wrong with which text of which game and language."""

    game: str
    language: str
    kind: str
    key: str
    message: str
    where: str = ""
    code: str = ""              # the error code of a text that does not render or read

    def __str__(self) -> str:
        place = f"  ({self.where})" if self.where else ""
        return f"{self.game:<12} {self.language:<3} {self.kind} {self.key}: {self.message}{place}"


def required_keys(book: Book) -> dict[str, list[str]]:
    """Per section, the keys the spec requires every language to have."""
    ir = book.ir()
    rules = book.game().rules
    # the names the terminal prints in words too: shown fields (status line, `state`) and the
    # actions (`--summary`), so that a match under --lang never falls back to a spec name
    names = list(ir.teams) + list(ir.kinds) + [v for values in ir.enums.values() for v in values] \
        + [f.name for f in ir.fields if f.show and f.name != "at"] + [a.name for a in ir.actions]
    return {
        "rules": book.section_ids,
        "open_questions": [q["id"] for q in ir.open_questions],
        "examples": [s.id for s in book.scenarios],
        "tables": list(rules.tables),
        "phases": [phase for phase, _ in book.phase_order("setup") + book.phase_order("turn")],
        "events": list(ir.events) + built_in_events(rules),
        "notations": [a.name for a in ir.actions],
        "glossary": list(dict.fromkeys(names)),
        "pages": list(PAGES),
    }


def built_in_events(rules) -> list[str]:
    """The built-in event kinds the game's play-by-play shows (a phase begins, the game ends, a
    team decides, a die is rolled, a secret choice is made): each needs a message in every
    language, so that a translated play-by-play never falls back to English."""
    kinds = {node.kind for node in rules.nodes}
    return ["phase", "end"] + [kind for kind, used in (("action", kinds & {"choose", "secret"}),
                                                       ("roll", "roll" in kinds),
                                                       ("secret", "secret" in kinds)) if used]


def check_book(book: Book) -> list[Problem]:
    """Every problem of one game's texts, in every language (see the module docstring).

    English notations are optional (the spec's ``notation:`` is their source); every other
    section is required in English too.
    """
    required = required_keys(book)
    spec_sections = {"rules", "open_questions", "examples", "tables", "phases", "events", "notations"}
    english = book.texts[SOURCE_LANGUAGE]
    sources = {section: dict(english.section(section)) for section in STRING_SECTIONS + ENTRY_SECTIONS}
    sources["notations"] = {a.name: a.notation for a in book.ir().actions}
    problems = []
    for language in book.languages:
        texts = book.texts[language]
        if not texts.exists:
            problems.append(Problem(book.slug, language, "file", texts.path.name, "no text file",
                                    str(texts.path)))
        for section in STRING_SECTIONS + ENTRY_SECTIONS:
            wanted = list(required.get(section, []))
            if language == SOURCE_LANGUAGE and section == "notations":
                wanted = []
            elif language != SOURCE_LANGUAGE:
                wanted += [str(k) for k in sources[section] if str(k) not in wanted]
            problems += _completeness(book.slug, texts, sources[section], section, wanted,
                                      section in spec_sections and required.get(section))
        problems += _plural_forms(book.slug, texts)
        if texts.exists:
            problems += _renders(book.slug, texts, book.renderer(language),
                                 sample_variables(book, language), book.game().rules.actions)
    return problems


def check_site_texts(languages=LANGUAGES) -> list[Problem]:
    """Problems of the site's own labels (landing page, player, common words)."""
    texts = load_texts(SITE_TEXT, languages)
    source = texts[SOURCE_LANGUAGE]
    problems = []
    for language in languages:
        for section in ENTRY_SECTIONS:
            wanted = [str(k) for k in source.section(section)]
            problems += _completeness(SITE_GAME, texts[language], dict(source.section(section)),
                                      section, wanted, None)
        problems += _renders(SITE_GAME, texts[language], Renderer({}, language=language), {})
    return problems


def check_site(folders, languages=LANGUAGES) -> list[Problem]:
    """Problems of the site's labels and of every game in ``folders`` (sorted for the worklist)."""
    problems = check_site_texts(languages)
    for folder in folders:
        try:
            problems += check_book(Book(folder, tuple(languages)))
        except RulecraftError as error:
            problems.append(Problem(folder.name, "-", "spec", "", error.message,
                                    str(getattr(error, "position", None) or ""), error.code))
    order = {language: index for index, language in enumerate(languages)}
    return sorted(problems, key=lambda p: (p.game, order.get(p.language, -1), p.kind,
                                           rule_sort_key(p.key) if p.kind == "rule" else [(0, 0, p.key)]))


def worklist(problems: list[Problem]) -> str:
    """The translator's worklist: one block per game and language, one line per problem."""
    lines = []
    current = None
    for problem in problems:
        if (problem.game, problem.language) != current:
            current = (problem.game, problem.language)
            count = sum(1 for p in problems if (p.game, p.language) == current)
            lines.append(f"{problem.game} · {problem.language} · {count} to do")
        lines.append(f"  {problem.kind} {problem.key}: {problem.message}"
                     + (f"  ({problem.where})" if problem.where else ""))
    return "\n".join(lines)


def _completeness(game, texts: TextFile, source: dict, section, wanted, spec_keys) -> list[Problem]:
    kind = KIND_NAMES[section]
    problems = []
    present = {str(k): k for k in texts.section(section)}
    for key in wanted:
        if key not in present:
            problems.append(Problem(game, texts.language, kind, key, "missing", str(texts.position(section))))
            continue
        if texts.language == SOURCE_LANGUAGE:
            continue
        english = source.get(key, source.get(_as_int(key)))
        if english is None:
            continue
        stamp = texts.stamp(section, key)
        current = entry_hash(english)
        where = str(texts.position(section, present[key]))
        if stamp is None:
            problems.append(Problem(game, texts.language, kind, key,
                                    f"not stamped: add source_hash {current} once translated", where))
        elif stamp != current:
            problems.append(Problem(game, texts.language, kind, key,
                                    f"stale: the English text changed (source_hash {stamp} → {current})",
                                    where))
        entry = texts.entry(section, key)
        if isinstance(english, dict) and isinstance(entry, dict):
            for part in english:
                if part not in entry:
                    problems.append(Problem(game, texts.language, kind, key, f"lacks '{part}'", where))
    if spec_keys:
        allowed = set(spec_keys) | (set(BUILT_IN_EVENTS) if section == "events" else set())
        for key, original in present.items():
            if key not in allowed:
                what = "rule id" if section == "rules" else kind
                problems.append(Problem(game, texts.language, kind, key,
                                        f"names a {what} that no longer exists in the spec",
                                        str(texts.position(section, original))))
    return problems


def _as_int(key):
    return int(key) if key.isdigit() else key


def _plural_forms(game, texts: TextFile) -> list[Problem]:
    wanted = needed(texts.language)
    problems = []
    for key, entry in texts.section("glossary").items():
        count = entry.get("count")
        if count is None:
            continue
        missing = sorted(wanted - {str(k) for k in count})
        if missing:
            problems.append(Problem(game, texts.language, "term", str(key),
                                    f"count: lacks the plural form(s) {', '.join(missing)}",
                                    str(texts.position("glossary", key))))
    return problems


def _renders(game, texts: TextFile, renderer, variables: dict, actions=()) -> list[Problem]:
    """Render every text as its page does; ``variables`` holds sample values for texts that are
    templates over play values (``{(section, key, part): {...}}``). Event messages (filled only
    during play) are read and checked against the sandbox's rules, and notations against the
    parameters of their action (``actions``: the game's :class:`ActionDef`\\ s)."""
    problems = []
    for section in ("rules", "open_questions", "pages", "tables", "examples", "faq"):
        for key, entry in texts.section(section).items():
            for part, value in entry.items():
                if part == HASH_KEY or (section, str(part)) in LABEL_PARTS:
                    continue
                for text in texts_of(value):
                    try:
                        render_part(renderer, section, key, part, text,
                                    **variables.get((section, str(key), str(part)), {}))
                    except RulecraftError as error:
                        problems.append(_problem(game, texts, KIND_NAMES[section], key, error))
                    problems += [_problem(game, texts, KIND_NAMES[section], key, error)
                                 for error in renderer.counted_problems(text)]
    for key, text in texts.section("events").items():
        try:
            renderer.check(text)
        except RulecraftError as error:
            problems.append(_problem(game, texts, "event", key, error))
        problems += [_problem(game, texts, "event", key, error) for error in renderer.counted_problems(text)]
    definitions = {action.name: action for action in actions}
    for key, text in texts.section("notations").items():
        if str(key) in definitions:
            try:
                parse_notation(definitions[str(key)], text)
            except RulecraftError as error:
                problems.append(_problem(game, texts, "notation", key, error))
    return problems


def _problem(game, texts: TextFile, kind: str, key, error: RulecraftError) -> Problem:
    where = getattr(error, "position", None)
    return Problem(game, texts.language, kind, str(key), error.message, str(where) if where else "",
                   error.code)
