"""The legend under a board: what each colour, shape and marker drawn on it means.

:func:`legend_items` reads a player's data (or a board page's single frame, both staged by
:func:`rulecraft.site.position.stage`) and names only what the board shows in some frame: each
team on the board (its colour in its shape, by the team's name), legal targets and the option
taken next (a square and a piece as they are highlighted), a target shown refused, each marker (the ball, its carrier,
a free ball …), each marker's path with its bends and the team-mates who carried it on, each per-piece flag (knocked down …), each line across the pitch (an offside
line, by its field and team) and each outlined area. Every swatch is
drawn with the board's own classes, so ``player.css`` paints it exactly as the board.
"""

from __future__ import annotations

from html import escape

from rulecraft.site.markup import Safe
from rulecraft.site.position import BEND_RADIUS, MARKER_RADIUS, UNIT, piece_shape

SWATCH = '<svg class="rc-swatch" viewBox="{box}" aria-hidden="true" focusable="false">{body}</svg>'
PIECE_BOX, SQUARE_BOX = "-14 -14 28 28", "0 0 28 28"


def legend_items(data: dict, labels, area_names: dict[str, str]) -> list[dict]:
    """The legend's entries for ``data``: dicts of ``key`` (``team-0``, ``legal``, ``chosen``,
    ``refused``, ``marker-ball``, ``path-ball``, ``path-bend``, ``path-touch``, ``flag-down``, ``across-N``, ``area-NAME``), ``label`` (plain text in the
    page's language) and ``swatch`` (SVG markup, built from escaped text only). ``labels`` are
    the site's words (``legal_space``, ``chosen``, ``refused``, ``path_bend``, ``path_touch``), ``area_names`` each drawn area's
    name by its spec name."""
    frames = data["frames"]
    items = []
    teams = sorted({data["pieces"][p]["team"] for frame in frames
                    for p, place in enumerate(frame["places"]) if place})
    for team in teams:
        items.append(_item(f"team-{team}", data["teams"][team], _piece(team)))
    for key, label, state in (("legal", labels["legal_space"], "legal"), ("chosen", labels["chosen"], "next")):
        if any(_names_targets(frame.get(state) if state == "next" else frame.get("legal")) for frame in frames):
            items.append(_item(key, label, _highlight(key, teams[0] if teams else 0)))
    if any(refusal.get("spaces") for frame in frames for refusal in frame.get("refused", [])):
        body = '<g class="rc-space rc-refused-target"><rect x="2.5" y="2.5" width="23" height="23"/></g>'
        items.append(_item("refused", labels["refused"], SWATCH.format(box=SQUARE_BOX, body=body)))
    for index, marker in enumerate(data["markers"]):
        if any(frame["spots"][index] for frame in frames):
            body = (f'<g class="rc-marker rc-marker-{escape(marker["field"])}">'
                    f'<circle r="{MARKER_RADIUS}"/></g>')
            items.append(_item(f"marker-{marker['field']}", marker["label"], SWATCH.format(box=PIECE_BOX, body=body)))
    paths = [[path for frame in frames for path in (frame.get("paths") or [])[index:index + 1] if path]
             for index in range(len(data["markers"]))]
    for index, marker in enumerate(data["markers"]):
        if paths[index]:
            body = ('<rect class="rc-swatch-back" width="28" height="28"/><g class="rc-path">'
                    '<polyline class="rc-path-line" points="3,24 14,14 25,4"/></g>')
            items.append(_item(f"path-{marker['field']}", marker.get("path_label", marker["label"]),
                               SWATCH.format(box=SQUARE_BOX, body=body)))
    # the swatch's ring is drawn to fit its square (the board's ring is sized to go round a piece)
    for key, mark, radius in (("bend", "bends", BEND_RADIUS), ("touch", "touches", 10)):
        if any(path[mark] for drawn in paths for path in drawn):
            body = (f'<rect class="rc-swatch-back" width="28" height="28"/><g class="rc-path">'
                    f'<circle class="rc-path-{key}" r="{radius}" cx="14" cy="14"/></g>')
            items.append(_item(f"path-{key}", labels[f"path_{key}"], SWATCH.format(box=SQUARE_BOX, body=body)))
    for index, flag in enumerate(data["flags"]):
        if any(frame["places"][p] for frame in frames for p in frame["flags"][index]):
            items.append(_item(f"flag-{flag['field']}", flag["label"],
                               _piece(teams[0] if teams else 0, f' rc-flagged rc-flag-{escape(flag["field"])}')))
    for index, line in enumerate(data.get("across", [])):
        if any(frame["across"][index] for frame in frames):
            team = "" if line["team"] is None else f' rc-team-{line["team"]}'
            body = (f'<rect class="rc-swatch-back" width="28" height="28"/>'
                    f'<line class="rc-across-line{team}" x1="0" x2="28" y1="14" y2="14"/>')
            items.append(_item(f"across-{index}", line["label"], SWATCH.format(box=SQUARE_BOX, body=body)))
    for area, name in area_names.items():
        body = ('<rect class="rc-swatch-back" width="28" height="28"/>'
                '<g class="rc-area"><rect x="3" y="3" width="22" height="22"/></g>')
        items.append(_item(f"area-{area}", name, SWATCH.format(box=SQUARE_BOX, body=body)))
    return items


def _names_targets(options) -> bool:
    """A frame's legal options or next option names a space or a piece (something highlighted)."""
    return bool(options and (options.get("spaces") or options.get("pieces")))


def _item(key: str, label: str, swatch: str) -> dict:
    return {"key": key, "label": str(label), "swatch": Safe(swatch)}


def _piece(team: int, classes: str = "") -> str:
    """A swatch of a piece of ``team``, with extra ``classes`` (a flag, a highlight)."""
    body = f'<g class="rc-piece rc-team-{team}{classes}">{piece_shape(team, UNIT)}</g>'
    return SWATCH.format(box=PIECE_BOX, body=body)


def _highlight(state: str, team: int) -> str:
    """A swatch of a highlighted square (``legal`` or ``chosen``) holding a piece highlighted alike."""
    body = (f'<g class="rc-space rc-{state}"><rect x="2.5" y="2.5" width="23" height="23"/></g>'
            f'<g class="rc-piece rc-team-{team} rc-{state}" transform="translate(14,15)">'
            f'{piece_shape(team, 6)}</g>')
    return SWATCH.format(box=SQUARE_BOX, body=body)
