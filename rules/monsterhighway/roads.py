"""Road geometry on the grid: which tile may go where, which tile ends a roadway, where a car can drive.

The board is a dict ``cell -> (tile id, rotation, open mask)``; a mask has a bit per open side
(N=1, E=2, S=4, W=8). The Road Rules are read strictly, so the board never holds a road that
runs into a wall:

* a new tile must continue at least one open roadway ("Roadways may only be constructed off of
  other existing roadways"),
* each of its sides must agree with the tile next to it (an open side facing a closed one would
  be a dead end the Dead End tile did not make),
* no open side may lead off the board, and every empty space a road leads into must still be
  able to take some Road tile ("A Road tile cannot be played in such a way that prevents another
  Road tile from being played off of it").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

from .data import Catalog

Board = Mapping[int, tuple[str, int, int]]
DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N, E, S, W as (dx, dy); row numbers grow southwards


def opposite(d: int) -> int:
    return (d + 2) % 4


def popcount(mask: int) -> int:
    return bin(mask).count("1")


class Grid:
    """The fixed geometry of one board: neighbours, corners, Ground Zero, and which shapes fit."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.columns, self.rows = catalog.columns, catalog.rows
        self.cells = self.columns * self.rows
        self.ground_zero = catalog.ground_zero
        self.corners = {h.cell: h.corner for h in catalog.home_bases}
        nbs = []
        for cell in range(self.cells):
            x, y = cell % self.columns, cell // self.columns
            row = []
            for dx, dy in DIRS:
                nx, ny = x + dx, y + dy
                row.append(ny * self.columns + nx if 0 <= nx < self.columns and 0 <= ny < self.rows else -1)
            nbs.append(tuple(row))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(nbs)
        road_masks = {m for t in catalog.by_kind("road") for m in t.masks}
        # fits[required][allowed]: some Road tile shows every required side and no side outside allowed.
        self.fits = [[any(r & m == r and m & ~a == 0 for m in road_masks) for a in range(16)] for r in range(16)]

    def distance(self, a: int, b: int) -> int:
        """Spaces between two cells counted along rows and columns."""
        return abs(a % self.columns - b % self.columns) + abs(a // self.columns - b // self.columns)

    # ------------------------------------------------------------------ what surrounds an empty space
    def pointing_in(self, board: Board, cell: int) -> int:
        """The sides of ``cell`` that an open road on a neighbouring tile leads into."""
        r = 0
        for d, n in enumerate(self.neighbours[cell]):
            if n >= 0 and n in board and board[n][2] >> opposite(d) & 1:
                r |= 1 << d
        return r

    def free_sides(self, board: Board, cell: int, homes_open: Iterable[int]) -> int:
        """Sides of ``cell`` facing empty spaces that could still take a tile some day."""
        f = 0
        for d, n in enumerate(self.neighbours[cell]):
            if n >= 0 and n not in board and (n not in self.corners or n in homes_open):
                f |= 1 << d
        return f

    def fillable(self, cell: int, required: int, allowed: int, homes_open: Iterable[int]) -> bool:
        """Whether an empty space with roads ``required`` into it could still take a tile."""
        if required == 0:
            return True
        if cell in self.corners:
            # Only that corner's Home Base tile (one open side) can ever go there.
            return cell in homes_open and popcount(required) == 1
        return self.fits[required][allowed | required]

    def valid_masks(self, board: Board, cell: int, homes_open: Iterable[int], *, connect: bool = True) -> list[int]:
        """Every open-side mask a tile put on the empty ``cell`` may show under the Road Rules.

        ``connect`` demands that it continue an existing roadway (placing); swaps do not, as
        the tile they take away already fitted there."""
        homes = homes_open if isinstance(homes_open, set | frozenset) else set(homes_open)
        required = self.pointing_in(board, cell)
        if connect and required == 0:
            return []
        closed = 0  # sides that must stay closed
        ok_open = 15  # sides that may be open as far as the empty neighbour is concerned
        for d, n in enumerate(self.neighbours[cell]):
            bit = 1 << d
            if n < 0:
                closed |= bit
            elif n in board:
                if not required & bit:
                    closed |= bit
            else:
                back = opposite(d)
                r = self.pointing_in(board, n)
                f = self.free_sides(board, n, homes) & ~(1 << back)
                if not self.fillable(n, r | (1 << back), f, homes):
                    ok_open &= ~bit
                if not self.fillable(n, r, f, homes):
                    # Only a road from this tile into that space keeps it buildable.
                    if not ok_open & bit:
                        return []
                    required |= bit
        return [m for m in range(1, 16) if m & required == required and not m & closed and m & ~ok_open == 0]

    def sides_agree(self, board: Board, cell: int, mask: int, ignore: int = -1) -> bool:
        """``mask`` on ``cell`` meets each neighbouring tile side for side (but ``ignore``) and leads
        nowhere off the board: the cheap half of :meth:`cell_fits`."""
        for d, n in enumerate(self.neighbours[cell]):
            if n == ignore and n >= 0:
                continue
            if n < 0:
                if mask >> d & 1:
                    return False
            elif n in board and (mask >> d & 1) != (board[n][2] >> opposite(d) & 1):
                return False
        return True

    def cell_fits(self, board: Board, cell: int, homes_open: Iterable[int]) -> bool:
        """The tile on ``cell`` agrees with every neighbour, leads nowhere off the board, and every
        empty space next to it can still be built on: the exact local check."""
        homes = set(homes_open)
        mask = board[cell][2]
        for d, n in enumerate(self.neighbours[cell]):
            bit = mask >> d & 1
            if n < 0:
                if bit:
                    return False
            elif n in board:
                if bit != board[n][2] >> opposite(d) & 1:
                    return False
            else:
                r = self.pointing_in(board, n)
                if not self.fillable(n, r, self.free_sides(board, n, homes), homes):
                    return False
        return True

    # ------------------------------------------------------------------ roadways and driving
    def connected(self, board: Board, cell: int) -> list[int]:
        """Neighbouring tiles joined to ``cell`` by road (open sides facing each other)."""
        mask = board[cell][2]
        out = []
        for d, n in enumerate(self.neighbours[cell]):
            if mask >> d & 1 and n >= 0 and n in board and board[n][2] >> opposite(d) & 1:
                out.append(n)
        return out

    def ends_roadway(self, board: Board, cell: int) -> bool:
        """A tile at the end of a roadway: taking it away cuts no road in two."""
        return len(self.connected(board, cell)) <= 1

    def frontier(self, board: Board) -> set[int]:
        """Empty spaces an open roadway leads into."""
        out = set()
        for cell, (_, _, mask) in board.items():
            for d, n in enumerate(self.neighbours[cell]):
                if mask >> d & 1 and n >= 0 and n not in board:
                    out.add(n)
        return out

    def reachable(self, board: Board, start: int, *, blocked: int | None, barred: Iterable[int] = (),
                  limit: int | None = None) -> dict[int, int]:
        """Cells a car on ``start`` can drive to along connected road, with the fewest spaces
        needed; it cannot pass or enter ``blocked`` (the Monster) nor enter ``barred`` cells."""
        bar = set(barred)
        if blocked is not None:
            bar.add(blocked)
        seen = {start: 0}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            steps = seen[cell]
            if (limit is not None and steps >= limit) or cell not in board:
                continue
            for n in self.connected(board, cell):
                if n not in seen and n not in bar:
                    seen[n] = steps + 1
                    queue.append(n)
        return seen
