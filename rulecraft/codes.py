"""The registry of error codes: every code rulecraft reports, its family and what it means.

A code is ``RC`` and three digits; its hundreds are its family, and every family has one class
under :class:`rulecraft.errors.RulecraftError` (:data:`rulecraft.errors.FAMILIES`): an error with
a code is always raised as its family's class or a subclass of it, so ``except LogError`` catches
every log error. The spec reference's table of codes is generated from :data:`CODES`, and a test
checks that every code the sources use is here, and raised by its family's class. Each code has a
hint in :data:`HINTS`, which an error without a hint of its own shows.
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
    "RC100": "the spec's YAML cannot be used (family of RC101–RC104, RC113–RC116)",
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
    "RC112": "`--resume` with another `--seed` or `-O` than the log's: a resumed match keeps them",
    "RC113": "a YAML file passing a size limit (see Limits): larger than `MAX_FILE_BYTES`, a line longer than "
             "`MAX_LINE_CHARS`, more than `MAX_YAML_NODES` nodes, nested deeper than `MAX_YAML_DEPTH`, more than "
             "`MAX_ALIAS_NODES` nodes reached through aliases (an alias bomb), or an alias inside its own anchor; "
             "refused at the node or alias that passes it, before anything is built",
    "RC114": "a YAML tag outside the 1.2 core schema (`!!set`, `!!python/…`, `!foo`), or a core tag that does "
             "not fit its value (`!!int 0x10`, `!!bool 9`)",
    "RC115": "a control character (other than tab and line breaks) in a YAML file, at its own line and column",
    "RC116": "a whole number of more than `MAX_INT_DIGITS` digits, or a decimal number too large to compute "
             "with (`1e999`)",
    "RC118": "`fmt` given a game it cannot find, or an output (`-o`, or the spec itself) it cannot write",
    "RC119": "`fmt --upgrade` of a spec that does not compile: fix its errors first (`rulecraft check`)",
    "RC120": "`rulecraft bench --baseline DIR`: DIR is not a folder, or a baseline engine in it cannot be read "
             "or does not run on this runtime (the message names the file and why)",
    "RC200": "a rule string does not parse (family of RC201–RC204)",
    "RC201": "an unexpected word or symbol, with what was expected (e.g. `=` where `==` is meant)",
    "RC202": "a character the language does not use (`&&`, `\\|\\|`, `!`, `/`)",
    "RC203": "the rule string ends too early",
    "RC204": "the rule string is empty",
    "RC300": "a mistake in the spec (family of RC301–RC389)",
    "RC301": "unknown name, or a quoted text naming no team, space, kind or value",
    "RC302": "a function or table used as a plain name",
    "RC303": "unknown attribute, or a value that has no attributes",
    "RC304": "`[...]` on something that is not a list or table, the wrong number of table keys, or a "
             "fixed key outside the table",
    "RC305": "unknown function, or a statement call that is not a procedure or `move`",
    "RC306": "wrong number of arguments",
    "RC307": "a definition or procedure that calls itself",
    "RC308": "a list a function cannot take: `all` of items that are not true/false values, `first` of a "
             "list that holds no numbers or entities, `connected` of a list that is not of spaces; or an old "
             "selection `x in S where C` without a new name before `in`",
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
    "RC352": "`choose:`/`secret:` of an unknown action, or of none (`choose: []`)",
    "RC353": "`choose:` without `by:`",
    "RC354": "an action with then-steps offered inside another action's then-steps, or as a secret choice",
    "RC355": "`limits: max_plies:` missing or not a whole number from 1 to 1,000,000,000",
    "RC356": "a formula computed when compiling fails or reads the game state: a board formula, or a "
             "size (grid `rows:`/`columns:`, a range `1..n`, `max_plies:`, `lines(n)`)",
    "RC357": "an invariant without exactly one of `holds:` and `never_decreases:`",
    "RC358": "`end: range:` is not `[lowest, highest]`",
    "RC359": "`game: language:` is not a version of the rule language (1 or 2)",
    "RC360": "a direction function (`step`, `ray`, `direction`) on a board that is not a grid",
    "RC361": "a rule id written as a bare number (`rule: 4.10`, which YAML reads as 4.1): rule ids are quoted "
             "(`rule: \"4.10\"`)",
    "RC362": "a game passing a size limit (see Limits): more pieces than `MAX_PIECES`, a die of more faces than "
             "`MAX_DIE_FACES`, a table of more cells than `MAX_TABLE_CELLS`, a parameter of more values than "
             "`MAX_PARAM_VALUES`, more action ids than `MAX_ACTIONS`, a state of more slots than "
             "`MAX_STATE_SLOTS`; the message names the limit and its value",
    "RC363": "a rule string nested deeper than `MAX_FORMULA_DEPTH`, or holding a number of more than "
             "`MAX_INT_DIGITS` digits",
    "RC367": "a value of another kind than its key takes (a number where a list goes, `null` where a name goes, "
             "a text where a whole number goes, ...): the error says what the spec's shape expects there",
    "RC370": "a name that would hide a parameter an action's then-steps or follow-up actions take from it "
             "(a follow-up's own parameter, a `let` or a loop variable)",
    "RC371": "a follow-up action reading a parameter that not every action offering it has with one type",
    "RC372": "a legality condition's `reason:` with an unpaired brace, an empty `{}` placeholder, or too long",
    "RC373": "warning: a selection written the old way, `x in S where C` or `x in S until C` (deprecated: "
             "write the comprehension `x for x in S where C`; `rulecraft fmt --upgrade` rewrites it)",
    "RC374": "`board: drawing: across:` naming what is not a whole-number state field (plain or `of: team`)",
    "RC375": "`next:` that names no phase of `setup:`/`turn:` (or a case without `if:` before the last), "
             "or `call:` that names no phase of `phases:`",
    "RC376": "`call:` steps that form a cycle (a called phase calling itself, directly or through others)",
    "RC377": "a `goto` inside a called phase to a place outside it (a called phase returns to its caller)",
    "RC378": "warning: a `goto` that leaves its phase (deprecated: use the phase's `next:` or a `call:` step)",
    "RC379": "`board: coordinates:` on a grid, without exactly `row:` and `column:`, or giving two zones one place",
    "RC380": "`board: drawing: place:` drawing a space less than a cell wide or high, off the largest board, or "
             "two spaces over each other",
    "RC381": "a `place:` or `shade:` formula of `board: drawing:` that is not a number or a condition on the space `z`",
    "RC382": "a `shade:` of `board: drawing:` giving a space a shade outside 0 to 3 (`MAX_SHADES`)",
    "RC383": "a name in `board: drawing: lines:` that is no marking (`halfway`, `centre_circle`, `bands`), with a "
             "did-you-mean",
    "RC384": "`board: drawing: goals:` with a width that is not positive or wider than the board's end, or a depth "
             "outside 0 to 1 cell",
    "RC385": "a name in `board: drawing: outline:` that is no area of `board: areas:`, with a did-you-mean",
    "RC386": "a `board: drawing:` formula that fails on a space (the message names the space) or reads the game state",
    "RC387": "`board: drawing: goals:` as a list of other than two goals, or a goal whose `at:` puts it past the "
             "end's corner",
    "RC388": "a name in `board: drawing: marks:` that is no area of `board: areas:` (or an area without spaces), "
             "with a did-you-mean",
    "RC389": "a marking in `board: drawing: marks:` other than `box`, with a did-you-mean",
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
    "RC814": "a counted phrase (`plural(one=\"# …\", other=\"# …\")`) lacking a plural form its language "
             "needs, a form without `#`, or a name that is not a CLDR plural category",
    "RC815": "`site build --pdf` could not print: no Chromium on `PATH`, Chromium failed, or a quick "
             "reference does not fit one A4 page",
}


# what to write instead, or how to fix it, for each code: the hint of an error that brings none
HINTS = {
    "RC000": "read the message: it names what went wrong; report it if it does not say how to go on",
    "RC100": "fix the YAML at the line shown; `rulecraft check GAME` lists every problem of the spec",
    "RC101": "check the indentation (spaces, not tabs), the colons and the quotes at the line shown; quote a "
             "rule string that holds `:` or `#`",
    "RC102": "keep one of the two entries, or merge them into one mapping",
    "RC103": "write the key as a plain word or number; quote a value instead of using it as a key",
    "RC104": "save the spec as UTF-8 text and check the path and its permissions",
    "RC105": "`rulecraft games` lists the games; pass a game's name, its folder or its game.yaml",
    "RC106": "write `-O NAME=VALUE`, for example `-O target=50`",
    "RC107": "choose one of the bots the message lists, for example `--bot random` or `--bot mcts:200`",
    "RC108": "name a team of the game's `game: teams:` list, for example `--human first`",
    "RC109": "pick one of the languages the message lists, or add a `text/<lang>.yaml` for the game",
    "RC110": "install the extra with the `pip install` the message names",
    "RC111": "choose a path to a new or writable file in an existing folder",
    "RC112": "drop `--seed` and `-O` when resuming (or give the log's own): the log keeps them",
    "RC113": "split the file, write repeated data once (a range such as `1..6`, a formula), and use aliases "
             "only for small shared entries; the Limits section of the spec reference lists every limit",
    "RC114": "drop the tag and write the value plainly (`16`, `true`, a list); rulecraft reads YAML 1.2's core "
             "schema only",
    "RC115": "delete the control character at the caret (it is invisible in most editors); write a line break "
             "or a tab instead if one was meant",
    "RC116": "write a smaller number, or compute it with a formula of smaller numbers",
    "RC118": "pass a game's name, its folder or its game.yaml, and an `-o` path in a folder that can be "
             "written; `fmt` needs `--upgrade`",
    "RC119": "run `rulecraft check GAME`, fix the errors it lists, then upgrade",
    "RC120": "export the baseline's engines again with `python benchmarks/export_engines.py DIR` run by that "
             "release's interpreter (docs/benchmarks.md); an engine too old for this runtime cannot be compared",
    "RC200": "fix the rule string at the caret; the spec reference's rule-language section shows each form",
    "RC201": "write what the message expects at the caret: `==` to compare, `=` only to assign in effects",
    "RC202": "use the words of the language: `and`, `or`, `not`, and `//` to divide",
    "RC203": "finish the rule string: close each bracket and complete the last operand",
    "RC204": "write a condition, formula or effect, or leave the key out",
    "RC300": "fix the spec at the line shown; `rulecraft check GAME` lists every problem",
    "RC301": "check the spelling (the hint may offer the closest name) or declare the name first",
    "RC302": "call the function with its arguments, `name(...)`, or look the table up with `name[...]`",
    "RC303": "use an attribute the value has: the spec reference lists each type's attributes",
    "RC304": "index only lists and tables, with as many keys as the table declares, each inside its range",
    "RC305": "use a function of the standard library or of `define:`, and call only procedures or `move` "
             "as statements",
    "RC306": "give the function exactly the arguments its definition names",
    "RC307": "write the repetition as a `while` loop or a loop over a list instead of a definition calling itself",
    "RC308": "write a selection inside `count(...)`, `any(...)`, `all(...)`, `first(...)`, `min(...)` or "
             "`max(...)`, and a total `E for x in S` inside `sum`, `min` or `max`",
    "RC309": "give a list here: `teams`, `spaces`, `t.pieces`, `neighbors(z)` or `[a, b]`",
    "RC310": "compare values of one type, and use a condition where one is needed (`n > 0`, not `n`)",
    "RC311": "write a value here: a number, a condition, a name, or a call that gives a value",
    "RC312": "name a phase or label that exists, or use the phase's `next:` or a `call:` step",
    "RC313": "declare the field with `until: revealed` to reveal it",
    "RC314": "assign only to state fields (and `let` variables); options, board attributes and parameters "
             "are fixed",
    "RC315": "give the event key one type in every `event` that uses it, or rename one of them",
    "RC316": "give `lines(n)` a number fixed when compiling: a constant or an option",
    "RC317": "rule none out first: `if x != none then ... else ...`, or give the field an `initial:`",
    "RC318": "write `limit N` with N a whole number from 1 to 1,000,000, fixed when compiling",
    "RC319": "a derived field is only its formula: drop `initial:`/`visible:`/`until:`, read only public fields, "
             "and break the circle",
    "RC320": "write the section or entry as a mapping: `key: value` lines indented under it",
    "RC321": "check the spelling against the keys the hint lists, or remove the key",
    "RC322": "add the section or key the message names (the spec reference shows each with an example)",
    "RC323": "write the value as a text; quote it if YAML reads it as a number or a truth value",
    "RC324": "start a name with a letter and use letters, digits and `_`; choose a word the language does "
             "not reserve",
    "RC325": "rename one of the two, so that each name is declared once",
    "RC326": "give the phase a `rule:` id, the rulebook's number of the rule it implements (quoted, `\"4.10\"`)",
    "RC327": "write `teams: [first, second]`, a list of team names",
    "RC328": "give the option a type of `int`, `bool` or `choice`",
    "RC329": "use an option the game declares (`rulecraft check GAME` lists them) with a value it allows",
    "RC330": "list the values: `values: [low, high]`",
    "RC331": "give the board exactly one of `grid:` and `spaces:`",
    "RC332": "give `rows:` and `columns:` whole numbers from 1 to 64",
    "RC333": "write a name pattern with `{row}` and `{column}` (for example `{col_letter}{row}`) that gives "
             "each square its own name",
    "RC334": "give each space an `id` and the same attributes as the others, with numbers where numbers go",
    "RC335": "use a preset adjacency only on a grid, and list each adjacency both ways",
    "RC336": "give a space attribute a number or a condition, and an area a condition on the space",
    "RC337": "check the kind's attribute (a number, grid steps or a symbol) and the roster entry; a roster "
             "`when:` may read only options",
    "RC338": "name a team, kind and space of the game, and give `count:` as a whole number",
    "RC339": "list the faces as whole numbers or values of one enumeration: `faces: [1, 2, 3, 4, 5, 6]`",
    "RC340": "use a known type (`int`, `bool`, `team`, `space`, `piece`, `kind` or an enumeration) and `of:` "
             "with `team`, `space`, `piece` or `kind`",
    "RC341": "write `visible: all` or `visible: owner`, `until: revealed`, and `show:` true or false",
    "RC342": "give the table's keys as a list of types or value lists",
    "RC343": "give every key of the table one value of the declared type",
    "RC344": "write a definition head as `name(a, b)` and define each name once",
    "RC345": "write `setup:` and `turn:` as lists of phases; `turn:` needs at least one",
    "RC346": "give each phase and label its own name",
    "RC347": "give a step exactly one of `do:`, `choose:`, `secret:` and `roll:`, with only its own keys",
    "RC348": "name only the action's parameters in its notation, as `{name}`",
    "RC349": "give a parameter a known type, or a range `a..b` with a ≤ b",
    "RC350": "`stop` belongs in an action's effect; in a `do` step or a trigger use `goto`, `finish` or `next:`",
    "RC351": "roll a die declared under `dice:`",
    "RC352": "offer one or more actions declared under `actions:`",
    "RC353": "add `by:` naming the team that chooses (a team field or formula)",
    "RC354": "offer actions with then-steps only at a phase's own `choose:` step",
    "RC355": "declare `limits: max_plies:` as a whole number from 1 to 1,000,000,000: the longest match the rules "
             "allow",
    "RC356": "use only numbers, options and board attributes in a formula computed when compiling",
    "RC357": "give the invariant exactly one of `holds:` and `never_decreases:`",
    "RC358": "write `range: [lowest, highest]` with the lowest and highest return",
    "RC359": "write `language: 2` (or leave it out for version 1)",
    "RC360": "use `step`, `ray` and `direction` on a grid board only",
    "RC361": "quote the rule id, for example `rule: \"4.10\"`",
    "RC362": "make the game smaller, or split a large parameter into two choices made one after the other; "
             "the Limits section of the spec reference lists every limit",
    "RC363": "name a part of the formula in `define:` or with `let`, so that no single formula nests so deep",
    "RC367": "write the value as the error says (the JSON Schema `rulecraft schema` prints shows each key's kind); "
             "quote a number meant as a text, and leave a number meant as a number unquoted",
    "RC370": "rename the new name (for example `to_here`), so that the inherited parameter keeps its meaning",
    "RC371": "give every action that offers the follow-up the parameter with one name and type, or read it "
             "only where it is shared",
    "RC372": "pair each `{` with a `}` around a formula, and write `{{` and `}}` for a brace in the text",
    "RC373": "write the comprehension the hint shows, or run `rulecraft fmt --upgrade GAME` to rewrite them all",
    "RC374": "name an `int` field of `state:`, plain or `of: team`; a `derived:` field computes a line that moves",
    "RC375": "name a phase of `setup:`/`turn:` in `next:` (give every case but the last an `if:`), and a "
             "phase of `phases:` in `call:`",
    "RC376": "break the cycle: a called phase may not call itself, directly or through others",
    "RC377": "end the called phase instead (it returns to its caller), or move the `goto` to the caller",
    "RC378": "replace the `goto` with the phase's `next:` or a `call:` step",
    "RC379": "give `coordinates:` exactly `row:` and `column:`, one place per zone, and only on a board of "
             "`spaces:`",
    "RC380": "give every space a width and height of at least 1 and a place of its own, for example "
             "`place: {x: \"z.column\", y: \"z.low\", height: \"z.high - z.low + 1\"}`",
    "RC381": "write `place:` formulas that give a whole number of cells and `shade:` as a condition or a small "
             "number, over the space `z`",
    "RC382": "keep shades from 0 to 3, for example `shade: \"(z.row + z.col) % 2\"`",
    "RC383": "name markings from the list: `lines: [halfway, centre_circle, bands]`",
    "RC384": "give a goal a width from above 0 up to the board's width and a depth above 0 and at most 1, for "
             "example `goals: {width: 1, depth: 0.3}`",
    "RC385": "outline the areas named under `board: areas:`, or leave `outline:` out to outline them all",
    "RC386": "make the formula give a value on every space, using only numbers, options and board attributes",
    "RC387": "give one goal for both ends or a list of two (the first team's end, then the second's), each "
             "`at:` at least half its width from the corners, for example `goals: [{width: 2, depth: 0.5, at: 3}, "
             "{width: 2, depth: 0.5, at: 3}]`",
    "RC388": "mark the areas named under `board: areas:`, for example `marks: {penalty_area: box}`",
    "RC389": "draw a marked area as `box` (the smallest rectangle around its spaces)",
    "RC401": "play one of the legal actions (`rulecraft actions GAME` lists them all); the message names the "
             "rule that forbids this one",
    "RC402": "make sure every decision offers a legal action and every loop of automatic steps reaches a "
             "decision or `finish`",
    "RC403": "ask for chance outcomes only where `is_chance_node()` holds",
    "RC404": "guard the formula at the line shown, for example `if n != 0 then total // n else 0`",
    "RC405": "rule the value out before using it, for example `if x != none then ... else ...`, and keep "
             "table keys inside their range",
    "RC406": "declare what a match cut at the limit returns: `limits: on_limit: \"0\"`, or raise `max_plies`",
    "RC407": "apply the outcome the seed gives, or make the match with `chance='chosen'` to pick outcomes",
    "RC501": "use a log written by `rulecraft play --log` for this game and options; the message names the "
             "line that differs",
    "RC502": "load a state saved by this game (`State.to_json`, a pickle) and not edited since",
    "RC503": "load the game first (`rulecraft play GAME` or `load_rules`) so that its state can be unpickled",
    "RC505": "replay the log with the spec revision that wrote it, or pass `--allow-revision`",
    "RC506": "use the log as it was written: it may not be edited by hand",
    "RC507": "keep the log's rolls and seed as written",
    "RC508": "open a secret choice with the very action and salt that were committed",
    "RC601": "fix the scenario at the step named, or the rule the failed expectation tests",
    "RC602": "add a scenario under the game's `scenarios/` folder, or pass an `--id` that exists",
    "RC701": "fix the template at the line shown: `{{ name }}` for a value, `{% if ... %}` for a choice",
    "RC702": "name only the values the event carries: the keys of its `event` statement in the spec",
    "RC703": "use only plain values and filters in messages, and keep them short",
    "RC801": "use the sections the text files know (`rules:`, `phases:`, ...) with an entry of the right shape",
    "RC802": "name a name or rule id the spec has (`rulecraft check GAME` shows the ids)",
    "RC803": "fix the template at the line shown: `{{ name }}` for a value, `{% if ... %}` for a choice",
    "RC804": "check the names the text uses: each must be known to the game",
    "RC805": "put a game folder with a game.yaml under `rulespecs/`",
    "RC806": "write the texts on the worklist the message prints, then publish again",
    "RC807": "read MkDocs' message; `rulecraft site check` finds text problems before a build",
    "RC808": "use only plain values and filters in texts, and keep them short",
    "RC809": "write plain Markdown: no raw HTML or images, links only to http(s) or relative pages",
    "RC810": "choose one of the rulebook's languages, in lower case: `en`, `fi`, `ru`, `es`, `de` or `it`",
    "RC811": "choose an empty or rulecraft-written folder, apart from the other one",
    "RC812": "choose a free port from 1 to 65535, for example `--port 8765`",
    "RC813": "pass either `--root` or `--game`, not both",
    "RC814": "give the phrase `other` and each CLDR category its language has (Russian `one`, `few`, "
             "`many`, `other`; English, Finnish, German, Spanish, Italian `one`, `other`), each with `#` "
             "where the number goes",
    "RC815": "install Chromium (Debian: `apt-get install chromium`); shorten a quick reference that "
             "does not fit",
}

def family_of(code: str) -> str:
    """The family digit of ``code`` (``"4"`` for ``RC405``)."""
    return code[2]


def reference_table() -> str:
    """The table of every code for the spec reference, in Markdown, a bold row per family: each
    code with its meaning and its hint."""
    rows = ["| code | meaning | hint |", "|---|---|---|"]
    seen = set()
    for code, meaning in CODES.items():
        family = family_of(code)
        if family not in seen and family != "0":
            seen.add(family)
            rows.append(f"| **RC{family}xx** | **{FAMILY_TITLES[family]}** | |")
        rows.append(f"| {code} | {meaning} | {HINTS[code]} |")
    return "\n".join(rows)
