"""Highwayman proxy faces (Chad Valley's coaching-route card game): route cards with the route's
coloured band and a big number or LONDON, the Highwayman and the Bow Street Runner."""

from __future__ import annotations

from typing import Any

import numpy as np

from .canvas import draw_motif_border, draw_paragraph, draw_text, new_canvas, to_bgr
from .icons import named_color


def _figure(draw: Any, cx: float, cy: float, s: float, coat: tuple[int, int, int], hat: tuple[int, int, int]) -> None:
    """A coachman-era figure: tricorn hat, head, cloak."""
    draw.polygon([(cx - s * 0.7, cy + s * 1.4), (cx + s * 0.7, cy + s * 1.4), (cx + s * 0.4, cy + s * 0.2),
                  (cx - s * 0.4, cy + s * 0.2)], fill=coat)
    draw.ellipse((cx - s * 0.28, cy - s * 0.3, cx + s * 0.28, cy + s * 0.25), fill=(235, 200, 170))
    draw.polygon([(cx - s * 0.6, cy - s * 0.2), (cx, cy - s * 0.75), (cx + s * 0.6, cy - s * 0.2)], fill=hat)


def render(item: dict[str, Any], px_per_mm: float) -> np.ndarray | None:
    kind = item.get("kind")
    if kind not in ("route card", "highwayman card", "bow street runner card"):
        return None
    px = px_per_mm
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px), round(h_mm * px)
    ident = str(item["id"])
    if kind == "route card":
        color = named_color(item.get("colour"), str(item.get("route")))
        img, draw = new_canvas(w, h, (246, 238, 220))
        band = 15 * px
        draw.rectangle((0, 0, w, band), fill=color)
        draw.rectangle((0, h - band, w, h), fill=color)
        draw_motif_border(draw, w, h, ident, 1.5 * px)
        ink = (255, 255, 255) if sum(color) < 500 else (20, 20, 20)
        route = str(item.get("route_name") or item.get("route") or "")
        draw_text(draw, (w / 2, band / 2), route.upper(), size=4.5 * px, fill=ink, bold=True, anchor="mm", max_w=w - 6 * px)
        draw_text(draw, (w / 2, h - band / 2), route.upper(), size=4.5 * px, fill=ink, bold=True, anchor="mm", max_w=w - 6 * px)
        if item.get("london"):
            draw_text(draw, (w / 2, h / 2), "LONDON", size=11 * px, fill=color, bold=True, anchor="mm", max_w=w - 6 * px)
        else:
            number = item.get("number")
            draw_text(draw, (w / 2, h / 2), str(number if number is not None else "?"), size=34 * px, fill=color, bold=True,
                      anchor="mm")
            draw_text(draw, (4 * px, band + 2 * px), str(number if number is not None else ""), size=6 * px, fill=color,
                      bold=True)
        draw_text(draw, (w - 3 * px, h - band - 1.5 * px), ident, size=2.2 * px, fill=(90, 90, 90), anchor="rd")
        return to_bgr(img)
    highwayman = kind == "highwayman card"
    bg = (25, 25, 30) if highwayman else (150, 30, 30)
    img, draw = new_canvas(w, h, bg)
    draw_motif_border(draw, w, h, ident, 1.5 * px)
    _figure(draw, w / 2, h * 0.42, 18 * px, (60, 60, 70) if highwayman else (30, 50, 120), (10, 10, 10))
    if highwayman:  # the mask
        draw.rectangle((w / 2 - 5 * px, h * 0.42 - 2.5 * px, w / 2 + 5 * px, h * 0.42 - 0.5 * px), fill=(10, 10, 10))
    title = "HIGHWAYMAN" if highwayman else "BOW STREET RUNNER"
    draw_paragraph(draw, (4 * px, 4 * px, w - 4 * px, 16 * px), title, size=7 * px, fill=(255, 220, 90), bold=True)
    penalty = item.get("penalty")
    if penalty is not None:
        draw_text(draw, (w / 2, h - 9 * px), f"penalty {penalty}", size=4.5 * px, fill=(255, 255, 255), bold=True, anchor="mm")
    draw_text(draw, (w - 3 * px, h - 2.5 * px), ident, size=2.2 * px, fill=(200, 200, 200), anchor="rd")
    return to_bgr(img)
