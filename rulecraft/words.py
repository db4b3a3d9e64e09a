"""The terminal's own words (prompts, help, status, save messages) in the six site languages.

A game's texts (its play-by-play, phases, notations) live in the game's text files; these are
the words the terminal itself says around them, the same in every game. :func:`say` looks one
up for ``rulecraft play --lang``; a language without a text falls back to English, and
``tests/test_play.py`` checks that every text is written in all six languages.
"""

from __future__ import annotations

LANGUAGES = ("en", "fi", "ru", "es", "de", "it")

WORDS = {
    "seed": {"en": "seed {seed}", "fi": "siemenluku {seed}", "ru": "зерно {seed}",
             "es": "semilla {seed}", "de": "Startwert {seed}", "it": "seme {seed}"},
    "to_act": {
        "en": "to play: {team}", "fi": "vuorossa: {team}", "ru": "ход: {team}",
        "es": "turno de: {team}", "de": "am Zug: {team}", "it": "tocca a: {team}",
    },
    "chance": {
        "en": "the dice", "fi": "noppa", "ru": "кубик", "es": "los dados", "de": "die Würfel",
        "it": "i dadi",
    },
    "ply": {"en": "ply {ply}", "fi": "siirto {ply}", "ru": "ход {ply}", "es": "jugada {ply}",
            "de": "Zug {ply}", "it": "mossa {ply}"},
    "hidden": {"en": "hidden", "fi": "salainen", "ru": "скрыто", "es": "oculto",
               "de": "verdeckt", "it": "nascosto"},
    "prompt": {
        "en": "{team} (number or notation, ? for help)> ",
        "fi": "{team} (numero tai merkintä, ? ohje)> ",
        "ru": "{team} (номер или запись хода, ? — справка)> ",
        "es": "{team} (número o notación, ? para ayuda)> ",
        "de": "{team} (Nummer oder Notation, ? für Hilfe)> ",
        "it": "{team} (numero o notazione, ? per l'aiuto)> ",
    },
    "prompt_secret": {
        "en": "{team} (secret choice, not shown as you type; ? for help)> ",
        "fi": "{team} (salainen valinta, ei näy kirjoitettaessa; ? ohje)> ",
        "ru": "{team} (тайный выбор, ввод не отображается; ? — справка)> ",
        "es": "{team} (elección secreta, no se ve al escribir; ? para ayuda)> ",
        "de": "{team} (geheime Wahl, wird beim Tippen nicht angezeigt; ? für Hilfe)> ",
        "it": "{team} (scelta segreta, non si vede mentre scrivi; ? per l'aiuto)> ",
    },
    "help": {
        "en": "a number or a notation plays that option; board: the board; state: every field; "
              "u or undo: take back your last decision; s or save: save; q or quit: save and stop",
        "fi": "numero tai merkintä pelaa sen vaihtoehdon; board: pelilauta; state: kaikki tiedot; "
              "u tai undo: peru viimeisin päätöksesi; s tai save: tallenna; q tai quit: tallenna ja lopeta",
        "ru": "номер или запись хода — сыграть этот вариант; board — доска; state — все поля; "
              "u или undo — отменить своё последнее решение; s или save — сохранить; "
              "q или quit — сохранить и выйти",
        "es": "un número o una notación juega esa opción; board: el tablero; state: todos los "
              "datos; u o undo: deshacer tu última decisión; s o save: guardar; q o quit: guardar y salir",
        "de": "eine Nummer oder Notation spielt diese Option; board: das Spielbrett; state: alle "
              "Felder; u oder undo: deine letzte Entscheidung zurücknehmen; s oder save: speichern; "
              "q oder quit: speichern und beenden",
        "it": "un numero o una notazione gioca quell'opzione; board: il tabellone; state: tutti i "
              "dati; u o undo: annulla la tua ultima decisione; s o save: salva; q o quit: salva ed esci",
    },
    "undone": {"en": "undone.", "fi": "peruttu.", "ru": "отменено.", "es": "deshecho.",
               "de": "zurückgenommen.", "it": "annullato."},
    "nothing_to_undo": {"en": "nothing to undo.", "fi": "ei mitään peruttavaa.",
                        "ru": "отменять нечего.", "es": "no hay nada que deshacer.",
                        "de": "nichts zurückzunehmen.", "it": "niente da annullare."},
    "saved": {
        "en": "saved to {path}; resume with --resume {path}",
        "fi": "tallennettu tiedostoon {path}; jatka komennolla --resume {path}",
        "ru": "сохранено в {path}; продолжить: --resume {path}",
        "es": "guardado en {path}; para continuar: --resume {path}",
        "de": "gespeichert in {path}; weiter mit --resume {path}",
        "it": "salvato in {path}; per riprendere: --resume {path}",
    },
    "not_an_answer_one": {
        "en": "'{answer}' is not an option: type 1, the legal notation or ? for help.",
        "fi": "'{answer}' ei ole vaihtoehto: kirjoita 1, sallittu merkintä tai ? ohjeeksi.",
        "ru": "'{answer}' — не вариант: введите 1, допустимую запись хода или ? для справки.",
        "es": "'{answer}' no es una opción: escribe 1, la notación válida o ? para ayuda.",
        "de": "'{answer}' ist keine Option: gib 1, die gültige Notation oder ? für Hilfe ein.",
        "it": "'{answer}' non è un'opzione: scrivi 1, la notazione valida o ? per l'aiuto.",
    },
    "not_an_answer": {
        "en": "'{answer}' is not an option: type a number from 1 to {last}, a legal notation or ? for help.",
        "fi": "'{answer}' ei ole vaihtoehto: kirjoita numero 1–{last}, sallittu merkintä tai ? ohjeeksi.",
        "ru": "'{answer}' — не вариант: введите номер от 1 до {last}, допустимую запись хода или ? для справки.",
        "es": "'{answer}' no es una opción: escribe un número del 1 al {last}, una notación válida o ? para ayuda.",
        "de": "'{answer}' ist keine Option: gib eine Nummer von 1 bis {last}, eine gültige Notation oder ? für Hilfe ein.",
        "it": "'{answer}' non è un'opzione: scrivi un numero da 1 a {last}, una notazione valida o ? per l'aiuto.",
    },
    "refused": {
        "en": "not now: {reason}", "fi": "ei nyt: {reason}", "ru": "сейчас нельзя: {reason}",
        "es": "ahora no: {reason}", "de": "jetzt nicht: {reason}", "it": "non ora: {reason}",
    },
    "resumed": {
        "en": "resumed at ply {ply}; the last moves:", "fi": "jatketaan siirrosta {ply}; viimeisimmät siirrot:",
        "ru": "продолжение с хода {ply}; последние ходы:", "es": "se reanuda en la jugada {ply}; últimas jugadas:",
        "de": "fortgesetzt bei Zug {ply}; die letzten Züge:", "it": "si riprende dalla mossa {ply}; ultime mosse:",
    },
    "rolled": {"en": "  the dice: {value}", "fi": "  noppa: {value}", "ru": "  кубик: {value}",
               "es": "  los dados: {value}", "de": "  die Würfel: {value}", "it": "  i dadi: {value}"},
    "game_over": {"en": "game over after {plies} plies", "fi": "peli päättyi {plies} siirron jälkeen",
                  "ru": "игра окончена после {plies} ходов", "es": "fin del partido tras {plies} jugadas",
                  "de": "Spielende nach {plies} Zügen", "it": "partita finita dopo {plies} mosse"},
    "returns": {"en": "returns {returns}", "fi": "tulos {returns}", "ru": "итог {returns}",
                "es": "resultado {returns}", "de": "Ergebnis {returns}", "it": "risultato {returns}"},
    "summary": {
        "en": "{plies} plies, {rolls} of them dice rolls; actions by team:",
        "fi": "{plies} siirtoa, joista {rolls} nopanheittoa; toiminnot joukkueittain:",
        "ru": "{plies} ходов, из них бросков кубика: {rolls}; действия команд:",
        "es": "{plies} jugadas, {rolls} de ellas tiradas de dados; acciones por equipo:",
        "de": "{plies} Züge, davon {rolls} Würfe; Aktionen je Mannschaft:",
        "it": "{plies} mosse, di cui {rolls} lanci di dado; azioni per squadra:",
    },
    "no_save": {
        "en": "nothing saved: no save file was chosen.", "fi": "mitään ei tallennettu: tallennustiedostoa ei ole valittu.",
        "ru": "ничего не сохранено: файл сохранения не выбран.", "es": "no se guardó nada: no se eligió archivo.",
        "de": "nichts gespeichert: keine Speicherdatei gewählt.", "it": "nulla di salvato: nessun file di salvataggio scelto.",
    },
}


def say(language: str, key: str, **values) -> str:
    """The terminal text ``key`` in ``language`` (English when that language lacks it), with
    ``values`` filled in; ``values`` are shown as given (names, numbers, paths), never read as
    format specifications of their own."""
    texts = WORDS[key]
    return texts.get(language, texts["en"]).format(**values)
