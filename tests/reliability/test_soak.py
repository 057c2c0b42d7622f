"""Camera faults and bouncing buttons, many times over (issue 8).

Camera: unplug, hang and stale-frame faults in turn on the real OpenCVSource (watchdog, reconnect,
events) over a switchable fake device; every fault gives a CameraLost, a healthy device a
CameraBack and new frames, and the consumer is never handed a picture while the camera is lost.
Buttons: bounce trains on gpiozero MockFactory pins through the real Controls: exactly one logical
press per train, so never a double end-turn. Durations are measured for docs/reliability.md (by
``bench/reliability.py``), never asserted."""

from __future__ import annotations

import logging

import pytest

from .soak import FAULTS, button_soak, camera_soak


@pytest.fixture(autouse=True)
def quiet_camera_log():  # type: ignore[no-untyped-def]
    # One warning per outage is right on a game night; hundreds in a soak are noise.
    logger = logging.getLogger("hardware.camera")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def check_camera(cycles: int, seed: int) -> None:
    soak = camera_soak(cycles, seed=seed)
    assert soak.cycles == cycles
    assert set(soak.by_fault) == set(FAULTS)
    assert soak.back_events == soak.lost_events >= cycles
    assert soak.stale_frames_served == 0


def test_camera_faults_are_each_detected_and_recovered_from() -> None:
    check_camera(15, seed=1)


@pytest.mark.slow
def test_a_thousand_camera_fault_cycles() -> None:
    check_camera(1000, seed=2)


def check_buttons(trains: int, seed: int) -> None:
    soak = button_soak(trains, seed=seed)
    assert soak.trains == trains and soak.edges > 3 * trains
    assert soak.double_presses == 0 and soak.missed == 0
    assert soak.presses == trains


def test_bounce_trains_give_exactly_one_press_each() -> None:
    check_buttons(3000, seed=1)


@pytest.mark.slow
def test_twenty_thousand_bounce_trains() -> None:
    check_buttons(20_000, seed=2)


def test_the_button_soak_sees_a_double_press_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without our debounce (every closing edge a press) the soak must report double presses.
    from hardware import debounce

    def raw_edge(self, pressed, t):  # type: ignore[no-untyped-def]
        return ["press"] if pressed else []

    monkeypatch.setattr(debounce.ButtonLogic, "edge", raw_edge)
    soak = button_soak(200, seed=3)
    assert soak.double_presses > 0
