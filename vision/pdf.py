"""True-scale printable pages: A4 raster pages written to a PDF whose page size is exact.

Pillow writes one image per PDF page and sizes the page from the image's pixel count and the
``resolution`` given (points = pixels * 72 / dpi), so a page rendered at ``dpi`` pixels per inch
prints at true scale when the printer is set to 100 % (no "fit to page").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from .errors import VisionError
from .proxy.canvas import draw_text

A4_MM = (210.0, 297.0)
MM_PER_INCH = 25.4
PT_PER_INCH = 72.0


class PrintError(VisionError):
    """A printable document that cannot be made (bad size, nothing to print)."""


def mm_to_px(mm: float, dpi: int) -> int:
    return round(mm * dpi / MM_PER_INCH)


def blank_page(dpi: int, mode: str = "RGB") -> Image.Image:
    w, h = (mm_to_px(v, dpi) for v in A4_MM)
    return Image.new(mode, (w, h), 255 if mode in ("1", "L") else (255, 255, 255))


def draw_ruler(draw: ImageDraw.ImageDraw, x_px: float, y_px: float, length_mm: int, dpi: int, *,
               ink: int | tuple[int, int, int] = 0) -> None:
    """A millimetre ruler starting at (x, y): measure it on the printout to check the scale."""
    px = dpi / MM_PER_INCH
    line_w = max(1, round(0.2 * px))
    draw.line([(x_px, y_px), (x_px + length_mm * px, y_px)], fill=ink, width=line_w)  # type: ignore[arg-type]
    for mm in range(length_mm + 1):
        tick = 5.0 if mm % 10 == 0 else (3.5 if mm % 5 == 0 else 2.0)
        x = x_px + mm * px
        draw.line([(x, y_px), (x, y_px + tick * px)], fill=ink, width=line_w)  # type: ignore[arg-type]
        if mm % 10 == 0:
            draw_text(draw, (x, y_px + 6 * px), f"{mm // 10}", size=3 * px, fill=ink, anchor="ma")  # type: ignore[arg-type]
    draw_text(draw, (x_px + length_mm * px + 2 * px, y_px + 6 * px), "cm", size=3 * px, fill=ink)  # type: ignore[arg-type]


def save_pdf(path: str | Path, pages: Sequence[Image.Image], dpi: int) -> Path:
    """Write ``pages`` (all rendered at ``dpi``) as one PDF; returns the path written."""
    if not pages:
        raise PrintError("nothing to print: no pages were rendered")
    out = Path(path)
    if out.parent and not out.parent.exists():
        raise PrintError(f"{out}: the folder {out.parent} does not exist")
    first, rest = pages[0], list(pages[1:])
    # RGB pages go into the PDF as JPEG: keep the quality high so thin cut marks stay crisp.
    extra = {} if first.mode == "1" else {"quality": 92}
    first.save(out, "PDF", resolution=float(dpi), save_all=True, append_images=rest, **extra)
    return out


_MEDIABOX = re.compile(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]")


def page_sizes_mm(path: str | Path) -> list[tuple[float, float]]:
    """The (width, height) in mm of every page of a PDF, read from its MediaBox entries."""
    data = Path(path).read_bytes()
    sizes = []
    for m in _MEDIABOX.finditer(data):
        x0, y0, x1, y1 = (float(g) for g in m.groups())
        sizes.append(((x1 - x0) * MM_PER_INCH / PT_PER_INCH, (y1 - y0) * MM_PER_INCH / PT_PER_INCH))
    return sizes
