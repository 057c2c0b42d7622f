"""Reading a game's position from the recognised items: rows, grids, board cells, piles, slots.

Everything here works in table millimetres. Seats sit on the play area's edges; a seat reads its
own cards left to right as the player sees them (south reads west to east, north east to west,
east south to north, west north to south).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from vision.observation import Item, TableSpec

# Monster Highway stand-in: the board grid is 50 mm cells from the play area's origin.
MONSTER_CELL_MM = 50.0
MONSTER_MIN_MM = 30.0  # a standing piece this wide is the monster; smaller ones are cars
# Unit vectors of each seat: "across" is the player's left-to-right, "away" points from the seat
# into the table (so a landmark further away than the row lies "above" it).
SEAT_AXES = {
    "south": ((1.0, 0.0), (0.0, -1.0)),
    "north": ((-1.0, 0.0), (0.0, 1.0)),
    "east": ((0.0, -1.0), (-1.0, 0.0)),
    "west": ((0.0, 1.0), (1.0, 0.0)),
}
CAR_COLOURS = ("red", "blue", "green", "yellow", "black", "white", "orange", "purple")


def colour_name(bgr: Sequence[int]) -> str:
    """A plain colour word for a playing piece, from its mean BGR colour."""
    px = np.uint8([[list(bgr)]])
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
    x, y = center
    d = {"north": y, "south": table.height_mm - y, "west": x, "east": table.width_mm - x}
    return min(table.seats, key=lambda s: d[s])


def _along(item: Item, axis: Sequence[float]) -> float:
    return item.center_mm[0] * axis[0] + item.center_mm[1] * axis[1]


def bigsur(items: list[Item], pieces: list[dict[str, Any]], table: TableSpec) -> dict[str, Any]:
    """Each seat's tableau: its Highway cards as a row read left to right from that seat's side,
    and Landmark tiles placed above or below one of its cards."""
    rows: dict[str, list[Item]] = {s: [] for s in table.seats}
    for it in items:
        if it.kind in ("highway card", "") and it.size_mm[0] != it.size_mm[1]:
                rows[seat_of(it.center_mm, table)].append(it)
    tableaus: dict[str, Any] = {}
    for seat, cards in rows.items():
        across, _ = SEAT_AXES[seat]
        cards.sort(key=lambda c: _along(c, across))
        tableaus[seat] = {"cards": [c.id for c in cards], "landmarks": []}
    loose = []
    for it in items:
        if it.kind != "landmark":
            continue
        seat = seat_of(it.center_mm, table)
        cards = sorted(rows[seat], key=lambda c: _along(c, SEAT_AXES[seat][0]))
        if not cards:
            loose.append(it.id)
            continue
        across, away = SEAT_AXES[seat]
        pos = min(range(len(cards)), key=lambda k: abs(_along(cards[k], across) - _along(it, across)))
        where = "above" if _along(it, away) > _along(cards[pos], away) else "below"
        tableaus[seat]["landmarks"].append({"id": it.id, "position": pos, "where": where})
    others = [{"id": it.id, "kind": it.kind, "seat": seat_of(it.center_mm, table)}
              for it in items if it.kind in ("material side", "starter side")]
    return {"tableaus": tableaus, "landmarks_unplaced": loose, "other_cards": others}


def _grid(items: list[Item], cell: float) -> tuple[list[dict[str, Any]], np.ndarray, float]:
    """Cells of a grid of square cards laid edge to edge: (column, row) from the top-left card,
    in the grid's own axes (the grid may lie at an angle on the table)."""
    if not items:
        return [], np.zeros(2), 0.0
    # the grid's angle: the cards' own angle folded into a quarter turn (they share it)
    angs = np.radians([(it.rotation + 45) % 90 - 45 for it in items])
    a = float(np.arctan2(np.mean(np.sin(4 * angs)), np.mean(np.cos(4 * angs))) / 4)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    pts = np.array([it.center_mm for it in items])
    uv = np.stack([pts @ right, pts @ down], axis=1) / cell
    origin = np.floor(uv.min(axis=0) + 0.5)
    cells = []
    for it, p in zip(items, uv, strict=True):
        col, row = (int(v) for v in np.round(p - origin))
        cells.append({"cell": [col, row], "id": it.id, "rotation": round((it.rotation - np.degrees(a)) / 90) * 90 % 360,
                      "center_mm": [round(it.center_mm[0], 1), round(it.center_mm[1], 1)]})
    return cells, origin * cell, float(np.degrees(a))


def roundabout(items: list[Item], pieces: list[dict[str, Any]], table: TableSpec) -> dict[str, Any]:
    """The grid of Roundabout cards (cell, card, rotation) and the cars reserving places, by colour."""
    size = max((it.size_mm[0] for it in items), default=70.0)
    cells, _, angle = _grid(items, size)
    by_pos = {tuple(c["cell"]): c for c in cells}
    cars = []
    for p in pieces:
        near = min(cells, key=lambda c: np.hypot(c["center_mm"][0] - p["center_mm"][0],
                                                    c["center_mm"][1] - p["center_mm"][1]), default=None)
        on = near["cell"] if near and np.hypot(near["center_mm"][0] - p["center_mm"][0],
                                                 near["center_mm"][1] - p["center_mm"][1]) < size * 0.75 else None
        cars.append({"colour": p["colour"], "center_mm": p["center_mm"], "cell": on})
    return {"grid": cells, "grid_angle": round(angle, 1), "cells": len(by_pos), "cars": cars}


def monsterhighway(items: list[Item], pieces: list[dict[str, Any]], table: TableSpec) -> dict[str, Any]:
    """Board cells (50 mm grid from the play area's origin, stand-in) with tile and rotation, the
    monster piece and the cars by colour."""

    def cell_of(c: Sequence[float]) -> list[int]:
        return [int(c[0] // MONSTER_CELL_MM), int(c[1] // MONSTER_CELL_MM)]

    cells = [{"cell": cell_of(it.center_mm), "id": it.id, "rotation": round(it.rotation / 90) * 90 % 360}
             for it in items]
    big = [p for p in pieces if max(p["size_mm"]) >= MONSTER_MIN_MM]
    monster = max(big, key=lambda p: p["area_mm2"], default=None)
    cars = [{"colour": p["colour"], "cell": cell_of(p["center_mm"]), "center_mm": p["center_mm"]}
            for p in pieces if p is not monster]
    return {"cells": sorted(cells, key=lambda c: (c["cell"][1], c["cell"][0])),
            "monster": None if monster is None else {"cell": cell_of(monster["center_mm"]),
                                                     "center_mm": monster["center_mm"]},
            "cars": cars}


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
          catalog: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The layout dict for a game (see each game's function)."""
    if game == "bigsur":
        return bigsur(items, pieces, table)
    if game == "roundabout":
        return roundabout(items, pieces, table)
    if game == "monsterhighway":
        return monsterhighway(items, pieces, table)
    if game == "highwayman":
        return highwayman(items, pieces, table, catalog)
    if game == "highwaysbyways":
        return highwaysbyways(items, pieces, table)
    return {}
