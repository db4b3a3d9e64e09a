"""Play a match in the terminal: bots and people, a narrated play-by-play, undo, save and resume.

People choose from the numbered legal actions (or type an action's notation, in the language of
the play-by-play or the spec's); ``u`` undoes their last decision (with every roll and bot move
after it), ``s`` saves the log, ``q`` saves and quits. A secret choice is typed without echo, and
the play-by-play never shows it.
"""

from __future__ import annotations

import getpass

from rich.console import Console
from rich.markup import escape

from rulecraft.runtime.engine import Game
from rulecraft.runtime.logs import write_log
from rulecraft.runtime.match import Match, seat_bots
from rulecraft.runtime.narrate import Narrator
from rulecraft.runtime.render import render_text


class Quit(Exception):
    """The person asked to stop."""


def play_match(match: Match, humans: set[int], bot: str, console: Console, *,
               log_path: str | None = None, show_board: bool = True, input_fn=input,
               secret_input_fn=getpass.getpass, narrator: Narrator | None = None) -> Match:
    """Play ``match`` to the end; ``humans`` are team indices steered from the terminal.

    ``narrator`` writes the play-by-play and the actions offered to people (default: the spec's
    names, without the game's texts); :class:`rulecraft.site.narration.Narration` speaks a
    language of the game's text files.

    Bots draw their randomness from the match seed and the ply, as the dice do. The log (when
    ``log_path`` is given) is written after every ply. Returns the match.
    """
    game = match.game
    narrator = narrator or Narrator(game)
    bots = seat_bots(game, bot, humans)
    match.bot = bot
    console.print(f"[bold]{escape(game.rules.title)}[/bold] — seed {match.seed}, options {game.rules.options or '{}'}",
                  soft_wrap=True)
    if not match.steps:                      # what the setup did before the first decision
        opening: list = []
        game.new_initial_state(opening)
        for event in opening:
            line = narrator.line(event)
            if line:
                console.print(line, highlight=False, markup=False, soft_wrap=True)
    while not match.state.is_terminal():
        events: list = []
        player = match.state.current_player()
        if player in humans:
            try:
                action = _ask(match, player, console, input_fn, secret_input_fn, log_path, narrator)
            except Quit:
                if log_path:
                    write_log(match, log_path)
                    console.print(f"saved to {log_path}; resume with --resume {log_path}", markup=False, soft_wrap=True)
                return match
            if action is None:
                continue
            match.apply(action, events)
        else:
            match.advance(bots, events)
        for event in events:
            line = narrator.line(event)
            if line:
                console.print(line, highlight=False, markup=False, soft_wrap=True)
        if log_path:
            write_log(match, log_path)
    if show_board:
        console.print(render_text(match.state), highlight=False, markup=False)
    return match


def _ask(match: Match, team: int, console: Console, input_fn, secret_input_fn, log_path,
         narrator: Narrator):
    state = match.state
    game: Game = match.game
    legal = state.legal_actions()
    written = [narrator.notation(action) for action in legal]
    secret = state.is_secret()
    console.print(render_text(state, team), highlight=False, markup=False)
    for number, notation in enumerate(written, 1):
        console.print(f"  {number:>3}. {notation}", highlight=False, markup=False)
    prompt = f"{game.teams[team]} ({'secret, not echoed' if secret else 'number or notation'}; u undo, s save, q quit)> "
    while True:
        try:
            answer = (secret_input_fn if secret else input_fn)(prompt).strip()
        except EOFError:
            raise Quit from None
        if answer == "q":
            raise Quit
        if answer == "u":
            if match.undo(team):
                console.print("undone.")
                return None
            console.print("nothing to undo.")
            continue
        if answer == "s":
            if log_path:
                write_log(match, log_path)
                console.print(f"saved to {log_path}.", markup=False, soft_wrap=True)
            else:
                console.print("start the game with --log FILE to save.")
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        for action, notation in zip(legal, written):
            if answer in (notation, state.action_notation(action)):
                return action
        console.print(f"'{answer}' is not one of the numbers 1–{len(legal)} or a legal notation.")
