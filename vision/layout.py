"""Reading a game's position from the recognised items: rows, grids, board cells, piles, slots.

Everything here works in table millimetres. Seats sit on the play area's edges; a seat reads its
own cards left to right as the player sees them (south reads west to east, north east to west,
east south to north, west north to south).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.observation import ARM, GLARE, Item, TableSpec, Unknown

# Monster Highway stand-in: the board grid is 50 mm cells from the play area's origin.
MONSTER_CELL_MM = 50.0
MONSTER_MIN_MM = 30.0  # a standing piece this wide is no car (cars are 22 x 11 mm on the bench)
# The Monster hides most of the board place it stands on, so the scan reads that place as no card
# of the pack (an unknown the cell's size), on a road tile or on an empty space alike. A tile-sized
# unknown lying on the board's grid (its centre this close to a cell's) beside a tile is the
# Monster's place. An unknown place that is one of more than MONSTER_CLUSTER things side by side,
# or beside one that no tile is beside, is a hand or an arm reaching over the board (bench seeds
# 1-3: 267 of 308 boards read right, 15 wrong, against 1 right and 51 wrong by the largest piece;
# docs/benchmarks.md, third pieces pass).
MONSTER_ON_GRID_MM = 12.0
MONSTER_CLUSTER = 2
# Where places apart from one another beside the road could each be the Monster's (a hand, a glare
# spot or a card on top hiding a tile hides it as the Monster does), the layout names none of them:
# ranked by the tiles beside them and how well they sit on the grid, the first was the Monster's on
# 6 of 17 such boards of bench seeds 1-4 (both packs) and another place on 11, each then a wrong
# Monster shown as sure. The places are listed ("monster_one_of"), marked "Monster?" on the overlay,
# and the players asked to uncover the board. (Places side by side are one: the Monster spilling
# onto a neighbour.) So are a place beside the road and a lone one on the grid away from it (see
# MONSTER_ALONE_MM), once preferred in that order: of 23 such boards of bench seed 9 (both packs),
# the Monster stood on the place beside the road on 12, on the lone one on 11 (sixty-ninth pass).
# (A hidden tile of the road, under a card on top or washed pale by a lamp, is beside the road too.)
MONSTER_ONE_OF = 2
# The rulebook places Monster Highway's Ground Zero on the centre of the board and a Home Base in
# each of its corners: the scan reads the board's centre, midway between two home bases in opposite
# corners, for Ground Zero where nothing else read a card there (grey on a grey cloth the mask
# leaves it bare, and on a board of few tiles no counted tile lies beside it to grow from: bench
# seed 9, proxy Monster Highway 300, 357, 421). Per game, the catalog kinds of the tile at the
# centre and of the tiles in the corners.
CENTRE_TILE = {"monsterhighway": ("ground zero", "home base")}
ROAD_THROUGH = 2  # tiles edge to edge with a board cell for the road to run through it (see on_the_road)
# ... where a spot counts as a piece only when it is at least this long (a car is 22 mm): on a
# flecked cloth, two flecks 9 and 14 mm across lay in the empty cell beside Ground Zero, between
# two tiles read (bench seed 3, Monster Highway scene 39)
THROUGH_PIECE_MM = 16.0
# The rulebook moves the Monster to any space of the board, so it may stand with no tile beside
# it. Where no place beside the road is found, a place on the grid with nothing else unknown within
# this of it is the Monster's (its eight neighbours' middles lie 50 to 71 mm away; a hand's parts
# lie closer), if it is the only place of the Monster's size on the grid: where a hand or a
# patterned cloth leaves others, the Monster may be under them (docs/benchmarks.md, fourth pieces
# pass).
MONSTER_ALONE_MM = 75.0
# The Monster stands 45 mm tall: its top is seen pushed away from the camera, so the place it hides
# may lie off its cell's middle by more than MONSTER_ON_GRID_MM (15 to 21 mm on the bench's boards,
# near the play area's edges). Such a place is not named the Monster's, but while one is seen the
# one lone place on the grid is not surely the Monster's either: the Monster was the place off the
# grid and a home base under a hand's fingers the lone one (bench seed 9, proxy Monster Highway 59,
# photo-like 59; with proxy 120, where another place off the grid kept a wrong one from being named:
# 3 wrong spaces shown sure gone, 1 right lost, docs/benchmarks.md, sixty-ninth pass).
MONSTER_LEANS_MM = 18.0
NOT_IN_PACK = "not a card of this pack"  # vision.scan's reason for a place read as no card
# the places named as what lies over the table and hides what is under it (an arm, a lamp's white):
# the Monster may stand under one, but the place is never its own, nor a place side by side with it
HIDING = (ARM, GLARE)
# The games whose playing pieces stand on or against the cards and tiles the camera reads (the
# rulebooks: Roundabout's cars take free spots in its grid of cards, Monster Highway's cars and
# Monster move on its road tiles). Elsewhere nothing stands on a card, so a card is never read past
# a piece there; nor are pieces looked for: Big Sur and Highwayman have none, and the cars and
# markers of Highways & Byways stand on its map, which the camera does not read.
PIECES_ON_CARDS = frozenset({"roundabout", "monsterhighway"})
# A Roundabout car reserves the free cell it stands in when its centre is this close (in cells,
# along either of the grid's axes) to the cell's middle: 21 mm on 70 mm cards, room for a car put
# down by hand and for its top seen off its foot, while one put down between two cells is not
# taken for either.
CAR_ON_CELL = 0.3
# Roundabout has a car per player, four at most: a table showing more than three times as many
# piece-like spots is a patterned cloth whose pattern the mask takes for pieces (up to 132 a scene
# on the bench's patterned cloths, at most 11 on its other cloths), so no car there is trusted to
# reserve a cell.
CROWDED_PIECES = 12
# Unit vectors of each seat: "across" is the player's left-to-right, "away" points from the seat
# into the table (so a landmark further away than the row lies "above" it).
SEAT_AXES = {
    "south": ((1.0, 0.0), (0.0, -1.0)),
    "north": ((-1.0, 0.0), (0.0, 1.0)),
    "east": ((0.0, -1.0), (-1.0, 0.0)),
    "west": ((0.0, 1.0), (1.0, 0.0)),
}
# A Big Sur card this close to a seat's edge (centre, mm) is in that seat's tableau; further in,
# it is in the shared draw row. A landmark this close to a tableau card is placed on it.
TABLEAU_DEPTH_MM = 170.0
LANDMARK_REACH_MM = 110.0
# How each seat's cards face it (degrees clockwise in table coordinates): a player lays a card to
# read it, so where a long row reaches into a corner, within reach of two edges, the card's turn
# says whose row it is (the nearer edge may be the other seat's).
SEAT_FACING = {"south": 0.0, "west": 90.0, "north": 180.0, "east": 270.0}
CAR_COLOURS = ("red", "blue", "green", "yellow", "black", "white", "orange", "purple")


def colour_name(bgr: Sequence[int]) -> str:
    """A plain colour word for a playing piece, from its mean BGR colour."""
    px = np.array([[list(bgr)]], np.uint8)
    h, s, v = (int(x) for x in cv2.cvtColor(px, cv2.COLOR_BGR2HSV)[0, 0])
    if v < 70:
        return "black"
    if s < 55:
        return "white" if v > 150 else "black"
    hue = h * 2  # degrees
    if hue < 15 or hue >= 330:
        return "red"
    if hue < 40:
        return "orange"
    if hue < 70:
        return "yellow"
    if hue < 170:
        return "green"
    if hue < 255:
        return "blue"
    return "purple"


def seat_of(center: Sequence[float], table: TableSpec) -> str:
    """The configured seat whose edge is nearest to a point."""
    return min(table.seats, key=lambda s: edge_distance(center, s, table))


def _along(item: Item, axis: Sequence[float]) -> float:
    return item.center_mm[0] * axis[0] + item.center_mm[1] * axis[1]


def bigsur(items: list[Item], pieces: list[dict[str, Any]], table: TableSpec) -> dict[str, Any]:
    """Each seat's tableau: the Highway cards lying along its edge as a row read left to right
    from that seat's side, with Landmark tiles placed above or below one of its cards; the draw
    row (Highway cards in the middle, read as the south seat sees them); the landmarks still
    available; the Material / Starter sides (deck, supplies)."""
    rows: dict[str, list[Item]] = {s: [] for s in table.seats}
    middle: list[Item] = []
    for it in items:
        if it.kind in ("highway card", "") and it.size_mm[0] != it.size_mm[1]:
            at = _tableau_seat(it, table)
            if at is not None:
                rows[at].append(it)
            else:
                middle.append(it)
    tableaus: dict[str, Any] = {}
    for seat, cards in rows.items():
        cards.sort(key=lambda c: _along(c, SEAT_AXES[seat][0]))
        tableaus[seat] = {"cards": [c.id for c in cards], "landmarks": []}
    pool = []
    for it in items:
        if it.kind != "landmark":
            continue
        # the row of the nearest tableau card within reach (a tile above a card in a corner may lie
        # nearer another seat's edge)
        reach = [(float(np.hypot(c.center_mm[0] - it.center_mm[0], c.center_mm[1] - it.center_mm[1])), s)
                 for s, cs in rows.items() for c in cs]
        reach = [r for r in reach if r[0] < LANDMARK_REACH_MM]
        if not reach:
            pool.append(it.id)
            continue
        seat = min(reach)[1]
        cards = rows[seat]
        near = [k for k, c in enumerate(cards)
                if np.hypot(c.center_mm[0] - it.center_mm[0], c.center_mm[1] - it.center_mm[1]) < LANDMARK_REACH_MM]
        across, away = SEAT_AXES[seat]
        pos = min(near, key=lambda k: abs(_along(cards[k], across) - _along(it, across)))
        where = "above" if _along(it, away) > _along(cards[pos], away) else "below"
        tableaus[seat]["landmarks"].append({"id": it.id, "position": pos, "where": where})
    for t in tableaus.values():
        t["landmarks"].sort(key=lambda lm: lm["position"])
    others = [{"id": it.id, "kind": it.kind, "center_mm": [round(it.center_mm[0], 1), round(it.center_mm[1], 1)]}
              for it in items if it.kind in ("material side", "starter side")]
    return {"tableaus": tableaus, "draw_row": [c.id for c in sorted(middle, key=lambda c: c.center_mm[0])],
            "landmarks": pool, "other_cards": others}


def _tableau_seat(it: Item, table: TableSpec) -> str | None:
    """The seat whose tableau row a Highway card lies in, or None for the middle of the table: a
    seat whose edge is within TABLEAU_DEPTH_MM; of two (a corner), the one the card faces."""
    near = sorted((edge_distance(it.center_mm, s, table), s) for s in table.seats)
    near = [(d, s) for d, s in near if d <= TABLEAU_DEPTH_MM]
    if not near:
        return None
    period = 360.0 / max(1, it.symmetry)

    def off(seat: str) -> float:
        d = (it.rotation - SEAT_FACING[seat]) % period
        return min(d, period - d)

    facing = [s for _, s in near if off(s) < 45.0]
    return facing[0] if len(facing) == 1 else near[0][1]


def edge_distance(center: Sequence[float], seat: str, table: TableSpec) -> float:
    x, y = center
    return {"north": y, "south": table.height_mm - y, "west": x, "east": table.width_mm - x}[seat]


@dataclass(frozen=True)
class _Lattice:
    """The cells of a grid of square cards laid edge to edge, in the grid's own axes (the grid may
    lie at an angle on the table): ``pitch`` mm from cell to cell, cell (0, 0) the top-left card's
    column and row."""

    angle: float  # radians
    pitch: float
    phase: np.ndarray  # where cell centres fall, in cells along each axis (0 to 1)
    first: np.ndarray  # the index of cell (0, 0) on that lattice

    def locate(self, point: Sequence[float]) -> tuple[tuple[int, int], float]:
        """The cell ``point`` (table mm) falls in and how far from its centre, in cells (the larger
        of the two axes' distances: 0.5 is on the cell's edge)."""
        a = self.angle
        uv = np.array([point[0] * np.cos(a) + point[1] * np.sin(a),
                       -point[0] * np.sin(a) + point[1] * np.cos(a)]) / self.pitch - self.phase
        index = np.round(uv)
        col, row = (int(v) for v in index - self.first)
        return (col, row), float(np.max(np.abs(uv - index)))


def _lattice(items: list[Item], size: float) -> _Lattice:
    """The lattice the cards lie on. Its pitch is the cards' own spacing (the median distance to
    the nearest card where that is about a card's width: players leave small gaps), and where the
    cell centres fall is the mean over all cards (a circular mean per axis), so no card that happens
    to lie half a cell from a round number of millimetres is counted into the next row."""
    # the grid's angle: the cards' own angle folded into a quarter turn (they share it)
    angs = np.radians([(it.rotation + 45) % 90 - 45 for it in items])
    a = float(np.arctan2(np.mean(np.sin(4 * angs)), np.mean(np.cos(4 * angs))) / 4)
    pts = np.array([it.center_mm for it in items], float)
    pitch = size
    if len(pts) > 1:
        d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
        np.fill_diagonal(d, np.inf)
        near = d.min(axis=1)
        near = near[(near > 0.9 * size) & (near < 1.25 * size)]
        if len(near):
            pitch = float(np.median(near))
    uv = np.stack([pts[:, 0] * np.cos(a) + pts[:, 1] * np.sin(a),
                   -pts[:, 0] * np.sin(a) + pts[:, 1] * np.cos(a)], axis=1) / pitch
    turns = np.exp(2j * np.pi * uv)
    phase = np.angle(turns.mean(axis=0)) / (2 * np.pi) % 1.0
    first = np.round(uv - phase).min(axis=0)
    return _Lattice(a, pitch, phase, first)


def _grid(items: list[Item], cell: float) -> tuple[list[dict[str, Any]], _Lattice | None, float]:
    """Cells of a grid of square cards laid edge to edge: (column, row) from the top-left card,
    in the grid's own axes, with the lattice they lie on and its angle (degrees)."""
    if not items:
        return [], None, 0.0
    lattice = _lattice(items, cell)
    deg = float(np.degrees(lattice.angle))
    cells = []
    for it in items:
        (col, row), _ = lattice.locate(it.center_mm)
        cells.append({"cell": [col, row], "id": it.id, "rotation": round((it.rotation - deg) / 90) * 90 % 360,
                      "center_mm": [round(it.center_mm[0], 1), round(it.center_mm[1], 1)]})
    return cells, lattice, deg


def _groups(items: list[Item], reach: float) -> list[list[Item]]:
    """Items in touching groups (centres within `reach` of one another), biggest group first."""
    groups: list[list[Item]] = []
    left = list(items)
    while left:
        group = [left.pop(0)]
        grew = True
        while grew:
            grew = False
            for it in list(left):
                if any(np.hypot(it.center_mm[0] - g.center_mm[0], it.center_mm[1] - g.center_mm[1]) < reach for g in group):
                    group.append(it)
                    left.remove(it)
                    grew = True
        groups.append(group)
    return sorted(groups, key=len, reverse=True)


def roundabout(items: list[Item], pieces: list[dict[str, Any]], table: TableSpec) -> dict[str, Any]:
    """The grid of Roundabout cards (cell, card, rotation; cell (0, 0) is the top-left card's
    column and row), the cars, by colour, with the free cell each reserves, and loose cards (the
    discard pile).

    The rulebook lays a car "on the board as if it was a normal card": so a car reserves the free
    cell whose middle it stands in (within :data:`CAR_ON_CELL` of a cell) next to the grid (a
    diagonal neighbour too, so the engine can say why that is no spot). A car on a card, between
    cells or away from the grid (in front of its player) reserves nothing (``cell`` None). On a
    table crowded with piece-like spots no car is listed: ``cars_unread`` then says how many spots
    there are, and none of them is among its "pieces"."""
    size = max((it.size_mm[0] for it in items), default=70.0)
    groups = _groups(items, size * 1.25)
    grid_items = groups[0] if groups else []
    cells, lattice, angle = _grid(grid_items, size)
    taken = {tuple(c["cell"]) for c in cells}
    cars = []
    crowded = len(pieces) > CROWDED_PIECES
    for p in [] if crowded else pieces:
        on = None
        if lattice is not None:
            (col, row), off = lattice.locate(p["center_mm"])
            beside = any((col + dx, row + dy) in taken for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            if off <= CAR_ON_CELL and (col, row) not in taken and beside:
                on = [col, row]
        cars.append({"colour": p["colour"], "center_mm": p["center_mm"], "cell": on})
    loose = [{"id": it.id, "center_mm": [round(it.center_mm[0], 1), round(it.center_mm[1], 1)]}
             for g in groups[1:] for it in g]
    out = {"grid": sorted(cells, key=lambda c: (c["cell"][1], c["cell"][0])), "grid_angle": round(angle, 1),
           "cars": cars, "loose": loose, "pieces": [] if crowded else pieces}
    if crowded:
        out["cars_unread"] = len(pieces)
    return out


def _board_cell(c: Sequence[float]) -> tuple[int, int]:
    return int(c[0] // MONSTER_CELL_MM), int(c[1] // MONSTER_CELL_MM)


def _beside(cell: tuple[int, int], tiles: set[tuple[int, int]]) -> int:
    """How many of a board cell's four neighbours hold a tile."""
    return sum((cell[0] + dx, cell[1] + dy) in tiles for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def _monster_sized(u: Unknown, held: set[tuple[int, int]]) -> float | None:
    """How far a place read as no card (or named as an arm's or a lamp's glare) lies from the
    middle of its board cell, if the Monster could stand there: the cell's size, no farther than
    MONSTER_LEANS_MM off the middle, in a cell no reading holds; else None."""
    side = MONSTER_CELL_MM
    cell = _board_cell(u.center_mm)
    off = float(np.hypot(u.center_mm[0] - (cell[0] + 0.5) * side, u.center_mm[1] - (cell[1] + 0.5) * side))
    if (u.reason not in (NOT_IN_PACK, *HIDING) or abs(u.size_mm[0] - u.size_mm[1]) > 0.1 * side
            or abs(max(u.size_mm) - side) > 0.1 * side or off > MONSTER_LEANS_MM or cell in held):
        return None
    return off


def _gap(a: Unknown, b: Unknown) -> float:
    return float(np.hypot(a.center_mm[0] - b.center_mm[0], a.center_mm[1] - b.center_mm[1]))


def _monster_places(tiles: set[tuple[int, int]], held: set[tuple[int, int]],
                    unknowns: Sequence[Unknown]) -> list[Unknown]:
    """The unknown places where the Monster may stand, apart from one another: beside the road
    (see MONSTER_ON_GRID_MM) and lone places on the grid (see MONSTER_ALONE_MM), or the one lone
    place alone. One is its place; of several, it stands on one (see MONSTER_ONE_OF). `tiles`: the
    board cells holding a counted tile; `held`: those holding any reading."""
    # things side by side: an arm over the board is a chain of unknowns reaching off it
    n = len(unknowns)
    group = list(range(n))

    def root(k: int) -> int:
        while group[k] != k:
            k = group[k]
        return k

    for a in range(n):
        for b in range(a + 1, n):
            ua, ub = unknowns[a], unknowns[b]
            if _gap(ua, ub) < (max(ua.size_mm) + max(ub.size_mm)) / 2 + 10.0:
                group[root(a)] = root(b)
    places, lone, sized = [], [], 0
    for k, u in enumerate(unknowns):
        off = _monster_sized(u, held)
        if off is None:
            continue
        sized += 1
        if off > MONSTER_ON_GRID_MM:
            continue  # the Monster's top seen off its foot, maybe: no place of its own (MONSTER_LEANS_MM)
        if u.reason in HIDING:
            # a place of the arm over the board or of a lamp's white: the Monster may stand under
            # it (so a lone place elsewhere is not surely the Monster's), but the place is the
            # arm's or the glare's
            continue
        cell = _board_cell(u.center_mm)
        if not _beside(cell, tiles):
            if all(_gap(u, o) >= MONSTER_ALONE_MM for j, o in enumerate(unknowns) if j != k):
                lone.append(u)
            continue
        together = [o for j, o in enumerate(unknowns) if root(j) == root(k)]
        if len(together) > MONSTER_CLUSTER or any(not _beside(_board_cell(o.center_mm), tiles) for o in together):
            continue
        if any(o.reason in HIDING for o in together):
            # beside an arm's place or the glare's: the fingers' end or the lamp's pool about the
            # white (bench seed 9 with the board's tiles read turned: proxy Monster Highway 91,
            # photo-like 443, each a wrong Monster shown sure, the real one under the hand)
            continue
        places.append((_beside(cell, tiles), -off, k))
    if places:
        # of places side by side, the one the Monster stands on (its top, seen off its foot, may
        # hide a neighbour too: the one with more tiles beside it, then the one nearer the grid)
        best: dict[int, int] = {}
        for _, _, k in sorted(places, reverse=True):
            best.setdefault(root(k), k)
        # and a lone place apart from the road: as likely the Monster's (see MONSTER_ONE_OF)
        return [unknowns[k] for k in best.values()] + lone
    return lone[:1] if sized == 1 else []  # (a lone place is Monster-sized: one at most)


def on_the_road(pieces: list[dict[str, Any]], items: Sequence[Item], unsure: Sequence[Item] = ()) -> list[dict[str, Any]]:
    """The spots that may be Monster Highway's pieces: those on the road, in a cell holding a tile
    read or listed to check, or edge to edge with two (the road runs through it). The rulebook
    moves a car only along road already built (all start on Ground Zero); a piece may hide the
    tile it stands on too much for it to be read (a car on a tile in the middle of a road), but
    not the road on either side. A spot elsewhere is the cloth's: a patterned cloth showed 57 and
    69 such spots around bench boards, all taken for cars, and spots beside a single tile (a
    home base in its corner) were its flecks too. A car on a hidden tile at a road's end is lost
    so. In a cell the road runs through, a spot must be about a car's length (THROUGH_PIECE_MM)."""
    held = {_board_cell(it.center_mm) for it in [*items, *unsure] if it.size_mm[0] == it.size_mm[1]}
    return [p for p in pieces
            if _board_cell(p["center_mm"]) in held
            or (_beside(_board_cell(p["center_mm"]), held) >= ROAD_THROUGH and max(p["size_mm"]) >= THROUGH_PIECE_MM)]


def is_monster(u: Unknown, monster: dict[str, Any] | None) -> bool:
    """Whether the unknown place `u` is where `monsterhighway` read the Monster (its layout's
    "monster"): the overlay and `companion scan` name it rather than count it unknown."""
    return monster is not None and bool(np.hypot(u.center_mm[0] - monster["center_mm"][0],
                                                 u.center_mm[1] - monster["center_mm"][1]) < 1)


def monsterhighway(items: list[Item], pieces: list[dict[str, Any]], table: TableSpec,
                   unknowns: Sequence[Unknown] = (), unsure: Sequence[Item] = ()) -> dict[str, Any]:
    """Board cells (50 mm grid from the play area's origin, stand-in) with tile and rotation, the
    monster piece and the cars by colour. The Monster is the thing that hides the board place it
    stands on (see MONSTER_ON_GRID_MM and MONSTER_ALONE_MM: `unknowns` and the `unsure` readings of
    the scan); a piece its size is listed among the pieces, not as the Monster. Where several
    places could be the Monster's, none is named: "monster_one_of" lists them (see MONSTER_ONE_OF).
    Only the spots on the road are pieces (see on_the_road)."""

    def cell_of(c: Sequence[float]) -> list[int]:
        return list(_board_cell(c))

    pieces = on_the_road(pieces, items, unsure)
    cells = [{"cell": cell_of(it.center_mm), "id": it.id, "rotation": round(it.rotation / 90) * 90 % 360}
             for it in items if it.size_mm[0] == it.size_mm[1]]
    cards = [{"id": it.id, "center_mm": [round(it.center_mm[0], 1), round(it.center_mm[1], 1)]}
             for it in items if it.size_mm[0] != it.size_mm[1]]
    tiles = {_board_cell(it.center_mm) for it in items if it.size_mm[0] == it.size_mm[1]}
    held = tiles | {_board_cell(it.center_mm) for it in unsure if it.size_mm[0] == it.size_mm[1]}
    places = [{"cell": cell_of(u.center_mm), "center_mm": [round(u.center_mm[0], 1), round(u.center_mm[1], 1)]}
              for u in _monster_places(tiles, held, unknowns)]
    monster = places[0] if 0 < len(places) < MONSTER_ONE_OF else None
    # a piece the Monster's size is no car; nor is it taken for the Monster (the largest such
    # piece beside the board was the layout's Monster before: right on 1 of 308 bench boards,
    # wrong on 51, and still 8 wrong, none right, where no tile-sized unknown was found)
    cars = [{"colour": p["colour"], "cell": cell_of(p["center_mm"]), "center_mm": p["center_mm"]}
            for p in pieces if max(p["size_mm"]) < MONSTER_MIN_MM]
    return {"cells": sorted(cells, key=lambda c: (c["cell"][1], c["cell"][0])), "monster": monster,
            "monster_one_of": places if monster is None else [], "cars": cars, "monster_cards": cards,
            "pieces": pieces}


def highwayman(items: list[Item], pieces: list[dict[str, Any]], table: TableSpec,
               catalog: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Each route's visible top card, routes ordered left to right across the table."""
    catalog = catalog or {}
    piles = []
    for it in sorted(items, key=lambda i: (i.center_mm[0], i.center_mm[1])):
        info = catalog.get(it.id, {})
        piles.append({"route": info.get("route") or info.get("colour") or info.get("color"), "top": it.id,
                      "center_mm": [round(it.center_mm[0], 1), round(it.center_mm[1], 1)]})
    return {"routes": piles}


def highwaysbyways(items: list[Item], pieces: list[dict[str, Any]], table: TableSpec) -> dict[str, Any]:
    """The card in the current construction slot: the one construction card on the table."""
    construction = [it for it in items if it.kind in ("construction card", "")]
    if not construction:
        return {"construction_slot": None, "construction_cards_seen": 0}
    # several seen: the slot's card is the one nearest the middle of the play area (stand-in)
    mid = (table.width_mm / 2, table.height_mm / 2)
    slot = min(construction, key=lambda i: np.hypot(i.center_mm[0] - mid[0], i.center_mm[1] - mid[1]))
    return {"construction_slot": slot.id, "construction_cards_seen": len(construction)}


def build(game: str, items: list[Item], pieces: list[dict[str, Any]], table: TableSpec,
          catalog: dict[str, dict[str, Any]] | None = None, unknowns: Sequence[Unknown] = (),
          unsure: Sequence[Item] = ()) -> dict[str, Any]:
    """The layout dict for a game (see each game's function; `unknowns` and `unsure`, the scan's,
    tell where Monster Highway's Monster hides a tile). Its "pieces" are the spots the game's rules
    leave as playing pieces (none where the game has none the camera reads)."""
    if game == "bigsur":
        out = bigsur(items, pieces, table)
    elif game == "roundabout":
        out = roundabout(items, pieces, table)
    elif game == "monsterhighway":
        out = monsterhighway(items, pieces, table, unknowns, unsure)
    elif game == "highwayman":
        out = highwayman(items, pieces, table, catalog)
    elif game == "highwaysbyways":
        out = highwaysbyways(items, pieces, table)
    else:
        return {}
    out.setdefault("pieces", pieces if game in PIECES_ON_CARDS else [])
    return out
