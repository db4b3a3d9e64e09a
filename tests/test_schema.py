"""The JSON Schema of a spec, generated from the one declaration of the spec's shape: it is a valid
draft 2020-12 schema, the published copy is current, it accepts every spec of the repository and
of the spec reference, and it refuses values of the wrong shape — as the compiler does."""

from __future__ import annotations

import json

import pytest

from rulecraft.compiler import check
from rulecraft.compiler.schema import json_schema, json_schema_text
from rulecraft.errors import SpecError
from rulecraft.loader import load_yaml, plain
from helpers import REPO, invoke
from test_reference_doc import blocks, complete_spec

jsonschema = pytest.importorskip("jsonschema")
VALIDATOR = jsonschema.Draft202012Validator(json_schema())
SPECS = sorted([*REPO.glob("rulespecs/*/game.yaml"), *REPO.glob("examples/*/game.yaml")])


def test_the_schema_is_a_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(json_schema())
    assert json_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_published_schema_is_the_generated_one():
    published = REPO / "docs" / "spec.schema.json"
    assert published.read_text(encoding="utf-8") == json_schema_text(), \
        "regenerate it: rulecraft schema -o docs/spec.schema.json"


def test_rulecraft_schema_prints_it_and_writes_it(tmp_path):
    printed = invoke("schema")
    assert printed.exit_code == 0 and json.loads(printed.output) == json_schema()
    written = invoke("schema", "-o", tmp_path / "spec.schema.json")
    assert written.exit_code == 0
    assert (tmp_path / "spec.schema.json").read_text(encoding="utf-8") == json_schema_text()


@pytest.mark.parametrize("path", SPECS, ids=[p.parent.name for p in SPECS])
def test_every_spec_of_the_repository_is_valid(path):
    assert len(SPECS) >= 7
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(plain(load_yaml(str(path))))]
    assert problems == []


def test_every_spec_of_the_reference_is_valid(tmp_path):
    examples = [b for b in blocks() if b.kind in ("spec", "fragment")]
    assert len(examples) > 20
    for block in examples:
        (tmp_path / "game.yaml").write_text(complete_spec(block), encoding="utf-8")
        data = plain(load_yaml(str(tmp_path / "game.yaml")))
        problems = [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(data)]
        assert problems == [], f"the example at line {block.line} of the spec reference"


PIG = REPO / "examples" / "pig" / "game.yaml"
BALL = REPO / "rulespecs" / "ball" / "game.yaml"
BAD = [   # what, spec, old text, new text, the schema's path to the bad value, a text on its line
    ("choice values: 5", PIG, "options:\n", "options:\n  mode: {type: choice, default: a, values: 5}\n",
     ["options", "mode", "values"], "values: 5"),
    ("choice values: {a: 1}", PIG, "options:\n", "options:\n  mode: {type: choice, default: a, values: {a: 1}}\n",
     ["options", "mode", "values"], "values: {a: 1}"),
    ("roster count: '3'", BALL, "{team: each, number: 1, kind: X,", '{team: each, number: 1, kind: X, count: "3",',
     ["pieces", "roster", 0, "count"], 'count: "3"'),
    ("choose: null", PIG, "choose: [roll, hold]", "choose: null", ["turn", 0, "choose"], "choose: null"),
    ("choose: []", PIG, "choose: [roll, hold]", "choose: []", ["turn", 0, "choose"], "choose: []"),
    ("choose: {}", PIG, "choose: [roll, hold]", "choose: {}", ["turn", 0, "choose"], "choose: {}"),
    ("an unknown section", PIG, "dice:\n", "dicey: 1\ndice:\n", [], "dicey"),
    ("an unknown key", PIG, "  d6: {faces:", "  d6: {fces:", ["dice", "d6"], "fces"),
]


@pytest.mark.parametrize("what, spec, old, new, path, marker", BAD, ids=[b[0] for b in BAD])
def test_a_value_of_the_wrong_shape_is_refused_by_the_schema_and_the_compiler(tmp_path, what, spec, old, new, path,
                                                                               marker):
    text = spec.read_text(encoding="utf-8").replace(old, new, 1)
    assert new in text
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    places = [list(e.absolute_path) for e in VALIDATOR.iter_errors(plain(load_yaml(str(tmp_path / "game.yaml"))))]
    assert path in places, places
    with pytest.raises(SpecError) as raised:
        check(tmp_path)
    line = next(n for n, content in enumerate(text.splitlines(), 1) if marker in content)
    assert raised.value.position.line == line, str(raised.value)
