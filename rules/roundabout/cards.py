"""Roundabout cards: a quarter roundabout with four edges, arrows and an optional bonus.

The geometry (documented again in ``cards.json``): at rotation 0 the quarter sits in the card's
south-east corner, so its gray ring crosses the east and south edges. Rotations turn the card
clockwise in steps of 90 degrees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..catalog import Entry, cached_loader, entries
from ..errors import CatalogError

GAME = "roundabout"
CATALOG_FILE = "cards.json"

ENTRANCE, EXIT, GRAY, NONE = "entrance", "exit", "gray", "none"
EDGE_FEATURES = (ENTRANCE, EXIT, GRAY, NONE)
#: Edge features that carry a road (the rulebook: "exit, entrance, or roundabout").
ROADS = frozenset((ENTRANCE, EXIT, GRAY))
#: The only feature each feature may meet across an edge: gray meets gray, an exit meets an
#: entrance and the other way round, and an edge without road meets an edge without road.
MATE = {GRAY: GRAY, EXIT: ENTRANCE, ENTRANCE: EXIT, NONE: NONE}

SIDES = ("north", "east", "south", "west")
#: Grid step to the neighbour across each side; y grows to the south.
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
ROTATIONS = (0, 90, 180, 270)
CORNERS = ("north-east", "south-east", "south-west", "north-west")
#: The corner holding the quarter at rotation 0 (index into CORNERS).
QUARTER_AT_ZERO = 1

BONUS_KINDS = {
    "points": "+{amount} points",
    "per_exit": "+{amount} per exit on this roundabout",
    "per_entrance": "+{amount} per entrance on this roundabout",
    "per_arrow": "+{amount} per arrow on this roundabout",
}


@dataclass(frozen=True, slots=True)
class Bonus:
    """A bonus printed on a card, scored when its roundabout is completed."""

    kind: str
    amount: int

    @property
    def label(self) -> str:
        return BONUS_KINDS[self.kind].format(amount=self.amount)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount, "label": self.label}


@dataclass(frozen=True, slots=True)
class Card:
    """One card design: ``edges`` are north, east, south, west at rotation 0."""

    id: str
    edges: tuple[str, str, str, str]
    arrows: int
    bonus: Bonus | None
    count: int
    #: ``edges_at`` for the four rotations, computed once: placement search reads it constantly.
    turned: tuple[tuple[str, str, str, str], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        e = self.edges
        turned = tuple((e[(0 - k) % 4], e[(1 - k) % 4], e[(2 - k) % 4], e[(3 - k) % 4]) for k in range(4))
        object.__setattr__(self, "turned", turned)

    def edges_at(self, rotation: int) -> tuple[str, str, str, str]:
        """The features on the north, east, south and west edges once turned ``rotation``
        degrees clockwise: the feature on side ``i`` moves to side ``i + rotation / 90``."""
        return self.turned[rotation // 90]

    def to_item(self, size_mm: tuple[int, int]) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": "roundabout card",
            "count": self.count,
            "size_mm": list(size_mm),
            "edges": dict(zip(SIDES, self.edges, strict=True)),
            "quarter_corner": CORNERS[QUARTER_AT_ZERO],
            "arrows": self.arrows,
            "bonus": self.bonus.to_json() if self.bonus else None,
        }


def quarter_corner(rotation: int) -> int:
    """Index into CORNERS of the corner holding the quarter once turned ``rotation`` degrees."""
    return (QUARTER_AT_ZERO + rotation // 90) % 4


@dataclass(frozen=True)
class Deck:
    """The card designs of a catalog by id, with where they were loaded from."""

    path: str
    cards: Mapping[str, Card]
    size_mm: tuple[int, int]

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards.values())

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]


def _bonus(entry: Entry) -> Bonus | None:
    raw = entry.get("bonus", dict, default=None)
    if raw is None:
        return None
    inner = Entry(entry.path, f"{entry.where}.bonus", raw)
    kind = inner.one_of("kind", BONUS_KINDS)
    amount = inner.get("amount", int, check=lambda v: 1 <= v <= 20, expect="a whole number from 1 to 20")
    return Bonus(kind, amount)


def parse_deck(path: Path | str, data: Mapping[str, Any]) -> Deck:
    size = data.get("card_size_mm", [70, 70])
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
        raise CatalogError(f"{path}: field 'card_size_mm' must be [width, height] in whole millimetres")
    cards: dict[str, Card] = {}
    for entry in entries(path, data, "cards"):
        edges = entry.str_list("edges", choices=EDGE_FEATURES, min_len=4, max_len=4)
        ring = (QUARTER_AT_ZERO, (QUARTER_AT_ZERO + 1) % 4)  # the sides either side of the corner
        for side in ring:
            if edges[side] != GRAY:
                raise entry.fail("edges", f"the {SIDES[side]} edge carries the quarter's gray ring at "
                                          f"rotation 0, so it must be 'gray', not {edges[side]!r}")
        card = Card(
            id=entry.get("id", str),
            edges=(edges[0], edges[1], edges[2], edges[3]),
            arrows=entry.get("arrows", int, check=lambda v: 0 <= v <= 9, expect="a whole number from 0 to 9"),
            bonus=_bonus(entry),
            count=entry.get("count", int, default=1, check=lambda v: v >= 1, expect="a whole number of at least 1"),
        )
        cards[card.id] = card
    if not cards:
        raise CatalogError(f"{path}: field 'cards' must list at least one card")
    return Deck(str(path), cards, (size[0], size[1]))


_cached = cached_loader(GAME, CATALOG_FILE, parse_deck)


def load_deck(directory: str | Path | None = None) -> Deck:
    """The Roundabout deck: the packaged stand-in, the owner's override, or ``directory``."""
    return _cached(directory)
