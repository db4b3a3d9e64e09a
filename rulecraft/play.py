"""Play a match in the terminal: bots and people, a narrated play-by-play, undo, save and resume.

Before each decision a person sees the board, one status line (:func:`status_line`) and the
numbered legal actions; they type a number or an action's notation (any case, in the language of
the play-by-play or the spec's), or a command (:data:`COMMANDS`): ``?``/``help``, ``board``,
``state`` (every shown field, secrets as "hidden"), ``u``/``undo`` (their last decision, with
every roll and bot move after it), ``s``/``save``, ``q``/``quit`` (Ctrl-C and the end of input
too: save and stop). A notation the rules forbid now is refused naming the rule. A secret choice
is typed without echo, and the play-by-play never shows it. The terminal's words come from
:mod:`rulecraft.words` in the language asked for.
"""

from __future__ import annotations

import getpass
import io
import sys

from rich.console import Console
from rich.markup import escape
from rich.style import Style
from rich.text import Text

from rulecraft.errors import IllegalActionError
from rulecraft.layout import team_colour
from rulecraft.runtime.engine import CHANCE, Game
from rulecraft.runtime.logs import write_log
from rulecraft.runtime.match import Match, seat_bots
from rulecraft.runtime.narrate import Narrator
from rulecraft.runtime.render import board_lines, visible_fields
from rulecraft.words import say


class Quit(Exception):
    """The person asked to stop."""


GROUP_OVER = 20     # more legal actions than this are grouped (see choice_lines)
PER_LINE = 6        # at most this many numbered actions on one line of a group
LINE_WIDTH = 80     # ... and no more than fit in this many characters

COMMANDS = {"?": "help", "help": "help", "u": "undo", "undo": "undo", "s": "save", "save": "save",
            "q": "quit", "quit": "quit", "board": "board", "state": "state"}


def secret_input(prompt: str) -> str:
    """A secret choice typed without echo in a terminal (:func:`getpass.getpass`); from a pipe or
    a file, where nothing is shown anyway, read as a plain line (getpass would only warn there
    that it cannot hide the answer, and the warning would land in the screen's text)."""
    return getpass.getpass(prompt) if sys.stdin.isatty() else input(prompt)


def play_match(match: Match, humans: set[int], bot: str, console: Console, *,
               log_path: str | None = None, show_board: bool = True, input_fn=input,
               secret_input_fn=secret_input, narrator: Narrator | None = None,
               language: str = "en", quit_path: str | None = None, quiet: bool = False,
               summary: bool = False, hints: bool = True) -> Match:
    """Play ``match`` to the end; ``humans`` are team indices steered from the terminal.

    ``narrator`` writes the play-by-play and the actions offered to people (default: the spec's
    names, without the game's texts); :class:`rulecraft.site.narration.Narration` speaks a
    language of the game's text files. The terminal's own words are in ``language``
    (:mod:`rulecraft.words`).

    Bots draw their randomness from the match seed and the ply, as the dice do. The log (when
    ``log_path`` is given) is written after every ply. Quitting (``q``, end of input or Ctrl-C)
    saves to ``log_path``, else to ``quit_path`` (checked by the caller before play), and says
    where. A match with steps already (resumed) starts with a :func:`recap`. A finished match
    ends with the board and one :func:`end_line`, which leaves out the returns when the
    play-by-play has just narrated them (the game's ``end`` event); ``quiet`` prints the end line
    alone (no header, play-by-play or board), with the returns, and ``summary`` adds
    :func:`summary_lines`. With ``hints`` false (``rulecraft play --no-hints``) a person's
    legal actions are not listed: they type a notation (numbers are not taken), and a refusal
    still names the rule; the actions, their ids and the log are the same as with hints. Returns
    the match.
    """
    game = match.game
    narrator = narrator or Narrator(game)
    screen = console
    bots = seat_bots(game, bot, humans)
    match.bot = bot
    if quiet:                                # the end line alone goes to the screen
        console = Console(file=io.StringIO())
    options = ", ".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                        for name, value in (game.rules.options or {}).items())
    console.print(f"[bold]{escape(game.rules.title)}[/bold] — {say(language, 'seed', seed=match.seed)}"
                  + (f", {escape(options)}" if options else ""), soft_wrap=True)
    if not match.steps:                      # what the setup did before the first decision
        opening: list = []
        game.new_initial_state(opening)
        _narrate(opening, narrator, console)
    else:                                    # a resumed match
        recap(match, narrator, console, language)
    events: list = []
    try:
        while not match.state.is_terminal():
            events = []
            player = match.state.current_player()
            if player in humans:
                action = _ask(match, player, console, input_fn, secret_input_fn, log_path,
                              narrator, language, hints)
                if action is None:
                    continue
                match.apply(action, events)
            else:
                match.advance(bots, events)
            _narrate(events, narrator, console)
            if log_path:
                write_log(match, log_path)
    except (Quit, KeyboardInterrupt):
        path = log_path or quit_path
        if path:
            write_log(match, path)
            console.print(say(language, "saved", path=path), highlight=False, markup=False, soft_wrap=True)
        return match
    if show_board:
        console.print(board_text(match.state, None, narrator), highlight=False, markup=False)
    narrated_end = not quiet and any(kind == "end" for kind, _, _ in events)
    screen.print(end_line(match.state, narrator, language, returns=not narrated_end), highlight=False, markup=False, soft_wrap=True)
    if summary:
        for line in summary_lines(match, language, narrator):
            screen.print(line, highlight=False, markup=False, soft_wrap=True)
    return match


def end_line(state, narrator: Narrator, language: str, returns: bool = True) -> str:
    """The one line of a finished match: the plies, its brief visible fields (the score; not a
    field a choice's ``by:`` names, whose decision it would be) and, with ``returns``, every
    team's return (left out where the narrated end event gave them)."""
    fields = [f"{name} {value}" for name, value, brief
              in shown_fields(state, None, "", narrator, language, deciders=False) if brief]
    parts = [say(language, "game_over", plies=state.ply), *fields]
    if returns:
        shown = ", ".join(f"{narrator.word(team)} {value:+g}"
                          for team, value in zip(state.game.teams, state.returns()))
        parts.append(say(language, "returns", returns=shown))
    return " · ".join(parts)


def summary_lines(match: Match, language: str, narrator: Narrator | None = None) -> list[str]:
    """The match's statistics: its plies and dice rolls, and for each team how many actions of
    each kind it took, the kinds and teams named in the words of ``narrator`` (the glossary
    term of an action's name, else the name in words; default: the spec's names)."""
    word = (narrator or Narrator(match.game)).word
    game = match.game
    counts = {team: {} for team in range(len(game.teams))}
    rolls = 0
    for step in match.steps:
        if step.actor == CHANCE:
            rolls += 1
            continue
        name = game.action_def(step.action).name
        counts[step.actor][name] = counts[step.actor].get(name, 0) + 1
    lines = [say(language, "summary", plies=len(match.steps), rolls=rolls)]
    for team, kinds in counts.items():
        shown = ", ".join(f"{word(name)} {n}" for name, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        lines.append(f"  {word(game.teams[team])}: {shown or '-'}")
    return lines


def recap(match: Match, narrator: Narrator, console: Console, language: str, last: int = 5) -> None:
    """Print where a resumed match stands: "resumed at ply N" and its ``last`` steps, each as
    the play-by-play writes it (in its language, a team named once; a roll as its ``roll``
    event, naming whose roll it was: :meth:`Match.events_of` recomputes it from the rules, so
    the log's format is unchanged and old logs recap the same way; a secret choice as the
    ``secret`` message: never what it was)."""
    console.print(say(language, "resumed", ply=match.state.ply), highlight=False, markup=False)
    start = max(0, len(match.steps) - last)
    for index, step in enumerate(match.steps[start:], start):
        if step.actor == CHANCE:                 # the play-by-play's roll line: whose roll it was
            rolls = [event for event in match.events_of(index) if event[0] == "roll"]
            line = (narrator.line(rolls[0]) or "").strip() if rolls else ""
            line = line or say(language, "rolled", value=step.notation)
        elif step.secret is not None and step.secret.opened is None:
            line = narrator.line(("action", "", {"team": step.actor, "secret": True}))
        else:                                # as the play-by-play wrote it: the team named once
            line = narrator.line(("action", "", {"team": step.actor, "action": step.action,
                                                 "notation": step.notation, "secret": False}))
        console.print(line, highlight=False, markup=False, soft_wrap=True)


def _narrate(events: list, narrator: Narrator, console: Console) -> None:
    """Print the play-by-play of ``events``."""
    for event in events:
        line = narrator.line(event)
        if line:
            console.print(line, highlight=False, markup=False, soft_wrap=True)


def shown_fields(state, team: int | None, hidden: str, narrator: Narrator, language: str,
                 deciders: bool = True) -> list[tuple[str, str, bool]]:
    """:func:`rulecraft.runtime.render.visible_fields` in the match's words: names and values
    as ``narrator`` writes them (glossary terms, piece names), a boolean as a word (yes, no)
    in the terminal's ``language``."""
    return visible_fields(state, team, hidden, narrator.word, deciders, piece=narrator.piece_name,
                          truth=lambda value: say(language, "bool_true" if value else "bool_false"))


def status_line(state, team: int, narrator: Narrator, language: str) -> str:
    """One line before a decision: the phase's title, the ply, the brief visible fields (see
    :func:`rulecraft.runtime.render.visible_fields`) and whose decision it is, all in the words
    of ``narrator``. A field a choice's ``by:`` names (``to_move``) is not among the fields:
    it is whose decision it is, shown once as "to play"."""
    phase, _ = state.phase()
    who = narrator.word(state.game.rules.teams[state.current_player()])
    fields = [f"{name} {value}" for name, value, brief
              in shown_fields(state, team, "", narrator, language, deciders=False) if brief]
    return " · ".join([narrator.phase_title(phase), say(language, "ply", ply=state.ply), *fields,
                       say(language, "to_act", team=who)])


def board_text(state, team: int | None, narrator: Narrator) -> Text:
    """The board as ``team`` sees it (:func:`rulecraft.runtime.render.board_lines`) as rich
    text, each team's pieces, marks and counts in the team's colour (:func:`team_colour`, the
    rulebook's). Rich prints the colours only to a terminal that takes them: plain text when
    the output is no terminal or ``NO_COLOR`` is set (https://no-color.org)."""
    spans: list = []
    lines = board_lines(state, team, narrator.word, spans)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    text = Text("\n".join(lines))
    for line, start, end, owner in spans:
        text.stylize(Style(color=team_colour(owner), bold=True), starts[line] + start, starts[line] + end)
    return text


def decision_screen(state, team: int, narrator: Narrator, language: str, hints: bool = True) -> list[str]:
    """What a person sees before deciding for ``team``: the board as ``team`` sees it, the
    :func:`status_line` and, with ``hints``, the legal actions numbered from 1 as the
    play-by-play writes them (the golden screens of ``tests/golden/screens/`` are these lines)."""
    lines = [*board_lines(state, team, narrator.word), status_line(state, team, narrator, language)]
    return lines + (choice_lines(state, narrator) if hints else [])


def choice_lines(state, narrator: Narrator) -> list[str]:
    """The legal actions numbered from 1 as the play-by-play writes them, one a line; more
    than :data:`GROUP_OVER` are grouped, a line (or a few of :data:`PER_LINE`, or as many as fit
    in :data:`LINE_WIDTH` characters) for the actions
    of one kind that share their first parameter (taktinen's 66 formations by the number of
    defenders: ``1. 0-0-10  2. 0-1-9 …``), in columns."""
    game = state.game
    legal = state.legal_actions()
    entries = [f"{number:>3}. {narrator.notation(action)}" for number, action in enumerate(legal, 1)]
    if len(legal) <= GROUP_OVER:
        return ["  " + entry for entry in entries]
    width = max(len(entry) for entry in entries)
    per_line = max(1, min(PER_LINE, (LINE_WIDTH - 2) // (width + 2)))
    groups: dict = {}
    for action, entry in zip(legal, entries):
        definition, values = game.decoded(action)
        groups.setdefault((definition.name, values[:1]), []).append(entry.ljust(width))
    return ["  " + "  ".join(group[i:i + per_line]).rstrip()
            for group in groups.values() for i in range(0, len(group), per_line)]


def _ask(match: Match, team: int, console: Console, input_fn, secret_input_fn, log_path,
         narrator: Narrator, language: str, hints: bool = True):
    """The action a person chooses for ``team`` (None after an undo), after the commands they
    type; raises :class:`Quit` for quit and the end of input."""
    state = match.state
    game: Game = match.game
    legal = state.legal_actions()
    written = [narrator.notation(action) for action in legal]
    secret = state.is_secret()
    show = lambda text: console.print(text, highlight=False, markup=False, soft_wrap=True)  # noqa: E731
    board = board_text(state, team, narrator)       # the screen's first lines, in colour
    drawn = board.plain.count("\n") + 1 if board.plain else 0
    if drawn:
        console.print(board, highlight=False, markup=False, soft_wrap=True)
    show("\n".join(decision_screen(state, team, narrator, language, hints)[drawn:]))
    prompt = say(language, ("prompt_secret" if secret else "prompt") + ("" if hints else "_notation"),
                 team=narrator.word(game.teams[team]))
    while True:
        try:
            answer = (secret_input_fn if secret else input_fn)(prompt).strip()
        except EOFError:
            raise Quit from None
        command = COMMANDS.get(answer.lower())
        if command == "quit":
            raise Quit
        if command == "help":
            show(say(language, "help" if hints else "help_notation"))
        elif command == "board":
            console.print(board_text(state, team, narrator), highlight=False, markup=False, soft_wrap=True)
        elif command == "state":
            hidden = say(language, "hidden")
            for name, value, _ in shown_fields(state, team, hidden, narrator, language):
                show(f"{name}: {value}")
        elif command == "undo":
            if match.undo(team):
                show(say(language, "undone"))
                return None
            show(say(language, "nothing_to_undo"))
        elif command == "save":
            if log_path:
                write_log(match, log_path)
                show(say(language, "saved", path=log_path))
            else:
                show(say(language, "no_save"))
        elif hints and answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        else:
            chosen = _typed(answer, legal, written, state)
            if chosen is not None:
                return chosen
            key = ("not_an_answer_one" if len(legal) == 1 else "not_an_answer") if hints else "not_a_notation"
            show(_refusal(answer, state, narrator, language)
                 or say(language, key, answer=answer, last=len(legal)))


def _typed(answer: str, legal: list[int], written: list[str], state):
    """The legal action whose notation (narrated or the spec's) is ``answer``, in any case (an
    exact match first, for notations that differ only in case)."""
    for fold in (str, str.casefold):
        for action, notation in zip(legal, written):
            if fold(answer) in (fold(notation), fold(state.action_notation(action))):
                return action
    return None


def _refusal(answer: str, state, narrator: Narrator, language: str) -> str | None:
    """For a notation of an action the rules forbid now, the refusal naming the rule that
    forbids it: in English the engine's, as :meth:`State.apply` raises it (with the spec's
    reason); in another language the rule's number and its title in that language (the
    ``refused_rule`` text); for an action of another phase, the action's own rule and the
    actions the current phase offers (``refused_phase``), not the phase's rule as if it forbade
    it; ``refused_here`` for a rule without a title there. None for no notation."""
    folded = answer.casefold()
    game = state.game
    for action, notation in game.action_table():
        if folded in (notation.casefold(), narrator.notation(action).casefold()):
            try:
                state.clone().apply(action)
            except IllegalActionError as error:
                if language == "en":
                    return say(language, "refused", reason=error.message)
                if error.offered is not None:
                    rule = game.action_def(action).rule
                    title = narrator.rule_title(rule) if rule else None
                    if title is not None:
                        return say(language, "refused_phase", notation=narrator.notation(action), rule=rule,
                                   title=title, phase=narrator.phase_title(state.phase()[0]),
                                   offered=", ".join(narrator.word(name) for name in error.offered))
                    return say(language, "refused_here", notation=narrator.notation(action))
                title = narrator.rule_title(error.rule) if error.rule else None
                if title is not None:
                    return say(language, "refused_rule", notation=narrator.notation(action),
                               rule=error.rule, title=title)
                return say(language, "refused_here", notation=narrator.notation(action))
            return None
    return None
