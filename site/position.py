"""Where the pieces of one frame stand: drawn into the board's spaces and told as text.

:func:`stage` adds to every frame of a player's data (see :mod:`rulecraft.site.examples`) what
the page shows of it: each piece's place inside its space's rectangle (``places``: x, y, radius
and whether it is drawn small), each marker's spot (``spots``), each space marker's path (``paths``: the polyline through its
spaces' centres, its bends and the pieces it met on the way, see :func:`path_of`) and the
position as text
(``position``: one line per occupied space, for screen readers). :func:`layers_svg` draws a
frame's pieces and markers as SVG, so a page shows its first position without JavaScript;
the browser player (``assets/player.js``) then moves the same elements frame by frame.
"""

from __future__ import annotations

from html import escape
import math

BEND_RADIUS = 4.5         # a path's bend: a dot (a team-mate carrying it on: a ring, TOUCH_RADIUS)
SMALL_RADIUS = 8          # pieces drawn smaller than this get a smaller mark
MAX_RADIUS = 13           # a lone piece in a square: room for a two-letter mark
MARKER_RADIUS = 9
CARRIED_RADIUS = 6        # a marker drawn on the piece that carries it (the ball on its carrier)
TOUCH_RADIUS = 23         # a ring round the space's centre, clear of a team-mate's piece drawn there
UNIT = 10                 # a piece's shape is drawn at this radius and scaled to its place's
# Teams are told apart by shape as well as colour, by team index: circle, square, diamond, then
# round again (paths at radius UNIT, of about the same area).
SHAPES = ('<circle class="rc-piece-shape" r="10"{scale}/>',
          '<rect class="rc-piece-shape" x="-8.9" y="-8.9" width="17.8" height="17.8"{scale}/>',
          '<path class="rc-piece-shape" d="M0 -12.5 L12.5 0 L0 12.5 L-12.5 0 Z"{scale}/>')


def stage(data: dict, boxes: dict, labels) -> dict:
    """``data`` with ``places``, ``spots`` and ``position`` added to every frame (see the module
    docstring); ``boxes`` are the spaces' rectangles (:func:`rulecraft.site.board.space_boxes`),
    ``labels`` the site's words in the page's language (``off_board``, ``path``)."""
    data["path_marks"] = {"bend": BEND_RADIUS, "touch": TOUCH_RADIUS}
    for marker in data.get("markers", []):
        marker["path_label"] = f'{marker["label"]}: {labels["path"]}'
    for frame in data["frames"]:
        frame["places"] = _places(data, frame, boxes)
        holders = frame.get("holders") or [-1] * len(frame.get("markers", []))
        frame["spots"] = [_spot(boxes, data["spaces"], space, index, frame["places"], holder)
                          for index, (space, holder) in enumerate(zip(frame.get("markers", []), holders))]
        frame["paths"] = [path_of(boxes, data["spaces"], trail) for trail in frame.get("trails") or []]
        frame["position"] = position_lines(data, frame, labels)
    return data


def _centre(boxes: dict, spaces: list, space: int) -> list:
    box = boxes[spaces[space]]
    return [round(box.x + box.width / 2, 1), round(box.y + box.height / 2, 1)]


def path_of(boxes: dict, spaces: list, trail: dict) -> dict | None:
    """A marker's path (``trail`` from :func:`rulecraft.site.examples.trails`) drawn through its
    spaces' centres: ``{"spaces": names in order, "points": [[x, y], …], "bends": [[x, y], …],
    "touches": [[x, y], …]}``, or None for a path that has not moved. A path that left the board
    (``trail["beyond"]``, the SVG point it went to: a ball shot into the goal) has that point
    after its spaces' centres, so ``points`` is one longer than ``spaces``. A *touch* is a space
    of the path after its first where a piece stood when the marker got there (a team-mate who
    carried the ball on); a *bend* is a space where the path turns (or turns back) with no piece
    there. Raises KeyError for a space the boxes do not know."""
    route, met, beyond = trail["spaces"], trail["met"], trail.get("beyond")
    points = [_centre(boxes, spaces, space) for space in route] + ([list(beyond)] if beyond else [])
    if len(points) < 2:
        return None
    touches, bends = [], []
    for index in range(1, len(route)):
        if met[index]:
            touches.append(points[index])
        elif index + 1 < len(points):
            (x0, y0), (x1, y1), (x2, y2) = points[index - 1], points[index], points[index + 1]
            ax, ay, bx, by = x1 - x0, y1 - y0, x2 - x1, y2 - y1
            if abs(ax * by - ay * bx) > 1e-6 or ax * bx + ay * by < 0:
                bends.append(points[index])
    return {"spaces": [spaces[space] for space in route], "points": points, "bends": bends, "touches": touches}


def _places(data: dict, frame: dict, boxes: dict) -> list:
    """Each piece's ``[x, y, radius, small]`` in its space (None off the board): the pieces of a
    space in a grid that fills its rectangle below the space's name, team by team; the pieces of
    a pile (flagged by a ``pile`` flag) as one place, drawn one over the other."""
    piled = {piece for flag, flagged in zip(data.get("flags", []), frame.get("flags", []))
             if flag.get("pile") for piece in flagged}
    by_space: dict[int, list[int]] = {}
    piles: dict[int, list[int]] = {}
    for piece, space in enumerate(frame["at"]):
        if space >= 0 and piece in piled and piles.get(space):
            piles[space].append(piece)
        elif space >= 0:
            by_space.setdefault(space, []).append(piece)
            if piece in piled:
                piles[space] = [piece]
    places: list = [None] * len(frame["at"])
    for space, pieces in by_space.items():
        box = boxes[data["spaces"][space]]
        top, height, width = box.y + 22, box.height - 26, box.width - 8
        count = len(pieces)
        columns = max(1, math.ceil(math.sqrt(count * width / max(height, 1))))
        while math.ceil(count / columns) * (width / columns) > height * 1.05 and columns < count:
            columns += 1
        rows = math.ceil(count / columns)
        cell = min(width / columns, height / rows)
        radius = round(max(4, min(MAX_RADIUS, cell / 2 - 1)), 1)
        pieces.sort(key=lambda p: (data["pieces"][p]["team"], p))
        for order, piece in enumerate(pieces):
            column, row = order % columns, order // columns
            places[piece] = [round(box.x + 4 + (column + 0.5) * (width / columns), 1),
                             round(top + (row + 0.5) * (height / rows), 1), radius, radius < SMALL_RADIUS]
    for pile in piles.values():
        x, y, radius, small = places[pile[0]]
        shift = radius * 0.3
        for order, piece in enumerate(pile):
            step = order - (len(pile) - 1) / 2
            places[piece] = [round(x - step * shift, 1), round(y + step * shift, 1), radius, small]
    return places


def _spot(boxes: dict, spaces: list, space: int, index: int, places: list, holder: int):
    """Where marker number ``index`` sits, ``[x, y, radius]``: at the lower right of the piece
    ``holder`` that carries it, clear of the piece's mark and the space's name; else in its space's bottom right corner
    (side by side), clear of the space's name at the top."""
    if 0 <= holder < len(places) and places[holder]:
        x, y, radius, _ = places[holder]
        return [round(x + radius + 1, 1), round(y + radius / 2, 1), CARRIED_RADIUS]
    if space < 0:
        return None
    box = boxes[spaces[space]]
    return [box.x + box.width - 12 - 20 * index, box.y + box.height - 12, MARKER_RADIUS]


def piece_label(name: str, notes) -> str:
    """A piece's name with what is said of it: ``DEF X1 (knocked down, ball carrier)``."""
    return f"{name} ({', '.join(notes)})" if notes else name


def _flags(data: dict, frame: dict, piece: int) -> list[dict]:
    """The flags (``{"field", "label"}``) up for ``piece`` in ``frame``."""
    return [flag for flag, flagged in zip(data.get("flags", []), frame.get("flags", [])) if piece in flagged]


def position_lines(data: dict, frame: dict, labels) -> list[str]:
    """The frame's position as text: ``space: piece (flags, carrier), …, free ball`` per occupied
    space in the board's order, then the pieces off the board."""
    notes: dict[int, list[str]] = {}
    space_marks: dict[int, list[str]] = {}
    for marker, space, holder in zip(data.get("markers", []), frame.get("markers", []), frame.get("holders", [])):
        if holder >= 0:
            notes.setdefault(holder, []).append(marker["label"])
        elif space >= 0:
            space_marks.setdefault(space, []).append(marker["label"])
    items: dict[int, list[str]] = {}
    for piece, space in enumerate(frame["at"]):
        flags = [flag["label"] for flag in _flags(data, frame, piece)]
        label = piece_label(data["pieces"][piece]["name"], flags + notes.get(piece, []))
        items.setdefault(space, []).append(label)
    for space, marks in space_marks.items():
        items.setdefault(space, []).extend(marks)
    lines = [f"{data['spaces'][space]}: {', '.join(items[space])}" for space in sorted(items) if space >= 0]
    if -1 in items:
        lines.append(f"{labels['off_board']}: {', '.join(items[-1])}")
    return lines


def path_svg(index: int, marker: dict, path: dict | None) -> str:
    """The SVG of marker number ``index``'s path (:func:`path_of`): a polyline with an arrow at its
    end, a dot at each bend and a ring at each touch; hidden when there is no path, so the player
    can draw it later."""
    spaces = " ".join(path["spaces"]) if path else ""
    points = " ".join(f"{x:g},{y:g}" for x, y in path["points"]) if path else ""
    marks = "".join(f'<circle class="rc-path-bend" r="{BEND_RADIUS}" cx="{x:g}" cy="{y:g}"/>'
                    for x, y in (path["bends"] if path else ()))
    marks += "".join(f'<circle class="rc-path-touch" r="{TOUCH_RADIUS}" cx="{x:g}" cy="{y:g}"/>'
                     for x, y in (path["touches"] if path else ()))
    hidden = "" if path else ' style="display: none"'
    return (f'<g class="rc-path rc-path-{escape(marker["field"])}" data-path="{index}" '
            f'data-spaces="{escape(spaces)}"{hidden}><polyline class="rc-path-line" points="{points}"/>'
            f'<g class="rc-path-marks">{marks}</g><title>{escape(marker.get("path_label", marker["label"]))}</title></g>')


def piece_shape(team: int, radius: float) -> str:
    """The SVG shape of a piece of team number ``team`` (:data:`SHAPES`), scaled to ``radius``;
    its rim scales with it."""
    scale = "" if radius == UNIT else f' transform="scale({radius / UNIT:g})"'
    return SHAPES[team % len(SHAPES)].format(scale=scale)


def layers_svg(data: dict, frame: dict) -> str:
    """The SVG layers of lines across the pitch, pieces (over them) and markers (over both), drawn
    where ``frame`` (from :func:`stage`) puts them; every piece, marker and line is drawn, those off
    the board hidden, so the player can move them."""
    parts = ['<g class="rc-paths">']
    paths = frame.get("paths") or []
    for index, marker in enumerate(data.get("markers", [])):
        parts.append(path_svg(index, marker, paths[index] if index < len(paths) else None))
    parts.append('</g><g class="rc-across">')
    for index, (line, segment) in enumerate(zip(data.get("across", []), frame.get("across", []))):
        x1, x2, y = segment or (0, 0, 0)
        team = "" if line["team"] is None else f' rc-team-{line["team"]}'
        hidden = "" if segment else ' style="display: none"'
        parts.append(f'<line class="rc-across-line{team}" data-across="{index}" x1="{x1:g}" x2="{x2:g}" '
                     f'y1="{y:g}" y2="{y:g}"{hidden}><title>{escape(line["label"])}</title></line>')
    parts.append('</g><g class="rc-pieces">')
    for index, (piece, space, place) in enumerate(zip(data["pieces"], frame["at"], frame["places"])):
        classes = f'rc-piece rc-team-{piece["team"]} rc-kind-{escape(str(piece["kind"]))}'
        flags = _flags(data, frame, index)
        title = piece_label(piece["name"], [flag["label"] for flag in flags])
        classes += "".join(f' rc-flag-{escape(flag["field"])}' for flag in flags) + " rc-flagged" * bool(flags)
        if place:
            x, y, radius, small = place
            classes += " rc-small" * small
            where = f' transform="translate({x:g},{y:g})"'
        else:
            radius, where = UNIT, ' style="display: none"'
        name = escape(data["spaces"][space]) if space >= 0 else ""
        parts.append(f'<g class="{classes}" data-piece="{index}" data-space="{name}"{where}>'
                     f'{piece_shape(piece["team"], radius)}<text class="rc-piece-mark" text-anchor="middle" dy="0.35em">'
                     f'{escape(piece["mark"])}</text><title>{escape(title)}</title></g>')
    parts.append('</g><g class="rc-markers">')
    for index, (marker, space, spot) in enumerate(zip(data["markers"], frame["markers"], frame["spots"])):
        where = f' transform="translate({spot[0]:g},{spot[1]:g})"' if spot else ' style="display: none"'
        name = escape(data["spaces"][space]) if space >= 0 else ""
        parts.append(f'<g class="rc-marker rc-marker-{escape(marker["field"])}" data-marker="{index}" '
                     f'data-space="{name}"{where}><circle r="{spot[2] if spot else MARKER_RADIUS:g}"/>'
                     f'<title>{escape(marker["label"])}</title></g>')
    parts.append('</g>')
    return "".join(parts)
