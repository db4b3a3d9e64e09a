"""``actions:``: what a team may choose, with parameters, legality conditions, effects, then-steps
and a notation.

Each action owns a block of action ids: one per combination of its parameters' values, numbered
by the runtime's mixed-radix encoding (:class:`rulecraft.runtime.tables.ActionDef`). Errors:
RC346, RC347 (then:), RC348 (notation), RC349 (parameter type), the checker's.
"""

from __future__ import annotations


from rulecraft.errors import SpecError
from rulecraft.loader import Mapping, Sequence, Text
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler import schema
from rulecraft.compiler.flow import FlowReader
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
            self.declared(spec, f"action '{name}'", schema.ACTION)
            action = ir.ActionIR(str(name), str(spec["rule"]), index, doc=str(spec.get("doc", "")))
            params = spec.get("params")
            for param_name, type_word in self.entries(params, f"params: of action '{name}'",
                                                      spec.value_at("params")):
                self.identifier(param_name, params.where(param_name), "the parameter")
                action.params.append(self._param(str(param_name), type_word, params.value_at(param_name)))
            action.base = base
            base += action.size
            action.notation = str(spec.get("notation", name + "".join(f" {{{p.name}}}" for p in action.params)))
            FieldTemplate.parse(spec.get("notation", action.notation), {p.name: p.type == T.BOOL for p in action.params},
                                code="RC348", what=f"the notation of '{name}'", position=spec.value_at("notation"))
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

    def compile_action(self, action: ir.ActionIR) -> None:
        """Check the action's ``from:`` lists, ``legal:`` conditions and ``effect:``."""
        spec = self._action_specs[action.name]
        self.checker.loops += 1          # the legality conditions are computed for every id
        try:
            self._conditions(action, spec)
        finally:
            self.checker.loops -= 1
        if "effect" in spec:
            scope = {"actor": ir.Var(type=T.TEAM, symbol=action.actor)}
            scope.update((p.name, ir.Var(type=p.type, symbol=p.symbol)) for p in action.params)
            action.effect = self.effects.effects(self.text(spec, "effect", "action"), scope, rule=action.rule)

    def _conditions(self, action: ir.ActionIR, spec) -> None:
        action.actor = ir.Symbol("actor", "actor")
        scope = {"actor": ir.Var(type=T.TEAM, symbol=action.actor)}
        for param in action.params:
            if param.source is not None:
                text = self.text(param.source, "from", f"parameter '{param.name}'")
                listed = self.checker.formula(text, scope, T.ListOf(param.type), "list of choices")
                param.source = listed
                value = ir.Var(type=param.type, symbol=param.symbol)
                action.conditions.append(ir.Condition(
                    action.rule, f"{param.name} must be one of {text}",
                    ir.Member(type=T.BOOL, item=value, collection=listed), param.name))
            scope[param.name] = ir.Var(type=param.type, symbol=param.symbol)
        legal = spec.get("legal")
        if legal is not None:
            for entry in (legal if isinstance(legal, Sequence) else [legal]):
                if isinstance(entry, Mapping):
                    self.declared(entry, "a legality condition", schema.LEGAL_ENTRY)
                    text, rule = self.text(entry, "if", "legal"), str(entry.get("rule", action.rule))
                    reason = str(entry.get("reason", entry["if"]))
                else:
                    text = entry if isinstance(entry, Text) else self.text(spec, "legal", "action")
                    rule, reason = action.rule, str(entry)
                action.conditions.append(ir.Condition(rule, reason, self.checker.condition(text, scope)))
