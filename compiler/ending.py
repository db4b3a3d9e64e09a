"""The closing sections: ``triggers``, ``end``, ``evaluation``, ``invariants``, ``limits`` and
``open_questions``.

``end: returns:`` and ``limits: on_limit:`` are formulas of the team ``team``; ``limits:
max_plies:`` bounds every match (the runtime ends a match that reaches it with the ``on_limit``
returns). Errors: RC350, RC355, RC357, RC358 and the checker's.
"""

from __future__ import annotations

from rulecraft.errors import SpecError
from rulecraft.loader import Text
from rulecraft.compiler import ir
from rulecraft.compiler import types as T
from rulecraft.compiler import schema
from rulecraft.compiler.flow import _stops
from rulecraft.compiler.sizes import Sizes
from rulecraft.limits import MAX_PLIES


class EndingReader(Sizes):
    """Readers of the closing sections (see the module docstring)."""

    def read_triggers(self, triggers) -> list:
        """``triggers:``: each trigger's rule, condition and effects. RC320–RC323, RC350."""
        result = []
        for index, trigger in enumerate(self.listed(triggers, "triggers:", self.data.value_at("triggers"))):
            self.declared(trigger, "a trigger", schema.TRIGGER, triggers.at(index))
            rule = self.rule_of(trigger, "a trigger")
            body = self.effects.effects(self.text(trigger, "do", "trigger"), rule=rule)
            if _stops(body):
                raise SpecError("stop leaves a choice; it belongs in an action's effect, not in a "
                                "trigger", trigger.value_at("do"), code="RC350")
            result.append(ir.TriggerIR(rule, self.checker.condition(
                self.text(trigger, "when", "trigger")), body))
        return result

    def team_formula(self, text, what: str):
        """A formula of the team ``team`` giving a number: ``(team symbol, IR)``."""
        team = ir.Symbol("team", "team")
        value = self.checker.formula(text, {"team": ir.Var(type=T.TEAM, symbol=team)}, T.INT, what)
        return team, value

    def read_end(self, end):
        """``end:``: ``(rule, team symbol, returns IR, (low, high))``. RC320–RC323, RC310, RC358."""
        self.declared(end, "end:", schema.END, self.data.value_at("end"))
        team, returns = self.team_formula(self.text(end, "returns", "end"), "returns formula")
        span = end.get("range", [-1, 1])
        if (not isinstance(span, list) or len(span) != 2 or
                not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in span) or span[0] > span[1]):
            raise SpecError("range: is [lowest, highest], the bounds of every team's return",
                            end.value_at("range"), code="RC358")
        return self.rule_of(end, "end:"), team, returns, (span[0], span[1])

    def read_evaluation(self, evaluation, team: ir.Symbol, returns: ir.Expr) -> ir.Expr:
        """``evaluation:`` (a number for ``team``, which the returns' team symbol stands for),
        or the returns when there is none."""
        if evaluation is None:
            return returns
        text = evaluation if isinstance(evaluation, Text) else Text(str(evaluation), self.data.value_at("evaluation"))
        return self.checker.formula(text, {"team": ir.Var(type=T.TEAM, symbol=team)}, T.INT, "evaluation")

    def read_invariants(self, invariants) -> list:
        """``invariants:``: each one's name, rule, kind and formula. RC320–RC323, RC357."""
        result = []
        for index, item in enumerate(self.listed(invariants, "invariants:", self.data.value_at("invariants"))):
            self.declared(item, "an invariant", schema.INVARIANT, invariants.at(index))
            if ("holds" in item) == ("never_decreases" in item):
                raise SpecError("an invariant has either holds: (a condition on every state) or "
                                "never_decreases: (a number that may not go down from one state to "
                                "the next)", item.position, code="RC357")
            if "holds" in item:
                kind, formula = "holds", self.checker.condition(self.text(item, "holds", "invariant"))
            else:
                kind = "never_decreases"
                formula = self.checker.formula(self.text(item, "never_decreases", "invariant"), {},
                                               T.INT, "formula")
            result.append(ir.InvariantIR(str(item["name"]), self.rule_of(item, "an invariant", ""), kind, formula))
        return result

    def read_limits(self, limits, team: ir.Symbol):
        """``limits:``: ``(max_plies, on_limit IR or None, the section's position)``. RC355."""
        if limits is None:
            raise SpecError("limits: max_plies: is needed — a true upper bound on the plies of a "
                            "game, which the rules must guarantee", self.data.position, code="RC355")
        self.declared(limits, "limits:", schema.LIMITS, self.data.value_at("limits"))
        value = self.fixed_number(limits["max_plies"], limits.value_at("max_plies"), "max_plies", 1, MAX_PLIES,
                                  "RC355")
        on_limit = None
        if "on_limit" in limits:
            on_limit = self.checker.formula(self.text(limits, "on_limit", "limits"),
                                            {"team": ir.Var(type=T.TEAM, symbol=team)}, T.INT,
                                            "returns formula")
        return value, on_limit, str(self.data.where("limits"))

    def read_open_questions(self, questions) -> list:
        """``open_questions:``: each entry a dict of strings (id, section, question, resolution,
        option). RC320–RC322."""
        result = []
        for index, item in enumerate(self.listed(questions, "open_questions:", self.data.value_at("open_questions"))):
            self.declared(item, "an open question", schema.OPEN_QUESTION, questions.at(index))
            result.append({str(k): str(v) for k, v in item.items()})
        return result
