"""The detector at each scale: the rectified view's geometry."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import detect
from vision.calibration import calibrate
from vision.pack import proxy_pack
from vision.synth import Camera, Placement, Scene, render_scene


def one_card(at_mm: tuple[float, float]) -> np.ndarray:
    """A plain grey cloth with one Big Sur card, seen straight from above."""
    pack = proxy_pack("bigsur")
    scene = Scene(placements=(Placement(pack.cards[0].id, at_mm, 0.0),), pack=pack, background="cloth",
                  camera=Camera(view_deg=0))
    frame, _ = render_scene(scene, seed=3)
    return frame


@pytest.mark.parametrize("grow", [1.6, 3.0])
@pytest.mark.parametrize("px_per_mm", [1.0, 0.5])
def test_the_rectified_view_is_the_same_from_any_camera_resolution(grow, px_per_mm):
    """The frame as the camera gives it (about 1.5 px per mm), and enlarged: the view is then
    pre-shrunk bilinearly or by a whole factor before it is warped (each way of rectify). It shows
    the table at the same place, at either detection scale."""
    frame = one_card((420.0, 300.0))
    want = detect.rectify(frame, calibrate(frame), px_per_mm)
    big = cv2.resize(frame, None, fx=grow, fy=grow, interpolation=cv2.INTER_CUBIC)
    got = detect.rectify(big, calibrate(big), px_per_mm)
    assert got.shape == want.shape == (round(700 * px_per_mm), round(1000 * px_per_mm), 3)
    (dx, dy), _ = cv2.phaseCorrelate(*(cv2.cvtColor(v, cv2.COLOR_BGR2GRAY).astype(np.float64) for v in (want, got)))
    assert abs(dx) < 0.3 and abs(dy) < 0.3
    # and no aliasing: the cloth's noise and the card print look alike in both
    assert float(np.abs(got.astype(np.float32) - want).mean()) < 6.0
