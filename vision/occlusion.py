"""Reading a card or tile that a playing piece stands on.

A car or the Monster standing on a Monster Highway tile covers a tenth of it or more, and the
whole-face correlation falls to 0.45-0.7: the tile is listed as unsure although it is plain to
see. `read_past_a_piece` compares the crop with every face of the size class once more, leaving
out the pixels that each face explains worst (TRIM of them), and accepts the reading only when
the worst of those lie together in one blob (a piece, not a pattern of differences), the
trimmed face is the same card the whole face preferred, and it is clearly ahead of every other
card and rotation. Those last steps (`best_of`, `Rereading`) are shared with the reading past an
arm (vision.hand), which leaves out what is known to be the arm instead.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.identify import (
    ACCEPT,
    DIFFER_RATIO,
    SLACK,
    CardIndex,
    Match,
    SizeClass,
    extract,
    fine_shape,
    flattened,
    where_they_differ,
)

TRIM = 0.2  # the share of the face left out: a car covers about a tenth of a tile
TRIMMED_SURE = 0.85  # the trimmed correlation a reading past a piece needs ...
TRIMMED_MARGIN = 0.12  # ... and how far ahead of any other card or rotation it must be
TOGETHER = 0.75  # the share of the worst pixels the largest blob of them must hold (cars and the
# Monster on bench tiles: 0.89-1.0; skin of an arm matched to a smooth face: 0.65-0.67)
# A reading far ahead of every other card and rotation needs less: a car on a tile's road keeps the
# trimmed correlation at 0.81-0.86 and splits its worst pixels (the car, its shadow) into two or
# three blobs (0.62-0.84), but nothing else comes near (0.36-0.52 ahead). Over 421 re-readings in
# 400 bench scenes, no reading where no card lies or another one does was more than 0.21 ahead.
# Only for square tiles, which pieces stand on: a Highwayman card whose cell was turned 14 degrees
# off it (a pile's edges) was trimmed to 0.83 by leaving out its misfitting corners.
SHIFT = 4  # px (about 3 mm on a tile) ...
SHIFTED_FACES = 3  # ... the best faces of a tile read as no card are also tried this far off its cell
AHEAD = 0.3
AHEAD_SURE = 0.8
AHEAD_TOGETHER = 0.6
# A tile whose worst-explained pixels lie almost all in one blob needs less again: a car alone on a
# road tile leaves a compact blob (0.9-1.0) where the trimmed face fits at 0.70-0.85, 0.25-0.5
# ahead. Logged over the re-readings of bench seeds 1-3 (Monster Highway and Roundabout, both
# packs; 1,343 re-readings, 940 where no card lies, another does or this one at another turn): none
# of those scored 0.7 or more with a blob of 0.9 (the nearest: 0.66 at 0.93, 0.01 ahead; 0.62 at
# 0.98 and 0.61 at 1.0, 0.21 and 0.17 ahead).
COMPACT_SURE = 0.7
COMPACT_AHEAD = 0.25
COMPACT_TOGETHER = 0.9
# Between the two: a tile whose worst pixels lie mostly in one blob (0.8), read fairly well past it
# (0.76) and clearly ahead (0.13: more than the narrowest look-alike margin asked, 0.12). A car on a
# curve's road beside an empty space read 0.85, 0.29 ahead, 0.80 together, and so missed every way
# above. Logged again over bench seeds 1-3 (both games and packs, the fourth pieces pass's boards;
# 1,499 re-readings of tiles, 1,083 where no card lies, another does or this one at another turn):
# none of those came within 0.03, 0.05 and 0.1 of these three figures together (the nearest: 0.72
# at 0.83, 0.15 ahead; 0.72 at 0.95, 0.26 ahead); 11 readings of the right tile more pass. Seeds
# 7-8, checked after: 5 more of the right tile, none of the 511 others (twentieth accuracy pass).
BLOB_SURE = 0.76
BLOB_AHEAD = 0.13
BLOB_TOGETHER = 0.8
# Read with the lightness flattened (a sleeve's sheen: identify.flattened), a bare square of a
# check cloth beside a tile read as a photo-like face 0.83 past its "piece", 0.47 ahead, with its
# worst pixels 0.62-0.64 together (bench seed 9, photo-like Monster Highway 108). Logged over the
# 4,283 readings past a piece of bench seeds 9 (scenes 0-149) and 1 (0-99), Monster Highway and
# Roundabout, both packs: of the readings that named the card the whole face named, flattened
# ones passed where the readings as they are did not at 37 places, each the right tile (17 in
# sleeves), and at that one place where none lay. The right ones' misfit lay 0.76-1.0 together
# at 30 of them (0.63-0.72 at the other seven): flattened, the misfit must lie in one blob as a
# clear reading's does.
FLAT_TOGETHER = TOGETHER
# A place read as no card is read flattened too, but must score this: proxy Monster Highway 2, 3
# and 68 (bench seed 9), a car on a tile (MH 3's in a glossy sleeve: its whole face 0.31, past the
# car as it is 0.62-0.65), flattened 0.82-0.88 and 0.23-0.41 ahead, the right tile at each of
# four places; a bare place beside a tile (photo-like MH 1) read flattened a road 0.78, 0.17 ahead.
FLAT_UNNAMED = AHEAD_SURE
# the ways in for a square tile past its clear reading: (read at least, ahead of any other face or
# turn by at least, its misfit in one blob at least), each all three together
SQUARE_WAYS_IN = ((AHEAD_SURE, AHEAD, AHEAD_TOGETHER), (COMPACT_SURE, COMPACT_AHEAD, COMPACT_TOGETHER),
                  (BLOB_SURE, BLOB_AHEAD, BLOB_TOGETHER))
# the least trimmed score any way in takes
FLAT_LEAST = min(TRIMMED_SURE, *(least for least, _, _ in SQUARE_WAYS_IN))


def _trimmed_scores(win: np.ndarray, faces: np.ndarray, trim: float) -> tuple[np.ndarray, np.ndarray]:
    """For each face (E, h, w, 3), the correlation with the window (h, w, 3) over the pixels the
    face explains best (all but `trim` of them), and how badly it explains each pixel (E, h, w)."""
    e, h, w, _ = faces.shape
    n = h * w
    # float32 and sums over the kept pixels as matrix products: a card size class holds about 200
    # faces, and a float64 copy per step of every face was tens of MB for one cell
    a = win.reshape(n, 3).astype(np.float32)
    a = a - a.mean(axis=0)
    t = faces.reshape(e, n, 3).astype(np.float32)
    t -= t.mean(axis=1, keepdims=True)
    # the face's best gain onto the window, then each pixel's misfit
    tt = np.einsum("enc,enc->en", t, t)  # (E, n)
    ta = np.einsum("enc,nc->en", t, a)
    gain = ta.sum(axis=1) / np.maximum(tt.sum(axis=1), 1e-9)  # (E,)
    misfit = (a * a).sum(axis=1)[None] - 2 * gain[:, None] * ta + (gain * gain)[:, None] * tt  # (E, n)
    keep = _kept(misfit, trim).astype(np.float32)  # (E, n)
    k = np.maximum(keep.sum(axis=1), 1.0)[:, None]
    sa = keep @ a  # (E, 3) sums over the kept pixels
    st = np.einsum("en,enc->ec", keep, t)
    saa = keep @ (a * a)
    stt = np.einsum("en,enc->ec", keep, t * t)
    sat = np.einsum("en,enc->ec", keep, t * a[None])
    num = (sat - sa * st / k).sum(axis=1)
    den = np.sqrt(np.maximum((saa - sa * sa / k).sum(axis=1), 0) * np.maximum((stt - st * st / k).sum(axis=1), 0)) + 1e-6
    return num / den, misfit.reshape(e, h, w)


def _together(misfit: np.ndarray, share: float = TRIM / 2) -> float:
    """The share of the worst-explained pixels (`share` of the face) that the largest 8-connected
    blob of them holds. A piece is what a face explains worst; the rest of what is left out is
    noise and edges, scattered. (Not closed up: at these shares scattered pixels close into one
    blob.)"""
    n = misfit.size
    worst = max(1, round(share * n))
    cut = np.partition(misfit.ravel(), n - worst)[n - worst]
    m = (misfit >= cut).astype(np.uint8)
    if not misfit.any():
        return 0.0
    count, _, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    if count <= 1:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / max(1, int(m.sum()))


def read_past_a_piece(index: CardIndex, frame: np.ndarray, to_image: np.ndarray, angle_deg: float,
                      key: tuple[float, float], match: Match, flat: bool = False) -> Match | None:
    """`match` (not sure, or not clearly) read again with a piece standing on the card left out:
    a sure Match of the same card and rotation with the trimmed score, or None. A tile read as no
    card at all (a bright car on a dark road tile outweighs the rest of it: 0.34-0.44), or as a
    card below the recogniser's bar (ACCEPT) that the trimmed reading does not name, is read past
    the piece as such, and then the trimmed reading alone must be clear. With `flat`, the crop
    and the faces are compared with their lightness flattened (identify.flattened: a sleeve's
    sheen); where the designs differ is still looked at as they are. Flattened, a card is read
    only past one blob (see FLAT_TOGETHER), and a place read as no card must read FLAT_UNNAMED."""
    read = _past(index, frame, to_image, angle_deg, key, match, flat)
    if read is None:
        return None
    got, together, centre, crop, misfit, match = read
    if flat and (together < FLAT_TOGETHER or (match.id is None and got.score < FLAT_UNNAMED)):
        return None
    sc = index.classes[key]
    clear = got.score >= TRIMMED_SURE and together >= TOGETHER
    square = key[0] == key[1] and any(got.score >= least and got.ahead >= ahead and together >= joined
                                      for least, ahead, joined in SQUARE_WAYS_IN)
    if not (clear or square):
        return None
    # (the piece left out where the two designs differ: a car on a crossroads' arm may hide what
    # tells a tee from it)
    if got.too_close(sc, TRIMMED_MARGIN, crop, _seen(misfit[got.best])):
        return None
    return got.match(centre, match)


_Past = tuple["Rereading", float, tuple[float, float], np.ndarray, np.ndarray, Match]


def _past(index: CardIndex, frame: np.ndarray, to_image: np.ndarray, angle_deg: float,
          key: tuple[float, float], match: Match, flat: bool) -> _Past | None:
    """read_past_a_piece's trimmed reading before it is judged: the best face, how much of its
    worst-explained pixels lie together, the card's centre, the crop (as it is), each face's
    misfit and the whole face's reading it stands for (as no card, when it fell below ACCEPT and
    the trimmed one names another card); None when there is nothing to read, the reading names
    another card, or (flattened) none of the named card's own faces reaches FLAT_LEAST."""
    if key not in index.classes or (match.id is None and key[0] != key[1]):
        return None
    sc = index.classes[key]
    h, w = fine_shape(key)
    crop, crop_to_mm = extract(frame, to_image, match.center_mm, angle_deg, key)
    seen, faces = (flattened(crop), sc.flat_fine()) if flat else (crop, sc.fine)
    win = seen[SLACK:SLACK + h, SLACK:SLACK + w]
    if flat and match.id is not None:
        # flattened, a named card's own faces are tried first: no way in takes less than
        # FLAT_LEAST, and where none of them reaches that, nothing can pass (half the flattened
        # readings of the log ended so), and the other faces are not compared
        own = [e for e, cid in enumerate(sc.entry_id) if cid == match.id]
        if not own or float(_trimmed_scores(win, faces[own], TRIM)[0].max()) < FLAT_LEAST:
            return None
    scores, misfit = _trimmed_scores(win, faces, TRIM)
    order = np.argsort(-scores)
    centre = match.center_mm
    got = best_of(sc, scores, order, angle_deg)
    if match.id is not None and not got.names(match):
        if match.score >= ACCEPT or key[0] != key[1]:
            return None
        # a whole face below the recogniser's own bar names nothing the reading past the piece
        # must agree with: the tile is read as if it had been read as no card (a car on a straight
        # road left home-base-se ahead at 0.46; past the car, the straight road 0.95, 0.42 ahead:
        # bench seed 4, photo-like Monster Highway 5)
        match = dataclasses.replace(match, id=None, runner_up=match.id)
    if match.id is None:
        # no reading to start from, so no place refined by one either: the few faces that fit
        # best are also tried a little off the cell's centre (a tile whose trimmed fit is 0.80
        # at its place read 0.59 1.6 mm off it)
        top = order[:SHIFTED_FACES]
        at = np.zeros((len(top), 2), int)  # where each of them fits best, px off the cell's centre

        def try_at(offsets: list[tuple[int, int]], which: np.ndarray) -> None:
            for dx, dy in offsets:
                if max(abs(dx), abs(dy)) > SLACK:
                    continue
                there, off = _trimmed_scores(seen[SLACK + dy:SLACK + dy + h, SLACK + dx:SLACK + dx + w],
                                             faces[top[which]], TRIM)
                better = there > scores[top[which]]
                scores[top[which][better]] = there[better]
                misfit[top[which][better]] = off[better]
                at[which[better]] = (dx, dy)

        # every other px within SHIFT, then each px around the best of those for the best face
        try_at([(dx, dy) for dy in range(-SHIFT, SHIFT + 1, 2) for dx in range(-SHIFT, SHIFT + 1, 2) if dx or dy],
               np.arange(len(top)))
        lead = int(np.argmax(scores[top]))
        x0, y0 = (int(v) for v in at[lead])
        try_at([(x0 + dx, y0 + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy], np.array([lead]))
        order = np.argsort(-scores)
        k = np.flatnonzero(top == order[0])
        shift = at[k[0]] if k.size else np.zeros(2)
        c = crop_to_mm @ np.array([SLACK + w / 2 + shift[0], SLACK + h / 2 + shift[1], 1.0])
        centre = (float(c[0]), float(c[1]))
        got = best_of(sc, scores, order, angle_deg)
    return got, _together(misfit[got.best]), centre, crop, misfit, match


@dataclass(frozen=True)
class Rereading:
    """The best face of a card read again over part of it (past a piece, past an arm): its entry
    in the size class, card, turn (degrees, within the card's period) and score, and the best
    face of any other card or turn (`other`, -1 when there is none) and its score."""

    best: int
    card: str
    rotation: float
    symmetry: int
    score: float
    other: int
    rival: float

    @property
    def ahead(self) -> float:
        return self.score - self.rival

    def names(self, match: Match) -> bool:
        """Whether it names the card and turn `match` (the whole face's reading) named."""
        return self.card == match.id and same_turn(self.rotation, match.rotation, 360 // self.symmetry)

    def too_close(self, sc: SizeClass, margin: float, crop: np.ndarray, seen: np.ndarray) -> bool:
        """Whether it is too close to its rival to call: less than `margin` ahead (two faces that
        differ only in a corner, a label on a crossroads turned a quarter, can never be a fixed
        margin apart: a share of their own difference is asked, as the recogniser does), and
        where the two designs differ (over the pixels `seen` of the face in `crop`) does not
        decide it either."""
        needed = margin if self.other < 0 else min(margin, 0.45 * (1.0 - sc.templates().ncc(self.best, self.other)))
        return self.ahead < max(needed, 0.02) and (
            self.other < 0 or where_they_differ(crop, (SLACK, SLACK), sc.fine[self.best], sc.fine[self.other],
                                                seen) >= DIFFER_RATIO)

    def match(self, centre: tuple[float, float], whole: Match) -> Match:
        """The sure Match it gives at `centre` (`whole`: the whole face's reading)."""
        return Match("sure", self.card, self.rotation, self.score, self.ahead, centre, self.symmetry, whole.runner_up)


def best_of(sc: SizeClass, scores: np.ndarray, order: np.ndarray, angle_deg: float) -> Rereading:
    """The best of a size class's faces by `scores` (`order`: their indices, best first) for a
    cell turned `angle_deg`, and its nearest rival of another card or turn."""
    best = int(order[0])
    cid, rot, sym = sc.entry_id[best], int(sc.entry_rot[best]), int(sc.entry_sym[best])
    period = 360 // sym
    rotation = (angle_deg + rot) % 360
    rotation = rotation % period if sym > 1 else rotation
    other = next((int(o) for o in order[1:]
                  if sc.entry_id[o] != cid or (int(sc.entry_rot[o]) - rot) % period != 0), -1)
    return Rereading(best, cid, float(rotation), sym, float(scores[best]), other,
                     float(scores[other]) if other >= 0 else -1.0)


def _kept(misfit: np.ndarray, trim: float) -> np.ndarray:
    """For each row of `misfit` (E, n), the pixels kept: all but the `trim` explained worst."""
    n = misfit.shape[1]
    drop = max(1, round(trim * n))
    cut = np.partition(misfit, n - drop, axis=1)[:, n - drop][:, None]
    kept: np.ndarray = misfit < cut
    return kept


def _seen(misfit: np.ndarray, trim: float = TRIM) -> np.ndarray:
    """The pixels of a face (h, w) not left out as a piece's: all but the `trim` it explains worst."""
    return _kept(misfit.reshape(1, -1), trim).reshape(misfit.shape)


def same_turn(a: float, b: float, period: float) -> bool:
    """Two turns (degrees) alike within a card's period (360 over its symmetry), to a degree."""
    d = (a - b) % period
    return min(d, period - d) < 1.0


# Pieces standing on a recognised tile: what the tile's own face does not explain.
# A car on a road tile differs from the face by 90-140 (Lab distance) over its top and sides; the
# face's print off by a pixel differs by up to ~60 along its lines, and the rest by 3-20.
STANDING_MISFIT = 45.0  # a pixel this far from the fitted face is something on the tile ...
STANDING_OVER_MEDIAN = 5.0  # ... and this many times the tile's median misfit
STANDING_EDGE_PX = 3  # a blob reaching this near the tile's border is not standing on it
STANDING_MIN_MM2 = 110.0  # a blob this large (half a car's top; print lines opened away are smaller) ...
STANDING_SHORT_MM = 6.0  # ... no thinner than this (a car 22 x 11 mm, the Monster 40 x 40) ...
STANDING_ELONGATED = 4.0  # ... nor longer than this many times its width


def pieces_on(index: CardIndex, frame: np.ndarray, to_image: np.ndarray, center_mm: tuple[float, float],
              rotation: float, key: tuple[float, float], card_id: str) -> list[dict[str, Any]]:
    """The playing pieces standing on a recognised square tile: the compact blobs of what its face,
    fitted to the crop colour by colour (the light, the camera's balance), does not explain. Each is
    a dict with its centre and size in table mm, its area (mm^2) and its median top colour (BGR).
    Every face of the card, at each turn it is read alike in (the reported turn is then one of
    several), is tried, and the one explaining the crop best is used."""
    if key not in index.classes:
        return []
    sc = index.classes[key]
    h, w = fine_shape(key)
    entries = [e for e, cid in enumerate(sc.entry_id) if cid == card_id]
    sym = [int(sc.entry_sym[e]) for e in entries]
    # the face as the crop sees it: turned to 0 (crop turned by the item's rotation), or, for a
    # face alike turned, to any turn it is alike in
    entries = [e for e, s in zip(entries, sym, strict=True) if int(sc.entry_rot[e]) % (360 // s) == 0]
    if not entries:
        return []
    crop, crop_to_mm = extract(frame, to_image, center_mm, rotation, key)
    # channels first, so that every sum below runs along contiguous pixels
    win = np.ascontiguousarray(crop[SLACK:SLACK + h, SLACK:SLACK + w].reshape(-1, 3).T)  # (3, n)
    n = win.shape[1]
    faces = np.ascontiguousarray(sc.fine[entries].reshape(len(entries), n, 3).transpose(0, 2, 1))  # (E, 3, n)

    def misfit(t: np.ndarray, keep: np.ndarray | None) -> np.ndarray:
        # per face and channel, least squares window ~ gain * face + offset over the kept pixels;
        # each pixel's distance from the fit (E, n)
        tk, ak = (t, win) if keep is None else (t[:, :, keep], win[:, keep])
        tm, am = tk.mean(axis=2, keepdims=True), ak.mean(axis=1, keepdims=True)
        tc = tk - tm
        gain = np.einsum("ecn,cn->ec", tc, ak - am)[:, :, None] / np.maximum(np.einsum("ecn,ecn->ec", tc, tc)[:, :, None], 1e-6)
        res = win - am - gain * (t - tm)
        misfit: np.ndarray = np.sqrt(np.einsum("ecn,ecn->en", res, res))
        return misfit

    first = misfit(faces, None)
    k = int(np.argmin(np.partition(first, n // 2, axis=1)[:, n // 2]))  # the face explaining it best
    # fitted again without the pixels the first fit explained worst (a car on a plain road pulls it)
    worst = n - round(TRIM * n)
    best = misfit(faces[k:k + 1], first[k] < np.partition(first[k], worst)[worst])[0]
    err = best.reshape(h, w)
    cut = max(STANDING_MISFIT, STANDING_OVER_MEDIAN * float(np.partition(best, n // 2)[n // 2]))
    m = cv2.morphologyEx((err > cut).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    # what reaches the tile's own border came over it from outside (a hand, a finger over its
    # corner) or is the border itself (a neighbour's edge, the cut): a piece stands on the tile
    e = STANDING_EDGE_PX
    inner = np.zeros(labels.shape, bool)
    inner[e:h - e, e:w - e] = True
    rim = set(np.unique(labels[~inner]).tolist())
    if count <= 1:
        return []
    mm_per_px = key[1] / h
    to3 = np.vstack([crop_to_mm, [0.0, 0.0, 1.0]])
    colours = cv2.warpPerspective(frame, to_image @ to3, (w + 2 * SLACK, h + 2 * SLACK),
                                  flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_REPLICATE)[SLACK:SLACK + h, SLACK:SLACK + w]
    out = []
    for lab in range(1, count):
        if lab in rim or stats[lab, cv2.CC_STAT_AREA] * mm_per_px ** 2 < STANDING_MIN_MM2:
            continue
        ys, xs = np.nonzero(labels == lab)
        pts = np.column_stack([xs, ys]).astype(np.float32)
        (cx, cy), (a, b), _ = cv2.minAreaRect(pts)
        thin, thick = sorted(((a + 1) * mm_per_px, (b + 1) * mm_per_px))
        if thin < STANDING_SHORT_MM or thick > STANDING_ELONGATED * thin:
            continue
        px = colours[ys, xs].astype(np.float32)
        light = px.sum(axis=1)
        top = px[light >= np.median(light)]  # the lit top, not its sides or shadow
        c = crop_to_mm @ np.array([SLACK + cx, SLACK + cy, 1.0])
        out.append({"center_mm": (float(c[0]), float(c[1])), "size_mm": (thin, thick),
                    "area_mm2": float(len(xs) * mm_per_px ** 2),
                    "colour_bgr": tuple(int(v) for v in np.median(top, axis=0))})
    return out
