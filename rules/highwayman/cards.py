"""Highwayman's pack: coaching routes (a LONDON card, then stages 1..N), Highwaymen and Bow Street
Runners. The catalog lists routes and how many of each special card; card ids are derived:
``hm-<route>-london``, ``hm-<route>-<n>``, ``hm-highwayman``, ``hm-runner``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalog import Entry, cached_loader, entries
from ..errors import CatalogError

GAME = "highwayman"
CATALOG_FILE = "cards.json"

LONDON, STAGE, HIGHWAYMAN, RUNNER = "london", "stage", "highwayman", "bow street runner"
HIGHWAYMAN_ID = "hm-highwayman"
RUNNER_ID = "hm-runner"
#: Rule 5: "counting 10 points for a Bow Street Runner and 20 points for a Highwayman". A LONDON
#: card has no number, so it counts nothing.
PENALTY = {HIGHWAYMAN: 20, RUNNER: 10, LONDON: 0}


@dataclass(frozen=True, slots=True)
class Route:
    id: str
    name: str
    colour: str
    stages: int


@dataclass(frozen=True, slots=True)
class Card:
    """One card design. ``number`` is 0 for a LONDON card (it starts the route), None for the
    Highwayman and the Bow Street Runner."""

    id: str
    kind: str
    count: int
    route: Route | None = None
    number: int | None = None

    @property
    def penalty(self) -> int:
        if self.kind == STAGE:
            assert self.number is not None
            return self.number
        return PENALTY[self.kind]

    @property
    def label(self) -> str:
        if self.route is None:
            return "Highwayman" if self.kind == HIGHWAYMAN else "Bow Street Runner"
        return f"{self.route.name} {'LONDON' if self.kind == LONDON else self.number}"

    def to_item(self, size_mm: tuple[int, int]) -> dict[str, Any]:
        item: dict[str, Any] = {
            "id": self.id,
            "kind": {LONDON: "route card", STAGE: "route card", HIGHWAYMAN: "highwayman card",
                     RUNNER: "bow street runner card"}[self.kind],
            "count": self.count,
            "size_mm": list(size_mm),
            "label": self.label,
            "london": self.kind == LONDON,
            "number": self.number if self.kind == STAGE else None,
            "route": self.route.id if self.route else None,
            "route_name": self.route.name if self.route else None,
            "colour": self.route.colour if self.route else None,
            "penalty": self.penalty,
        }
        return item


@dataclass(frozen=True)
class Pack:
    path: str
    routes: Mapping[str, Route]
    cards: Mapping[str, Card]
    size_mm: tuple[int, int]

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards.values())

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def london(self, route: str) -> str:
        return f"hm-{route}-london"

    def stage(self, route: str, number: int) -> str:
        return f"hm-{route}-{number}"


def parse_pack(path: Path | str, data: Mapping[str, Any]) -> Pack:
    size = data.get("card_size_mm", [57, 89])
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
        raise CatalogError(f"{path}: field 'card_size_mm' must be [width, height] in whole millimetres")
    routes: dict[str, Route] = {}
    colours: set[str] = set()
    for entry in entries(path, data, "routes"):
        route = Route(
            id=entry.get("id", str, check=lambda v: v.isidentifier() and v.islower(),
                         expect="a lower-case word such as 'bath'"),
            name=entry.get("name", str, check=bool, expect="a non-empty string"),
            colour=entry.get("colour", str, check=bool, expect="a non-empty string"),
            stages=entry.get("stages", int, check=lambda v: 1 <= v <= 30, expect="a whole number from 1 to 30"),
        )
        if route.colour in colours:
            raise entry.fail("colour", f"{route.colour!r} is already another route's band: routes are told apart by colour")
        colours.add(route.colour)
        routes[route.id] = route
    if len(routes) < 1:
        raise CatalogError(f"{path}: field 'routes' must list at least one route")
    header = Entry(path, "pack", data)
    highwaymen = header.get("highwaymen", int, check=lambda v: 0 <= v <= 20, expect="a whole number from 0 to 20")
    runners = header.get("bow_street_runners", int, check=lambda v: 0 <= v <= 20, expect="a whole number from 0 to 20")
    cards: dict[str, Card] = {}
    for route in routes.values():
        cards[f"hm-{route.id}-london"] = Card(f"hm-{route.id}-london", LONDON, 1, route, 0)
        for n in range(1, route.stages + 1):
            cards[f"hm-{route.id}-{n}"] = Card(f"hm-{route.id}-{n}", STAGE, 1, route, n)
    if highwaymen:
        cards[HIGHWAYMAN_ID] = Card(HIGHWAYMAN_ID, HIGHWAYMAN, highwaymen)
    if runners:
        cards[RUNNER_ID] = Card(RUNNER_ID, RUNNER, runners)
    return Pack(str(path), routes, cards, (size[0], size[1]))


_cached = cached_loader(GAME, CATALOG_FILE, parse_pack)


def load_pack(directory: str | Path | None = None) -> Pack:
    """The Highwayman pack: the packaged stand-in, the owner's override, or ``directory``."""
    return _cached(directory)
