"""A board's drawing in cell units, from the compiled rule tables: what the site and the terminal share.

:func:`board_layout` reads ``RuleTables.drawing`` (the constants ``board: drawing:`` compiles to,
see :mod:`rulecraft.compiler.drawing`) and gives every space's box and shade and the pitch
markings' geometry, for any game. Coordinates are cells, ``x`` to the right and ``y`` up from
the first team's end (``y = 0``) to the second team's (``y = height``); each output scales them
(the site to pixels, the terminal to characters) and flips ``y`` if it draws top down.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulecraft.runtime.support import DIRECTIONS

TEAM_COLOURS = ("#d55e00", "#0072b2", "#56b4e9")
"""Each team's colour by team index, the rulebook's (``site/assets/player.css``, ``.rc-team-N``):
vermillion, blue and sky blue of the Okabe–Ito palette (Okabe & Ito 2008), told apart under
every colour-vision deficiency; a fourth team and more take them again from the first."""

CIRCLE_SHARE = 9.15 / 68
"""The centre circle's radius as a share of the pitch's width: 9.15 m of a 68 m wide pitch."""


def team_colour(team: int) -> str:
    """The ``#rrggbb`` colour of the team with index ``team`` (see :data:`TEAM_COLOURS`)."""
    return TEAM_COLOURS[team % len(TEAM_COLOURS)]


@dataclass(frozen=True)
class Box:
    """A rectangle: its corner (``x``, ``y``), its width and height. A layout's boxes are in cells
    with ``y`` up (the corner is the lower left one); the site's (:func:`rulecraft.site.board.space_boxes`)
    in SVG units with ``y`` down (the upper left one)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def centre(self) -> tuple:
        """``(x, y)`` of the middle of the box."""
        return self.x + self.width / 2, self.y + self.height / 2


@dataclass(frozen=True)
class Layout:
    """A board's drawing: ``kind`` (``grid``, ``zones`` or ``graph``), the pitch's ``width`` and
    ``height``, each space's ``boxes`` and ``shades`` (0 to 3) by name, the ``halfway`` line's
    ``y`` (None when not drawn), the centre ``circle`` as ``(x, y, radius)`` (None), the ``bands``'
    ``y`` (the lines between the pitch's rows), the ``goals`` (the first team's, then the
    second's, outside the pitch's ends; () when not drawn), the ``outlines`` (area name to the
    boxes of its spaces), the ``marks`` (area name to the box drawn around it, a marking such
    as a penalty area), the ``links`` between spaces of a graph (pairs of names), the state
    fields whose values draw lines ``across`` the pitch (:func:`lines_across`) and the
    ``origin``, the ``place:`` coordinates of the pitch's lower left corner."""

    kind: str
    width: float
    height: float
    boxes: dict
    shades: dict
    halfway: float | None
    circle: tuple | None
    bands: tuple
    goals: tuple
    outlines: dict
    marks: dict
    links: tuple
    across: tuple = ()
    origin: tuple = (0, 0)

    @property
    def depth(self) -> float:
        """How far the goals stand out beyond each end (0 without goals)."""
        return max((goal.height for goal in self.goals), default=0.0)


def board_layout(rules) -> Layout:
    """The :class:`Layout` of the board of ``rules`` (a :class:`~rulecraft.runtime.tables.RuleTables`,
    whose ``drawing`` every compiled module carries)."""
    drawing = rules.drawing
    names = rules.spaces
    boxes = {name: Box(*box) for name, box in zip(names, drawing["boxes"])}
    width, height = drawing["size"]
    lines = drawing["lines"]
    goals = ()
    if drawing["goals"]:
        (first, first_depth, first_at), (second, second_depth, second_at) = drawing["goals"]
        goals = (Box(first_at - first / 2, -first_depth, first, first_depth),
                 Box(second_at - second / 2, height, second, second_depth))
    return Layout(kind=drawing["kind"], width=width, height=height, boxes=boxes,
                  shades=dict(zip(names, drawing["shades"])),
                  halfway=height / 2 if "halfway" in lines else None,
                  circle=(width / 2, height / 2, CIRCLE_SHARE * width) if "centre_circle" in lines else None,
                  bands=tuple(range(1, int(height))) if "bands" in lines else (),
                  goals=goals,
                  outlines={area: tuple(boxes[names[i]] for i in members)
                            for area, members in drawing["outline"].items()},
                  marks={area: Box(*box) for area, box in drawing["marks"].items()},
                  links=tuple((names[a], names[b]) for a, b in drawing["links"]),
                  across=tuple(drawing.get("across", ())), origin=tuple(drawing.get("origin", (0, 0))))


def exit_point(rules, layout: Layout, space: int, direction: int) -> tuple | None:
    """Where a thing that leaves the board from space number ``space`` in ``direction`` (an index
    into :data:`~rulecraft.runtime.support.DIRECTIONS`) is drawn: ``(x, y)`` in cells, one step on
    from the space's centre. The step is measured on the board, from the space behind (one step
    the other way) to this one, so it follows the drawing's ``place:`` coordinates; with no space
    behind, the box's own size. Beyond an end where a goal is drawn the point is in that goal:
    at its middle depth, inside its width (a ball passing the post diagonally still ends in the
    net). None on a board without a grid (no directions)."""
    if not rules.grid:
        return None
    coords = rules.grid["coords"]
    _, dr, dc = DIRECTIONS[direction]
    box = layout.boxes[rules.spaces[space]]
    (x, y), (row, col) = box.centre, coords[space]
    behind = {rc: index for index, rc in enumerate(coords)}.get((row - dr, col - dc))
    if behind is None:
        dx, dy = dc * box.width, dr * box.height
    else:
        bx, by = layout.boxes[rules.spaces[behind]].centre
        dx, dy = x - bx, y - by
    x, y = x + dx, y + dy
    goal = next((goal for goal in layout.goals if (y < 0) == (goal.y < 0) and (y < 0 or y > layout.height)), None)
    if goal is not None:
        x, y = min(max(x, goal.x + goal.width * 0.1), goal.x + goal.width * 0.9), goal.centre[1]
    return x, y


@dataclass(frozen=True)
class Across:
    """A line across the pitch where a state field puts it: the ``field``, the ``team`` it
    belongs to (None for a plain field) and its ``y`` in cells, None while it is off the pitch."""

    field: str
    team: int | None
    y: float | None


def lines_across(layout: Layout, state) -> tuple:
    """The :class:`Across` lines of ``layout.across`` in ``state`` (a runtime
    :class:`~rulecraft.runtime.engine.State`): one per plain field, one per team for a field of
    team, in that order; a value on or beyond an end of the pitch draws none (``y`` None)."""
    lines = []
    for name in layout.across:
        field = state.game.field(name)
        for index in range(field.size):
            y = state.s[field.base + index] - layout.origin[1]
            lines.append(Across(name, index if field.of == "team" else None,
                                y if 0 < y < layout.height else None))
    return tuple(lines)
