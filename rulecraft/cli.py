"""The ``rulecraft`` command: compile, check, play, replay and test game specs; simulate and bench.

Every user mistake (a spec error, an illegal action, a corrupt log) prints a clear message and
exits with status 1; no traceback is shown for them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import random
import re
import sys
from typing import NoReturn

import typer
from rich.console import Console
from rich.table import Table

from rulecraft.errors import InputError, MissingExtraError, RulecraftError, ScenarioError
from rulecraft.progress import working

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="rulecraft: write a board game's rules once; play, test and publish them.")
console = Console()
errors = Console(stderr=True)

OptionList = typer.Option(None, "--option", "-O", metavar="NAME=VALUE",
                          help="Set a game option: NAME=VALUE (repeatable).")


def _options(pairs: list[str] | None) -> dict:
    result = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise InputError(f"--option takes NAME=VALUE, not '{pair}'", code="RC106")
        name, value = pair.split("=", 1)
        result[name.strip()] = value.strip()
    return result


def _game(game: str, options: dict):
    from rulecraft.compiler import load_rules
    from rulecraft.runtime.engine import Game
    from rulecraft.runtime.registry import register
    loaded = Game(load_rules(game, options))
    register(loaded)
    return loaded


def _output_path(path: Path | None, option: str, *, keep: Path | None = None) -> None:
    """Refuse, before any work, an output path that cannot be written: RC111 for a path that
    is a folder, lies in a missing folder or under a file, or a folder that cannot be written.
    With ``keep`` (a log that is not the one resumed), an existing file is refused too: it
    would be overwritten."""
    if path is None:
        return
    folder = path.parent
    if path.is_dir():
        raise InputError(f"{option} {path}: that is a folder; give the name of a file",
                             code="RC111")
    if not folder.exists():
        raise InputError(f"{option} {path}: the folder {folder} does not exist", code="RC111")
    if not folder.is_dir():
        raise InputError(f"{option} {path}: {folder} is a file, not a folder", code="RC111")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{option} {path}: the folder {folder} cannot be written", code="RC111")
    if keep is not None and path.exists() and (not keep.exists() or not path.samefile(keep)):
        raise InputError(f"{option} {path}: the file exists; continue that match with "
                             f"--resume {path}, or give another name", code="RC111")


def _check_bot(bot: str) -> None:
    """Raise :class:`RulecraftError` (RC107) unless ``bot`` names a bot (``mcts:N`` too)."""
    from rulecraft.runtime.bots import bot_problem
    problem = bot_problem(bot)
    if problem is not None:
        raise InputError(problem, code="RC107")


def _check_untimed(bot: str, asked: str) -> None:
    """Raise :class:`RulecraftError` (RC107) when ``bot`` has a time budget (``mcts:2s``) though
    ``asked`` (``--seed``, ``--log``, …) needs a reproducible match: how far a timed search gets
    depends on the machine, so the same seed would not give the same match."""
    from rulecraft.runtime.bots import timed
    if timed(bot):
        raise InputError(f"bot '{bot}': a time budget makes the bot's choices depend on the "
                         f"machine's speed, so {asked} could not reproduce the match; give an "
                         "iteration budget (e.g. mcts:200) instead", code="RC107")


def _check_sides(game, bot: str, humans=()) -> None:
    """Raise :class:`RulecraftError` (RC107) unless ``bot`` seats a bot for every team of
    ``game`` not in ``humans`` (a per-side ``home=mcts:200,away=greedy`` names the game's teams)."""
    from rulecraft.runtime.match import seat_bots
    try:
        seat_bots(game, bot, humans)
    except ValueError as error:
        raise InputError(str(error), code="RC107") from None


def _narrator(loaded, game: str, language: str, options: dict):
    """The play-by-play of ``loaded`` in ``language``: English from the spec's names and the
    game's ``text/en.yaml``; another language of the game's text files through the rulebook's
    :class:`~rulecraft.site.narration.Narration` (the site extra).

    Raises :class:`RulecraftError` RC109 for a language the game has no texts in; without the
    site extra the import fails and :func:`_guard` reports RC110.
    """
    from rulecraft.compiler import find_game
    from rulecraft.texts import messages, text_languages
    folder = find_game(game).parent
    languages = text_languages(folder)
    if language not in languages:
        raise InputError(f"no play-by-play in '{language}' for {loaded.id} "
                             f"(its languages: {', '.join(languages)})", code="RC109")
    if language == "en":
        from rulecraft.runtime.narrate import Narrator
        return Narrator(loaded, **messages(folder))
    from rulecraft.site.narration import Narration
    return Narration.of_game(folder, language, loaded, options)


# the optional extras (pyproject.toml) that provide the modules a command may import lazily
EXTRAS = {"markdown_it": "site", "mkdocs": "site", "material": "site", "mkdocs_static_i18n": "site",
          "playwright": "site", "pypdf": "site",
          "pyspiel": "rl", "pettingzoo": "rl", "gymnasium": "rl", "numpy": "rl"}


def _guard(function):
    """Run a command body, printing user errors without a traceback (exit status 1).

    A module of an optional extra that is not installed becomes RC110 naming the extra.
    """
    try:
        return function()
    except RulecraftError as error:
        _report(error)
    except ModuleNotFoundError as error:
        extra = EXTRAS.get((error.name or "").split(".")[0])
        if extra is None:
            raise
        _report(MissingExtraError(extra, error.name))


def _report(error: RulecraftError) -> NoReturn:
    """Print a user error (no traceback) and exit with status 1."""
    errors.print(str(error), highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(1) from None


def _version(shown: bool) -> None:
    if shown:
        from rulecraft import __version__
        console.print(f"rulecraft {__version__}", highlight=False, markup=False)
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print rulecraft's version and exit.")):
    """rulecraft: write a board game's rules once; play, test and publish them."""


@app.command()
def games():
    """List the games found under rulespecs/ and examples/: name, title and teams."""
    from rulecraft.compiler import find_game, game_names
    from rulecraft.loader import load_yaml
    for kind in ("rulespecs", "examples"):
        console.print(f"{kind}:", highlight=False, markup=False)
        for name in game_names(kind):
            try:
                meta = (load_yaml(str(find_game(name))) or {}).get("game") or {}
                title, teams = str(meta.get("title", "")), ", ".join(map(str, meta.get("teams") or []))
            except RulecraftError:          # a broken spec is listed by name; `check` explains it
                title, teams = "", ""
            console.print(f"  {name:<16} {title[:60]}" + (f" ({teams[:60]})" if teams else ""),
                          highlight=False, markup=False)


@app.command()
def check(game: str = typer.Argument(..., help="Game name or path to its folder or game.yaml."),
          option: list[str] = OptionList):
    """Validate a spec: every error with file:line:col, the line, a caret and a hint."""
    def body():
        from rulecraft.compiler import check as check_spec
        game_id, warnings = check_spec(game, _options(option))
        for warning in warnings:
            sys.stderr.write(f"{warning}\n")
        noted = f" ({len(warnings)} warning{'s' if len(warnings) != 1 else ''})" if warnings else ""
        console.print(f"{game_id}: the spec is valid{noted}.", highlight=False, markup=False)
    _guard(body)


@app.command(name="compile")
def compile_command(game: str = typer.Argument(..., help="Game name or path."),
                    output: Path = typer.Option(None, "-o", "--output", help="Write the module here."),
                    option: list[str] = OptionList):
    """Compile a spec into a standalone Python module of rule tables."""
    def body():
        from rulecraft.compiler import compile_source
        _output_path(output, "-o")
        source = compile_source(game, _options(option))
        if output is None:
            sys.stdout.write(source)
        else:
            output.write_text(source, encoding="utf-8")
            console.print(f"wrote {output}")
    _guard(body)


@app.command()
def fmt(game: str = typer.Argument(..., help="Game name or path."),
        upgrade: bool = typer.Option(False, "--upgrade", help="Rewrite deprecated forms into today's."),
        output: Path = typer.Option(None, "-o", "--output", help="Write here instead of over the spec."),
        check_only: bool = typer.Option(False, "--check", help="Write nothing; exit 1 if the spec would change."),
        diff: bool = typer.Option(False, "--diff", help="Print the change as a unified diff.")):
    """Rewrite a spec in place: with --upgrade, its deprecated forms become today's (comments and
    layout kept)."""
    def body():
        from rulecraft.compiler.upgrade import upgrade_spec, write
        if not upgrade:
            raise InputError("fmt has one rewrite: give --upgrade", code="RC118")
        result = upgrade_spec(game, output)
        if diff:
            sys.stdout.write(result.diff(output))
        if check_only:
            if result.changed:
                errors.print(f"{result.path}: would be upgraded", highlight=False, markup=False)
                raise typer.Exit(1)
            return
        if result.changed or output is not None:
            console.print(f"upgraded {write(result, output)}" if result.changed else f"wrote {write(result, output)}",
                          highlight=False, markup=False)
        else:
            console.print(f"{result.path}: nothing to upgrade", highlight=False, markup=False)
    _guard(body)


@app.command()
def schema(output: Path = typer.Option(None, "-o", "--output", help="Write the schema here.")):
    """Print the JSON Schema of a spec file (game.yaml), for editors that complete and check YAML."""
    def body():
        from rulecraft.compiler.schema import json_schema_text
        _output_path(output, "-o")
        if output is None:
            sys.stdout.write(json_schema_text())
        else:
            output.write_text(json_schema_text(), encoding="utf-8")
            console.print(f"wrote {output}")
    _guard(body)


@app.command()
def play(game: str = typer.Argument(..., metavar="GAME", help="Game name or path."),
         seed: int = typer.Option(None, metavar="NUMBER", help="Seed for dice and bots (random when omitted)."),
         human: list[str] = typer.Option(None, "--human", metavar="TEAM", help="A team a person plays (repeatable)."),
         bot: str = typer.Option(None, metavar="BOT", help="Bot for the other teams: greedy, random, mcts[:N] or "
                                 "ismcts[:N] (N search iterations, default 200; N s: seconds per "
                                 "decision, not with --seed, --log or --resume), or per team: "
                                 "home=mcts:200,away=greedy (default bot: greedy; a resumed match "
                                 "keeps its log's)."),
         log: Path = typer.Option(None, "--log", metavar="FILE", help="Write the match log here (also a save file); "
                                  "an existing file is refused unless it is the one resumed."),
         resume: Path = typer.Option(None, "--resume", metavar="LOG", help="Continue the match saved in this log."),
         allow_revision: bool = typer.Option(False, "--allow-revision",
                                             help="With --resume: continue a log written under "
                                                  "another revision of the spec."),
         lang: str = typer.Option("en", "--lang", metavar="LANGUAGE", help="Language of the play-by-play and of the "
                                  "actions offered (one of the game's text files; not en needs "
                                  "the site extra)."),
         quiet: bool = typer.Option(False, "--quiet", help="Print only the end line (score and "
                                    "returns), not the header, play-by-play and board."),
         summary: bool = typer.Option(False, "--summary", help="After the end line, the match's "
                                      "statistics: plies, dice rolls, each team's actions by kind."),
         no_hints: bool = typer.Option(False, "--no-hints", help="Do not list your legal actions: "
                                       "type each move's notation (a refusal still names its rule; "
                                       "the match and its log are the same)."),
         option: list[str] = OptionList):
    """Play a match: bot against bot by default, or people with --human.

    At your turn type an option's number or notation (any case; with --no-hints the notation alone), or: ? or help, board, state, u or undo, s or save, q or quit (saves to --log, else to a new GAME-SEED.log here; Ctrl-C too)."""
    def body():
        from rulecraft.play import play_match
        from rulecraft.runtime.logs import read_log, replay
        from rulecraft.runtime.match import Match
        _check_bot(bot or "greedy")
        _output_path(log, "--log", keep=resume or Path(os.devnull))
        options = _options(option)
        chosen_bot = bot
        if resume is not None:
            saved = read_log(str(resume))
            _check_resumed(saved.header, seed, options)
            loaded = _game_of_log(game, saved.header)
            replayed = replay(loaded, saved, allow_revision=allow_revision)
            match, options = replayed.match, saved.header.options
            chosen_bot = bot or saved.header.bot
            _check_bot(chosen_bot or "greedy")
            if replayed.waiting is not None:
                console.print(f"the secret choice of {replayed.waiting['actor']} (ply "
                              f"{replayed.waiting['ply']}) was not revealed when the match was saved: "
                              "it is made again (a bot chooses as before, a person anew)",
                              highlight=False, markup=False, soft_wrap=True)
            log_path = str(log or resume)
        else:
            loaded = _game(game, options)
            match = Match(loaded, seed if seed is not None else random.SystemRandom().randrange(10**9))
            log_path = str(log) if log else None
        asked = [flag for flag, given in (("--seed", seed is not None), ("--log", log),
                                          ("--resume", resume)) if given]
        if asked:
            _check_untimed(chosen_bot or "greedy", " and ".join(asked))
        humans = set()
        for team in human or []:
            if team not in loaded.teams:
                raise InputError(f"no team '{team}' in {loaded.id} (teams: {', '.join(loaded.teams)})",
                                     code="RC108")
            humans.add(loaded.teams.index(team))
        _check_sides(loaded, chosen_bot or "greedy", humans)
        narrator = _narrator(loaded, game, lang, options)
        quit_path = _quit_path(loaded.id, match.seed) if humans and log_path is None else None
        play_match(match, humans, chosen_bot or "greedy", console, log_path=log_path,
                   narrator=narrator, language=lang, quit_path=quit_path, quiet=quiet,
                   summary=summary, hints=not no_hints)
    _guard(body)


def _check_resumed(header, seed: int | None, options: dict) -> None:
    """Refuse (RC112) a ``--seed`` or ``-O`` that differs from the resumed log's: the match
    continues with the log's seed and options; the same values are accepted."""
    conflicts = [f"--seed {seed} (the log's seed is {header.seed})"] if seed not in (None, header.seed) else []
    conflicts += [f"-O {name}={value} (the log's: {header.options.get(name, 'not set')})"
                  for name, value in options.items() if str(header.options.get(name)) != value]
    if conflicts:
        raise InputError(f"--resume continues the match with the log's seed and options; "
                         f"{'; '.join(conflicts)}: leave them out", code="RC112")


def _quit_path(game_id: str, seed: int) -> str:
    """Where a match played without ``--log`` is saved when the person quits: a new file
    ``<game>-<seed>.log`` in the working folder (``-2``, ``-3``, … when taken), checked before
    play starts (RC111 when the folder cannot be written)."""
    path, number = Path(f"{game_id}-{seed}.log"), 1
    while path.exists():
        number += 1
        path = Path(f"{game_id}-{seed}-{number}.log")
    _output_path(path.absolute(), "the save file")
    return str(path)


def _game_of_log(game: str, header):
    """The game a log is replayed on: ``game`` (a name or path) when given, else the log's own
    (a name only: the log is untrusted); under the log's options. Raises
    :class:`~rulecraft.errors.LogError` when ``game`` is another game than the log's (checked
    before its options are applied) or the log's game is no name."""
    from rulecraft.errors import LogError
    if game is not None:
        other = _game(game, {})
        if other.id != header.game:
            raise LogError(f"this log is of the game '{header.game}', not '{other.id}'")
    elif not re.fullmatch(r"[A-Za-z0-9][\w-]{0,63}", header.game, flags=re.ASCII):
        raise LogError(f"the log names its game {header.game[:80]!r}, which is no game name "
                       "(a log does not choose which file is read); give the game with --game")
    return _game(game or header.game, header.options)


@app.command(name="replay")
def replay_command(log: Path = typer.Argument(..., help="A match log written by --log."),
                   game: str = typer.Option(None, help="Game name or path (default: the log's game)."),
                   allow_revision: bool = typer.Option(False, "--allow-revision",
                                                       help="Replay a log written under another "
                                                            "revision of the spec.")):
    """Re-run a match log, verifying every step; names the first line that diverges."""
    def body():
        from rulecraft.runtime.logs import read_log, replay
        saved = read_log(str(log))
        loaded = _game_of_log(game, saved.header)
        replayed = replay(loaded, saved, allow_revision=allow_revision)
        console.print(f"{log}: {replayed.replayed} plies replayed and verified; {replayed.summary()}",
                      markup=False, soft_wrap=True, highlight=False)
    _guard(body)


@app.command()
def scenario(game: str = typer.Argument(..., help="Game name or path."),
             only: str = typer.Option(None, "--id", help="Run only this scenario.")):
    """Run a game's scenarios (its executable examples); a failure names the step and the value."""
    def body():
        from rulecraft.compiler import find_game
        from rulecraft.runtime.scenario import load_scenarios, run_scenario
        folder = find_game(game).parent
        chosen = [s for s in load_scenarios(folder) if only is None or s.id == only]
        if not chosen:
            raise ScenarioError(f"no scenario{' ' + only if only else ''} in {folder}", code="RC602")
        failed = 0
        for item in chosen:
            try:
                run_scenario(_game(str(folder), item.options), item)
                console.print(f"[green]ok[/green]   {item.id}  {item.title}", soft_wrap=True)
            except RulecraftError as error:
                failed += 1
                console.print(f"[red]FAIL[/red] {item.id}  {error.message}", highlight=False,
                              soft_wrap=True)
        console.print(f"{len(chosen) - failed} passed, {failed} failed")
        if failed:
            raise typer.Exit(1)
    _guard(body)


@app.command()
def actions(game: str = typer.Argument(..., help="Game name or path."), option: list[str] = OptionList):
    """Print the game's action encoding: every action id with its notation."""
    def body():
        loaded = _game(game, _options(option))
        for action_id, notation in loaded.action_table():
            console.print(f"{action_id:>6}  {notation}", highlight=False, markup=False)
    _guard(body)


@app.command()
def simulate(game: str = typer.Argument(..., help="Game name or path."),
             games: int = typer.Option(100, "--games", "-n", min=1, help="Matches to play."),
             seed: int = typer.Option(0, help="Seed of the batch: match i is seeded from (seed, i) alone."),
             jobs: int = typer.Option(1, "--jobs", "-j", min=1,
                                      help="Worker processes (at most the number of CPUs helps)."),
             bot: str = typer.Option("random", help="Bot for every team: random, greedy, mcts[:N] or ismcts[:N] "
                                              "(N search iterations, default 200), or per team: "
                                              "home=mcts:200,away=greedy."),
             json_file: Path = typer.Option(None, "--json", help="Also write the summary and every "
                                                                 "match's seed and result here."),
             option: list[str] = OptionList):
    """Play many seeded bot-against-bot matches, in parallel processes, and sum up the results."""
    def body():
        from functools import partial
        from rulecraft.runtime.batch import play_batch
        _check_bot(bot)
        _check_untimed(bot, "a simulation's seeded matches")
        _output_path(json_file, "--json")
        options = _options(option)
        _check_sides(_game(game, options), bot)
        with working(errors, f"playing {games} matches"):
            batch = play_batch(partial(_game, game, options), games, seed, jobs=jobs, bot=bot)
        summary = batch.summary()
        console.print(f"{batch.game}, {games} matches, {bot} bots, seed {seed}, {jobs} process"
                      f"{'es' if jobs > 1 else ''}: {batch.seconds:.2f} s, "
                      f"{summary['games_per_s']:,.1f} games/s", highlight=False, soft_wrap=True)
        table = Table("team", "mean return", "wins", "draws", "losses")
        for column in table.columns[1:]:
            column.justify = "right"
        for team, result in summary["teams"].items():
            table.add_row(team, f"{result['mean_return']:+.3g}",
                          *(str(result[key]) for key in ("wins", "draws", "losses")))
        console.print(table)
        plies = summary["plies"]
        flags = "".join(f" -O {name}={value}" for name, value in options.items())
        console.print(f"plies per match: mean {plies['mean']:.1f}, min {plies['min']}, max {plies['max']}\n"
                      f"one match alone: rulecraft play {game} --bot {bot}{flags} --seed SEED "
                      "(each match's SEED is in --json)", highlight=False, markup=False, soft_wrap=True)
        if json_file is not None:
            json_file.write_text(json.dumps(batch.to_json(), indent=1) + "\n", encoding="utf-8")
            console.print(f"wrote {json_file}", highlight=False, markup=False)
    _guard(body)


@app.command()
def ladder(game: str = typer.Argument(..., help="Game name or path (two teams)."),
           games: int = typer.Option(20, "--games", "-n", min=2,
                                     help="Matches per rung, half with each seating."),
           seed: int = typer.Option(0, help="Seed of the ladder: every match is seeded from it."),
           jobs: int = typer.Option(1, "--jobs", "-j", min=1,
                                    help="Worker processes (the figures do not depend on it)."),
           rungs: str = typer.Option("random,greedy,mcts:50,mcts:400",
                                     help="Bots, weakest first, separated by commas."),
           json_file: Path = typer.Option(None, "--json", help="Also write the figures here."),
           option: list[str] = OptionList):
    """Check that each rung of a bot ladder beats the one below it (95 % Wilson interval)."""
    def body():
        from functools import partial
        from rulecraft.runtime.ladder import ladder_json, ladder_problem, run_ladder
        names = [rung.strip() for rung in rungs.split(",")]
        _output_path(json_file, "--json")
        options = _options(option)
        loaded = _game(game, options)
        problem = ladder_problem(loaded, names)
        if problem is not None:
            raise InputError(problem, code="RC107")
        with working(errors, f"playing the ladder, {games} matches per rung"):
            results = run_ladder(partial(_game, game, options), names, games, seed, jobs=jobs)
        console.print(f"{loaded.id}, {games} matches per rung (half each seating), seed {seed}",
                      highlight=False, soft_wrap=True)
        table = Table("weaker", "stronger", "wins", "draws", "losses", "score", "95 % interval",
                      "holds")
        for column in table.columns[2:]:
            column.justify = "right"
        for rung in results:
            table.add_row(rung.weaker, rung.stronger, str(rung.wins), str(rung.draws),
                          str(rung.losses), f"{rung.score:.3f}", f"{rung.low:.3f} – {rung.high:.3f}",
                          "yes" if rung.holds else "[red]no[/red]")
        console.print(table)
        console.print("a rung holds when the interval's lower bound is above 0.5 or the stronger "
                      "lost no match", highlight=False, soft_wrap=True)
        if json_file is not None:
            json_file.write_text(json.dumps(ladder_json(loaded, results, games, seed), indent=1)
                                 + "\n", encoding="utf-8")
            console.print(f"wrote {json_file}", highlight=False, markup=False)
    _guard(body)


@app.command()
def bench(games: list[str] = typer.Argument(None, metavar="GAME",
                                            help="Games to measure (default: every game)."),
          rounds: int = typer.Option(5, min=1, help="Interleaved rounds; every figure is their median."),
          playouts: int = typer.Option(200, "--games", min=1, help="Random games per game and round."),
          calls: int = typer.Option(5000, min=1, help="Sampled states for the per-call costs."),
          compile_repeats: int = typer.Option(3, min=1, help="Compilations and cached loads per game "
                                                             "and round."),
          min_seconds: float = typer.Option(1.0, min=0.0, help="Least seconds each side of a peer "
                                            "pairing plays per round; a one-process batch of the "
                                            "--jobs row lasts about twice as long."),
          site: bool = typer.Option(True, "--site/--no-site", help="Also time the rulebook site "
                                                                   "build (slow)."),
          json_file: Path = typer.Option(None, "--json", help="Also write the results to this JSON file."),
          profile: str = typer.Option(None, "--profile", metavar="GAME",
                                      help="Instead of measuring: play --games seeded random matches "
                                           "of GAME under cProfile and print its hottest generated "
                                           "and runtime functions."),
          top: int = typer.Option(25, min=1, help="Functions shown by --profile."),
          baseline: Path = typer.Option(None, "--baseline", metavar="DIR",
                                        help="Also pair each game with the engine a previous release "
                                             "generated, DIR/<game>.py (benchmarks/export_engines.py).")):
    """Measure the games' speed against peers and the performance targets (see docs/benchmarks.md)."""
    def body():
        from rulecraft.compiler import find_game
        try:
            from rulecraft.benchmarks.harness import Config, run, write_json
            from rulecraft.benchmarks.profile import profile_game, profile_table
            from rulecraft.benchmarks.report import renderables
        except ModuleNotFoundError as error:
            if not (error.name or "").startswith("rulecraft.benchmarks"):
                raise
            raise RulecraftError("the benchmark harness (rulecraft.benchmarks) is not installed; "
                                 "reinstall from the checkout: python3 -m pip install -e .") from None
        if profile is not None:
            find_game(profile)
            hot, total = profile_game(profile, playouts)
            console.print(profile_table(profile, hot, total, playouts, top), highlight=False)
            return
        _output_path(json_file, "--json")
        for name in games or []:
            find_game(name)
        config = Config(games=tuple(games or ()), rounds=rounds, playouts=playouts, calls=calls,
                        compile_repeats=compile_repeats, min_seconds=min_seconds, site=site,
                        baseline=None if baseline is None else str(baseline))
        with working(errors, "measuring", lambda text: errors.print(text, style="dim", highlight=False,
                                                                    markup=False)) as update:
            report = run(config, progress=update)
        for renderable in renderables(report):
            console.print(renderable, highlight=False)
        if json_file is not None:
            write_json(report, json_file)
            console.print(f"wrote {json_file}", highlight=False, markup=False)
        if any(f"games/{name}" in report["skipped"] for name in games or ()):
            raise typer.Exit(1)
    _guard(body)


site_app = typer.Typer(no_args_is_help=True,
                       help="Publish the games of rulespecs/ as a multilingual rulebook website.")
app.add_typer(site_app, name="site")
LanguageList = typer.Option(None, "--lang", "-l", help="Only this language (repeatable; default: all six).")
RootOption = typer.Option(None, "--root", help="Folder holding rulespecs/ (default: the games found here).")
GameList = typer.Option(None, "--game", "-g", help="Only this game: a name or a game folder, also one "
                        "outside rulespecs/ (repeatable; default: every game of rulespecs/).")


@site_app.command("build")
def site_build(out: Path = typer.Option(Path("build/site"), "--out", help="Folder for the HTML site."),
               source: Path = typer.Option(Path("build/site-src"), "--source",
                                           help="Folder for the generated Markdown, SVG and JSON."),
               site_url: str = typer.Option("http://127.0.0.1:8000/", "--site-url",
                                            help="The URL the site will be served at."),
               lang: list[str] = LanguageList, root: Path = RootOption, game: list[str] = GameList,
               pdf: bool = typer.Option(False, "--pdf", help="Also print each game in each language as "
                                        "PDFs into OUT/pdf/: GAME-LANG.pdf (A4) and GAME-LANG-quick.pdf "
                                        "(the one-page quick reference); needs Chromium.")):
    """Build every game's rulebook (all six languages) into a static site; fails on any problem."""
    def body():
        from rulecraft.site.build import build_site
        with working(errors, "building the rulebook site" + (" and its PDFs" if pdf else "")):
            result = build_site(root, out=out, source=source, site_url=site_url, languages=lang, games=game,
                                pdf=pdf)
        site_seconds = result.seconds - result.pdf_seconds
        console.print(f"built {', '.join(result.games)} in {len(result.languages)} languages into "
                      f"{result.site_dir} in {site_seconds:.1f} s (pages {result.generate_seconds:.1f} s, "
                      f"MkDocs {site_seconds - result.generate_seconds:.1f} s)", highlight=False, markup=False)
        if result.pdfs:
            console.print(f"printed {len(result.pdfs)} PDFs into {result.site_dir / 'pdf'} in "
                          f"{result.pdf_seconds:.1f} s", highlight=False, markup=False)
        if result.skipped:
            console.print(f"not published yet (no English rulebook text): {', '.join(result.skipped)}",
                          highlight=False, markup=False)
    _guard(body)


@site_app.command("serve")
def site_serve(port: int = typer.Option(8000, min=1, max=65535, help="Port on 127.0.0.1."),
               lang: list[str] = LanguageList, root: Path = RootOption, game: list[str] = GameList):
    """Build the site, serve it on 127.0.0.1 and rebuild it whenever a spec or text changes."""
    def body():
        from rulecraft.site.serve import serve
        try:
            serve(root, port=port, languages=lang, games=game,
                  report=lambda line: console.print(line, highlight=False, markup=False))
        except KeyboardInterrupt:
            console.print("stopped")
    _guard(body)


@site_app.command("check")
def site_check(lang: list[str] = LanguageList, root: Path = RootOption, game: list[str] = GameList):
    """Check every text: missing or stale translations, vanished rule ids, broken placeholders.
    A game without an English rulebook yet is left out, as the build leaves it out, unless it is
    named with --game (then its worklist is every text it still needs)."""
    def body():
        from rulecraft.site.book import Book, game_folders
        from rulecraft.site.check import check_site, worklist
        from rulecraft.site.texts import site_languages
        folders = game_folders(root, game)
        waiting = [] if game else [folder.name for folder in folders if not Book(folder).publishable]
        if waiting:
            console.print(f"not published yet (no English rulebook text), not checked: {', '.join(waiting)}",
                          highlight=False, markup=False)
        problems = check_site([f for f in folders if f.name not in waiting], site_languages(lang))
        if problems:
            console.print(worklist(problems), highlight=False, markup=False, soft_wrap=True)
            errors.print(f"{len(problems)} text problem(s): the rulebook is not ready", highlight=False)
            raise typer.Exit(1)
        console.print("every text is complete and current in every language", highlight=False)
    _guard(body)


def main():  # pragma: no cover - console entry point
    app()
