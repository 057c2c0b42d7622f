"""A pinhole camera over the table: the table-mm -> image-px homography and the lens distortion.

The camera hangs above the middle of the play area, tilted ``view_deg`` off vertical towards
``view_dir_deg`` and re-aimed at the middle; the focal length is chosen so that the play area and
its markers (plus a margin) just fit the image. Lens distortion is radial in the image, measured
in units of the half diagonal so its strength does not depend on the resolution.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def project(h: np.ndarray, points: Any) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    ph = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return ph[:, :2] / ph[:, 2:3]


def _look_at(table_mm: tuple[float, float], view_deg: float, view_dir_deg: float, roll_deg: float) -> tuple[np.ndarray, np.ndarray]:
    w, h = table_mm
    centre = np.array([w / 2, h / 2, 0.0])
    dist = 1.6 * max(w, h)
    t, p = math.radians(view_deg), math.radians(view_dir_deg)
    # z points into the table (x right, y down, right-handed): the camera sits at negative z.
    cam = centre + dist * np.array([math.sin(t) * math.cos(p), math.sin(t) * math.sin(p), -math.cos(t)])
    fwd = centre - cam
    fwd /= np.linalg.norm(fwd)
    ex = np.array([1.0, 0.0, 0.0])
    right = ex - fwd * float(ex @ fwd)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    r = math.radians(roll_deg)
    right, down = right * math.cos(r) + down * math.sin(r), -right * math.sin(r) + down * math.cos(r)
    rot = np.vstack([right, down, fwd])
    return rot, cam


def table_homography(table_mm: tuple[float, float], image_px: tuple[int, int], *, view_deg: float = 0.0,
                     view_dir_deg: float = 0.0, roll_deg: float = 0.0, fit_mm: float = 80.0) -> np.ndarray:
    """The homography table mm -> image px of the camera described above; the rectangle
    ``[-fit_mm, w + fit_mm] x [-fit_mm, h + fit_mm]`` fills the image as tightly as it can."""
    rot, cam = _look_at(table_mm, view_deg, view_dir_deg, roll_deg)
    t = -rot @ cam
    base = np.column_stack([rot[:, 0], rot[:, 1], t])  # normalised camera, focal 1
    w, h = table_mm
    box = np.array([[-fit_mm, -fit_mm], [w + fit_mm, -fit_mm], [w + fit_mm, h + fit_mm], [-fit_mm, h + fit_mm]])
    n = project(base, box)
    mid = (n.max(axis=0) + n.min(axis=0)) / 2
    span = n.max(axis=0) - n.min(axis=0)
    iw, ih = image_px
    f = min(iw / span[0], ih / span[1])
    k = np.array([[f, 0, iw / 2 - f * mid[0]], [0, f, ih / 2 - f * mid[1]], [0, 0, 1]])
    hom = k @ base
    return hom / hom[2, 2]


def _radius_unit(image_size: tuple[int, int]) -> float:
    return math.hypot(*image_size) / 2


def undistort_points(points_px: np.ndarray, image_size: tuple[int, int], k1: float) -> np.ndarray:
    """Distorted (as rendered) px -> ideal px: the mapping the renderer samples with."""
    pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
    if k1 == 0:
        return pts.copy()
    c = np.array(image_size, dtype=np.float64) / 2
    d = (pts - c) / _radius_unit(image_size)
    r2 = (d ** 2).sum(axis=1, keepdims=True)
    return c + (pts - c) * (1 + k1 * r2)


def distort_points(points_px: np.ndarray, image_size: tuple[int, int], k1: float) -> np.ndarray:
    """Ideal px -> where they appear in the rendered (distorted) image: inverts
    :func:`undistort_points` by fixed-point iteration (converges fast for |k1| < 0.3)."""
    ideal = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
    if k1 == 0:
        return ideal.copy()
    c = np.array(image_size, dtype=np.float64) / 2
    unit = _radius_unit(image_size)
    u = ideal - c
    d = u.copy()
    for _ in range(30):
        r2 = ((d / unit) ** 2).sum(axis=1, keepdims=True)
        d = u / (1 + k1 * r2)
    return c + d


def distortion_maps(image_size: tuple[int, int], k1: float) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap maps giving, for every rendered pixel, where to sample the ideal image. Computed
    on a coarse grid and resized: the field is smooth, and this keeps it a few milliseconds."""
    import cv2

    w, h = image_size
    step = 8
    gx, gy = np.meshgrid(np.linspace(0, w - 1, w // step + 1), np.linspace(0, h - 1, h // step + 1))
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    # Resize only the (small, smooth) displacement and add the exact identity back, so the coarse
    # grid's alignment costs hundredths of a pixel, not whole pixels.
    shift = (undistort_points(pts, image_size, k1) - pts).astype(np.float32)
    sx = cv2.resize(shift[:, 0].reshape(gx.shape), (w, h), interpolation=cv2.INTER_LINEAR)
    sy = cv2.resize(shift[:, 1].reshape(gx.shape), (w, h), interpolation=cv2.INTER_LINEAR)
    ix, iy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return ix + sx, iy + sy
