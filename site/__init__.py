"""The rulebook site: every game of ``rulespecs/`` as a multilingual MkDocs Material website.

Pipeline, one module per step: :mod:`texts` (the text files of each language, English the
source, translations stamped with the hash of the English they came from) → :mod:`book` (a
game's spec read through the compiler's IR and the compiled rules, its texts and scenarios) →
:mod:`context` and :mod:`templating` (texts rendered as sandboxed Jinja2 templates filled from
the spec, strict about every name) → :mod:`board` (SVG from the spec's geometry), :mod:`examples`
(scenarios played by the runtime, as animations) and :mod:`pages` (Markdown per page, every spec
string escaped and every text's Markdown rewritten from an allow-list by :mod:`markup`) →
:mod:`build` (MkDocs with mkdocs-static-i18n, into folders :mod:`outputs` checks first) and
:mod:`serve` (rebuild on change); :mod:`check` is the translator's worklist. The CLI is
``rulecraft site build|serve|check``.
"""
