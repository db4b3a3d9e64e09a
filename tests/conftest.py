"""Shared pytest setup: every test compiles into a throwaway cache, never into ~/.cache."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser):
    """``--update-golden`` records the golden playthroughs (tests/test_golden.py) anew."""
    parser.addoption("--update-golden", action="store_true",
                     help="record tests/golden/*.json from the current code instead of comparing")


@pytest.fixture(scope="session", autouse=True)
def rulecraft_cache(tmp_path_factory):
    """Point ``RULECRAFT_CACHE`` at a session temporary folder (subprocesses inherit it)."""
    folder = tmp_path_factory.mktemp("rulecraft-cache")
    previous = os.environ.get("RULECRAFT_CACHE")
    os.environ["RULECRAFT_CACHE"] = str(folder)
    yield folder
    if previous is None:
        del os.environ["RULECRAFT_CACHE"]
    else:
        os.environ["RULECRAFT_CACHE"] = previous
