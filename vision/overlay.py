"""What the players see over the camera picture: what was recognised, what was not, the scores.

Recognised cards get a green outline with their id and an arrow to their top edge; cards the
recogniser is unsure of are outlined in amber; unknown things are boxed in a warning red with a
question mark, so nobody mistakes them for cards that count (but for Monster Highway's Monster,
boxed and named in purple where it hides a tile, and a lamp's glare, whose white hides whatever
lies under it, boxed and named in blue). The scan cuts what it cannot read into card-sized
places; the places of one thing (a coaster, an arm, a pool of glare) are outlined and named once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.layout import is_monster
from vision.observation import ARM, GLARE, TOUCH_MM, Item, Observation, Unknown, hidden_by, unknown_things

SURE = (60, 200, 40)
UNSURE = (0, 190, 255)
UNKNOWN = (40, 40, 230)
MONSTER = (150, 50, 140)
GLARE_COLOUR = (200, 120, 40)  # a mid blue: apart from the sure green, the unsure amber and the unknown red
INK = (255, 255, 255)


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 of a label's background in image px


def _free_place(box: Box, taken: Sequence[Box], tries: int = 3) -> int:
    """How far down (px; up when negative) to move a label so that it covers no label drawn
    before it: by whole label heights, the nearest free place first, at most ``tries`` heights
    each way; 0 when it is free where it is, or nowhere near is."""
    x0, y0, x1, y1 = box
    step = y1 - y0 + 2
    for k in range(tries + 1):
        for dy in ((0,) if k == 0 else (k * step, -k * step)):
            if not any(x0 < t[2] and t[0] < x1 and y0 + dy < t[3] and t[1] < y1 + dy for t in taken):
                return dy
    return 0


def _label(img: np.ndarray, text: str, at: Sequence[float], colour: tuple[int, int, int], scale: float,
           taken: list[Box] | None = None) -> None:
    """A text on a box of ``colour`` centred at ``at``; with ``taken`` (the boxes of the labels
    drawn so far) moved clear of them, and added to them (two cards side by side whose ids are
    wider than a card had their labels written over each other)."""
    font, th, (w, h), base = _text_metrics(text, scale)
    x, y = round(at[0] - w / 2), round(at[1] + h / 2)
    if taken is not None:
        box = (x - 3, y - h - 3, x + w + 3, y + base + 1)
        dy = _free_place(box, taken)
        y += dy
        taken.append((box[0], box[1] + dy, box[2], box[3] + dy))
    cv2.rectangle(img, (x - 3, y - h - 3), (x + w + 3, y + base + 1), colour, -1)
    cv2.putText(img, text, (x, y), font, scale, INK, th, cv2.LINE_AA)


def _outline(img: np.ndarray, cal: Calibration, item: Item, colour: tuple[int, int, int], scale: float,
             taken: list[Box]) -> None:
    pts = cal.to_image(np.array(item.corners_mm, np.float64))
    cv2.polylines(img, [pts.round().astype(np.int32)], True, colour, max(2, round(scale * 4)), cv2.LINE_AA)
    # an arrow from the centre to the middle of the card's top edge shows its rotation
    top = cal.to_image(np.array([(np.array(item.corners_mm[0]) + np.array(item.corners_mm[1])) / 2]))[0]
    centre = cal.to_image(np.array([item.center_mm]))[0]
    tip = centre + (top - centre) * 0.6
    cv2.arrowedLine(img, tuple(centre.round().astype(int)), tuple(tip.round().astype(int)), colour,
                    max(1, round(scale * 3)), cv2.LINE_AA, tipLength=0.3)
    _label(img, item.id + ("?" if colour == UNSURE else ""), centre + np.array([0.0, 20 * scale]), colour, scale * 0.8,
           taken)


def _outline_thing(img: np.ndarray, cal: Calibration, thing: Sequence[Unknown], colour: tuple[int, int, int],
                   width: int) -> None:
    """The outline of the places of one thing taken together: their boxes filled, the gaps of up
    to TOUCH_MM between them closed, and the whole's outer edge drawn."""
    boxes = [cal.to_image(u.corners_mm()) for u in thing]
    if len(boxes) == 1:
        cv2.polylines(img, [boxes[0].round().astype(np.int32)], True, colour, width, cv2.LINE_AA)
        return
    pts = np.concatenate(boxes)
    pad = 4 + width
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + pad
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillPoly(mask, [(b - np.array([x0, y0])).round().astype(np.int32) for b in boxes], 255)
    # (the gap closed in image px is about the one grouped in mm)
    k = int(np.ceil(TOUCH_MM * cal.px_per_mm)) | 1
    mask = cv2.copyMakeBorder(mask, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))[k:-k, k:-k]
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    origin = np.array([x0, y0], np.int32)
    cv2.polylines(img, [ct + origin for ct in contours], True, colour, width, cv2.LINE_AA)


def _thing_label_at(cal: Calibration, thing: Sequence[Unknown]) -> np.ndarray:
    """Where a thing's name goes (image px): the middle of its places when that lies on one of
    them, else the centre of the place nearest that middle (an arm's bend, a ring of places)."""
    centres = np.array([u.center_mm for u in thing], np.float64)
    mid = centres.mean(axis=0)
    on = any(cv2.pointPolygonTest(u.corners_mm().astype(np.float32), (float(mid[0]), float(mid[1])), False) >= 0
             for u in thing)
    at = mid if on else centres[int(np.argmin(np.hypot(*(centres - mid).T)))]
    return cal.to_image(np.array([at]))[0]


def caption(observation: Observation) -> str:
    """The overlay's summary line: the cards counted, unsure and unknown. The place the Monster
    hides is the Monster (and the places it may stand on, when several could be its own, are
    where it is), and the places a lamp's glare or an arm hides are named so, not counted as
    things unknown on the table."""
    monster = (observation.layout or {}).get("monster")
    one_of = (observation.layout or {}).get("monster_one_of") or []
    glared = sum(u.reason == GLARE for u in observation.unknowns)
    armed = sum(u.reason == ARM for u in observation.unknowns)
    # things, not places: a coaster the scan cut into a dozen card-sized places is one (and the
    # places an arm hides are part of the arm)
    unknown = sum(not hidden_by(thing) for thing in unknown_things(
        [u for u in observation.unknowns if not is_monster(u, monster) and not any(is_monster(u, m) for m in one_of)]))
    lines = [f"{len(observation.items)} cards"]
    if observation.unsure:
        lines.append(f"{len(observation.unsure)} unsure")
    if unknown:
        lines.append(f"{unknown} unknown")
    if monster is not None:
        lines.append("the Monster")
    elif one_of:
        lines.append(f"the Monster on one of {len(one_of)} places")
    if glared:
        lines.append("glare hides part of the table")
    if armed:
        lines.append("a hand hides part of the table")
    return ", ".join(lines)


def draw_overlay(frame: np.ndarray, observation: Observation, calibration: Calibration | None = None,
                 scores: dict[str, Any] | None = None) -> np.ndarray:
    """A copy of the frame with the observation drawn on it (and scores by seat, if given)."""
    cal = calibration or observation.calibration
    img = frame.copy()
    scale = max(0.5, min(img.shape[:2]) / 1300)
    if cal is None:
        _label(img, "no calibration", (img.shape[1] / 2, 40 * scale), UNKNOWN, scale)
        return img
    t = cal.table
    area = cal.to_image(np.array([[0, 0], [t.width_mm, 0], [t.width_mm, t.height_mm], [0, t.height_mm]], np.float64))
    cv2.polylines(img, [area.round().astype(np.int32)], True, (200, 200, 200), 1, cv2.LINE_AA)
    taken: list[Box] = []  # the cards' labels drawn so far
    for item in observation.items:
        _outline(img, cal, item, SURE, scale, taken)
    for item in observation.unsure:
        _outline(img, cal, item, UNSURE, scale, taken)
    # Monster Highway's Monster, read where it hides its place (that place is among the unknowns)
    monster = (observation.layout or {}).get("monster")
    # or the places it may stand on, when several could be its own
    one_of = (observation.layout or {}).get("monster_one_of") or []
    hidden = [u for u in observation.unknowns if is_monster(u, monster) or any(is_monster(u, m) for m in one_of)]
    for u in hidden:
        name = "Monster" if is_monster(u, monster) else "Monster?"
        cv2.polylines(img, [cal.to_image(u.corners_mm()).round().astype(np.int32)], True, MONSTER,
                      max(2, round(scale * 4)), cv2.LINE_AA)
        _label(img, name, cal.to_image(np.array([u.center_mm]))[0], MONSTER, scale * 0.8)
    # the places the scan cut something into, one outline and one name for each thing
    for thing in unknown_things([u for u in observation.unknowns if u not in hidden]):
        reason = hidden_by(thing)
        name, colour, size = ("glare", GLARE_COLOUR, 0.8) if reason == GLARE else \
            ("hand", UNKNOWN, 0.8) if reason == ARM else ("?", UNKNOWN, 1.5)
        _outline_thing(img, cal, thing, colour, max(2, round(scale * 4)))
        _label(img, name, _thing_label_at(cal, thing), colour, scale * size)
    for p in observation.layout.get("pieces", []):
        c = cal.to_image(np.array([p["center_mm"]]))[0]
        cv2.circle(img, tuple(c.round().astype(int)), round(12 * scale), INK, max(1, round(scale * 2)), cv2.LINE_AA)
    lines = [(caption(observation), (60, 60, 60), scale)]
    lines += [(f"{seat}: {total}", (120, 60, 20), scale) for seat, total in (scores or {}).items()]
    lines += [(w, UNKNOWN, scale * 0.7) for w in observation.warnings]
    seen = [cal.to_image(np.array(it.corners_mm, np.float64)) for it in [*observation.items, *observation.unsure]]
    seen += [cal.to_image(u.corners_mm()) for u in observation.unknowns]
    sizes = [_text_size(text, size) for text, _, size in lines]
    x, y, side = panel_place(img.shape[:2], sizes, scale,
                             [(float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))
                              for q in seen])
    wide = max(s[0] for s in sizes)
    for (text, colour, size), (w, _) in zip(lines, sizes, strict=True):
        # lines centred under each other, or flush with the image's side in a corner
        _label(img, text, (x + side * (wide - w) / 2, y), colour, size)
        y += LINE_STEP * scale
    return img


LINE_STEP = 45.0  # px (at scale 1) between the centres of the summary's lines


def _text_metrics(text: str, scale: float) -> tuple[int, int, tuple[int, int], int]:
    """A label's font, stroke, text size (w, h) and baseline, as `_label` draws it."""
    font, th = cv2.FONT_HERSHEY_SIMPLEX, max(1, round(scale * 2))
    (w, h), base = cv2.getTextSize(text, font, scale, th)
    return font, th, (w, h), base


def _text_size(text: str, scale: float) -> tuple[int, int]:
    """The width and height (px) of a label's box as `_label` draws it."""
    _, _, (w, h), base = _text_metrics(text, scale)
    return w + 6, h + base + 4


def panel_place(shape: Sequence[int], sizes: Sequence[tuple[int, int]], scale: float,
                things: Sequence[tuple[float, float, float, float]]) -> tuple[float, float, int]:
    """Where to write the summary, its lines' boxes `sizes` (w, h) one under another LINE_STEP
    apart, in an image of `shape` (h, w): at the top centre, or, where that covers what was seen
    (`things`: boxes x0, y0, x1, y1 px), at the bottom centre or in a corner, whichever covers least
    of them (the scores were written over the top row of cards of a Big Sur seat sitting at the
    camera's top edge). Returns the centre of the widest line's box and the height of the first
    line's centre (px), and the side the lines are flush with (-1 left, 0 centred, 1 right)."""
    h, w = shape[0], shape[1]
    if not sizes:
        return w / 2, 40 * scale, 0
    wide = max(s[0] for s in sizes)
    tall = (len(sizes) - 1) * LINE_STEP * scale + sizes[0][1] / 2 + sizes[-1][1] / 2
    pad = 10 * scale
    top, bottom = 40 * scale, h - pad - tall + sizes[0][1] / 2
    left, right = pad + wide / 2, w - pad - wide / 2
    best, where = None, (w / 2, top, 0)
    for x, y, side in ((w / 2, top, 0), (w / 2, bottom, 0), (left, top, -1), (right, top, 1), (left, bottom, -1),
                       (right, bottom, 1)):
        x0, y0 = x - wide / 2, y - sizes[0][1] / 2
        x1, y1 = x0 + wide, y0 + tall
        covered = sum(max(0.0, min(x1, t[2]) - max(x0, t[0])) * max(0.0, min(y1, t[3]) - max(y0, t[1])) for t in things)
        if best is None or covered < best - 1e-6:
            best, where = covered, (x, y, side)
    return where
