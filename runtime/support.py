"""Functions that generated rule modules call: shared here once instead of written into each module.

Generated modules import this module and :mod:`rulecraft.runtime.tables` only. Everything here is
plain, game-independent code over the module's precomputed tables.
"""

from __future__ import annotations

from collections import deque

from rulecraft.errors import RuleFault


# the built-in enumeration ``direction``, clockwise from north: (name, row step, column step).
# North is towards higher row numbers (row 1 is the south edge, drawn at the bottom), east
# towards higher column numbers.
DIRECTIONS = (("n", 1, 0), ("ne", 1, 1), ("e", 0, 1), ("se", -1, 1),
              ("s", -1, 0), ("sw", -1, -1), ("w", 0, -1), ("nw", 1, -1))
_UNITS = {(dr, dc): d for d, (_, dr, dc) in enumerate(DIRECTIONS)}


class RowsOnRead(dict):
    """A table of one entry per pair of spaces, read as ``table[a][b]``, made from ``source``
    (a tuple with one entry per space). The whole table has a square of the board's size
    entries, so a row is computed the first time it is read, and kept. The kept rows are the
    dictionary's own entries, so reading a row once it is made is a plain dictionary lookup
    (no Python call: rules read these tables in their innermost loops)."""

    def __init__(self, source: tuple):
        super().__init__()
        self.source = source

    def __len__(self) -> int:
        return len(self.source)

    def __missing__(self, start: int) -> tuple:
        """The entries from space ``start`` to every space, made on the first read; IndexError
        off the board."""
        if not (isinstance(start, int) and 0 <= start < len(self.source)):
            raise IndexError(f"no space {start}")
        row = self._row(start)
        dict.__setitem__(self, start, row)
        return row

    __hash__ = object.__hash__

    def __eq__(self, other) -> bool:
        return self is other

    def __ne__(self, other) -> bool:
        return self is not other

    def _row(self, start: int) -> tuple:
        raise NotImplementedError


class Distances(RowsOnRead):
    """``distance(a, b)`` from ``neighbors`` (each space's neighbour tuple): the fewest steps
    from ``a`` to ``b`` along adjacency, -1 if unreachable (a row is a breadth-first search)."""

    def _row(self, start: int) -> tuple:
        row = [-1] * len(self.source)
        row[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.source[here]:
                if row[there] < 0:
                    row[there] = row[here] + 1
                    queue.append(there)
        return tuple(row)


class Towards(RowsOnRead):
    """``direction(a, b)`` from ``coords`` (each square's (row, column)): the index in
    :data:`DIRECTIONS` of the direction from ``a`` to ``b`` when they share a row, a column or a
    diagonal; -1 otherwise, and from a square to itself."""

    def _row(self, start: int) -> tuple:
        row, col = self.source[start]
        found = []
        for other_row, other_col in self.source:
            dr, dc = other_row - row, other_col - col
            aligned = (dr or dc) and (not dr or not dc or abs(dr) == abs(dc))
            found.append(_UNITS[((dr > 0) - (dr < 0), (dc > 0) - (dc < 0))] if aligned else -1)
        return tuple(found)


def connected_from(neighbors, start: int, allowed) -> tuple:
    """``connected(z, [y for y in S where C])``: ``start``, then every space linked to it through
    adjacent spaces of ``allowed`` (a set of space indices), in order of distance; () for none."""
    if start < 0:
        return ()
    found, seen, index = [start], {start}, 0
    while index < len(found):
        for there in neighbors[found[index]]:
            if there in allowed and there not in seen:
                seen.add(there)
                found.append(there)
        index += 1
    return tuple(found)


def reach_from(reached, z: int, steps: int) -> tuple:
    """``reach(z, steps)``: the squares the set of grid steps ``steps`` reaches from square
    ``z`` (``reached[steps][z]``, precomputed); () for none."""
    return reached[steps][z] if z >= 0 else ()


def take_until(items, stop) -> tuple:
    """``x in S until C``: the items of ``items`` before the first for which ``stop(item)``
    (the condition C) holds; all of them when it never holds."""
    run = []
    for item in items:
        if stop(item):
            break
        run.append(item)
    return tuple(run)


def at_least(needed: int, items) -> bool:
    """``count(...) >= needed``, going through ``items`` only until that many are found."""
    for _ in items:
        needed -= 1
        if not needed:
            return True
    return False


def grouped(spaces, attribute) -> dict:
    """The spaces of ``spaces`` by their value of ``attribute`` (a per-space table), in board
    order: ``{value: (space, ...)}``."""
    groups: dict = {}
    for z in spaces:
        groups.setdefault(attribute[z], []).append(z)
    return {value: tuple(found) for value, found in groups.items()}


def fault_raiser(faults: tuple):
    """The function a generated module calls where a rule meets a value it cannot use.

    ``faults[k]`` is ``(where, what)``: the spec position (``file:line:col``) and what the rule
    tried (``"z.low: z is none"``). Calling the result with ``k`` raises :class:`RuleFault`
    (RC405); the engine then restores the state as it was before the action.
    """
    def fault(k: int):
        where, what = faults[k]
        raise RuleFault(f"{where}: {what}")
    return fault
