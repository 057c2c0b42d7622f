"""The end-turn path does no work twice: the still-table probe reads only the pixels it keeps,
and the card pack is loaded once per game, not on every scan."""

from __future__ import annotations

from types import SimpleNamespace

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


def test_the_probe_of_a_frames_preview_is_the_probe_of_the_frame():
    """The still-table check compares the newest frame with the camera's kept preview of the one
    before: both must give the same probe, or a still table would look as if it moved."""
    from hardware.frames import preview_of

    for width, height in ((2304, 1296), (1152, 648), (640, 480), (150, 90)):
        frame = np.random.default_rng(width).integers(0, 256, (height, width, 3), dtype=np.uint8)
        assert np.array_equal(probe(preview_of(frame)), probe(frame))


class _Calibration:
    """Table mm -> camera pixels: 2 px per mm."""

    def to_image(self, points):
        return np.asarray(points, dtype=np.float64) * 2.0


def test_the_shown_picture_lets_go_of_the_full_frame_and_rings_the_spot_where_it_is(monkeypatch):
    import cv2

    from companion.session import Capture, picture
    from companion.session import session as session_module

    monkeypatch.setattr(session_module, "_overlay", lambda image, observation: None)
    frame = np.full((1296, 2304, 3), 90, np.uint8)
    capture = Capture(frame, SimpleNamespace(calibration=_Calibration()), jpeg=b"turn")
    data = picture(capture, [(576.0, 324.0)])  # the frame's centre, (1152, 648) px
    assert capture.image is None and capture.annotated.shape == (540, 960, 3)
    shown = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert shown.shape == (540, 960, 3)
    red = (shown[:, :, 2].astype(int) - shown[:, :, 1]) > 80
    ys, xs = np.nonzero(red)
    assert abs(xs.mean() - 480) < 3 and abs(ys.mean() - 270) < 3  # the ring, centred on the spot
    assert abs(xs.max() - 480 - 24) < 4  # as wide as before: a 40th of the frame's width
    again = picture(capture, [])  # the kept capture can be shown again without its frame
    assert cv2.imdecode(np.frombuffer(again, np.uint8), cv2.IMREAD_COLOR).shape == (540, 960, 3)


def test_a_picture_that_cannot_be_compressed_is_a_scan_error_not_a_crash(tmp_path, monkeypatch):
    from companion.session import Session
    from companion.session import session as session_module
    from companion.store import Store
    from tests.companion.tabletoy import TableToy

    def broken(image, width=640, quality=70):
        raise RuntimeError("encoder exploded")

    monkeypatch.setattr(session_module, "encode_jpeg", broken)
    frame = SimpleNamespace(image=np.zeros((90, 160, 3), np.uint8), index=1, captured_at=0.0)
    camera = SimpleNamespace(latest=lambda: frame, preview=lambda index: np.zeros((90, 160, 3), np.uint8))
    store = Store(tmp_path / "db.sqlite3")
    s = Session.new(store, "tabletoy", ["Ana", "Ben"], engine=TableToy, seed=5,
                    scanner=lambda image, game: SimpleNamespace(items=[], unknowns=[], unsure=[]))
    capture = s.capture(camera)
    assert capture.error is not None and "could not be compressed" in str(capture.error)
    assert not s.accept(capture).ok
    store.close()


@pytest.mark.parametrize("where", ["recogniser", "camera"])
def test_a_fault_in_the_recogniser_or_camera_is_a_scan_error_and_the_turn_stays_open(tmp_path, where):
    """Any exception from the recogniser or the camera (a bug, memory) comes back as a ScanError
    that names it: a worker that died would leave the app waiting for its answer for ever. The
    game is untouched, and the next scan reads the table."""
    from companion.session import ScanError, Session
    from companion.store import Store
    from tests.companion.tabletoy import TableToy

    frame = SimpleNamespace(image=np.zeros((90, 160, 3), np.uint8), index=1, captured_at=0.0)
    calls = {"camera": 0, "recogniser": 0}

    def latest():
        calls["camera"] += 1
        if where == "camera" and calls["camera"] == 1:
            raise OSError("the camera's buffer went away")
        return frame

    def scanner(image, game):
        calls["recogniser"] += 1
        if where == "recogniser" and calls["recogniser"] == 1:
            raise IndexError("index 7 is out of bounds for axis 0 with size 7")
        return SimpleNamespace(items=[], unknowns=[], unsure=[])

    camera = SimpleNamespace(latest=latest, preview=lambda index: np.zeros((90, 160, 3), np.uint8))
    store = Store(tmp_path / "db.sqlite3")
    s = Session.new(store, "tabletoy", ["Ana", "Ben"], engine=TableToy, seed=5, scanner=scanner)
    before = s.game.record().to_json()
    capture = s.capture(camera, sleep=lambda t: None)
    assert isinstance(capture.error, ScanError)
    said = str(capture.error)
    assert ("OSError" in said) if where == "camera" else ("IndexError" in said and "could not be read" in said)
    assert "try again" in said
    assert not s.accept(capture).ok
    assert s.game.record().to_json() == before
    again = s.capture(camera, sleep=lambda t: None)
    assert again.error is None and again.observation is not None
    store.close()
