"""The registry of error codes: every code rulecraft reports, its family and what it means.

A code is ``RC`` and three digits; its hundreds are its family, and every family has one class
under :class:`rulecraft.errors.RulecraftError` (:data:`rulecraft.errors.FAMILIES`): an error with
a code is always raised as its family's class or a subclass of it, so ``except LogError`` catches
every log error. The spec reference's table of codes is generated from :data:`CODES`, and a test
checks that every code the sources use is here, and raised by its family's class.
"""

from __future__ import annotations

FAMILY_TITLES = {
    "0": "any error",
    "1": "reading the spec and the command line",
    "2": "syntax of the rule language",
    "3": "meaning: names, types and structure of the spec",
    "4": "play",
    "5": "logs, saves and files",
    "6": "scenarios",
    "7": "the terminal's play-by-play",
    "8": "the rulebook's texts and site",
}

CODES = {
    "RC000": "any rulecraft error without a more precise code",
    "RC100": "the spec's YAML cannot be used (family of RC101–RC104)",
    "RC101": "the file is not valid YAML",
    "RC102": "a key appears twice in one mapping",
    "RC103": "a mapping key is not a plain word or number",
    "RC104": "the spec file cannot be read, or is not UTF-8 text",
    "RC105": "no game of that name or path",
    "RC106": "`--option` is not `NAME=VALUE`",
    "RC107": "unknown bot",
    "RC108": "`--human` names no team of the game",
    "RC109": "`--lang` names a language the game has no text file for (the error lists the ones it has)",
    "RC110": "a command or module needs an optional extra that is not installed (`--lang fi` or `site` "
             "without `rulecraft[site]`, `import rulecraft.rl` without `rulecraft[rl]`, …); the error names "
             "the `pip install`",
    "RC111": "an output path (`-o`, `--log`, `--json`) that cannot be written: a folder, in a missing folder "
             "or under a file, a folder that cannot be written, or (`--log`) an existing file that is not the "
             "log resumed; refused before any work",
    "RC112": "`--resume` with `--seed` or `-O`: a resumed match keeps the log's seed and options",
    "RC200": "a rule string does not parse (family of RC201–RC204)",
    "RC201": "an unexpected word or symbol, with what was expected (e.g. `=` where `==` is meant)",
    "RC202": "a character the language does not use (`&&`, `\\|\\|`, `!`, `/`)",
    "RC203": "the rule string ends too early",
    "RC204": "the rule string is empty",
    "RC300": "a mistake in the spec (family of RC301–RC360)",
    "RC301": "unknown name, or a quoted text naming no team, space, kind or value",
    "RC302": "a function or table used as a plain name",
    "RC303": "unknown attribute, or a value that has no attributes",
    "RC304": "`[...]` on something that is not a list or table, the wrong number of table keys, or a "
             "fixed key outside the table",
    "RC305": "unknown function, or a statement call that is not a procedure or `move`",
    "RC306": "wrong number of arguments",
    "RC307": "a definition or procedure that calls itself",
    "RC308": "a selection or total in the wrong place (`x in S where C` outside `count`/`any`/`all`/"
             "`first`/`min`/`max`, `E for x in S` outside `sum`/`min`/`max`, `all(S)` without a condition, "
             "`all(x in S until C)`), or `first` of a list that holds no numbers or entities",
    "RC309": "something that is not a list where a list is needed",
    "RC310": "type mismatch (a number where a condition is needed, comparing a team with a space, ...)",
    "RC311": "a construct that is not a value",
    "RC312": "`goto` to no phase or label",
    "RC313": "`reveal` of a field not declared `until: revealed`",
    "RC314": "assignment to something that cannot change",
    "RC315": "an event key used with two different types",
    "RC316": "`lines(n)` whose n is not fixed when compiling (it reads the game state)",
    "RC317": "a value that may be none (`first(...)`, `p.at`, a field without `initial:`) used where a "
             "real team, space, piece or kind is needed, without a test ruling none out: an error with "
             "`language: 2`, a warning before (and a check at play time)",
    "RC318": "a `while` loop's `limit` that is not a whole number from 1 to 1,000,000 fixed when compiling",
    "RC319": "a `derived:` state field that cannot be kept: with `initial:`, `visible:` or `until:`, reading "
             "an owner-only field, or derived fields that depend on each other in a circle",
    "RC320": "a section or entry that should be a mapping is not",
    "RC321": "unknown section or key",
    "RC322": "a required section or key is missing",
    "RC323": "a value that should be a text is not",
    "RC324": "an invalid name, or a reserved word used as a name",
    "RC325": "a name declared twice, or a state field named like an existing attribute",
    "RC326": "a phase without a rule id",
    "RC327": "`teams:` is not a list of team names",
    "RC328": "unknown option type",
    "RC329": "unknown option, or an option value not allowed",
    "RC330": "an enumeration without values",
    "RC331": "a board with both or neither of `grid:` and `spaces:`",
    "RC332": "grid `rows`/`columns` not a whole number from 1 to 64",
    "RC333": "a bad grid name pattern, or one giving two squares the same name",
    "RC334": "a malformed `spaces:` list (id, same attributes, numbers)",
    "RC335": "a preset adjacency on a board that is not a grid, or an adjacency that is not symmetric",
    "RC336": "a space attribute that is not a number or condition, or an area that is not a condition",
    "RC337": "a malformed kind attribute (number, grid steps or symbol) or roster, or a roster `when:` "
             "that reads more than options",
    "RC338": "a roster entry naming an unknown team, kind or space, or with a bad `count:`/`number:`",
    "RC339": "malformed dice faces",
    "RC340": "unknown state field or table value type, or a bad `of:`",
    "RC341": "bad `visible:`, `until:` or `show:`",
    "RC342": "bad table keys",
    "RC343": "bad table values (missing or extra key, wrong type, wrong count)",
    "RC344": "a bad `define:` or `procedures:` head, or a name defined twice",
    "RC345": "`setup:`/`turn:` not a list of phases, or `turn:` empty",
    "RC346": "two phases or labels with one name",
    "RC347": "a malformed phase or step (`steps:` together with a step's keys, not exactly one of "
             "do/choose/secret/roll, a key that does not go with the step, `roll:` without `into:`)",
    "RC348": "a notation naming something that is not a parameter, or using more than named fields "
             "(attribute or index access, a format specification, `{}`)",
    "RC349": "a bad parameter type or range",
    "RC350": "`stop` in a `do` step or a trigger",
    "RC351": "`roll:` of an unknown die",
    "RC352": "`choose:`/`secret:` of an unknown action",
    "RC353": "`choose:` without `by:`",
    "RC354": "an action with then-steps offered inside another action's then-steps, or as a secret choice",
    "RC355": "`limits: max_plies:` missing or not a whole number from 1 to 1,000,000,000",
    "RC356": "a formula computed when compiling fails or reads the game state: a board formula, or a "
             "size (grid `rows:`/`columns:`, a range `1..n`, `max_plies:`, `lines(n)`)",
    "RC357": "an invariant without exactly one of `holds:` and `never_decreases:`",
    "RC358": "`end: range:` is not `[lowest, highest]`",
    "RC359": "`game: language:` is not a version of the rule language (1 or 2)",
    "RC360": "a direction function (`step`, `ray`, `direction`) on a board that is not a grid",
    "RC375": "`next:` that names no phase of `setup:`/`turn:` (or a case without `if:` before the last), "
             "or `call:` that names no phase of `phases:`",
    "RC376": "`call:` steps that form a cycle (a called phase calling itself, directly or through others)",
    "RC377": "a `goto` inside a called phase to a place outside it (a called phase returns to its caller)",
    "RC378": "warning: a `goto` that leaves its phase (deprecated: use the phase's `next:` or a `call:` step)",
    "RC379": "`board: coordinates:` on a grid, without exactly `row:` and `column:`, or giving two zones one place",
    "RC401": "an illegal action, refused with the rule that forbids it",
    "RC402": "the rules reached a dead end: a decision with no legal action, `stop` outside a choice, "
             "or an endless loop",
    "RC403": "chance outcomes asked of a state that is not a chance node",
    "RC404": "a formula failed while the game was set up or played, or a bot looked ahead (a division by "
             "zero); the error names the phase or section and the formula's spec line, and the state is left "
             "unchanged",
    "RC405": "a rule met a value it cannot use while the game was played (an attribute of none, a table "
             "key outside the table, `by:` giving none); the message names the spec line and the state "
             "is left unchanged",
    "RC406": "a match reached `limits: max_plies:` and the spec declares no `on_limit:` returns",
    "RC407": "a chance outcome other than the seed's applied to a match whose chance is `sampled`",
    "RC501": "a match log that is corrupt, of another game or options, or diverges from the rules (the "
             "message names the line)",
    "RC502": "a saved state (JSON or a pickle) that is not a state of this game: a value outside its "
             "field's range, a flow position, pending mask or ply that does not fit, or a position the "
             "rules cannot play on from",
    "RC503": "a pickled state whose game is not loaded and whose spec revision is neither under "
             "`rulespecs/`/`examples/` nor remembered by the compile cache (or `rulecraft.compiler` was "
             "never imported)",
    "RC505": "a match log written under another revision of the game's spec (both hashes named; "
             "`--allow-revision` replays it anyway)",
    "RC506": "a match log whose hash chain breaks: a line inserted, removed, reordered or edited",
    "RC507": "a roll of a `sampled` match log that is not the one its seed gives: a changed roll or a "
             "changed seed",
    "RC508": "the opening of a secret choice that does not match its commitment",
    "RC601": "a malformed scenario, or an expectation that failed",
    "RC602": "no scenario to run",
    "RC701": "an event message in `text/<lang>.yaml` that is not a valid template",
    "RC702": "an event message naming a value the event does not carry",
    "RC703": "an event message that reaches for what messages may not use (the template sandbox: "
             "`_`-names, `macro`, `include`, `attr`, `format`, other calls) or passes a size limit, or "
             "fails while it is filled",
    "RC801": "a text file (`text/<lang>.yaml`) with an unknown section or an entry of the wrong shape",
    "RC802": "a text naming an unknown name, or a rule id the spec does not have",
    "RC803": "a text that is not a valid template",
    "RC804": "a text that cannot be rendered",
    "RC805": "no game to publish under `rulespecs/`",
    "RC806": "texts not ready to publish (a missing text, or one that does not render), with the "
             "translator's worklist; stale translations only go on `site check`'s worklist",
    "RC807": "MkDocs could not build the site, or warned while building it",
    "RC808": "a text that reaches for what texts may not use (the template sandbox: `_`-names, `macro`, "
             "`include`, `attr`, `format`, other calls) or passes a size limit",
    "RC809": "a text whose Markdown is outside the allow-list: raw HTML, an image, a link that is not "
             "http(s) or relative",
    "RC810": "`--lang` naming a language the rulebook does not have (codes are lower case: `en`, not `EN`)",
    "RC811": "a build output folder (`--out`, `--source`) that is a file, lies under a file, cannot be "
             "written, holds files rulecraft did not write, or lies inside the other",
    "RC812": "`site serve` on a port that is taken, not allowed, or not a port",
    "RC813": "`--root` and `--game` given together",
}


def family_of(code: str) -> str:
    """The family digit of ``code`` (``"4"`` for ``RC405``)."""
    return code[2]


def reference_table() -> str:
    """The table of every code for the spec reference, in Markdown, a bold row per family."""
    rows = ["| code | meaning |", "|---|---|"]
    seen = set()
    for code, meaning in CODES.items():
        family = family_of(code)
        if family not in seen and family != "0":
            seen.add(family)
            rows.append(f"| **RC{family}xx** | **{FAMILY_TITLES[family]}** |")
        rows.append(f"| {code} | {meaning} |")
    return "\n".join(rows)
