"""Random but realistic game positions, one generator per game, for tests and benchmarks.

``random_scene(game, pack, rng, difficulty)`` lays cards out the way each game puts them on the
table and picks camera conditions and distractors that get harder with ``difficulty`` (0 = ideal
top-down photo, 1 = tilted, distorted, unevenly lit, noisy, with a hand over a card). The scene's
``layout`` records what was laid out in the game's own terms (see each generator).

Seats sit on the four table edges; a seat's cards face that seat, so a card's rotation is the
seat's: south 0, west 90, north 180, east 270 (degrees clockwise; a card's top points away from
the seat that reads it). "Left to right" is as that seat sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..errors import PackError
from ..pack import GAMES, Pack, catalog_items
from .scene import CAR_COLORS, Camera, Distractor, Piece, Placement, Scene

SEATS = ("south", "west", "north", "east")  # clockwise from above: play order
SEAT_ROTATION = {"south": 0.0, "west": 90.0, "north": 180.0, "east": 270.0}
MONSTER_CELL_MM = 50.0  # Monster Highway board grid (stand-in: the board's grid is not published)
NAMED_DIFFICULTY = {"easy": 0.0, "normal": 0.5, "hard": 1.0}


def _difficulty(value: float | str) -> float:
    if isinstance(value, str):
        if value not in NAMED_DIFFICULTY:
            raise ValueError(f"difficulty must be 0 to 1 or one of {', '.join(NAMED_DIFFICULTY)}, not {value!r}")
        return NAMED_DIFFICULTY[value]
    d = float(value)
    if not 0 <= d <= 1:
        raise ValueError(f"difficulty must be 0 to 1, not {value!r}")
    return d


def random_camera(rng: np.random.Generator, d: float) -> Camera:
    return Camera(
        view_deg=float(rng.uniform(0, 20 * d)),
        view_dir_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(-3, 3) * d),
        distortion=float(rng.uniform(-0.08, 0.06) * d),
        light=float(rng.uniform(0.1, 0.7) * d),
        shadows=int(rng.integers(0, 3)) if d > 0.3 else 0,
        glare=int(rng.integers(0, 3)) if d > 0.5 else 0,
        blur=float(rng.uniform(0, 1.2) * d),
        noise=float(rng.uniform(1, 6) * d),
        jpeg_quality=int(95 - 35 * d * rng.random()) if d > 0 else None,
    )


def _kinds(pack: Pack) -> dict[str, str]:
    """card id -> catalog kind (empty when the engine is not installed)."""
    try:
        items = catalog_items(pack.game) or []
    except PackError:
        items = []
    return {str(it.get("id")): str(it.get("kind", "")) for it in items if isinstance(it, dict)}


def _pick(ids: Sequence[str], rng: np.random.Generator, n: int) -> list[str]:
    """``n`` different ids (fewer when there are fewer)."""
    if not ids:
        return []
    return [ids[int(i)] for i in rng.choice(len(ids), size=min(n, len(ids)), replace=False)]


class _Box:
    """The copies of each card the game's box holds: a scene never shows a card more often than the
    game has it (the recogniser may rely on the counts). The layouts draw ids as they always did;
    a copy the box no longer holds is swapped for another card of the same choice, picked by a
    generator of the box's own, so a scene that never ran out is the very scene it always was.
    A card the catalog gives no count for (a pack whose engine is not installed) never runs out."""

    def __init__(self, pack: Pack) -> None:
        try:
            items = catalog_items(pack.game) or []
        except PackError:
            items = []
        self.left: dict[str, int | None] = dict.fromkeys(pack.ids)
        for it in items:
            if isinstance(it, dict) and str(it.get("id")) in self.left:
                self.left[str(it["id"])] = int(it.get("count") or 1)
        self.taken: list[str] = []

    def _has(self, cid: str) -> bool:
        left = self.left.get(cid, 0)
        return left is None or left > 0

    def take(self, cid: str, alternatives: Sequence[str]) -> str | None:
        """``cid`` if a copy is left, else another of ``alternatives``; None when none is left."""
        if not self._has(cid):
            spare = [a for a in alternatives if self._has(a)]
            if not spare:
                return None
            seed = [len(self.taken), *(sum(map(ord, t)) for t in self.taken)]
            cid = spare[int(np.random.default_rng(seed).integers(len(spare)))]
        left = self.left.get(cid)
        if left is not None:
            self.left[cid] = left - 1
        self.taken.append(cid)
        return cid


class _Builder:
    """Collects placements with the per-difficulty wobble every real hand puts into a layout."""

    def __init__(self, pack: Pack, rng: np.random.Generator, d: float) -> None:
        self.pack, self.rng, self.d = pack, rng, d
        self.placements: list[Placement] = []
        self.sleeved = bool(rng.random() < 0.3 * d)

    def put(self, card_id: str, center: Sequence[float], rotation: float, *, wobble: float = 1.0) -> Placement:
        rng, d = self.rng, self.d
        jitter = rng.normal(0, 0.6 * d * wobble, 2)
        p = Placement(card_id, (float(center[0] + jitter[0]), float(center[1] + jitter[1])),
                      float((rotation + rng.normal(0, 1.2 * d * wobble)) % 360),
                      skew=float(rng.normal(0, 0.8 * d)) if d > 0.5 else 0.0,
                      sleeve=self.sleeved,
                      face_index=int(rng.integers(0, 1 << 16)))
        self.placements.append(p)
        return p


def _row(b: _Builder, ids: Sequence[str], seat: str, table: tuple[float, float], inset: float) -> list[dict[str, Any]]:
    """A row of cards edge to edge in front of ``seat``, listed left to right as the seat sees it."""
    w, h = table
    rot = SEAT_ROTATION[seat]
    sizes = [b.pack.size_of(i) for i in ids]
    gaps = [float(b.rng.uniform(0, 1.5)) for _ in ids]
    length = sum(s[0] for s in sizes) + sum(gaps[:-1])
    along_total = w if seat in ("south", "north") else h
    start = along_total / 2 - length / 2 + float(b.rng.uniform(-0.15, 0.15)) * max(0.0, along_total - length - 300)
    out = []
    pos = start
    for cid, (cw, ch), gap in zip(ids, sizes, gaps, strict=True):
        mid = pos + cw / 2
        depth = inset + ch / 2
        # The seat's left-to-right direction in table coordinates.
        centre = {"south": (mid, h - depth), "north": (w - mid, depth),
                  "west": (depth, mid), "east": (w - depth, h - mid)}[seat]
        b.put(cid, centre, rot, wobble=0.7)
        out.append({"id": cid, "center_mm": [round(centre[0], 2), round(centre[1], 2)]})
        pos += cw + gap
    return out


def _bigsur(pack: Pack, rng: np.random.Generator, d: float, table: tuple[float, float]) -> tuple[_Builder, dict[str, Any]]:
    kinds = _kinds(pack)
    main = [i for i in pack.ids if pack.size_of(i) == pack.card_size_mm]
    highway = [i for i in main if kinds.get(i) == "highway card"] or main
    others = [i for i in main if kinds.get(i) in ("material side", "starter side")] or main
    landmarks = [i for i in pack.ids if kinds.get(i) == "landmark"] or [i for i in pack.ids if i not in main]
    b = _Builder(pack, rng, d)
    n_seats = int(rng.integers(2, 5))
    seats = list(SEATS[:n_seats])
    layout: dict[str, Any] = {"tableaus": {}, "draw_row": [], "landmarks": []}
    pool = list(highway)
    rng.shuffle(pool)
    w, h = table
    for seat in seats:
        limit = 9 if seat in ("south", "north") else 5
        n = int(rng.integers(1, limit + 1))
        # Highway cards are unique (count 1): a card lies in one place only.
        ids, pool = pool[:n], pool[n:]
        layout["tableaus"][seat] = _row(b, ids, seat, table, inset=float(rng.uniform(25, 45)))
    # The draw row: five cards side by side in the middle, as the south seat reads them.
    cw, ch = pack.card_size_mm
    n_row = min(len(pool), int(rng.integers(3, 6)))
    ids = pool[:n_row]
    x0 = w / 2 - n_row * (cw + 4) / 2 + cw / 2
    for k, cid in enumerate(ids):
        b.put(cid, (x0 + k * (cw + 4), h / 2 - 25), 0.0)
        layout["draw_row"].append(cid)
    # The draw deck (Material side up) and, in the advanced game, three landmark tiles.
    deck = _pick(others, rng, 1)
    if deck:
        b.put(deck[0], (x0 - cw - 25, h / 2 - 25), float(rng.uniform(-4, 4)))
        layout["deck"] = deck[0]
    if landmarks and rng.random() < 0.7:
        lw, _ = pack.size_of(landmarks[0])
        for k, lid in enumerate(_pick(landmarks, rng, min(3, len(landmarks)))):
            b.put(lid, (w / 2 - (lw + 8) + k * (lw + 8), h / 2 + ch / 2 + 20), 0.0)
            layout["landmarks"].append(lid)
    layout["seats"] = seats
    return b, layout


def _grid_cells(rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    """``n`` connected grid cells grown from (0, 0) (the first card, in the table's centre)."""
    cells = [(0, 0)]
    while len(cells) < n:
        c = cells[int(rng.integers(len(cells)))]
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(4))]
        nxt = (c[0] + dx, c[1] + dy)
        if nxt not in cells and abs(nxt[0]) <= 4 and abs(nxt[1]) <= 2:
            cells.append(nxt)
    return cells


def _roundabout(pack: Pack, rng: np.random.Generator, d: float, table: tuple[float, float]) -> tuple[_Builder, dict[str, Any], list[Piece]]:
    b = _Builder(pack, rng, d)
    w, h = table
    side = pack.card_size_mm[0]
    n = int(rng.integers(4, 16))
    cells = _grid_cells(rng, n + 3)
    card_cells, free = cells[:n], cells[n:]
    origin = (w / 2 - side / 2, h / 2 - side / 2)  # top-left corner of cell (0, 0)
    grid = []
    box = _Box(pack)
    drawn = [ids[int(i)] for i in rng.integers(0, len(ids), size=n)] if (ids := list(pack.ids)) else []
    for cell, want in zip(card_cells, drawn, strict=False):
        cid = box.take(want, ids)
        if cid is None:
            break
        rot = float(90 * int(rng.integers(4)))
        gap = float(rng.uniform(0, 1.0))
        centre = (origin[0] + cell[0] * (side + gap) + side / 2, origin[1] + cell[1] * (side + gap) + side / 2)
        b.put(cid, centre, rot, wobble=0.5)
        grid.append({"cell": list(cell), "id": cid, "rotation": rot})
    pieces: list[Piece] = []
    reservations = []
    colors = list(CAR_COLORS)
    rng.shuffle(colors)
    for cell, color in zip(free[: int(rng.integers(0, 3))], colors, strict=False):
        centre = (origin[0] + cell[0] * side + side / 2, origin[1] + cell[1] * side + side / 2)
        pieces.append(Piece("car", centre, color, float(rng.uniform(0, 180))))
        reservations.append({"cell": list(cell), "color": color})
    # Each player's own car waits in front of them, away from the cards.
    for k, seat in enumerate(SEATS[: int(rng.integers(2, 5))]):
        color = colors[(k + 3) % len(colors)]
        at = {"south": (w * 0.2, h - 30), "north": (w * 0.8, 30), "east": (w - 30, h * 0.2), "west": (30, h * 0.8)}[seat]
        pieces.append(Piece("car", at, color, SEAT_ROTATION[seat] + 90))
    # The discard pile's top card lies next to the deck, away from the grid.
    discard = box.take(_pick(ids, rng, 1)[0], ids) if ids else None
    layout: dict[str, Any] = {"cell_mm": side, "origin_mm": list(origin), "grid": grid, "reservations": reservations}
    if discard is not None:
        b.put(discard, (w * 0.12, h * 0.2), float(rng.uniform(-8, 8)))
        layout["discard"] = discard
    return b, layout, pieces


def _monster_space(drawn: tuple[int, int], road: list[tuple[int, int]], zero: bool, homes: set[tuple[int, int]],
                   size: tuple[int, int], rng: np.random.Generator) -> tuple[int, int]:
    """Where the Monster stands: the rulebook moves it to any space of the board but Ground Zero
    (the road's first cell, when the pack has one) or a home base. Half the boards keep it on the
    road tile `drawn` (another one if that is Ground Zero), a quarter put it on an empty space
    beside the road, a quarter on any other empty space. The choice is made with a generator
    spawned from `rng`, which leaves `rng`'s own draws, and so the rest of the scene, as they were
    when the Monster always stood on `drawn`."""
    pick = rng.spawn(1)[0]
    tiles = road[1:] if zero else road
    empty = [(x, y) for x in range(size[0]) for y in range(size[1]) if (x, y) not in road and (x, y) not in homes]
    beside = [c for c in empty if any((c[0] + dx, c[1] + dy) in road for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
    away = [c for c in empty if c not in beside]
    u = float(pick.random())
    if tiles and (u < 0.5 or not empty):
        return drawn if drawn in tiles else tiles[int(pick.integers(len(tiles)))]
    where = beside if (u < 0.75 and beside) or not away else away
    return where[int(pick.integers(len(where)))] if where else drawn


def _monsterhighway(pack: Pack, rng: np.random.Generator, d: float, table: tuple[float, float]) -> tuple[_Builder, dict[str, Any], list[Piece]]:
    """Tiles edge to edge on the board's 50 mm grid (cells counted from the play area's corner),
    grown as a road network from Ground Zero, home bases in the four corner cells, the monster
    and some cars on the road."""
    b = _Builder(pack, rng, d)
    w, h = table
    kinds = _kinds(pack)
    cell = MONSTER_CELL_MM
    cols, rows = int(w // cell), int(h // cell)
    square = [i for i in pack.ids if pack.size_of(i) == (cell, cell)] or list(pack.ids)
    roads = [i for i in square if kinds.get(i) == "road tile"] or square
    specials = [i for i in square if kinds.get(i) == "special tile"]
    zero = [i for i in square if kinds.get(i) == "ground zero"]
    homes = {i: i for i in square if kinds.get(i) == "home base"}
    board: list[dict[str, Any]] = []

    def lay(c: tuple[int, int], tid: str, rot: float) -> None:
        b.put(tid, ((c[0] + 0.5) * cell, (c[1] + 0.5) * cell), rot, wobble=0.4)
        board.append({"cell": list(c), "id": tid, "rotation": rot})

    corners = {"NW": (1, 1), "NE": (cols - 2, 1), "SE": (cols - 2, rows - 2), "SW": (1, rows - 2)}
    taken: set[tuple[int, int]] = set()
    try:
        attrs = {str(i["id"]): i for i in (catalog_items(pack.game) or [])}
    except PackError:
        attrs = {}
    for k, hid in enumerate(sorted(homes)):
        c = corners.get(str(attrs.get(hid, {}).get("corner")), list(corners.values())[k % 4])
        taken.add(c)
        lay(c, hid, float(90 * int(rng.integers(4))))
    n = int(rng.integers(5, 25))
    start = (cols // 2, rows // 2)
    cells = [start]
    while len(cells) < n:
        c = cells[int(rng.integers(len(cells)))]
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(4))]
        nxt = (c[0] + dx, c[1] + dy)
        if nxt not in cells and nxt not in taken and 2 <= nxt[0] < cols - 2 and 2 <= nxt[1] < rows - 2:
            cells.append(nxt)
    box = _Box(pack)
    for k, c in enumerate(cells):
        if k == 0 and zero:
            tid = box.take(zero[0], zero)
        elif specials and rng.random() < 0.15:
            tid = box.take(specials[int(rng.integers(len(specials)))], specials)
        else:
            tid = box.take(roads[int(rng.integers(len(roads)))], roads)
        tid = tid or box.take(roads[0], [*roads, *specials])
        if tid is None:
            cells = cells[:k]  # the box is empty
            break
        lay(c, tid, float(90 * int(rng.integers(4))))
    pieces = []
    drawn = cells[int(rng.integers(len(cells)))]
    mc = _monster_space(drawn, cells, bool(zero), taken, (cols, rows), rng)
    pieces.append(Piece("monster", ((mc[0] + 0.5) * cell, (mc[1] + 0.5) * cell), rotation=float(rng.uniform(0, 360))))
    cars = []
    for color in list(CAR_COLORS)[: int(rng.integers(1, 5))]:
        cc = cells[int(rng.integers(len(cells)))]
        # (no car on the tile drawn for the Monster either: the draws stay those of the boards
        # that always put it there, so only the Monster's place differs from them)
        if cc == drawn or any(c["cell"] == list(cc) for c in cars):
            continue
        turn = float(90 * int(rng.integers(4)))
        if cc == mc:
            continue
        pieces.append(Piece("car", ((cc[0] + 0.5) * cell, (cc[1] + 0.5) * cell), color, turn))
        cars.append({"cell": list(cc), "color": color})
    return b, {"cell_mm": cell, "origin_mm": [0.0, 0.0], "board": board, "monster": list(mc), "cars": cars}, pieces


def _highwayman(pack: Pack, rng: np.random.Generator, d: float, table: tuple[float, float]) -> tuple[_Builder, dict[str, Any]]:
    """A pile per route side by side; each pile climbs from LONDON in number order as the routes
    are played, sometimes with a Highwayman or a Bow Street Runner on top."""
    b = _Builder(pack, rng, d)
    w, h = table
    cw = pack.card_size_mm[0]
    items = {}
    try:
        items = {str(i["id"]): i for i in (catalog_items(pack.game) or [])}
    except PackError:
        items = {}
    by_route: dict[str, list[str]] = {}
    loose: list[str] = []
    for cid in pack.ids:
        route = items.get(cid, {}).get("route")
        if route:
            by_route.setdefault(str(route), []).append(cid)
        else:
            loose.append(cid)
    for route, cards in by_route.items():
        cards.sort(key=lambda c: (0 if items[c].get("london") else 1, items[c].get("number") or 0))
        by_route[route] = cards
    names = sorted(by_route) or ["all"]
    if not by_route:
        by_route = {"all": list(pack.ids)}
    n_routes = min(len(names), int(rng.integers(2, 6)))
    chosen = [names[int(i)] for i in rng.choice(len(names), size=n_routes, replace=False)]
    gap = 30.0
    x0 = w / 2 - (n_routes * cw + (n_routes - 1) * gap) / 2 + cw / 2
    routes = []
    for r, name in enumerate(chosen):
        cards = by_route[name]
        pile = cards[: int(rng.integers(1, min(len(cards), 5) + 1))]
        if loose and rng.random() < 0.25:
            pile = [*pile, loose[int(rng.integers(len(loose)))]]
        centre = (x0 + r * (cw + gap), h / 2 + float(rng.uniform(-20, 20)))
        for k, cid in enumerate(pile):
            # A pile is never square: each card lands a little off the one below.
            off = rng.normal(0, 2.5, 2) if k else np.zeros(2)
            b.put(cid, (centre[0] + off[0], centre[1] + off[1] + k * 1.5), float(rng.normal(0, 3)), wobble=1.0)
        routes.append({"route": name, "pile": pile, "top": pile[-1], "center_mm": [round(centre[0], 2), round(centre[1], 2)]})
    return b, {"routes": routes}


def _highwaysbyways(pack: Pack, rng: np.random.Generator, d: float, table: tuple[float, float]) -> tuple[_Builder, dict[str, Any]]:
    b = _Builder(pack, rng, d)
    w, h = table
    kinds = _kinds(pack)
    construction = [i for i in pack.ids if kinds.get(i) == "construction card"] or list(pack.ids)
    slot = (w / 2 + float(rng.uniform(-150, 150)), h / 2 + float(rng.uniform(-100, 100)))
    cid = _pick(construction, rng, 1)[0]
    b.put(cid, slot, 0.0)
    return b, {"construction_slot": {"id": cid, "center_mm": [round(slot[0], 2), round(slot[1], 2)]}}


def _foreign_face(game: str, rng: np.random.Generator) -> tuple[np.ndarray | None, tuple[float, float] | None]:
    """Half the time a card of one of our other games (the hardest thing to reject: same style,
    same size), else a generic playing card."""
    if rng.random() < 0.5:
        return None, None
    from ..proxy import render_face

    others = [g for g in GAMES if g != game]
    other = others[int(rng.integers(len(others)))]
    try:
        items = catalog_items(other) or []
    except PackError:
        items = []
    if not items:
        return None, None
    item = items[int(rng.integers(len(items)))]
    return render_face(other, item, 5.0), (float(item["size_mm"][0]), float(item["size_mm"][1]))


def _distractors(game: str, rng: np.random.Generator, d: float, table: tuple[float, float],
                 placements: Sequence[Placement]) -> list[Distractor]:
    w, h = table
    out: list[Distractor] = []
    n = int(rng.integers(0, 2 + round(2 * d)))
    kinds = ["phone", "coaster", "foreign card"]
    centres = np.array([p.center_mm for p in placements]) if placements else np.zeros((0, 2))
    for _ in range(n):
        kind = kinds[int(rng.integers(len(kinds)))]
        # A free spot: lying on a card it would be an occlusion test, which the hand is for.
        for _try in range(30):
            at = np.array([rng.uniform(0.08, 0.92) * w, rng.uniform(0.1, 0.9) * h])
            if not len(centres) or np.min(np.hypot(*(centres - at).T)) > 140:
                face, size = _foreign_face(game, rng) if kind == "foreign card" else (None, None)
                out.append(Distractor(kind, (float(at[0]), float(at[1])), float(rng.uniform(0, 360)), size, face))
                break
    if placements and rng.random() < 0.6 * d:
        # A hand reaching over a card from the nearest table edge, covering up to half of it.
        target = placements[int(rng.integers(len(placements)))]
        cx, cy = target.center_mm
        edge = min((cy, 180.0), (h - cy, 0.0), (cx, 90.0), (w - cx, 270.0))[1]
        back = {0.0: (0, 1), 180.0: (0, -1), 90.0: (-1, 0), 270.0: (1, 0)}[edge]
        reach = float(rng.uniform(60, 110))
        out.append(Distractor("hand", (cx + back[0] * reach, cy + back[1] * reach), edge + float(rng.normal(0, 15))))
    return out


def random_scene(game: str, pack: Pack, rng: np.random.Generator, difficulty: float | str = 0.5, *,
                 table_mm: tuple[float, float] = (1000.0, 700.0), image_px: tuple[int, int] = (2304, 1296)) -> Scene:
    """A random position of ``game`` laid out with ``pack``'s cards, as players lay it out."""
    d = _difficulty(difficulty)
    if pack.game != game:
        raise PackError(f"{pack.root}: this is a {pack.game} pack, not a {game} one")
    makers: dict[str, Callable[..., Any]] = {
        "bigsur": _bigsur, "roundabout": _roundabout, "monsterhighway": _monsterhighway,
        "highwayman": _highwayman, "highwaysbyways": _highwaysbyways,
    }
    made = makers[game](pack, rng, d, table_mm)
    builder, layout = made[0], made[1]
    pieces = made[2] if len(made) > 2 else []
    background = ("wood", "cloth", "patterned")[int(rng.integers(0, 2 if d < 0.5 else 3))]
    return Scene(
        placements=tuple(builder.placements),
        distractors=tuple(_distractors(game, rng, d, table_mm, builder.placements)),
        pieces=tuple(pieces),
        pack=pack,
        table_mm=table_mm,
        image_px=image_px,
        background=background,
        camera=random_camera(rng, d),
        layout=layout,
    )


def build_up(scene: Scene) -> Iterator[Scene]:
    """The scene as it grew: first card only, then the first two, ... up to all of them, with
    the same table, pieces and camera; a stream of positions for the app's demo."""
    for k in range(1, len(scene.placements) + 1):
        yield replace(scene, placements=scene.placements[:k])
