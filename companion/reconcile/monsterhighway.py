"""Monster Highway: a tile that appeared on an empty board space was played there; a car moved.

Stand-in geometry (vision and the board catalog agree): the board's 50 mm grid starts at the play
area's origin, columns lettered from A at the west edge, rows numbered from 1 at the north edge.
Dice and Monster Cards are the app's. A player's car seen on a new space, while the rules ask
them to move it, was moved there.

The engine lists one rotation per way a road runs (a straight at 0 stands for 180 too), so the
camera's rotation is compared by the sides the tile leaves open: the play is the listed one that
runs the way the camera sees the road.
"""

from __future__ import annotations

from typing import Any

from rules import Action
from rules.monsterhighway.data import rotate

from . import Difference, generic_candidates

#: Actions whose card lies on the table afterwards (named in their parameters).
LAYS = frozenset({"place_tile"})


def _space(game: Any, at: Any) -> int | None:
    """The board space (index row * columns + column) a point in table mm lies on; None off it."""
    cat = game.catalog
    col, row = int(at[0] // cat.cell_mm), int(at[1] // cat.cell_mm)
    return row * cat.columns + col if 0 <= col < cat.columns and row >= 0 else None


def _spaces_gone(game: Any, diff: Difference) -> list[tuple[str, int]]:
    """Each tile gone from where it lay (removed, or paired with a copy elsewhere), with the board
    space it lay on; tiles off the board are left out."""
    gone = [(seen.id, _space(game, seen.center)) for seen in [*diff.removed, *(was for was, _ in diff.moved)]]
    return [(tile, space) for tile, space in gone if space is not None]


def taken_off(game: Any, diff: Difference) -> set[str]:
    """Tiles gone from where they lay whose board space the engine no longer holds them on: a
    player removed one, the Monster or a Monster Card destroyed it (those actions name the space,
    not the tile). Any other tile gone is still reported."""
    board = game.state.board
    return {tile for tile, space in _spaces_gone(game, diff) if board.get(space, (None,))[0] != tile}


def out_of_sight(game: Any, diff: Difference, observation: Any = None) -> set[str]:
    """Tiles gone from the picture on a space where the engine has the Monster or a car standing,
    or where the picture shows a piece or something it does not know: that hides the tile (a tile
    under the Monster was once "gone: put it back"; a car just moved onto a tile hides it before the
    move is recorded, and is not always told from the tile)."""
    s = game.state
    layout = getattr(observation, "layout", None) or {}
    covers = [p["center_mm"] for p in layout.get("pieces", [])]
    covers += [u.center_mm for u in getattr(observation, "unknowns", [])]
    stands = {c for c in [s.monster, *s.cars] if c is not None} | {_space(game, at) for at in covers}
    return {tile for tile, space in _spaces_gone(game, diff) if space in stands}


def in_place(game: Any, diff: Difference) -> list[Any]:
    """Tiles newly seen on a space the engine holds them on: seen again as the Monster or a car
    left them (hidden in the accepted picture), or recorded from this picture a moment ago."""
    board = getattr(game.state, "board", {})
    return [seen for seen in diff.added if board.get(_space(game, seen.center), (None,))[0] == seen.id]


def space_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def candidates(game: Any, diff: Difference, observation: Any, context: dict[str, Any]) -> list[Action]:
    p = game.current_player()
    layout = getattr(observation, "layout", None) or {}
    cells = layout.get("cells")
    if p is None or cells is None:
        return generic_candidates(game, diff)
    new_ids = {s.id for s in diff.added}
    legal = [a for a in game.legal_actions() if a.kind in ("place_tile", "dead_end")]
    out: list[Action] = []
    for cell in cells:
        if cell["id"] not in new_ids:
            continue
        at = space_name(*cell["cell"])
        seen = int(round(float(cell["rotation"]) / 90.0) * 90) % 360
        fits = [a for a in legal if a.get("at") == at and a.get("tile", cell["id"]) == cell["id"]]
        mask = _open_sides(game, cell["id"], seen)
        same_road = [a for a in fits if mask is not None and _open_sides(game, cell["id"], a.get("rotation")) == mask]
        # Nothing legal runs that way: the play as seen, so the engine gives its exact reason.
        out += same_road or [Action.of("place_tile", p, tile=cell["id"], at=at, rotation=seen)]
    if not out:
        out = _car_moves(game, p, layout, context)
    return out or generic_candidates(game, diff)


def _car_moves(game: Any, p: int, layout: dict[str, Any], context: dict[str, Any]) -> list[Action]:
    """The player's car seen on another board space than the engine has it on, while the rules
    ask them to move it: a move there (the player's own car by their seat's colour, when the seats
    have colours). One the rules do not allow is offered as seen, so the engine says why."""
    moving = [a for a in game.legal_actions() if a.kind == "move_car" and a.player == p]
    if not moving:
        return []
    cat = game.catalog
    colours = list(context.get("colours") or [])
    mine = colours[p] if p < len(colours) else None
    cars = getattr(game.state, "cars", [])
    now = cars[p] if p < len(cars) else None
    out: list[Action] = []
    for car in layout.get("cars", []):
        col, row = (int(v) for v in car.get("cell") or (-1, -1))
        if (mine and car.get("colour") != mine) or not (0 <= col < cat.columns and 0 <= row < cat.rows):
            continue
        if row * cat.columns + col == now:
            continue
        move = Action.of("move_car", p, to=space_name(col, row))
        if move not in out:
            out.append(move)
    legal = [a for a in out if a in moving]
    return legal or out


def _open_sides(game: Any, tile: str, rotation: Any) -> int | None:
    design = getattr(getattr(game, "catalog", None), "tiles", {}).get(tile)
    if design is None or not isinstance(rotation, int):
        return None
    return rotate(design.open_mask, rotation)

