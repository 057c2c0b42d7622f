"""Monster Highway proxy faces: road tiles (open sides drawn as roads to the centre), special
tiles (name and pictogram), home bases (house in the player's colour), ground zero, and the
monster cards (the space the monster heads for)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PIL import ImageDraw

from .canvas import digest, draw_motif_border, draw_paragraph, draw_text, new_canvas, to_bgr
from .icons import arrow, named_color, road_band

GRASS = (104, 160, 84)
SIDES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _roads(draw: ImageDraw.ImageDraw, w: int, h: int, open_sides: list[str], road_w: float) -> None:
    cx, cy = w / 2, h / 2
    for side in open_sides:
        if side not in SIDES:
            continue
        dx, dy = SIDES[side]
        if dx == 0:
            y0, y1 = (0, cy + road_w / 2) if dy < 0 else (cy - road_w / 2, h)
            road_band(draw, cx - road_w / 2, y0, cx + road_w / 2, y1, horizontal=False, dashes=len(open_sides) < 3)
        else:
            x0, x1 = (0, cx + road_w / 2) if dx < 0 else (cx - road_w / 2, w)
            road_band(draw, x0, cy - road_w / 2, x1, cy + road_w / 2, horizontal=True, dashes=len(open_sides) < 3)
    if open_sides:
        draw.rectangle((cx - road_w / 2, cy - road_w / 2, cx + road_w / 2, cy + road_w / 2), fill=(85, 85, 90))


def _icon(draw: ImageDraw.ImageDraw, effect: str, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    ink = (255, 255, 255)
    lw = max(2, int(r * 0.15))
    if effect == "monster_buster":  # a shield
        draw.polygon([(cx - r * 0.8, cy - r * 0.8), (cx + r * 0.8, cy - r * 0.8), (cx + r * 0.8, cy),
                      (cx, cy + r), (cx - r * 0.8, cy)], fill=ink)
        draw.line([(cx - r * 0.4, cy - r * 0.1), (cx - r * 0.05, cy + r * 0.3), (cx + r * 0.5, cy - r * 0.45)],
                  fill=(200, 40, 40), width=lw)
    elif effect == "swap":  # two opposite arrows
        arrow(draw, (cx + r * 0.9, cy - r * 0.35), 0.0, r * 0.45, ink)
        arrow(draw, (cx - r * 0.9, cy + r * 0.35), math.pi, r * 0.45, ink)
    elif effect == "remove":  # a cross
        draw.line([(cx - r * 0.7, cy - r * 0.7), (cx + r * 0.7, cy + r * 0.7)], fill=ink, width=lw * 2)
        draw.line([(cx - r * 0.7, cy + r * 0.7), (cx + r * 0.7, cy - r * 0.7)], fill=ink, width=lw * 2)
    elif effect == "reroll":  # a die
        draw.rounded_rectangle((cx - r * 0.75, cy - r * 0.75, cx + r * 0.75, cy + r * 0.75), radius=r * 0.2, fill=ink)
        for fx, fy in ((-0.4, -0.4), (0, 0), (0.4, 0.4), (0.4, -0.4), (-0.4, 0.4)):
            d = r * 0.13
            draw.ellipse((cx + fx * r - d, cy + fy * r - d, cx + fx * r + d, cy + fy * r + d), fill=(30, 30, 30))
    elif effect == "dead_end":  # a barrier
        draw.rectangle((cx - r * 0.9, cy - r * 0.25, cx + r * 0.9, cy + r * 0.25), fill=ink)
        for k in range(4):
            x = cx - r * 0.9 + k * r * 0.5
            draw.polygon([(x, cy - r * 0.25), (x + r * 0.25, cy - r * 0.25), (x + r * 0.05, cy + r * 0.25),
                          (x - r * 0.2, cy + r * 0.25)], fill=(220, 40, 40))
    else:
        draw.ellipse((cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6), outline=ink, width=lw)


def tile(item: dict[str, Any], px: float) -> np.ndarray:
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px), round(h_mm * px)
    kind = str(item.get("kind"))
    ident = str(item["id"])
    sides = [str(s) for s in item.get("open_sides") or []]
    base = GRASS
    if kind == "special tile":
        base = named_color(ident, "special")
    elif kind == "home base":
        base = named_color(item.get("colour"), ident)
    elif kind == "ground zero":
        base = (70, 60, 55)
    img, draw = new_canvas(w, h, base)
    draw_motif_border(draw, w, h, ident, 1.6 * px)
    road_w = 15 * px * w_mm / 50
    _roads(draw, w, h, sides, road_w)
    name = str(item.get("name", ident))
    if kind == "ground zero":
        r = 9 * px
        draw.ellipse((w / 2 - r, h / 2 - r, w / 2 + r, h / 2 + r), fill=(240, 200, 30), outline=(20, 20, 20), width=int(px))
        for k in range(3):
            a = math.radians(90 + k * 120)
            draw.pieslice((w / 2 - r * 0.85, h / 2 - r * 0.85, w / 2 + r * 0.85, h / 2 + r * 0.85),
                          start=math.degrees(a) - 30, end=math.degrees(a) + 30, fill=(20, 20, 20))
        draw_text(draw, (w / 2, 3 * px), "GROUND ZERO", size=4 * px, fill=(255, 255, 255), bold=True, anchor="ma",
                  max_w=w - 6 * px)
    elif kind == "home base":
        s = 8 * px
        cx, cy = w / 2, h / 2 - 4 * px
        draw.polygon([(cx - s, cy), (cx, cy - s), (cx + s, cy)], fill=(250, 250, 250))
        draw.rectangle((cx - s * 0.75, cy, cx + s * 0.75, cy + s), fill=(250, 250, 250))
        draw.rectangle((cx - s * 0.2, cy + s * 0.4, cx + s * 0.2, cy + s), fill=(60, 40, 30))
        draw_text(draw, (w / 2, 3 * px), "HOME BASE", size=3.6 * px, fill=(255, 255, 255), bold=True, anchor="ma")
        draw_text(draw, (w / 2, h / 2 + 7 * px), str(item.get("colour", "")).upper(), size=3.4 * px, fill=(255, 255, 255),
                  bold=True, anchor="ma")
    elif kind == "special tile":
        icon = 16 * px
        _icon(draw, str(item.get("effect", "")), (w / 2 - icon / 2, h / 2 - icon / 2 - 2 * px, w / 2 + icon / 2,
                                                  h / 2 + icon / 2 - 2 * px))
        draw_paragraph(draw, (3 * px, 3 * px, w - 3 * px, 10 * px), name.upper(), size=4 * px, fill=(255, 255, 255),
                       bold=True)
    else:
        label = (2.5 * px, h - 6 * px)
        draw_text(draw, label, name, size=2.8 * px, fill=(255, 255, 255), bold=True)
    draw_text(draw, (w - 2.5 * px, h - 2.5 * px), ident, size=2 * px, fill=(255, 255, 255), anchor="rd")
    return to_bgr(img)


def monster_card(item: dict[str, Any], px: float) -> np.ndarray:
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px), round(h_mm * px)
    ident = str(item["id"])
    d = digest(ident)
    img, draw = new_canvas(w, h, (60, 30, 80))
    draw_motif_border(draw, w, h, ident, 2 * px)
    # The monster: a round body with eyes and teeth, a little different on every card.
    cx, cy, r = w / 2, h * 0.42, w * (0.26 + d[0] / 2550)
    body = named_color(ident, "monster")
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=body, outline=(20, 20, 20), width=int(px))
    for fx in (-0.35, 0.35):
        e = r * 0.22
        draw.ellipse((cx + fx * r - e, cy - r * 0.35 - e, cx + fx * r + e, cy - r * 0.35 + e), fill=(255, 255, 255))
        draw.ellipse((cx + fx * r - e / 2, cy - r * 0.35 - e / 2, cx + fx * r + e / 2, cy - r * 0.35 + e / 2), fill=(0, 0, 0))
    teeth = 3 + d[1] % 4
    for k in range(teeth):
        x = cx - r * 0.5 + k * r / teeth
        draw.polygon([(x, cy + r * 0.25), (x + r / teeth, cy + r * 0.25), (x + r / teeth / 2, cy + r * 0.5)], fill=(255, 255, 255))
    draw_text(draw, (w / 2, 5 * px), "MONSTER", size=5 * px, fill=(255, 230, 80), bold=True, anchor="ma")
    space = str(item.get("space", ""))
    draw_text(draw, (w / 2, h * 0.74), "heads for", size=3.2 * px, fill=(230, 230, 230), anchor="ma")
    draw_paragraph(draw, (4 * px, h * 0.79, w - 4 * px, h - 6 * px), space.upper(), size=6 * px, fill=(255, 255, 255), bold=True)
    draw_text(draw, (w - 3 * px, h - 2.5 * px), ident, size=2.2 * px, fill=(220, 220, 220), anchor="rd")
    return to_bgr(img)


def render(item: dict[str, Any], px_per_mm: float) -> np.ndarray | None:
    kind = item.get("kind")
    if kind in ("road tile", "special tile", "home base", "ground zero"):
        return tile(item, px_per_mm)
    if kind == "monster card":
        return monster_card(item, px_per_mm)
    return None
