"""Shared pytest setup: every test compiles into a throwaway cache, never into ~/.cache."""

from __future__ import annotations

import os

import pytest


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
