"""Small pictograms shared by the designs: terrains, materials, roads, arrows.

Each draws into a Pillow ImageDraw inside a box (x0, y0, x1, y1) in pixels."""

from __future__ import annotations

import math

from PIL import ImageDraw

from .canvas import RGB, digest, draw_text, hue_color

Box = tuple[float, float, float, float]

TERRAIN_COLORS: dict[str, tuple[RGB, RGB]] = {  # (background, detail)
    "forest": ((46, 110, 58), (22, 70, 34)),
    "ocean": ((48, 118, 196), (200, 230, 250)),
    "meadow": ((150, 200, 90), (240, 210, 60)),
    "cliff": ((150, 120, 95), (95, 75, 60)),
}
MATERIAL_COLORS: dict[str, RGB] = {
    "stone": (150, 150, 145), "timber": (150, 100, 50), "steel": (80, 110, 140), "concrete": (205, 200, 185),
}
NAMED_COLORS: dict[str, RGB] = {
    "red": (200, 40, 40), "blue": (40, 80, 200), "green": (40, 150, 60), "yellow": (235, 200, 30),
    "purple": (120, 50, 160), "black": (30, 30, 30), "white": (245, 245, 245), "orange": (240, 140, 30),
    "pink": (240, 140, 180), "gray": (128, 128, 128), "grey": (128, 128, 128),
}


def named_color(name: object, fallback_key: str = "") -> RGB:
    if isinstance(name, str) and name.lower() in NAMED_COLORS:
        return NAMED_COLORS[name.lower()]
    return hue_color(digest(str(name) + fallback_key)[0] / 256, 0.6, 0.8)


def terrain_colors(terrain: str) -> tuple[RGB, RGB]:
    if terrain in TERRAIN_COLORS:
        return TERRAIN_COLORS[terrain]
    base = hue_color(digest(terrain)[0] / 256, 0.5, 0.7)
    return base, tuple(max(0, v - 60) for v in base)  # type: ignore[return-value]


def terrain_glyph(draw: ImageDraw.ImageDraw, box: Box, terrain: str, color: RGB = (255, 255, 255)) -> None:
    """A terrain pictogram: tree, waves, flower, peaks, or the initial for terrains we do not know."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    lw = max(1, int(w * 0.08))
    if terrain == "forest":
        draw.polygon([(cx, y0 + h * 0.08), (x0 + w * 0.2, y0 + h * 0.72), (x1 - w * 0.2, y0 + h * 0.72)], fill=color)
        draw.rectangle((cx - w * 0.07, y0 + h * 0.72, cx + w * 0.07, y1 - h * 0.08), fill=color)
    elif terrain == "ocean":
        for k in range(3):
            yy = y0 + h * (0.3 + 0.22 * k)
            pts = [(x0 + w * (0.12 + 0.76 * t / 12), yy + h * 0.07 * math.sin(t / 12 * math.tau * 1.5)) for t in range(13)]
            draw.line(pts, fill=color, width=lw)
    elif terrain == "meadow":
        for dx, dy in ((-0.2, 0.0), (0.2, 0.0), (0.0, -0.2), (0.0, 0.2)):
            r = w * 0.14
            draw.ellipse((cx + dx * w - r, cy + dy * h - r, cx + dx * w + r, cy + dy * h + r), fill=color)
        r = w * 0.1
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(240, 200, 40))
    elif terrain == "cliff":
        draw.polygon([(x0 + w * 0.1, y1 - h * 0.15), (x0 + w * 0.4, y0 + h * 0.15), (x0 + w * 0.55, y0 + h * 0.45),
                      (x0 + w * 0.7, y0 + h * 0.3), (x1 - w * 0.1, y1 - h * 0.15)], fill=color)
    else:
        draw_text(draw, (cx, cy), terrain[:2].upper(), size=h * 0.5, fill=color, bold=True, anchor="mm")


def terrain_badge(draw: ImageDraw.ImageDraw, box: Box, terrain: str) -> None:
    """A round terrain icon in the terrain's colour."""
    bg, _ = terrain_colors(terrain)
    draw.ellipse(box, fill=bg, outline=(255, 255, 255), width=max(1, int((box[2] - box[0]) * 0.06)))
    pad = (box[2] - box[0]) * 0.18
    terrain_glyph(draw, (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), terrain)


def material_chip(draw: ImageDraw.ImageDraw, box: Box, material: str, *, label: bool = True) -> None:
    """A material token: its colour and a pictogram, with its name under it when there is room."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    color = MATERIAL_COLORS.get(material, hue_color(digest(material)[0] / 256, 0.4, 0.75))
    ink: RGB = (30, 30, 30) if sum(color) > 450 else (255, 255, 255)
    draw.rounded_rectangle(box, radius=w * 0.18, fill=color, outline=(40, 40, 40), width=max(1, int(w * 0.05)))
    cx, cy = (x0 + x1) / 2, y0 + h * (0.4 if label else 0.5)
    s = min(w, h) * 0.28
    if material == "stone":
        draw.ellipse((cx - s, cy - s * 0.8, cx + s, cy + s * 0.8), fill=(200, 200, 195), outline=ink, width=max(1, int(s * 0.15)))
    elif material == "timber":
        draw.rectangle((cx - s * 1.2, cy - s * 0.45, cx + s * 1.2, cy + s * 0.45), fill=(200, 150, 90), outline=ink)
        draw.ellipse((cx + s * 0.9, cy - s * 0.45, cx + s * 1.5, cy + s * 0.45), fill=(230, 190, 130), outline=ink)
    elif material == "steel":
        t = s * 0.3
        draw.rectangle((cx - s, cy - s, cx + s, cy - s + t), fill=ink)
        draw.rectangle((cx - s, cy + s - t, cx + s, cy + s), fill=ink)
        draw.rectangle((cx - t / 2, cy - s, cx + t / 2, cy + s), fill=ink)
    elif material == "concrete":
        draw.rectangle((cx - s, cy - s * 0.8, cx + s, cy + s * 0.8), fill=(170, 168, 160), outline=ink)
        for dx, dy in ((-0.5, -0.3), (0.3, 0.2), (-0.1, 0.5), (0.5, -0.4)):
            r = s * 0.12
            draw.ellipse((cx + dx * s - r, cy + dy * s - r, cx + dx * s + r, cy + dy * s + r), fill=ink)
    else:
        draw_text(draw, (cx, cy), material[:2].upper(), size=s * 1.6, fill=ink, bold=True, anchor="mm")
    if label:
        draw_text(draw, (cx, y1 - h * 0.06), material.upper(), size=h * 0.2, fill=ink, bold=True, anchor="md",
                  max_w=w * 0.92)


def road_band(draw: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float, *, horizontal: bool = True,
              dashes: bool = True) -> None:
    """Asphalt with white edges and a dashed yellow centre line."""
    draw.rectangle((x0, y0, x1, y1), fill=(85, 85, 90))
    t = max(1, (y1 - y0 if horizontal else x1 - x0) * 0.06)
    if horizontal:
        draw.rectangle((x0, y0 + t, x1, y0 + 2 * t), fill=(235, 235, 235))
        draw.rectangle((x0, y1 - 2 * t, x1, y1 - t), fill=(235, 235, 235))
        if dashes:
            mid = (y0 + y1) / 2
            step = (y1 - y0) * 1.2
            x = x0 + step * 0.25
            while x < x1:
                draw.rectangle((x, mid - t * 0.7, min(x1, x + step * 0.55), mid + t * 0.7), fill=(245, 205, 40))
                x += step
    else:
        draw.rectangle((x0 + t, y0, x0 + 2 * t, y1), fill=(235, 235, 235))
        draw.rectangle((x1 - 2 * t, y0, x1 - t, y1), fill=(235, 235, 235))
        if dashes:
            mid = (x0 + x1) / 2
            step = (x1 - x0) * 1.2
            y = y0 + step * 0.25
            while y < y1:
                draw.rectangle((mid - t * 0.7, y, mid + t * 0.7, min(y1, y + step * 0.55)), fill=(245, 205, 40))
                y += step


def arrow(draw: ImageDraw.ImageDraw, tip: tuple[float, float], direction: float, size: float, color: RGB) -> None:
    """A solid arrowhead with a short shaft pointing along ``direction`` (radians, image axes)."""
    dx, dy = math.cos(direction), math.sin(direction)
    nx, ny = -dy, dx
    tx, ty = tip
    base = (tx - dx * size, ty - dy * size)
    draw.polygon([(tx, ty), (base[0] + nx * size * 0.6, base[1] + ny * size * 0.6),
                  (base[0] - nx * size * 0.6, base[1] - ny * size * 0.6)], fill=color)
    tail = (tx - dx * size * 2.0, ty - dy * size * 2.0)
    draw.line([base, tail], fill=color, width=max(1, int(size * 0.35)))
