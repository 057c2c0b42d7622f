"""Reading a card that a hand or an arm reaches over.

A player's arm comes onto the table from beyond its edge: in the rectified view it crosses the
play area's border as a band of one colour (skin, a sleeve), wider than a finger. A card it covers
a fifth of reads 0.55-0.8 on its whole face and is listed unsure, although most of it is plain to
see. `arms` takes the colours of what crosses the border so; `read_past_a_hand` reads a card again
with the pixels of those colours that reach into it from its outline left out, and accepts the
reading only when it names the card and the turn the whole face preferred, clearly.

Unlike a piece standing on a tile (vision.occlusion), what is left out here is not whatever the
face explains worst (which lets a face fit cloth or skin by dropping what does not fit it) but
what is known to be the arm: a cell cut out of the arm itself is mostly arm, and is not read.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.glare import SATURATED
from vision.identify import MARGIN, SLACK, CardIndex, Match, extract, fine_shape
from vision.occlusion import best_of

BAND_MM = (4.0, 16.0)  # how far inside the play area's border an arm's colour is taken ...
CORNER_MM = 40.0  # ... away from the markers at its corners ...
WIDTH_MM = 50.0  # ... where the foreground crosses the border this wide (a forearm: 70-90 mm; the Monster 40) ...
FILLED = 0.9  # ... filling the band's depth, and of one colour:
CHROMA_SPREAD = 6.0  # the band's colour (Lab, 8-bit) within this of its median in a and b ...
LIGHT_SPREAD = 0.15  # ... and within this share of its lightness, at the 90th percentile
# A pixel of a card's window is the arm's when it is within this of an arm's colour and joined to
# the window's outline through such pixels. Lightness gets a share, colour a fixed tolerance: the
# hand over a card is lit otherwise than the forearm at the table's edge (the lamp's light falls
# off across the table). Bench seed 1, Roundabout 23: fingers 22-25 % lighter than the forearm,
# left in at 0.2, so two cards under them stayed unsure (0.64, 0.71); at 0.3 they read 0.90-0.93
# past the hand. Surveyed on seeds 1-2 (every reading past an arm, 380): 0.3 counts 5 cards more,
# none where no card or another one lies; 0.4 and lightness not asked at all counted the same
LIGHT_TOLERANCE = 0.3
CHROMA_TOLERANCE = 8.0
LEAST = 0.03  # the share of a card the arm must cover to be read past it ...
MOST = 0.35  # ... and may cover (beyond it too little is left to tell look-alikes apart)
# the correlation of the rest a reading past the arm needs. Surveyed on seeds 1-2 of the accuracy
# bench (every game, both packs; the 451 places listed unsure, arms found with tighter colour
# tolerances than these): of 57 places where no card lies or another one does, with an arm over
# 3-35 % of them, none read its whole face's card above 0.77 past the arm; of 17 cards hidden up to
# a quarter, 11 read 0.82 or more. Seed 3 was kept for the check (docs/benchmarks.md)
SURE = 0.82
# ... and where the whole face named no card, what the rest alone must read (bench seed 9, proxy
# Highwayman 0: a dark card under a thumb, 0.45 whole, itself at 0.85 past the arm; the cloth
# beside a forearm, a quarter of it under the arm, 0.29: tests)
UNNAMED_SURE = 0.85
# an unknown place this much of the arm's colour is the arm (not the Monster, not a thing of its own)
NAMED = 0.5
# ... and a card counted on a place this much under the arm, unless read clearly (scan.CONFIRMED).
# Surveyed (the arm's share of every counted card's place, seeds 1 and 9, 300 and 1,400 scenes of
# every game and pack): right cards up to 0.46, each of those over 0.35 hidden more than a quarter;
# cards read where none lies, on the edge of a hand, 0.49 (bench seed 9, photo-like Monster
# Highway 157, scanned after 156 as the bench does; Roundabout 139 with a trial change to the
# patterned cloth's light, not kept)
COUNTED_ON_ARM = 0.45
# ... or this much, where its own outline is seen (detect.outline_sides) on at most ARM_EDGE_SIDES
# sides: the edge of a forearm beside the cloth read as a face, half of the place the arm's and
# half the cloth's, no card's outline round it (bench seed 9, photo-like Highwayman 377: hm-holyhead-7
# at 0.85, 44 % under the arm, no side seen; Monster Highway 276: dead-end at 0.76, 37 %, one side).
# Surveyed (bench seed 9, the 946 scans of scenes 0-299 with a hand, every game, both packs): of the
# 727 right cards counted with some of their place under the arm, none showed fewer than two sides
# (of the 104 a quarter or more under it, 9 showed two); the one counted where no card lies
# (Monster Highway 276) showed one
ARM_EDGE = 0.25
ARM_EDGE_SIDES = 1
# A lamp's glare spot crossing the play area's border lights the cloth there into a band of one
# colour, as wide as an arm. A run of the border is the lamp's light, not an arm, when taking the
# spot's light out (vision.glare) leaves it at most this share as far (Lab) from the cloth beside
# it as it was. Bench seed 2, photo-like Monster Highway 12: a spot crossing the top edge, taken
# for an arm 153 mm wide (and three guesses on its light named "the arm"), 86 from the cloth lit
# and 13 without the light (0.15). Bench seed 1, photo-like Highwayman 14: an arm crossing the
# right edge in a lamp's light, 53 from the wood lit and 28 without it (0.54). Where the spot drove
# the camera to white, nothing is left to take the light out of: a run mostly white so
# (vision.glare.clipped) is the lamp's too (bench seed 3, proxy Highways & Byways 14: a spot 120 mm
# wide across the top edge, white, whose four guesses were named the arm and a hand warned of)
LAMP_SHARE = 0.35
# A run of the border that is not of one colour may still hold an arm: the arm's soft shadow beside
# it where the cloth's model does not forgive shade (a patterned cloth's; bench seed 9, photo-like
# Highways & Byways 288: 88 mm of forearm and 14 of its shadow), or a row of cards along the edge
# that the arm reaches over (proxy Big Sur 12: a 406 mm run). Its stretches of one colour at least
# WIDTH_MM wide are then arms, found by windows WIDTH_MM wide moved along it by this step
STRETCH_STEP_MM = 5.0
# A join of such windows, each of one colour with the next, is of one colour as a whole when its
# colour (a, b) is and its lightness within DRIFT times LIGHT_SPREAD: a forearm is lit from one
# side, its lightness drifting across it (bench seed 9, photo-like Roundabout 491: 160 to 119 across
# 80 mm beside a lamp's spot, no arm found and ra-08 counted on the forearm at 0.71; Highwayman 377:
# 90 to 124 across 82 mm, 16 from its median where 15.8 is one colour's). A join that drifts in
# colour is of two things side by side.
DRIFT = 1.5
# A run or stretch is an arm only where its colour reaches this far into the area, joined: a
# forearm does. A strip of one colour along the border does not: cards' title strips along the
# edge, or the mask holding a check's stripes or a lit band of the cloth there (bench seed 9,
# photo-like Big Sur 42: two "arms" of a check's colours, 289 and 118 mm wide, that made its
# pale squares the arm's colour). Of the 316 scenes without a hand in proxy scenes 0-99, 15 had
# such an arm before the stretches, 24 with them, 12 with them and this rule
REACH_MM = 80.0
# A run or stretch of the colour of the cloth beside it in the band (the cloth's pixels the mask
# leaves out within this of it along the side; the whole side's where there are none) is the
# cloth, which the mask holds there (the pale lit cloth or a shadow's edge on a patterned or
# dotted cloth), not an arm: of one colour with it as a stretch is with itself (_within).
# Surveyed (bench seed 9, scenes 0-149 of every game, both packs; each run or stretch that reached
# in, against the truth's hand): of 158 runs where no hand crossed the band, 32 were so; of 351
# where a hand did, none (the nearest, a forearm on the wood, 1.43 times the bounds off)
CLOTH_NEAR_MM = 150.0
# A run or stretch the camera drove to white over this share of it (every channel at
# vision.glare.SATURATED) is a lamp's light, whether vision.glare found its spot or not (it did
# not for the white at the left edge of bench seed 9's proxy Big Sur 12): what was driven to white
# has no colour to follow in. It acts in 13 and 16 of seed 9's scenes 0-299 (1,500 per pack;
# proxy, photo-like); of the 351 runs surveyed as above where a hand crossed the band, the
# lightest had a lightness of 200 (of 255)
WHITE_SHARE = 0.5


@dataclass(frozen=True)
class Arm:
    """The colour (8-bit Lab) of something crossing the play area's border, and its spread."""

    colour: tuple[float, float, float]
    spread: tuple[float, float, float]
    width_mm: float


def spans(line: np.ndarray) -> list[tuple[int, int]]:
    """The runs of non-zero values in a 1-D array, as (start, stop) index pairs."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], (line != 0).astype(np.int8), [0]])))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def arms(top: np.ndarray, mask: np.ndarray, px_per_mm: float, unlit: np.ndarray | None = None) -> list[Arm]:
    """The colours of what reaches onto the play area from beyond it: each run of the foreground
    mask (`mask`, over the rectified view `top`) that crosses a side of the area at least WIDTH_MM
    wide, away from the corners, filling the band BAND_MM inside the side, and of one colour (or
    its stretches of one colour that wide: STRETCH_STEP_MM), whose colour reaches REACH_MM in.
    `unlit`: the same view with a lamp's glare spots taken out, if it has any. A run that is the
    cloth's colour without the light (LAMP_SHARE), or mostly white (WHITE_SHARE), is the lamp's
    light; one of the colour of the cloth beside it is the cloth (CLOTH_NEAR_MM)."""
    h, w = mask.shape
    d0, d1 = (max(0, round(v * px_per_mm)) for v in BAND_MM)
    corner = round(CORNER_MM * px_per_mm)
    if d1 <= d0 or min(h, w) <= 2 * d1:
        return []
    # each side's band, turned so that the side runs along axis 1
    bands = ((top[d0:d1], mask[d0:d1]), (top[h - d1:h - d0], mask[h - d1:h - d0]),
             (top[:, d0:d1].transpose(1, 0, 2), mask[:, d0:d1].T),
             (top[:, w - d1:w - d0].transpose(1, 0, 2), mask[:, w - d1:w - d0].T))
    darker = (None,) * 4 if unlit is None else (
        unlit[d0:d1], unlit[h - d1:h - d0], unlit[:, d0:d1].transpose(1, 0, 2), unlit[:, w - d1:w - d0].transpose(1, 0, 2))
    # each side's whole view, turned as its band and so that inwards is down (for _reaches_in)
    inward = ((top, mask), (top[::-1], mask[::-1]), (top.transpose(1, 0, 2), mask.T),
              (top[:, ::-1].transpose(1, 0, 2), mask[:, ::-1].T))
    out: list[Arm] = []
    for (view, fg), dark, (in_top, in_mask) in zip(bands, darker, inward, strict=True):
        dark_lab = None  # the side's band without the lamp's light, in Lab (once a side, when asked)
        band_lab = None  # the side's band, in Lab (once a side, when a run is wide enough)
        full = (fg > 0).mean(axis=0) >= FILLED
        full[:corner] = False
        full[len(full) - corner:] = False
        for start, stop in spans(full):
            if stop - start < WIDTH_MM * px_per_mm or _white(view[:, start:stop]):
                continue
            if band_lab is None:
                band_lab = cv2.cvtColor(np.ascontiguousarray(view), cv2.COLOR_BGR2LAB).astype(np.float32)
            lab = band_lab[:, start:stop]
            whole = _one_colour(lab)
            # (not of one colour: an arm with its shadow beside it, or cards the arm reaches over
            # at the border: its stretches of one colour as wide as an arm, see STRETCH_STEP_MM)
            runs = [(0, stop - start, whole)] if whole is not None else \
                _stretches(lab, round(WIDTH_MM * px_per_mm), max(1, round(STRETCH_STEP_MM * px_per_mm)))
            runs = [(a, b, one) for a, b, one in runs
                    if _reaches_in(in_top, in_mask, start + a, start + b, Arm(tuple(one[0]), tuple(one[1]), 0.0), px_per_mm)]
            for a, b, (med, spread) in runs:
                if whole is None and _white(view[:, start + a:start + b]):  # (a whole run: above)
                    continue
                cloth = _cloth_beside(band_lab, fg, start + a, start + b, round(CLOTH_NEAR_MM * px_per_mm))
                if cloth is not None and _within(np.abs(med - cloth), float(med[0])):
                    continue
                if dark is not None:
                    if dark_lab is None:
                        dark_lab = cv2.cvtColor(np.ascontiguousarray(dark), cv2.COLOR_BGR2LAB).astype(np.float32)
                    if _lamp_light(med, dark_lab, fg, start + a, start + b):
                        continue
                out.append(Arm((float(med[0]), float(med[1]), float(med[2])),
                               (float(spread[0]), float(spread[1]), float(spread[2])), (b - a) / px_per_mm))
    return out


def _one_colour(lab: np.ndarray, drifting: bool = False) -> tuple[np.ndarray, np.ndarray] | None:
    """The median colour and spread (90th percentile) of a stretch of a side's band (Lab, any
    shape ending in 3), when it is of one colour (CHROMA_SPREAD, LIGHT_SPREAD); else None.
    `drifting`: a join of windows each of one colour with the next (see _stretches), whose
    lightness may drift along it beyond LIGHT_SPREAD (see DRIFT)."""
    px = lab.reshape(-1, 3)
    med = np.median(px, axis=0)
    spread = np.percentile(np.abs(px - med), 90, axis=0)
    judged = spread / (DRIFT, 1.0, 1.0) if drifting else spread
    return (med, spread) if _within(judged, float(med[0])) else None


def _within(off: np.ndarray, lightness: float) -> bool:
    """Whether a difference of colour (Lab, absolute: a spread, or two colours apart) is within
    what one colour of lightness ``lightness`` may vary by (LIGHT_SPREAD, CHROMA_SPREAD)."""
    return bool(off[0] <= LIGHT_SPREAD * max(lightness, 1.0) and max(off[1], off[2]) <= CHROMA_SPREAD)


def _reaches_in(top: np.ndarray, mask: np.ndarray, a: int, b: int, arm: Arm, px_per_mm: float) -> bool:
    """Whether the foreground of an arm's colour at the stretch [a, b) px of a side's band reaches
    REACH_MM into the area (or to its far side), joined (`top`, `mask`: the side's view turned so
    that the side is its first row and inwards is down). An arm does; the strips of a row of
    cards along the side, of one colour across it, are as deep as the strip."""
    reach = round(REACH_MM * px_per_mm)
    c0, c1 = max(0, a - reach), min(top.shape[1], b + reach)  # (an arm may come in askew)
    lab = cv2.cvtColor(np.ascontiguousarray(top[:reach, c0:c1]), cv2.COLOR_BGR2LAB).astype(np.float32)
    near = (_near(lab, [arm]) & (mask[:reach, c0:c1] > 0)).astype(np.uint8)
    _, labels = cv2.connectedComponents(near, connectivity=8)
    d0, d1 = (max(0, round(v * px_per_mm)) for v in BAND_MM)
    seeds = np.unique(labels[d0:d1, a - c0:b - c0])
    seeds = seeds[seeds > 0]
    # (on a play area shallower than that, reaching its far side will do)
    return bool(seeds.size) and bool(np.isin(labels[-1], seeds).any())


def _stretches(lab: np.ndarray, width: int, step: int) -> list[tuple[int, int, tuple[np.ndarray, np.ndarray]]]:
    """The stretches of a run of a side's band (Lab, depth x length x 3) that are of one colour
    and at least ``width`` px long: windows of ``width`` tried every ``step`` px, each of one
    colour joined to the one before when they overlap and are of one colour together (an arm
    beside a row of cards: the windows across where they meet may each pass, of either colour).
    A join's ends hold up to a tenth of a window of what lies beside it, so it is kept when it is
    of one colour without them, and its colour is taken without them. As (start, stop, (colour,
    spread)), in px along the run."""
    n = lab.shape[1]
    at = list(range(0, n - width + 1, step))
    if at and at[-1] != n - width:
        at.append(n - width)
    joins: list[list[int]] = []
    last: np.ndarray | None = None  # the colour of the last window of one colour
    for a in at:
        one = _one_colour(lab[:, a:a + width])
        if one is None:
            continue
        if joins and a < joins[-1][1] and last is not None and _within(np.abs(one[0] - last), float(last[0])):
            joins[-1][1] = a + width
        else:
            joins.append([a, a + width])
        last = one[0]
    out = []
    trim = round(0.1 * width)
    for a, b in joins:
        one = _one_colour(lab[:, a + trim:b - trim], drifting=True)
        if one is not None:
            out.append((a, b, one))
    return out


def _white(bgr: np.ndarray) -> bool:
    """Whether the camera drove a stretch of a side's band (BGR) to white (WHITE_SHARE)."""
    return bool((bgr >= SATURATED).all(axis=-1).mean() >= WHITE_SHARE)


def _cloth_beside(lab: np.ndarray, fg: np.ndarray, start: int, stop: int, near: int) -> np.ndarray | None:
    """The median colour (Lab) of the cloth in a side's band (`lab`; `fg`, its foreground mask)
    within ``near`` px of the stretch [start, stop) along it, or of the whole band's cloth where
    less than a square of the band's depth is that near; None where the band has none."""
    cloth = fg == 0
    lo, hi = max(0, start - near), min(cloth.shape[1], stop + near)
    local = lab[:, lo:hi][cloth[:, lo:hi]]
    if len(local) >= cloth.shape[0] ** 2:
        return np.median(local, axis=0)
    if cloth.any():
        return np.median(lab[cloth], axis=0)
    return None


def _lamp_light(lit: np.ndarray, lab: np.ndarray, fg: np.ndarray, start: int, stop: int) -> bool:
    """Whether a run of a side's band (its median colour `lit`, Lab) is a lamp's light: without the
    light (`lab`, the band of the view with the glare taken out, Lab; `fg`, its foreground mask)
    it is near the colour of the cloth beside it in the band (see LAMP_SHARE)."""
    cloth = fg == 0
    if not cloth.any():
        return False
    bare = np.median(lab[cloth], axis=0)
    unlit = np.median(lab[:, start:stop].reshape(-1, 3), axis=0)
    return bool(np.linalg.norm(unlit - bare) <= LAMP_SHARE * np.linalg.norm(lit - bare))


def _near(lab: np.ndarray, found: list[Arm]) -> np.ndarray:
    """Which pixels (..., 3, Lab) are within the tolerance of an arm's colour."""
    near = np.zeros(lab.shape[:-1], bool)
    for arm in found:
        c = np.array(arm.colour, np.float32)
        tol = np.array([max(1.5 * arm.spread[0], LIGHT_TOLERANCE * c[0]),
                        max(1.5 * arm.spread[1], CHROMA_TOLERANCE), max(1.5 * arm.spread[2], CHROMA_TOLERANCE)], np.float32)
        near |= (np.abs(lab - c) <= tol).all(axis=-1)
    return near


def share_of_arm(top: np.ndarray, corners_px: np.ndarray, found: list[Arm]) -> float:
    """The share of a place (its corners in the rectified view `top`, px) of an arm's colour."""
    if not found:
        return 0.0
    h, w = top.shape[:2]
    lo = np.clip(np.floor(corners_px.min(axis=0)).astype(int), 0, (w, h))
    hi = np.clip(np.ceil(corners_px.max(axis=0)).astype(int) + 1, 0, (w, h))
    if (hi - lo <= 0).any():
        return 0.0
    inside = np.zeros((hi[1] - lo[1], hi[0] - lo[0]), np.uint8)
    cv2.fillConvexPoly(inside, np.rint(corners_px - lo).astype(np.int32), 1)
    lab = cv2.cvtColor(np.ascontiguousarray(top[lo[1]:hi[1], lo[0]:hi[0]]), cv2.COLOR_BGR2LAB).astype(np.float32)
    n = int(inside.sum())
    return float((_near(lab, found) & (inside > 0)).sum()) / n if n else 0.0


def arm_pixels(win: np.ndarray, found: list[Arm], within: np.ndarray | None = None) -> np.ndarray:
    """The pixels of a card's window (h, w, 3, Lab) that are an arm's: of an arm's colour and
    joined through such pixels to the window's outline (an arm comes over a card from outside it).
    `within`: only pixels where this (h, w) is not 0 count (the foreground mask, for the whole
    view: the cloth beside an arm may be of its colour too)."""
    h, w = win.shape[:2]
    near = _near(win, found)
    if within is not None:
        near &= within > 0
    near_u8 = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, _, _ = cv2.connectedComponentsWithStats(near_u8, connectivity=8)
    if count <= 1:
        return np.zeros((h, w), bool)
    rim = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    rim = rim[rim > 0]
    return np.isin(labels, rim)


def seen_scores(win: np.ndarray, faces: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Each face's (E, h, w, 3) correlation with the window (h, w, 3) over the pixels `seen` (h, w)
    only, both centred colour by colour on those pixels."""
    keep = seen.reshape(-1)
    a = win.reshape(-1, 3)[keep].astype(np.float32)
    a -= a.mean(axis=0)
    t = faces.reshape(len(faces), -1, 3)[:, keep].astype(np.float32, copy=False)  # (a copy: indexed)
    t -= t.mean(axis=1, keepdims=True)
    num = np.einsum("emc,mc->e", t, a)
    den = np.sqrt(float((a * a).sum()) * np.einsum("emc,emc->e", t, t)) + 1e-6
    scores: np.ndarray = num / den
    return scores


def read_past_a_hand(index: CardIndex, frame: np.ndarray, to_image: np.ndarray, angle_deg: float,
                     key: tuple[float, float], match: Match, found: list[Arm]) -> Match | None:
    """`match` (a card named, not counted) read again without the pixels of an arm reaching over
    it: a sure Match of the same card and turn with the score of the rest, or None. A place read
    as no card (`match` unknown: the arm's bright skin outweighs a dark card's print) is read past
    the arm as such, and then the reading of the rest alone must be clear (UNNAMED_SURE)."""
    if not found or key not in index.classes or (match.id is None and match.status != "unknown"):
        return None
    sc = index.classes[key]
    h, w = fine_shape(key)
    crop, _ = extract(frame, to_image, match.center_mm, angle_deg, key)
    win = crop[SLACK:SLACK + h, SLACK:SLACK + w]
    covered = arm_pixels(win, found)
    share = float(covered.mean())
    if not LEAST <= share <= MOST:
        return None
    seen = ~covered
    scores = seen_scores(win, sc.fine, seen)
    got = best_of(sc, scores, np.argsort(-scores), angle_deg)
    # the same card and turn, read well, and ahead of any other card and turn by the recogniser's
    # margin (or where two designs differ, the arm left out, decides it)
    if match.id is None:
        if got.score < UNNAMED_SURE or got.too_close(sc, MARGIN, crop, seen):
            return None
    elif not got.names(match) or got.score < SURE or got.too_close(sc, MARGIN, crop, seen):
        return None
    return got.match(match.center_mm, match)
