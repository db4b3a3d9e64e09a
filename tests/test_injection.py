"""Spec text can never become code. Payloads that would run Python, break the generated module or
escape a string are put into every string field and every name of a spec; ``check``, ``compile``,
``play`` and ``scenario`` must treat each as inert data or refuse it with a positioned error —
never a traceback — and no payload's marker file may ever appear."""

from __future__ import annotations

import json

import pytest

from rulecraft.loader import load_yaml

from helpers import invoke

# {marker} is replaced by the path of the marker file that payload would create; each payload is
# written into the spec as a YAML double-quoted string (JSON's escapes: any character can be given)
PAYLOADS = [
    '"""; __import__("os").system("touch {marker}") #',
    "\'\'\'; __import__('os').system('touch {marker}') #",
    "\\\"; __import__('os').system('touch {marker}'); x = \"",
    "a\nimport os; os.system('touch {marker}')\n",
    "a\rimport os; os.system('touch {marker}')",
    "C:\\Users\\me\\{marker}",
    "nul \0 byte {marker}",
    "lone \ud800 surrogate {marker}",
    "𝑒𝑥𝑒𝑐('touch {marker}')",
    "{{{{ lipsum.__globals__['os'].popen('touch {marker}') }}}} {{% if 1 %}}{{}}{{% endif %}}",
    "__import__('os').system('touch {marker}')",
    "__class__.__mro__ {marker}",
    "<script>document.title='{marker}'</script>",
]


def quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar."""
    return json.dumps(text)


# the free-text places of a spec: each {text} is a YAML double-quoted string
SPEC = """\
game:
  id: hostile
  title: {text}
  version: {text}
  summary: {text}
  teams: [white, black]
  source: {{title: {text}, note: {text}}}
options:
  speed: {{type: int, default: 1, min: 1, max: 3, doc: {text}}}
enums:
  colour: [red, blue]
board:
  spaces:
    - {{id: near, depth: 1}}
    - {{id: far, depth: 2}}
  adjacent: "a != b"
pieces:
  kinds: {{runner: {{symbol: {text}}}}}
  roster: [{{team: each, kind: runner, at: near}}]
dice:
  d2: {{faces: [1, 2]}}
state:
  to_move: {{type: team, initial: white, doc: {text}}}
  rolled: {{type: int}}
tables:
  gain: {{rule: {text}, doc: {text}, keys: [1..2], values: [1, 2]}}
define:
  twice(n): "n * 2"
turn:
  - phase: roll
    rule: {text}
    doc: {text}
    roll: d2
    into: rolled
  - phase: move
    rule: {text}
    choose: [go, stay]
    by: to_move
  - phase: pass
    rule: {text}
    do: "to_move = to_move.opponent; event passed(by: to_move)"
actions:
  go:
    rule: {text}
    doc: {text}
    params: {{runner: piece, to: space}}
    legal:
      - {{if: "runner.team == actor and runner.at != to", rule: {text}, reason: {text}}}
    effect: "move(runner, to); event moved(runner: runner, to: to)"
  stay:
    rule: {text}
    effect: "rolled = twice(gain[rolled])"
triggers:
  - {{rule: {text}, when: "rolled > 100", do: finish, doc: {text}}}
end: {{rule: {text}, returns: "0", doc: {text}}}
invariants:
  - {{name: {text}, rule: {text}, holds: "rolled >= 0", doc: {text}}}
limits: {{max_plies: 12, on_limit: "0"}}
open_questions:
  - {{id: {text}, section: {text}, question: {text}, resolution: {text}}}
"""
SCENARIO = """\
id: {text}
title: {text}
rule: {text}
steps:
  - {{roll: 1}}
  - {{do: stay}}
"""

# (what, the spec text to replace, the replacement with {name} for the payload): every name
NAMES = [
    ("game id", "  id: hostile", '  id: {name}'),
    ("team", "teams: [white, black]", 'teams: [{name}, black]'),
    ("option", "  speed: {", '  {name}: {'),
    ("enumeration", "  colour: [red, blue]", '  {name}: [red, blue]'),
    ("enum value", "  colour: [red, blue]", '  colour: [{name}, blue]'),
    ("space", "{id: near, depth: 1}", '{id: {name}, depth: 1}'),
    ("space attribute", "{id: near, depth: 1}", '{id: near, {name}: 1}'),
    ("piece kind", "kinds: {runner:", 'kinds: {{name}:'),
    ("die", "  d2: {faces", '  {name}: {faces'),
    ("state field", "  rolled: {type: int}", '  {name}: {type: int}'),
    ("table", "  gain: {rule", '  {name}: {rule'),
    ("definition", "  twice(n):", '  "{name}(n)":'),
    ("definition parameter", "  twice(n):", '  "twice({name})":'),
    ("phase", "  - phase: pass", '  - phase: {name}'),
    ("action", "  stay:\n", '  {name}:\n'),
    ("parameter", "params: {runner: piece", 'params: {{name}: piece'),
]
NAME_PAYLOADS = ["__import__('os').system('touch {marker}')", "__class__", "𝑒𝑥𝑒𝑐", "a\nb", "ab\n", 'x"y',
                 "if", "a b", "{{{{ x }}}}", "9lives", "", "a" * 65]


def _write(folder, spec: str, scenario: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(spec, encoding="utf-8")
    (folder / "scenarios").mkdir(exist_ok=True)
    (folder / "scenarios" / "example.yaml").write_text(scenario, encoding="utf-8")


def _commands(folder, tmp_path):
    return [("check", folder), ("compile", folder, "-o", tmp_path / "out.py"), ("play", folder, "--seed", 1),
            ("scenario", folder), ("actions", folder)]


@pytest.mark.parametrize("number", range(len(PAYLOADS)))
def test_free_text_is_inert_everywhere(number, tmp_path):
    marker = tmp_path / f"marker-{number}"
    text = PAYLOADS[number].format(marker=marker)
    folder = tmp_path / "hostile"
    _write(folder, SPEC.format(text=quoted(text)), SCENARIO.format(text=quoted(text)))
    checked = invoke("check", folder)
    assert "Traceback" not in checked.output, checked.output[-2000:]
    if checked.exit_code:            # refused: at a position in the spec, and by every command
        assert "game.yaml:" in checked.output and "error[RC" in checked.output, checked.output[-2000:]
        assert all(invoke(*command).exit_code == 1 for command in _commands(folder, tmp_path))
        assert not marker.exists()
        return
    for command in _commands(folder, tmp_path):
        result = invoke(*command)
        assert "Traceback" not in result.output, (command, result.output[-2000:])
        assert result.exit_code == 0, (command, result.output[-2000:])
    namespace: dict = {}
    exec(compile((tmp_path / "out.py").read_text(encoding="utf-8"), "out.py", "exec"), namespace)
    rules = namespace["RULES"]
    written = load_yaml(str(folder / "game.yaml"))
    assert rules.title == str(written["game"]["title"])          # the text, exactly, as data
    assert rules.actions[0].rule == str(written["actions"]["go"]["rule"])
    assert not marker.exists()


@pytest.mark.parametrize("what, old, new", NAMES, ids=[n[0] for n in NAMES])
def test_every_name_is_checked(what, old, new, tmp_path):
    for number, payload in enumerate(NAME_PAYLOADS):
        marker = tmp_path / f"marker-{number}"
        spec = SPEC.format(text='"ok"')
        assert old in spec, what
        folder = tmp_path / f"spec-{number}"
        _write(folder, spec.replace(old, new.replace("{name}", quoted(payload.format(marker=marker))), 1),
               SCENARIO.format(text='"ok"'))
        result = invoke("check", folder)
        assert "Traceback" not in result.output, (what, payload, result.output[-2000:])
        assert result.exit_code == 1, (what, payload, result.output[-2000:])
        assert "game.yaml:" in result.output and "error[RC" in result.output, (what, payload, result.output)
        assert not marker.exists()


FOLDERS = ["a\"b", "x'y", "$(touch {marker})", "__init__", "..hidden", "naïve", "a b;c", "rulecraft_rules_x"]


@pytest.mark.parametrize("number", range(len(FOLDERS)))
def test_the_folder_name_is_never_code(number, tmp_path):
    marker = tmp_path / f"marker-{number}"
    folder = tmp_path / FOLDERS[number].format(marker=marker)
    _write(folder, SPEC.format(text='"ok"'), SCENARIO.format(text='"ok"'))
    for command in _commands(folder, tmp_path):
        result = invoke(*command)
        assert "Traceback" not in result.output and result.exit_code == 0, (command, result.output[-2000:])
    assert not marker.exists()
