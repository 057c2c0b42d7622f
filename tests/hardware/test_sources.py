"""Replay source, camera specs, open_camera's choice, and the picamera2 backend on a fake Picamera2."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware import (
    CameraLost,
    CameraNotFound,
    CameraSpecError,
    OpenCVSource,
    Picamera2Source,
    ReplaySource,
    open_camera,
    parse_spec,
)
from hardware.picam import full_view_mode

from .conftest import Events, wait_until
from .fakes import CM3_MODES, FakePicamera2, Script, capture_factory, noise

FAST = dict(read_timeout=0.3, open_timeout=2.0, backoff_initial=0.01, backoff_max=0.05)


# -- replay ------------------------------------------------------------------------------------

def test_replay_loops_through_its_frames_in_order() -> None:
    frames = [noise(i) for i in range(3)]
    with ReplaySource(frames, fps=0) as cam:
        got = []
        last = -1
        while len(got) < 7:
            frame = cam.wait_frame(after=last, timeout=15)
            assert frame is not None
            got.append(frame)
            last = frame.index
    # The consumer may miss frames (it only sees the newest), but each is the picture its index
    # says: delivered frame n is picture n mod 3.
    assert all(np.array_equal(g.image, frames[g.index % 3]) for g in got)
    assert [g.index for g in got] == sorted({g.index for g in got})


def test_replay_frames_are_copies_the_consumer_may_draw_on() -> None:
    original = noise(1)
    with ReplaySource([original], fps=0) as cam:
        frame = cam.wait_frame(timeout=15)
        assert frame is not None
        frame.image[:] = 0
        later = cam.wait_frame(after=frame.index, timeout=15)
        assert later is not None and np.array_equal(later.image, original)


def test_a_replay_without_loop_keeps_its_last_picture_and_is_not_a_fault(events: Events) -> None:
    frames = [noise(i) for i in range(3)]
    cam = ReplaySource(frames, loop=False, fps=0, read_timeout=0.2)
    events.attach(cam)
    with cam:
        wait_until(lambda: cam.frames_delivered == 3, "three frames")
        # Several watchdog periods go by with no new picture: still no CameraLost.
        cam.wait_frame(after=2, timeout=1.0)
        assert cam.frames_delivered == 3 and events.items == [] and cam.state == "running"
        last = cam.latest()
        assert last is not None and np.array_equal(last.image, frames[2])
        cam.show([noise(9)])  # the demo moves on to the next scene
        nxt = cam.wait_frame(after=2, timeout=15)
        assert nxt is not None and np.array_equal(nxt.image, noise(9))


def test_replay_reads_a_folder_of_images_in_name_order(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"scene-{i}.png"), noise(i))
    (tmp_path / "notes.txt").write_text("not a picture")
    cam = open_camera(f"file:{tmp_path}", env={}, fps=0, loop=False)
    assert isinstance(cam, ReplaySource) and len(cam) == 3
    with cam:
        wait_until(lambda: cam.frames_delivered == 3, "three frames")
        last = cam.latest()
        assert last is not None and np.array_equal(last.image, noise(2))


def test_replay_plays_a_video_file(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20.0, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    cam = ReplaySource(path, fps=0)
    assert cam.fps == 0
    with cam:
        wait_until(lambda: cam.frames_delivered >= 12, "the video to loop")
        frame = cam.latest()
        assert frame is not None and frame.size == (64, 48)
    assert ReplaySource(path).fps == pytest.approx(20.0)


@pytest.mark.parametrize("make", [
    lambda tmp: tmp / "missing",
    lambda tmp: tmp,  # an empty folder
    lambda tmp: (tmp / "x.mp4").write_bytes(b"not a video") and tmp / "x.mp4",
    lambda tmp: (tmp / "x.png").write_bytes(b"not a png") and tmp / "x.png",
])
def test_replay_refuses_what_it_cannot_play(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CameraNotFound) as err:
        ReplaySource(make(tmp_path))
    assert str(tmp_path) in str(err.value)


@pytest.mark.parametrize("frames", [[], [np.zeros((4, 4, 3), np.float32)], [np.zeros((4, 4, 2), np.uint8)],
                                    ["picture"]])
def test_replay_refuses_bad_frames(frames: list[object]) -> None:
    with pytest.raises(CameraSpecError):
        ReplaySource(frames)  # type: ignore[arg-type]


def test_grey_and_bgra_pictures_become_bgr() -> None:
    with ReplaySource([np.zeros((8, 8), np.uint8), np.zeros((8, 8, 4), np.uint8)], fps=0) as cam:
        wait_until(lambda: cam.frames_delivered >= 2, "two frames")
        frame = cam.latest()
        assert frame is not None and frame.image.shape == (8, 8, 3)


# -- specs and open_camera ---------------------------------------------------------------------

@pytest.mark.parametrize("spec, parsed", [
    ("auto", ("auto", None)), ("picamera2", ("picamera2", 0)), ("picamera2:1", ("picamera2", 1)),
    ("cv2:0", ("cv2", 0)), (" CV2:3 ", ("cv2", 3)), ("file:/tmp/x", ("file", Path("/tmp/x"))),
])
def test_camera_specs(spec: str, parsed: tuple[str, object]) -> None:
    assert parse_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["", "cv2", "cv2:", "cv2:-1", "cv2:x", "usb:0", "file:", "picamera2:a", "webcam"])
def test_bad_camera_specs_say_what_is_expected(spec: str) -> None:
    with pytest.raises(CameraSpecError, match="expected auto, picamera2, cv2:N"):
        parse_spec(spec)


def test_the_spec_argument_wins_over_the_environment() -> None:
    script = Script()
    env = {"COMPANION_CAMERA": "cv2:1"}
    assert open_camera("cv2:2", env=env, capture_factory=capture_factory(script)).spec == "cv2:2"
    assert open_camera(None, env=env, capture_factory=capture_factory(script)).spec == "cv2:1"
    # The environment beats the configuration file (the demo swaps cameras that way) ...
    assert open_camera(None, configured="cv2:3", env=env, capture_factory=capture_factory(script)).spec == "cv2:1"
    # ... and the configuration beats auto.
    assert open_camera(None, configured="cv2:3", env={}, capture_factory=capture_factory(script)).spec == "cv2:3"
    # A named camera is not touched until it starts: it may be plugged in later.
    assert script.handles == []


def test_auto_takes_the_first_camera_that_gives_a_picture() -> None:
    script = Script(opens=[False, True])  # cv2:0 is absent, cv2:1 works

    def no_picamera(_n: int) -> FakePicamera2:
        raise RuntimeError("no cameras available")

    cam = open_camera(None, env={}, picamera2_factory=no_picamera, capture_factory=capture_factory(script),
                      **FAST)
    assert isinstance(cam, OpenCVSource) and cam.spec == "cv2:1"
    with cam:
        assert cam.wait_frame(timeout=15) is not None
    # The probe's open device was handed to the capture thread, not opened a second time.
    assert [h.device for h in script.handles] == [0, 1]


def test_auto_names_everything_it_tried() -> None:
    def no_picamera(_n: int) -> FakePicamera2:
        raise RuntimeError("no cameras available")

    with pytest.raises(CameraNotFound) as err:
        open_camera("auto", env={}, picamera2_factory=no_picamera,
                    capture_factory=capture_factory(Script(opens=[False, False])))
    message = str(err.value)
    for part in ["picamera2: RuntimeError: no cameras available", "cv2:0: could not open", "cv2:1: could not open",
                 "COMPANION_CAMERA"]:
        assert part in message


def test_a_missing_picamera2_module_is_named() -> None:
    cam = Picamera2Source(**FAST)  # the real factory: picamera2 is not installed here
    with pytest.raises(CameraNotFound, match="picamera2 cannot be imported"):
        cam.probe(timeout=15)


# -- picamera2 ---------------------------------------------------------------------------------

def test_full_view_mode_picks_the_binned_full_sensor_mode() -> None:
    assert full_view_mode(CM3_MODES, (4608, 2592), 2304, 1296)["size"] == (2304, 1296)  # type: ignore[index]
    assert full_view_mode(CM3_MODES, (4608, 2592), 3000, 2000)["size"] == (4608, 2592)  # type: ignore[index]
    # Asking for more than any mode gives: the largest full-view mode, never a cropped one.
    assert full_view_mode(CM3_MODES, (4608, 2592), 9000, 9000)["size"] == (4608, 2592)  # type: ignore[index]
    assert full_view_mode([], None, 640, 480) is None


def test_picamera2_is_configured_once_focused_once_and_locked_after_settling() -> None:
    made: list[FakePicamera2] = []
    settling = [{"ExposureTime": 10000 + 3000 * i, "AnalogueGain": 1.0 + 0.5 * i, "ColourGains": (1.2, 1.1)}
                for i in range(5)]
    settling += [{"ExposureTime": 25000, "AnalogueGain": 3.0, "ColourGains": (1.9, 1.4)}] * 5

    def factory(n: int) -> FakePicamera2:
        made.append(FakePicamera2(n, metadata=list(settling)))
        return made[-1]

    with Picamera2Source(factory=factory, **FAST) as cam:
        frame = cam.wait_frame(timeout=15)
        assert frame is not None and frame.image.dtype == np.uint8 and frame.image.shape[2] == 3
    (camera,) = made
    created = [kw for name, kw in camera.calls if name == "create_video_configuration"]
    assert created == [{"main": {"size": (2304, 1296), "format": "RGB888"}, "buffer_count": 4,
                        "controls": {"FrameRate": 15.0}, "raw": {"size": (2304, 1296)}}]
    names = [name for name, _ in camera.calls]
    assert names.count("configure") == 1 and names.count("autofocus_cycle") == 1
    assert names.index("start") < names.index("autofocus_cycle")
    assert camera.controls_set[0] == {"AfMode": 1}
    lock = camera.controls_set[-1]
    assert lock == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 25000, "AnalogueGain": 3.0,
                    "ColourGains": (1.9, 1.4)}
    assert cam.status["focused"] is True and cam.status["sensor_mode"] == (2304, 1296)
    assert camera.closed.is_set()


def test_a_fixed_focus_camera_gets_no_autofocus_cycle() -> None:
    made: list[FakePicamera2] = []

    def factory(n: int) -> FakePicamera2:
        made.append(FakePicamera2(n, autofocus=False))
        return made[-1]

    with Picamera2Source(factory=factory, **FAST) as cam:
        assert cam.wait_frame(timeout=15) is not None
    assert "autofocus_cycle" not in [name for name, _ in made[0].calls]
    assert cam.status["focused"] is None


def test_a_picamera2_exception_reopens_the_camera(events: Events) -> None:
    script = Script(steps=["frame"] * 3 + [RuntimeError("Camera frontend has timed out!")])
    made: list[FakePicamera2] = []

    def factory(n: int) -> FakePicamera2:
        made.append(FakePicamera2(n, script=script))
        return made[-1]

    cam = Picamera2Source(factory=factory, **FAST)
    events.attach(cam)
    with cam:
        events.wait_for(lambda items: [type(e).__name__ for e in items] == ["CameraLost", "CameraBack"],
                        "lost then back")
    assert "frontend has timed out" in events.lost()[0].reason
    assert len(made) == 2 and all(c.closed.is_set() for c in made)


def test_a_hung_picamera2_capture_is_abandoned_and_the_camera_reopened(events: Events) -> None:
    script = Script(steps=["frame"] * 2 + ["hang"])
    made: list[FakePicamera2] = []

    def factory(n: int) -> FakePicamera2:
        made.append(FakePicamera2(n, script=script))
        return made[-1]

    cam = Picamera2Source(factory=factory, **FAST)
    events.attach(cam)
    with cam:
        events.wait_for(lambda items: len(items) >= 2, "lost then back")
    assert isinstance(events.items[0], CameraLost) and "stopped answering" in events.items[0].reason
    assert made[0].closed.is_set() and len(made) >= 2


def test_a_replay_can_script_an_outage(events: Events) -> None:
    cam = ReplaySource([noise(1), noise(2)], fps=50, read_timeout=0.3, backoff_initial=0.01, backoff_max=0.05)
    events.attach(cam)
    with cam:
        assert cam.wait_frame(timeout=15) is not None
        cam.unplug()
        events.wait_for(lambda items: len(items) == 1, "CameraLost")
        assert cam.latest() is None and cam.state == "lost"
        cam.plug_in()
        events.wait_for(lambda items: len(items) == 2, "CameraBack")
    assert events.kinds() == ["CameraLost", "CameraBack"]
    assert "reads in a row returned no picture" in events.lost()[0].reason


def test_hw_check_reports_what_the_pi_camera_did_at_start() -> None:
    from hardware.check import HwCheck

    lines: list[str] = []
    cam = Picamera2Source(factory=lambda n: FakePicamera2(n), **FAST)
    HwCheck(camera=cam, out=lines.append, fps_seconds=0.2, marker_finder=lambda _img: {}).run()
    cam.stop()
    assert "    focused; exposure locked at 20000 µs, gain 2.00" in lines


def test_a_slow_slideshow_is_not_a_hung_camera() -> None:
    assert ReplaySource([noise(1)], fps=0.2).read_timeout >= 15.0
    assert ReplaySource([noise(1)], fps=30).read_timeout == 2.0


def test_a_source_keeps_the_previews_of_its_last_few_frames_only() -> None:
    from hardware.frames import PREVIEWS_KEPT, preview_of

    frames = [noise(i) for i in range(3)]
    with ReplaySource(frames, fps=0) as cam:
        first = cam.wait_frame(timeout=15)
        assert first is not None
        assert cam.wait_frame(after=first.index + PREVIEWS_KEPT + 1, timeout=15) is not None
        cam.stop()  # nothing new arrives while the previews are checked
        newest = cam.latest()
        assert newest is not None and newest.index > first.index + PREVIEWS_KEPT
        assert newest.preview is not None and np.array_equal(newest.preview, preview_of(newest.image))
        # The replay delivers frame n as picture n mod 3: the kept preview of the frame before
        # the newest is that picture's, and frames long gone have no preview any more.
        before = cam.preview(newest.index - 1)
        assert before is not None and np.array_equal(before, preview_of(frames[(newest.index - 1) % 3]))
        assert cam.preview(first.index) is None


def test_a_preview_keeps_every_nth_pixel_at_least_preview_width_wide() -> None:
    from hardware.frames import PREVIEW_WIDTH, preview_of

    for width in (100, 160, 319, 320, 1152, 2304):
        image = np.random.default_rng(width).integers(0, 256, (40, width, 3), dtype=np.uint8)
        small = preview_of(image)
        step = max(1, width // PREVIEW_WIDTH)
        assert np.array_equal(small, image[::step, ::step])
        assert min(width, PREVIEW_WIDTH) <= small.shape[1] < 2 * PREVIEW_WIDTH
