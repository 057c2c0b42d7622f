"""Garbage frames: everything a camera, a driver or a bug could hand the recogniser instead of a
picture of the table. Deterministic per index, so a failing frame can be regenerated.

``camera_like`` frames are what a working FrameSource can deliver (H x W x 3 uint8: noise, black,
white, flat grey, half the table, the table without its markers, a blurred or tiny table); the
others (wrong dtype, wrong shape, not an array) can only come from a bug, and only reach
``vision.scan`` directly, because ``hardware.as_bgr`` refuses them before any consumer sees them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np

from vision.markers import marker_image

#: Frame widths: mostly small (cheap), some at the camera's real 2304 x 1296.
WIDTHS = (64, 160, 320, 640, 1152, 1152, 2304)


def table(width: int, *, markers: bool = True, seed: int = 0) -> np.ndarray:
    """A bare play area seen from above: a wood-ish surface and, if asked, the four ArUco markers
    (ids 0-3 clockwise from top-left) at its corners, as the calibration expects them."""
    height = max(36, width * 9 // 16)
    rng = np.random.default_rng(seed)
    img = np.empty((height, width, 3), np.uint8)
    img[:] = (60, 110, 150)
    img = cv2.add(img, rng.integers(0, 25, img.shape, dtype=np.uint8))
    if markers:
        side = max(8, width // 24)
        pad = side // 2
        mark = cv2.cvtColor(marker_image(0, side), cv2.COLOR_GRAY2BGR)
        spots = [(pad, pad), (width - pad - side, pad), (width - pad - side, height - pad - side), (pad, height - pad - side)]
        for i, (x, y) in enumerate(spots):
            mark = cv2.cvtColor(marker_image(i, side), cv2.COLOR_GRAY2BGR)
            # a white paper margin round each marker, as printed
            cv2.rectangle(img, (x - 3, y - 3), (x + side + 3, y + side + 3), (250, 250, 250), -1)
            img[y:y + side, x:x + side] = mark
    return img


def camera_like(i: int, max_width: int = 2304) -> tuple[str, np.ndarray]:
    rng = np.random.default_rng(i)
    widths = [w for w in WIDTHS if w <= max_width]
    width = widths[int(rng.integers(len(widths)))]
    height = max(36, width * 9 // 16)
    kind = ("noise", "black", "white", "grey", "half-table", "no-markers", "blurred", "stripes",
            "dark-noise", "three-markers")[i % 10]
    if kind == "noise":
        return kind, rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    if kind == "black":
        return kind, np.zeros((height, width, 3), np.uint8)
    if kind == "white":
        return kind, np.full((height, width, 3), 255, np.uint8)
    if kind == "grey":
        return kind, np.full((height, width, 3), int(rng.integers(1, 255)), np.uint8)
    if kind == "half-table":
        full = table(width * 2, seed=i)
        h, w = full.shape[:2]
        return kind, np.ascontiguousarray(full[:, : w // 2] if i % 2 else full[: h // 2])
    if kind == "no-markers":
        return kind, table(width, markers=False, seed=i)
    if kind == "blurred":
        return kind, cv2.GaussianBlur(table(width, seed=i), (0, 0), sigmaX=max(2.0, width / 60))
    if kind == "stripes":
        img = np.zeros((height, width, 3), np.uint8)
        img[:, :: 2] = 255
        return kind, img
    if kind == "dark-noise":
        return kind, rng.integers(0, 12, (height, width, 3), dtype=np.uint8)
    img = table(width, seed=i)  # three markers: a hand over the fourth
    side = max(8, width // 24)
    img[: side * 2, : side * 2] = (30, 40, 50)
    return "three-markers", img


def malformed(i: int) -> tuple[str, Any]:
    rng = np.random.default_rng(i)
    choices: list[tuple[str, Any]] = [
        ("float32", rng.random((120, 160, 3), dtype=np.float32)),
        ("float64-nan", np.full((120, 160, 3), np.nan)),
        ("uint16", rng.integers(0, 65535, (120, 160, 3), dtype=np.uint16)),
        ("bool", rng.random((120, 160, 3)) > 0.5),
        ("int64", rng.integers(0, 256, (120, 160, 3))),
        ("grey-2d", rng.integers(0, 256, (120, 160), dtype=np.uint8)),
        ("bgra", rng.integers(0, 256, (120, 160, 4), dtype=np.uint8)),
        ("one-channel", rng.integers(0, 256, (120, 160, 1), dtype=np.uint8)),
        ("channels-first", rng.integers(0, 256, (3, 120, 160), dtype=np.uint8)),
        ("empty", np.zeros((0, 0, 3), np.uint8)),
        ("one-pixel", np.zeros((1, 1, 3), np.uint8)),
        ("tiny", rng.integers(0, 256, (10, 10, 3), dtype=np.uint8)),
        ("4d", np.zeros((2, 64, 64, 3), np.uint8)),
        ("none", None),
        ("list", [[0, 0, 0]] * 3),
        ("bytes", b"\xff\xd8\xff\xe0 not really a jpeg"),
        ("string", "frame.png"),
        ("object-array", np.array([object()] * 3)),
        ("strided", rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)[::2, ::2]),
        ("read-only", np.zeros((120, 160, 3), np.uint8)),
    ]
    kind, value = choices[i % len(choices)]
    if kind == "read-only":
        value.setflags(write=False)
    return kind, value


def frames(n: int, start: int = 0, max_width: int = 2304) -> Iterator[tuple[str, Any]]:
    """``n`` garbage frames: three camera-like ones for every malformed one. Noise takes the
    marker search longest, so quick runs may keep frames small with ``max_width``."""
    for i in range(start, start + n):
        yield malformed(i // 4) if i % 4 == 3 else camera_like(i, max_width)
