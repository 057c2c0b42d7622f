"""Big Sur proxy faces: Highway sides, gray Material sides, pink Starter sides, Landmark tiles.

Highway side (rulebook, Building): the mileage tag top-left with the terrain icon(s) beside it,
the cost top-right, the material a 1-mile card lends in the bottom-left corner, the 2-mile
card's scoring condition at the bottom, and a road drawn straight across at one height so that
cards laid side by side join into one highway. Two-terrain cards show the first terrain above the
road and the second below it, as Highway One runs between forest and ocean.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import ImageDraw

from .canvas import RGB, digest, draw_motif_border, draw_paragraph, draw_text, new_canvas, to_bgr
from .icons import MATERIAL_COLORS, material_chip, road_band, terrain_badge, terrain_colors, terrain_glyph

ROAD_TOP_MM, ROAD_BOTTOM_MM = 50.0, 59.0  # one height on every Highway side: rows join up
PINK: RGB = (244, 170, 200)


def _landscape(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], terrain: str, seed: str) -> None:
    """A terrain scene with the card's own scatter of features (trees, waves, flowers, rocks)."""
    x0, y0, x1, y1 = box
    bg, detail = terrain_colors(terrain)
    draw.rectangle(box, fill=bg)
    d = digest(seed + terrain)
    w, h = x1 - x0, y1 - y0
    n = 6 + d[0] % 6
    for k in range(n):
        fx, fy = d[(2 * k + 1) % 32] / 255, d[(2 * k + 2) % 32] / 255
        size = min(w, h) * (0.16 + 0.12 * (d[(k + 13) % 32] / 255))
        cx, cy = x0 + fx * (w - size) + size / 2, y0 + fy * (h - size) + size / 2
        terrain_glyph(draw, (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2), terrain, detail)


def _tag(draw: ImageDraw.ImageDraw, px: float, miles: Any) -> None:
    x0, y0 = 4 * px, 4 * px
    draw.rounded_rectangle((x0, y0, x0 + 14 * px, y0 + 16 * px), radius=2.5 * px, fill=(255, 255, 255),
                           outline=(30, 30, 30), width=max(1, int(0.4 * px)))
    draw_text(draw, (x0 + 7 * px, y0 + 8.5 * px), str(miles), size=11 * px, fill=(20, 20, 20), bold=True, anchor="mm")
    unit = "MILE" if miles == 1 else "MILES"
    draw_text(draw, (x0 + 7 * px, y0 + 15.2 * px), unit, size=2.6 * px, fill=(20, 20, 20), bold=True, anchor="md")


def _cost(draw: ImageDraw.ImageDraw, px: float, w: float, cost: Sequence[Any]) -> None:
    chip = 8.5 * px
    x1 = w - 4 * px
    for k, m in enumerate(cost):
        y = 4 * px + k * (chip + 1 * px)
        material_chip(draw, (x1 - chip, y, x1, y + chip), str(m), label=True)
    if cost:
        draw_text(draw, (x1 - chip / 2, 4 * px + len(cost) * (chip + px) + 0.2 * px), "COST", size=2.4 * px,
                  fill=(255, 255, 255), bold=True, anchor="ma")


def highway_side(item: dict[str, Any], px: float) -> np.ndarray:
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px), round(h_mm * px)
    img, draw = new_canvas(w, h)
    ident = str(item["id"])
    terrains = [str(t) for t in item.get("terrains") or []] or ["meadow"]
    road_top, road_bottom = ROAD_TOP_MM * px * h_mm / 88, ROAD_BOTTOM_MM * px * h_mm / 88
    _landscape(draw, (0, 0, w, road_top), terrains[0], ident)
    _landscape(draw, (0, road_bottom, w, h), terrains[-1], ident + "below")
    draw_motif_border(draw, w, h, ident, 2.0 * px)
    road_band(draw, 0, road_top, w, road_bottom)
    _tag(draw, px, item.get("miles", "?"))
    for k, t in enumerate(terrains[:3]):
        x = 20 * px + k * 9.5 * px
        terrain_badge(draw, (x, 5 * px, x + 8.5 * px, 13.5 * px), t)
    _cost(draw, px, w, list(item.get("cost") or []))
    name = str(item.get("name", ""))
    if name:
        tw = w - 8 * px
        draw.rounded_rectangle((4 * px, road_top - 7 * px, 4 * px + tw, road_top - 1.2 * px), radius=px,
                               fill=(255, 255, 255))
        draw_text(draw, (w / 2, road_top - 4.1 * px), name, size=3.4 * px, fill=(30, 30, 30), bold=True, anchor="mm",
                  max_w=tw - 2 * px)
    bottom = h - 3 * px
    if item.get("tableau_material"):
        chip = 11 * px
        material_chip(draw, (4 * px, bottom - chip, 4 * px + chip, bottom), str(item["tableau_material"]))
        draw_text(draw, (4 * px + chip + 1.5 * px, bottom - chip / 2), "once per turn", size=2.6 * px,
                  fill=(255, 255, 255), anchor="lm")
    text = item.get("condition_text")
    if text:
        box = (4 * px, road_bottom + 3 * px, w - 4 * px, bottom - 1 * px)
        draw.rounded_rectangle(box, radius=1.5 * px, fill=(255, 252, 235), outline=(60, 60, 60), width=max(1, int(0.3 * px)))
        draw_paragraph(draw, (box[0] + 1.5 * px, box[1] + 1 * px, box[2] - 1.5 * px, box[3] - 1 * px), str(text),
                       size=4 * px, fill=(20, 20, 20), bold=True)
    draw_text(draw, (w - 3.5 * px, h - 2.6 * px), ident, size=2.2 * px, fill=(255, 255, 255), anchor="rd")
    return to_bgr(img)


def material_face(item: dict[str, Any], px: float, *, starter: bool) -> np.ndarray:
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px), round(h_mm * px)
    material = str(item.get("material", "?"))
    base: RGB = PINK if starter else (150, 152, 155)
    img, draw = new_canvas(w, h, base)
    tone = MATERIAL_COLORS.get(material, (120, 120, 120))
    # Rays from the centre in the material's colour: the four Material designs differ at a glance.
    cx, cy = w / 2, h * 0.45
    rays = 10 + digest(material)[0] % 6
    for k in range(rays):
        a0, a1 = k * math.tau / rays, (k + 0.5) * math.tau / rays
        r = max(w, h)
        draw.polygon([(cx, cy), (cx + r * math.cos(a0), cy + r * math.sin(a0)), (cx + r * math.cos(a1), cy + r * math.sin(a1))],
                     fill=tuple(int(0.55 * b + 0.45 * t) for b, t in zip(base, tone, strict=True)))
    draw_motif_border(draw, w, h, str(item["id"]), 2.0 * px)
    chip = 30 * px
    material_chip(draw, (cx - chip / 2, cy - chip / 2, cx + chip / 2, cy + chip / 2), material)
    title = "STARTER CARD" if starter else "MATERIAL"
    draw_text(draw, (w / 2, 8 * px), title, size=5 * px, fill=(30, 30, 30), bold=True, anchor="ma", max_w=w - 10 * px)
    draw_text(draw, (w / 2, h - 16 * px), material.upper(), size=7 * px, fill=(20, 20, 20), bold=True, anchor="ma",
              max_w=w - 10 * px)
    if starter:
        draw_text(draw, (w / 2, h - 7 * px), "either side may be used", size=3 * px, fill=(40, 40, 40), anchor="ma")
    return to_bgr(img)


def _requirement(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], req: Any, px: float) -> None:
    draw.rounded_rectangle(box, radius=1.2 * px, fill=(255, 255, 255), outline=(40, 40, 40), width=max(1, int(0.3 * px)))
    x0, y0, x1, y1 = box
    if not isinstance(req, dict):
        draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), str(req), size=3 * px, fill=(0, 0, 0), anchor="mm", max_w=x1 - x0)
        return
    terrain, miles = req.get("terrain"), req.get("miles")
    if terrain is not None:
        s = (x1 - x0) * 0.8
        top = y0 + 0.8 * px
        terrain_badge(draw, ((x0 + x1) / 2 - s / 2, top, (x0 + x1) / 2 + s / 2, top + s), str(terrain))
    if miles is not None:
        y = y1 - 1.2 * px if terrain is not None else (y0 + y1) / 2
        draw_text(draw, ((x0 + x1) / 2, y), f"{miles} mi", size=3.6 * px, fill=(0, 0, 0), bold=True,
                  anchor="md" if terrain is not None else "mm")


def landmark(item: dict[str, Any], px: float) -> np.ndarray:
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px), round(h_mm * px)
    img, draw = new_canvas(w, h, (236, 222, 188))
    draw_motif_border(draw, w, h, str(item["id"]), 2.0 * px)
    draw_paragraph(draw, (4 * px, 3.5 * px, w - 4 * px, 12 * px), str(item.get("name", item["id"])), size=4.2 * px,
                   fill=(60, 30, 10), bold=True)
    reqs = list(item.get("requires") or [])
    if reqs:
        slot = min(12 * px, (w - 8 * px) / len(reqs) - 1 * px)
        total = len(reqs) * slot + (len(reqs) - 1) * px
        x = (w - total) / 2
        for r in reqs:
            _requirement(draw, (x, 14 * px, x + slot, 14 * px + slot * 1.25), r, px)
            x += slot + px
    pts = item.get("points", 0)
    r = 6 * px
    cx, cy = w - 4 * px - r, h - 4 * px - r
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(190, 40, 40), outline=(255, 255, 255), width=max(1, int(0.4 * px)))
    draw_text(draw, (cx, cy), str(pts), size=6.5 * px, fill=(255, 255, 255), bold=True, anchor="mm")
    notes = []
    if item.get("material"):
        notes.append(f"lends {item['material']}")
    if item.get("ability"):
        notes.append(str(item["ability"]).replace("_", " "))
    if item.get("condition_text"):
        notes.append(str(item["condition_text"]))
    if notes:
        draw_paragraph(draw, (4 * px, 31.5 * px, cx - r - 1 * px, h - 3 * px), "; ".join(notes), size=3 * px,
                       fill=(40, 20, 10), align="left")
    return to_bgr(img)


def render(item: dict[str, Any], px_per_mm: float) -> np.ndarray | None:
    kind = item.get("kind")
    if kind == "highway card":
        return highway_side(item, px_per_mm)
    if kind == "material side":
        return material_face(item, px_per_mm, starter=False)
    if kind == "starter side":
        return material_face(item, px_per_mm, starter=True)
    if kind == "landmark":
        return landmark(item, px_per_mm)
    return None


def print_plan(items: Sequence[dict[str, Any]]) -> list[tuple[str, str | None]]:
    """Physical Big Sur cards: each Highway card backed by the Material side it names, each pink
    Starter card's two Material sides back to back, Landmark tiles single-sided."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for it in items:
        by_kind.setdefault(str(it.get("kind")), []).append(it)
    material_side = {str(m.get("material")): str(m["id"]) for m in by_kind.get("material side", [])}
    plan: list[tuple[str, str | None]] = []
    for card in by_kind.get("highway card", []):
        back = material_side.get(str(card.get("material")))
        plan += [(str(card["id"]), back)] * int(card["count"])
    # Starter cards: each starter id appears on exactly two starter-side designs (its two sides).
    sides: dict[str, list[str]] = {}
    for s in by_kind.get("starter side", []):
        for starter in s.get("starters") or []:
            sides.setdefault(str(starter), []).append(str(s["id"]))
    for starter in sorted(sides):
        faces = sides[starter]
        plan.append((faces[0], faces[1] if len(faces) > 1 else None))
    for tile in by_kind.get("landmark", []):
        plan += [(str(tile["id"]), None)] * int(tile["count"])
    known = {"highway card", "material side", "starter side", "landmark"}
    for kind, group in by_kind.items():
        if kind not in known:
            plan += [(str(it["id"]), None) for it in group for _ in range(int(it["count"]))]
    return plan
