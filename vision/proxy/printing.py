"""Print-and-play: every physical card of a game at true size on A4, with cut marks.

A *print plan* lists the physical pieces: (front design, back design or None), one entry per
copy. By default each catalog item is a single-sided piece printed ``count`` times; a game's
designer module may define ``print_plan(items)`` for double-sided cards (Big Sur's Highway /
Material sides). Fronts and backs go on alternate pages, the back page mirrored left to right so
that a long-edge duplex print (or glueing the two sheets back to back) lines them up.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ..errors import PackError
from ..pdf import A4_MM, PrintError, blank_page, draw_ruler, mm_to_px, save_pdf
from . import _DESIGNERS, render_face, validate_items
from .canvas import draw_text

PRINT_DPI = 300
MARGIN_MM = 10.0  # three 63 mm cards across an A4 page; the cut marks go in the margin
TOP_MM = 9.0  # the grid starts here; the title and the ruler go below it
CUT_MARK_MM = 5.0

Piece = tuple[str, str | None]  # (front id, back id)


def default_plan(items: Sequence[dict[str, Any]]) -> list[Piece]:
    return [(str(it["id"]), None) for it in items for _ in range(int(it["count"]))]


def print_plan(game: str, items: Sequence[dict[str, Any]]) -> list[Piece]:
    module_name = _DESIGNERS.get(game)
    if module_name:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            module = None
        plan = getattr(module, "print_plan", None) if module is not None else None
        if plan is not None:
            return list(plan(items))
    return default_plan(items)


def _grid(size_mm: tuple[float, float]) -> tuple[int, int]:
    usable_w = A4_MM[0] - 2 * MARGIN_MM
    usable_h = A4_MM[1] - TOP_MM - 20.0  # cut marks, title and ruler below
    return int(usable_w // size_mm[0]), int(usable_h // size_mm[1])


def _page(title: str, size_mm: tuple[float, float], faces: Sequence[np.ndarray | None], *, mirrored: bool,
          dpi: int) -> Image.Image:
    page = blank_page(dpi)
    draw = ImageDraw.Draw(page)
    px = dpi / 25.4
    cols, rows = _grid(size_mm)
    w, h = size_mm
    grid_w, grid_h = cols * w, rows * h
    x0 = (A4_MM[0] - grid_w) / 2
    y0 = TOP_MM
    for k, face in enumerate(faces):
        if face is None:
            continue
        c, r = k % cols, k // cols
        if mirrored:
            c = cols - 1 - c
        left, top = x0 + c * w, y0 + r * h
        img = cv2.resize(face, (mm_to_px(left + w, dpi) - mm_to_px(left, dpi), mm_to_px(top + h, dpi) - mm_to_px(top, dpi)),
                         interpolation=cv2.INTER_AREA)
        page.paste(Image.fromarray(img[:, :, ::-1]), (mm_to_px(left, dpi), mm_to_px(top, dpi)))
    # Cut marks in the margin, in line with every card edge: cut along them edge to edge.
    ink = (0, 0, 0)
    lw = max(1, round(0.15 * px))
    gap = 1.5
    for c in range(cols + 1):
        x = (x0 + c * w) * px
        draw.line([(x, (y0 - gap - CUT_MARK_MM) * px), (x, (y0 - gap) * px)], fill=ink, width=lw)
        draw.line([(x, (y0 + grid_h + gap) * px), (x, (y0 + grid_h + gap + CUT_MARK_MM) * px)], fill=ink, width=lw)
    for r in range(rows + 1):
        y = (y0 + r * h) * px
        draw.line([((x0 - gap - CUT_MARK_MM) * px, y), ((x0 - gap) * px, y)], fill=ink, width=lw)
        draw.line([((x0 + grid_w + gap) * px, y), ((x0 + grid_w + gap + CUT_MARK_MM) * px, y)], fill=ink, width=lw)
    # The title and a 50 mm ruler under the grid: measure the ruler to check the print is 100 %.
    below = min(y0 + grid_h + CUT_MARK_MM + 3.5, A4_MM[1] - 12)
    draw_text(draw, (MARGIN_MM * px, below * px), title, size=2.8 * px, fill=ink, max_w=(A4_MM[0] - 2 * MARGIN_MM - 60) * px)
    draw_ruler(draw, (A4_MM[0] - MARGIN_MM - 55) * px, below * px, 50, dpi)
    return page


def cards_pdf(game: str, path: str | Path, items: Sequence[dict[str, Any]], *, title: str = "",
              dpi: int = PRINT_DPI, backs: bool = True) -> tuple[Path, int, int]:
    """Write the print-and-play PDF; returns (path, pieces, pages)."""
    validate_items(game, items)
    by_id = {str(it["id"]): it for it in items}
    plan = print_plan(game, items)
    if not plan:
        raise PrintError(f"the {game} catalog has no cards to print")
    for front, back in plan:
        for ident in (front, back):
            if ident is not None and ident not in by_id:
                raise PackError(f"{game} print plan names {ident!r}, which is not in the catalog")
    if not backs:
        plan = [(f, None) for f, _ in plan]
    px_per_mm = dpi / 25.4
    cache: dict[str, np.ndarray] = {}

    def face(ident: str) -> np.ndarray:
        if ident not in cache:
            cache[ident] = render_face(game, by_id[ident], px_per_mm)
        return cache[ident]

    # Pieces of one physical size share pages; sizes in order of first appearance.
    groups: dict[tuple[float, float], list[Piece]] = {}
    for front, back in plan:
        w, h = (float(v) for v in by_id[front]["size_mm"])
        groups.setdefault((w, h), []).append((front, back))
    pages: list[Image.Image] = []
    heading = title or f"{game} proxy cards"
    for size, pieces in groups.items():
        cols, rows = _grid(size)
        if cols < 1 or rows < 1:
            raise PrintError(f"{size[0]:g} x {size[1]:g} mm pieces do not fit on an A4 page")
        per_page = cols * rows
        for start in range(0, len(pieces), per_page):
            chunk = pieces[start:start + per_page]
            n = len(pages) + 1
            pages.append(_page(f"{heading} - {size[0]:g} x {size[1]:g} mm - sheet {n} - print at 100 % (actual size)",
                               size, [face(f) for f, _ in chunk], mirrored=False, dpi=dpi))
            if any(b is not None for _, b in chunk):
                pages.append(_page(f"{heading} - backs of sheet {n} (mirrored for long-edge duplex)", size,
                                   [face(b) if b is not None else None for _, b in chunk], mirrored=True, dpi=dpi))
    return save_pdf(path, pages, dpi), len(plan), len(pages)
