"""OpenSpiel adapter: any compiled rulecraft game as a pyspiel Python game.

Implements OpenSpiel's Python game API the way ``open_spiel/python/games/kuhn_poker.py`` does: a
``pyspiel.GameType`` and ``pyspiel.GameInfo`` read from the rule tables, a ``pyspiel.Game`` and a
``pyspiel.State`` subclass over the generic runtime, a Python observer for observations and
information states (strings and tensors), and :func:`register_game`, which registers a game under a
name with the spec's options as its parameters. Nothing here knows any game.

How a rulecraft game maps onto OpenSpiel's model (decided from the rule tables alone):

* Dynamics are sequential. A secret choice (:meth:`State.is_secret`: the listed teams choose one
  after another, each choice hidden from the others until revealed) is a sequence of moves that
  the other players do not observe: OpenSpiel's way of modelling simultaneous moves in a
  sequential imperfect-information game (as its ``turn_based_simultaneous_game`` transform does),
  which also keeps algorithms that refuse simultaneous games, such as MCTS, usable.
* Chance is explicit when the spec declares dice: a chance node's outcomes are the rolled die's
  distinct faces, ids ``0 … n - 1``, with their exact probabilities.
* Information is imperfect when a state field is visible to its owner alone or the turn has a
  secret choice, perfect otherwise.
* Utility is declared general-sum. Whether the end formula's returns always sum to zero (or to a
  constant) is not knowable from the spec without playing out every position, and a false
  zero-sum declaration would mislead algorithms, so the safe declaration is made; the bounds are
  the spec's ``end: range``. Rewards come only at the end (terminal reward model).
* ``max_game_length`` is the spec's ``limits: max_plies``. It counts every ply, chance outcomes
  included, so it also bounds OpenSpiel's count of decisions. A match that reaches it is cut
  there: the state is terminal with the spec's ``on_limit`` returns (OpenSpiel's own games end
  at their maximum length the same way).

Observation (``perfect_recall=False``): the list :meth:`State.observation` gives the player (other
teams' unrevealed secret fields read -1) as a float32 tensor, and as text naming each field.
Information state (``perfect_recall=True``): the player's action-observation history, so it has
perfect recall. In a perfect-information game that is the history of action ids, chance outcomes
included (as OpenSpiel's own games have it). In an imperfect-information game each ply shows who
acted, the action when the player may see it (its own, and other teams' open choices; not other
teams' secret choices, nor chance outcomes as such) and how the player's observation changed,
which is how a revealed secret or a die's result reaches it. The tensor form is offered when its
fixed length (a row per ply up to ``max_plies``) stays within :data:`INFO_STATE_TENSOR_LIMIT`
floats; otherwise OpenSpiel's tools fall back to the observation tensor.

A state's Python attributes are plain data: the runtime state (which pickles as its game's id,
options and values) and, in imperfect-information games, the per-ply log of what each player saw.
OpenSpiel clones a state by deep-copying them and serialises it by pickling them.
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Iterator

import numpy as np
import pyspiel

from rulecraft.runtime.engine import SLOT_PC, Game, State
from rulecraft.runtime.registry import register as remember_game
from rulecraft.runtime.render import render_text
from rulecraft.limits import INFO_STATE_TENSOR_LIMIT


# ---------- the game's type and info ----------

def short_name(slug: str) -> str:
    """OpenSpiel's name for the game ``slug``: ``rulecraft_`` and the slug, ``_`` for non-word
    characters."""
    return "rulecraft_" + re.sub(r"\W", "_", slug)


def has_hidden_information(game: Game) -> bool:
    """True when a field is visible to its owner alone or the turn has a secret choice."""
    rules = game.rules
    return (any(f.visible == "owner" for f in rules.fields)
            or any(node.kind == "secret" for node in rules.nodes))


def _ply_width(game: Game) -> int:
    """Floats per ply in the information-state tensor: actor, action (and the observation after)."""
    return 2 + (game.rules.slots if has_hidden_information(game) else 0)


def info_state_tensor_size(game: Game) -> int:
    """The information-state tensor's length: player one-hot, observation, one row per ply."""
    return game.num_teams + game.rules.slots + game.max_game_length * _ply_width(game)


def make_game_type(name: str, game: Game) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of ``game`` registered as ``name`` (see the module docstring).

    The parameter specification is ``game``'s options with their values, so build ``game`` with
    the default options.
    """
    kinds = pyspiel.GameType
    rules = game.rules
    return pyspiel.GameType(
        short_name=name,
        long_name=f"rulecraft {rules.title}",
        dynamics=kinds.Dynamics.SEQUENTIAL,
        chance_mode=(kinds.ChanceMode.EXPLICIT_STOCHASTIC if rules.dice
                     else kinds.ChanceMode.DETERMINISTIC),
        information=(kinds.Information.IMPERFECT_INFORMATION if has_hidden_information(game)
                     else kinds.Information.PERFECT_INFORMATION),
        utility=kinds.Utility.GENERAL_SUM,
        reward_model=kinds.RewardModel.TERMINAL,
        max_num_players=game.num_teams,
        min_num_players=game.num_teams,
        provides_information_state_string=True,
        provides_information_state_tensor=info_state_tensor_size(game) <= INFO_STATE_TENSOR_LIMIT,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(rules.options))


def make_game_info(game: Game) -> pyspiel.GameInfo:
    """The ``pyspiel.GameInfo`` of ``game``: action counts, players, utility bounds, length."""
    low, high = game.rules.returns_range
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions,
        max_chance_outcomes=game.max_chance_outcomes,
        num_players=game.num_teams,
        min_utility=float(low),
        max_utility=float(high),
        utility_sum=None,
        max_game_length=game.max_game_length)


# ---------- the game ----------

class RulecraftGame(pyspiel.Game):
    """A compiled rulecraft game, under one set of options, as a pyspiel game.

    Takes the runtime :class:`Game`, the registered ``pyspiel.GameType`` and the game parameters
    (the options). The runtime game is remembered by :mod:`rulecraft.runtime.registry`, so a
    pickled state of it finds it again.
    """

    def __init__(self, runtime_game: Game, game_type: pyspiel.GameType, params: dict | None = None):
        super().__init__(game_type, make_game_info(runtime_game), dict(params or {}))
        self.runtime_game = runtime_game
        self.hidden = has_hidden_information(runtime_game)
        self.initial_state = runtime_game.new_initial_state()
        self.initial_observations = [self.initial_state.observation(team)
                                     for team in range(runtime_game.num_teams)]
        remember_game(runtime_game)

    def new_initial_state(self) -> "RulecraftState":
        """The state at the start of the game (advanced to its first decision or chance node)."""
        return RulecraftState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer for ``iig_obs_type``: the observation, or with perfect recall the
        information state. Raises ValueError for observation parameters or for an observation
        type other than a player's own view of public and private information."""
        if params:
            raise ValueError(f"rulecraft observers take no parameters; got {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("rulecraft games observe from one player's point of view "
                             "(public_info=True, private_info=SINGLE_PLAYER)")
        if kind.perfect_recall:
            return InformationStateObserver(self)
        return ObservationObserver(self)


# ---------- the state ----------

class PlyLog:
    """What each player saw, ply by ply, in an imperfect-information game (plain data).

    ``plies[p]`` holds, per ply, ``(actor, action, changes)`` as player ``p`` saw it: ``action``
    is None when hidden from ``p``, ``changes`` the ``(slot, value)`` pairs of ``p``'s observation
    that the ply changed. ``tokens[p]`` holds the same plies as information-state text. Entries
    are immutable, so a deep copy (OpenSpiel's clone) copies only the lists.
    """

    def __init__(self, players: int):
        self.plies = [[] for _ in range(players)]
        self.tokens = [[] for _ in range(players)]

    def record(self, actor: int, action: int, secret: bool, before: list, after: list) -> None:
        """Log one ply: its actor and action, and each player's observation before and after."""
        for player, (old, new) in enumerate(zip(before, after)):
            shown = action if actor == player or (actor >= 0 and not secret) else None
            changes = tuple((slot, value) for slot, (was, value) in enumerate(zip(old, new))
                            if was != value)
            token = f"{actor}:{'?' if shown is None else shown}"
            if changes:
                token += "{" + ",".join(f"{slot}={value}" for slot, value in changes) + "}"
            self.plies[player].append((actor, shown, changes))
            self.tokens[player].append(token)

    def __deepcopy__(self, memo) -> "PlyLog":
        copy = PlyLog(0)
        copy.plies = [entries[:] for entries in self.plies]
        copy.tokens = [entries[:] for entries in self.tokens]
        return copy


class RulecraftState(pyspiel.State):
    """A rulecraft runtime state behind OpenSpiel's state API.

    ``state`` is the runtime :class:`State`; ``seen`` is the :class:`PlyLog` of an
    imperfect-information game (None in a perfect-information one, whose history says it all).
    """

    def __init__(self, game: RulecraftGame):
        super().__init__(game)
        self.state = game.initial_state.clone()
        self.seen = PlyLog(game.num_players()) if game.hidden else None

    def current_player(self) -> int:
        """The acting player, ``pyspiel.PlayerId.CHANCE`` (-1) or ``TERMINAL`` (-4)."""
        return self.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """The acting player's legal action ids, ascending (OpenSpiel asks only for that player)."""
        return self.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs; raises RulecraftError if this is no chance node."""
        return self.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Apply a decision or chance outcome; raises IllegalActionError if it is illegal."""
        state = self.state
        if self.seen is None:
            state.apply(action)
            return
        actor, secret = state.current_player(), state.is_secret()
        teams = range(state.game.num_teams)
        before = [state.observation(team) for team in teams]
        state.apply(action)
        self.seen.record(actor, action, secret, before, [state.observation(team) for team in teams])

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's notation from the spec (``place b2``); a chance outcome names a die face."""
        if player >= 0:
            return self.state.game.action_notation(action)
        if self.state.is_chance_node():
            return self.state.action_notation(action)
        return f"chance outcome {action}"

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.state.is_terminal()

    def returns(self) -> list[float]:
        """Each player's return: the spec's end formula when terminal, zeros before."""
        return self.state.returns()

    def __str__(self) -> str:
        """The whole state as text (board and every field): a referee's view, for debugging."""
        return _referee_view(self.state.game, tuple(self.state.s))


@functools.lru_cache(maxsize=1024)
def _referee_view(game: Game, values: tuple) -> str:
    """:func:`render_text` of the state with these values; remembered, because OpenSpiel's checks
    print a state and its clone again and again."""
    return render_text(State(game, list(values), 0))


# ---------- observations and information states ----------

def observation_text(state: State, team: int) -> str:
    """What ``team`` observes of ``state`` as one line: the flow position, then each field.

    A pure function of :meth:`State.observation`, so it shows nothing the observation hides; a
    field visible to its owner alone and not yet revealed is marked ``(unrevealed)``; other
    teams' cells of it read -1 (or none).
    """
    game = state.game
    values = state.observation(team)
    if state.is_terminal():
        acting = "game over"
    elif state.is_chance_node():
        acting = "chance"
    else:
        acting = game.display("team", state.current_player())
    parts = [f"{state.node().phase} (step {values[SLOT_PC]}), to act: {acting}"]
    for f in game.rules.fields:
        if not f.size:
            continue
        secret = f.visible == "owner" and (f.reveal_slot is None or not values[f.reveal_slot])
        cells = ",".join(game.display(f.type, value) for value in values[f.base:f.base + f.size])
        parts.append(f"{f.name}{' (unrevealed)' if secret else ''}={cells}")
    return "; ".join(parts)


def _plies(state: RulecraftState, player: int) -> Iterator[tuple]:
    """``player``'s view of each ply: ``(actor, action or None, observation or None)``.

    ``action`` is None when ``player`` may not see it; ``observation``, in an imperfect-information
    game only, is its whole observation after the ply (one list updated in place: read it before
    the next step).
    """
    if state.seen is None:
        for item in state.full_history():
            yield item.player, item.action, None
        return
    observation = list(state.get_game().initial_observations[player])
    for actor, action, changes in state.seen.plies[player]:
        for slot, value in changes:
            observation[slot] = value
        yield actor, action, observation


class ObservationObserver:
    """A player's observation (OpenSpiel's PyObserver protocol: ``tensor``, ``dict``,
    ``set_from``, ``string_from``); see the module docstring."""

    def __init__(self, game: RulecraftGame):
        self.tensor = np.zeros(game.runtime_game.rules.slots, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RulecraftState, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` observes it."""
        self.tensor[:] = state.state.observation(player)

    def string_from(self, state: RulecraftState, player: int) -> str:
        """``state`` as ``player`` observes it, as text (:func:`observation_text`)."""
        return observation_text(state.state, player)


class InformationStateObserver:
    """A player's information state with perfect recall (OpenSpiel's PyObserver protocol).

    The tensor, when the game type offers one, is: the player one-hot, its current observation,
    then a row per ply up to ``max_plies`` — actor + 2 (0: no ply yet, 1: chance), action + 1 (0:
    not seen) and, in an imperfect-information game, the player's observation after the ply.
    """

    def __init__(self, game: RulecraftGame):
        runtime_game = game.runtime_game
        self.max_plies = runtime_game.max_game_length
        if not game.get_type().provides_information_state_tensor:
            self.tensor, self.dict = None, {}
            return
        teams, slots = runtime_game.num_teams, runtime_game.rules.slots
        self.tensor = np.zeros(info_state_tensor_size(runtime_game), np.float32)
        self.dict = {"player": self.tensor[:teams],
                     "observation": self.tensor[teams:teams + slots],
                     "plies": self.tensor[teams + slots:].reshape(self.max_plies,
                                                                   _ply_width(runtime_game))}

    def set_from(self, state: RulecraftState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s information state in ``state``.

        Raises ValueError when the game has run past its declared ``max_plies``.
        """
        if state.state.ply > self.max_plies:
            raise ValueError(f"the game has run {state.state.ply} plies, past its declared "
                             f"limits: max_plies: {self.max_plies}")
        self.tensor.fill(0)
        self.dict["player"][player] = 1
        self.dict["observation"][:] = state.state.observation(player)
        for row, (actor, action, observation) in zip(self.dict["plies"], _plies(state, player)):
            row[0] = actor + 2
            row[1] = 0 if action is None else action + 1
            if observation is not None:
                row[2:] = observation

    def string_from(self, state: RulecraftState, player: int) -> str:
        """``player``'s information state as text: ``p<player>`` and then, in a perfect-information
        game, the history of action ids (as OpenSpiel's own games have it); in an
        imperfect-information game ``actor:action`` per ply (``?`` for an action it did not see)
        with its observation's changes in braces."""
        if state.seen is None:
            return f"p{player} {state.history_str()}"
        return " ".join([f"p{player}", *state.seen.tokens[player]])


# ---------- registration ----------

def register_game(name: str, build: Callable[[dict], Game]) -> pyspiel.GameType:
    """Register a rulecraft game with OpenSpiel as ``name``; returns its ``pyspiel.GameType``.

    ``build(options)`` returns the runtime :class:`Game` for a dict of option values (``{}``: the
    defaults); it is called once now, for the game type and parameters, and again by every
    ``pyspiel.load_game(name + "(option=value,...)")``, with all the options. Registering a name
    again replaces the earlier registration.
    """
    game_type = make_game_type(name, build({}))

    # OpenSpiel keeps the creator until the process ends. A class (as kuhn_poker.py registers)
    # lives in a reference cycle and is never freed then; a bare function would be freed after
    # the interpreter has shut down and abort the exit.
    class Registered(RulecraftGame):
        """The game registered as ``name``: OpenSpiel calls the class with the parameters."""

        def __init__(self, params=None):
            super().__init__(build(dict(params or {})), game_type, params)

    Registered.__name__ = Registered.__qualname__ = f"RulecraftGame_{name}"
    pyspiel.register_game(game_type, Registered)
    return game_type
