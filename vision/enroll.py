"""Owner packs: photograph your own cards and enrol them as the faces the recogniser learns.

One photo per card face, the card lying flat on a plain surface that contrasts with it. The card
is the largest quadrilateral in the photo with the card's proportions; it is straightened by a
perspective warp to its physical aspect and saved as the face, top of the photo up. A card lying sideways
is taken to lie a quarter turn clockwise (its top to the right) and is turned back; a square tile
is kept as photographed. So photograph cards upright when you can.

Photos name their card: ``<id>.jpg`` (``<id>-2.jpg``, ``<id>-3.jpg`` for more photos of the same
design), or a mapping file (JSON ``{"photo.jpg": "id"}`` or CSV lines ``photo.jpg,id``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .errors import VisionError
from .markers import dictionary
from .pack import IMAGE_SUFFIXES, Pack, catalog_items, write_pack

ENROL_PX_PER_MM = 10.0
_WORK_SIDE = 1000  # px: long side of the copy the card is searched in


class EnrollError(VisionError):
    """A photo or folder that cannot be enrolled: no card, several cards, unknown id, bad file."""


def _check_frame(frame: Any) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise EnrollError("the picture must be a uint8 image array")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise EnrollError(f"the picture must be a BGR image, not an array of shape {frame.shape}")
    if frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if min(frame.shape[:2]) < 32 or max(frame.shape[:2]) > 20000:
        raise EnrollError(f"the picture is {frame.shape[1]}x{frame.shape[0]} px: too small or too large")
    return frame


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left (image coordinates)."""
    pts = quad.reshape(4, 2).astype(np.float64)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise on screen, starting near -180 degrees (left)
    start = int(np.argmin(pts.sum(axis=1)))  # the top-left has the smallest x + y
    return np.roll(pts, -start, axis=0)


def _sides(q: np.ndarray) -> tuple[float, float]:
    top = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    left = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    return float(top), float(left)


def _refine(q: np.ndarray, strength: np.ndarray, reach_frac: float = 0.08) -> np.ndarray:
    """Snap each side of a rough quad onto the strongest edge next to it (a robust line fit
    through the edge points found along the side's normal), then re-intersect the sides: the
    blob outline is a few pixels off (soft shadow, rounded corners), the card's edge is not."""
    h, w = strength.shape
    lines = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        if length < 8:
            return q
        d = (b - a) / length
        n = np.array([-d[1], d[0]])
        reach = max(4, int(reach_frac * length))
        offsets = np.arange(-reach, reach + 1)
        pts = []
        for t in np.linspace(0.12, 0.88, 48):
            p = a + t * (b - a)
            samples = p[None, :] + offsets[:, None] * n[None, :]
            xs = np.clip(np.round(samples[:, 0]).astype(int), 0, w - 1)
            ys = np.clip(np.round(samples[:, 1]).astype(int), 0, h - 1)
            vals = strength[ys, xs]
            if vals.max() <= 0:
                continue
            # The normal points into the card (corners run clockwise): the first strong edge met
            # coming from outside is the card's rim; printed borders inside it are often stronger.
            pts.append(samples[int(np.argmax(vals >= 0.3 * vals.max()))])
        if len(pts) < 8:
            return q
        vx, vy, x0, y0 = cv2.fitLine(np.array(pts, np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], float), np.array([vx, vy], float)))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return q
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    refined = np.array(out)
    if np.abs(refined - q).max() > 0.15 * max(_sides(q)):
        return q  # the fit ran off to some other edge: keep the outline
    return refined


def _candidates(img: np.ndarray, markers: list[np.ndarray] | None = None, min_area: float | None = None) -> list[np.ndarray]:
    """Quadrilaterals (in ``img`` px) standing out from the background, largest first;
    ``markers`` are the corners of calibration markers seen in ``img``, never cards."""
    markers = markers or []
    h, w = img.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[:8].reshape(-1, 3), lab[-8:].reshape(-1, 3), lab[:, :8].reshape(-1, 3),
                             lab[:, -8:].reshape(-1, 3)])
    bg = np.median(border, axis=0)
    dist = np.linalg.norm(lab - bg, axis=2)
    for m in markers:
        # The calibration markers' black-on-white paper is the strongest contrast in a table
        # frame: left in, Otsu would split markers from everything else and lose a pale card.
        c = m.mean(axis=0)
        paper = (c + (m - c) * 1.9).astype(np.int32)
        cv2.fillConvexPoly(dist, paper, 0.0)
    dist8 = np.clip(dist * (255.0 / max(float(dist.max()), 1.0)), 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)
    strength = np.sqrt((gx ** 2 + gy ** 2).sum(axis=2))
    # Parts of a face may match the table's colour (Big Sur's gray road across the card): closing
    # the mask at growing sizes joins them into one card, while separate cards stay apart at the
    # smaller sizes.
    raw = cv2.morphologyEx(((dist8 > otsu) * 255).astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    masks = [raw]
    if markers:
        # A whole-table frame: a small card is too little of the view for Otsu, and the table's
        # light varies across it. Compare each pixel with the table around it instead (a median
        # far wider than a card, sized from the markers), against the table's own spread.
        side = float(np.mean([np.linalg.norm(m[1] - m[0]) for m in markers]))
        k = int(side * 4) | 1  # markers are 40 mm: about 160 mm of table around each pixel
        step = max(1, k // 31)  # the median runs on a reduced copy: medianBlur is slow for wide kernels
        small = cv2.resize(img, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_AREA)
        local = cv2.medianBlur(small, max(3, (k // step) | 1))
        local = cv2.resize(local, (w, h), interpolation=cv2.INTER_LINEAR)
        lab_local = cv2.cvtColor(local, cv2.COLOR_BGR2LAB).astype(np.float32)
        near = np.linalg.norm(lab - lab_local, axis=2)
        for m in markers:
            c = m.mean(axis=0)
            cv2.fillConvexPoly(near, (c + (m - c) * 1.9).astype(np.int32), 0.0)
        med = float(np.median(near))
        spread = 1.4826 * float(np.median(np.abs(near - med)))
        level = max(12.0, med + 6 * spread)
        local_mask = cv2.morphologyEx(((near > level) * 255).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        masks.append(local_mask)
    contours: list[np.ndarray] = []
    for source in masks:
        for k in (9, round(0.06 * min(w, h)), round(0.12 * min(w, h))):
            kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, k), max(3, k)))
            mask = cv2.morphologyEx(source, cv2.MORPH_CLOSE, kernel)
            contours += list(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])
    found: list[tuple[float, np.ndarray]] = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < (min_area if min_area is not None else 0.0025 * w * h):
            continue
        hull = cv2.convexHull(c)
        quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(quad) != 4:
            rect = cv2.minAreaRect(hull)
            if area < 0.8 * rect[1][0] * rect[1][1]:
                continue  # not card-like: a hand, a blob
            quad = cv2.boxPoints(rect)
        q = _order(np.asarray(quad, np.float64))
        # The whole photo's frame (a card filling the picture edge to edge) is no find.
        if np.all((q[:, 0] < 3) | (q[:, 0] > w - 4) | (q[:, 1] < 3) | (q[:, 1] > h - 4)):
            continue
        q = _refine(_refine(q, strength, 0.08), strength, 0.03)
        found.append((float(cv2.contourArea(q.astype(np.float32))), q))
    found.sort(key=lambda t: -t[0])
    return [q for _, q in found]


def _distinct(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Drop quads whose centre lies inside a larger one already kept (the same card found at
    another closing size, or a part of it)."""
    kept: list[np.ndarray] = []
    for q in quads:
        c = q.mean(axis=0)
        if all(cv2.pointPolygonTest(k.astype(np.float32), (float(c[0]), float(c[1])), False) < 0 for k in kept):
            kept.append(q)
    return kept


def find_card(frame: Any, card_size_mm: tuple[float, float], *, marker_mm: float = 40.0) -> np.ndarray:
    """The four corners (TL, TR, BR, BL, frame px) of the one card in ``frame``. When the frame
    shows calibration markers (``marker_mm`` a side) they set the scale the card must match."""
    img = _check_frame(frame)
    cw, ch = (float(v) for v in card_size_mm)
    if not (0 < cw <= 1000 and 0 < ch <= 1000):
        raise EnrollError(f"card size {card_size_mm} mm is out of range")
    scale = min(1.0, _WORK_SIDE / max(img.shape[:2]))
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else img
    want = min(cw, ch) / max(cw, ch)
    # In a frame from the table camera the calibration markers' paper squares look like square
    # tiles: nothing that holds a marker is a card.
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters()).detectMarkers(
        cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
    found_markers = [c.reshape(4, 2).astype(np.float64) for c in corners] if ids is not None else []
    marker_centres = [m.mean(axis=0) for m in found_markers]
    expected = None
    if found_markers:
        # The markers give the scale: a card of this size covers about this many pixels.
        side = float(np.mean([np.linalg.norm(m[1] - m[0]) for m in found_markers]))
        expected = cw * ch * (side / marker_mm) ** 2
    cards = []
    for q in _candidates(small, found_markers, None if expected is None else 0.4 * expected):
        if expected is not None and not 0.5 * expected <= cv2.contourArea(q.astype(np.float32)) <= 2.0 * expected:
            continue
        poly = q.astype(np.float32)
        if any(cv2.pointPolygonTest(poly, (float(m[0]), float(m[1])), False) >= 0 for m in marker_centres):
            continue
        top, left = _sides(q)
        ratio = min(top, left) / max(top, left)
        if abs(ratio - want) <= 0.07:  # a tilted photo bends the ratio a little; two cards side by side do not pass
            cards.append(q)
    cards = _distinct(cards)
    if not cards:
        raise EnrollError("no card found: lay the card flat on a plain surface that contrasts with it, whole card in view")
    areas = [cv2.contourArea(q.astype(np.float32)) for q in cards]
    if len(cards) > 1 and areas[1] > 0.5 * areas[0]:
        raise EnrollError(f"{len(cards)} cards found: photograph one card at a time")
    return cards[0] / scale


def enroll_from_frame(frame: Any, card_size_mm: tuple[float, float], *, px_per_mm: float = ENROL_PX_PER_MM,
                      marker_mm: float = 40.0) -> np.ndarray:
    """The straightened face (BGR, ``card_size_mm`` at ``px_per_mm``) of the one card in ``frame``;
    :class:`EnrollError` when there is no card or more than one."""
    img = _check_frame(frame)
    q = find_card(img, card_size_mm, marker_mm=marker_mm)
    cw, ch = (float(v) for v in card_size_mm)
    top, left = _sides(q)
    if (top > left) != (cw > ch) and abs(cw - ch) > 1e-6:
        q = np.roll(q, -1, axis=0)  # lying a quarter turn clockwise: its top-left is the photo's top-right
    ow, oh = round(cw * px_per_mm), round(ch * px_per_mm)
    dst = np.array([[0, 0], [ow - 1, 0], [ow - 1, oh - 1], [0, oh - 1]], np.float32)
    m = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    # A sliver of the edge is trimmed by the warp's own interpolation; keep the full face.
    return cv2.warpPerspective(img, m, (ow, oh), flags=cv2.INTER_AREA if px_per_mm < 5 else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


# -- folders -----------------------------------------------------------------------------------

_NUMBERED = re.compile(r"^(?P<id>.+?)-(?P<n>\d+)$")


def read_mapping(path: Path) -> dict[str, str]:
    """photo file name -> card id, from a JSON object or a two-column CSV (photo, id)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise EnrollError(f"{path}: cannot read the mapping: {exc}") from None
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise EnrollError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
            raise EnrollError(f"{path}: the mapping must be a JSON object of \"photo file\": \"card id\"")
        return dict(data)
    out: dict[str, str] = {}
    for n, row in enumerate(csv.reader(io.StringIO(text)), 1):
        if not row or not "".join(row).strip() or row[0].startswith("#"):
            continue
        if len(row) != 2:
            raise EnrollError(f"{path}: line {n}: expected 'photo file,card id'")
        photo, ident = row[0].strip(), row[1].strip()
        if n == 1 and (photo.lower(), ident.lower()) in {("photo", "id"), ("file", "id"), ("photo", "card")}:
            continue
        out[photo] = ident
    return out


def photos_by_card(folder: Path, mapping: Mapping[str, str] | None, known: set[str] | None) -> dict[str, list[Path]]:
    if not folder.is_dir():
        raise EnrollError(f"{folder}: not a folder of photos")
    photos = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not photos:
        raise EnrollError(f"{folder}: no photos ({', '.join(IMAGE_SUFFIXES)}) in this folder")
    out: dict[str, list[Path]] = {}
    for photo in photos:
        if mapping is not None:
            if photo.name not in mapping:
                continue  # photos the mapping does not name are not part of this enrolment
            ident = mapping[photo.name]
        else:
            ident = photo.stem
            if known is not None and ident not in known:
                m = _NUMBERED.match(ident)
                if m and m.group("id") in known:
                    ident = m.group("id")
        if known is not None and ident not in known:
            raise EnrollError(f"{photo}: {ident!r} is not a card id of this game (see `companion cards list`)")
        out.setdefault(ident, []).append(photo)
    if mapping is not None:
        missing = sorted(set(mapping) - {p.name for p in photos})
        if missing:
            raise EnrollError(f"the mapping names {len(missing)} photo(s) not in {folder}, e.g. {missing[0]!r}")
    return out


def enroll_folder(game: str, photos: str | Path, out: str | Path, *, mapping: str | Path | None = None,
                  card_size_mm: tuple[float, float] | None = None) -> Pack:
    """Build an owner pack in ``out`` from a folder of photos. Either every photo enrols or
    nothing is written (the error lists the photos that failed)."""
    items = catalog_items(game)
    sizes: dict[str, tuple[float, float]] = {}
    if items is not None:
        sizes = {str(i["id"]): (float(i["size_mm"][0]), float(i["size_mm"][1])) for i in items}
    elif card_size_mm is None:
        raise EnrollError(f"the {game} engine is not installed: give the card size (--card-mm WxH)")
    table = read_mapping(Path(mapping)) if mapping is not None else None
    groups = photos_by_card(Path(photos), table, set(sizes) if items is not None else None)
    if not groups:
        raise EnrollError(f"{photos}: no photo is named in the mapping")
    faces: dict[str, list[np.ndarray]] = {}
    problems: list[str] = []
    for ident, paths in groups.items():
        size = card_size_mm if card_size_mm is not None else sizes[ident]
        for path in paths:
            data = np.fromfile(str(path), dtype=np.uint8)
            img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
            if img is None:
                problems.append(f"{path.name}: not a readable image")
                continue
            try:
                faces.setdefault(ident, []).append(enroll_from_frame(img, size))
            except EnrollError as exc:
                problems.append(f"{path.name}: {exc}")
    if problems:
        total = sum(len(p) for p in groups.values())
        raise EnrollError(f"{len(problems)} of {total} photos failed, nothing written: " + "; ".join(problems[:3])
                          + ("; ..." if len(problems) > 3 else ""))
    counts: dict[tuple[float, float], int] = {}
    for ident in faces:
        s = card_size_mm if card_size_mm is not None else sizes[ident]
        counts[s] = counts.get(s, 0) + 1
    main = max(counts, key=lambda s: counts[s])
    per_card = {i: (card_size_mm if card_size_mm is not None else sizes[i]) for i in faces}
    return write_pack(out, game, main, faces, kind="owner", sizes_mm=per_card)
