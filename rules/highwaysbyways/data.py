"""The Highways & Byways catalogs: board, byways, event cards, vehicles, construction cards.

All five are stand-in JSON files beside this module (see their ``stand_in`` headers); an owner of the
real game replaces them through ``$COMPANION_CATALOGS/highwaysbyways/`` without touching code.
Loading validates every cross-reference (paths name real spaces, byways follow paths, decks are big
enough for four players) so a bad file fails at start-up with the file, entry and field named.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from rules.catalog import entries, load_catalog_json
from rules.errors import CatalogError

GAME = "highwaysbyways"
SPACE_KINDS = ("highway", "red", "blue", "intersection")
DIRECTIONS = ("north", "south", "east", "west")
EFFECTS = ("traffic", "weather", "accident", "repair", "extra_moves", "lucky_draw")
START_REGIONS = ("California", "Wyoming", "Iowa", "Texas", "Georgia", "Pennsylvania")
RED_PER_PLAYER = 2
BLUE_PER_PLAYER = 10
MAX_PLAYERS = 4


@dataclass(frozen=True)
class Space:
    id: str
    kind: str
    x: int
    y: int
    region: str
    roads: tuple[str, ...] = ()
    start: bool = False

    @property
    def is_highway(self) -> bool:
        return self.kind == "highway"


@dataclass(frozen=True)
class Byway:
    id: str
    name: str
    color: str
    spaces: tuple[str, ...]


@dataclass(frozen=True)
class EventCard:
    id: str
    name: str
    effect: str
    count: int
    text: str
    direction: str = ""
    spaces: int = 0
    letter: str = ""
    cards: int = 0


@dataclass(frozen=True)
class Vehicle:
    id: str
    name: str
    immune: frozenset[str]
    extra_draws: int
    reshuffle_moves: int
    ability: str


@dataclass(frozen=True)
class ConstructionCard:
    id: str
    letter: str


@dataclass(frozen=True)
class Catalogs:
    spaces: dict[str, Space]
    neighbours: dict[str, tuple[str, ...]]
    byways: dict[str, Byway]
    events: dict[str, EventCard]
    vehicles: dict[str, Vehicle]
    construction: dict[str, ConstructionCard]
    slots: int
    sizes: dict[str, list[int]]
    _distance: dict[str, dict[str, int]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def starts(self) -> list[str]:
        return [s.id for s in self.spaces.values() if s.start]

    def deck(self, color: str) -> list[str]:
        return sorted(b.id for b in self.byways.values() if b.color == color)

    def distances_from(self, space: str) -> dict[str, int]:
        """Shortest number of moves from ``space`` to every space, ignoring closures (cached)."""
        found = self._distance.get(space)
        if found is None:
            found = {space: 0}
            queue = deque([space])
            while queue:
                here = queue.popleft()
                for there in self.neighbours[here]:
                    if there not in found:
                        found[there] = found[here] + 1
                        queue.append(there)
            self._distance[space] = found
        return found


def _positive(value: Any) -> bool:
    return isinstance(value, int) and value > 0


def load(directory: str | Path | None = None) -> Catalogs:
    """Read and cross-check the five catalog files (cached per directory for the default ones)."""
    if directory is None:
        return _load_default(_override_key())
    return _load(directory)


def _override_key() -> str:
    import os

    return os.environ.get("COMPANION_CATALOGS", "")


@lru_cache(maxsize=4)
def _load_default(_override: str) -> Catalogs:
    return _load(None)


def _load(directory: str | Path | None) -> Catalogs:
    spaces, neighbours = _load_map(directory)
    byways = _load_byways(directory, spaces, neighbours)
    construction, slots, con_size = _load_construction(directory, spaces)
    events, ev_size = _load_events(directory, construction)
    vehicles, veh_size = _load_vehicles(directory)
    return Catalogs(spaces, neighbours, byways, events, vehicles, construction, slots,
                    {"construction": con_size, "event": ev_size, "vehicle": veh_size, "byway": ev_size})


def _size(path: Path, data: dict[str, Any]) -> list[int]:
    size = data.get("size_mm")
    if not (isinstance(size, list) and len(size) == 2 and all(_positive(v) for v in size)):
        raise CatalogError(f"{path}: field 'size_mm' must be [width, height] in whole millimetres")
    return list(size)


def _load_map(directory: str | Path | None) -> tuple[dict[str, Space], dict[str, tuple[str, ...]]]:
    path, data = load_catalog_json(GAME, "map.json", directory)
    spaces: dict[str, Space] = {}
    for e in entries(path, data, "spaces"):
        kind = e.one_of("kind", SPACE_KINDS)
        roads: list[str] = e.str_list("roads", default=[])
        if kind == "highway" and not roads:
            raise e.fail("roads", "a highway space needs at least one road letter")
        if kind != "highway" and roads:
            raise e.fail("roads", "only highway spaces carry road letters")
        space = Space(e.get("id", str), kind, e.get("x", int), e.get("y", int),
                      e.get("region", str, check=bool, expect="a region name"), tuple(roads),
                      e.get("start", bool, default=False))
        spaces[space.id] = space
    raw_paths = data.get("paths")
    if not isinstance(raw_paths, list):
        raise CatalogError(f"{path}: field 'paths' must be a list of [space, space] pairs")
    links: dict[str, set[str]] = {s: set() for s in spaces}
    for i, pair in enumerate(raw_paths):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) and p in spaces for p in pair) and pair[0] != pair[1]):
            raise CatalogError(f"{path}: paths[{i}]: must join two different known spaces, got {pair!r}")
        links[pair[0]].add(pair[1])
        links[pair[1]].add(pair[0])
    starts = [s for s in spaces.values() if s.start]
    if sorted(s.region for s in starts) != sorted(START_REGIONS):
        raise CatalogError(f"{path}: the Start Spaces must be one in each of {', '.join(START_REGIONS)}, "
                           f"found {sorted(s.region for s in starts)}")
    neighbours = {s: tuple(sorted(n)) for s, n in links.items()}
    seen = {starts[0].id}
    queue = deque(seen)
    while queue:
        for n in neighbours[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    if len(seen) != len(spaces):
        lost = sorted(set(spaces) - seen)[:3]
        raise CatalogError(f"{path}: every space must be reachable by paths; not reachable: {', '.join(lost)}")
    return spaces, neighbours


def _load_byways(directory: str | Path | None, spaces: dict[str, Space],
                 neighbours: dict[str, tuple[str, ...]]) -> dict[str, Byway]:
    path, data = load_catalog_json(GAME, "byways.json", directory)
    byways: dict[str, Byway] = {}
    for e in entries(path, data, "byways"):
        color = e.one_of("color", ("red", "blue"))
        seq = e.str_list("spaces", choices=spaces, min_len=2)
        if len(set(seq)) != len(seq):
            raise e.fail("spaces", "a byway cannot visit a space twice")
        for a, b in pairwise(seq):
            if b not in neighbours[a]:
                raise e.fail("spaces", f"no path joins {a} and {b}")
        for s in seq:
            if spaces[s].kind not in (color, "intersection"):
                raise e.fail("spaces", f"{s} is a {spaces[s].kind} space, not a {color} byway space")
        byway = Byway(e.get("id", str), e.get("name", str, check=bool, expect="a name"), color, tuple(seq))
        byways[byway.id] = byway
    for color, per_player in (("red", RED_PER_PLAYER), ("blue", BLUE_PER_PLAYER)):
        have = sum(1 for b in byways.values() if b.color == color)
        if have < per_player * MAX_PLAYERS:
            raise CatalogError(f"{path}: the {color} deck needs at least {per_player * MAX_PLAYERS} byways "
                               f"for four players, it has {have}")
    return byways


def _load_construction(directory: str | Path | None,
                       spaces: dict[str, Space]) -> tuple[dict[str, ConstructionCard], int, list[int]]:
    path, data = load_catalog_json(GAME, "construction.json", directory)
    letters = {r for s in spaces.values() for r in s.roads}
    cards: dict[str, ConstructionCard] = {}
    for e in entries(path, data, "cards"):
        letter = e.one_of("letter", sorted(letters))
        cards[e.get("id", str)] = ConstructionCard(e.get("id", str), letter)
    slots = data.get("slots")
    if not _positive(slots) or slots != len(cards):
        raise CatalogError(f"{path}: field 'slots' must equal the number of construction cards ({len(cards)})")
    return cards, slots, _size(path, data)


def _load_events(directory: str | Path | None,
                 construction: dict[str, ConstructionCard]) -> tuple[dict[str, EventCard], list[int]]:
    path, data = load_catalog_json(GAME, "events.json", directory)
    letters = sorted({c.letter for c in construction.values()})
    cards: dict[str, EventCard] = {}
    for e in entries(path, data, "cards"):
        effect = e.one_of("effect", EFFECTS)
        card = EventCard(
            e.get("id", str), e.get("name", str, check=bool, expect="a name"), effect,
            e.get("count", int, check=_positive, expect="a positive whole number"),
            e.get("text", str, default=""),
            direction=e.one_of("direction", DIRECTIONS) if effect == "traffic" else "",
            spaces=(e.get("spaces", int, check=_positive, expect="a positive whole number")
                    if effect in ("weather", "extra_moves") else 0),
            letter=e.one_of("letter", letters) if effect == "repair" else "",
            cards=e.get("cards", int, check=_positive, expect="a positive whole number") if effect == "lucky_draw" else 0,
        )
        cards[card.id] = card
    total = sum(c.count for c in cards.values())
    # Four hands of five plus the biggest end-of-turn draw must fit, or a draw could find no card.
    if total < 5 * MAX_PLAYERS + 8:
        raise CatalogError(f"{path}: the event deck needs at least {5 * MAX_PLAYERS + 8} cards, it has {total}")
    return cards, _size(path, data)


def _load_vehicles(directory: str | Path | None) -> tuple[dict[str, Vehicle], list[int]]:
    path, data = load_catalog_json(GAME, "vehicles.json", directory)
    vehicles: dict[str, Vehicle] = {}
    for e in entries(path, data, "vehicles"):
        v = Vehicle(
            e.get("id", str), e.get("name", str, check=bool, expect="a name"),
            frozenset(e.str_list("immune", choices=EFFECTS, default=[])),
            e.get("extra_draws", int, default=0, check=lambda n: n >= 0, expect="a whole number >= 0"),
            e.get("reshuffle_moves", int, default=0, check=lambda n: n >= 0, expect="a whole number >= 0"),
            e.get("ability", str, default=""),
        )
        vehicles[v.id] = v
    if len(vehicles) < MAX_PLAYERS:
        raise CatalogError(f"{path}: at least {MAX_PLAYERS} vehicles are needed, found {len(vehicles)}")
    return vehicles, _size(path, data)

