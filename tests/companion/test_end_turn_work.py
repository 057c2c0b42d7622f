"""The end-turn path does no work twice: the still-table probe reads only the pixels it keeps,
and the card pack is loaded once per game, not on every scan."""

from __future__ import annotations

import numpy as np
import pytest

from companion.session import vision_scanner
from companion.session.stillness import PROBE_WIDTH, probe


def test_the_probe_is_the_grey_of_the_pixels_it_keeps():
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (1296, 2304, 3), dtype=np.uint8)
    step = 2304 // PROBE_WIDTH
    expected = frame.astype(np.float64).mean(axis=2)[::step, ::step]
    got = probe(frame)
    assert got.dtype == np.float32 and got.shape == expected.shape
    assert np.allclose(got, expected, atol=1e-3)
    grey = frame[:, :, 0]
    assert np.array_equal(probe(grey), grey[::step, ::step].astype(np.float32))


def test_the_proxy_pack_is_loaded_once_per_game(monkeypatch):
    vision = pytest.importorskip("vision")
    pack_module = pytest.importorskip("vision.pack")

    loads: list[str] = []
    seen: list[object] = []
    monkeypatch.setattr(pack_module, "proxy_pack", lambda game: loads.append(game) or f"pack of {game}")
    monkeypatch.setattr(vision, "scan", lambda image, game, *, pack=None, **kw: seen.append(pack) or "observed")
    scan = vision_scanner()
    image = np.zeros((10, 10, 3), np.uint8)
    assert [scan(image, "bigsur") for _ in range(3)] == ["observed"] * 3
    scan(image, "roundabout")
    assert loads == ["bigsur", "roundabout"]
    assert seen == ["pack of bigsur"] * 3 + ["pack of roundabout"]
