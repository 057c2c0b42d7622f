"""A patterned cloth under uneven light must not pass for cards."""

from __future__ import annotations

import numpy as np
import pytest

from vision import detect
from vision.calibration import calibrate
from vision.pack import proxy_pack
from vision.synth import Camera, Scene, render_scene

KEYS = [(63.0, 88.0)]


def empty_table(background: str, seed: int) -> np.ndarray:
    """No cards at all, under strongly uneven light (a lamp's pool, dark edges)."""
    scene = Scene(placements=(), pack=proxy_pack("bigsur"), background=background,
                  camera=Camera(view_deg=4, light=0.7, noise=2, blur=0.5))
    frame, _ = render_scene(scene, seed=seed)
    return frame


@pytest.mark.parametrize("px_per_mm", [1.0, 0.5])
def test_a_patterned_cloth_under_uneven_light_is_not_taken_for_cards(px_per_mm):
    """The k-means learns a patterned cloth's colours; under a lamp each shade of it lies only
    where its light is, and a shade not spread over the table passed for cards. On ten empty
    tables the foreground was typically 3-3.5 % of the table (medians at 1 and 0.5 px/mm, up to
    19 %); the colours are now compared as if evenly lit, and it is typically 0.3-0.4 %. Seeds 0
    and 9 are still 13-19 % (a dense print whose dots' rims are colours of their own: left to do)."""
    shares = []
    for seed in range(10):
        frame = empty_table("patterned", seed)
        detect.forget_cloth()
        det = detect.find(frame, calibrate(frame), KEYS, px_per_mm=px_per_mm)
        shares.append(np.count_nonzero(det.mask) / det.mask.size)
    assert float(np.median(shares)) < 0.015, [round(s, 3) for s in shares]
    assert sum(s > 0.06 for s in shares) <= 2, [round(s, 3) for s in shares]
