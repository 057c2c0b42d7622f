"""Reading a tile past a piece standing on it (vision.occlusion)."""

import numpy as np
import pytest

from vision.occlusion import TOGETHER, TRIM, _together, _trimmed_scores


def faces(n=4, h=32, w=24, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(0, 255, (n, h, w, 3)).astype(np.float32)


def test_a_piece_on_the_face_is_left_out_and_lies_together():
    f = faces()
    win = f[0].copy()
    win[4:12, 6:14] = (200.0, 40.0, 40.0)  # a red car: 64 of 768 pixels
    whole = np.corrcoef(win.ravel(), f[0].ravel())[0, 1]
    scores, misfit = _trimmed_scores(win, f, TRIM)
    assert scores[0] > 0.99 > whole
    assert scores[0] - max(scores[1:]) > 0.5
    left_out = misfit[0] >= np.sort(misfit[0].ravel())[-round(TRIM * 32 * 24)]
    assert left_out[4:12, 6:14].all()  # every pixel of the car is left out
    assert _together(misfit[0]) >= TOGETHER


def test_differences_scattered_all_over_are_no_piece():
    f = faces()
    rng = np.random.default_rng(1)
    win = f[0].copy()
    spots = rng.random(win.shape[:2]) < 0.15
    win[spots] = rng.uniform(0, 255, (int(spots.sum()), 3))
    _, misfit = _trimmed_scores(win, f, TRIM)
    assert _together(misfit[0]) < TOGETHER


def test_nothing_left_out_together_is_zero():
    assert _together(np.zeros((8, 8))) == 0.0


def test_a_reading_far_ahead_passes_with_a_piece_in_two_blobs():
    """read_past_a_piece's second way in: a car and its shadow apart leave two blobs (less
    together than TOGETHER), which a reading far ahead of every other face still accepts."""
    from vision.occlusion import AHEAD_TOGETHER

    f = faces()
    win = f[0].copy()
    win[2:9, 2:10] = (200.0, 40.0, 40.0)  # a car (56 px) ...
    win[22:26, 12:18] = (30.0, 30.0, 30.0)  # ... and its shadow apart (24 px)
    scores, misfit = _trimmed_scores(win, f, TRIM)
    assert scores[0] - max(scores[1:]) > 0.3
    assert AHEAD_TOGETHER <= _together(misfit[0]) < TOGETHER


@pytest.mark.parametrize("i,card,at", [(22, "road-cross", (525, 325)), (26, "road-straight", (525, 275))])
def test_a_tile_a_car_makes_look_like_no_card_is_read_past_the_car(i, card, at):
    """A yellow car on a dark road tile outweighs the rest of it: the tile reads 0.36-0.38, as no
    card (bench scenes of --seed 1). Read past the car, and a few px about its cell, since no
    reading placed it, the tile counts."""
    from tests.vision.test_scan import bench_scene, check_against_truth
    from vision import scan

    pack, frame, truth = bench_scene("monsterhighway", i, seed=1)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert any(it.id == card and np.hypot(it.center_mm[0] - at[0], it.center_mm[1] - at[1]) < 15 for it in obs.items)
    check_against_truth(obs, truth, recall=0.85)
