"""The demo: a scripted game and a replay camera, so a newcomer sees the app work with no hardware.

The script is the game's bundled example record (``companion/examples/<game>.json``) when there
is one; where the live game leaves the script (someone entered another move by hand), the demo
falls back to the engine's own playout chooser, so "Next move" always does something legal.

The camera plays table scenes rendered by ``vision.synth`` from the game's proxy pack. When the
renderer is not installed, it plays plain pictures that say so: the rest of the demo still works.
"""

from __future__ import annotations

import random
from importlib import resources
from typing import Any

from rules import Action, Record
from rules.playout import chooser_for

from .guides import COLOURS, EDGES


class DemoScript:
    """The next move of a scripted game."""

    def __init__(self, record: Record | None, *, seed: int = 0) -> None:
        self.record = record
        self.rng = random.Random(seed)

    @classmethod
    def for_game(cls, game: str) -> DemoScript:
        return cls(example_record(game))

    def setup(self) -> dict[str, Any]:
        """Players, seed and options for Session.new, taken from the script when there is one."""
        if self.record is None:
            return {}
        return {"players": list(self.record.players), "seed": self.record.seed,
                "options": dict(self.record.options)}

    def next_action(self, game: Any) -> Action | None:
        if game.is_game_over() or game.is_chance_node():
            return None
        done = game.actions
        rec = self.record
        legal = game.legal_actions()
        if not legal:
            return None
        if rec is not None and list(rec.players) == list(game.players) and rec.seed == game.seed \
                and len(done) < len(rec.actions) and rec.actions[:len(done)] == done:
            scripted = rec.actions[len(done)]
            if scripted in legal:
                return scripted
        try:
            choose = chooser_for(game)
        except (ImportError, KeyError):
            return self.rng.choice(legal)
        return choose(game, legal, self.rng)


def example_record(game: str) -> Record | None:
    item = resources.files("companion") / "examples" / f"{game}.json"
    if not item.is_file():
        return None
    try:
        return Record.loads(item.read_text(encoding="utf-8"))
    except ValueError:
        return None


def demo_frames(game: str, *, count: int = 3, size: tuple[int, int] = (2304, 1296), seed: int = 1) -> tuple[list[Any], str]:
    """Camera pictures for the demo and a note saying what they are."""
    import numpy as np

    try:
        from vision.pack import proxy_pack
        from vision.synth import random_scene, render_scene

        pack = proxy_pack(game)
        rng = np.random.default_rng(seed)
        frames = []
        for i in range(count):
            scene = random_scene(game, pack, rng, 0.2, image_px=size)
            image, _truth = render_scene(scene, seed=seed + i)
            frames.append(image)
        return frames, "Demo camera: rendered table scenes."
    except (ImportError, ValueError, OSError, KeyError) as exc:
        return [placeholder(size, f"Demo camera ({exc.__class__.__name__}: scenes not available)")], \
            f"Demo camera: plain pictures, the scene renderer is not available ({exc})."


def demo_frames_isolated(game: str, **kw: Any) -> tuple[list[Any], str]:
    """:func:`demo_frames` in a separate process: the scene renderer keeps large caches (about
    130 MB for a 2304x1296 scene) that the app does not need once the pictures exist."""
    import multiprocessing

    # "spawn": never fork a process that holds a GL context and camera threads.
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        frames, note = pool.apply(demo_frames, (game,), kw)
    return frames, note


def placeholder(size: tuple[int, int], text: str) -> Any:
    import cv2
    import numpy as np

    w, h = size
    image = np.full((h, w, 3), (40, 90, 50), np.uint8)
    scale = w / 1000
    cv2.putText(image, text[:60], (int(30 * scale), h // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.9 * scale,
                (230, 230, 230), max(1, int(2 * scale)), cv2.LINE_AA)
    return image


# ---------------------------------------------------------------------- the scripted game's table
#: How far (mm) a seat's row lies in from its table edge, and the gap between cards of a row.
ROW_INSET_MM = 70.0
ROW_GAP_MM = 2.0


def bigsur_scene(game: Any, pack: Any, *, image_px: tuple[int, int] = (1152, 648),
                 edges: tuple[str, ...] = EDGES) -> Any:
    """The Big Sur table as the engine knows it: each seat's tableau as a row in front of it, with
    its Landmark tiles above (further from the seat) or below (nearer) their cards.

    Cards never move once built, so the first card built stays where it was laid and later ones
    are added at either end (counted from the game's own build actions)."""
    from vision.synth import SEAT_ROTATION, Placement, Scene

    w, h = 1000.0, 700.0
    placements = []
    for p, seat in enumerate(game.state.seats):
        edge = edges[p % len(edges)]
        lefts = sum(1 for a in game.actions if a.kind == "build" and a.player == p and a.get("end") == "left")
        along_total = w if edge in ("south", "north") else h

        def at(mid: float, depth: float, edge: str = edge) -> tuple[float, float]:
            return {"south": (mid, h - depth), "north": (w - mid, depth),
                    "west": (depth, mid), "east": (w - depth, h - mid)}[edge]

        mids = {}
        for i, card in enumerate(seat.tableau):
            cw, ch = pack.size_of(card)
            mids[card] = (along_total / 2 + (i - lefts) * (cw + ROW_GAP_MM), ch)
            placements.append(Placement(card, at(mids[card][0], ROW_INSET_MM + ch / 2), SEAT_ROTATION[edge]))
        for placed in getattr(seat, "landmarks", []):
            if placed.card not in mids or placed.tile not in pack.ids:
                continue
            mid, ch = mids[placed.card]
            side = pack.size_of(placed.tile)[1]
            depth = (ROW_INSET_MM + ch + ROW_GAP_MM + side / 2 if placed.where == "above"
                     else ROW_INSET_MM - ROW_GAP_MM - side / 2)
            placements.append(Placement(placed.tile, at(mid, depth), SEAT_ROTATION[edge]))
    return Scene(placements=tuple(placements), pack=pack, image_px=image_px, background="wood")


#: How far (mm) from the demo table's edge the Roundabout grid's cards stay (the corner markers).
TABLE_MARGIN_MM = 60.0


def _grid_shift(low: int, high: int, reach: int) -> float:
    """Cells to shift a grid spanning ``low`` to ``high`` (cells from the centre card) so it keeps
    within ``reach`` cells each side of the table's middle: none while it fits, as players never
    slide the cards already down; the least that brings it back otherwise; centred when it is
    wider than the table."""
    if high - low > 2 * reach:
        return -(low + high) / 2
    if low < -reach:
        return float(-reach - low)
    if high > reach:
        return float(reach - high)
    return 0.0


def _roundabout_cells(game: Any) -> list[tuple[int, int]]:
    s = game.state
    return list(s.layout) + list(getattr(s, "cars", {}) or {})


def _scripted_span(game: Any) -> tuple[int, int, int, int] | None:
    """The cells (min x, max x, min y, max y) the demo's scripted game of ``game`` ever covers,
    when ``game`` is that script so far; None otherwise."""
    rec = example_record(game.name)
    if rec is None or list(rec.players) != list(game.players) or rec.seed != game.seed \
            or list(rec.actions[:len(game.actions)]) != list(game.actions):
        return None
    whole = rec.replay()
    cells = [c for g in (whole, game) for c in _roundabout_cells(g)]
    return min(c[0] for c in cells), max(c[0] for c in cells), min(c[1] for c in cells), max(c[1] for c in cells)


def roundabout_scene(game: Any, pack: Any, *, image_px: tuple[int, int] = (1152, 648),
                     table_mm: tuple[float, float] | None = None) -> Any:
    """The Roundabout grid as the engine knows it on the demo's table, cards turned as the engine
    has them; a car on each reserved spot, in its player's colour (the seat colours a game gets
    when none are chosen). The first card lies where the scripted game's whole grid will fit, as
    players who know how far it grows would lay it; any other game starts in the table's middle
    and its grid is shifted only when it would grow off the table."""
    from vision.synth import Piece, Placement, Scene

    w, h = table_mm or demo_table_mm(game.name)
    s = game.state
    side = float(pack.card_size_mm[0])
    cells = _roundabout_cells(game)
    if not cells:
        return Scene(placements=(), pack=pack, image_px=image_px, background="wood", table_mm=(w, h))
    span = _scripted_span(game)
    if span is not None:
        cells = [*cells, (span[0], span[2]), (span[1], span[3])]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    pitch = side + 0.5
    shift_x = _grid_shift(min(xs), max(xs), int((w / 2 - TABLE_MARGIN_MM) // pitch))
    shift_y = _grid_shift(min(ys), max(ys), int((h / 2 - TABLE_MARGIN_MM) // pitch))

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        return w / 2 + (cell[0] + shift_x) * pitch, h / 2 + (cell[1] + shift_y) * pitch

    placements = [Placement(card, centre(cell), float(rotation)) for cell, (card, rotation) in sorted(s.layout.items())]
    colours = list(COLOURS)
    pieces = [Piece("car", centre(cell), colours[player % len(colours)], 0.0)
              for cell, player in sorted((getattr(s, "cars", {}) or {}).items())]
    return Scene(placements=tuple(placements), pieces=tuple(pieces), pack=pack, image_px=image_px,
                 background="wood", table_mm=(w, h))


def monster_scene(game: Any, pack: Any, *, image_px: tuple[int, int] = (1152, 648)) -> Any:
    """The Monster Highway board as the engine knows it: its 50 mm grid from the play area's
    corner (where vision counts cells from), Ground Zero, every tile laid, the Monster and cars
    (in the seat colours a game gets when none are chosen)."""
    from vision.synth import Piece, Placement, Scene

    cat = game.catalog
    cell_mm = float(cat.cell_mm)
    s = game.state

    def centre(cell: int) -> tuple[float, float]:
        return (cell % cat.columns + 0.5) * cell_mm, (cell // cat.columns + 0.5) * cell_mm

    board = dict(s.board)
    zero = next((t for t, d in sorted(cat.tiles.items()) if d.kind == "ground zero"), None)
    if zero is not None and cat.ground_zero not in board:
        board[cat.ground_zero] = (zero, 0, 0)
    placements = [Placement(tile, centre(cell), float(rotation)) for cell, (tile, rotation, _mask) in sorted(board.items())]
    pieces = []
    if s.monster is not None:
        pieces.append(Piece("monster", centre(s.monster)))
    colours = list(COLOURS)
    for player, cell in enumerate(s.cars):
        if cell is not None and cell != s.monster:
            pieces.append(Piece("car", centre(cell), colours[player % len(colours)]))
    return Scene(placements=tuple(placements), pieces=tuple(pieces), pack=pack, image_px=image_px,
                 background="wood")


#: The gap (mm) between two Highwayman route piles lying side by side across the table.
ROUTE_GAP_MM = 30.0


def route_slot(game: Any, route: str, table: tuple[float, float] = (1000.0, 700.0)) -> tuple[float, float]:
    """Where a Highwayman route's pile lies: every route has its own place in a row across the
    middle of the table (in the pack's route order), so a pile never moves when another starts."""
    w, h = table
    routes = list(game.pack.routes)
    cw = float(game.pack.size_mm[0])
    i = routes.index(route)
    return w / 2 + (i - (len(routes) - 1) / 2) * (cw + ROUTE_GAP_MM), h / 2


def highwayman_scene(game: Any, pack: Any, *, image_px: tuple[int, int] = (1152, 648)) -> Any:
    """The Highwayman routes as the engine knows them: each started route's pile in its place,
    only its top card showing (a LONDON card, the stage reached, a Highwayman or a Bow Street
    Runner), which is what vision.layout reads as the route's visible top card."""
    from vision.synth import Placement, Scene

    placements = [Placement(pile[-1], route_slot(game, route), 0.0)
                  for route, pile in sorted(game.state.routes.items()) if pile]
    return Scene(placements=tuple(placements), pack=pack, image_px=image_px, background="wood")


def highwaysbyways_scene(game: Any, pack: Any, *, image_px: tuple[int, int] = (1152, 648)) -> Any:
    """Highways & Byways as vision.layout reads it: the Construction card in the current slot
    (the last one Player 1 drew this round), alone in the middle of the table. The map, the cars
    and the event hands are not read by the recogniser, so they are not drawn."""
    from vision.synth import Placement, Scene

    slots = list(game.state.slots)
    placements = (Placement(slots[-1], (500.0, 350.0), 0.0),) if slots else ()
    return Scene(placements=placements, pack=pack, image_px=image_px, background="wood")


#: The size of the demo's table pictures: the frame the kiosk's camera delivers (its configured
#: default). At half that, a car on a Monster Highway tile hid the tile and was not told from it:
#: the demo's car moves onto tiles failed ("road-curve ... is gone: put it back").
DEMO_CAMERA_PX = (2304, 1296)

#: The demo's play area (mm between the markers' centres) where a game needs more than the
#: default 1000 x 700: Roundabout's scripted grid grows to 18 x 13 cards of 70 mm.
DEMO_TABLES_MM: dict[str, tuple[float, float]] = {"roundabout": (1400.0, 1050.0)}


def demo_table_mm(game: str) -> tuple[float, float]:
    return DEMO_TABLES_MM.get(game, (1000.0, 700.0))


def demo_table(game: str) -> Any:
    """The vision TableSpec of the demo's table for ``game`` (what the demo's scanner is told)."""
    from vision import TableSpec

    w, h = demo_table_mm(game)
    return TableSpec(width_mm=w, height_mm=h)


#: Games whose scripted table the demo draws, and the action kinds a player makes on the table
#: (those are laid on the rendered table for the camera to read; the rest are entered by touch).
TABLE_SCENES: dict[str, tuple[Any, frozenset[str]]] = {
    "bigsur": (bigsur_scene, frozenset({"build", "landmark"})),
    "roundabout": (roundabout_scene, frozenset({"place", "reserve"})),
    "monsterhighway": (monster_scene, frozenset({"place_tile", "dead_end", "move_car"})),
    # A play is a card laid on its route's pile (a Highwayman may come from any seat).
    "highwayman": (highwayman_scene, frozenset({"play"})),
    # No player action of Highways & Byways shows as a card the recogniser reads: moves are on
    # the map, event cards stay in hand. The camera sees the Construction card the app drew.
    "highwaysbyways": (highwaysbyways_scene, frozenset()),
}


def table_kinds(game: str) -> frozenset[str]:
    """The actions of ``game`` the demo lays on the rendered table for the camera to read."""
    return TABLE_SCENES[game][1] if game in TABLE_SCENES else frozenset()


def render_table(record_json: dict[str, Any], size: tuple[int, int] = DEMO_CAMERA_PX, seed: int = 7) -> Any:
    """A picture of the table of the game in ``record_json`` (see :data:`TABLE_SCENES`), made in
    the caller's process: use :func:`render_table_isolated` from the app."""
    from vision.pack import proxy_pack
    from vision.synth import render_scene

    game = Record.from_json(record_json).replay()
    if game.name not in TABLE_SCENES:
        raise ValueError(f"no scripted table pictures for {game.name} yet")
    scene = TABLE_SCENES[game.name][0](game, proxy_pack(game.name), image_px=size)
    image, _truth = render_scene(scene, seed=seed)
    return image


def render_table_isolated(record_json: dict[str, Any], size: tuple[int, int] = DEMO_CAMERA_PX) -> Any:
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(render_table, (record_json, size))


def scripted_table_games() -> tuple[str, ...]:
    """Games whose demo shows the scripted game's own table to the camera."""
    return tuple(TABLE_SCENES)


def demo_pictures(game: str, *, count: int = 3, size: tuple[int, int] = DEMO_CAMERA_PX) -> list[Any]:
    """What the demo camera shows when a game starts: for games whose scripted table is drawn,
    the empty table; otherwise rendered example positions (see :func:`demo_frames`)."""
    if game in scripted_table_games():
        empty = Record(game=game, players=["Ana", "Ben"], seed=0).to_json()
        try:
            return [render_table_isolated(empty, size)]
        except (ImportError, ValueError, OSError):
            pass
    frames, _note = demo_frames_isolated(game, count=count, size=size)
    return frames
