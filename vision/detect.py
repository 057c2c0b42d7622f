"""Finding cards, tiles and small pieces on the rectified play area.

The frame is warped to a top-down view of the play area at DETECT_PX_PER_MM. Whatever differs
from the table cloth is foreground; the cloth is modelled locally (a median of blocks around each
place, so uneven light and a wood grain do not count as objects).

Cards laid edge to edge (a Big Sur row, a Roundabout grid, a Monster Highway road) merge into one
region. Such a region is split with the physical sizes the pack knows: the region's minimum-area
rectangle is divided into the grid of card-sized cells that fits it best, and each cell that the
region covers is a card. Whatever a grid of known sizes cannot explain (a phone, a hand, a coaster)
is reported as an unknown region instead of being forced into cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration

DETECT_PX_PER_MM = 1.0
BLOCK_MM = 25  # background blocks: small enough to follow light falloff, big enough to see cloth
MIN_PIECE_MM2 = 60.0  # smaller than this is noise (a crumb, a glint)
CELL_COVER = 0.55  # a grid cell at least this covered holds a card
EXPLAINED = 0.86  # a region is cards only if its cells explain this much of it
SIZE_SLACK = 0.22  # how far (as a fraction of a card) a row may be longer or shorter than n cards


@dataclass(frozen=True)
class Candidate:
    """A card-sized cell: where it is, which size class, and which way its long axis points."""

    center_mm: tuple[float, float]
    angle_deg: float  # clockwise from table "up" of the cell's long axis (or one side, if square)
    size_key: tuple[float, float]
    region: int  # the merged region it came from; cells of one region were laid edge to edge
    corners_mm: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class Region:
    """A foreground blob that is not (only) cards, or a small piece (a car, the monster)."""

    center_mm: tuple[float, float]
    size_mm: tuple[float, float]
    angle_deg: float
    area_mm2: float
    colour_bgr: tuple[int, int, int]
    region: int


@dataclass
class Detection:
    candidates: list[Candidate]
    blobs: list[Region]  # foreground that no grid of card sizes explains
    pieces: list[Region]  # small compact things: cars, the monster
    regions: dict[int, Region]  # every region that was split into card cells, by its label
    rectified: np.ndarray  # the top-down play area (BGR), kept for the overlay and for pieces
    mask: np.ndarray


def rectify(frame: np.ndarray, calibration: Calibration, px_per_mm: float = DETECT_PX_PER_MM) -> np.ndarray:
    """The play area seen from straight above at px_per_mm (x right, y down, origin marker 0)."""
    t = calibration.table
    size = (round(t.width_mm * px_per_mm), round(t.height_mm * px_per_mm))
    scale = np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0])
    # cv2 area interpolation is not available for perspective warps; pre-shrinking the frame
    # to about twice the target scale keeps table texture from aliasing into speckles.
    shrink = min(1.0, 2.0 * px_per_mm / max(calibration.px_per_mm, 1e-6))
    src = frame
    m = calibration.homography @ scale
    if shrink < 0.9:
        src = cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        m = np.diag([shrink, shrink, 1.0]) @ m
    return cv2.warpPerspective(src, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def foreground(top: np.ndarray, marker_mm: float, px_per_mm: float = DETECT_PX_PER_MM,
               max_hole_mm2: float = 1500.0) -> np.ndarray:
    """A 0/255 mask of what lies on the cloth."""
    h, w = top.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(top, (0, 0), 1.5 * px_per_mm), cv2.COLOR_BGR2LAB).astype(np.float32)
    b = max(4, round(BLOCK_MM * px_per_mm))
    gh, gw = max(1, h // b), max(1, w // b)
    blocks = cv2.resize(lab, (gw, gh), interpolation=cv2.INTER_AREA)
    # First guess: the cloth is the commonest colour. Then: the cloth's colour at each place is
    # interpolated from the blocks around it that are not covered (normalised convolution), so
    # uneven light is followed and a big grid of cards never passes for cloth.
    bg = np.broadcast_to(np.median(blocks.reshape(-1, 3), axis=0), lab.shape)
    keep = np.ones((h, w), np.float32)
    mask = np.zeros((h, w), np.uint8)
    for _ in range(3):
        dist = _distance(lab, bg)
        cloth = dist[keep > 0.5]
        if cloth.size < 100:
            cloth = dist.ravel()
        med = float(np.median(cloth))
        mad = float(np.median(np.abs(cloth - med))) + 1e-3
        thresh = max(9.0, med + 6.0 * 1.4826 * mad)
        mask = (dist > thresh).astype(np.uint8) * 255
        keep = 1.0 - cv2.dilate(mask, np.ones((5, 5), np.uint8)).astype(np.float32) / 255
        wts = cv2.resize(keep, (gw, gh), interpolation=cv2.INTER_AREA)
        sums = cv2.resize(lab * keep[:, :, None], (gw, gh), interpolation=cv2.INTER_AREA)
        near = _smooth(sums, wts, 1.5)
        far = _smooth(sums, wts, 6.0)
        wn = cv2.GaussianBlur(wts, (0, 0), 1.5)[:, :, None]
        bg_blocks = np.where(wn > 0.25, near, far)
        bg = cv2.resize(bg_blocks, (w, h), interpolation=cv2.INTER_LINEAR)
    r = max(1, round(1.5 * px_per_mm))
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, ker)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    # the calibration markers (and their white quiet zones) are not pieces
    rad = round(marker_mm * 1.05 * px_per_mm)
    for cx, cy in ((0, 0), (w, 0), (w, h), (0, h)):
        cv2.rectangle(mask, (cx - rad, cy - rad), (cx + rad, cy + rad), 0, -1)
    return _fill_holes(mask, max_hole_mm2 * px_per_mm**2)


def _distance(lab: np.ndarray, bg: np.ndarray) -> np.ndarray:
    diff = lab - bg
    # Lightness varies with light and shadow more than colour does: count it for less.
    return np.sqrt(0.35 * diff[:, :, 0] ** 2 + diff[:, :, 1] ** 2 + diff[:, :, 2] ** 2)


def _smooth(sums: np.ndarray, wts: np.ndarray, sigma: float) -> np.ndarray:
    num = cv2.GaussianBlur(sums, (0, 0), sigma)
    den = cv2.GaussianBlur(wts, (0, 0), sigma)[:, :, None]
    return num / np.maximum(den, 1e-4)


def _fill_holes(mask: np.ndarray, max_hole: float) -> np.ndarray:
    """Cards whose middle looks like the cloth are still whole cards: fill enclosed holes smaller
    than a card (a card-sized hole is a gap in a grid of cards, and stays)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    out = mask.copy()
    for c, h in zip(contours, hierarchy[0], strict=True):
        if h[3] >= 0 and cv2.contourArea(c) < max_hole:
            cv2.drawContours(out, [c], -1, 255, -1)
    return out


def _rect_frame(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """A right-handed frame of a point set's minimum-area rectangle: corner origin, u, v, lengths."""
    rect = cv2.minAreaRect(points.astype(np.float32))
    box = cv2.boxPoints(rect).astype(np.float64)
    e1, e2 = box[1] - box[0], box[2] - box[1]
    l1, l2 = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
    u, v = e1 / max(l1, 1e-9), e2 / max(l2, 1e-9)
    origin = box[0]
    if u[0] * v[1] - u[1] * v[0] < 0:  # make v point clockwise of u (image y runs down)
        origin, u, v = box[1], -u, v
    return origin, u, v, l1, l2


def _angle_of(d: np.ndarray) -> float:
    """Clockwise angle from table "up" (0, -1) of direction d, in degrees."""
    return float(np.degrees(np.arctan2(d[0], -d[1])))


def _up_angle(d: np.ndarray, square: bool) -> float:
    """The direction along an axis closest to table "up", so an upright card reads 0 degrees."""
    a = _angle_of(d)
    period = 90.0 if square else 180.0
    return (a + period / 2) % period - period / 2


@dataclass(frozen=True)
class _GridFit:
    score: float
    key: tuple[float, float]
    long_along_u: bool
    nx: int
    ny: int
    cells: tuple[tuple[int, int], ...]


def _fit_grid(sub: np.ndarray, l1: float, l2: float, keys: Sequence[tuple[float, float]],
              px_per_mm: float) -> _GridFit | None:
    """The card grid (size class, orientation, cells) that best explains a region's mask."""
    area = float(np.count_nonzero(sub))
    best: _GridFit | None = None
    for key in keys:
        short, long_ = key
        for long_along_u in (True, False) if short != long_ else (True,):
            cw, ch = (long_, short) if long_along_u else (short, long_)
            cw, ch = cw * px_per_mm, ch * px_per_mm
            nx, ny = max(1, round(l1 / cw)), max(1, round(l2 / ch))
            ex, ey = abs(l1 - nx * cw) / cw, abs(l2 - ny * ch) / ch
            if ex > SIZE_SLACK or ey > SIZE_SLACK or nx * ny > 400:
                continue
            hh, ww = sub.shape
            xs = np.linspace(0, ww, nx + 1).round().astype(int)
            ys = np.linspace(0, hh, ny + 1).round().astype(int)
            cells, covered = [], 0.0
            for j in range(ny):
                for i in range(nx):
                    cell = sub[ys[j]:ys[j + 1], xs[i]:xs[i + 1]]
                    if cell.size and np.count_nonzero(cell) / cell.size >= CELL_COVER:
                        cells.append((i, j))
                        covered += np.count_nonzero(cell)
            if not cells:
                continue
            cell_area = (xs[1] - xs[0]) * (ys[1] - ys[0])
            explained = covered / max(area, 1.0)
            filled = covered / max(len(cells) * cell_area, 1.0)
            score = explained * min(1.0, filled) - 0.5 * (ex + ey)
            if explained >= EXPLAINED and (best is None or score > best.score):
                best = _GridFit(score, key, long_along_u, nx, ny, tuple(cells))
    return best


def find(frame: np.ndarray, calibration: Calibration, size_keys: Sequence[tuple[float, float]],
         px_per_mm: float = DETECT_PX_PER_MM) -> Detection:
    """Card-sized candidates, unexplained blobs and small pieces on the play area."""
    top = rectify(frame, calibration, px_per_mm)
    smallest = min((k[0] * k[1] for k in size_keys), default=2500.0) * px_per_mm**2
    mask = foreground(top, calibration.table.marker_mm, px_per_mm, max_hole_mm2=0.5 * smallest / px_per_mm**2)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    candidates: list[Candidate] = []
    blobs: list[Region] = []
    pieces: list[Region] = []
    regions: dict[int, Region] = {}
    narrowest = min((k[0] for k in size_keys), default=50.0) * px_per_mm
    for lab in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[lab])
        if area < MIN_PIECE_MM2 * px_per_mm**2:
            continue
        comp = (labels[y:y + h, x:x + w] == lab).astype(np.uint8) * 255
        pts = cv2.findNonZero(comp).reshape(-1, 2).astype(np.float64) + np.array([x, y], np.float64)
        origin, u, v, l1, l2 = _rect_frame(pts)
        if area < 0.45 * smallest or (max(l1, l2) < 0.9 * narrowest and area < 0.8 * smallest):
            pieces.append(_region(top, comp, (x, y), origin, u, v, l1, l2, area, lab, px_per_mm))
            continue
        # the region's mask in its own rectangle's frame (a along u, b along v, in px)
        m = np.array([[u[0], v[0], origin[0] - x], [u[1], v[1], origin[1] - y]])
        sub = cv2.warpAffine(comp, m, (max(1, round(l1)), max(1, round(l2))),
                             flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
        fit = _fit_grid(sub, l1, l2, size_keys, px_per_mm)
        if fit is None:
            blobs.append(_region(top, comp, (x, y), origin, u, v, l1, l2, area, lab, px_per_mm))
            continue
        regions[lab] = _region(top, comp, (x, y), origin, u, v, l1, l2, area, lab, px_per_mm)
        square = fit.key[0] == fit.key[1]
        long_dir = u if fit.long_along_u else v
        angle = _up_angle(long_dir, square)
        cw, ch = l1 / fit.nx, l2 / fit.ny
        short, long_ = fit.key
        half = np.array([short, long_]) / 2
        a = np.radians(angle)
        right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        for i, j in fit.cells:
            c = (origin + u * (i + 0.5) * cw + v * (j + 0.5) * ch) / px_per_mm
            corners = tuple((float(p[0]), float(p[1])) for p in (
                c - right * half[0] - down * half[1], c + right * half[0] - down * half[1],
                c + right * half[0] + down * half[1], c - right * half[0] + down * half[1]))
            candidates.append(Candidate((float(c[0]), float(c[1])), angle, fit.key, lab, corners))
    return Detection(candidates, blobs, pieces, regions, top, mask)


def _region(top: np.ndarray, comp: np.ndarray, offset: tuple[int, int], origin: np.ndarray, u: np.ndarray,
            v: np.ndarray, l1: float, l2: float, area: int, lab: int, px_per_mm: float) -> Region:
    x, y = offset
    crop = top[y:y + comp.shape[0], x:x + comp.shape[1]]
    inner = cv2.erode(comp, np.ones((3, 3), np.uint8))
    sel = inner if np.count_nonzero(inner) >= 8 else comp
    colour = cv2.mean(crop, mask=sel)[:3]
    c = (origin + u * l1 / 2 + v * l2 / 2) / px_per_mm
    return Region((float(c[0]), float(c[1])), (l1 / px_per_mm, l2 / px_per_mm), _angle_of(u),
                  area / px_per_mm**2, (int(colour[0]), int(colour[1]), int(colour[2])), lab)
