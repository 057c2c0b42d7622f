"""``companion hw check``: the wiring and camera self-test, with every device injectable.

It lights each seat LED in turn, sounds the buzzer, asks for each button to be pressed and waits
for it (a time limit per button, and a way to skip), starts the camera and reports its size and
frames per second, looks for the four calibration markers and saves an annotated snapshot.

Everything it touches is passed in: controls (``Controls`` on gpiozero's ``MockFactory`` in tests),
a frame source (a ``ReplaySource``), a ``person`` callback that is told which button to press (the
tests press it on the mock pins), and the marker finder (the vision layer's when available).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .controls import ButtonSpec, ControlEvent, Controls
from .frames import Frame, FrameSource

MARKER_PLACES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}

MarkerFinder = Callable[[np.ndarray], dict[int, np.ndarray]]


@dataclass
class CheckResult:
    """One line of the report: ``ok`` is True, False (a fault) or None (skipped)."""

    name: str
    ok: bool | None
    detail: str = ""

    def __str__(self) -> str:
        word = {True: "ok", False: "FAILED", None: "skipped"}[self.ok]
        return f"{self.name}: {word}" + (f" ({self.detail})" if self.detail else "")


@dataclass
class CheckReport:
    results: list[CheckResult] = field(default_factory=list)
    camera: dict[str, Any] = field(default_factory=dict)
    markers: list[int] = field(default_factory=list)
    snapshot: Path | None = None

    @property
    def ok(self) -> bool:
        """No failures (skipped checks do not count against it)."""
        return all(r.ok is not False for r in self.results)

    def result(self, name: str) -> CheckResult:
        return next(r for r in self.results if r.name == name)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Corners of calibration markers 0-3 (ArUco DICT_4X4_50) in a BGR picture."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=True):
        if int(i) in MARKER_PLACES:
            found[int(i)] = c.reshape(4, 2).astype(np.float64)
    return found


class HwCheck:
    def __init__(self, *, controls: Controls | None = None, camera: FrameSource | None = None,
                 out: Callable[[str], None] = print,
                 person: Callable[[ButtonSpec], None] | None = None,
                 skip: Callable[[], bool] | None = None,
                 button_timeout: float = 20.0, led_seconds: float = 0.6, fps_seconds: float = 2.0,
                 first_frame_timeout: float = 15.0, snapshot: Path | None = None,
                 marker_finder: MarkerFinder = find_markers,
                 calibrate: Callable[[np.ndarray], float] | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.controls = controls
        self.camera = camera
        self.out = out
        self.person = person
        self.skip = skip or (lambda: False)
        self.button_timeout = button_timeout
        self.led_seconds = led_seconds
        self.fps_seconds = fps_seconds
        self.first_frame_timeout = first_frame_timeout
        self.snapshot = snapshot
        self.marker_finder = marker_finder
        self.calibrate = calibrate
        self.sleep = sleep
        self.report = CheckReport()

    def add(self, name: str, ok: bool | None, detail: str = "") -> CheckResult:
        result = CheckResult(name, ok, detail)
        self.report.results.append(result)
        self.out(f"  {result}")
        return result

    def run(self) -> CheckReport:
        if self.controls is not None:
            self.check_leds()
            self.check_buttons()
        if self.camera is not None:
            self.check_camera()
        bad = [r.name for r in self.report.results if r.ok is False]
        self.out("All checks passed." if not bad else f"{len(bad)} check(s) failed: {', '.join(bad)}.")
        return self.report

    # -- LEDs and buzzer -----------------------------------------------------------------------

    def check_leds(self) -> None:
        controls = self.controls
        assert controls is not None
        self.out("LEDs: each seat's LED lights in turn; watch them.")
        for i, pin in enumerate(controls.layout.leds):
            controls.show_turn(i)
            self.sleep(self.led_seconds)
            on = controls.leds[i].value == 1 and all(
                led.value == 0 for j, led in enumerate(controls.leds) if j != i)
            self.add(f"LED seat {i + 1} (GPIO{pin})", bool(on),
                     "lit" if on else "the pin did not switch")
        controls.show_turn(None)
        if controls.layout.buzzer is not None:
            controls.buzz(2)
            self.add(f"buzzer (GPIO{controls.layout.buzzer})", True, "two beeps: did you hear them?")

    # -- buttons -------------------------------------------------------------------------------

    def check_buttons(self) -> None:
        controls = self.controls
        assert controls is not None
        if not controls.buttons:
            self.add("buttons", None, "none configured")
            return
        self.out(f"Buttons: press each one when asked ({self.button_timeout:g} s each; "
                 "press Enter here to skip one).")
        for spec in controls.buttons:
            self.check_button(spec)

    def check_button(self, spec: ButtonSpec) -> None:
        controls = self.controls
        assert controls is not None
        controls.poll()  # forget presses from before the question
        self.out(f"  Press the {spec.name} button (GPIO{spec.pin}) ...")
        if self.person is not None:
            self.person(spec)
        deadline = time.monotonic() + self.button_timeout
        while True:
            if self.skip():
                self.add(spec.name, None, "skipped at the keyboard")
                return
            left = deadline - time.monotonic()
            if left <= 0:
                self.add(spec.name, False, f"no press within {self.button_timeout:g} s: check its wiring")
                return
            event = controls.get(timeout=min(0.1, left))
            if event is None:
                continue
            if self._is_from(event, spec):
                self.add(spec.name, True, f"GPIO{spec.pin}")
                return
            self.out(f"    got {_describe(event)} instead; still waiting for {spec.name}")

    @staticmethod
    def _is_from(event: ControlEvent, spec: ButtonSpec) -> bool:
        if event.seat != spec.seat:
            return False
        if spec.action == "end_turn":
            return event.action == "end_turn" or event.held  # a long press of it is still it
        return event.action == spec.action and not event.held

    # -- camera --------------------------------------------------------------------------------

    def check_camera(self) -> None:
        camera = self.camera
        assert camera is not None
        self.out(f"Camera: starting {camera.describe()} ...")
        camera.start()
        first = camera.wait_frame(timeout=self.first_frame_timeout)
        if first is None:
            why = camera.lost_reason or "no picture yet"
            self.add("camera", False, f"{camera.describe()}: no picture within "
                     f"{self.first_frame_timeout:g} s ({why})")
            return
        w, h = first.size
        last = first
        end = time.monotonic() + self.fps_seconds
        while (left := end - time.monotonic()) > 0:
            frame = camera.wait_frame(after=last.index, timeout=left)
            if frame is None:
                break
            last = frame
        span = last.captured_at - first.captured_at
        fps = (last.index - first.index) / span if span > 0 else 0.0
        self.report.camera = {"source": camera.describe(), "width": w, "height": h, "fps": round(fps, 1)}
        self.add("camera", True, f"{camera.describe()}, {w}x{h}, {fps:.1f} frames/s")
        status = getattr(camera, "status", None)
        if status:  # what the Pi camera did at start: focus and exposure
            focus = {True: "focused", False: "autofocus did not converge", None: "fixed focus"}[
                status.get("focused")]
            locked = status.get("locked")
            exposure = (f"exposure locked at {locked['ExposureTime']} µs, gain {locked['AnalogueGain']:.2f}"
                        if locked else "exposure and white balance automatic")
            self.out(f"    {focus}; {exposure}")
        self.check_markers(last)

    def check_markers(self, frame: Frame) -> None:
        found = self.marker_finder(frame.image)
        self.report.markers = sorted(found)
        missing = [i for i in MARKER_PLACES if i not in found]
        if missing:
            names = "; ".join(f"marker {i} ({MARKER_PLACES[i]}) not seen" for i in missing)
            self.add("markers", False, names)
        else:
            detail = "all four seen"
            ok = True
            if self.calibrate is not None:
                try:
                    error = self.calibrate(frame.image)
                    detail += f", fit error {error:.2f} px"
                except ValueError as exc:
                    ok, detail = False, f"all four seen, but {exc}"
            self.add("markers", ok, detail)
        if self.snapshot is not None:
            self.save_snapshot(frame, found)

    def save_snapshot(self, frame: Frame, found: dict[int, np.ndarray]) -> None:
        import cv2

        image = frame.image.copy()
        scale = max(1.0, image.shape[1] / 1000)
        thick = max(2, round(2 * scale))
        height, width = image.shape[:2]
        for i, corners in found.items():
            pts = corners.astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(image, [pts], True, (0, 220, 0), thick)
            label = f"{i} {MARKER_PLACES[i]}"
            (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, thick)
            # Beside the marker, towards the middle of the picture, and never off its edge.
            below = corners[:, 1].max() + th + 8 * scale
            above = corners[:, 1].min() - 8 * scale
            y = below if corners[:, 1].mean() < height / 2 else above
            x = min(max(4.0, corners[:, 0].mean() - tw / 2), width - tw - 4.0)
            cv2.putText(image, label, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale,
                        (0, 160, 0), thick)
        cam = self.report.camera
        lines = [f"{cam.get('source', '?')}  {cam.get('width', '?')}x{cam.get('height', '?')}  "
                 f"{cam.get('fps', '?')} fps",
                 "markers seen: " + (", ".join(str(i) for i in sorted(found)) or "none")]
        for k, text in enumerate(lines):
            y = int((30 + 32 * k) * scale)
            cv2.putText(image, text, (int(12 * scale), y), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale,
                        (0, 0, 0), thick + 3)
            cv2.putText(image, text, (int(12 * scale), y), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale,
                        (255, 255, 255), thick)
        path = Path(self.snapshot) if self.snapshot is not None else None
        assert path is not None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            written = cv2.imwrite(str(path), image)
        except (OSError, cv2.error) as exc:
            written, why = False, str(exc)
        else:
            why = "the image could not be written"
        if written:
            self.report.snapshot = path
            self.add("snapshot", True, str(path))
        else:
            self.add("snapshot", False, f"{path}: {why}")


def _describe(event: ControlEvent) -> str:
    who = "shared" if event.seat is None else f"seat {event.seat + 1}"
    return f"{event.action.replace('_', ' ')} ({who}{', held' if event.held else ''})"
