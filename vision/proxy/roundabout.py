"""Roundabout proxy faces: a quarter of a roundabout per square card.

The quarter ring of gray road surface sits in the card's ``quarter_corner`` (its centre is that
corner, so four cards meeting at a point make one roundabout) and crosses the two edges next to
it. Each of the other two edges may carry a road to the ring: an entrance (arrow towards the
ring, IN) or an exit (arrow away from it, OUT). A whole edge of gray road surface is drawn as a
gray band along it. The ring carries the card's arrows (counter-clockwise, as the game turns);
the arrow count and any bonus are printed in the free corner.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .canvas import draw_motif_border, draw_paragraph, draw_text, new_canvas, to_bgr
from .icons import arrow

GRASS = (118, 176, 92)
ASPHALT = (120, 122, 126)
CORNERS = {"south-east": (1, 1), "north-east": (1, 0), "north-west": (0, 0), "south-west": (0, 1)}
EDGE_NORMALS = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}


def render(item: dict[str, Any], px_per_mm: float) -> np.ndarray | None:
    if item.get("kind") != "roundabout card":
        return None
    px = px_per_mm
    w_mm, h_mm = (float(v) for v in item["size_mm"])
    w, h = round(w_mm * px), round(h_mm * px)
    img, draw = new_canvas(w, h, GRASS)
    side = min(w, h)
    corner = CORNERS.get(str(item.get("quarter_corner", "south-east")), (1, 1))
    cx, cy = corner[0] * w, corner[1] * h
    r_out, r_in = 0.62 * side, 0.30 * side
    r_mid = (r_out + r_in) / 2
    road_w = 0.2 * side
    edges = item.get("edges") if isinstance(item.get("edges"), dict) else {}
    draw_motif_border(draw, w, h, str(item["id"]), 2.5 * px)
    adjacent = {("east" if corner[0] else "west"), ("south" if corner[1] else "north")}
    for edge, what in edges.items():
        if edge not in EDGE_NORMALS:
            continue
        nx, ny = EDGE_NORMALS[edge]
        if what == "gray" and edge not in adjacent:
            band = 0.17 * side
            box = {"north": (0, 0, w, band), "south": (0, h - band, w, h), "west": (0, 0, band, h),
                   "east": (w - band, 0, w, h)}[edge]
            draw.rectangle(box, fill=ASPHALT)
            continue
        if what not in ("entrance", "exit") or edge in adjacent:
            continue
        # The road meets its edge r_mid from the ring's centre, and runs straight to the ring.
        if nx == 0:  # north or south edge: a vertical road
            x = cx - r_mid if corner[0] else cx + r_mid
            y_edge = 0 if ny < 0 else h
            reach = math.sqrt(max(r_out ** 2 - r_mid ** 2, 0.0)) - road_w * 0.3  # just into the ring
            y_ring = cy - reach * (1 if corner[1] else -1)
            y0, y1 = sorted((y_edge, y_ring))
            draw.rectangle((x - road_w / 2, y0, x + road_w / 2, y1), fill=ASPHALT)
            into = math.pi / 2 if ny < 0 else -math.pi / 2
            mid = (x, (y_edge * 0.65 + y_ring * 0.35))
        else:  # east or west edge: a horizontal road
            y = cy - r_mid if corner[1] else cy + r_mid
            x_edge = 0 if nx < 0 else w
            reach = math.sqrt(max(r_out ** 2 - r_mid ** 2, 0.0)) - road_w * 0.3
            x_ring = cx - reach * (1 if corner[0] else -1)
            x0, x1 = sorted((x_edge, x_ring))
            draw.rectangle((x0, y - road_w / 2, x1, y + road_w / 2), fill=ASPHALT)
            into = 0.0 if nx < 0 else math.pi
            mid = ((x_edge * 0.65 + x_ring * 0.35), y)
        direction = into if what == "entrance" else into + math.pi
        size = road_w * 0.32
        tip = (mid[0] + math.cos(direction) * size * 1.2, mid[1] + math.sin(direction) * size * 1.2)
        arrow(draw, tip, direction, size, (255, 255, 255))
        label = "IN" if what == "entrance" else "OUT"
        lx = mid[0] + math.cos(into) * road_w * 1.05
        ly = mid[1] + math.sin(into) * road_w * 1.05
        # Entrances on blue plates, exits on red: told apart at a glance, by players and camera.
        plate_color = (40, 90, 200) if what == "entrance" else (200, 45, 40)
        pw, ph = road_w * 0.95, road_w * 0.62
        draw.rounded_rectangle((lx - pw / 2, ly - ph / 2, lx + pw / 2, ly + ph / 2), radius=ph * 0.2, fill=plate_color)
        draw_text(draw, (lx, ly), label, size=road_w * 0.36, fill=(255, 255, 255), bold=True, anchor="mm")
    # The quarter ring and its island.
    draw.ellipse((cx - r_out, cy - r_out, cx + r_out, cy + r_out), fill=ASPHALT)
    draw.ellipse((cx - r_in, cy - r_in, cx + r_in, cy + r_in), fill=(96, 150, 72), outline=(240, 240, 240),
                 width=max(1, int(0.5 * px)))
    start = {(1, 1): 180, (1, 0): 90, (0, 0): 0, (0, 1): 270}[corner]
    dash = max(1, int(0.5 * px))
    for a in range(start, start + 90, 10):
        draw.arc((cx - r_mid, cy - r_mid, cx + r_mid, cy + r_mid), start=a + 2, end=a + 6, fill=(240, 240, 240), width=dash)
    # The quarter of the ring on this card spans [start, start + 90] degrees (image axes).
    arrows = int(item.get("arrows") or 0)
    for k in range(arrows):
        ang = math.radians(start + (k + 1) * 90 / (arrows + 1))
        p = (cx + r_mid * math.cos(ang), cy + r_mid * math.sin(ang))
        # Counter-clockwise as seen from above: decreasing angle in image axes (y down).
        tangent = ang - math.pi / 2
        arrow(draw, p, tangent, road_w * 0.3, (250, 250, 250))
    # The free corner: the arrow count and the bonus, on a white plate.
    fx = 0 if corner[0] else w
    fy = 0 if corner[1] else h
    plate = 0.36 * side
    x0 = 3.5 * px if fx == 0 else w - 3.5 * px - plate
    y0 = 3.5 * px if fy == 0 else h - 3.5 * px - plate * 0.62
    draw.rounded_rectangle((x0, y0, x0 + plate, y0 + plate * 0.62), radius=1.5 * px, fill=(255, 255, 255),
                           outline=(40, 40, 40), width=max(1, int(0.3 * px)))
    arrow(draw, (x0 + plate * 0.36, y0 + plate * 0.2), 0.0, plate * 0.1, (40, 40, 40))
    draw_text(draw, (x0 + plate * 0.45, y0 + plate * 0.2), f"x{arrows}", size=plate * 0.22, fill=(20, 20, 20),
              bold=True, anchor="lm")
    bonus = item.get("bonus")
    label = bonus.get("label") if isinstance(bonus, dict) else (str(bonus) if bonus else "")
    if label:
        draw_paragraph(draw, (x0 + 0.8 * px, y0 + plate * 0.34, x0 + plate - 0.8 * px, y0 + plate * 0.6), str(label),
                       size=plate * 0.12, fill=(150, 20, 20), bold=True)
    draw_text(draw, (x0 + plate / 2, y0 + plate * 0.62 + 0.8 * px), str(item["id"]), size=2.2 * px, fill=(255, 255, 255),
              anchor="ma")
    return to_bgr(img)
