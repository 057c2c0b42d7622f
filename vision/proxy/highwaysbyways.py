"""Highways & Byways proxy faces: construction cards carry one big road letter on a highway
sign; byway cards the byway's colour band, name and regions; event and vehicle cards their name
and text."""

from __future__ import annotations

from typing import Any

import numpy as np

from .canvas import draw_motif_border, draw_paragraph, draw_text, new_canvas, to_bgr
from .icons import named_color


def render(item: dict[str, Any], px_per_mm: float) -> np.ndarray | None:
    kind = item.get("kind")
    if kind not in ("construction card", "byway card", "event card", "vehicle card"):
        return None
    px = px_per_mm
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px), round(h_mm * px)
    ident = str(item["id"])
    name = str(item.get("name", ident))
    if kind == "construction card":
        img, draw = new_canvas(w, h, (245, 150, 30))  # work-zone orange
        draw_motif_border(draw, w, h, ident, 2 * px)
        for k in range(-2, 8):  # hazard stripes along the bottom
            x = k * 10 * px
            draw.polygon([(x, h - 14 * px), (x + 5 * px, h - 14 * px), (x + 12 * px, h - 2 * px), (x + 7 * px, h - 2 * px)],
                         fill=(25, 25, 25))
        # A US highway shield with the road letter.
        cx, top, s = w / 2, 16 * px, 22 * px
        shield = [(cx - s, top), (cx + s, top), (cx + s, top + s * 1.1), (cx, top + s * 2.0), (cx - s, top + s * 1.1)]
        draw.polygon(shield, fill=(255, 255, 255), outline=(20, 20, 20))
        draw_text(draw, (cx, top + s * 0.85), str(item.get("letter", "?")), size=26 * px, fill=(20, 20, 20), bold=True,
                  anchor="mm")
        draw_text(draw, (w / 2, 5 * px), "CONSTRUCTION", size=5 * px, fill=(20, 20, 20), bold=True, anchor="ma",
                  max_w=w - 8 * px)
        draw_text(draw, (w - 3 * px, h - 15 * px), ident, size=2.2 * px, fill=(40, 40, 40), anchor="rd")
        return to_bgr(img)
    if kind == "byway card":
        color = named_color(item.get("color"), ident)
        img, draw = new_canvas(w, h, (248, 244, 232))
        draw.rectangle((0, 0, w, 18 * px), fill=color)
        draw_motif_border(draw, w, h, ident, 1.5 * px)
        draw_text(draw, (w / 2, 9 * px), f"{str(item.get('color', '')).upper()} BYWAY", size=5 * px, fill=(255, 255, 255),
                  bold=True, anchor="mm")
        draw_paragraph(draw, (4 * px, 22 * px, w - 4 * px, 42 * px), name, size=6 * px, fill=(20, 20, 20), bold=True)
        regions = ", ".join(str(r) for r in item.get("regions") or [])
        spaces = " - ".join(str(s) for s in item.get("spaces") or [])
        draw_paragraph(draw, (4 * px, 46 * px, w - 4 * px, 62 * px), regions, size=4 * px, fill=(60, 60, 60))
        draw_paragraph(draw, (4 * px, 64 * px, w - 4 * px, h - 6 * px), spaces, size=3.6 * px, fill=color, bold=True)
        draw_text(draw, (w - 3 * px, h - 2.5 * px), ident, size=2.2 * px, fill=(90, 90, 90), anchor="rd")
        return to_bgr(img)
    vehicle = kind == "vehicle card"
    img, draw = new_canvas(w, h, (40, 70, 120) if vehicle else (250, 246, 235))
    draw_motif_border(draw, w, h, ident, 2 * px)
    ink = (255, 255, 255) if vehicle else (20, 20, 20)
    draw_text(draw, (w / 2, 5 * px), "VEHICLE" if vehicle else "EVENT", size=4 * px, fill=ink, anchor="ma")
    draw_paragraph(draw, (4 * px, 11 * px, w - 4 * px, 30 * px), name, size=7 * px, fill=ink, bold=True)
    text = str(item.get("ability") if vehicle else item.get("text", ""))
    draw_paragraph(draw, (5 * px, 36 * px, w - 5 * px, h - 8 * px), text, size=4.4 * px, fill=ink)
    draw_text(draw, (w - 3 * px, h - 2.5 * px), ident, size=2.2 * px, fill=(150, 150, 150), anchor="rd")
    return to_bgr(img)
