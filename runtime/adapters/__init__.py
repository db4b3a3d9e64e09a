"""Adapters that present any compiled rulecraft game to the AI and RL toolkits.

* :mod:`rulecraft.runtime.adapters.openspiel` — an OpenSpiel (pyspiel) Python game;
* :mod:`rulecraft.runtime.adapters.pettingzoo` — a PettingZoo ``AECEnv``;
* :mod:`rulecraft.runtime.adapters.gym` — a single-agent Gymnasium ``Env`` (the other teams
  played by a rulecraft bot).

Each adapter takes an already built :class:`~rulecraft.runtime.engine.Game` and knows no game.
Their third-party dependencies (``open_spiel``, ``pettingzoo``, ``gymnasium``, ``numpy``: the
``rulecraft[rl]`` extra) are imported by the adapter modules alone, so neither this package nor the
core runtime needs them. Compiling a spec and registering it by name is the job of
:mod:`rulecraft.rl`, outside the runtime (the runtime never imports the compiler).
"""
