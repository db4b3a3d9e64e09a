"""``setup:`` and ``turn:``: phases of steps, flattened into numbered flow nodes.

Setup's nodes come first, then the turn's; the last turn node leads back to the first. A phase
with ``when:`` gets an entry node that skips the whole phase when the condition is false; a
repeated choice (``repeat:``) gets an ``after`` node that returns to it while the condition holds.
An action's ``then:`` steps are nodes too, ending in the runtime's RETURN. Reading numbers the
nodes and records every goto target; :meth:`FlowReader.compile_node` checks each step's rule
strings once every name is known.

Structured flow compiles to the same nodes, so the runtime does not know it: a phase's ``next:``
(a phase name, or ``{if: C, phase: P}`` cases) becomes a last ``do`` node of jumps, and a
``call: P`` step inlines a copy of phase ``P`` of the ``phases:`` section, whose end leads on to
the step after the call. A copy's labels are its own; it may not jump out of itself, and calls
may not form a cycle. Errors: RC345–RC347, RC350–RC354, RC375–RC377, RC326 and the checker's.
"""

from __future__ import annotations

from rulecraft.errors import SpecError, did_you_mean
from rulecraft.loader import Mapping, Sequence, Text
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler.facts import Scope
from rulecraft.compiler import schema
from rulecraft.compiler.sizes import Sizes
from rulecraft.compiler.syntax import Where
from rulecraft.compiler.walk import nested
from rulecraft.runtime.tables import RETURN, STOP
from rulecraft.limits import MAX_INLINED_NODES

STEP_KINDS = ("do", "choose", "secret", "roll", "call")


class FlowReader(Sizes):
    """Reads the phases into :class:`ir.NodeIR` (see the module docstring)."""

    def read_flow(self, data) -> tuple[list, int]:
        """``setup:`` then ``turn:`` as numbered nodes; returns ``(nodes, first turn node)``.
        RC345 (not lists of phases, or no turn phase), RC346, RC347, RC326 and shape errors."""
        nodes: list = []
        self._step_specs: dict = {}     # node index -> (its step mapping, its phase's when-mapping)
        self._next_specs: dict = {}     # node index of a next: node -> the phase mapping
        self._copies: dict = {}         # node index -> (labels, called phase) inside a called copy
        self.phase_rules: dict = {}     # phase of setup: or turn: -> the rule id the phase names
        seen: dict = {}
        setup = data.get("setup") or Sequence()
        turn = data["turn"]
        called = data.get("phases") or Sequence()
        for section, name in ((setup, "setup"), (turn, "turn"), (called, "phases")):
            if not isinstance(section, Sequence):
                raise SpecError(f"{name}: is a list of phases",
                                getattr(section, "position", None) or data.value_at(name),
                                code="RC345")
        if not turn:
            raise SpecError("turn: needs at least one phase", turn.position, code="RC345")
        self._called: dict = {}
        self._phase_names: set = set()
        self._flow_names = {str(p.get("phase")) for p in list(setup) + list(turn) if isinstance(p, Mapping)}
        for index, phase in enumerate(called):
            self.declared(phase, "a called phase", schema.CALLED_PHASE, called.at(index))
            name = self._phase_name(phase, seen)
            self._called[name] = phase
        for index, phase in enumerate(setup):
            self._phase(phase, nodes, seen, setup.at(index))
        first_turn = len(nodes)
        for index, phase in enumerate(turn):
            self._phase(phase, nodes, seen, turn.at(index))
        for node in nodes[:-1]:
            node.next = node.index + 1
        nodes[-1].next = first_turn
        self.symbols.goto_phase = {node.index: node.phase for node in nodes}
        return nodes, first_turn

    def _phase_name(self, phase, seen) -> str:
        name = self.identifier(phase["phase"], phase.value_at("phase"), "the phase")
        if name in seen:
            raise SpecError(f"two phases are called '{name}'", phase.value_at("phase"), code="RC346",
                            also=seen[name])
        seen[name] = phase.value_at("phase")
        return name

    def _phase(self, phase, nodes, seen, at):
        self.declared(phase, "a phase", schema.PHASE, at)
        name = self._phase_name(phase, seen)
        self.symbols.goto_targets[name] = len(nodes)
        self._phase_names.add(name)
        self._body(phase, name, nodes, self.symbols.goto_targets, None, ())
        if "next" in phase:
            node = ir.NodeIR(len(nodes), "do", name, nodes[-1].rule)     # under the rule of the phase's last step
            self._next_specs[node.index] = phase
            nodes.append(node)

    def _body(self, phase, name, nodes, labels, owner_action, calling):
        """The nodes of ``phase`` (called ``name``), appended to ``nodes``; its step labels go into
        ``labels``; ``calling`` are the called phases being inlined around it."""
        rule = self.rule_of(phase, f"phase '{name}'")
        if owner_action is None and not calling and name in self._flow_names:
            self.phase_rules.setdefault(name, rule)
        steps = phase.get("steps")
        if steps is None:
            single = Mapping({k: v for k, v in phase.items() if k not in ("phase", "steps", "doc", "next")})
            single.position, single.key_positions = phase.position, phase.key_positions
            single.value_positions = phase.value_positions
            self._step(single, name, rule, nodes, owner_action, labels, calling)
            return
        if any(k in phase for k in STEP_KINDS):
            raise SpecError("a phase has steps: or one step's keys, not both", phase.position, code="RC347")
        if not isinstance(steps, Sequence) or not steps:
            raise SpecError("steps: lists the phase's steps", phase.value_at("steps"), code="RC347")
        entry = self._entry(phase, name, rule, nodes, owner_action)
        for index, step in enumerate(steps):
            self._step(step, name, rule, nodes, owner_action, labels, calling, steps.at(index))
        if entry is not None:
            entry.target = len(nodes) - 1          # the phase's last node, for skipping it whole

    def _entry(self, guarded, name, rule, nodes, owner_action):
        """The node that skips a guarded phase or call whole (``when:``), or None."""
        if "when" not in guarded:
            return None
        entry = ir.NodeIR(len(nodes), "do", name, rule, owner_action=owner_action)
        self._step_specs[entry.index] = (None, guarded)
        nodes.append(entry)
        return entry

    def _call(self, step, phase, rule, nodes, owner_action, calling):
        """``call: P``: a copy of the called phase ``P`` inlined at the end of ``nodes``. RC375
        (no such phase), RC376 (a cycle of calls), RC347 (too many nodes)."""
        name = str(step["call"])
        if name not in self._called:
            known = "it is a phase of setup:/turn:; go there with next:" if name in self._flow_names \
                else did_you_mean(name, self._called) or "declare it under phases:"
            raise SpecError(f"no called phase '{name}' (called phases are declared under phases:)",
                            step.value_at("call"), code="RC375", hint=known)
        if name in calling:
            cycle = " → ".join(calling[calling.index(name):] + (name,))
            raise SpecError(f"the calls form a cycle: {cycle}", step.value_at("call"), code="RC376",
                            hint="a called phase returns to its caller, so it cannot call itself again")
        if len(nodes) > MAX_INLINED_NODES:
            raise SpecError(f"the calls make more than {MAX_INLINED_NODES:,} flow nodes", step.value_at("call"),
                            code="RC347", hint="call fewer phases inside called phases")
        entry = self._entry(step, phase, self.rule_of(step, "a step", rule), nodes, owner_action)
        start = len(nodes)
        labels = {name: start}
        self._body(self._called[name], name, nodes, labels, owner_action, calling + (name,))
        for index in range(start, len(nodes)):
            self._copies.setdefault(index, (labels, name))
        if entry is not None:
            entry.target = len(nodes) - 1

    def _step(self, step, phase, rule, nodes, owner_action=None, labels=None, calling=(), at=None):
        self.declared(step, "a step", schema.STEP, at)
        kinds = [k for k in STEP_KINDS if k in step]
        if len(kinds) != 1:
            raise SpecError("a step does exactly one of do:, choose:, secret:, roll: or call:", step.position,
                            code="RC347")
        kind = kinds[0]
        labels = self.symbols.goto_targets if labels is None else labels
        label = None
        if "label" in step:
            label = self.identifier(step["label"], step.value_at("label"), "the step label")
            if label in labels:
                raise SpecError(f"the label '{label}' is used twice", step.value_at("label"), code="RC346")
            labels[label] = len(nodes)
        if kind == "call":
            for key in ("by", "repeat", "into"):
                if key in step:
                    raise SpecError(f"'{key}:' does not go with call:", step.where(key), code="RC347")
            self._call(step, phase, rule, nodes, owner_action, calling)
            return
        node = ir.NodeIR(len(nodes), kind, phase, self.rule_of(step, "a step", rule), owner_action=owner_action)
        node.label = label
        allowed = {"do": (), "choose": ("by", "repeat"), "secret": ("by",), "roll": ("into",)}[kind]
        for key in ("by", "repeat", "into"):
            if key in step and key not in allowed:
                raise SpecError(f"'{key}:' does not go with {kind}:", step.where(key), code="RC347")
        if kind == "roll" and "into" not in step:
            raise SpecError("roll: needs into: naming where the result goes", step.position, code="RC347")
        self._step_specs[node.index] = (step, None)
        nodes.append(node)
        if kind == "choose" and "repeat" in step:
            after = ir.NodeIR(len(nodes), "after", phase, node.rule, target=node.index,
                              owner_action=owner_action)
            self._step_specs[after.index] = (step, None)
            nodes.append(after)

    def then_steps(self, action_name: str, rule: str, steps, position, nodes) -> int:
        """Append an action's ``then:`` steps to ``nodes`` (ending in RETURN); returns the first."""
        if not isinstance(steps, Sequence) or not steps:
            raise SpecError("then: lists the steps that follow the action", position, code="RC347")
        first = len(nodes)
        for index, step in enumerate(steps):
            self._step(step, action_name, rule, nodes, owner_action=action_name, at=steps.at(index))
        for node in nodes[first:-1]:
            node.next = node.index + 1
        nodes[-1].next = RETURN
        return first

    # ---------- checking each node's rule strings ----------
    def compile_node(self, node: ir.NodeIR, nodes: list, actions: dict) -> None:
        """Fill in ``node`` from its step: guard, effects, die, chooser, offered actions, repeat
        and skip target. RC350–RC354, RC375, RC377 and the checker's errors."""
        symbols = self.symbols
        outer = symbols.goto_targets
        labels, called = self._copies.get(node.index, (None, None))
        symbols.flow_phase = node.phase if node.owner_action is None else None
        if labels is not None:
            symbols.goto_targets, symbols.outer_targets = labels, outer
        try:
            if node.index in self._next_specs:
                node.body = self._next(self._next_specs[node.index], outer)
                cases = _chain(node.body)
                if all(isinstance(case, ir.When) for case in cases):
                    # with no case true the node is skipped, so it announces no phase
                    tests = tuple(case.test for case in cases)
                    node.guard = tests[0] if len(tests) == 1 else ir.Logic(
                        type=T.BOOL, where=tests[0].where, op="or", values=tests)
                node.skip = node.next
            else:
                scope = self.frames.then_scope(node.owner_action) if node.owner_action is not None else Scope({})
                self._compile_step(node, nodes, actions, scope)
        finally:
            symbols.goto_targets, symbols.outer_targets, symbols.flow_phase = outer, None, None

    def _next(self, phase, targets) -> list:
        """``next:`` as statements: the first case whose ``if:`` holds jumps to its phase; with no
        case true, the flow goes on to the following phase. RC375."""
        cases = phase["next"]
        if isinstance(cases, str):
            return [self._jump_to(cases, targets)]
        if not isinstance(cases, Sequence) or not cases:
            raise SpecError("next: is a phase name or a list of {if: condition, phase: name} cases",
                            phase.value_at("next"), code="RC375")
        body: list = []
        for index in reversed(range(len(cases))):
            case = self.declared(cases[index], "a next: case", schema.NEXT_CASE, cases.at(index))
            jump = self._jump_to(self.text(case, "phase", "next:"), targets)
            if "if" in case:
                test = self.checker.condition(self.text(case, "if", "next:"))
                body = [ir.When(where=jump.where, test=test, then=[jump], other=body)]
            elif index != len(cases) - 1:
                raise SpecError("only the last case of next: may leave out if:", case.position, code="RC375",
                                hint="the cases are tried in order, so the ones after it could never be taken")
            else:
                body = [jump]
        return body

    def _jump_to(self, name: Text, targets) -> ir.Jump:
        """A jump to the first node of the setup or turn phase ``name``; RC375 when there is none."""
        if name not in self._phase_names:
            hint = "call it with a call: step" if name in self._called else did_you_mean(name, self._phase_names)
            raise SpecError(f"next: names no phase of setup: or turn: called '{name}'", name.position,
                            code="RC375", hint=hint)
        return ir.Jump(where=Where(name), target=targets[str(name)], label=str(name))

    def _compile_step(self, node: ir.NodeIR, nodes: list, actions: dict, scope: Scope) -> None:
        """``node``'s formulas, read in ``scope`` (an action's frame in its then-steps)."""
        step, phase = self._step_specs[node.index]
        if node.kind == "after":
            node.repeat = self.checker.condition(self.text(step, "repeat", "step"), scope)
            return
        if phase is not None:                       # the entry node of a guarded phase or call
            node.guard = self.checker.condition(self.text(phase, "when", "phase"), scope)
            node.skip = nodes[node.target].next
            node.target = None
            return
        if "when" in step:
            node.guard = self.checker.condition(self.text(step, "when", "step"), scope)
        node.skip = node.next
        if node.kind == "choose" and "repeat" in step:
            node.skip = nodes[node.next].next
        if node.kind == "do":
            node.body = self.effects.effects(self.text(step, "do", "step"), scope, rule=node.rule)
            if _stops(node.body):
                raise SpecError("stop leaves a choice; it belongs in an action's effect", step.value_at("do"),
                                code="RC350")
        elif node.kind == "roll":
            self._roll(node, step, scope)
        else:
            self._choice(node, step, actions, scope)

    def _roll(self, node, step, scope):
        die = str(step["roll"])
        if die not in self.dice:
            raise SpecError(f"unknown die '{die}'", step.value_at("roll"), code="RC351",
                            hint=did_you_mean(die, self.dice) or "declare it under dice:")
        node.die = die
        target = self.text(step, "into", "step")
        node.roll_value = ir.Symbol("value", "roll")
        value = ir.Var(type=self.dice[die].type, symbol=node.roll_value)
        # the roll is an assignment of the die's value to the place named by into:
        node.body = self.effects.effects(Text(f"{target} = __roll__", target.position, target._offsets),
                                         scope.bind("__roll__", value), rule=node.rule)
        node.actor = self._roller(node.body, scope)

    @staticmethod
    def _roller(body, scope):
        """Whose roll it is, for the dice line: the team whose field the roll goes into
        (``into: home.start_roll``), else in an action's then-steps the team taking the action;
        None when the roll is nobody's (``into: special_roll`` in a phase of its own)."""
        store = body[0] if len(body) == 1 else None
        if isinstance(store, ir.Store) and store.target.field.of == "team" and store.target.index is not None:
            return store.target.index
        if isinstance(scope.names.get("actor"), ir.Expr):
            return scope.names["actor"]
        return None

    def _choice(self, node, step, actions, scope):
        names = step[node.kind]
        if isinstance(names, str):
            names = Sequence([names])
            names.positions, names.position = [step.value_at(node.kind)], step.value_at(node.kind)
        if not names:
            raise SpecError(f"{node.kind}: offers no action", step.value_at(node.kind), code="RC352",
                            hint=f"list the actions offered: {node.kind}: [{next(iter(actions), 'move')}]")
        for index, name in enumerate(names):
            if str(name) not in actions:
                raise SpecError(f"unknown action '{name}'", names.at(index), code="RC352",
                                hint=did_you_mean(str(name), actions) or "declare it under actions:")
            node.actions.append(actions[str(name)])
        if node.kind == "choose":
            if "by" not in step:
                raise SpecError("choose: needs by: naming the team that chooses", step.position, code="RC353")
            by = self.text(step, "by", "step")
            node.actor = self.checker.checked(self.checker.formula(by, scope, T.TEAM, "chooser"),
                                              step.value_at("by"), "by: gave none, not a team")
        elif step.get("by") is not None:
            node.actor = self.checker.formula(self.text(step, "by", "step"), scope, T.ListOf(T.TEAM),
                                              "list of teams")
        else:
            node.actor = self.checker.all_of(T.TEAM)
        for action in node.actions:
            if action.subflow is not None and node.kind == "secret":
                raise SpecError(f"action '{action.name}' has then: steps, so it cannot be a secret "
                                "choice (each team's choice is hidden until all have chosen)",
                                step.position, code="RC354")
            if action.subflow is not None and node.owner_action is not None:
                raise SpecError(f"action '{action.name}' has then: steps, so it cannot be chosen "
                                "inside another action's then: steps", step.position, code="RC354")


def _chain(body) -> list:
    """The statements of a ``next:`` body in case order: each case's ``if``, then a last jump."""
    chain = []
    while body:
        chain.append(body[0])
        body = body[0].other if isinstance(body[0], ir.When) else []
    return chain


def _stops(statements) -> bool:
    """Whether a ``stop`` stands anywhere in ``statements``."""
    return any((isinstance(stmt, ir.Jump) and stmt.target == STOP) or any(map(_stops, nested(stmt)))
               for stmt in statements)
