"""Drawing helpers shared by the proxy faces and the printable PDFs: fonts, text that fits a box,
and the per-id motif that makes every face distinct for the recogniser.

Faces are drawn with Pillow (anti-aliased text) on an RGB canvas and handed out as BGR arrays,
the convention of the rest of the vision layer.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

# DejaVu ships with Debian and Raspberry Pi OS; Pillow's own font is the fallback elsewhere.
_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))


@lru_cache(maxsize=128)
def font(size_px: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in _FONT_DIRS:
        path = folder / name
        if path.exists():
            return ImageFont.truetype(str(path), max(1, int(size_px)))
    return ImageFont.load_default(size=max(1, int(size_px)))


def text_size(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return int(right - left), int(bottom - top)


def fit_font(draw: ImageDraw.ImageDraw, text: str, max_w: float, max_h: float, *, bold: bool = False,
             start: int | None = None) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The largest font (down to 6 px) in which ``text`` fits ``max_w`` x ``max_h`` pixels."""
    size = int(start or max_h)
    while size > 6:
        fnt = font(size, bold)
        w, h = text_size(draw, text, fnt)
        if w <= max_w and h <= max_h:
            return fnt
        size = int(size * 0.9)
    return font(6, bold)


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, size: float, fill: RGB,
              bold: bool = False, anchor: str = "la", max_w: float | None = None) -> None:
    """Text at ``xy`` (Pillow anchor), shrunk to ``max_w`` pixels wide when given."""
    fnt = font(int(size), bold)
    if max_w is not None:
        fnt = fit_font(draw, text, max_w, size * 1.3, bold=bold, start=int(size))
    draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)


def wrap(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont, max_w: float) -> list[str]:
    """Greedy word wrap to ``max_w`` pixels."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}".strip()
            if line and text_size(draw, trial, fnt)[0] > max_w:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def draw_paragraph(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], text: str, *,
                   size: float, fill: RGB, bold: bool = False, align: str = "center") -> None:
    """Wrapped text centred in ``box`` (x0, y0, x1, y1), shrinking the font until it fits."""
    x0, y0, x1, y1 = box
    s = int(size)
    while True:
        fnt = font(s, bold)
        lines = wrap(draw, text, fnt, x1 - x0)
        line_h = s * 1.2
        if (len(lines) * line_h <= y1 - y0 and all(text_size(draw, ln, fnt)[0] <= x1 - x0 for ln in lines)) or s <= 7:
            break
        s = int(s * 0.9)
    y = (y0 + y1) / 2 - len(lines) * line_h / 2
    for ln in lines:
        if align == "center":
            draw.text(((x0 + x1) / 2, y), ln, font=fnt, fill=fill, anchor="ma")
        else:
            draw.text((x0, y), ln, font=fnt, fill=fill, anchor="la")
        y += line_h


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def hue_color(h: float, s: float = 0.65, v: float = 0.85) -> RGB:
    """HSV (h in [0, 1)) to an RGB byte triple."""
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r, g, b = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return int(r * 255), int(g * 255), int(b * 255)


def motif_colors(card_id: str, n: int = 4) -> list[RGB]:
    """``n`` colours derived from the id: spread around the hue circle so neighbours differ."""
    d = digest(card_id)
    base = d[0] / 256
    out = []
    for k in range(n):
        h = (base + k * 0.618034 + d[k + 1] / 2048) % 1.0
        out.append(hue_color(h, 0.55 + d[k + 5] / 1024, 0.62 + d[k + 9] / 900))
    return out


def draw_motif_border(draw: ImageDraw.ImageDraw, w: int, h: int, card_id: str, band: float) -> None:
    """A frame of coloured tiles along the edge, chosen from the id's hash.

    It is decoration a player ignores, but it gives every design its own colour layout all round
    the card, so two faces that share artwork (two Big Sur cards of one terrain) still differ for
    an appearance-only recogniser. It is not a code: nothing reads it back, and the layout has no
    rotational symmetry, which helps the recogniser tell rotations apart."""
    d = digest("motif:" + card_id)
    colors = motif_colors(card_id, 4)
    band_i = max(2, int(band))
    per_side = 5
    k = 0
    for side in range(4):
        length = w if side % 2 == 0 else h
        step = length / per_side
        for j in range(per_side):
            c = colors[d[k % len(d)] % 4]
            shade = 0.75 + (d[(k + 7) % len(d)] % 50) / 100
            fill = tuple(min(255, int(v * shade)) for v in c)
            a, b = int(j * step), int((j + 1) * step)
            if side == 0:
                box = (a, 0, b, band_i)
            elif side == 1:
                box = (w - band_i, a, w, b)
            elif side == 2:
                box = (w - b, h - band_i, w - a, h)
            else:
                box = (0, h - b, band_i, h - a)
            draw.rectangle(box, fill=fill)
            k += 1
    # One corner notch in a fixed place breaks any remaining symmetry of the frame.
    draw.rectangle((0, 0, band_i * 2, band_i * 2), fill=(20, 20, 20))


def new_canvas(w: int, h: int, fill: RGB = (250, 248, 240)) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (int(w), int(h)), fill)
    return img, ImageDraw.Draw(img)


def to_bgr(img: Image.Image) -> np.ndarray:
    arr = np.asarray(img.convert("RGB"), dtype=np.uint8)
    return np.ascontiguousarray(arr[:, :, ::-1])
