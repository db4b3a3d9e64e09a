"""The progress layer: drawn on a terminal while a long run works, never into piped output."""

from __future__ import annotations

import io

from rich.console import Console

from helpers import invoke
from rulecraft.progress import working


def test_a_terminal_sees_what_is_being_done_and_it_vanishes_at_the_end():
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=80)
    with working(console, "playing 10 matches") as update:
        update("match 3")
    drawn = screen.getvalue()
    assert "playing 10 matches" in drawn and "0:00:0" in drawn


def test_piped_output_gets_no_progress_only_the_fallback():
    screen, told = io.StringIO(), []
    console = Console(file=screen, force_terminal=False)
    with working(console, "measuring", told.append) as update:
        update("round 1 of 5")
    assert screen.getvalue() == "" and told == ["round 1 of 5"]


def test_a_piped_simulation_prints_no_progress_line():
    result = invoke("simulate", "tictactoe", "--games", 3)
    assert result.exit_code == 0, result.output
    assert "playing 3 matches" not in result.output
    assert result.output.startswith("tictactoe, 3 matches, random bots, seed 0")
