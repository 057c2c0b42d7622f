"""Monster Highway's catalogs (board, tiles, Monster Cards, dice) loaded and checked.

The four JSON files next to this module are stand-ins (the publisher prints no lists); an owner
of the real game replaces any of them under ``$COMPANION_CATALOGS/monsterhighway/`` without
touching code. Everything the rulebook does state is enforced here, so a replacement that
contradicts the rulebook (43 Road tiles, a Monster Card naming Ground Zero...) is refused with a
:class:`~rules.errors.CatalogError` naming the file, the entry and the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..catalog import Entry, catalog_path, entries, load_catalog_json
from ..errors import CatalogError

GAME = "monsterhighway"
SIDES = ("N", "E", "S", "W")
#: Rulebook, Components: these counts are printed on the box.
ROAD_TILE_COUNT = 44
SPECIAL_TILE_COUNT = 18
MONSTER_CARD_COUNT = 30
CORNERS = ("NW", "NE", "SE", "SW")
EFFECTS = ("monster_buster", "swap", "remove", "reroll", "dead_end")
FACES = ("road", "car", "monster")
WILD = "Wild"


def mask_of(sides: list[str]) -> int:
    """Open sides as bits: N=1, E=2, S=4, W=8 (clockwise, so rotating is a bit shift)."""
    out = 0
    for side in sides:
        out |= 1 << SIDES.index(side)
    return out


def rotate(mask: int, degrees: int) -> int:
    """``mask`` turned clockwise by ``degrees`` (a multiple of 90)."""
    k = (degrees // 90) % 4
    return ((mask << k) | (mask >> (4 - k))) & 15


def sides_of(mask: int) -> list[str]:
    return [s for i, s in enumerate(SIDES) if mask & (1 << i)]


@dataclass(frozen=True)
class TileDesign:
    """One design of tile: ``kind`` is road, special, home base or ground zero."""

    id: str
    name: str
    kind: str
    count: int
    open_mask: int = 0
    effect: str = ""
    corner: str = ""

    @cached_property
    def masks(self) -> dict[int, int]:
        """Each distinct open-side mask this tile can show, with the smallest rotation giving it."""
        out: dict[int, int] = {}
        for degrees in (0, 90, 180, 270):
            out.setdefault(rotate(self.open_mask, degrees), degrees)
        return out


@dataclass(frozen=True)
class HomeBase:
    corner: str
    cell: int
    colour: str


@dataclass(frozen=True)
class MonsterCard:
    id: str
    space: str  # a space name, or "Wild"


@dataclass(frozen=True)
class Catalog:
    """Everything data-driven about the game, validated."""

    columns: int
    rows: int
    cell_mm: int
    ground_zero: int
    home_bases: tuple[HomeBase, ...]
    spaces: dict[str, int]
    objects: dict[int, str]
    tiles: dict[str, TileDesign]
    tile_size_mm: tuple[int, int]
    monster_cards: tuple[MonsterCard, ...]
    card_size_mm: tuple[int, int]
    specialty_dice: int
    specialty_faces: tuple[str, ...]
    movement_faces: tuple[int, ...]
    sources: tuple[str, ...] = field(default=())

    def name_of(self, cell: int) -> str:
        """The space's coordinate name, ``E5``."""
        return f"{chr(ord('A') + cell % self.columns)}{cell // self.columns + 1}"

    def cell_of(self, name: str) -> int:
        """The inverse of :meth:`name_of`; ``ValueError`` when ``name`` is no space of the board."""
        match = re.fullmatch(r"([A-Z])([1-9][0-9]?)", name) if isinstance(name, str) else None
        if match is None:
            raise ValueError(f"{name!r} is not a space name like 'E5'")
        x = ord(match.group(1)) - ord("A")
        y = int(match.group(2)) - 1
        if not (0 <= x < self.columns and 0 <= y < self.rows):
            raise ValueError(f"{name} is off the {self.columns} x {self.rows} board")
        return y * self.columns + x

    def by_kind(self, kind: str) -> list[TileDesign]:
        return [t for t in self.tiles.values() if t.kind == kind]

    def effect_tile(self, effect: str) -> str:
        """The id of the special tile with this effect (the first, should a catalog have two)."""
        for t in self.tiles.values():
            if t.effect == effect:
                return t.id
        raise CatalogError(f"the tile catalog has no special tile with effect {effect!r}")

    def home_tile(self, corner: str) -> str:
        for t in self.tiles.values():
            if t.kind == "home base" and t.corner == corner:
                return t.id
        raise CatalogError(f"the tile catalog has no Home Base tile for corner {corner}")


def _sides(entry: Entry, name: str = "open", exactly: int | None = None) -> int:
    sides = entry.str_list(name, choices=SIDES, min_len=1, max_len=4)
    if len(set(sides)) != len(sides):
        raise entry.fail(name, f"names a side twice: {sides}")
    if exactly is not None and len(sides) != exactly:
        raise entry.fail(name, f"expected {exactly} open side(s), got {len(sides)}")
    return mask_of(sides)


def _size(entry: Entry, name: str) -> tuple[int, int]:
    value = entry.get(name, list, check=lambda v: len(v) == 2 and all(
        isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in v), expect="[width, height] in mm")
    return int(value[0]), int(value[1])


def _cell(entry: Entry, name: str, columns: int, rows: int) -> int:
    raw = entry.get(name, str)
    match = re.fullmatch(r"([A-Z])([1-9][0-9]?)", raw)
    if match is None:
        raise entry.fail(name, f"expected a space name like 'E5', got {raw!r}")
    x, y = ord(match.group(1)) - ord("A"), int(match.group(2)) - 1
    if not (0 <= x < columns and 0 <= y < rows):
        raise entry.fail(name, f"{raw} is off the {columns} x {rows} board")
    return y * columns + x


def load(directory: str | Path | None = None) -> Catalog:
    """Load and cross-check the four catalog files (``directory`` overrides where they are)."""
    bpath, board = load_catalog_json(GAME, "board.json", directory)
    top = Entry(bpath, "board", board)
    columns = top.get("columns", int, check=lambda v: 5 <= v <= 25 and v % 2 == 1, expect="an odd number 5 to 25")
    rows = top.get("rows", int, check=lambda v: 5 <= v <= 25 and v % 2 == 1, expect="an odd number 5 to 25")
    cell_mm = top.get("cell_mm", int, check=lambda v: v > 0, expect="a positive number of mm")
    ground_zero = _cell(top, "ground_zero", columns, rows)
    if ground_zero != (rows // 2) * columns + columns // 2:
        raise top.fail("ground_zero", "Ground Zero is placed on the center of the board")
    corner_cells = {"NW": 0, "NE": columns - 1, "SE": rows * columns - 1, "SW": (rows - 1) * columns}
    homes = []
    for e in entries(bpath, board, "home_bases", id_field="corner"):
        corner = e.one_of("corner", CORNERS)
        cell = _cell(e, "at", columns, rows)
        if cell != corner_cells[corner]:
            raise e.fail("at", f"the {corner} Home Base must be the {corner} corner space")
        homes.append(HomeBase(corner, cell, e.get("colour", str, check=bool, expect="a colour name")))
    if sorted(h.corner for h in homes) != sorted(CORNERS):
        raise CatalogError(f"{bpath}: field 'home_bases': expected one Home Base in each corner")
    spaces: dict[str, int] = {}
    objects: dict[int, str] = {}
    for e in entries(bpath, board, "spaces", id_field="name"):
        name = e.get("name", str)
        if name == WILD:
            raise e.fail("name", "'Wild' is what Monster Cards without a space say")
        cell = _cell(e, "at", columns, rows)
        if cell == ground_zero or cell in corner_cells.values():
            raise e.fail("at", "the Monster cannot be placed on Ground Zero or a Home Base, so no space there is named")
        if cell in spaces.values():
            raise e.fail("at", "another named space is already there")
        spaces[name] = cell
        obj = e.get("object", (str, type(None)), default=None)
        if obj:
            objects[cell] = obj

    tpath, tdata = load_catalog_json(GAME, "tiles.json", directory)
    ttop = Entry(tpath, "tiles", tdata)
    tile_size = _size(ttop, "size_mm")
    tiles: dict[str, TileDesign] = {}

    def add(design: TileDesign, e: Entry) -> None:
        if design.id in tiles:
            raise e.fail("id", f"duplicate tile id {design.id!r}")
        tiles[design.id] = design

    for e in entries(tpath, tdata, "road_tiles"):
        mask = _sides(e)
        if bin(mask).count("1") < 2:
            raise e.fail("open", "a Road tile carries the road on through at least two sides")
        add(TileDesign(e.get("id", str), e.get("name", str), "road",
                       e.get("count", int, check=lambda v: v > 0, expect="a positive count"), mask), e)
    if sum(t.count for t in tiles.values()) != ROAD_TILE_COUNT:
        raise CatalogError(f"{tpath}: field 'road_tiles': the counts must add up to the "
                           f"{ROAD_TILE_COUNT} Road tiles in the box, not {sum(t.count for t in tiles.values())}")
    gz = Entry(tpath, "ground_zero", tdata.get("ground_zero"))
    add(TileDesign(gz.get("id", str), gz.get("name", str), "ground zero", 1, _sides(gz)), gz)
    for e in entries(tpath, tdata, "home_base_tiles"):
        add(TileDesign(e.get("id", str), e.get("name", str), "home base", 1, _sides(e, exactly=1),
                       corner=e.one_of("corner", CORNERS)), e)
    if sorted(t.corner for t in tiles.values() if t.kind == "home base") != sorted(CORNERS):
        raise CatalogError(f"{tpath}: field 'home_base_tiles': expected one Home Base tile per corner")
    specials = 0
    for e in entries(tpath, tdata, "special_tiles"):
        effect = e.one_of("effect", EFFECTS)
        count = e.get("count", int, check=lambda v: v > 0, expect="a positive count")
        mask = _sides(e, exactly=1) if effect == "dead_end" else 0
        add(TileDesign(e.get("id", str), e.get("name", str), "special", count, mask, effect=effect), e)
        specials += count
    if specials != SPECIAL_TILE_COUNT:
        raise CatalogError(f"{tpath}: field 'special_tiles': the counts must add up to the "
                           f"{SPECIAL_TILE_COUNT} Special tiles in the box, not {specials}")
    for effect in EFFECTS:
        have = sum(t.count for t in tiles.values() if t.effect == effect)
        if effect == "monster_buster" and have < 4:
            raise CatalogError(f"{tpath}: field 'special_tiles': every player is dealt a Monster Buster, "
                               f"so 4 are needed, not {have}")
        if have == 0:
            raise CatalogError(f"{tpath}: field 'special_tiles': no tile has the effect {effect!r}")

    mpath, mdata = load_catalog_json(GAME, "monsters.json", directory)
    card_size = _size(Entry(mpath, "monsters", mdata), "size_mm")
    cards = []
    for e in entries(mpath, mdata, "cards"):
        space = e.get("space", str)
        if space != WILD and space not in spaces:
            raise e.fail("space", f"{space!r} is not a named space of the board (nor 'Wild')")
        cards.append(MonsterCard(e.get("id", str), space))
    if len(cards) != MONSTER_CARD_COUNT:
        raise CatalogError(f"{mpath}: field 'cards': the box holds {MONSTER_CARD_COUNT} Monster Cards, not {len(cards)}")
    clash = set(c.id for c in cards) & set(tiles)
    if clash:
        raise CatalogError(f"{mpath}: field 'cards': ids {sorted(clash)} are also tile ids")

    dpath, ddata = load_catalog_json(GAME, "dice.json", directory)
    dtop = Entry(dpath, "dice", ddata)
    n_dice = dtop.get("specialty_dice", int, check=lambda v: v == 2, expect="2 (the rulebook's two Specialty Dice)")
    faces = tuple(dtop.str_list("specialty_faces", choices=FACES, min_len=2))
    for face in FACES:
        if face not in faces:
            raise dtop.fail("specialty_faces", f"no {face!r} face: the six results need Road, Car and Monster")
    movement = dtop.get("movement_faces", list, check=lambda v: len(v) >= 1 and all(
        isinstance(x, int) and not isinstance(x, bool) and 0 < x < 100 for x in v), expect="a list of positive whole numbers")
    sources = tuple(str(catalog_path(GAME, f, directory)) for f in ("board.json", "tiles.json", "monsters.json", "dice.json"))
    return Catalog(columns, rows, cell_mm, ground_zero, tuple(sorted(homes, key=lambda h: CORNERS.index(h.corner))),
                   spaces, objects, tiles, tile_size, tuple(cards), card_size, n_dice, faces,
                   tuple(int(x) for x in movement), sources)


_cache: dict[tuple[Any, ...], Catalog] = {}


def current(directory: str | Path | None = None) -> Catalog:
    """The catalog for new games, re-read only when a file (or the override directory) changed."""
    key: list[Any] = []
    for name in ("board.json", "tiles.json", "monsters.json", "dice.json"):
        path = catalog_path(GAME, name, directory)
        try:
            key.append((str(path), path.stat().st_mtime_ns))
        except OSError:
            key.append((str(path), None))
    k = tuple(key)
    if k not in _cache:
        _cache[k] = load(directory)
    return _cache[k]
