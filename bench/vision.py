"""Vision: recognition accuracy on rendered scenes with known truth, scan latency, memory.

    python bench/vision.py                 # a small sample (a few minutes on a shared machine)
    python bench/vision.py --scenes 500    # the full run documented in docs/benchmarks.md

For every installed game and two packs, (a) the proxy pack rendered from the catalog and (b) an
appearance-only pack of photo-like faces, it renders random game positions (vision.synth,
difficulty drawn from 0..1 per scene: camera tilt, lens distortion, uneven light, shadows, glare,
blur, noise, JPEG, sleeves, distractors and hands) and scans them. It prints:

- identity+rotation accuracy per visible item (a card hidden under a hand for more than
  --max-occluded of its area is not required to be found, but must not be misread),
- scenes with every item right (no wrong card, no missing card, no phantom),
- scenes with a silent error: a card counted wrongly or where none lies, or a card missed with
  nothing shown at its place (no listing to check, no "?", no hand, no glare): what a player
  would not be told to look at again,
- phantom items (a card reported where there is none), per 1,000 scenes,
- unknown objects rejected (a phone, coaster or foreign card never reported as a card), and those
  shown as an unknown place (a "?" on the table's picture),
- stray unknowns: unknown places more than 60 mm from the centre of every card, piece and object
  lying there, and not on a hand or its arm (a "?" with nothing under it),
- playing pieces (cars, the Monster) reported where one stands, and phantom pieces (reported where none
  does); not part of a scene being all right,
- Roundabout's grid as the layout reads it: cards read into the wrong cell, and cars reserving free
  cells (read in the right cell and colour, in the wrong colour, or where no car reserves one);
  Big Sur's rows: cards put in another seat's tableau (or the draw row), rows out of order;
  Monster Highway's board: tiles in a cell the scene has another tile in; Highwayman's piles:
  piles topped by a card that is no pile's top,
- hands named: hands reaching over the table on which the scan shows an arm's place (and so tells
  the players to lift it),
- hands warned of where none is: scenes with no hand over the table in which the scan shows an
  arm's place anyway (a shadow, a phone or the cloth named so), and tells the players to lift it,
- the visible cards not found right, by what lay on them: washed out (a lamp's glare drove
  WASHED_OUT of the card's face to white in the frame, where no camera sees what was printed),
  covered in part (a hand, a car, a phone or another card over up to --max-occluded of it), or in
  plain view (neither): where the accuracy goal is lost, and how much of it a better reading could
  win back,
- unsure items (listed for the players to check; counted as not found above), and how many of all
  the listings to check lie where no card does (a guess on a hand, a phone or the cloth),
- scan latency of a 2304x1296 frame with 30 cards on one core (median, p95): warm (the same table
  scanned again, its cloth's colours kept), warm with fresh camera noise in every frame, and cold
  (the cloth's colours learned from scratch, and the very first scan), and warm after the heap's free
  pages were handed back (the app does after each end turn, so its next end turn's scan starts so);
  the calibration re-check alone, a whole-frame calibration, learning a pack, and peak memory (ru_maxrss).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np

from companion.session import memory
from vision import detect, scan
from vision.calibration import calibrate, recheck
from vision.errors import CalibrationError
from vision.glare import share_of
from vision.identify import CardIndex, index_for_pack, references_from_pack
from vision.observation import ARM
from vision.pack import proxy_pack

GAMES = ("bigsur", "roundabout", "monsterhighway", "highwayman", "highwaysbyways")


def rotation_ok(got: float, want: float, symmetry: int, tol: float = 12.0) -> bool:
    period = 360.0 / max(1, symmetry)
    d = (got - want) % period
    return min(d, period - d) <= tol


STRAY_MM = 60.0  # see score_scene
SHOWN_SHARE = 0.25  # see shown
# a card is washed out where at least this share of its face is white in the frame (every channel
# at WHITE_LEVEL or more): as much as a hand may hide of a card that must still be found
WASHED_OUT = 0.25
WHITE_LEVEL = 250
CAUSES = ("plain", "covered", "washed_out")


def score_scene(obs: Any, truth: Any, max_occluded: float, frame: np.ndarray | None = None) -> dict[str, int]:
    """Compare one observation with the truth: counts of right, wrong, missing, phantom, ... With
    the frame scanned, each visible card not found right is also counted by its cause (see cause)."""
    out = dict(items=0, right=0, wrong=0, missing=0, unsure=0, phantom=0, distractors=0, rejected=0,
               shown_unknown=0, hidden_misread=0, pieces=0, pieces_found=0, pieces_phantom=0, missing_unshown=0,
               hands=0, hands_named=0, no_hand=0, hand_warned=0)
    if frame is not None:
        out.update({f"not_right_{c}": 0 for c in CAUSES})
        white = cv2.inRange(frame, (WHITE_LEVEL,) * 3, (255,) * 3)
    out.update(score_grid(obs, truth))
    out.update(score_tableaus(obs, truth))
    out.update(score_board(obs, truth))
    out.update(score_routes(obs, truth))
    used: set[int] = set()
    reported = list(obs.items)
    # the least hidden first: in a pile the top card must meet the report, not one under it
    for t in sorted(truth.items, key=lambda t: t.occluded):
        near = [k for k, it in enumerate(reported)
                if k not in used and np.hypot(it.center_mm[0] - t.center_mm[0], it.center_mm[1] - t.center_mm[1])
                < 0.35 * min(t.size_mm)]
        hit = min(near, key=lambda k: np.hypot(reported[k].center_mm[0] - t.center_mm[0],
                                               reported[k].center_mm[1] - t.center_mm[1]), default=None)
        if hit is not None:
            used.add(hit)
        if t.occluded > max_occluded:
            if hit is not None and reported[hit].id != t.id:
                out["hidden_misread"] += 1
            continue
        out["items"] += 1
        right = hit is not None and reported[hit].id == t.id and rotation_ok(reported[hit].rotation, t.rotation,
                                                                           reported[hit].symmetry)
        if frame is not None and not right:
            out[f"not_right_{cause(t, truth, white)}"] += 1
        if hit is None:
            unsure = any(np.hypot(u.center_mm[0] - t.center_mm[0], u.center_mm[1] - t.center_mm[1]) < 0.35 * min(t.size_mm)
                         for u in obs.unsure)
            out["unsure" if unsure else "missing"] += 1
            # a card missed where the table's picture shows nothing at all (no "?", no hand, no glare)
            # is a silent miss: the players are not told to look there
            out["missing_unshown"] += not unsure and not shown(t, obs.unknowns)
            continue
        out["right" if right else "wrong"] += 1
    out["phantom"] = len(reported) - len(used)
    # cards listed for the players to check (unsure) where no card of the scene lies, hidden or not:
    # a guess on a hand, a phone or the cloth
    out["unsure_listed"] = len(obs.unsure)
    out["unsure_nothing"] = sum(not any(np.hypot(u.center_mm[0] - t.center_mm[0], u.center_mm[1] - t.center_mm[1])
                                        < 0.35 * min(t.size_mm) for t in truth.items) for u in obs.unsure)
    # playing pieces (cars, the Monster): each reported piece meets the nearest piece standing
    # within half its size and 10 mm (a standing piece's top is seen off its foot); any other is a
    # phantom piece. Not part of a scene being all right (the figures of earlier passes count cards)
    seen = [p["center_mm"] for p in (obs.layout or {}).get("pieces", [])]
    met: set[int] = set()
    for t in truth.pieces:
        out["pieces"] += 1
        near = [k for k, c in enumerate(seen)
                if k not in met and np.hypot(c[0] - t.center_mm[0], c[1] - t.center_mm[1]) < 0.5 * max(t.size_mm) + 10]
        if near:
            met.add(min(near, key=lambda k: np.hypot(seen[k][0] - t.center_mm[0], seen[k][1] - t.center_mm[1])))
            out["pieces_found"] += 1
    out["pieces_phantom"] = len(seen) - len(met)
    for d in truth.distractors:
        if d.kind == "hand":
            # a hand is named where the scan shows an arm's place on it (the players are told to lift it)
            out["hands"] += 1
            out["hands_named"] += any(u.reason == ARM and on_a_hand(u.center_mm, d) for u in obs.unknowns)
            continue
        out["distractors"] += 1
        r = 0.5 * max(d.size_mm)
        if not any(np.hypot(it.center_mm[0] - d.center_mm[0], it.center_mm[1] - d.center_mm[1]) < r for it in reported):
            out["rejected"] += 1
        if any(np.hypot(u.center_mm[0] - d.center_mm[0], u.center_mm[1] - d.center_mm[1]) < r for u in obs.unknowns):
            out["shown_unknown"] += 1
    if out["hands"] == 0:
        # no hand reaches over the table, yet the scan names an arm's place: the players are told
        # to lift a hand that is not there (a shadow, a phone or the cloth named so)
        out["no_hand"] = 1
        out["hand_warned"] = int(any(u.reason == ARM for u in obs.unknowns))
    # an unknown place farther than STRAY_MM from the centre of every card, piece and other thing
    # lying there, and not on a hand or its arm, is a "?" the players find nothing under
    things = [t.center_mm for t in truth.items] + [p.center_mm for p in truth.pieces] + \
        [d.center_mm for d in truth.distractors]
    hands = [d for d in truth.distractors if d.kind == "hand"]
    out["stray_unknowns"] = sum(all(np.hypot(u.center_mm[0] - c[0], u.center_mm[1] - c[1]) > STRAY_MM for c in things)
                                and not any(on_a_hand(u.center_mm, d) for d in hands) for u in obs.unknowns)
    return out


def cause(t: Any, truth: Any, white: np.ndarray) -> str:
    """What lay on a visible card t not found right: "washed_out" when at least WASHED_OUT of its
    face is white in the frame (`white`, 0/255, where every channel is at WHITE_LEVEL or more),
    else "covered" when anything lies over part of it, else "plain"."""
    corners_px = np.asarray(truth.project(np.asarray(t.corners_mm, np.float64)), np.float32)
    if share_of(white, corners_px) >= WASHED_OUT:
        return "washed_out"
    return "covered" if t.occluded > 0 else "plain"


def shown(t: Any, unknowns: Any) -> bool:
    """Whether a card t lies where the scan shows an unknown place (a "?", a hand or an arm, a
    lamp's glare): a place's box covers its centre or at least SHOWN_SHARE of it (a cell drawn a
    little off the card still marks it on the table's picture)."""
    card = np.asarray(t.corners_mm, np.float32) if getattr(t, "corners_mm", None) else None
    for u in unknowns:
        box = u.corners_mm().astype(np.float32)
        if cv2.pointPolygonTest(box, (float(t.center_mm[0]), float(t.center_mm[1])), False) >= 0:
            return True
        if card is not None and cv2.intersectConvexConvex(card, box)[0] >= SHOWN_SHARE * t.size_mm[0] * t.size_mm[1]:
            return True
    return False


def on_a_hand(p: Any, d: Any) -> bool:
    """Whether a place's centre p (mm) lies on hand d as vision.synth draws it (render._hand_parts):
    fingers to at most a hand's length before its centre, the forearm from the palm to 2.5 lengths
    beyond it, each way of its own frame turned clockwise by its rotation, and a card place's half
    width (30 mm) either side of the hand's width."""
    w, h = d.size_mm
    r = np.radians(getattr(d, "rotation", 0.0))
    dx, dy = p[0] - d.center_mm[0], p[1] - d.center_mm[1]
    across, along = dx * np.cos(r) + dy * np.sin(r), -dx * np.sin(r) + dy * np.cos(r)
    return bool(abs(across) <= 0.5 * w + 30.0 and -h <= along <= 2.5 * h)


def score_grid(obs: Any, truth: Any) -> dict[str, int]:
    """Roundabout's grid as the layout reads it (none for other games): cards read into the wrong
    cell, and the cars reserving free cells. The camera counts cells from its top-left card, the
    scene from its first card: the shift between them is the one most cards agree on. A reservation
    counts where the rules allow one, next to a card (the scene also puts some further out); it is
    read when a car is reported on its cell in its colour."""
    grid = (truth.layout or {}).get("grid")
    if grid is None:
        return {}
    seen = (obs.layout or {}).get("grid", [])
    where = {(int(c["cell"][0]), int(c["cell"][1])): c["id"] for c in grid}
    votes: dict[tuple[int, int], int] = {}
    for c in seen:
        for (x, y), cid in where.items():
            if cid == c["id"]:
                shift = (x - c["cell"][0], y - c["cell"][1])
                votes[shift] = votes.get(shift, 0) + 1
    dx, dy = max(votes, key=lambda k: votes[k]) if votes else (0, 0)
    out = dict(grid_cards=len(seen), grid_misplaced=sum(where.get((c["cell"][0] + dx, c["cell"][1] + dy)) != c["id"]
                                                        for c in seen),
               reservations=0, reserved=0, reserved_wrong_colour=0, reserved_phantom=0)
    cars = [c for c in (obs.layout or {}).get("cars", []) if c.get("cell") is not None]
    due = {}
    for r in truth.layout.get("reservations", []):
        x, y = r["cell"]
        if any((x + i, y + j) in where for i in (-1, 0, 1) for j in (-1, 0, 1)):
            due[(x, y)] = r["color"]
    out["reservations"] = len(due)
    for car in cars:
        cell = (car["cell"][0] + dx, car["cell"][1] + dy)
        if cell not in due:
            out["reserved_phantom"] += 1
        elif car["colour"] == due.pop(cell):
            out["reserved"] += 1
        else:
            out["reserved_wrong_colour"] += 1
    return out


def score_tableaus(obs: Any, truth: Any) -> dict[str, int]:
    """Big Sur's rows as the layout reads them (none for other games): of the cards it puts in a
    seat's tableau or the draw row, those the scene has elsewhere, and rows whose cards (those in
    the right row) are not in the scene's order. A card not read is the cards' figure, not this."""
    rows = (truth.layout or {}).get("tableaus")
    if rows is None:
        return {}
    want = {seat: [c["id"] for c in cards] for seat, cards in rows.items()}
    want["draw row"] = list(truth.layout.get("draw_row", []))
    seen = {seat: list(t["cards"]) for seat, t in (obs.layout or {}).get("tableaus", {}).items()}
    seen["draw row"] = list((obs.layout or {}).get("draw_row", []))
    out = dict(row_cards=0, row_wrong_place=0, rows=0, rows_out_of_order=0)
    for seat, ids in seen.items():
        left = list(want.get(seat, []))
        kept = []
        for cid in ids:
            out["row_cards"] += 1
            if cid in left:
                left.remove(cid)
                kept.append(cid)
            else:
                out["row_wrong_place"] += 1
        if kept:
            out["rows"] += 1
            order = [cid for cid in want.get(seat, []) if cid in kept]
            out["rows_out_of_order"] += order != kept
    return out


def score_board(obs: Any, truth: Any) -> dict[str, int]:
    """Monster Highway's board as the layout reads it (none for other games): tiles it puts in a
    cell of the 50 mm grid where the scene has another tile or none."""
    board = (truth.layout or {}).get("board")
    if board is None:
        return {}
    where = {(int(c["cell"][0]), int(c["cell"][1])): c["id"] for c in board}
    seen = (obs.layout or {}).get("cells", [])
    # the Monster's space as the layout reads it: the scene's, another (wrong) or none
    want, got = truth.layout.get("monster"), ((obs.layout or {}).get("monster") or {}).get("cell")
    return dict(board_tiles=len(seen),
                board_misplaced=sum(where.get((c["cell"][0], c["cell"][1])) != c["id"] for c in seen),
                monsters=int(want is not None), monster_right=int(want is not None and got is not None
                                                                  and list(got) == list(want)),
                monster_wrong=int(got is not None and (want is None or list(got) != list(want))))


def score_routes(obs: Any, truth: Any) -> dict[str, int]:
    """Highwayman's route piles as the layout reads them (none for other games): piles whose top
    card is the top of a pile in the scene, and piles that are not (a card under a top read as a
    pile of its own)."""
    routes = (truth.layout or {}).get("routes")
    if routes is None:
        return {}
    tops = [r["top"] for r in routes]
    out = dict(route_piles=0, route_tops=0, route_not_top=0)
    for r in (obs.layout or {}).get("routes", []):
        out["route_piles"] += 1
        if r["top"] in tops:
            tops.remove(r["top"])
            out["route_tops"] += 1
        else:
            out["route_not_top"] += 1
    return out


# What each game's layout made of its cards (see score_grid, score_tableaus, score_board,
# score_routes): a line per game that has the figure.
LAYOUT_LINES = (
    ("row_cards", "row cards in another seat's row {row_wrong_place}/{row_cards}  rows out of order "
                  "{rows_out_of_order}/{rows}"),
    ("board_tiles", "board tiles in a cell the scene has another tile in (or none) {board_misplaced}/{board_tiles}  "
                    "the Monster's space read {monster_right}/{monsters}  a wrong space {monster_wrong}"),
    ("route_piles", "route piles topped by their top card {route_tops}/{route_piles}  by a card under the top "
                    "{route_not_top}"),
    ("grid_cards", "grid cards in the wrong cell {grid_misplaced}/{grid_cards}  reservations read "
                   "{reserved}/{reservations}  in the wrong colour {reserved_wrong_colour}  phantom reservations "
                   "{reserved_phantom}"),
)


def not_right(r: dict[str, int]) -> str:
    """The visible cards not found right, by cause (see cause), as printed."""
    n = sum(r.get(f"not_right_{c}", 0) for c in CAUSES)
    return (f"{n}: in plain view {r.get('not_right_plain', 0)}, covered in part {r.get('not_right_covered', 0)}, "
            f"washed out by a lamp's glare {r.get('not_right_washed_out', 0)}")


# a game's layout figures that count what it got wrong (see score_grid, score_tableaus, score_board,
# score_routes), and those that count what it got right of what was due
LAYOUT_WRONG = ("row_wrong_place", "rows_out_of_order", "grid_misplaced", "reserved_wrong_colour", "reserved_phantom",
                "board_misplaced", "monster_wrong", "route_not_top")
LAYOUT_DUE = (("reserved", "reservations"), ("monster_right", "monsters"))


def scene_note(s: dict[str, int], perfect: bool) -> str | None:
    """What ``--verbose`` prints after a scored scene's number: "" for a scene whose cards are not
    all right, a note in brackets for one whose cards are but something else is off (its pieces; a
    foreign object not shown, a "?" or a listing where nothing lies; a hand not named; its
    layout), None for a scene with nothing to say: every figure of a scene left out is as good as it
    can be, so two runs' logs compared scene by scene miss nothing."""
    if not perfect:
        return ""
    if s["pieces_found"] < s["pieces"] or s["pieces_phantom"]:
        return " (cards all right; pieces)"
    if s["stray_unknowns"] or s["shown_unknown"] < s["distractors"] or s["unsure_nothing"]:
        return " (cards all right; unknown places)"
    if s["hands_named"] < s["hands"]:
        return " (cards all right; a hand not named)"
    if s.get("hand_warned"):
        return " (cards all right; a hand warned of where none is)"
    if any(s.get(k, 0) for k in LAYOUT_WRONG) or any(s.get(got, 0) < s.get(due, 0) for got, due in LAYOUT_DUE):
        return " (cards all right; layout)"
    return None


def run_accuracy(game: str, pack: Any, scenes: int, seed: int, max_occluded: float, verbose: bool) -> dict[str, int]:
    from vision.synth import random_scene, render_scene

    index = index_for_pack(pack)
    total: dict[str, int] = {}
    all_right = silent = 0
    for i in range(scenes):
        rng = np.random.default_rng([seed, i])
        scene = random_scene(game, pack, rng, float(rng.uniform(0, 1)))
        frame, truth = render_scene(scene, seed=seed * 100_000 + i)
        try:
            obs = scan(frame, game, pack=pack, index=index, table=None)
        except CalibrationError as exc:
            # a hand over a marker: the scan is refused with the marker named, nothing is guessed
            total["refused"] = total.get("refused", 0) + 1
            if verbose:
                print(f"    scene {i}: refused ({exc})", flush=True)
            continue
        s = score_scene(obs, truth, max_occluded, frame)
        perfect = s["items"] == s["right"] and s["phantom"] == 0 and s["hidden_misread"] == 0
        all_right += perfect
        # a scene whose picture misleads: a card counted wrongly or where none lies, or one missed
        # with nothing shown at its place (a card listed to check or under a "?" is shown)
        silent += s["wrong"] + s["phantom"] + s["hidden_misread"] + s["missing_unshown"] > 0
        note = scene_note(s, perfect)
        if verbose and note is not None:
            print(f"    scene {i}{note}: {s}", flush=True)
        for k, v in s.items():
            total[k] = total.get(k, 0) + v
    total["scenes"] = scenes - total.get("refused", 0)
    total.setdefault("refused", 0)
    total["all_right"] = all_right
    total["silent"] = silent
    return total


STAGES = ("calibration re-check", "detect.find", "identification", "layout")


@contextlib.contextmanager
def stage_clock(index: CardIndex) -> Iterator[dict[str, float]]:
    """While active, the CPU seconds scan() spends in each stage, accumulated in the yielded
    dict (the stages' functions are wrapped where scan() looks them up)."""
    scan_module = importlib.import_module("vision.scan")
    spent = dict.fromkeys(STAGES, 0.0)
    targets = [(scan_module, "recheck", "calibration re-check"), (scan_module.detect, "find", "detect.find"),
               (index, "identify", "identification"),
               (index, "identify_many", "identification"), (scan_module.layout, "build", "layout")]
    saved = []
    for owner, name, stage in targets:
        if not hasattr(owner, name):
            continue
        real = getattr(owner, name)
        saved.append((owner, name, real, name in vars(owner)))

        def timed(*args: Any, _real: Any = real, _stage: str = stage, **kw: Any) -> Any:
            c = time.process_time()
            try:
                return _real(*args, **kw)
            finally:
                spent[_stage] += time.process_time() - c

        setattr(owner, name, timed)
    try:
        yield spent
    finally:
        for owner, name, real, own in saved:
            if own:
                setattr(owner, name, real)
            else:
                delattr(owner, name)  # the index's identify was its class's method


def reset_peak_memory() -> bool:
    """Start the process's peak resident size afresh (Linux), so a later peak is one section's."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def current_memory_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_memory_mb() -> float:
    """The peak resident size since the start or the last reset_peak_memory(), in MB."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def latency(runs: int, seed: int, background: str = "wood") -> dict[str, float]:
    """A table of 30 cards at 2304x1296 (on ``background``: wood, cloth or patterned), scanned
    repeatedly with a warm calibration."""
    from vision.synth import Camera, Placement, Scene, render_scene

    pack = proxy_pack("bigsur")
    index = index_for_pack(pack)
    ids = [c.id for c in pack.cards if (c.size_mm or pack.card_size_mm) == pack.card_size_mm]
    places = []
    for seat_row in range(4):  # four rows of six edge-to-edge cards, six loose cards
        for k in range(6):
            places.append(Placement(ids[(seat_row * 6 + k) % len(ids)], (150 + 63 * k + 420 * (seat_row % 2),
                                                                          140 + 260 * (seat_row // 2)), 0.0))
    for k in range(6):
        places.append(Placement(ids[(24 + k) % len(ids)], (120 + 150 * k, 640 - 20 * (k % 2)), 90.0))
    scene = Scene(placements=tuple(places), pack=pack, camera=Camera(view_deg=6, light=0.3, noise=2, blur=0.5),
                  background=background)
    frame, _ = render_scene(scene, seed=seed)
    # from here on memory is the recogniser's (the renderer's caches above are the bench's)
    before_peak = peak_memory_mb()
    resident = current_memory_mb() if reset_peak_memory() else None
    cal = calibrate(frame)
    # the first scan: the cloth's colours learned from scratch, the templates' spectra worked out
    t, c = time.perf_counter(), time.process_time()
    obs = scan(frame, "bigsur", pack=pack, index=index, calibration=cal)
    first = ((time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000)
    n_items = len(obs.items)

    def timed(before: Any) -> tuple[list[float], list[float]]:
        """Wall and CPU ms of max(5, runs // 4) scans, each of the frame ``before()`` returns
        (which sets the scan up, untimed)."""
        wall, cpu_ms = [], []
        for _ in range(max(5, runs // 4)):
            f = before()
            t, c = time.perf_counter(), time.process_time()
            scan(f, "bigsur", pack=pack, index=index, calibration=cal)
            wall.append((time.perf_counter() - t) * 1000)
            cpu_ms.append((time.process_time() - c) * 1000)
        return wall, cpu_ms

    def forgotten() -> np.ndarray:
        detect.forget_cloth()
        return frame

    # cold scans: a table the scanner has not seen (its cloth's colours learned from scratch)
    cold, cold_cpu = timed(forgotten)
    # warm scans (the kiosk scanning the same table again): the cloth's colours kept are refitted
    times, cpu, checks, check_cpu, full = [], [], [], [], []
    stages: dict[str, list[float]] = {k: [] for k in (*STAGES, "rest")}
    for _ in range(runs):
        with stage_clock(index) as spent:
            t, c = time.perf_counter(), time.process_time()
            scan(frame, "bigsur", pack=pack, index=index, calibration=cal)
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
        for k, v in spent.items():
            stages[k].append(v * 1000)
        stages["rest"].append(cpu[-1] - sum(spent.values()) * 1000)
        t, c = time.perf_counter(), time.process_time()
        recheck(frame, cal)
        checks.append((time.perf_counter() - t) * 1000)
        check_cpu.append((time.process_time() - c) * 1000)
    for _ in range(max(3, runs // 10)):
        t = time.perf_counter()
        calibrate(frame)
        full.append((time.perf_counter() - t) * 1000)
    scan_added = peak_memory_mb() - resident if resident is not None else float("nan")
    scan_peak = max(before_peak, peak_memory_mb())
    refs = references_from_pack(pack)
    t = time.perf_counter()
    CardIndex.learn(refs)
    learn = time.perf_counter() - t

    def p95(xs: list[float]) -> float:
        return sorted(xs)[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]

    # On a shared machine wall time includes waiting for the core; CPU time (this process only)
    # is closer to what an otherwise idle Raspberry Pi core would spend.

    def trimmed_heap() -> np.ndarray:
        memory.trim()
        return frame

    # warm scans each after the heap's free pages were handed back (companion.session.memory.trim:
    # the app trims after each end turn, so an end turn's scan starts with them gone)
    trimmed, trimmed_cpu = timed(trimmed_heap)
    rng = np.random.default_rng(seed)

    def noisy_frame() -> np.ndarray:
        f = np.empty_like(frame)
        for r in range(0, frame.shape[0], 128):  # a band at a time: the noise adds little to the peak memory
            band = frame[r:r + 128]
            f[r:r + 128] = np.clip(band + 2.0 * rng.standard_normal(band.shape, dtype=np.float32), 0, 255)
        return f

    # warm scans of the same table with fresh camera noise in every frame (the kiosk never gets
    # the same frame twice): the cloth's colours are still kept when the table looks the same
    noisy, noisy_cpu = timed(noisy_frame)
    return {"items": n_items, "scan_median": statistics.median(times), "scan_p95": p95(times),
            "first_wall": first[0], "first_cpu": first[1], "cold_runs": len(cold),
            "cold_median": statistics.median(cold), "cold_p95": p95(cold), "cold_cpu_median": statistics.median(cold_cpu),
            "noisy_median": statistics.median(noisy), "noisy_p95": p95(noisy),
            "noisy_cpu_median": statistics.median(noisy_cpu),
            "trimmed_median": statistics.median(trimmed), "trimmed_p95": p95(trimmed),
            "trimmed_cpu_median": statistics.median(trimmed_cpu),
            "scan_cpu_median": statistics.median(cpu), "scan_cpu_p95": p95(cpu),
            "check_cpu_median": statistics.median(check_cpu),
            "check_median": statistics.median(checks), "check_p95": p95(checks),
            "calibrate_median": statistics.median(full), "learn_s": learn, "learn_faces": len(refs),
            "scan_added_mb": scan_added, "peak_before_mb": scan_peak,
            **{f"stage {k}": statistics.median(v) for k, v in stages.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=20, help="scenes per game and pack (default 20; full run 500; 0: latency only)")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    ap.add_argument("--packs", default="proxy,photo", help="proxy, photo or both (default both)")
    ap.add_argument("--runs", type=int, default=40, help="latency repetitions (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-occluded", type=float, default=0.25,
                    help="a card hidden more than this is not required to be found (default 0.25)")
    ap.add_argument("--verbose", action="store_true", help="print every scene that is not all right")
    ap.add_argument("--skip-latency", action="store_true")
    ap.add_argument("--latency-table", default="wood", choices=("wood", "cloth", "patterned"),
                    help="what the latency table's cards lie on (default wood, which the scanner models as a "
                         "patterned cloth; cloth: a plain cloth)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    os.environ.setdefault("COMPANION_CACHE", tempfile.mkdtemp(prefix="bench-vision-"))
    print(f"# bench/vision.py on {platform.machine()} Python {platform.python_version()}, OpenCV {cv2.__version__}, "
          f"one core, load average {os.getloadavg()[0]:.1f}")
    grand: dict[str, int] = {}
    if args.scenes < 0:
        ap.error("--scenes must be 0 (latency only) or more")
    for kind in args.packs.split(",") if args.scenes > 0 else ():
        for game in args.games.split(","):
            try:
                if kind == "proxy":
                    pack = proxy_pack(game)
                else:
                    from vision.synth import photo_like_pack

                    pack = photo_like_pack(game, args.seed)
            except ValueError as exc:
                print(f"{kind:5} {game:15} skipped: {exc}")
                continue
            t0 = time.perf_counter()
            r = run_accuracy(game, pack, args.scenes, args.seed, args.max_occluded, args.verbose)
            dt = time.perf_counter() - t0
            for k, v in r.items():
                grand[k] = grand.get(k, 0) + v
            acc = r["right"] / max(1, r["items"])
            print(f"{kind:5} {game:15} items {r['items']:5}  right {100 * acc:6.2f}%  wrong {r['wrong']:3}  "
                  f"missing {r['missing']:3} (nothing shown there {r['missing_unshown']})  unsure {r['unsure']:3}  "
                  f"all-right scenes {r['all_right']:4}/{r['scenes']}  scenes with a silent error {r['silent']}  "
                  f"phantoms {r['phantom']:3}  distractors rejected {r['rejected']}/{r['distractors']} "
                  f"shown as unknown {r['shown_unknown']}/{r['distractors']}  stray unknowns {r['stray_unknowns']}  "
                  f"listed to check where no card lies {r['unsure_nothing']}/{r['unsure_listed']}  "
                  f"hidden misread {r['hidden_misread']}  hands named {r['hands_named']}/{r['hands']}  "
                  f"a hand warned of where none is {r['hand_warned']}/{r['no_hand']} scenes  "
                  f"refused (marker covered) {r['refused']}  "
                  f"pieces found {r['pieces_found']}/{r['pieces']}  phantom pieces {r['pieces_phantom']}  "
                  f"({dt / max(1, r['scenes']):.2f} s/scene)", flush=True)
            print(f"      visible cards not found right: {not_right(r)}", flush=True)
            for key, line in LAYOUT_LINES:
                if key in r:
                    print("      " + line.format(**r), flush=True)
    if grand:
        print(f"TOTAL identity+rotation accuracy {100 * grand['right'] / max(1, grand['items']):.2f}% of "
              f"{grand['items']} items; all-right scenes {100 * grand['all_right'] / max(1, grand['scenes']):.1f}% of "
              f"{grand['scenes']}; scenes with a silent error (a wrong or phantom card, or a card missed with nothing "
              f"shown there) {grand['silent']}, cards missed with nothing shown there {grand['missing_unshown']}; "
              f"phantoms {1000 * grand['phantom'] / max(1, grand['scenes']):.1f} per 1,000 scenes; "
              f"unknown objects rejected {100 * grand['rejected'] / max(1, grand['distractors']):.1f}% of "
              f"{grand['distractors']} (shown as unknown {grand['shown_unknown']}); unknown places where nothing lies "
              f"{grand['stray_unknowns']}; unsure {grand['unsure']} (listed to check {grand['unsure_listed']}, where no card "
              f"lies {grand['unsure_nothing']}); hands named {grand['hands_named']} of {grand['hands']}; "
              f"a hand warned of where none is in {grand['hand_warned']} of {grand['no_hand']} scenes without one; "
              f"playing pieces found {grand['pieces_found']} of "
              f"{grand['pieces']}, phantom pieces {grand['pieces_phantom']}")
        print(f"TOTAL visible cards not found right: {not_right(grand)}")
    if not args.skip_latency:
        lat = latency(args.runs, args.seed, args.latency_table)
        print(f"latency, cold (the cloth's colours learned afresh): first scan wall {lat['first_wall']:.1f} ms "
              f"(CPU {lat['first_cpu']:.1f} ms, also the templates' spectra); {lat['cold_runs']} cold scans wall median "
              f"{lat['cold_median']:.1f} ms, p95 {lat['cold_p95']:.1f} ms, CPU median {lat['cold_cpu_median']:.1f} ms")
        print(f"latency, warm with fresh camera noise in each frame ({lat['cold_runs']} runs): scan wall median "
              f"{lat['noisy_median']:.1f} ms, p95 {lat['noisy_p95']:.1f} ms, CPU median {lat['noisy_cpu_median']:.1f} ms")
        print(f"latency, warm after the heap's free pages were handed back, as after the app's end turn "
              f"({lat['cold_runs']} runs): scan wall median {lat['trimmed_median']:.1f} ms, p95 {lat['trimmed_p95']:.1f} ms, "
              f"CPU median {lat['trimmed_cpu_median']:.1f} ms")
        print(f"latency, warm ({lat['items']} cards recognised, 2304x1296, {args.runs} runs): scan wall median "
              f"{lat['scan_median']:.1f} ms, p95 {lat['scan_p95']:.1f} ms; CPU median {lat['scan_cpu_median']:.1f} ms, "
              f"p95 {lat['scan_cpu_p95']:.1f} ms; calibration re-check wall median "
              f"{lat['check_median']:.2f} ms, p95 {lat['check_p95']:.2f} ms, CPU median {lat['check_cpu_median']:.2f} ms; "
              f"whole-frame calibration "
              f"{lat['calibrate_median']:.1f} ms; learning {lat['learn_faces']} faces {lat['learn_s']:.2f} s")
        print("latency by stage (CPU median per scan): " + ", ".join(
            f"{k} {lat['stage ' + k]:.1f} ms" for k in (*STAGES, "rest")) + " (the rest: checking the frame, "
            "the pack's digest, reading the regions)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.skip_latency:
        print(f"peak memory (ru_maxrss) {peak:.0f} MB")
    else:
        # the latency section restarts the peak count (Linux) to see what scanning itself adds
        print(f"peak memory (ru_maxrss) {max(peak, lat['peak_before_mb']):.0f} MB; scanning the latency table "
              f"(index, calibration, {args.runs} scans) added {lat['scan_added_mb']:.0f} MB to what was resident")


if __name__ == "__main__":
    main()
