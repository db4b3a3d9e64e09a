"""Counted phrases (``rulecraft/plural.py``): every count a text shows reads right in its language.

Every counted phrase of every published game's texts, of the site's labels and of the terminal's
words is rendered for 0, 1, 2, 5, 21 and 22, and the form it takes is checked against Babel's CLDR
rule; a few phrases per language are checked against what a native reader expects; ``site check``
refuses a phrase lacking a category its language needs, at its line and column.
"""

from __future__ import annotations

import re
import shutil

from babel import Locale
from hypothesis import given, strategies as st
import pytest

from rulecraft.errors import RulecraftError
from rulecraft.plural import counted, form_problems, needed, phrases, plural_filter
from rulecraft.sandbox import Sandbox
from rulecraft.site.book import Book, game_folders
from rulecraft.site.check import check_book
from rulecraft.site.narration import Narration
from rulecraft.site.templating import Renderer
from rulecraft.site.texts import LANGUAGES, SITE_TEXT, load_texts, texts_of
from rulecraft.words import sandbox, say, words

from helpers import REPO

COUNTS = (0, 1, 2, 5, 21, 22)
TEXT_SECTIONS = ("rules", "open_questions", "pages", "tables", "examples")


def _books() -> list[Book]:
    return [book for book in (Book(folder) for folder in game_folders()) if book.publishable]


def _game_texts(book: Book, language: str):
    texts = book.texts[language]
    for section in TEXT_SECTIONS:
        for entry in texts.section(section).values():
            yield from texts_of(entry)
    yield from texts_of(dict(texts.section("events")))


def _every_phrase():
    """``(where, language, renderer or None, glossary, phrase)`` for every counted phrase."""
    for book in _books():
        for language in book.languages:
            renderer = book.renderer(language)
            glossary = book.texts[language].section("glossary")
            for text in _game_texts(book, language):
                for phrase in renderer.counted_phrases(text):
                    yield book.slug, language, renderer, glossary, phrase
    site = load_texts(SITE_TEXT, LANGUAGES)
    for language in LANGUAGES:
        renderer = Renderer({}, language=language)
        for text in texts_of(dict(site[language].section("pages"))):
            for phrase in renderer.counted_phrases(text):
                yield "(site)", language, renderer, {}, phrase
    for language in LANGUAGES:
        for text in words(language).values():
            for phrase in phrases(sandbox(language), text, language):
                yield "(terminal)", language, None, {}, phrase


PHRASES = list(_every_phrase())


def test_the_texts_write_their_counts_as_counted_phrases_in_every_language():
    inline = {language for _, language, _, _, phrase in PHRASES if phrase.forms is not None}
    games = {game for game, *_ in PHRASES}
    assert inline == set(LANGUAGES)
    assert {"taktinen", "ball", "street-soccer", "futbol-dados", "(terminal)"} <= games
    assert sum(phrase.forms is not None for *_, phrase in PHRASES) >= 60


@pytest.mark.parametrize("game, language, renderer, glossary, phrase", PHRASES,
                         ids=[f"{g}-{lang}-{p.position}" for g, lang, _, _, p in PHRASES])
def test_every_counted_phrase_takes_the_form_of_babels_category(game, language, renderer, glossary, phrase):
    assert phrase.problems == ()
    rule = Locale.parse(language).plural_form
    for n in COUNTS:
        category = rule(n)
        if phrase.forms is not None:
            assert category in phrase.forms, f"{phrase.position}: no {category} form for {n}"
            expected = phrase.forms[category].replace("#", str(n))
            shown = (renderer.render("{{ n | plural(**forms) }}", n=n, forms=phrase.forms) if renderer
                     else sandbox(language).render("{{ n | plural(**forms) }}", {"n": n, "forms": phrase.forms}))
        else:
            key = re.fullmatch(r"term(?:\.(\w+)|\['(\w+)'\])", phrase.term)
            assert key, f"{phrase.position}: counts {phrase.term}, not a glossary term"
            forms = glossary[key.group(1) or key.group(2)]["count"]
            assert category in forms, f"{phrase.position}: {phrase.term} has no {category} form for {n}"
            expected = f"{n}\u00a0{forms[category]}"
            shown = renderer.render(f"{{{{ n | plural({phrase.term}) }}}}", n=n)
        assert shown == expected and str(n) in shown and shown.strip() != str(n)


# ---------------------------------------------------------------- what a reader expects
def _narration(game: str, language: str) -> Narration:
    book = Book(REPO / "rulespecs" / game, (language,))
    return Narration(book, language, book.game())


@pytest.mark.parametrize("game, language, kind, values, expected", [
    ("ball", "ru", "ap_lost", {"ap": 1}, "    сгорает 1 неиспользованное ОД (правило 2)"),
    ("ball", "ru", "ap_lost", {"ap": 2}, "    сгорают 2 неиспользованных ОД (правило 2)"),
    ("ball", "ru", "ap_lost", {"ap": 21}, "    сгорает 21 неиспользованное ОД (правило 2)"),
    ("ball", "es", "ap_lost", {"ap": 1}, "    se pierde 1 PA sin usar (regla 2)"),
    ("ball", "es", "converted", {"ap": 1, "ep": 3}, "    1 PA convertido en 1 EP → queda 1 PA · EP 3 (regla 11)"),
    ("ball", "it", "converted", {"ap": 1, "ep": 3}, "    1 PA convertito in 1 EP → resta 1 PA · 3 EP (regola 11)"),
    ("ball", "de", "ap_lost", {"ap": 1}, "    1 ungenutzter AP verfällt (Regel 2)"),
    ("street-soccer", "ru", "golden_goal", {"moves": 21},
     "Ничья после основного времени: золотой гол, не больше 21 хода каждой команде"),
    ("street-soccer", "ru", "golden_goal", {"moves": 22},
     "Ничья после основного времени: золотой гол, не больше 22 ходов каждой команде"),
    ("street-soccer", "fi", "golden_goal", {"moves": 1},
     "Tasan varsinaisen peliajan jälkeen: kultainen maali, enintään 1 siirto kummallekin"),
    ("street-soccer", "fi", "golden_goal", {"moves": 5},
     "Tasan varsinaisen peliajan jälkeen: kultainen maali, enintään 5 siirtoa kummallekin"),
    ("futbol-dados", "ru", "shootout_level", {"kicks": 1},
     "После 1 удара у каждой команды серия пенальти всё ещё равна: матч заканчивается вничью"),
    ("futbol-dados", "de", "shootout_level", {"kicks": 1},
     "Nach 1 Elfmeter je Mannschaft steht es immer noch gleich: Das Spiel endet unentschieden"),
    ("taktinen", "ru", "yellow_card", {"team": "home", "yellows": 2},
     "  жёлтая карточка хозяевам (всего 2 жёлтые карточки)"),
    ("taktinen", "ru", "yellow_card", {"team": "home", "yellows": 5},
     "  жёлтая карточка хозяевам (всего 5 жёлтых карточек)"),
    ("taktinen", "fi", "yellow_card", {"team": "home", "yellows": 1},
     "  keltainen kortti kotijoukkueelle (yhteensä 1 keltainen kortti)"),
    ("taktinen", "fi", "yellow_card", {"team": "home", "yellows": 2},
     "  keltainen kortti kotijoukkueelle (yhteensä 2 keltaista korttia)"),
    ("taktinen", "en", "yellow_card", {"team": "home", "yellows": 1}, "  yellow card to home (1 yellow card so far)"),
])
def test_play_by_play_counts_read_as_a_native_reader_expects(game, language, kind, values, expected):
    assert _narration(game, language).render(kind, {"rule": "", **values}) == expected


@pytest.mark.parametrize("language, key, values, expected", [
    ("ru", "game_over", {"plies": 21}, "игра окончена после 21 полухода"),
    ("ru", "game_over", {"plies": 22}, "игра окончена после 22 полуходов"),
    ("ru", "summary", {"plies": 1, "rolls": 22}, "1 полуход, из них 22 броска кубика; действия каждой команды:"),
    ("ru", "summary", {"plies": 5, "rolls": 21}, "5 полуходов, из них 21 бросок кубика; действия каждой команды:"),
    ("fi", "summary", {"plies": 1, "rolls": 0}, "1 siirto, joista 0 nopanheittoa; toiminnot joukkueittain:"),
    ("fi", "summary", {"plies": 21, "rolls": 1}, "21 siirtoa, joista 1 nopanheitto; toiminnot joukkueittain:"),
    ("es", "game_over", {"plies": 1}, "fin de la partida tras 1 jugada"),
    ("it", "summary", {"plies": 2, "rolls": 1}, "2 mosse, di cui 1 lancio di dado; azioni di ogni squadra:"),
    ("de", "game_over", {"plies": 1}, "Spielende nach 1 Halbzug"),
    ("en", "game_over", {"plies": 1}, "game over after 1 ply"),
])
def test_the_terminal_counts_plies_and_rolls_in_each_language(language, key, values, expected):
    assert say(language, key, **values) == expected


def test_the_english_play_by_play_needs_no_rulebook_extra_to_count():
    """The terminal's English narrator (``rulecraft/texts.py``, no site) renders counted phrases."""
    from rulecraft.runtime.narrate import Narrator
    from rulecraft.texts import messages
    folder = REPO / "rulespecs" / "futbol-dados"
    narrator = Narrator(_narration("futbol-dados", "en").game, **messages(folder))
    assert narrator.render("shootout_level", {"kicks": 1}).startswith("The shoot-out is still level after 1 penalty each")
    assert "after 5 penalties each" in narrator.render("shootout_level", {"kicks": 5})


# ---------------------------------------------------------------- the construct
def test_each_language_needs_the_categories_its_whole_numbers_fall_into_and_other():
    assert needed("ru") == {"one", "few", "many", "other"}
    for language in ("en", "fi", "es", "de", "it"):
        assert needed(language) == {"one", "other"}


def test_a_phrase_lacking_a_form_its_language_needs_is_refused_when_rendered():
    plural = plural_filter("ru")
    with pytest.raises(ValueError, match="lacks the form.*few, many.*few: 2, 3, 4, 22"):
        plural(2, one="# ход", other="# хода")
    assert plural(22, one="# ход", few="# хода", many="# ходов", other="# хода") == "22 хода"


@pytest.mark.parametrize("forms, message", [
    ({}, "gives no forms"),
    ({"one": "# move", "others": "# moves"}, "'others' is not a CLDR plural category"),
    ({"one": "a move", "other": "# moves"}, "its one form \"a move\" has no '#'"),
    ({"one": "# move", "other": "#" + "s" * 300}, "longer than 200 characters"),
])
def test_malformed_forms_are_named(forms, message):
    assert any(message in problem for problem in form_problems("en", forms))


def test_a_spanish_million_falls_back_to_other_as_in_icu():
    assert counted("es", 1_000_000, {"one": "# jugada", "other": "# jugadas"}) == "1000000 jugadas"


@given(st.integers(min_value=0, max_value=10**6))
def test_russian_counts_follow_the_slavic_rule(n):
    forms = {"one": "# ход", "few": "# хода", "many": "# ходов", "other": "# хода"}
    ending = ("ход" if n % 10 == 1 and n % 100 != 11 else
              "хода" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "ходов")
    assert counted("ru", n, forms) == f"{n} {ending}"


def test_forms_are_text_and_nothing_in_them_reaches_python():
    environment = Sandbox(filters={"plural": plural_filter("en")})
    [phrase] = phrases(environment, "{{ n | plural(one=n.__class__, other='# x') }}", "en")
    assert "not quoted text" in phrase.problems[0]
    assert environment.render("{{ n | plural(one='{0.__class__} #', other='# {n}') }}", {"n": 2}) == "2 {n}"


def test_site_check_refuses_a_counted_phrase_without_the_russian_few_and_many_at_its_place(tmp_path):
    folder = tmp_path / "rulespecs" / "taktinen"
    shutil.copytree(REPO / "rulespecs" / "taktinen", folder)
    path = folder / "text" / "ru.yaml"
    text = path.read_text(encoding="utf-8")
    old = "plural(one='# жёлтая карточка', few='# жёлтые карточки', many='# жёлтых карточек', other='# жёлтой карточки')"
    assert old in text
    path.write_text(text.replace(old, "plural(one='# жёлтая карточка', other='# жёлтых карточек')"), encoding="utf-8")
    [problem] = [p for p in check_book(Book(folder)) if p.code == "RC814"]
    line_number, line = next((i, l) for i, l in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                             if l.startswith("  yellow_card:"))
    assert (problem.language, problem.kind, problem.key) == ("ru", "event", "yellow_card")
    assert problem.where == f"{path}:{line_number}:{line.index('plural') + 1}"
    assert "lacks the form(s) few, many that ru needs" in problem.message


def test_a_text_reaching_for_a_missing_category_fails_at_its_place(tmp_path):
    folder = tmp_path / "rulespecs" / "taktinen"
    shutil.copytree(REPO / "rulespecs" / "taktinen", folder)
    path = folder / "text" / "fi.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("other='# keltaista korttia'", "others='# keltaista korttia'"), encoding="utf-8")
    book = Book(folder, ("fi",))
    with pytest.raises(RulecraftError, match="not a CLDR plural category"):
        Narration(book, "fi", book.game()).render("yellow_card", {"rule": "", "team": "home", "yellows": 2})
