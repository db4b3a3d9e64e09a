"""rulecraft's performance harness, installed as ``rulecraft.benchmarks`` and run by ``rulecraft bench``.

setuptools maps this folder to ``rulecraft.benchmarks`` (``package-dir`` in ``pyproject.toml``),
as it maps ``runtime/`` to ``rulecraft.runtime``, so the harness imports the same way from an
editable install, a regular install and the tests. One module per kind of measurement, each timed
by one piece of code:

* :mod:`.peers`: the random-playout loop every engine is timed with, and the pairings of a
  rulecraft game with a peer engine (the hand-written reference, OpenSpiel);
* :mod:`.bench`: per game, playouts, the cost of ``legal_actions``/``apply``/``clone``/JSON,
  state sizes, compile time;
* :mod:`.jobs`: batch playouts (``rulecraft simulate``) in one process against two;
* :mod:`.bench_site`: the rulebook site build;
* :mod:`.scale`: compile time on the largest board and roster against small ones (run on its own);
* :mod:`.harness`: interleaved rounds over all of them, medians and spreads, the JSON report;
* :mod:`.targets`: the performance targets, each measured against its goal;
* :mod:`.report`: the tables ``rulecraft bench`` prints.

``reference/`` holds the hand-written taktinen engine (the peer of the generated one).
"""
