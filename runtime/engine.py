"""The generic runtime: plays any compiled rule tables. It knows no game.

A :class:`State` is plain data: a flat list of integers (the layout is in the generated module)
and the ply count. It says who acts at every point — a team, chance, or nobody (terminal) — lists
the legal actions as stable integer ids with a notation, applies an action or refuses it naming
the rule that forbids it (leaving the state unchanged), and reports returns. Chance outcomes are
actions too, so a state is a pure function of the options and the action history.

Vocabulary follows OpenSpiel (game state, legal actions, chance node, ply, returns).
"""

from __future__ import annotations

import bisect
import hashlib
import json
import operator

from rulecraft.errors import (DeadEndError, IllegalActionError, LogError, PlayError, Position, RuleFailure,
                              RuleFault, RulecraftError)
from rulecraft.runtime.tables import (FINISH, GAME_OVER, RETURN, SLOT_DONE, SLOT_PC, SLOT_PENDING,
                                      SLOT_RETURN, STOP, TRUNCATED, RuleTables)
from rulecraft.runtime.template import FieldTemplate
from rulecraft.limits import MAX_AUTOMATIC_STEPS, MAX_SAVED_STATE_CHARS

CHANCE = -1
TERMINAL = -4
RULE_FAILURES = (ArithmeticError, LookupError, TypeError, ValueError)  # a formula failed to compute


class Game:
    """A playable game: compiled rule tables plus the generic machinery around them.

    ``num_distinct_actions`` is the size of the decision action space; chance outcomes are
    numbered ``0 … max_chance_outcomes - 1`` at each chance node.
    """

    def __init__(self, rules: RuleTables):
        self.rules = rules
        self.teams = rules.teams
        self.num_teams = len(rules.teams)
        self.num_distinct_actions = max(rules.num_distinct_actions, 1)
        self.max_chance_outcomes = max((len(d.outcomes) for d in rules.dice.values()), default=0)
        self.max_game_length = rules.max_plies
        self._action_bases = [a.base for a in rules.actions]
        self._decoded: dict[int, tuple] = {}     # action id -> (ActionDef, parameter values)
        self._ranges = None                      # per slot, the values it may hold
        self._field = {f.name: f for f in rules.fields}
        self._hidden = [f for f in rules.fields if f.visible == "owner"]
        self._notations = {a.name: parse_notation(a) for a in rules.actions}
        self._frame_empty = [(f.slot, _empty(f.type)) for f in rules.frame]
        # (return node, action name) -> the phase whose choice offered that action: an action's
        # then-steps return into that phase, which is not entered anew
        self._offering_phase = {(n.next, rules.actions[a].name): n.phase for n in rules.nodes
                                if n.kind in ("choose", "secret") and not n.in_action for a in n.actions}

    @property
    def id(self) -> str:
        """The game's id, from the spec's ``game: id:``."""
        return self.rules.game_id

    def new_initial_state(self, events: list | None = None) -> "State":
        """The state at the start of the game, advanced to its first decision or chance node.

        ``events`` (a list), when given, receives the events of the automatic steps on the way.
        Raises :class:`RuleFailure` (RC404, or RC405 for a :class:`RuleFault`) when a formula of
        the setup (an initial value, a step of ``setup:``, a trigger) fails, naming its spec line.
        """
        state = State(self, [0] * self.rules.slots, 0)
        try:
            state.s = self.rules.initial_state()
            state._advance(events, None)
        except RULE_ERRORS as error:
            raise rule_failure(state, error) from None
        return state

    # ---------- actions ----------
    def action_def(self, action_id: int):
        """The :class:`ActionDef` whose id range holds ``action_id``, or None."""
        if not 0 <= action_id < self.rules.num_distinct_actions:
            return None
        low, high = 0, len(self._action_bases) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self._action_bases[middle] <= action_id:
                low = middle
            else:
                high = middle - 1
        return self.rules.actions[low]

    def decoded(self, action_id: int) -> tuple:
        """``(ActionDef, parameter values)`` of a decision action id (remembered once computed).

        Raises TypeError when ``action_id`` is no action id of this game.
        """
        found = self._decoded.get(action_id)
        if found is None:
            definition = self.action_def(action_id)
            found = self._decoded[action_id] = (definition, definition.decode(action_id))
        return found

    def action_notation(self, action_id: int) -> str:
        """The human notation of a decision action id, e.g. ``place b2`` (no state needed)."""
        action = self.action_def(action_id)
        if action is None:
            return f"#{action_id}"
        return self._notations[action.name].fill(*notation_values(self, action, action_id))

    def notation_template(self, action) -> FieldTemplate:
        """The parsed ``notation:`` of an :class:`ActionDef` (see :mod:`rulecraft.runtime.template`)."""
        return self._notations[action.name]

    def action_table(self) -> list[tuple[int, str]]:
        """Every decision action id with its notation: the game's documented encoding."""
        return [(i, self.action_notation(i)) for i in range(self.rules.num_distinct_actions)]

    def display(self, kind: str, value: int) -> str:
        """A value of type ``kind`` as a person reads it (team and space names, 'none')."""
        if kind in ("int",):
            return str(value)
        if kind == "bool":
            return "true" if value else "false"
        if value < 0:
            return "none"
        names = {"team": self.rules.teams, "space": self.rules.spaces,
                 "piece": self.rules.piece_labels, "kind": self.rules.kinds}.get(kind)
        if names is None and kind.startswith("enum:"):
            names = self.rules.enums.get(kind[5:])
        return str(names[value]) if names is not None and value < len(names) else str(value)

    def broken_invariants(self, state: "State", before: "State | None" = None) -> list[str]:
        """Names of the spec's invariants that ``state`` breaks.

        ``holds`` invariants are checked on ``state``; ``never_decreases`` ones compare it with
        ``before`` (the state one ply earlier) when given.
        """
        broken = []
        for name, rule, kind, formula in self.rules.invariants:
            label = f"{name} (rule {rule})" if rule else name
            if kind == "holds":
                if not formula(state.s):
                    broken.append(label)
            elif before is not None and formula(state.s) < formula(before.s):
                broken.append(label)
        return broken

    def field(self, name: str):
        """The :class:`FieldDef` called ``name``; raises KeyError for an unknown field."""
        return self._field[name]

    # ---------- serialisation ----------
    def state_from_json(self, data) -> "State":
        """Rebuild a state from :meth:`State.to_json` output (a dict or a JSON string).

        Every value is checked against the game's state layout (:meth:`restore`). Raises
        :class:`RulecraftError` (RC502) when the data is not a state of this game, naming what
        does not fit.
        """
        try:
            if isinstance(data, (str, bytes)):
                if len(data) > MAX_SAVED_STATE_CHARS:
                    raise ValueError(f"it is longer than {MAX_SAVED_STATE_CHARS:,} characters")
                data = json.loads(data)
            if not isinstance(data, dict):
                raise ValueError("it is not a JSON object")
            if data.get("game") != self.id or data.get("spec") != self.rules.spec_hash:
                raise ValueError(f"it belongs to {data.get('game')!r}, spec {data.get('spec')!r}")
            values, ply = data["state"], data["ply"]
        except (ValueError, KeyError, RecursionError) as error:
            raise LogError(f"this is not a saved state of {self.id}: {error}", code="RC502") from None
        return self.restore(values, ply)

    def restore(self, values, ply) -> "State":
        """The state with slot ``values`` (a list of ints) at ``ply``, after checking that every
        value fits the game: control slots (flow position, game over, pending secret choices,
        return node), each field's type (entity indices within their sets or -1, booleans 0 or 1,
        whole numbers within 64 bits), revealed flags, the compiler's derived indexes, the ply
        within ``max_plies``; and that the rules can play on from it (who acts, legal actions,
        the invariants). Raises :class:`RulecraftError` (RC502) naming the first value that
        does not fit; used by :meth:`state_from_json` and unpickling.
        """
        problem = self._layout_problem(values, ply)
        state = None
        if problem is None:
            state = State(self, list(values), ply)
            problem = state._playable_problem()
        if problem is not None:
            raise LogError(f"this is not a saved state of {self.id}: {problem}", code="RC502")
        return state

    def _slot_ranges(self) -> list:
        """For each slot, the values it may hold: ``range`` objects, or None for a derived slot."""
        if self._ranges is None:
            rules = self.rules
            sizes = {"team": len(rules.teams), "space": len(rules.spaces),
                     "piece": len(rules.piece_labels), "kind": len(rules.kinds)}
            nodes = len(rules.nodes)
            ranges: list = [None] * rules.slots
            ranges[SLOT_PC] = range(nodes)
            ranges[SLOT_DONE] = range(TRUNCATED + 1 if rules.on_limit is not None else TRUNCATED)
            ranges[SLOT_PENDING] = range(1 << self.num_teams)
            ranges[SLOT_RETURN] = range(RETURN, nodes)
            def allowed(kind: str) -> range:
                if kind == "bool":
                    return range(2)
                if kind in sizes or kind.startswith("enum:"):
                    return range(-1, sizes.get(kind) or len(rules.enums.get(kind[5:], ())))
                return range(-(1 << 63), 1 << 63)
            for f in rules.fields:
                ranges[f.base:f.base + f.size] = [allowed(f.type)] * f.size
                if f.reveal_slot is not None:
                    ranges[f.reveal_slot] = range(2)
            for f in rules.frame:
                ranges[f.slot] = allowed(f.type)
            self._ranges = ranges
        return self._ranges

    def _layout_problem(self, values, ply) -> str | None:
        """Why ``values`` and ``ply`` are no state of this game's layout, or None."""
        if not isinstance(values, list) or len(values) != self.rules.slots:
            return f"its values are not a list of {self.rules.slots} whole numbers"
        if type(ply) is not int or not 0 <= ply <= self.rules.max_plies:
            return f"its ply {ply!r} is not a whole number from 0 to {self.rules.max_plies}"
        for slot, (value, allowed) in enumerate(zip(values, self._slot_ranges())):
            if type(value) is not int:
                return f"slot {slot} holds {_described(value)}, not a whole number"
            if allowed is not None and value not in allowed:
                return (f"{self._slot_name(slot)} (slot {slot}) holds {value}, outside "
                        f"{allowed.start}..{allowed.stop - 1}")
        return self._frame_problem(values)

    def _slot_name(self, slot: int) -> str:
        """What slot ``slot`` holds, in words (for error messages)."""
        control = {SLOT_PC: "the flow position", SLOT_DONE: "the game-over flag",
                   SLOT_PENDING: "the pending secret choices", SLOT_RETURN: "the return node"}
        if slot in control:
            return control[slot]
        for f in self.rules.fields:
            if f.base <= slot < f.base + f.size:
                return f.name if f.of is None else f"{f.name} of {self.display(f.of, slot - f.base)}"
            if slot == f.reveal_slot:
                return f"the revealed flag of {f.name}"
        for f in self.rules.frame:
            if f.slot == slot:
                return f"the action frame's {f.name}"
        return f"slot {slot}"

    def _frame_problem(self, values) -> str | None:
        """Why the action frame of ``values`` does not fit its flow position, or None: a slot
        holds a value exactly while the state stands in the then-steps of an action binding
        it (an entity parameter is then never none), and is cleared elsewhere."""
        if values[SLOT_DONE]:
            return None
        pc = values[SLOT_PC]
        for f, (slot, empty) in zip(self.rules.frame, self._frame_empty):
            if pc not in f.nodes and values[slot] != empty:
                return (f"{self._slot_name(slot)} (slot {slot}) holds {values[slot]} outside the "
                        "then-steps of the actions that set it")
            if pc in f.nodes and empty == -1 and values[slot] == -1:
                return f"{self._slot_name(slot)} (slot {slot}) holds none inside the then-steps that read it"
            if pc in f.nodes and f.type == "int" and not f.low <= values[slot] <= f.high:
                return (f"{self._slot_name(slot)} (slot {slot}) holds {values[slot]}, outside the "
                        f"parameter's range {f.low}..{f.high}")
        return None


class State:
    """A game state (see the module docstring). Cheap to clone: one list copy."""

    __slots__ = ("game", "s", "ply", "_legal", "_actor")

    def __init__(self, game: Game, values: list, ply: int):
        self.game = game
        self.s = values
        self.ply = ply
        self._legal = None
        self._actor = None

    def stale_derived_field(self) -> str | None:
        """The first derived field (``derived:`` in the spec) whose value differs from what its
        formula gives on this state, in words (``"lead (slot 9) holds 2, but its formula gives
        3"``); None when every one is current, as the compiled rules keep them."""
        kept = list(self.s)
        for keep in self.game.rules.upkeep:
            keep(kept, None)
        for slot, (value, derived) in enumerate(zip(self.s, kept)):
            if value != derived:
                return (f"{self.game._slot_name(slot)} (slot {slot}) holds {value}, but its formula gives "
                        f"{derived}")
        return None

    def _playable_problem(self) -> str | None:
        """Why the rules cannot play on from this (just restored) state, or None; first rebuilds
        the compiler's indexes from the fields."""
        self._reindex()
        s = self.s
        try:
            stale = self.stale_derived_field()
            if stale is not None:
                return stale
            if s[SLOT_DONE]:
                self.returns()
                return None
            node = self.node()
            if node.kind not in ("choose", "secret", "roll"):
                return (f"its flow position ({node.phase}, step {node.index}) is not a decision or "
                        "a die roll, where a state rests")
            if node.kind == "secret":
                chooser = 0
                for team in node.actor(s):
                    chooser |= 1 << team
                if not s[SLOT_PENDING] or s[SLOT_PENDING] & ~chooser:
                    return f"its pending secret choices ({s[SLOT_PENDING]}) are not teams of that step"
            elif s[SLOT_PENDING]:
                return "it has secret choices pending outside a secret step"
            if node.kind != "roll" and not 0 <= self.current_player() < self.game.num_teams:
                return f"the team to act ({self.current_player()}) is no team of the game"
            if not self.legal_actions():
                return "nobody can act in it (no legal action)"
            broken = self.game.broken_invariants(self)
        except RULE_FAILURES as error:
            return f"the rules cannot play on from it ({type(error).__name__}: {error})"
        if broken:
            return f"it breaks the invariant '{broken[0]}': the rules could not reach it"
        return None

    def refresh(self) -> None:
        """Call after writing to ``s`` directly (scenario edits, a search's determinisation):
        rebuilds the indexes the compiled rules keep (pieces per team and space), recomputes the
        derived fields and forgets the cached decision."""
        self._reindex()
        for keep in self.game.rules.upkeep:
            keep(self.s, None)

    def _reindex(self) -> None:
        if self.game.rules.reindex is not None:
            self.game.rules.reindex(self.s)
        self._legal = self._actor = None

    # ---------- who acts ----------
    def node(self):
        """The flow node the state stands at."""
        return self.game.rules.nodes[self.s[SLOT_PC]]

    def is_terminal(self) -> bool:
        """True once the game is over (returns are then final): by its rules, or cut at
        ``limits: max_plies`` (:meth:`is_truncated`)."""
        return self.s[SLOT_DONE] != 0

    def is_truncated(self) -> bool:
        """True when the match ended because it reached ``limits: max_plies``; its returns are
        then the spec's ``on_limit:`` returns."""
        return self.s[SLOT_DONE] == TRUNCATED

    def is_chance_node(self) -> bool:
        """True when the game is not over and the state awaits a die roll (a ``roll`` step)."""
        return not self.s[SLOT_DONE] and self.node().kind == "roll"

    def is_secret(self) -> bool:
        """True when the current decision is a secret choice (hidden from the other teams)."""
        return not self.s[SLOT_DONE] and self.node().kind == "secret"

    def current_player(self) -> int:
        """The acting team's index, :data:`CHANCE` (-1) or :data:`TERMINAL` (-4)."""
        if self.s[SLOT_DONE]:
            return TERMINAL
        if self._actor is None:
            node = self.node()
            if node.kind == "roll":
                self._actor = CHANCE
            elif node.kind == "secret":
                pending = self.s[SLOT_PENDING]
                self._actor = (pending & -pending).bit_length() - 1
            else:
                try:
                    self._actor = node.actor(self.s)
                except RULE_ERRORS as error:
                    raise rule_failure(self, error) from None
        return self._actor

    def phase(self) -> tuple[str, str]:
        """The current phase's name and rule id."""
        node = self.node()
        return node.phase, node.rule

    # ---------- legal actions ----------
    def legal_actions(self) -> list[int]:
        """Sorted legal action ids; at a chance node, the outcome indices; [] when terminal."""
        if self._legal is None:
            if self.s[SLOT_DONE]:
                self._legal = []
            else:
                node = self.node()
                if node.kind == "roll":
                    self._legal = list(range(len(self.game.rules.dice[node.die].outcomes)))
                else:
                    try:
                        self._legal = sorted(node.legal(self.s, self.current_player()))
                    except RULE_ERRORS as error:
                        raise rule_failure(self, error) from None
        return self._legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome index, probability)`` pairs at a chance node; raises elsewhere."""
        if not self.is_chance_node():
            raise PlayError("chance_outcomes() called on a state that is not a chance node",
                                 code="RC403")
        die = self.game.rules.dice[self.node().die]
        return [(i, float(p)) for i, p in enumerate(die.probabilities)]

    def action_notation(self, action: int) -> str:
        """How a person writes ``action`` here (a chance outcome shows the die and its face)."""
        if self.is_chance_node():
            die = self.game.rules.dice[self.node().die]
            if 0 <= action < len(die.outcomes):
                return f"{die.name}={self.game.display(die.type, die.outcomes[action])}"
            return f"#{action}"
        return self.game.action_notation(action)

    # ---------- applying ----------
    def apply(self, action: int, events: list | None = None) -> None:
        """Apply a legal action (or chance outcome), appending events to ``events`` if given.

        ``action`` must be an ``int`` (not a bool, a float or a numpy integer: adapters convert
        with :func:`operator.index`). Raises :class:`IllegalActionError` (RC401) for anything
        that is not a legal id here, naming the rule that forbids it, and :class:`RuleFailure`
        (RC404) when a formula fails to compute; the state is then unchanged.
        """
        if type(action) is not int:
            raise IllegalActionError(f"an action is an int id, not {_described(action)}",
                                     self.phase()[1] if not self.s[SLOT_DONE] else "end")
        if action not in self.legal_actions():
            raise self._refusal(action)
        before = self.s[:], self.ply
        try:
            self.apply_unchecked(action, events)
        except RULE_ERRORS as error:
            failure = rule_failure(self, error)   # names the phase where the rules were
            self._restore(before)
            raise failure from None
        except RulecraftError:
            self._restore(before)
            raise

    def _restore(self, before) -> None:
        self.s[:], self.ply = before
        self._legal = self._actor = None

    def apply_unchecked(self, action: int, events: list | None = None) -> None:
        """Apply an action known to be legal (bots and playouts); no check is made.

        The match ends when it reaches ``limits: max_plies``, with the spec's ``on_limit:``
        returns; without them that ply is refused (RC406, naming the spec's ``limits:``) and
        the state is left as it was."""
        if self.ply + 1 < self.game.max_game_length:
            self._apply(action, events)
            return
        before = self.s[:], self.ply
        self._apply(action, events)
        if self.s[SLOT_DONE]:
            return
        if self.game.rules.on_limit is None:
            self._restore(before)
            raise PlayError(
                f"{self.game.rules.limit_source}: the match reached limits: max_plies "
                f"({self.game.max_game_length}) without ending; declare the returns of a match cut there "
                f"with on_limit: (for example \"0\")", code="RC406")
        self.s[SLOT_DONE] = TRUNCATED
        self._legal = self._actor = None
        if events is not None:
            events.append(("end", "limits", {"returns": self.returns(), "truncated": True}))

    def _apply(self, action: int, events: list | None) -> None:
        s = self.s
        game = self.game
        rules = game.rules
        node = rules.nodes[s[SLOT_PC]]
        self._legal = None
        self.ply += 1
        phase = None               # the phase the action is taken in: only events need it
        if events is not None:
            phase = node.phase
            if node.in_action:
                phase = game._offering_phase.get((s[SLOT_RETURN], node.phase), phase)
        kind = node.kind
        if kind == "roll":
            self._actor = None
            die = rules.dice[node.die]
            value = die.outcomes[action]
            if events is not None:
                roller = node.actor(s) if node.actor is not None else None
                events.append(("roll", node.rule, {"die": die.name, "value": value, "type": die.type,
                                                   "team": roller}))
            self._jump(node.run(s, value, events), node.next, node)
        else:
            actor = self._actor if self._actor is not None else self.current_player()
            self._actor = None
            definition, values = game.decoded(action)
            if events is not None:
                events.append(("action", definition.rule, {"team": actor, "action": action,
                                                          "notation": game.action_notation(action),
                                                          "secret": kind == "secret"}))
            result = definition.apply(s, actor, *values, events)
            if kind == "secret":
                s[SLOT_PENDING] &= ~(1 << actor)
                if s[SLOT_PENDING] and result is None:
                    self._advance(events, phase)
                    return
            if result is None:
                if definition.subflow is not None:
                    s[SLOT_RETURN] = node.next
                    s[SLOT_PC] = definition.subflow
                else:
                    s[SLOT_PC] = self._follow(node.next)
            else:
                self._jump(self._past(node) if result == STOP else result, node.next, node)
        if rules.triggers is not None:
            self._triggers(events)
        self._advance(events, phase)

    def _follow(self, target: int) -> int:
        """The node the flow goes to next: ``target``, or for RETURN (an action's chain of
        then-steps has ended) the node it returns to, with the action frame cleared."""
        if target != RETURN:
            return target
        s = self.s
        for slot, empty in self.game._frame_empty:
            s[slot] = empty
        return s[SLOT_RETURN]

    def _past(self, node) -> int:
        """The node after ``node``, skipping the repetition step of a repeated choice."""
        following = node.next
        if following >= 0:
            after = self.game.rules.nodes[following]
            if after.kind == "after" and after.target == node.index:
                return after.next
        return following

    def _jump(self, result, default_next, node) -> None:
        s = self.s
        if result is None:
            s[SLOT_PC] = self._follow(default_next)
        elif result >= 0:
            s[SLOT_PC] = result
        elif result == FINISH:
            s[SLOT_DONE] = GAME_OVER
        else:
            raise DeadEndError(f"'stop' used outside a choice in phase {node.phase} (rule {node.rule})")

    def _triggers(self, events) -> None:
        if not self.s[SLOT_DONE] and self.game.rules.triggers is not None:
            result = self.game.rules.triggers(self.s, events)
            if result is not None:
                self._jump(result, self.s[SLOT_PC], self.node())

    def _advance(self, events, phase) -> None:  # noqa: C901 - the flow interpreter's one loop
        """Run automatic flow nodes until a decision, a chance node or the end.

        ``phase`` is the phase the last action was taken in; entering another one is an event.
        Raises :class:`DeadEndError` when a decision offers nothing or the flow never stops.
        """
        loop: list[int] = []
        s = self.s
        nodes = self.game.rules.nodes
        triggers = self.game.rules.triggers
        for step in range(MAX_AUTOMATIC_STEPS):
            if step > MAX_AUTOMATIC_STEPS - 10:
                loop.append(s[SLOT_PC])
            if s[SLOT_DONE]:
                if events is not None:
                    events.append(("end", "end", {"returns": self.returns()}))
                return
            node = nodes[s[SLOT_PC]]
            if node.guard is not None and not (node.kind == "secret" and s[SLOT_PENDING]) \
                    and not node.guard(s):
                s[SLOT_PC] = self._follow(node.skip)
                continue
            if events is not None and node.phase != phase and not node.in_action:
                events.append(("phase", node.rule, {"phase": node.phase}))
                phase = node.phase
            kind = node.kind
            if kind == "do":
                result = node.run(s, events)
                if result is None:
                    s[SLOT_PC] = self._follow(node.next)
                else:
                    self._jump(result, node.next, node)
                if triggers is not None:
                    self._triggers(events)
            elif kind == "after":
                s[SLOT_PC] = node.target if node.run(s) else node.next
            elif kind == "roll":
                return
            else:
                if kind == "secret" and not s[SLOT_PENDING]:
                    mask = 0
                    for team in node.actor(s):
                        mask |= 1 << team
                    if not mask:
                        self._jump(None, node.next, node)
                        continue
                    s[SLOT_PENDING] = mask
                self._actor = None
                if not self.legal_actions():
                    raise DeadEndError(
                        f"no legal action for {self.game.display('team', self.current_player())} "
                        f"in phase {node.phase} (rule {node.rule}): the rules reached a dead end")
                return
        where = " → ".join(f"{nodes[i].phase} (rule {nodes[i].rule}, step {i})" for i in loop)
        raise DeadEndError(f"the rules ran {MAX_AUTOMATIC_STEPS} automatic steps without a "
                           f"decision, an endless loop through {where}")

    def _refusal(self, action) -> IllegalActionError:
        if self.s[SLOT_DONE]:
            return IllegalActionError("the game is over: no action is legal", "end")
        node = self.node()
        if node.kind == "roll":
            return IllegalActionError(f"{_id_text(action)} is not an outcome of the die rolled in phase "
                                      f"{node.phase} (rule {node.rule})", node.rule)
        definition = self.game.action_def(action)
        if definition is None:
            return IllegalActionError(f"{_id_text(action)} is not an action id of {self.game.id} "
                                      f"(0..{self.game.rules.num_distinct_actions - 1})", node.rule)
        notation = self.game.action_notation(action)
        offered = [self.game.rules.actions[i] for i in node.actions]
        if definition not in offered:
            names = ", ".join(a.name for a in offered)
            return IllegalActionError(f"'{notation}' is not allowed now: phase {node.phase} "
                                      f"(rule {node.rule}) offers only {names}", node.rule,
                                      tuple(a.name for a in offered))
        reason = definition.why_not(self.s, self.current_player(), *definition.decode(action))
        if reason is None:
            return IllegalActionError(f"'{notation}' is not legal here (rule {definition.rule})",
                                      definition.rule)
        rule, text = reason
        return IllegalActionError(f"'{notation}' is forbidden by rule {rule}: {text}", rule)

    # ---------- results ----------
    def returns(self) -> list[float]:
        """Each team's return: the spec's end formula when terminal (its ``on_limit:`` formula
        when the match was cut at ``max_plies``), 0 before."""
        if not self.s[SLOT_DONE]:
            return [0.0] * self.game.num_teams
        formula = self.game.rules.on_limit if self.s[SLOT_DONE] == TRUNCATED else self.game.rules.returns
        try:
            return [float(formula(self.s, t)) for t in range(self.game.num_teams)]
        except RULE_ERRORS as error:
            raise rule_failure(self, error) from None

    def evaluation(self, team: int) -> float:
        """The spec's evaluation of this state for ``team`` (returns when terminal)."""
        if self.s[SLOT_DONE]:
            return self.returns()[team] * 1e6
        try:
            return float(self.game.rules.evaluation(self.s, team))
        except RULE_ERRORS as error:
            raise rule_failure(self, error) from None

    # ---------- copies and views ----------
    def clone(self) -> "State":
        """An independent copy of this state (same game and ply, its own slot list)."""
        return State(self.game, self.s[:], self.ply)

    def __deepcopy__(self, memo) -> "State":
        return self.clone()

    def to_json(self) -> dict:
        """A JSON-ready dict from which :meth:`Game.state_from_json` rebuilds this state."""
        return {"game": self.game.id, "spec": self.game.rules.spec_hash, "ply": self.ply,
                "state": list(self.s)}

    def hash(self) -> str:
        """A short hex digest of the state, for logs."""
        return hashlib.blake2b(repr(self.s).encode(), digest_size=8).hexdigest()

    def observation(self, team: int) -> list[int]:
        """The state as ``team`` sees it: others' secret fields not yet revealed read -1."""
        values = self.s[:]
        for f in self.game._hidden:
            if f.reveal_slot is not None and values[f.reveal_slot]:
                continue
            for owner in range(f.size):
                if owner != team:
                    values[f.base + owner] = -1
        return values

    def public_observation(self) -> list[int]:
        """The state as someone who is no team sees it: every owner-only field not yet revealed
        reads -1 (what a match log may show)."""
        values = self.s[:]
        for f in self.game._hidden:
            if f.reveal_slot is None or not values[f.reveal_slot]:
                values[f.base:f.base + f.size] = [-1] * f.size
        return values

    def hidden_slots(self) -> set[int]:
        """The slots that :meth:`public_observation` hides now (owner-only fields not revealed)."""
        return {f.base + i for f in self.game._hidden
                if f.reveal_slot is None or not self.s[f.reveal_slot] for i in range(f.size)}

    def public_hash(self) -> str:
        """A short hex digest of :meth:`public_observation` (equal to :meth:`hash` in a game
        without hidden fields): it tells nothing of an unrevealed secret."""
        return hashlib.blake2b(repr(self.public_observation()).encode(), digest_size=8).hexdigest()

    def value(self, name: str, index: int | None = None) -> int:
        """The raw value of state field ``name`` (for entity fields, at ``index``)."""
        f = self.game.field(name)
        return self.s[f.base + (index or 0)]

    def describe(self, team: int | None = None) -> dict:
        """The visible fields by name with display values (``team`` None sees everything)."""
        values = self.s if team is None else self.observation(team)
        game = self.game
        result = {}
        for f in game.rules.fields:
            if f.name == "at":
                continue
            labels = {"team": game.rules.teams, "space": game.rules.spaces,
                      "piece": game.rules.piece_labels}.get(f.of)
            if f.of is None:
                result[f.name] = _shown(game, f.type, values[f.base])
            else:
                result[f.name] = {labels[i]: _shown(game, f.type, values[f.base + i])
                                  for i in range(f.size)}
        return result

    def __str__(self) -> str:
        from rulecraft.runtime.render import render_text
        return render_text(self)

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and other.game is self.game and other.s == self.s \
            and other.ply == self.ply

    def __getstate__(self):
        rules = self.game.rules
        return (rules.game_id, rules.options, rules.spec_hash, self.s, self.ply)

    def __setstate__(self, data):
        """Unpickle: the game is found by its id, spec hash and options through
        :func:`~rulecraft.runtime.registry.game_for`, and the values are checked as
        :meth:`Game.restore` checks them (RC502)."""
        from rulecraft.runtime.registry import game_for
        try:
            game_id, options, spec_hash, values, ply = data
        except (TypeError, ValueError):
            raise LogError("this pickle does not hold a rulecraft state", code="RC502") from None
        restored = game_for(str(game_id), str(spec_hash), options).restore(values, ply)
        self.game, self.s, self.ply = restored.game, restored.s, restored.ply
        self._legal, self._actor = restored._legal, restored._actor


def parse_notation(action, template: str | None = None) -> FieldTemplate:
    """``template`` (default: the action's own ``notation:``) parsed as a notation of ``action``
    (an :class:`ActionDef`): its fields are the action's parameters, and ``{flag: words}`` tests
    a true/false one. Raises :class:`~rulecraft.errors.SpecError` (RC348) for a bad template."""
    fields = {name: kind == "bool" for name, kind, _, _ in action.params}
    return FieldTemplate.parse(action.notation if template is None else template, fields,
                               what=f"the notation of '{action.name}'", numbers=int_params(action))


def int_params(action) -> set:
    """The whole-number parameters of ``action`` (an :class:`ActionDef`): what a sum field of its
    notation may add."""
    return {name for name, kind, _, _ in action.params if kind == "int"}


def notation_values(game: "Game", action, action_id: int, show=None) -> tuple[dict, dict, dict]:
    """The texts, true/false flags and whole numbers of ``action_id``'s parameters, as a
    notation template fills them; ``show(kind, value)`` writes a value (default
    :meth:`Game.display`)."""
    texts, flags, numbers = {}, {}, {}
    for (name, kind, _, _), value in zip(action.params, action.decode(action_id)):
        texts[name] = (show or game.display)(kind, value)
        flags[name] = kind == "bool" and bool(value)
        numbers[name] = value
    return texts, flags, numbers


def rule_failure(state: State, error: Exception) -> RuleFailure:
    """The error for a formula of the rules that failed (``error``: a Python error or a
    :class:`RuleFault`) while the rules computed ``state``: RC404 naming the section (the phase
    the rules were in, or ``end: returns``, a trigger, …) and the spec formula that failed; a
    :class:`RuleFault` (RC405, already naming its spec line) gains the section. An error that
    already names its section is returned as it is. Callers restore the state before raising."""
    if isinstance(error, RuleFailure) and error.section is not None:
        return error
    frames = _generated_frames(error.__traceback__)
    section = _section(state, frames[0].tb_frame.f_code.co_name if frames else None)
    if isinstance(error, RuleFault):
        return RuleFault(f"{error.message}, in {section}; the state is unchanged", section=section)
    return RuleFailure(f"the rules failed to compute in {section}: {type(error).__name__}: {error}; "
                       "the state is unchanged", section=section,
                       position=_spec_position(frames[-1]) if frames else None)


RULE_ERRORS = (*RULE_FAILURES, RuleFault)   # what rule_failure turns into a positioned RuleFailure
_SECTIONS = {"initial_state": "the initial values of state", "triggers": "triggers", "returns": "end: returns",
             "on_limit": "limits: on_limit", "evaluation": "evaluation"}


def _generated_frames(trace) -> list:
    """The traceback entries of ``trace`` in a generated rules module, outermost first."""
    frames = []
    while trace is not None:
        if "SPEC_LINES" in trace.tb_frame.f_globals:
            frames.append(trace)
        trace = trace.tb_next
    return frames


def _section(state: State, function: str | None) -> str:
    """Where the rules were: the spec section of the generated ``function`` first called, else
    the phase of ``state``."""
    if function in _SECTIONS:
        return _SECTIONS[function]
    if function is not None and function.startswith("invariant_"):
        return "invariants"
    if state.s[SLOT_DONE]:
        return "end"
    phase, rule = state.phase()
    return f"phase {phase} (rule {rule})"


def _spec_position(entry) -> Position | None:
    """The spec place of the formula computed at traceback ``entry`` of a generated module, from
    its ``SPEC_LINES`` and ``SPEC_PLACES`` (see :mod:`rulecraft.compiler.lines`)."""
    names = entry.tb_frame.f_globals
    runs = names["SPEC_LINES"]
    found = bisect.bisect_right(runs, entry.tb_lineno, key=lambda run: run[0]) - 1
    if found < 0 or runs[found][1] < 0:
        return None
    file, line, column = names["SPEC_PLACES"][runs[found][1]].rsplit(":", 2)
    return Position(file, int(line), int(column))


def as_action_id(value) -> int:
    """``value`` as an action id for :meth:`State.apply`: an ``int``, or an integer of another
    kind that converts exactly (a numpy integer, through :func:`operator.index`). Raises
    :class:`IllegalActionError` (RC401) for anything else: a bool, a float, a text, None."""
    if not isinstance(value, bool):
        try:
            return int.__index__(operator.index(value))     # an exact int, not a subclass
        except TypeError:
            pass
    raise IllegalActionError(f"an action is an int id, not {_described(value)}")


def _empty(kind: str) -> int:
    """The value of a cleared slot of type ``kind``: none for an entity, else 0."""
    return 0 if kind in ("int", "bool") else -1


def _described(value) -> str:
    """A value of the wrong type, for a refusal: its type and a short repr (never raising)."""
    try:
        shown = repr(value)
    except Exception:  # an object whose repr fails still gets refused
        return type(value).__name__
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def _id_text(action: int) -> str:
    """An int id for a message: huge ones by their size (their digits could be millions long)."""
    return str(action) if -10**12 < action < 10**12 else f"a number of {action.bit_length()} bits"


def _shown(game, kind, value):
    if value == -1 and kind not in ("int",):
        return None
    return game.display(kind, value) if kind not in ("int",) else value
