"""Soak campaigns shared by the tests and ``bench/reliability.py``: scripted camera faults on the
real OpenCVSource (its watchdog, reconnection and events), and bounce trains on the real gpiozero
Controls (MockFactory pins, our debounce) feeding a session's end-turn handler."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gpiozero.pins.mock import MockFactory

from hardware import CameraBack, CameraLost, ControlEvent, Controls, GpioLayout, OpenCVSource

# ------------------------------------------------------------------------------ the camera

FAULTS = ("unplug", "hang", "stale")


class Device:
    """A camera whose condition the test switches: ``ok``, ``unplug`` (opens fail, reads give
    nothing), ``hang`` (a read blocks until its handle is closed, like a stuck driver), ``stale``
    (open handles repeat one picture, as V4L does after a USB unplug, and new opens fail)."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.lock = threading.Lock()
        self.counter = 0
        self.opens = 0

    def picture(self) -> np.ndarray:
        with self.lock:
            self.counter += 1
            seed = self.counter
        return np.random.default_rng(seed).integers(0, 256, (24, 32, 3), dtype=np.uint8)

    def factory(self, _device: Any) -> Handle:
        with self.lock:
            self.opens += 1
        return Handle(self, self.mode == "ok")


class Handle:
    """Quacks like cv2.VideoCapture."""

    def __init__(self, device: Device, opened: bool) -> None:
        self.device = device
        self.opened = opened
        self.released = threading.Event()
        self.last: np.ndarray | None = None

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened and not self.released.is_set()

    def set(self, prop: int, value: float) -> bool:
        return True

    def get(self, prop: int) -> float:
        return 0.0

    def release(self) -> None:
        self.released.set()

    def read(self) -> tuple[bool, np.ndarray | None]:
        time.sleep(0.003)  # a real camera paces itself
        mode = self.device.mode
        if self.released.is_set() or mode == "unplug":
            return False, None
        if mode == "hang":
            self.released.wait()
            return False, None
        if mode == "stale" and self.last is not None:
            return True, self.last.copy()
        self.last = self.device.picture()
        return True, self.last


@dataclass
class CameraSoak:
    cycles: int = 0
    lost_events: int = 0
    back_events: int = 0
    extra_outages: int = 0  # outages beyond the injected ones (a starved thread on a busy machine)
    stale_frames_served: int = 0  # latest() returning a frame while the camera was lost
    detect_s: list[float] = field(default_factory=list)  # fault injected -> CameraLost
    recover_s: list[float] = field(default_factory=list)  # device healthy -> CameraBack
    latest_max_s: float = 0.0  # the longest a consumer's latest() call took
    by_fault: dict[str, int] = field(default_factory=dict)


def camera_soak(cycles: int, *, seed: int = 0, bound: float = 20.0, read_timeout: float = 0.4,
                stale_seconds: float = 0.3) -> CameraSoak:
    """Inject ``cycles`` faults one after another; each must give one CameraLost, then one
    CameraBack once the device is healthy, and new frames. Raises AssertionError otherwise."""
    rng = random.Random(seed)
    device = Device()
    out = CameraSoak()
    events: list[Any] = []
    cond = threading.Condition()

    def listener(event: Any) -> None:
        with cond:
            events.append((time.perf_counter(), event))
            cond.notify_all()

    def wait_for(kind: type, count: int, what: str) -> float:
        deadline = time.monotonic() + bound
        with cond:
            while sum(isinstance(e, kind) for _, e in events) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"cycle {out.cycles}: never saw {what}; events {[e for _, e in events][-6:]}")
                cond.wait(min(left, 0.05))
            return next(t for t, e in reversed(events) if isinstance(e, kind))

    def consume(until: threading.Event) -> None:
        # A consumer polling like the UI does: latest() must answer at once, and never hand out a
        # picture while the camera is lost.
        while not until.is_set():
            t0 = time.perf_counter()
            frame = cam.latest()
            took = time.perf_counter() - t0
            out.latest_max_s = max(out.latest_max_s, took)
            if frame is not None and cam.state == "lost":
                out.stale_frames_served += 1
            time.sleep(0.002)

    cam = OpenCVSource(0, width=32, height=24, factory=device.factory, read_timeout=read_timeout, open_timeout=2.0,
                       stale_seconds=stale_seconds, failed_reads=3, backoff_initial=0.01, backoff_max=0.05)
    cam.on_event(listener)
    stop = threading.Event()
    consumer = threading.Thread(target=consume, args=(stop,), daemon=True)
    with cam:
        deadline = time.monotonic() + bound
        while cam.latest() is None:
            if time.monotonic() > deadline:
                raise AssertionError("the camera never delivered a first frame")
            time.sleep(0.01)
        consumer.start()
        try:
            for k in range(cycles):
                fault = FAULTS[k % len(FAULTS)] if rng.random() < 0.7 else rng.choice(FAULTS)
                out.by_fault[fault] = out.by_fault.get(fault, 0) + 1
                lost_before = sum(isinstance(e, CameraLost) for _, e in events)
                back_before = sum(isinstance(e, CameraBack) for _, e in events)
                t_fault = time.perf_counter()
                device.mode = fault
                t_lost = wait_for(CameraLost, lost_before + 1, f"CameraLost after {fault}")
                out.detect_s.append(t_lost - t_fault)
                time.sleep(rng.random() * 0.05)  # the outage lasts a little
                t_ok = time.perf_counter()
                device.mode = "ok"
                t_back = wait_for(CameraBack, back_before + 1, f"CameraBack after {fault}")
                out.recover_s.append(max(0.0, t_back - t_ok))
                index = cam.frames_delivered
                deadline = time.monotonic() + bound
                while cam.frames_delivered <= index + 1:
                    if time.monotonic() > deadline:
                        raise AssertionError(f"cycle {k}: no new frames after CameraBack")
                    time.sleep(0.005)
                out.cycles += 1
        finally:
            stop.set()
            consumer.join(2)
    with cond:
        out.lost_events = sum(isinstance(e, CameraLost) for _, e in events)
        out.back_events = sum(isinstance(e, CameraBack) for _, e in events)
    out.extra_outages = out.lost_events - out.cycles
    return out


# ------------------------------------------------------------------------------ the buttons

LAYOUT = GpioLayout(seats=4, end_turn=(5, 6, 13, 19), undo=26, scan=21, leds=(17, 27, 22, 23),
                    debounce_ms=50, hold_seconds=1.5, long_press="undo")


@dataclass
class ButtonSoak:
    trains: int = 0
    edges: int = 0
    presses: int = 0
    double_presses: int = 0  # a train that gave two or more logical presses
    missed: int = 0  # a train that gave none
    end_turns: int = 0  # end-turn presses the table handler saw


def bounce_train(rng: random.Random, start: float) -> list[tuple[bool, float]]:
    """A press as an arcade button makes it: the contact chatters for up to 20 ms when it closes
    (odd number of edges, ending closed), stays down 60-900 ms, and chatters again on release."""
    edges: list[tuple[bool, float]] = []
    t = start
    for k in range(rng.choice([1, 1, 3, 5, 7, 9, 15, 21])):
        edges.append((k % 2 == 0, t))
        t += rng.uniform(0.0001, 20 / max(1, k + 1)) / 1000
    t += rng.uniform(0.06, 0.9)
    for k in range(rng.choice([1, 1, 3, 5, 9])):
        edges.append((k % 2 == 1, t))
        t += rng.uniform(0.0001, 0.004)
    return edges


def button_soak(trains: int, *, seed: int = 0) -> ButtonSoak:
    """``trains`` bounce trains on random buttons, well apart; count the logical presses each
    gives through Controls (gpiozero MockFactory pins, the real edge callbacks)."""
    rng = random.Random(seed)
    factory = MockFactory()
    now = [1000.0]
    got: list[ControlEvent] = []
    out = ButtonSoak()
    pins = [(p, "end_turn", seat) for seat, p in enumerate(LAYOUT.end_turn)] + [(26, "undo", None), (21, "scan", None)]
    with Controls(LAYOUT, pin_factory=factory, clock=lambda: now[0], autotick=False, on_event=got.append) as controls:
        for _ in range(trains):
            pin, action, seat = rng.choice(pins)
            before = len(got)
            for pressed, t in bounce_train(rng, now[0]):
                now[0] = t
                if pressed:
                    factory.pin(pin).drive_low()  # buttons close to ground
                else:
                    factory.pin(pin).drive_high()
                out.edges += 1
            for _ in range(8):  # let the release be trusted
                now[0] += 0.02
                controls.tick()
            now[0] += rng.uniform(0.3, 2.0)  # the next player's press
            controls.tick()
            mine = got[before:]
            out.trains += 1
            out.presses += len(mine)
            if len(mine) > 1:
                out.double_presses += 1
            if not mine:
                out.missed += 1
            if mine and mine[0] != ControlEvent(action, seat):  # type: ignore[arg-type]
                raise AssertionError(f"a press of pin {pin} gave {mine[0]}, expected {action} for seat {seat}")
            out.end_turns += sum(e.action == "end_turn" for e in mine)
    return out
