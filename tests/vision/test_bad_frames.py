"""Bad frames give a typed, one-sentence error quickly and never crash; state is left alone."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_detect import random_face, table_picture, view
from vision import scan
from vision.errors import CalibrationError, FrameError, VisionError
from vision.identify import CardIndex, Reference
from vision.observation import TableSpec
from vision.scan import GameError


@pytest.fixture(scope="module")
def index():
    rng = np.random.default_rng(0)
    return CardIndex.learn([Reference(f"c{k}", (63, 88), random_face(rng)) for k in range(3)])


BAD = [
    ("empty", np.zeros((0, 0, 3), np.uint8), FrameError),
    ("1x1", np.zeros((1, 1, 3), np.uint8), FrameError),
    ("float", np.random.default_rng(1).random((200, 200, 3)).astype(np.float32), FrameError),
    ("int64", np.ones((200, 200, 3), np.int64), FrameError),
    ("two channels", np.ones((200, 200, 2), np.uint8), FrameError),
    ("4-d", np.ones((2, 200, 200, 3), np.uint8), FrameError),
    ("1-d", np.ones(600, np.uint8), FrameError),
    ("all black", np.zeros((720, 1280, 3), np.uint8), FrameError),
    ("all white", np.full((720, 1280, 3), 255, np.uint8), FrameError),
    ("enormous", np.broadcast_to(np.uint8(100), (30000, 40000, 3)), FrameError),
    ("not an array", [[1, 2, 3]], FrameError),
    ("None", None, FrameError),
    ("noise, no markers", np.random.default_rng(2).integers(0, 256, (720, 1280, 3), dtype=np.uint8), CalibrationError),
    ("grey gradient, no markers", np.tile(np.linspace(0, 255, 1280, dtype=np.uint8), (720, 1)), CalibrationError),
]


@pytest.mark.parametrize(("name", "frame", "error"), BAD, ids=[b[0] for b in BAD])
def test_bad_frames_raise_one_typed_error(name, frame, error, index):
    with pytest.raises(error) as info:
        scan(frame, "bigsur", index=index)
    assert isinstance(info.value, VisionError) and isinstance(info.value, ValueError)
    message = str(info.value)
    assert message and "\n" not in message and "Traceback" not in message


def test_missing_markers_are_named_in_the_scan_error(index):
    table = TableSpec()
    frame, hom = view(table, table_picture(table, np.random.default_rng(4)))
    corner = hom @ np.array([1000.0, 700.0, 1.0])
    x, y = (corner[:2] / corner[2]).astype(int)
    frame[y - 60:y + 60, x - 60:x + 60] = (90, 60, 40)  # a hand on marker 2
    with pytest.raises(CalibrationError, match=r"marker 2 \(bottom-right\) not seen"):
        scan(frame, "bigsur", index=index)


def test_unknown_game_and_bad_pack(index, tmp_path):
    frame, _ = view(TableSpec(), table_picture(TableSpec(), np.random.default_rng(4)))
    with pytest.raises(GameError, match="unknown game 'chess'"):
        scan(frame, "chess", index=index)
    with pytest.raises(VisionError):
        scan(frame, "bigsur", pack=tmp_path / "no-such-pack")


def test_a_good_frame_after_bad_ones_still_scans(index):
    for _, frame, _ in BAD[:4]:
        with pytest.raises(VisionError):
            scan(frame, "bigsur", index=index)
    frame, _ = view(TableSpec(), table_picture(TableSpec(), np.random.default_rng(4)))
    obs = scan(frame, "bigsur", index=index)
    assert obs.items == [] and obs.reprojection_error_px < 1.0


@pytest.mark.parametrize("seed", range(6))
def test_random_clutter_gives_an_observation_or_a_vision_error(seed, index):
    """Cards half off the table, discs, thick lines over markers, odd frame sizes: never a crash."""
    import cv2

    from tests.vision.test_detect import paste

    rng = np.random.default_rng(seed)
    table = TableSpec()
    pic = table_picture(table, rng)
    for _ in range(int(rng.integers(3, 25))):
        c = (float(rng.uniform(-50, 1050)), float(rng.uniform(-50, 750)))
        kind = int(rng.integers(0, 3))
        if kind == 0:
            paste(pic, random_face(rng), c, float(rng.uniform(0, 360)), (63, 88), table)
        elif kind == 1:
            cv2.circle(pic, (int((c[0] + 40) * 2), int((c[1] + 40) * 2)), int(rng.integers(2, 200)),
                       rng.integers(0, 255, 3).tolist(), -1)
        else:
            cv2.line(pic, (int(rng.integers(0, pic.shape[1])), 0), (int(rng.integers(0, pic.shape[1])), pic.shape[0]),
                     rng.integers(0, 255, 3).tolist(), int(rng.integers(1, 30)))
    frame, _ = view(table, pic, size=(int(rng.integers(640, 2400)), int(rng.integers(480, 1400))))
    try:
        obs = scan(frame, ("bigsur", "roundabout", "monsterhighway", "highwayman", "highwaysbyways")[seed % 5], index=index)
    except VisionError:
        return
    doc = obs.to_json()
    assert set(doc) >= {"items", "unknowns", "layout", "reprojection_error_px", "warnings", "unsure"}
