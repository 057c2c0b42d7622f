"""Every camera fault is detected, reported once as CameraLost, and recovered from (CameraBack).

A fault-injecting fake VideoCapture plays a script of reads. Timeouts are made short through the
source's options; the tests wait (with a generous bound) for events and assert on what happened,
never on how long it took.
"""

from __future__ import annotations

import numpy as np
import pytest

from hardware import CameraBack, CameraLost, OpenCVSource
from hardware.errors import CameraSpecError

from .conftest import Events, wait_until
from .fakes import Script, capture_factory

FAST = dict(read_timeout=0.3, open_timeout=2.0, stale_seconds=0.3, failed_reads=3,
            backoff_initial=0.01, backoff_max=0.05)


def source(script: Script, **options: object) -> OpenCVSource:
    return OpenCVSource(0, width=640, height=480, factory=capture_factory(script), **{**FAST, **options})


def lost_then_back(events: Events) -> None:
    events.wait_for(lambda items: any(isinstance(e, CameraLost) for e in items), "CameraLost")
    events.wait_for(lambda items: any(isinstance(e, CameraBack) for e in items), "CameraBack")


def test_a_healthy_camera_delivers_new_bgr_frames_and_no_events(events: Events) -> None:
    script = Script()
    # A long watchdog: on a loaded machine a short one could fire, and here no event may fire.
    with source(script, read_timeout=3.0) as cam:
        events.attach(cam)
        first = cam.wait_frame(timeout=15)
        assert first is not None
        second = cam.wait_frame(after=first.index, timeout=15)
        assert second is not None and second.index > first.index
        assert second.captured_at >= first.captured_at
        assert second.image.dtype == np.uint8 and second.image.shape[2] == 3
        assert cam.state == "running"
    assert events.items == []
    assert cam.state == "stopped"
    # The driver was asked for the configured size and the shortest queue.
    import cv2

    settings = script.handles[0].settings
    assert settings[cv2.CAP_PROP_FRAME_WIDTH] == 640 and settings[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert all(h.released.is_set() for h in script.handles)


@pytest.mark.parametrize("step, reason", [
    ("false", "reads in a row returned no picture"),
    ("none", "reads in a row returned no picture"),
    (RuntimeError("Camera frontend has timed out!"), "RuntimeError: Camera frontend has timed out!"),
    ("bad", "expected H x W x 3"),
])
def test_failing_reads_are_reported_and_the_camera_recovers(events: Events, step: object, reason: str) -> None:
    script = Script(steps=["frame"] * 3 + [step] * 3)
    with source(script) as cam:
        events.attach(cam)
        lost_then_back(events)
        assert reason in events.lost()[0].reason
        assert events.kinds()[:2] == ["CameraLost", "CameraBack"]
        assert events.latest_when_lost == [None]  # nobody scans a picture from before the fault
        back_at = cam.frames_delivered
        wait_until(lambda: cam.frames_delivered > back_at + 2, "frames after recovery")
        assert cam.latest() is not None and cam.outages == 1
    # a new device handle was opened for the recovery, and every handle was released
    assert len(script.handles) >= 2 and all(h.released.is_set() for h in script.handles)


def test_a_single_failed_read_is_not_an_outage(events: Events) -> None:
    script = Script(steps=["frame", "false", "frame", "false", "none", "frame"] * 3)
    with source(script, read_timeout=3.0) as cam:
        events.attach(cam)
        wait_until(lambda: cam.frames_delivered >= 12 and not script.steps, "the script to run out")
    assert events.items == []


def test_a_hung_read_is_caught_by_the_watchdog(events: Events) -> None:
    script = Script(steps=["frame"] * 3 + ["hang"])
    with source(script) as cam:
        events.attach(cam)
        lost_then_back(events)
        assert "stopped answering" in events.lost()[0].reason
        assert script.hung == 1
        # The stuck handle was closed from outside, which freed its reader.
        wait_until(lambda: script.handles[0].released.is_set(), "the hung handle to be released")


def test_a_read_stuck_for_good_is_abandoned_and_a_new_handle_opened(events: Events) -> None:
    script = Script(steps=["frame"] * 3 + ["stuck"])
    try:
        with source(script) as cam:
            events.attach(cam)
            lost_then_back(events)
            first = cam.frames_delivered
            wait_until(lambda: cam.frames_delivered > first + 3, "frames from the new handle")
        assert script.hung == 1 and len(script.handles) >= 2
    finally:
        script.unstick.set()


def test_the_same_picture_forever_is_a_lost_camera(events: Events) -> None:
    # What V4L does after a USB webcam is pulled: the last buffer, again and again.
    script = Script(steps=["frame"] + ["stale"] * 400)
    with source(script) as cam:
        events.attach(cam)
        events.wait_for(lambda items: any(isinstance(e, CameraLost) for e in items), "CameraLost")
        assert "same picture" in events.lost()[0].reason
        script.steps.clear()  # plugged back in
        events.wait_for(lambda items: any(isinstance(e, CameraBack) for e in items), "CameraBack")


def test_a_camera_missing_at_start_is_reported_once_and_picked_up_when_it_appears(events: Events) -> None:
    script = Script(opens=[False] * 6)
    cam = source(script)
    events.attach(cam)
    with cam:
        lost_then_back(events)
        assert "could not open the camera cv2:0" in events.lost()[0].reason
        # Six failed opens, one outage: the app is told once, not six times.
        assert events.kinds().count("CameraLost") == 1
        assert cam.state == "running"
    assert sum(1 for h in script.handles if not h.opened) == 6


def test_each_outage_is_one_lost_and_one_back(events: Events) -> None:
    script = Script(steps=["frame"] * 3 + ["false"] * 3 + ["frame"] * 20 + [RuntimeError("dequeue timer expired")])
    with source(script) as cam:
        events.attach(cam)
        events.wait_for(lambda items: [type(e).__name__ for e in items].count("CameraBack") == 2, "two recoveries")
        assert events.kinds() == ["CameraLost", "CameraBack", "CameraLost", "CameraBack"]
        assert cam.outages == 2
        assert cam.lost_reason == "RuntimeError: dequeue timer expired"


def test_frame_indices_keep_growing_across_a_reconnection(events: Events) -> None:
    script = Script(steps=["frame"] * 5 + ["false"] * 3)
    with source(script) as cam:
        events.attach(cam)
        seen = []
        lost_then_back(events)
        wait_until(lambda: cam.latest() is not None, "a frame after recovery")
        frame = cam.latest()
        assert frame is not None
        seen.append(frame.index)
        assert frame.index >= 5


def test_a_broken_listener_does_not_stop_the_camera(events: Events) -> None:
    script = Script(steps=["frame"] * 3 + ["false"] * 3)
    cam = source(script)

    def broken(_event: object) -> None:
        raise ValueError("listener bug")

    cam.on_event(broken)
    events.attach(cam)
    with cam:
        lost_then_back(events)


def test_stop_is_idempotent_and_latest_is_none_before_the_first_frame() -> None:
    cam = source(Script(opens=[False] * 1000))
    assert cam.latest() is None and cam.state == "stopped"
    cam.start()
    cam.start()
    cam.stop()
    cam.stop()
    assert cam.state == "stopped" and cam.latest() is None


@pytest.mark.parametrize("option", [dict(read_timeout=0), dict(open_timeout=-1), dict(stale_seconds=0),
                                    dict(failed_reads=0), dict(backoff_initial=0)])
def test_nonsense_options_are_refused(option: dict[str, float]) -> None:
    with pytest.raises(CameraSpecError):
        OpenCVSource(0, factory=capture_factory(Script()), **option)  # type: ignore[arg-type]
