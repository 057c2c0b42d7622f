"""The four calibration markers: images for the renderer and the detector, and a printable PDF.

DESIGN.md, Calibration: ArUco DICT_4X4_50, ids 0-3 clockwise from the top-left, whose CENTRES are
the corners of the play area. Table coordinates start at marker 0's centre, x runs towards
marker 1 and y towards marker 3, in millimetres.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from .errors import VisionError
from .pdf import PrintError, blank_page, draw_ruler, mm_to_px, save_pdf
from .proxy.canvas import draw_text

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
CORNER_NAMES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
_BITS = 4  # DICT_4X4_*: a 4x4 bit grid inside the black border

PDF_DPI = 600  # bilevel pages: exact to 0.05 mm and still a small file


class MarkerError(VisionError):
    """A marker that cannot be drawn (unknown id, too few pixels)."""


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)


def marker_image(marker_id: int, side_px: int, border_bits: int = 1) -> np.ndarray:
    """Marker ``marker_id`` as a gray uint8 square of ``side_px`` pixels (black border included,
    no white quiet zone: leave white around it when you place it)."""
    if isinstance(marker_id, bool) or not isinstance(marker_id, int | np.integer) or not 0 <= marker_id < 50:
        raise MarkerError(f"marker id {marker_id!r} is not in DICT_4X4_50 (0 to 49)")
    if isinstance(border_bits, bool) or not isinstance(border_bits, int | np.integer) or not 1 <= border_bits <= 4:
        raise MarkerError(f"border_bits must be 1 to 4, not {border_bits!r}")
    cells = _BITS + 2 * int(border_bits)
    if isinstance(side_px, bool) or not isinstance(side_px, int | np.integer) or side_px < cells:
        raise MarkerError(f"a marker needs at least {cells} pixels a side, not {side_px!r}")
    # Drawn at one pixel per bit and scaled with nearest neighbour: crisp at any size, even when
    # side_px is not a multiple of the bit count.
    small = cv2.aruco.generateImageMarker(dictionary(), int(marker_id), cells, borderBits=int(border_bits))
    return cv2.resize(small, (int(side_px), int(side_px)), interpolation=cv2.INTER_NEAREST)


def marker_corners_mm(table: tuple[float, float] = (1000, 700), marker_mm: float = 40) -> dict[int, np.ndarray]:
    """Each marker's four corners in table mm (top-left, top-right, bottom-right, bottom-left of
    the printed square, as cv2.aruco reports them), markers laid square to the table edges."""
    w, h = table
    centres = {0: (0.0, 0.0), 1: (w, 0.0), 2: (w, h), 3: (0.0, h)}
    half = marker_mm / 2
    offsets = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    return {i: np.asarray(c) + offsets for i, c in centres.items()}


def _marker_page(marker_id: int, marker_mm: float, table: tuple[float, float], dpi: int) -> Image.Image:
    page = blank_page(dpi, "L")
    draw = ImageDraw.Draw(page)
    px = dpi / 25.4
    pw = page.size[0]
    side = mm_to_px(marker_mm, dpi)
    cx, cy = pw // 2, round(110 * px)
    x0, y0 = cx - side // 2, cy - side // 2
    page.paste(Image.fromarray(marker_image(marker_id, side)), (x0, y0))
    # Cross-hair ticks outside the white quiet zone show where the centre (the play-area corner) is.
    quiet = max(side * 0.25, 8 * px)
    for sx, sy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        a = (cx + sx * (side / 2 + quiet), cy + sy * (side / 2 + quiet))
        b = (cx + sx * (side / 2 + quiet + 15 * px), cy + sy * (side / 2 + quiet + 15 * px))
        draw.line([a, b], fill=0, width=max(1, round(0.4 * px)))
    name = CORNER_NAMES[marker_id]
    w, h = table
    draw_text(draw, (cx, round(15 * px)), f"Calibration marker {marker_id}", size=9 * px, fill=0, bold=True, anchor="ma")  # type: ignore[arg-type]
    draw_text(draw, (cx, round(28 * px)), f"goes at the {name.upper()} corner of the play area", size=6 * px, fill=0, anchor="ma")  # type: ignore[arg-type]
    others = {0: f"marker 1 is {w:g} mm to its right, marker 3 is {h:g} mm below it",
              1: f"marker 0 is {w:g} mm to its left, marker 2 is {h:g} mm below it",
              2: f"marker 3 is {w:g} mm to its left, marker 1 is {h:g} mm above it",
              3: f"marker 2 is {w:g} mm to its right, marker 0 is {h:g} mm above it"}[marker_id]
    lines = [
        f"The CENTRE of the black square is the {name} corner of the {w:g} x {h:g} mm play area:",
        others + ".",
        "Ids run clockwise from the top-left: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.",
        "Lay it flat, square to the table edge, with this text upright as seen from the south seat.",
        "Keep the white margin round the square clear; do not cover it with cards.",
        "",
        f"PRINT AT 100 % (actual size; no 'fit to page'). The square must measure {marker_mm:g} mm;",
        "check it, and the ruler below, with a real ruler before you calibrate.",
    ]
    y = round(170 * px)
    for line in lines:
        draw_text(draw, (round(15 * px), y), line, size=4.2 * px, fill=0, max_w=pw - 30 * px)  # type: ignore[arg-type]
        y += round(7 * px)
    draw_ruler(draw, round(15 * px), y + round(6 * px), 150, dpi)
    draw_text(draw, (round(15 * px), y + round(20 * px)), "150 mm ruler", size=3.5 * px, fill=0)  # type: ignore[arg-type]
    return page.point(lambda v: 255 if v >= 128 else 0).convert("1")


def markers_pdf(path: str | Path, marker_mm: float = 40, table: tuple[float, float] = (1000, 700)) -> Path:
    """Write the four markers, one per A4 page at true scale, to ``path``; returns the path."""
    if not isinstance(marker_mm, int | float) or isinstance(marker_mm, bool) or not 10 <= marker_mm <= 150:
        raise PrintError(f"marker size must be 10 to 150 mm to fit an A4 page, not {marker_mm!r}")
    try:
        w, h = (float(v) for v in table)
    except (TypeError, ValueError):
        raise PrintError(f"table size must be (width, height) in mm, not {table!r}") from None
    if not (w > 2 * marker_mm and h > 2 * marker_mm and w <= 5000 and h <= 5000):
        raise PrintError(f"a {w:g} x {h:g} mm play area does not fit {marker_mm:g} mm markers")
    pages = [_marker_page(i, float(marker_mm), (w, h), PDF_DPI) for i in MARKER_IDS]
    return save_pdf(path, pages, PDF_DPI)
