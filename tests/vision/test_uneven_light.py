"""A patterned cloth under uneven light must not pass for cards."""

from __future__ import annotations

import cv2
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


def test_a_card_sized_disc_is_a_split_to_confirm():
    """A round region the size of a card (a coaster, or a tile whose corners a car rounds off):
    its one cell counts only when the recogniser is sure of it at 0.8 (Region.weak); a bigger
    disc is no cards at all (test_scan's coaster)."""
    pack = proxy_pack("highwayman")
    frame, _ = render_scene(Scene(placements=(), pack=pack, background="cloth", camera=Camera(view_deg=0)), seed=3)
    cal = calibrate(frame)
    # a solid disc 74 mm across (4,300 mm², under 1.3 cards of 57 x 89 mm, and one card cell fits
    # its square) drawn onto the table
    centre = np.round(cal.to_image([[500.0, 350.0]])[0]).astype(int)
    cv2.circle(frame, (int(centre[0]), int(centre[1])), round(37 * cal.px_per_mm), (40, 90, 160), -1)
    det = detect.find(frame, cal, [(57.0, 89.0)])
    assert len(det.candidates) == 1
    assert det.regions[det.candidates[0].region].weak
