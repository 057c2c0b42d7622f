"""The table layout: where a card may go, and which roundabouts are complete.

Cells are whole grid positions ``(x, y)``: x grows to the east, y to the south. A grid *point*
``(px, py)`` is the north-west corner of cell ``(px, py)``; the four cells around it complete a
roundabout when each holds a card whose quarter lies in the corner touching the point.

Cars lie on cells like blank cards. The rulebook says a car "does not count as having roads or
gray parts", so an edge that faces a car is treated as exposed, and a car never supplies the road
connection a new card needs. Only the car's owner may play a card on its cell.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ActionFormatError, IllegalAction, RulesError
from ..scoring import ScoreLine, line
from .cards import (
    CORNERS,
    ENTRANCE,
    EXIT,
    GRAY,
    MATE,
    NONE,
    ROADS,
    ROTATIONS,
    SIDES,
    STEP,
    Deck,
    quarter_corner,
)

Cell = tuple[int, int]
#: cell -> (card id, rotation)
Layout = Mapping[Cell, tuple[str, int]]
#: cell -> seat of the car's owner
Cars = Mapping[Cell, int]
Placement = tuple[int, int, int]

RULE_GRAY = "gray parts connect to gray parts or are exposed"
RULE_EXIT = "an exit connects to an entrance or is exposed"
RULE_ENTRANCE = "an entrance connects to an exit or is exposed"
RULE_ROAD = "at least one road connects to another road"
RULE_FULL_SIDES = "touching edges cover the full side of the card"
RULE_ONE_CARD = "one card per spot"
RULE_CARS = "cars"

#: Offset from a grid point to the cell whose corner ``c`` touches it, per corner index.
_CELL_OF_CORNER = {0: (-1, 0), 1: (-1, -1), 2: (0, -1), 3: (0, 0)}


class LayoutError(RulesError):
    """A layout handed to :func:`score_layout` that is not one the cards could form."""


def grid_position(x: Any, y: Any) -> Cell:
    """Check that ``x`` and ``y`` name a grid cell; cards lie only on whole card widths."""
    for name, v in (("x", x), ("y", y)):
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ActionFormatError(f"the field {name!r} must be a whole number, not {v!r}")
        if not isinstance(v, int):
            raise IllegalAction(
                f"{name} = {v!r} is off the grid: cards lie edge to edge in whole card widths so "
                "that touching edges cover full sides", rule=RULE_FULL_SIDES)
    return int(x), int(y)


def grid_rotation(rotation: Any) -> int:
    if isinstance(rotation, bool) or not isinstance(rotation, int | float):
        raise ActionFormatError(f"the field 'rotation' must be 0, 90, 180 or 270, not {rotation!r}")
    if rotation not in ROTATIONS or not isinstance(rotation, int):
        raise IllegalAction(
            f"rotation {rotation!r} would leave edges half touching: a card turns in quarter turns "
            "(0, 90, 180 or 270)", rule=RULE_FULL_SIDES)
    return rotation


def _neighbour(cell: Cell, side: int) -> Cell:
    dx, dy = STEP[side]
    return cell[0] + dx, cell[1] + dy


def check_placement(deck: Deck, layout: Layout, cars: Cars, card: str, cell: Cell, rotation: int,
                    player: int | None) -> None:
    """Raise :class:`IllegalAction` naming the first criterion the placement breaks, checked in
    the rulebook's order. ``player`` None means "whoever owns a car there"."""
    if cell in layout:
        raise IllegalAction(f"cell {cell} already holds a card", rule=RULE_ONE_CARD)
    owner = cars.get(cell)
    if owner is not None and player is not None and owner != player:
        raise IllegalAction(f"cell {cell} is reserved by another player's car", rule=RULE_CARS)
    mine = deck[card].edges_at(rotation)
    facing: list[tuple[int, str]] = []  # (side of the new card, neighbour's feature across it)
    for side in range(4):
        there = layout.get(_neighbour(cell, side))
        if there is not None:
            facing.append((side, deck[there[0]].edges_at(there[1])[(side + 2) % 4]))
    for side, other in facing:
        if (mine[side] == GRAY) != (other == GRAY):
            raise IllegalAction(_clash(side, mine[side], other), rule=RULE_GRAY)
    for rule, feature in ((RULE_EXIT, EXIT), (RULE_ENTRANCE, ENTRANCE)):
        for side, other in facing:
            m = mine[side]
            if (m == feature and other != MATE[feature]) or (other == feature and m != MATE[feature]):
                raise IllegalAction(_clash(side, m, other), rule=rule)
    if not any(mine[side] in ROADS and other in ROADS for side, other in facing):
        where = "touches no other card" if not facing else "connects no road to another card's road"
        raise IllegalAction(f"the card at {cell} {where}", rule=RULE_ROAD)


def _clash(side: int, mine: str, other: str) -> str:
    # Named from the new card's side and the neighbour by direction: "the neighbour's south edge"
    # sent players to look at the wrong edge, as the neighbour's edge is the opposite one.
    where = SIDES[side]
    return (f"the card's {where} edge would put {_feature(mine)} against {_feature(other)} "
            f"on the card to the {where}")


def _feature(name: str) -> str:
    return {NONE: "an edge without road", GRAY: "gray road surface"}.get(name, f"an {name}")


def placements(deck: Deck, layout: Layout, cars: Cars, card: str,
                     player: int | None) -> list[Placement]:
    """Every ``(x, y, rotation)`` where ``card`` may go, sorted. ``player`` None: anyone (every
    car cell counts, as its owner could play there)."""
    turned = deck[card].turned
    needs: dict[Cell, list[tuple[int, str]]] = {}
    for (x, y), (cid, rot) in layout.items():
        edges = deck[cid].turned[rot // 90]
        for side in range(4):
            dx, dy = STEP[side]
            cell = (x + dx, y + dy)
            if cell in layout:
                continue
            owner = cars.get(cell)
            if owner is not None and player is not None and owner != player:
                continue
            needs.setdefault(cell, []).append(((side + 2) % 4, MATE[edges[side]]))
    out: list[Placement] = []
    for (x, y), wants in needs.items():
        for k in range(4):
            mine = turned[k]
            # every touching edge matching its mate already implies a road meets a road
            # unless every touching edge is an edge without road
            if all(mine[s] == want for s, want in wants) and any(mine[s] != NONE for s, _ in wants):
                out.append((x, y, k * 90))
    out.sort()
    return out


def has_placement(deck: Deck, layout: Layout, cars: Cars, card: str, player: int | None) -> bool:
    return bool(placements(deck, layout, cars, card, player))


def frontier(layout: Layout, cars: Cars) -> list[Cell]:
    """Empty cells (no card, no car) sharing an edge with a card, sorted."""
    out: set[Cell] = set()
    for x, y in layout:
        for dx, dy in STEP:
            cell = (x + dx, y + dy)
            if cell not in layout and cell not in cars:
                out.add(cell)
    return sorted(out)


def roundabout_cells(layout: Layout, point: Cell) -> list[Cell] | None:
    """The four cells of the roundabout at grid point ``point`` if it is complete."""
    cells = []
    for corner, (dx, dy) in _CELL_OF_CORNER.items():
        cell = (point[0] + dx, point[1] + dy)
        there = layout.get(cell)
        if there is None or quarter_corner(there[1]) != corner:
            return None
        cells.append(cell)
    return sorted(cells)


def quarter_point(cell: Cell, rotation: int) -> Cell:
    """The grid point the quarter of a card at ``cell`` turned ``rotation`` touches."""
    dx, dy = _CELL_OF_CORNER[quarter_corner(rotation)]
    return cell[0] - dx, cell[1] - dy


def score_roundabout(deck: Deck, layout: Layout, point: Cell) -> ScoreLine:
    """+1 for completing it, +1 per arrow on its cards, plus its cards' bonuses."""
    cells = roundabout_cells(layout, point)
    if cells is None:
        raise LayoutError(f"there is no complete roundabout at grid point {point}")
    cards = [deck[layout[c][0]] for c in cells]
    arrows = sum(c.arrows for c in cards)
    exits = sum(e == EXIT for c in cards for e in c.edges)
    entrances = sum(e == ENTRANCE for c in cards for e in c.edges)
    bonuses: list[tuple[str, str, int]] = []
    for c in cards:
        if c.bonus is None:
            continue
        per = {"points": 1, "per_exit": exits, "per_entrance": entrances, "per_arrow": arrows}[c.bonus.kind]
        bonuses.append((c.id, c.bonus.label, c.bonus.amount * per))
    bonus_points = sum(b[2] for b in bonuses)
    total = 1 + arrows + bonus_points
    parts = f"1 for completing it, {arrows} for arrows" + (f", {bonus_points} in bonuses" if bonuses else "")
    return line(
        "roundabout", total, f"Roundabout at point ({point[0]}, {point[1]}): {parts}",
        point=point,
        cells=tuple(cells),
        cards=tuple(c.id for c in cards),
        completion=1,
        arrows=arrows,
        bonuses=tuple({"card": cid, "bonus": label, "points": pts} for cid, label, pts in bonuses),
    )


def score_layout(cells: Mapping[Any, Any], deck: Deck | None = None) -> list[ScoreLine]:
    """One line per completed four-card roundabout in a layout read off the table (no game
    history): ``cells`` maps ``(x, y)`` to ``(card id, rotation)``. Lines are ordered by grid
    point, top row first."""
    from .cards import load_deck

    deck = deck if deck is not None else load_deck()
    if not isinstance(cells, Mapping):
        raise LayoutError("a layout must map (x, y) cells to (card id, rotation)")
    layout: dict[Cell, tuple[str, int]] = {}
    for key, value in cells.items():
        if (not isinstance(key, tuple) or len(key) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in key)):
            raise LayoutError(f"layout cell {key!r} is not a pair of whole numbers (x, y)")
        if not isinstance(value, tuple | list) or len(value) != 2:
            raise LayoutError(f"layout cell {key} must hold (card id, rotation), not {value!r}")
        card, rotation = value
        if not isinstance(card, str) or card not in deck.cards:
            raise LayoutError(f"layout cell {key} holds {card!r}, which is not a card of {deck.path}")
        if isinstance(rotation, bool) or rotation not in ROTATIONS:
            raise LayoutError(f"layout cell {key} has rotation {rotation!r}; it must be 0, 90, 180 or 270")
        layout[key] = (card, int(rotation))
    points = sorted({quarter_point(c, r) for c, (_, r) in layout.items()}, key=lambda p: (p[1], p[0]))
    return [score_roundabout(deck, layout, p) for p in points if roundabout_cells(layout, p) is not None]


__all__ = [
    "CORNERS", "RULE_CARS", "RULE_ENTRANCE", "RULE_EXIT", "RULE_FULL_SIDES", "RULE_GRAY",
    "RULE_ONE_CARD", "RULE_ROAD", "LayoutError", "check_placement", "frontier", "placements",
    "roundabout_cells", "score_layout", "score_roundabout",
]
