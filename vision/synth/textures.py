"""Procedural pictures for scenes: table surfaces, photo-like card art, foreign objects.

All are built from smooth random fields (low-resolution noise scaled up), which is fast at any
size and never contains text or markers."""

from __future__ import annotations

import math

import cv2
import numpy as np


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    """Noise in about [-1, 1] whose features are ``cell`` pixels across."""
    h, w = shape
    sh, sw = max(2, math.ceil(h / cell) + 1), max(2, math.ceil(w / cell) + 1)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) / 1.5


def fractal(rng: np.random.Generator, shape: tuple[int, int], cell: float, octaves: int = 4) -> np.ndarray:
    out = np.zeros(shape, np.float32)
    amp = 1.0
    for _ in range(octaves):
        out += amp * smooth_noise(rng, shape, max(cell, 2.0))
        cell /= 2
        amp /= 2
    return out


def _colorize(field: np.ndarray, a: tuple[float, float, float], b: tuple[float, float, float]) -> np.ndarray:
    t = np.clip(field, 0, 1)[:, :, None]
    return (np.array(a, np.float32) * (1 - t) + np.array(b, np.float32) * t)


def background(kind: str, rng: np.random.Generator, size: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """A table surface of ``size`` (w, h) px at ``px_per_mm``: 'wood', 'cloth' or 'patterned'."""
    w, h = size
    if kind == "wood":
        hue = rng.uniform(-1, 1)
        dark = (40 + 15 * hue, 75 + 10 * hue, 115 + 20 * hue)
        light = (95 + 20 * hue, 140 + 15 * hue, 185 + 15 * hue)
        warp = fractal(rng, (h, w), 250 * px_per_mm, 2)
        yy = np.arange(h, dtype=np.float32)[:, None] / px_per_mm
        period = rng.uniform(8, 18)
        grain = 0.5 + 0.5 * np.sin((yy / period + 0.8 * warp) * math.tau)
        grain = 0.65 * grain + 0.35 * (0.5 + 0.5 * smooth_noise(rng, (h, w), 8 * px_per_mm))
        img = _colorize(grain, dark, light)
        plank = rng.uniform(90, 180) * px_per_mm
        offset = rng.uniform(0, plank)
        for y in np.arange(offset, h, plank):
            img[int(y):int(y) + max(1, int(px_per_mm)), :] *= 0.55
    elif kind == "cloth":
        base = [(60, 110, 40), (110, 70, 35), (90, 90, 95), (40, 40, 120), (120, 120, 125)][int(rng.integers(5))]
        img = np.empty((h, w, 3), np.float32)
        img[:] = np.array(base, np.float32) * rng.uniform(0.8, 1.2)
        shade = 1 + 0.12 * smooth_noise(rng, (h, w), 60 * px_per_mm)
        img *= shade[:, :, None]
        weave = rng.standard_normal((h, w)).astype(np.float32) * 6
        img += weave[:, :, None]
    elif kind == "patterned":
        c1 = rng.uniform(150, 245, 3)
        c2 = rng.uniform(30, 200, 3)
        cell = rng.uniform(20, 45) * px_per_mm
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        if rng.random() < 0.5:  # gingham: two sets of translucent stripes
            sx = ((xx // cell) % 2).astype(np.float32)
            sy = ((yy // cell) % 2).astype(np.float32)
            t = (sx + sy) / 2
            img = _colorize(t, tuple(c1), tuple(c2))
        else:  # polka dots and flowers
            img = np.empty((h, w, 3), np.float32)
            img[:] = c1
            n = int(w * h / (cell * cell) * 0.8)
            for _ in range(n):
                x, y = rng.uniform(0, w), rng.uniform(0, h)
                r = rng.uniform(0.15, 0.35) * cell
                col = tuple(float(v) for v in (c2 if rng.random() < 0.7 else rng.uniform(40, 220, 3)))
                cv2.circle(img, (int(x), int(y)), int(r), col, -1, lineType=cv2.LINE_AA)
        img *= (1 + 0.06 * smooth_noise(rng, (h, w), 80 * px_per_mm))[:, :, None]
    else:
        raise ValueError(f"unknown background {kind!r} (wood, cloth, patterned)")
    return np.clip(img, 0, 255).astype(np.uint8)


def photo_like(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A landscape-like picture (sky, ridges, water or fields, trees) of ``size`` (w, h) px."""
    w, h = size
    img = np.empty((h, w, 3), np.float32)
    sky_top = rng.uniform([120, 60, 20], [255, 200, 160])
    sky_low = rng.uniform([150, 120, 100], [255, 240, 240])
    t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    img[:] = sky_top * (1 - t) + sky_low * t
    xs = np.arange(w, dtype=np.float32)
    horizon = rng.uniform(0.3, 0.6) * h
    for layer in range(int(rng.integers(2, 4))):
        ridge = horizon - rng.uniform(0.05, 0.3) * h * (1 + np.sin(xs / w * rng.uniform(2, 9) + rng.uniform(0, 6)))
        ridge += 0.05 * h * np.cumsum(rng.standard_normal(w)) / math.sqrt(w)
        ridge += layer * 0.06 * h
        col = rng.uniform([20, 40, 20], [140, 170, 150])
        mask = np.arange(h, dtype=np.float32)[:, None] > ridge[None, :]
        img[mask] = col
    low = int(horizon + rng.uniform(0.1, 0.3) * h)
    water = rng.uniform([90, 50, 0], [220, 160, 80]) if rng.random() < 0.5 else rng.uniform([0, 80, 40], [90, 200, 190])
    img[low:] = water
    tex = fractal(rng, (h, w), max(w, h) / 6, 4)
    img *= (1 + 0.25 * tex)[:, :, None]
    for _ in range(int(rng.integers(3, 12))):
        x, y = int(rng.uniform(0, w)), int(rng.uniform(horizon, h))
        r = int(rng.uniform(0.03, 0.1) * w)
        col = tuple(float(v) for v in rng.uniform([0, 30, 0], [90, 140, 90]))
        cv2.circle(img, (x, y), max(1, r), col, -1, lineType=cv2.LINE_AA)
    img += rng.standard_normal((h, w, 1)).astype(np.float32) * 4
    return np.clip(img, 0, 255).astype(np.uint8)


def foreign_card(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A card from some other game: white border, a picture and a big pip, no text."""
    w, h = size
    img = np.full((h, w, 3), 245, np.uint8)
    b = max(2, w // 14)
    img[b:h - b, b:w - b] = photo_like(rng, (w - 2 * b, h - 2 * b))
    col = (20, 20, 200) if rng.random() < 0.5 else (20, 20, 20)
    cx, cy, r = w // 2, h // 2, w // 5
    if rng.random() < 0.5:
        pts = np.array([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], np.int32)
        cv2.fillPoly(img, [pts], col, lineType=cv2.LINE_AA)
    else:
        cv2.circle(img, (cx - r // 2, cy - r // 3), r // 2, col, -1, lineType=cv2.LINE_AA)
        cv2.circle(img, (cx + r // 2, cy - r // 3), r // 2, col, -1, lineType=cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([(cx - r, cy - r // 8), (cx + r, cy - r // 8), (cx, cy + r)], np.int32)], col,
                     lineType=cv2.LINE_AA)
    return img
