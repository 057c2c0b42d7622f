"""The generic face: kind, name and every attribute as text, over an id-specific motif.

Used for any item a game designer does not know, so the proxy pack always renders."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PIL import ImageDraw

from .canvas import (
    RGB,
    digest,
    draw_motif_border,
    draw_paragraph,
    draw_text,
    motif_colors,
    new_canvas,
    to_bgr,
)

_SKIP = {"id", "kind", "count", "size_mm", "name", "title"}


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(describe(v) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k} {describe(v)}" for k, v in value.items()) or "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def label(key: str) -> str:
    return key.replace("_", " ")


def title_of(item: dict[str, Any]) -> str:
    for key in ("name", "title"):
        if isinstance(item.get(key), str) and item[key]:
            return str(item[key])
    return str(item["id"]).replace("_", " ").replace("-", " ")


def draw_emblem(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], card_id: str) -> None:
    """Abstract shapes in the id's colours: a picture a player can tell apart at a glance."""
    x0, y0, x1, y1 = box
    d = digest("emblem:" + card_id)
    colors = motif_colors(card_id, 4)
    w, h = x1 - x0, y1 - y0
    for k in range(5):
        c: RGB = colors[k % 4]
        cx = x0 + w * (0.15 + 0.7 * d[3 * k] / 255)
        cy = y0 + h * (0.15 + 0.7 * d[3 * k + 1] / 255)
        r = min(w, h) * (0.12 + 0.18 * d[3 * k + 2] / 255)
        shape = d[20 + k] % 3
        if shape == 0:
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c, outline=(40, 40, 40), width=2)
        elif shape == 1:
            draw.rectangle((cx - r, cy - r * 0.7, cx + r, cy + r * 0.7), fill=c, outline=(40, 40, 40), width=2)
        else:
            a = d[25 + k] / 255 * math.tau
            pts = [(cx + r * math.cos(a + t * math.tau / 3), cy + r * math.sin(a + t * math.tau / 3)) for t in range(3)]
            draw.polygon(pts, fill=c, outline=(40, 40, 40))


def render_generic(item: dict[str, Any], px_per_mm: float) -> np.ndarray:
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px_per_mm), round(h_mm * px_per_mm)
    img, draw = new_canvas(w, h)
    band = 3.0 * px_per_mm
    draw_motif_border(draw, w, h, str(item["id"]), band)
    m = band + 2 * px_per_mm
    kind = str(item.get("kind", "card")).upper()
    draw_text(draw, (w / 2, m), kind, size=3.2 * px_per_mm, fill=(90, 90, 90), anchor="ma", max_w=w - 2 * m)
    draw_paragraph(draw, (m, m + 5 * px_per_mm, w - m, m + 16 * px_per_mm), title_of(item),
                   size=6 * px_per_mm, fill=(20, 20, 20), bold=True)
    attrs = [(k, v) for k, v in item.items() if k not in _SKIP]
    text_top = h - m - max(10.0, 5.0 * len(attrs)) * px_per_mm
    text_top = max(text_top, h * 0.55)
    draw_emblem(draw, (m, m + 17 * px_per_mm, w - m, text_top - px_per_mm), str(item["id"]))
    body = "\n".join(f"{label(k)}: {describe(v)}" for k, v in attrs)
    if body:
        draw_paragraph(draw, (m, text_top, w - m, h - m), body, size=3.6 * px_per_mm, fill=(30, 30, 30), align="left")
    return to_bgr(img)
