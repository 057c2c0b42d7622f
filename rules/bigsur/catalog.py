"""Big Sur's catalogs: ``cards.json`` (Starter cards and double-sided cards) and ``landmarks.json``.

Both ship as stand-ins (the publisher's lists are not published) and are validated on load, with
errors naming the file, the entry and the field. An owner replaces them through
``$COMPANION_CATALOGS/bigsur/`` without touching code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalog import Entry, catalog_path, entries, load_catalog_json
from ..errors import CatalogError
from .conditions import Condition, parse_condition

GAME = "bigsur"
STARTERS = 7  # "Separate the 7 Starter cards"
DOUBLE_SIDED = 90  # 97 cards in the box, less the 7 Starters
LANDMARKS = 14  # "14 Landmark Tiles"
MILES = (1, 2, 3)  # "a stretch of highway either 1, 2, or 3 miles long"
ABILITIES = ("flip",)


@dataclass(frozen=True, slots=True)
class HighwayCard:
    """A double-sided card: its Highway side (miles, terrains, cost, and the 1-mile material or the
    2-mile condition) and the one ``material`` on its gray Material side."""

    id: str
    miles: int
    terrains: tuple[str, ...]
    cost: tuple[str, ...]
    material: str
    tableau_material: str | None = None
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class StarterCard:
    """A pink Starter card: a material on each side."""

    id: str
    materials: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Spec:
    """One of a Landmark requirement's three cards: a terrain it shows, an exact mileage, or both."""

    terrain: str | None = None
    miles: int | None = None

    def fits(self, card: HighwayCard) -> bool:
        return ((self.terrain is None or self.terrain in card.terrains)
                and (self.miles is None or self.miles == card.miles))

    def text(self) -> str:
        parts = [f"{self.miles}-mile" if self.miles else "", self.terrain or ""]
        return " ".join(p for p in parts if p) + " card"

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in (("terrain", self.terrain), ("miles", self.miles)) if v is not None}


@dataclass(frozen=True, slots=True)
class LandmarkTile:
    """A Landmark tile: three card specs to meet and its benefits. ``adjacent`` tiles want three
    cards side by side; the others any three cards of the tableau (the rulebook says only "a
    combination of 3 Highway cards")."""

    id: str
    name: str
    requires: tuple[Spec, Spec, Spec]
    points: int = 0
    condition: Condition | None = None
    material: str | None = None
    ability: str | None = None
    adjacent: bool = False


@dataclass(frozen=True)
class Catalog:
    materials: tuple[str, ...]
    terrains: tuple[str, ...]
    starters: Mapping[str, StarterCard]
    cards: Mapping[str, HighwayCard]
    landmarks: Mapping[str, LandmarkTile]
    cards_path: Path
    landmarks_path: Path


def _vocabulary(path: Path, data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if (not isinstance(value, list) or not value or len(set(map(str, value))) != len(value)
            or not all(isinstance(v, str) and v and v == v.strip().lower() for v in value)):
        raise CatalogError(f"{path}: field {key!r} must be a list of distinct lowercase names")
    return tuple(value)


def _condition(entry: Entry, field: str, terrains: tuple[str, ...]) -> Condition:
    return parse_condition(entry.data[field], terrains, lambda msg: entry.fail(field, msg))


def _starter(entry: Entry, materials: tuple[str, ...]) -> StarterCard:
    pair = entry.str_list("materials", choices=materials, min_len=2, max_len=2)
    return StarterCard(entry.data["id"], (pair[0], pair[1]))


def _card(entry: Entry, materials: tuple[str, ...], terrains: tuple[str, ...]) -> HighwayCard:
    miles = entry.get("miles", int, check=lambda m: m in MILES, expect="1, 2 or 3")
    shown = entry.str_list("terrains", choices=terrains, min_len=1, max_len=2)
    if len(set(shown)) != len(shown):
        raise entry.fail("terrains", "names the same terrain twice")
    cost = entry.str_list("cost", choices=materials, min_len=1)
    material = entry.one_of("material", materials)
    tableau_material = None
    if miles == 1:
        tableau_material = entry.one_of("tableau_material", materials)
    elif "tableau_material" in entry.data:
        raise entry.fail("tableau_material", "only 1-mile cards list a material in the bottom-left corner")
    condition = None
    if miles == 2:
        if "condition" not in entry.data:
            raise entry.fail("condition", "is missing (every 2-mile card has a scoring condition)")
        condition = _condition(entry, "condition", terrains)
    elif "condition" in entry.data:
        raise entry.fail("condition", "only 2-mile cards carry a scoring condition")
    unknown = sorted(set(entry.data) - {"id", "miles", "terrains", "cost", "material", "tableau_material",
                                        "condition"})
    if unknown:
        raise entry.fail(unknown[0], "is not a field of a Big Sur card")
    return HighwayCard(entry.data["id"], miles, tuple(shown), tuple(cost), material, tableau_material, condition)


def _spec(entry: Entry, index: int, raw: Any, terrains: tuple[str, ...]) -> Spec:
    field = f"requires[{index}]"
    if not isinstance(raw, Mapping) or not raw or set(raw) - {"terrain", "miles"}:
        raise entry.fail(field, "expected an object with 'terrain' and/or 'miles'")
    terrain, miles = raw.get("terrain"), raw.get("miles")
    if terrain is not None and terrain not in terrains:
        raise entry.fail(field, f"terrain {terrain!r} is not one of {', '.join(terrains)}")
    if miles is not None and (isinstance(miles, bool) or miles not in MILES):
        raise entry.fail(field, f"miles must be 1, 2 or 3, not {miles!r}")
    return Spec(terrain, miles)


def _landmark(entry: Entry, materials: tuple[str, ...], terrains: tuple[str, ...]) -> LandmarkTile:
    name = entry.get("name", str, check=lambda s: bool(s.strip()), expect="a non-empty string")
    raw = entry.get("requires", list, check=lambda v: len(v) == 3, expect="a list of 3 card specs")
    specs = tuple(_spec(entry, i, r, terrains) for i, r in enumerate(raw))
    points = entry.get("points", int, default=0, check=lambda p: p >= 0, expect="a whole number of 0 or more")
    condition = _condition(entry, "condition", terrains) if "condition" in entry.data else None
    material = entry.one_of("material", materials, default=None)
    ability = entry.one_of("ability", ABILITIES, default=None)
    adjacent = entry.get("adjacent", bool, default=False)
    if not (points or condition or material or ability):
        raise entry.fail("points", "a Landmark tile must give some benefit (points, condition, material or ability)")
    unknown = sorted(set(entry.data) - {"id", "name", "requires", "points", "condition", "material", "ability",
                                        "adjacent"})
    if unknown:
        raise entry.fail(unknown[0], "is not a field of a Landmark tile")
    return LandmarkTile(entry.data["id"], name, (specs[0], specs[1], specs[2]), points, condition, material, ability,
                        adjacent)


def load_catalog(directory: str | Path | None = None) -> Catalog:
    """Read and validate both catalog files (from ``directory``, the owner's override, or the
    packaged stand-ins)."""
    cards_path, data = load_catalog_json(GAME, "cards.json", directory)
    materials = _vocabulary(cards_path, data, "materials")
    terrains = _vocabulary(cards_path, data, "terrains")
    starters = {e.data["id"]: _starter(e, materials) for e in entries(cards_path, data, "starters")}
    cards = {e.data["id"]: _card(e, materials, terrains) for e in entries(cards_path, data, "cards")}
    clash = sorted(set(starters) & set(cards))
    if clash:
        raise CatalogError(f"{cards_path}: id {clash[0]!r} is both a Starter card and a card")
    if len(starters) != STARTERS:
        raise CatalogError(f"{cards_path}: field 'starters' must hold the {STARTERS} Starter cards, not {len(starters)}")
    if len(cards) != DOUBLE_SIDED:
        raise CatalogError(f"{cards_path}: field 'cards' must hold the {DOUBLE_SIDED} double-sided cards, "
                           f"not {len(cards)}")
    landmarks_path, ldata = load_catalog_json(GAME, "landmarks.json", directory)
    landmarks = {e.data["id"]: _landmark(e, materials, terrains) for e in entries(landmarks_path, ldata, "landmarks")}
    if len(landmarks) != LANDMARKS:
        raise CatalogError(f"{landmarks_path}: field 'landmarks' must hold the {LANDMARKS} tiles, not {len(landmarks)}")
    clash = sorted(set(landmarks) & (set(cards) | set(starters)))
    if clash:
        raise CatalogError(f"{landmarks_path}: id {clash[0]!r} is also a card id")
    return Catalog(materials, terrains, starters, cards, landmarks, cards_path, landmarks_path)


_loaded: dict[tuple[str, str], Catalog] = {}


def default_catalog() -> Catalog:
    """The catalog games use. Each file comes from the owner's override if present, else from
    the package; the cache is keyed by those paths so a changed override is picked up."""
    key = (str(catalog_path(GAME, "cards.json")), str(catalog_path(GAME, "landmarks.json")))
    if key not in _loaded:
        _loaded[key] = load_catalog()
    return _loaded[key]


def material_counts(catalog: Catalog) -> Counter[str]:
    """How many cards show each material on their gray side."""
    return Counter(card.material for card in catalog.cards.values())
