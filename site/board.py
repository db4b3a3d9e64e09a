"""Draw a game's board as SVG from the spec's drawing (never from a picture).

The geometry is :func:`rulecraft.layout.board_layout`'s, which the terminal's board shares: each
cell is scaled to pixels (a cell is ``SQUARE`` high, and as wide as keeps the board at least
``MIN_WIDTH`` wide), ``y`` is flipped so that the first team's end is at the bottom. Drawn are
the spaces with their shades, the pitch markings the spec names (halfway line, centre circle,
bands, areas marked as boxes), the goals beyond both ends, the outlined areas and, on a board
without geometry, the links between adjacent spaces.

Every space is ``<g class="rc-space rc-tone-N" data-space="NAME">`` holding a ``<rect>``, which
is what pieces are laid into (:mod:`rulecraft.site.position`), so one layout serves the board
page and the examples. Markings carry presentation attributes only, so the stylesheet may
restyle them. All text is escaped.
"""

from __future__ import annotations

from html import escape

from rulecraft.layout import Box, board_layout, exit_point, lines_across

SQUARE, MIN_WIDTH, MARGIN = 56, 450, 24
EMPTY_LAYERS = '<g class="rc-markers"></g><g class="rc-pieces"></g>'
MARK = 'fill="none" stroke="#f4f8ee" stroke-width="2"'


class _Scale:
    """Cells to SVG units for one layout: ``x`` scaled by ``sx``, ``y`` flipped and scaled by ``sy``."""

    def __init__(self, layout):
        self.sx = max(SQUARE, MIN_WIDTH / layout.width) if layout.width else SQUARE
        self.sy = SQUARE
        self.top = MARGIN + layout.depth * self.sy
        self.height = layout.height

    def x(self, x: float) -> float:
        """The SVG ``x`` of the cell coordinate ``x``."""
        return round(MARGIN + x * self.sx, 2)

    def y(self, y: float) -> float:
        """The SVG ``y`` of the cell coordinate ``y`` (counted up from the first team's end)."""
        return round(self.top + (self.height - y) * self.sy, 2)

    def box(self, box) -> Box:
        """A layout box (cells) as an SVG rectangle."""
        return Box(self.x(box.x), self.y(box.y + box.height), round(box.width * self.sx, 2),
                   round(box.height * self.sy, 2))


def space_boxes(rules) -> dict[str, Box]:
    """Each space's rectangle in SVG units, by the board's layout (see the module docstring)."""
    layout = board_layout(rules)
    scale = _Scale(layout)
    return {name: scale.box(box) for name, box in layout.boxes.items()}


def across_segments(rules, state) -> list:
    """Each line across the pitch in ``state`` (:func:`rulecraft.layout.lines_across`, e.g. an
    offside line) as SVG ``[x1, x2, y]``, None while it is off the pitch."""
    layout = board_layout(rules)
    scale = _Scale(layout)
    return [[scale.x(0), scale.x(layout.width), scale.y(line.y)] if line.y is not None else None
            for line in lines_across(layout, state)]


def exit_spot(rules, space: int, direction: int) -> list | None:
    """Where a marker leaving the board from space number ``space`` in ``direction`` is drawn, as
    SVG ``[x, y]`` (:func:`rulecraft.layout.exit_point`: one step on, into a goal drawn at that
    end); None on a board without directions."""
    layout = board_layout(rules)
    point = exit_point(rules, layout, space, direction)
    if point is None:
        return None
    scale = _Scale(layout)
    return [scale.x(point[0]), scale.y(point[1])]


def board_svg(rules, *, label: str | None, area_names=None, end_names=(), layers: str = EMPTY_LAYERS) -> str:
    """The board of ``rules`` (compiled :class:`~rulecraft.runtime.tables.RuleTables`) as an
    inline SVG element.

    ``area_names`` gives each outlined area's label in the page's language; ``end_names`` labels
    the two ends (bottom, top). ``label`` is the SVG's accessible name; None hides the drawing
    from screen readers, for a page that tells the position in text beside it. ``layers`` are the
    markers and pieces drawn on top (:func:`rulecraft.site.position.layers_svg`).
    """
    layout = board_layout(rules)
    scale = _Scale(layout)
    width = round(2 * MARGIN + layout.width * scale.sx, 2)
    height = round(2 * scale.top + layout.height * scale.sy, 2)
    access = 'aria-hidden="true"' if label is None else f'role="img" aria-label="{escape(label)}"'
    parts = [f'<svg class="rc-board rc-board-{layout.kind}" viewBox="0 0 {width:g} {height:g}" '
             f'{access} xmlns="http://www.w3.org/2000/svg">']
    if layout.kind == "grid":
        parts.append(f'<rect class="rc-grid-back" x="{MARGIN}" y="{scale.top:g}" '
                     f'width="{layout.width * scale.sx:g}" height="{layout.height * scale.sy:g}"/>')
    if layout.links:
        parts.append(_links(layout, scale))
    parts.append('<g class="rc-spaces">')
    for name, box in layout.boxes.items():
        rect = scale.box(box)
        parts.append(f'<g class="rc-space rc-tone-{layout.shades[name]}" data-space="{escape(name)}">'
                     f'<rect x="{rect.x:g}" y="{rect.y:g}" width="{rect.width:g}" height="{rect.height:g}"/>'
                     f'<text class="rc-space-name" x="{rect.x + 6:g}" y="{rect.y + 16:g}">{escape(name)}</text>'
                     '</g>')
    parts.append('</g>')
    parts.append(_markings(layout, scale))
    if len(end_names) == 2:
        bottom, top = (escape(str(name)) for name in end_names)
        parts.append(f'<text class="rc-end" x="{width / 2:g}" y="{height - 6:g}">{bottom}</text>'
                     f'<text class="rc-end" x="{width / 2:g}" y="{MARGIN - 7:g}">{top}</text>')
    for area, boxes in layout.outlines.items():
        title = escape((area_names or {}).get(area, area))
        parts.append(f'<g class="rc-area" data-area="{escape(area)}"><title>{title}</title>')
        for rect in map(scale.box, boxes):
            parts.append(f'<rect x="{rect.x + 3:g}" y="{rect.y + 3:g}" width="{rect.width - 6:g}" '
                         f'height="{rect.height - 6:g}"/>')
        parts.append('</g>')
    parts.append(layers + '</svg>')
    return "".join(parts)


def _markings(layout, scale: _Scale) -> str:
    """The bands, the halfway line, the centre circle, the marked areas and the goals, in that order."""
    left, right = scale.x(0), scale.x(layout.width)
    marks = [f'<line class="rc-band" x1="{left:g}" y1="{scale.y(y):g}" x2="{right:g}" y2="{scale.y(y):g}" '
             f'{MARK} stroke-opacity="0.35" stroke-dasharray="2 6"/>' for y in layout.bands]
    if layout.halfway is not None:
        y = scale.y(layout.halfway)
        marks.append(f'<line class="rc-midline" x1="{left:g}" y1="{y:g}" x2="{right:g}" y2="{y:g}" {MARK}/>')
    if layout.circle is not None:
        x, y, radius = layout.circle
        marks.append(f'<circle class="rc-centre-circle" cx="{scale.x(x):g}" cy="{scale.y(y):g}" '
                     f'r="{radius * scale.sx:g}" {MARK}/>')
    for area, box in layout.marks.items():
        rect = scale.box(box)
        marks.append(f'<rect class="rc-area-mark" data-area="{escape(area)}" x="{rect.x:g}" y="{rect.y:g}" '
                     f'width="{rect.width:g}" height="{rect.height:g}" {MARK}/>')
    for end, goal in enumerate(layout.goals):
        rect = scale.box(goal)
        marks.append(f'<rect class="rc-goal" data-end="{end}" x="{rect.x:g}" y="{rect.y:g}" '
                     f'width="{rect.width:g}" height="{rect.height:g}" {MARK}/>')
    return "".join(marks)


def _links(layout, scale: _Scale) -> str:
    """The lines between the centres of adjacent spaces of a board without geometry."""
    lines = ['<g class="rc-links">']
    for one, two in layout.links:
        (x1, y1), (x2, y2) = layout.boxes[one].centre, layout.boxes[two].centre
        lines.append(f'<line x1="{scale.x(x1):g}" y1="{scale.y(y1):g}" x2="{scale.x(x2):g}" y2="{scale.y(y2):g}"/>')
    lines.append('</g>')
    return "".join(lines)
