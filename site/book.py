"""One game's rulebook material: its spec (IR and compiled rules), texts and scenarios.

The site reads a spec twice, through the two stages that must agree: the compiler's IR (the rule
ids of every phase, action, condition, table, trigger and invariant; the board's attributes; the
open questions) and the compiled :class:`RuleTables` the engine runs (tables, dice, pieces).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
import json
from pathlib import Path

from rulecraft.compiler import find_game, game_names, load_rules, read_game
from rulecraft.errors import InputError, SiteError
from rulecraft.runtime.engine import Game
from rulecraft.runtime.scenario import load_scenarios
from rulecraft.site.context import glossary_terms, spec_context
from rulecraft.site.templating import Renderer
from rulecraft.site.texts import LANGUAGES, SITE_TEXT, SOURCE_LANGUAGE, TextFile, load_texts


def game_folders(root: Path | None = None, games=None) -> list[Path]:
    """The folders of the games to publish.

    ``games`` (``--game``: names or paths, as every command takes a game) picks them; else
    ``root/rulespecs/*``; else the games :func:`rulecraft.compiler.game_names` finds under
    ``rulespecs/`` (never the classic examples). Raises :class:`RulecraftError`: RC105 for a game
    that does not exist, RC813 when both ``root`` and ``games`` are given, RC805 when there is no
    game.
    """
    if games:
        if root is not None:
            raise SiteError("--root and --game both choose the games to publish: give one of them",
                                 code="RC813")
        specs = [find_game(game).resolve() for game in games]
        for game, spec in zip(games, specs):
            if spec.name != "game.yaml":
                raise InputError(f"'{game}' is not a game folder (a folder holding game.yaml)",
                                     code="RC105")
        return list(dict.fromkeys(spec.parent for spec in specs))
    if root is not None:
        base = Path(root) / "rulespecs"
        folders = sorted(p for p in base.iterdir() if (p / "game.yaml").is_file()) if base.is_dir() else []
    else:
        folders = [find_game(name).parent for name in game_names("rulespecs")]
    if not folders:
        raise SiteError(f"no game to publish under {Path(root or '.') / 'rulespecs'}", code="RC805")
    return folders


def rule_sort_key(rule_id: str):
    """Order rule ids as a rulebook does: 2 < 3.1 < 3.3.1 < 4 < 4.10."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in str(rule_id).split(".")]


@dataclass
class Book:
    """Everything the site needs of one game (see the module docstring)."""

    folder: Path
    languages: tuple = LANGUAGES

    @property
    def slug(self) -> str:
        """The game's folder name, which names its pages and data on the site."""
        return self.folder.name

    @property
    def spec_path(self) -> Path:
        """The path of the game's spec, ``folder/game.yaml``."""
        return self.folder / "game.yaml"

    def ir(self, options: dict | None = None):
        """The compiler's IR of the spec under ``options``."""
        return self._read(options)[0]

    def areas(self, options: dict | None = None) -> dict[str, tuple]:
        """The board's named areas (``board: areas:``) as tuples of space indices."""
        return self._read(options)[1]

    def tables(self, options: dict | None = None) -> dict:
        """The compiled tables by name, as the rulebook shows them: a table whose values are
        spaces (``type: space``) gets the space names as its value labels (8E, not an index)."""
        rules = self.game(options).rules
        types = {table.name: table.value_type for table in self.ir(options).tables}
        return {name: replace(definition, value_labels=tuple(rules.spaces))
                if types.get(name) == "space" and not definition.value_labels else definition
                for name, definition in rules.tables.items()}

    def _read(self, options):
        key = json.dumps(options or {}, sort_keys=True)
        if key not in self._readings:
            ir = read_game(self.spec_path, options)
            self._readings[key] = (ir, ir.board.areas)
        return self._readings[key]

    @cached_property
    def _readings(self) -> dict:
        return {}

    @cached_property
    def _games(self) -> dict:
        return {}

    def game(self, options: dict | None = None) -> Game:
        """The playable game (compiled through the cache) under ``options``."""
        key = json.dumps(options or {}, sort_keys=True)
        if key not in self._games:
            self._games[key] = Game(load_rules(self.spec_path, options))
        return self._games[key]

    @property
    def publishable(self) -> bool:
        """True once the game has an English rulebook (``rules:`` in ``text/en.yaml``)."""
        return "rules" in self.texts[SOURCE_LANGUAGE].data

    @cached_property
    def texts(self) -> dict[str, TextFile]:
        """The game's text files: the languages asked for, and always English (the source)."""
        return load_texts(self.folder / "text", self.languages)

    @cached_property
    def site_texts(self) -> dict[str, TextFile]:
        """The site's own text files (:data:`SITE_TEXT`) by language, English always included."""
        return load_texts(SITE_TEXT, self.languages)

    @cached_property
    def scenarios(self) -> list:
        """The game's scenarios (``folder/scenarios``, sorted by file name); raises
        :class:`ScenarioError` for a file that is not one."""
        return load_scenarios(self.folder)

    @cached_property
    def rule_uses(self) -> dict[str, list[tuple[str, str]]]:
        """Each rule id the spec cites, with what cites it: ``[("phase", "dice"), ("table", "T1")]``.

        Phases and their steps, actions and their legality conditions, tables, triggers and
        invariants all name rule ids; every one needs a section in the rulebook.
        """
        ir = self.ir()
        uses: dict[str, list] = {}

        def add(rule, kind, name):
            if rule and (kind, name) not in uses.setdefault(str(rule), []):
                uses[str(rule)].append((kind, name))
        for phase, rule in ir.phase_rules.items():
            add(rule, "phase", phase)
        for node in ir.nodes:
            add(node.rule, "action" if node.owner_action else "phase", node.owner_action or node.phase)
        for action in ir.actions:
            add(action.rule, "action", action.name)
            for rule, *_ in action.conditions:
                add(rule, "action", action.name)
        for table in ir.tables:
            add(table.rule, "table", table.name)
        for index, trigger in enumerate(ir.triggers):
            add(trigger.rule, "trigger", str(index + 1))
        for invariant in ir.invariants:
            add(invariant.rule, "invariant", invariant.name)
        return dict(sorted(uses.items(), key=lambda item: rule_sort_key(item[0])))

    @property
    def rule_ids(self) -> list[str]:
        """Every rule id the spec cites, in rulebook order (the keys of :attr:`rule_uses`)."""
        return list(self.rule_uses)

    @property
    def section_ids(self) -> list[str]:
        """The rulebook's sections in order: every rule id the spec cites and each numbered
        parent of one that it does not cite (5.5 above 5.5.2), so that no section stands under
        a sibling's heading; a chapter (4) is titled by the rules page's ``chapters``."""
        sections = dict.fromkeys(self.rule_ids)
        for rule in self.rule_ids:
            parts = rule.split(".")
            if all(part.isdigit() for part in parts):
                sections.update((".".join(parts[:n]), None) for n in range(2, len(parts)))
        return sorted(sections, key=rule_sort_key)

    def rule_section(self, rule_id: str) -> str | None:
        """The rulebook section that holds ``rule_id``: itself, else its nearest parent, else None."""
        parts = str(rule_id).split(".")
        while parts:
            if ".".join(parts) in self.rule_uses:
                return ".".join(parts)
            parts.pop()
        return None

    def phase_order(self, section: str) -> list:
        """The phases of ``setup`` or ``turn`` in flow order: ``(phase id, rule id)`` pairs, each
        with the rule the phase names (not a step's own)."""
        ir = self.ir()
        seen: dict[str, str] = {}
        for node in ir.nodes:
            if node.owner_action is None and (node.index < ir.first_turn_node) == (section == "setup"):
                seen.setdefault(node.phase, ir.phase_rules.get(node.phase, node.rule))
        return list(seen.items())

    def renderer(self, language: str) -> Renderer:
        """The :class:`Renderer` of ``language``: the spec's variables and the language's glossary."""
        if language not in self._renderers:
            texts = self.texts[language]
            terms = glossary_terms(texts.section("glossary"), language)

            def headers(name):
                entry = texts.entry("tables", name)
                return dict(entry) if entry is not None else {}
            context = spec_context(self.ir(), self.game().rules, terms, headers, self.tables())
            self._renderers[language] = Renderer(context, self.section_ids, language=language)
        return self._renderers[language]

    @cached_property
    def _renderers(self) -> dict:
        return {}
