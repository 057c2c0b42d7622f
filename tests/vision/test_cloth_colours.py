"""A patterned cloth's colours kept from one scan to the next: only for the same table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import detect
from vision.calibration import calibrate
from vision.pack import proxy_pack
from vision.synth import Camera, Placement, Scene, render_scene

KEYS = [(63.0, 88.0)]


def wood_table(seed: int, first: int = 0) -> np.ndarray:
    """A wood table (the patterned-cloth path: its colours are learned by k-means) with a row of
    six Big Sur cards and three loose ones; `first`: which cards of the pack."""
    pack = proxy_pack("bigsur")
    ids = [c.id for c in pack.cards if (c.size_mm or pack.card_size_mm) == pack.card_size_mm]
    places = [Placement(ids[(first + k) % len(ids)], (200 + 63 * k, 220), 0.0) for k in range(6)]
    places += [Placement(ids[(first + 6 + k) % len(ids)], (250 + 180 * k, 520), 90.0) for k in range(3)]
    scene = Scene(placements=tuple(places), pack=pack, camera=Camera(view_deg=6, light=0.3, noise=2, blur=0.5))
    frame, _ = render_scene(scene, seed=seed)
    return frame


@pytest.fixture
def kmeans_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(attempts, flags) of every k-means the detector runs while the test runs."""
    calls: list[tuple[int, int]] = []
    real = cv2.kmeans

    def spy(data, k, labels, criteria, attempts, flags, *args, **kw):  # type: ignore[no-untyped-def]
        calls.append((attempts, flags))
        return real(data, k, labels, criteria, attempts, flags, *args, **kw)

    monkeypatch.setattr(detect.cv2, "kmeans", spy)
    detect.forget_cloth()
    yield calls
    detect.forget_cloth()


def cells(det: detect.Detection) -> list[tuple[int, int]]:
    return sorted((round(c.center_mm[0] / 10), round(c.center_mm[1] / 10)) for c in det.candidates)


def test_the_same_table_scanned_again_refits_the_colours_it_learned(kmeans_calls):
    frame = wood_table(1)
    cal = calibrate(frame)
    cold = detect.find(frame, cal, KEYS)
    assert kmeans_calls == [(2, cv2.KMEANS_PP_CENTERS)]  # learned from scratch
    # the next frame of the same table: fresh camera noise
    rng = np.random.default_rng(5)
    again = np.clip(frame + rng.normal(0, 2.0, frame.shape), 0, 255).astype(np.uint8)
    warm = detect.find(again, cal, KEYS)
    assert kmeans_calls[1] == (1, cv2.KMEANS_USE_INITIAL_LABELS)  # refitted from the kept colours
    assert cells(warm) == cells(cold) and len(cold.candidates) == 9
    assert np.count_nonzero(warm.mask != cold.mask) < 0.01 * np.count_nonzero(cold.mask)


@pytest.mark.parametrize("other", ["another table", "a lamp switched on", "other cards"])
def test_another_table_is_never_given_the_colours_kept_for_one(kmeans_calls, other):
    first = wood_table(1)
    if other == "another table":
        frame = wood_table(2)
    elif other == "a lamp switched on":
        frame = cv2.convertScaleAbs(first, alpha=1.12, beta=12)
    else:
        frame = wood_table(1, first=9)  # the same wood, every card another one
    cal = calibrate(frame)
    alone = detect.find(frame, cal, KEYS)  # as if nothing had been scanned before
    detect.forget_cloth()
    detect.find(first, calibrate(first), KEYS)
    after = detect.find(frame, cal, KEYS)
    # learned from scratch each time: the first table's colours were not used
    assert kmeans_calls == [(2, cv2.KMEANS_PP_CENTERS)] * 3
    assert np.array_equal(after.mask, alone.mask)
    assert cells(after) == cells(alone)


def test_forgetting_the_cloth_learns_it_afresh(kmeans_calls):
    frame = wood_table(1)
    cal = calibrate(frame)
    first = detect.find(frame, cal, KEYS)
    detect.forget_cloth()
    again = detect.find(frame, cal, KEYS)
    assert kmeans_calls == [(2, cv2.KMEANS_PP_CENTERS)] * 2
    assert np.array_equal(first.mask, again.mask)


def test_the_same_frame_scanned_again_reads_exactly_as_it_did(kmeans_calls):
    frame = wood_table(1)
    cal = calibrate(frame)
    first = detect.find(frame, cal, KEYS)
    again = detect.find(frame, cal, KEYS)
    # the colours learned from these very pixels are used as they are: no refit
    assert kmeans_calls == [(2, cv2.KMEANS_PP_CENTERS)]
    assert np.array_equal(first.mask, again.mask) and cells(first) == cells(again)
    # a frame read with refitted colours reads the same when scanned again too
    rng = np.random.default_rng(5)
    noisy = np.clip(frame + rng.normal(0, 2.0, frame.shape), 0, 255).astype(np.uint8)
    once, twice = detect.find(noisy, cal, KEYS), detect.find(noisy, cal, KEYS)
    assert np.array_equal(once.mask, twice.mask)
    assert [c.center_mm for c in once.candidates] == [c.center_mm for c in twice.candidates]


def test_only_the_last_tables_colours_are_kept(kmeans_calls):
    rng = np.random.default_rng(3)
    shapes = [(300, 450), (330, 480), (360, 510)]
    for h, w in shapes:
        lab = rng.uniform(0, 255, (h, w, 3)).astype(np.float32)
        looks = cv2.resize(lab, (w // 25, h // 25), interpolation=cv2.INTER_AREA)
        detect._pattern_mask(lab, 1.0, looks)
    assert len(detect._CLOTH) == detect.CLOTH_KEPT
    assert [k[:2] for k in detect._CLOTH] == [(h // 3, w // 3) for h, w in shapes[-detect.CLOTH_KEPT:]]


def test_what_a_patterned_cloths_mask_leaves_keeps_how_far_it_is_from_the_cloth(monkeypatch):
    """The patterned-cloth path's mask holds one strength; what it leaves was all 0, so a
    fragment of a card (half a home base the colour of a strongly grained wood's tone) had
    nothing weaker to be followed into (see detect._completed). Three patches of the wood blended
    with a little blue, more and more (2, 4, 7 %): each differs from the cloth more than the
    last, the last enough for a fragment to be followed into it, and the bare wood stays under
    that."""
    frame = wood_table(4)
    cal = calibrate(frame)
    top = detect.rectify(frame, cal)
    blue = np.array([200, 60, 20], np.float32)
    patches = []
    for share, x in ((0.02, 300), (0.04, 500), (0.07, 700)):
        part = top[340:400, x - 30:x + 30].astype(np.float32)
        top[340:400, x - 30:x + 30] = np.clip((1 - share) * part + share * blue, 0, 255).astype(np.uint8)
        patches.append((slice(345, 395), slice(x - 25, x + 25)))
    real, calls = detect._pattern_mask, []

    def spy(*args, **kw):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(detect, "_pattern_mask", spy)
    detect.forget_cloth()
    _, strength = detect.foreground(top, cal.table.marker_mm)
    assert calls  # (the wood is read as a patterned cloth)
    # (what the mask holds, before it is smoothed, is one strength; the rest is under 1)
    assert np.all((strength == np.float32(2 * detect.FAINT)) | (strength < 1.0))
    medians = [float(np.median(strength[p])) for p in patches]
    assert 0.0 < medians[0] < medians[1] < medians[2] < 1.0, medians
    bare = float(np.median(strength[300:330, 150:850]))
    assert bare < detect.LOW_STRENGTHS[0] < medians[2], (bare, medians)
