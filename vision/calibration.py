"""Locating the play area from the four ArUco markers at its corners.

Table coordinates: origin at marker 0's centre, x towards marker 1, y towards marker 3, in mm.
The markers' CENTRES are the play-area corners (0 top-left, 1 top-right, 2 bottom-right,
3 bottom-left). The homography is fitted to all sixteen marker corners, not just the centres, so a
single badly detected corner cannot dominate and the fit reports a meaningful reprojection error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.errors import CalibrationError, FrameError
from vision.observation import TableSpec

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_PLACES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}

# Frames bigger than this are refused rather than risking minutes of work or memory exhaustion.
MAX_PIXELS = 50_000_000
MIN_SIDE = 64
# A fit worse than this means the markers are not where the table spec says (wrong size, a marker
# swapped or moved off its corner): better to refuse than to report every card a few cm off.
MAX_REPROJECTION_PX = 12.0


def check_frame(frame: Any) -> np.ndarray:
    """The frame as a BGR uint8 array, or a FrameError saying in one sentence what is wrong."""
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy image array, not {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise FrameError(f"a frame must be 8-bit (uint8), not {frame.dtype}")
    if frame.ndim not in (2, 3) or (frame.ndim == 3 and frame.shape[2] not in (1, 3, 4)):
        raise FrameError(f"a frame must be height x width x 3 (BGR), not shape {tuple(frame.shape)}")
    h, w = frame.shape[:2]
    if h * w > MAX_PIXELS:
        raise FrameError(f"a {w}x{h} frame is too large to scan (at most {MAX_PIXELS // 1_000_000} megapixels)")
    if min(h, w) < MIN_SIDE:
        raise FrameError(f"a {w}x{h} frame is too small to scan (at least {MIN_SIDE} px a side)")
    if frame.ndim == 2 or frame.shape[2] == 1:
        frame = cv2.cvtColor(np.ascontiguousarray(frame.reshape(h, w)), cv2.COLOR_GRAY2BGR)
    elif frame.shape[2] == 4:
        frame = frame[:, :, :3]
    # A strided sample is enough to tell a blank frame (lens cap, blown-out exposure) cheaply.
    sample = frame[:: max(1, h // 64), :: max(1, w // 64)]
    if int(sample.max()) - int(sample.min()) < 16:
        level = int(sample.mean())
        what = "all black" if level < 40 else "all white" if level > 215 else "a single flat colour"
        raise FrameError(f"the frame is {what}: is the camera covered or the exposure wrong?")
    return np.ascontiguousarray(frame)


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), params)


_DETECTOR = _detector()


def marker_table_corners(marker_id: int, table: TableSpec) -> np.ndarray:
    """The four corners in mm of a marker laid upright on its play-area corner (TL, TR, BR, BL)."""
    cx = table.width_mm if marker_id in (1, 2) else 0.0
    cy = table.height_mm if marker_id in (2, 3) else 0.0
    h = table.marker_mm / 2
    return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]], np.float64)


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    if not len(pts):  # (OpenCV returns None for no points)
        return np.zeros((0, 2), np.float64)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


@dataclass(frozen=True)
class Calibration:
    """The homography between table millimetres and image pixels, and how well it fits."""

    table: TableSpec
    image_size: tuple[int, int]  # (width, height) of the frames it belongs to
    homography: np.ndarray = field(repr=False)  # table mm -> image px
    marker_corners_px: dict[int, np.ndarray] = field(repr=False)
    reprojection_error_px: float = 0.0

    @property
    def inverse(self) -> np.ndarray:
        return np.linalg.inv(self.homography)

    def to_image(self, points_mm: Any) -> np.ndarray:
        return _project(self.homography, np.asarray(points_mm, np.float64))

    def to_table(self, points_px: Any) -> np.ndarray:
        return _project(self.inverse, np.asarray(points_px, np.float64))

    @property
    def px_per_mm(self) -> float:
        """The mean image scale over the play area (how many pixels a millimetre spans)."""
        t = self.table
        corners = self.to_image([[0, 0], [t.width_mm, 0], [t.width_mm, t.height_mm], [0, t.height_mm]])
        scale: float = float(cv2.contourArea(corners.astype(np.float32)) / (t.width_mm * t.height_mm)) ** 0.5
        return scale

    def to_json(self) -> dict[str, Any]:
        return {
            "table_mm": [self.table.width_mm, self.table.height_mm],
            "marker_mm": self.table.marker_mm,
            "image_size": list(self.image_size),
            "homography": [[float(v) for v in row] for row in self.homography],
            "reprojection_error_px": round(self.reprojection_error_px, 3),
        }


def _missing_error(found: set[int], extra: str = "") -> CalibrationError:
    missing = tuple(i for i in range(4) if i not in found)
    names = "; ".join(f"marker {i} ({MARKER_PLACES[i]}) not seen" for i in missing)
    which = "is it" if len(missing) == 1 else "are they"
    return CalibrationError(f"{names}{extra}: {which} covered or outside the camera's view?", missing=missing)


def detect_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """Corners (4x2, marker's own TL, TR, BR, BL) of each calibration marker 0-3 found in gray."""
    corners, ids, _ = _DETECTOR.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for c, marker in zip(corners, ids.ravel(), strict=True):
        i = int(marker)
        if i not in MARKER_PLACES:
            continue
        c = c.reshape(4, 2).astype(np.float64)
        # With duplicates (a spare marker lying on the table) keep the larger: the real one is
        # the one printed at the configured size, and the spare is usually further away or smaller.
        if i not in found or cv2.contourArea(c.astype(np.float32)) > cv2.contourArea(found[i].astype(np.float32)):
            found[i] = c
    return found


def fit(markers: dict[int, np.ndarray], table: TableSpec, image_size: tuple[int, int]) -> Calibration:
    """The homography from all sixteen marker corners, whatever way round each marker was laid."""
    if any(i not in markers for i in range(4)):
        raise _missing_error(set(markers))
    centres_px = np.array([markers[i].mean(axis=0) for i in range(4)])
    centres_mm = np.array([marker_table_corners(i, table).mean(axis=0) for i in range(4)])
    rough, _ = cv2.findHomography(centres_mm, centres_px, 0)
    if rough is None or not np.all(np.isfinite(rough)):
        raise CalibrationError("the four markers are not laid out as a rectangle: check where each one lies")
    table_pts, image_pts = [], []
    for i in range(4):
        expected = _project(rough, marker_table_corners(i, table))
        # A marker laid rotated still has the same four corner positions: pair each detected
        # corner with the nearest expected one instead of trusting the marker's own corner order.
        d = np.linalg.norm(markers[i][:, None, :] - expected[None, :, :], axis=2)
        best_shift = min(range(4), key=lambda s: sum(d[k, (k + s) % 4] for k in range(4)))
        for k in range(4):
            image_pts.append(markers[i][k])
            table_pts.append(marker_table_corners(i, table)[(k + best_shift) % 4])
    tp, ip = np.array(table_pts), np.array(image_pts)
    h, _ = cv2.findHomography(tp, ip, 0)
    if h is None or not np.all(np.isfinite(h)):
        raise CalibrationError("the marker corners do not fit a flat table: check the markers lie flat")
    err = float(np.sqrt(np.mean(np.sum((_project(h, tp) - ip) ** 2, axis=1))))
    if err > MAX_REPROJECTION_PX:
        raise CalibrationError(
            f"the markers do not match a {table.width_mm:g}x{table.height_mm:g} mm play area with "
            f"{table.marker_mm:g} mm markers (fit error {err:.1f} px): check the table size and marker placement"
        )
    return Calibration(table, image_size, h, {i: markers[i].copy() for i in range(4)}, err)


def _gray(frame: np.ndarray) -> np.ndarray:
    return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def calibrate(frame: Any, table: TableSpec | None = None) -> Calibration:
    """Find the four markers in a whole frame and fit the play area, or say which are missing."""
    table = table or TableSpec()
    frame = check_frame(frame)
    gray = _gray(frame)
    markers = detect_markers(gray)
    if len(markers) < 4 and max(gray.shape) > 1600:
        # Small markers far from the camera can fall under the detector's minimum size at full
        # resolution; an upscaled pass is slow, so instead retry with a relaxed minimum perimeter.
        markers.update({k: v for k, v in _detect_small(gray).items() if k not in markers})
    return fit(markers, table, (frame.shape[1], frame.shape[0]))


def _detect_small(gray: np.ndarray) -> dict[int, np.ndarray]:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.minMarkerPerimeterRate = 0.01
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), params)
    corners, ids, _ = det.detectMarkers(gray)
    out: dict[int, np.ndarray] = {}
    if ids is not None:
        for c, i in zip(corners, ids.ravel(), strict=True):
            if int(i) in MARKER_PLACES:
                out[int(i)] = c.reshape(4, 2).astype(np.float64)
    return out


# How far (px) a marker corner may move before the cached homography is refitted.
STILL_PX = 1.0
# Re-checking first follows each marker's corners from where they were (the same sub-pixel
# refinement ArUco ends with, in a window this many px each side) and reads its cells there.
TRACK_WIN = 5
TRACK_CELL_PX = 6  # px per marker cell when reading the cells
TRACK_CONTRAST = 40  # gray levels between the darkest and the lightest cell of a marker in view
_SUBPIX = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 0.1)  # as ArUco's CORNER_REFINE_SUBPIX
_BITS: dict[int, np.ndarray] = {}


def _expected_cells(marker_id: int) -> np.ndarray:
    """The marker's cells (border included) as booleans, True where white, upright."""
    cells = _BITS.get(marker_id)
    if cells is None:
        side = 4 + 2  # DICT_4X4 bits and a one-cell black border
        img = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY), marker_id, side, borderBits=1)
        cells = img > 127
        _BITS[marker_id] = cells
    return cells


def _track(gray: np.ndarray, corners: np.ndarray, marker_id: int) -> np.ndarray | None:
    """The marker's corners refined from their last place in gray (corners in gray's pixels, the
    marker's own order), or None unless the very same marker is plainly still there: every corner
    found within the window, every cell read as it is printed, with clear contrast. None only
    means "look for it properly"."""
    h, w = gray.shape
    margin = TRACK_WIN + 2
    if corners.min() < margin or corners[:, 0].max() > w - 1 - margin or corners[:, 1].max() > h - 1 - margin:
        return None
    pts = corners.astype(np.float32).reshape(-1, 1, 2)
    cv2.cornerSubPix(gray, pts, (TRACK_WIN, TRACK_WIN), (-1, -1), _SUBPIX)
    new = pts.reshape(4, 2).astype(np.float64)
    if not np.all(np.isfinite(new)) or float(np.abs(new - corners).max()) > TRACK_WIN - 1:
        return None  # the refinement wandered off: the marker moved further than it can follow
    expected = _expected_cells(marker_id)
    n = expected.shape[0]
    c = TRACK_CELL_PX
    target = np.array([[0, 0], [n * c, 0], [n * c, n * c], [0, n * c]], np.float32)
    m = cv2.getPerspectiveTransform(new.astype(np.float32), target)
    img = cv2.warpPerspective(gray, m, (n * c, n * c), flags=cv2.INTER_LINEAR)
    # the middle of each cell, away from the blur of its edges
    cells = img.reshape(n, c, n, c)[:, 1:c - 1, :, 1:c - 1].mean(axis=(1, 3))
    lo, hi = float(cells.min()), float(cells.max())
    if hi - lo < TRACK_CONTRAST or not np.array_equal(cells > (lo + hi) / 2, expected):
        return None
    return new


def recheck(frame: Any, calibration: Calibration) -> Calibration:
    """Confirm a cached calibration on a new frame by looking only near each marker's last place.

    Returns the same object when nothing moved, and otherwise (a bumped table, a marker gone from
    its region) the whole-frame calibration of the new frame.
    Raises CalibrationError naming markers that are gone (covered by a hand, say).
    """
    frame = check_frame(frame)
    h, w = frame.shape[:2]
    if (w, h) != calibration.image_size:
        return calibrate(frame, calibration.table)
    found: dict[int, np.ndarray] = {}
    for i, old in calibration.marker_corners_px.items():
        # first the cheap way: follow the corners from where they were and read the cells there
        pad = TRACK_WIN + 4
        x0, y0 = np.floor(old.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(old.max(axis=0)).astype(int) + pad + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 - x0 >= 8 and y1 - y0 >= 8:
            got = _track(_gray(frame[y0:y1, x0:x1]), old - np.array([x0, y0], np.float64), i)
            if got is not None:
                found[i] = got + np.array([x0, y0], np.float64)
                continue
        # then the detector, in a region around the marker's last place
        side = float(np.linalg.norm(old[0] - old[2])) / 1.4142
        pad = int(side * 0.6) + 8
        x0, y0 = np.floor(old.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(old.max(axis=0)).astype(int) + pad
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        roi = _gray(frame[y0:y1, x0:x1])
        detected = detect_markers(roi)
        if i in detected:
            found[i] = detected[i] + np.array([x0, y0], np.float64)
    if len(found) < 4:
        return calibrate(frame, calibration.table)
    moved = max(float(np.abs(found[i] - calibration.marker_corners_px[i]).max()) for i in range(4))
    if moved <= STILL_PX:
        return calibration
    # Something moved (a bumped table) or the following settled a little apart from the whole-frame
    # detector's corners (about 1.1 px on a blurred, distorted frame): calibrate afresh, so a frame
    # always gets the same calibration whatever was scanned before it (a refit from the followed
    # corners read the same frame 8.6 px loose the first time and 9.8 px the second).
    return calibrate(frame, calibration.table)
