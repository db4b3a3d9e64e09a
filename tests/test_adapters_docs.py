"""Every Python example of the adapters' documentation runs as written.

The examples are the ```python blocks of docs/adapters.md, and the blocks of README.md that use
``rulecraft.rl`` (the section the documentation is merged into). Each block runs on its own, in
a fresh namespace, the way a reader pastes it.
"""

from __future__ import annotations

from pathlib import Path
import re

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

REPO = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def examples() -> list:
    """``(file:line, code)`` of every example block."""
    found = []
    for path in (REPO / "docs" / "adapters.md", REPO / "README.md"):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            code = match.group(1)
            if path.name == "adapters.md" or "rulecraft.rl" in code:
                line = text.count("\n", 0, match.start()) + 2
                found.append(pytest.param(code, id=f"{path.name}:{line}"))
    return found


def test_the_documentation_has_examples():
    assert len([e for e in examples() if "adapters.md" in e.id]) >= 5


@pytest.mark.parametrize("code", examples())
def test_example_runs(code, capsys):
    exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})
    assert capsys.readouterr().out.strip(), "the example printed nothing"
