"""Soft spots of white light (a lamp reflected off the table) found in a frame and taken out.

A glare spot adds white light to everything under it, most at its centre and fading smoothly
round it: the print of a card under its edge is washed out and read unsure, or not at all. The
spot is a smooth bump in the least of the three colour channels (white light raises all three);
cards, coasters and white card stock are not smooth bumps but flat areas with sharp sides.

Each bump of the least channel above the table's own level (a wide median) is fitted with a
round Gaussian (centre, width, height) by robustly weighted least squares, on every SCALE-th
place of the frame, and again at FINE; it is taken as glare only when the Gaussian explains most
of it (FIT_SHARE of the places within two widths of its centre fit within a quarter of its
height), it is at least MIN_WIDTH wide and MIN_HEIGHT high, and its light is white (each channel
raised, round it, at least WHITE_LEAST of the most raised one). The fitted light is then
subtracted from the frame the cards are read from (vision.scan). The cloth they are looked for on
is still modelled from the frame as it was (taken out there, the spot moved the cloth's threshold
and a patterned cloth's colours everywhere); only on a plain cloth is each pixel then compared
with that model without the spot's light (vision.detect.foreground's ``unlit``), so the lit cloth
beside a card is not taken for part of it. Where the spot's centre drove the camera to white,
what lay under it is lost: those places stay as white as the frame has them (``clipped`` marks
them, and vision.scan counts a card largely white only from a clear score). Fading the
subtraction in round them, or filling them in from round them, lost more cards than it saved
(docs/benchmarks.md, fourteenth pass).

Not handled: a spot narrower than MIN_WIDTH (40 px of a 2304 px frame) or of coloured light, and
glare on a sleeve or a glossy card only (sharp-sided, the card's own shape): those stay as they
were. Fitted over a row of cards, a spot's width comes out up to about 15 % narrow.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

SCALE = 8  # the spots are looked for on the frame shrunk this many times ...
FINE = 4  # ... and each one found is fitted again on it shrunk this many
MOST = 3  # spots looked for in one frame
MIN_HEIGHT = 70.0  # grey levels: a fainter bump is the cloth's own shading
FIT_SHARE = 0.7
MIN_WIDTH = 5.0  # px of the shrunk frame (40 px of a 2304 px frame): narrower is a white card
MAX_WIDTH = 20.0  # (160 px of a 2304 px frame)
TRIES = MOST + 2  # bumps fitted at most, spots and others
WHITE_LEAST = 0.25  # each channel raised round a spot at least this share of the most raised one
SATURATED = 250  # a place this bright in every channel was driven to white
# where a spot adds this much light (grey levels, a quarter of the camera's range), the colours
# left once it is taken out are only as good as its fit: a few px of print there decide nothing
# (see ``lit`` and vision.identify's near ties)
LIT = 64.0


@dataclass(frozen=True)
class Spot:
    """A glare spot in frame px: centre, width (the Gaussian's sigma) and height (grey levels)."""

    x: float
    y: float
    sigma: float
    height: float


def _fit(excess: np.ndarray, cx: float, cy: float, s: float, a: float, iters: int = 8,
         widest: float = MAX_WIDTH) -> tuple[float, float, float, float, float]:
    """A round Gaussian fitted to ``excess`` from a first guess (Gauss-Newton with Huber
    weights: cards under the spot and beside it count little), and the share of the places
    within two widths of its centre it explains within a quarter of its height."""
    h, w = excess.shape
    # the places the fit may reach, once: a square round the first guess
    reach = 3.5 * widest
    x0, x1 = max(0, int(cx - reach)), min(w, int(cx + reach) + 2)
    y0, y1 = max(0, int(cy - reach)), min(h, int(cy + reach) + 2)
    e = excess[y0:y1, x0:x1].ravel()
    gx, gy = (g.ravel() for g in np.meshgrid(np.arange(x0, x1, dtype=np.float32), np.arange(y0, y1, dtype=np.float32)))
    for n in range(iters):
        dx, dy = gx - np.float32(cx), gy - np.float32(cy)
        r2 = dx * dx + dy * dy
        win = r2 < np.float32((3.5 * s) ** 2)
        if np.count_nonzero(win) < 8:
            break
        dx, dy, r2 = dx[win], dy[win], r2[win]
        g = np.exp(-r2 / np.float32(2 * s * s))
        res = e[win] - np.float32(a) * g
        wt = np.minimum(np.float32(max(0.15 * a, 5.0)) / np.maximum(np.abs(res), np.float32(1e-6)), np.float32(1.0))
        ag = np.float32(a) * g
        jac = np.stack([ag * dx / np.float32(s * s), ag * dy / np.float32(s * s), ag * r2 / np.float32(s**3), g], axis=1)
        jtw = jac.T * wt
        try:
            step = np.linalg.solve(jtw @ jac + 1e-6 * np.eye(4, dtype=np.float32), jtw @ res)
        except np.linalg.LinAlgError:
            break
        cx, cy = cx + float(step[0]), cy + float(step[1])
        s, a = float(np.clip(s + step[2], 1.0, widest)), a + float(step[3])
        if float(np.abs(step).max()) < 0.05 or (n >= 2 and s < 0.6 * MIN_WIDTH * widest / MAX_WIDTH):
            break  # settled, or far too narrow for glare
    dx, dy = gx - np.float32(cx), gy - np.float32(cy)
    r2 = dx * dx + dy * dy
    core = r2 < np.float32((2 * s) ** 2)
    res = e[core] - np.float32(a) * np.exp(-r2[core] / np.float32(2 * s * s))
    share = float(np.mean(np.abs(res) < 0.25 * abs(a))) if res.size else 0.0
    return cx, cy, s, a, share


def find(frame: np.ndarray) -> list[Spot]:
    """The glare spots of a BGR frame (none on most frames: a few ms to look)."""
    h, w = frame.shape[:2]
    sw, sh = w // SCALE, h // SCALE
    if sw < 16 or sh < 16:
        return []
    # every SCALE-th place, a little smoothed (an area resize of the whole frame took 5 ms; the
    # bumps looked for are dozens of px wide)
    b, g, r = cv2.split(np.ascontiguousarray(frame[SCALE // 2::SCALE, SCALE // 2::SCALE][:sh, :sw]))
    least = cv2.blur(cv2.min(cv2.min(b, g), r), (3, 3))
    k = min(2 * (min(sh, sw) // 4) + 1, 255)
    excess = least.astype(np.float32) - cv2.medianBlur(least, k).astype(np.float32)
    smooth = cv2.GaussianBlur(excess, (0, 0), 3.0)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    model = np.zeros_like(excess)  # the spots found so far
    passed = np.zeros_like(excess)  # bumps fitted and found no glare
    out: list[Spot] = []
    for _ in range(TRIES):
        left = smooth - passed
        if out:
            left -= cv2.GaussianBlur(model, (0, 0), 3.0)
        _, top, _, (px, py) = cv2.minMaxLoc(left)
        if top < MIN_HEIGHT or len(out) >= MOST:
            break
        cx, cy, s, a, share = _fit(excess - model if out else excess, float(px), float(py), 5.0, float(excess[py, px]))
        if share >= FIT_SHARE and s >= MIN_WIDTH and a >= MIN_HEIGHT and 0 <= cx < sw and 0 <= cy < sh:
            model += a * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))
            out.append(Spot((cx + 0.5) * SCALE - 0.5, (cy + 0.5) * SCALE - 0.5, s * SCALE, a))
        else:
            # not glare (a white card, a coaster): not looked at again
            near = (xx - px) ** 2 + (yy - py) ** 2 < (2 * max(s, MIN_WIDTH)) ** 2
            passed[near] = 1e6
    base = least.astype(np.float32) - excess
    fine = [_refine(frame, sp, base, [o for o in out if o is not sp]) for sp in out]
    return [sp for sp in fine if sp.sigma >= MIN_WIDTH * SCALE and _white(frame, sp)]


def _white(frame: np.ndarray, spot: Spot) -> bool:
    """Whether the light of a spot is white: it raises the three channels alike (what lies under
    it keeps the differences between its channels), where a white card on a blue cloth raises
    blue least (by -12 grey levels against 33 and 24; spots over cards and a patterned cloth
    measured 12 against 40 and 24 at worst). Compared between a ring one to two widths from its centre (where little of the
    spot is driven to white) and the table 2.5 to 3.5 widths out, by medians (cards in either
    count little)."""
    h, w = frame.shape[:2]
    reach = 3.5 * spot.sigma
    x0, x1 = max(0, int(spot.x - reach)), min(w, int(spot.x + reach) + 1)
    y0, y1 = max(0, int(spot.y - reach)), min(h, int(spot.y + reach) + 1)
    part = frame[y0:y1:FINE, x0:x1:FINE].reshape(-1, 3).astype(np.float32)
    gx, gy = np.meshgrid(np.arange(x0, x1, FINE, dtype=np.float32), np.arange(y0, y1, FINE, dtype=np.float32))
    r = np.hypot(gx - np.float32(spot.x), gy - np.float32(spot.y)).ravel() / np.float32(spot.sigma)
    ring, out = part[(r >= 1.0) & (r < 2.0)], part[(r >= 2.5) & (r < 3.5)]
    if len(ring) < 20 or len(out) < 20:
        return False
    raised = np.median(ring, axis=0) - np.median(out, axis=0)
    return bool(raised.max() > 0 and raised.min() >= WHITE_LEAST * raised.max())


def _light(spots: list[Spot], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The spots' light at the frame px xs (along x) by ys (along y)."""
    out = np.zeros((len(ys), len(xs)), np.float32)
    for sp in spots:
        gx = np.exp(-((xs - np.float32(sp.x)) ** 2) / np.float32(2 * sp.sigma**2))
        gy = np.exp(-((ys - np.float32(sp.y)) ** 2) / np.float32(2 * sp.sigma**2))
        out += (np.float32(sp.height) * gy[:, None]) * gx[None, :]  # a round Gaussian: x times y
    return out


def _refine(frame: np.ndarray, spot: Spot, base: np.ndarray, others: list[Spot]) -> Spot:
    """A spot fitted again at FINE (twice the detail it was found at), round where it was found,
    on the table's level (``base``, at SCALE) and less the other spots' light."""
    h, w = frame.shape[:2]
    reach = 3.5 * spot.sigma
    x0, y0 = max(0, int(spot.x - reach)) // FINE * FINE, max(0, int(spot.y - reach)) // FINE * FINE
    x1, y1 = min(w, int(spot.x + reach) + 1) // FINE * FINE, min(h, int(spot.y + reach) + 1) // FINE * FINE
    if x1 - x0 < 8 * FINE or y1 - y0 < 8 * FINE:
        return spot
    fw, fh = (x1 - x0) // FINE, (y1 - y0) // FINE
    b, g, r = cv2.split(cv2.resize(frame[y0:y1, x0:x1], (fw, fh), interpolation=cv2.INTER_AREA))
    least = cv2.min(cv2.min(b, g), r).astype(np.float32)
    # the table's level at each fine place, from the coarse one (px centres mapped across scales)
    mx = ((np.arange(fw, dtype=np.float32) + 0.5) * FINE + x0) / SCALE - 0.5
    my = ((np.arange(fh, dtype=np.float32) + 0.5) * FINE + y0) / SCALE - 0.5
    level = cv2.remap(base, *np.meshgrid(mx, my), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    centres_x = (np.arange(fw, dtype=np.float32) + 0.5) * FINE + x0 - 0.5
    centres_y = (np.arange(fh, dtype=np.float32) + 0.5) * FINE + y0 - 0.5
    excess = least - level - _light(others, centres_x, centres_y)
    k = SCALE / FINE
    cx, cy, s, a, share = _fit(excess, (spot.x + 0.5 - x0) / FINE - 0.5, (spot.y + 0.5 - y0) / FINE - 0.5,
                               spot.sigma / FINE, spot.height, widest=MAX_WIDTH * k)
    if share < FIT_SHARE or not (0.7 * spot.sigma <= s * FINE <= 1.4 * spot.sigma):
        return spot  # (the coarse fit stands)
    return Spot((cx + 0.5) * FINE - 0.5 + x0, (cy + 0.5) * FINE - 0.5 + y0, s * FINE, a)


def _windows(frame: np.ndarray, spots: list[Spot]) -> Iterator[tuple[Spot, slice, slice, np.ndarray]]:
    """Each spot's reach in the frame (3 widths round its centre; beyond, under 2 % of its height:
    a few grey levels at most), as (the spot, rows, columns, its light there)."""
    h, w = frame.shape[:2]
    for sp in spots:
        reach = 3.0 * sp.sigma
        x0, x1 = max(0, int(sp.x - reach)), min(w, int(sp.x + reach) + 1)
        y0, y1 = max(0, int(sp.y - reach)), min(h, int(sp.y + reach) + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        light = _light([sp], np.arange(x0, x1, dtype=np.float32), np.arange(y0, y1, dtype=np.float32))
        yield sp, slice(y0, y1), slice(x0, x1), light


@dataclass(frozen=True)
class TakenOut:
    """A frame with its spots' light taken out, and what that leaves to know (see take_out)."""

    unlit: np.ndarray  # the frame less the spots' light (see remove)
    white: np.ndarray | None  # where it drove the camera to white (see clipped)
    lit: np.ndarray | None  # where it was strong (see lit)


def take_out(frame: np.ndarray, spots: list[Spot]) -> TakenOut:
    """remove, clipped and lit at once: each spot's light is worked out once for the three."""
    if not spots:
        return TakenOut(frame, None, None)
    out = frame.copy()
    white = np.zeros(frame.shape[:2], np.uint8)
    strong = np.zeros(frame.shape[:2], np.uint8)
    for sp, rows, cols, light in _windows(frame, spots):
        seen = frame[rows, cols]
        there = white[rows, cols]
        cv2.bitwise_or(there, cv2.bitwise_and(cv2.inRange(seen, (SATURATED,) * 3, (255,) * 3),
                                              (light >= np.float32(0.2 * sp.height)).astype(np.uint8) * 255), dst=there)
        there = strong[rows, cols]
        cv2.bitwise_or(there, (light >= np.float32(LIT)).astype(np.uint8) * 255, dst=there)
        part = out[rows, cols]
        less = cv2.subtract(part, cv2.merge([np.rint(light).astype(np.uint8)] * 3))  # (saturating at 0)
        cv2.copyTo(part, cv2.inRange(part, (SATURATED,) * 3, (255,) * 3), less)  # (white stays)
        out[rows, cols] = less
    return TakenOut(out, white, strong)


def clipped(frame: np.ndarray, spots: list[Spot]) -> np.ndarray | None:
    """Where the spots' light drove the camera to white (every channel at SATURATED or more, where
    the light is at least a fifth of its spot's height), 0/255; None when there is no spot. What lay
    there is lost to any reading."""
    return take_out(frame, spots).white


def lit(frame: np.ndarray, spots: list[Spot]) -> np.ndarray | None:
    """Where the spots add LIT grey levels of light or more, 0/255; None when there is no spot.
    Bench seed 9, proxy Big Sur 323: two forest cards alike but for their frames' colours and a
    material chip were told apart by the frame's top corner, under 146 levels of a spot's light
    taken out again, and the wrong one counted."""
    return take_out(frame, spots).lit


def share_of(mask: np.ndarray, corners_px: np.ndarray) -> float:
    """The share of a quadrilateral (4 x 2 frame px) that ``mask`` covers."""
    x0, y0 = np.floor(corners_px.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners_px.max(axis=0)).astype(int) + 1
    h, w = mask.shape
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.rint(corners_px - (x0, y0)).astype(np.int32), 255)
    n = cv2.countNonZero(inside)
    return cv2.countNonZero(cv2.bitwise_and(inside, mask[y0:y1, x0:x1])) / n if n else 0.0


def remove(frame: np.ndarray, spots: list[Spot]) -> np.ndarray:
    """The frame with the spots' light subtracted (a new array; the frame itself when there are
    none). Places driven to white keep their white (see ``clipped``)."""
    return take_out(frame, spots).unlit
