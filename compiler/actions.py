"""``actions:``: what a team may choose, with parameters, legality conditions, effects, then-steps
and a notation.

Each action owns a block of action ids: one per combination of its parameters' values, numbered
by the runtime's mixed-radix encoding (:class:`rulecraft.runtime.tables.ActionDef`). Errors:
RC346, RC347 (then:), RC348 (notation), RC349 (parameter type), RC370 (a follow-up's parameter
named like an inherited one, :mod:`frames`), RC372 (a reason's placeholders, :mod:`reasons`), the
checker's.
"""

from __future__ import annotations


from rulecraft.errors import SpecError
from rulecraft.limits import MAX_ACTIONS, MAX_PARAM_VALUES
from rulecraft.loader import Mapping, Sequence, Text
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler import schema
from rulecraft.compiler.flow import FlowReader
from rulecraft.compiler.reasons import fill_reason
from rulecraft.runtime.template import FieldTemplate



class ActionsReader(FlowReader):
    """Reads ``actions:`` into :class:`ir.ActionIR` and checks each one's rule strings."""

    def read_actions(self, actions, nodes: list) -> list:
        """Each action's id block, parameters and notation; then-steps are appended to
        ``nodes``. RC320–RC322, RC324, RC347, RC348, RC349."""
        result, base = [], 0
        self._action_specs = {}
        for index, (name, spec) in enumerate(self.entries(actions, "actions:", self.data.value_at("actions"))):
            self.identifier(name, actions.where(name), "the action")
            self.declared(spec, f"action '{name}'", schema.ACTION, actions.value_at(name))
            action = ir.ActionIR(str(name), self.rule_of(spec, f"action '{name}'"), index, doc=str(spec.get("doc", "")))
            params = spec.get("params")
            for param_name, type_word in self.entries(params, f"params: of action '{name}'",
                                                      spec.value_at("params")):
                self.identifier(param_name, params.where(param_name), "the parameter")
                param = self._param(str(param_name), type_word, params.value_at(param_name))
                param.position = params.where(param_name)
                action.params.append(param)
            action.base = base
            base += action.size
            self.at_most(base, MAX_ACTIONS, "action ids (every action times its parameters' values)",
                         actions.where(name), "split the choice into steps: choose one parameter, then the next")
            action.notation = str(spec.get("notation", name + "".join(f" {{{p.name}}}" for p in action.params)))
            FieldTemplate.parse(spec.get("notation", action.notation), {p.name: p.type == T.BOOL for p in action.params},
                                code="RC348", what=f"the notation of '{name}'", position=spec.value_at("notation"),
                                numbers={p.name for p in action.params if p.type == T.INT})
            if "then" in spec:
                action.subflow = self.then_steps(str(name), action.rule, spec["then"], spec.value_at("then"), nodes)
            self._action_specs[action.name] = spec
            result.append(action)
        return result

    def _param(self, name, type_word, position) -> ir.ParamIR:
        source = None
        if isinstance(type_word, Mapping):
            self.declared(type_word, f"parameter '{name}'", schema.PARAMETER)
            source = type_word
            position, type_word = type_word.value_at("type"), type_word["type"]
        word = str(type_word)
        bounds = self.fixed_range(type_word, position, "RC349")
        if bounds:
            low, high = bounds
            self.at_most(high - low + 1, MAX_PARAM_VALUES, f"values of parameter '{name}'", position,
                         "each value is an action id of its own; choose from a smaller range")
            param = ir.ParamIR(name, T.INT, high - low + 1, offset=low)
        else:
            kind = T.parse_type(word, self.enums)
            sizes = {T.TEAM: len(self.teams), T.PIECE: len(self.pieces), T.BOOL: 2,
                     T.SPACE: len(self.board.spaces)}
            if kind in sizes:
                param = ir.ParamIR(name, kind, sizes[kind])
            elif isinstance(kind, str) and kind.startswith("enum:"):
                param = ir.ParamIR(name, kind, len(self.enums[kind[5:]]))
            else:
                raise SpecError(f"'{word}' is not a parameter type", position, code="RC349",
                                hint="team, space, piece, bool, an enumeration or a range like 1..6")
        param.symbol = ir.Symbol(name, "param")
        param.source = source            # the from: mapping until compile_action checks it
        return param

    def compile_action(self, action: ir.ActionIR, offered_by: list, phases: list) -> None:
        """Check the action's ``from:`` lists, ``legal:`` conditions and ``effect:``; a follow-up
        action (one offered by the then-steps of the actions ``offered_by``, and by the choices
        of the ``phases``) reads their shared parameters (:mod:`frames`). RC370 for a parameter
        named like one of theirs."""
        spec = self._action_specs[action.name]
        inherited = self.frames.inherited(offered_by)
        for param in action.params:
            if param.name in inherited:
                offering = ", ".join(f"'{a}'" for a in offered_by if param.name in self.frames.inherited([a]))
                raise SpecError(f"the parameter '{param.name}' has the name of a parameter of {offering}, "
                                "which offers this action: that one is already in scope here",
                                param.position, code="RC370",
                                hint=f"call it, say, '{param.name}_here' (the notation writes it as "
                                     f"{{{param.name}_here}})")
        action.actor = ir.Symbol("actor", "actor")
        scope = self.frames.follow_up_scope({"actor": ir.Var(type=T.TEAM, symbol=action.actor)}, offered_by, phases)
        self.checker.loops += 1          # the legality conditions are computed for every id
        try:
            scope = self._conditions(action, spec, scope)
        finally:
            self.checker.loops -= 1
        if "effect" in spec:
            action.effect = self.effects.effects(self.text(spec, "effect", "action"), scope, rule=action.rule)

    def _conditions(self, action: ir.ActionIR, spec, scope):
        """Read the parameters' ``from:`` lists and the ``legal:`` conditions in ``scope``;
        returns the scope with every parameter bound."""
        for param in action.params:
            if param.source is not None:
                text = self.text(param.source, "from", f"parameter '{param.name}'")
                listed = self.checker.formula(text, scope, T.ListOf(param.type), "list of choices")
                param.source = listed
                value = ir.Var(type=param.type, symbol=param.symbol)
                action.conditions.append(ir.Condition(
                    action.rule, f"{param.name} must be one of {text}",
                    ir.Member(type=T.BOOL, item=value, collection=listed), param.name))
            scope = scope.bind(param.name, ir.Var(type=param.type, symbol=param.symbol))
        legal = spec.get("legal")
        if legal is not None:
            for entry in (legal if isinstance(legal, Sequence) else [legal]):
                if isinstance(entry, Mapping):
                    self.declared(entry, "a legality condition", schema.LEGAL_ENTRY)
                    text, rule = self.text(entry, "if", "legal"), self.rule_of(entry, "a legal clause", action.rule)
                    reason = str(entry["if"]) if "reason" not in entry else fill_reason(
                        self.text(entry, "reason", "a legality condition"),
                        lambda formula: self.fixed_formula(formula, "reason's placeholder"))
                else:
                    text = entry if isinstance(entry, Text) else self.text(spec, "legal", "action")
                    rule, reason = action.rule, str(entry)
                action.conditions.append(ir.Condition(rule, reason, self.checker.condition(text, scope)))
        return scope
