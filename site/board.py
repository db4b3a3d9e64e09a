"""Draw a game's board as SVG from the spec's geometry (never from a picture).

* Zone boards whose spaces have the attributes ``column``, ``low`` and ``high`` (taktinen): each
  zone is a rectangle spanning its column and its bands; band 1 is at the bottom (the first
  team's end), and a line marks the middle of the length.
* Grid boards: a square per grid position from ``rows``/``columns``; squares that are not
  playable are drawn as empty background, row 1 at the bottom.
* Any other board: its spaces in rows, joined by their adjacency.

Areas are outlined over their spaces. Every space is ``<g class="rc-space" data-space="NAME">``
holding a ``<rect>``, which is what pieces are laid into (:mod:`rulecraft.site.position`), so
one layout serves the board page and the examples. All text is escaped.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
import math

ZONE_WIDTH, BAND_HEIGHT, SQUARE, MARGIN = 150, 62, 56, 24
EMPTY_LAYERS = '<g class="rc-markers"></g><g class="rc-pieces"></g>'


@dataclass(frozen=True)
class Box:
    """A space's rectangle in SVG units."""

    x: float
    y: float
    width: float
    height: float


def board_kind(ir) -> str:
    """``zones`` (column and band attributes), ``grid`` or ``graph`` (see the module docstring)."""
    if {"column", "low", "high"} <= ir.board.attributes.keys():
        return "zones"
    return "grid" if ir.board.grid else "graph"


def space_boxes(ir) -> dict[str, Box]:
    """Each space's rectangle, by the geometry the spec gives (see the module docstring)."""
    attributes = {name: values for name, (_, values) in ir.board.attributes.items()}
    if board_kind(ir) == "zones":
        bands = max(attributes["high"])
        return {name: Box(MARGIN + column * ZONE_WIDTH, MARGIN + (bands - high) * BAND_HEIGHT,
                          ZONE_WIDTH, (high - low + 1) * BAND_HEIGHT)
                for name, column, low, high in zip(ir.board.spaces, attributes["column"], attributes["low"],
                                                   attributes["high"])}
    if board_kind(ir) == "grid":
        rows = ir.board.grid.rows
        return {name: Box(MARGIN + (col - 1) * SQUARE, MARGIN + (rows - row) * SQUARE, SQUARE, SQUARE)
                for name, (row, col) in zip(ir.board.spaces, ir.board.grid.coords)}
    per_row = max(1, math.ceil(math.sqrt(len(ir.board.spaces))))
    return {name: Box(MARGIN + (i % per_row) * SQUARE * 2, MARGIN + (i // per_row) * SQUARE * 2,
                      SQUARE, SQUARE) for i, name in enumerate(ir.board.spaces)}


def board_svg(ir, areas: dict, *, label: str | None, area_names=None, end_names=(),
              layers: str = EMPTY_LAYERS) -> str:
    """The board as an inline SVG element.

    ``areas`` maps area names to space indices; ``area_names`` gives each area's label in the
    page's language; ``end_names`` labels the two ends (bottom, top) of a zone board. ``label`` is
    the SVG's accessible name; None hides the drawing from screen readers, for a page that tells
    the position in text beside it. ``layers`` are the markers and pieces drawn on top
    (:func:`rulecraft.site.position.layers_svg`).
    """
    boxes = space_boxes(ir)
    width = max(b.x + b.width for b in boxes.values()) + MARGIN if boxes else 2 * MARGIN
    height = max(b.y + b.height for b in boxes.values()) + MARGIN if boxes else 2 * MARGIN
    kind = board_kind(ir)
    access = 'aria-hidden="true"' if label is None else f'role="img" aria-label="{escape(label)}"'
    parts = [f'<svg class="rc-board rc-board-{kind}" viewBox="0 0 {width:g} {height:g}" '
             f'{access} xmlns="http://www.w3.org/2000/svg">']
    if kind == "grid":
        parts.append(_grid_background(ir))
    if kind == "graph":
        parts.append(_links(ir, boxes))
    parts.append('<g class="rc-spaces">')
    tones = _tones(ir, boxes, kind)
    for index, name in enumerate(ir.board.spaces):
        box = boxes[name]
        tone = tones[index]
        parts.append(f'<g class="rc-space rc-tone-{tone}" data-space="{escape(name)}">'
                     f'<rect x="{box.x:g}" y="{box.y:g}" width="{box.width:g}" height="{box.height:g}"/>'
                     f'<text class="rc-space-name" x="{box.x + 6:g}" y="{box.y + 16:g}">{escape(name)}</text>'
                     '</g>')
    parts.append('</g>')
    if kind == "zones":
        parts.append(_zone_marks(boxes, width, height, end_names))
    for area, members in areas.items():
        title = escape((area_names or {}).get(area, area))
        parts.append(f'<g class="rc-area" data-area="{escape(area)}"><title>{title}</title>')
        for index in members:
            box = boxes[ir.board.spaces[index]]
            parts.append(f'<rect x="{box.x + 3:g}" y="{box.y + 3:g}" width="{box.width - 6:g}" '
                         f'height="{box.height - 6:g}"/>')
        parts.append('</g>')
    parts.append(layers + '</svg>')
    return "".join(parts)


def _tones(ir, boxes, kind) -> list[int]:
    """Alternating shades: along each column of a zone board, chequered on a grid."""
    if kind == "grid":
        return [(row + col) % 2 for row, col in ir.board.grid.coords]
    if kind == "zones":
        columns = ir.board.attributes["column"][1]
        order = sorted(range(len(ir.board.spaces)), key=lambda i: (columns[i], -boxes[ir.board.spaces[i]].y))
        tones = [0] * len(ir.board.spaces)
        for position, index in enumerate(order):
            tones[index] = sum(1 for j in order[:position] if columns[j] == columns[index]) % 2
        return tones
    return [0] * len(ir.board.spaces)


def _grid_background(ir) -> str:
    rows, columns = ir.board.grid.rows, ir.board.grid.columns
    return (f'<rect class="rc-grid-back" x="{MARGIN}" y="{MARGIN}" width="{columns * SQUARE}" '
            f'height="{rows * SQUARE}"/>')


def _links(ir, boxes) -> str:
    lines = ['<g class="rc-links">']
    for a, near in enumerate(ir.board.neighbors):
        for b in near:
            if a < b:
                one, two = boxes[ir.board.spaces[a]], boxes[ir.board.spaces[b]]
                lines.append(f'<line x1="{one.x + one.width / 2:g}" y1="{one.y + one.height / 2:g}" '
                             f'x2="{two.x + two.width / 2:g}" y2="{two.y + two.height / 2:g}"/>')
    lines.append('</g>')
    return "".join(lines)


def _zone_marks(boxes, width, height, end_names) -> str:
    middle = height / 2
    marks = [f'<line class="rc-midline" x1="{MARGIN:g}" y1="{middle:g}" x2="{width - MARGIN:g}" '
             f'y2="{middle:g}"/>']
    if len(end_names) == 2:
        bottom, top = (escape(str(name)) for name in end_names)
        marks.append(f'<text class="rc-end" x="{width / 2:g}" y="{height - 6:g}">{bottom}</text>')
        marks.append(f'<text class="rc-end" x="{width / 2:g}" y="{MARGIN - 7:g}">{top}</text>')
    return "".join(marks)
