"""``hw check`` with MockFactory pins, a replay camera and a scripted person at the buttons; and the
``companion hw`` command line."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from hardware import ButtonSpec, Controls, GpioLayout, OpenCVSource, ReplaySource
from hardware.check import HwCheck, find_markers

from .fakes import Script, capture_factory

ROOT = Path(__file__).resolve().parents[2]
MARGIN = 60  # px; the scene is drawn at 1 px per mm


def table_scene(*, cover: tuple[int, ...] = (), width_mm: int = 1000, height_mm: int = 700,
                marker_mm: int = 40) -> np.ndarray:
    """A plain table with the four calibration markers centred on the play-area corners."""
    image = np.full((height_mm + 2 * MARGIN, width_mm + 2 * MARGIN, 3), 180, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    centres = [(0, 0), (width_mm, 0), (width_mm, height_mm), (0, height_mm)]
    for i, (x, y) in enumerate(centres):
        if i in cover:
            continue
        half = marker_mm // 2
        # a white quiet zone around each marker, as printed
        cv2.rectangle(image, (MARGIN + x - half - 8, MARGIN + y - half - 8),
                      (MARGIN + x + half + 8, MARGIN + y + half + 8), (255, 255, 255), -1)
        marker = cv2.aruco.generateImageMarker(dictionary, i, marker_mm)
        image[MARGIN + y - half:MARGIN + y + half, MARGIN + x - half:MARGIN + x + half] = marker[:, :, None]
    return image


LAYOUT = GpioLayout(seats=2, end_turn=(5, 6), undo=26, scan=21, leds=(17, 27), buzzer=12, debounce_ms=5)


class Person:
    """Presses the button asked for (or another one first, or none at all)."""

    def __init__(self, factory: MockFactory, *, wrong_first: dict[str, int] | None = None,
                 ignore: tuple[str, ...] = ()) -> None:
        self.factory = factory
        self.wrong_first = wrong_first or {}
        self.ignore = ignore
        self.asked: list[str] = []

    def tap(self, pin: int) -> None:
        self.factory.pin(pin).drive_low()
        self.factory.pin(pin).drive_high()
        # A hand needs far longer than the 5 ms debounce before it presses anything again; a
        # re-press sooner than that is, by design, taken for contact bounce.
        time.sleep(0.03)

    def __call__(self, spec: ButtonSpec) -> None:
        self.asked.append(spec.name)
        if spec.name in self.ignore:
            return
        if spec.name in self.wrong_first:
            self.tap(self.wrong_first[spec.name])
        assert spec.pin is not None
        self.tap(spec.pin)


def run(tmp_path: Path, *, person_options: dict | None = None, scene: np.ndarray | None = None,  # type: ignore[type-arg]
        **options: object) -> tuple[object, list[str], Person]:
    factory = MockFactory()
    lines: list[str] = []
    person = Person(factory, **(person_options or {}))
    camera = ReplaySource([table_scene() if scene is None else scene], fps=30)
    # min_interval=0: the scripted person presses buttons faster than any player could
    with Controls(LAYOUT, pin_factory=factory, tick_interval=0.002, min_interval=0.0) as controls:
        check = HwCheck(controls=controls, camera=camera, out=lines.append, person=person,
                        led_seconds=0, fps_seconds=0.3, snapshot=tmp_path / "snap.png",
                        **options)  # type: ignore[arg-type]
        try:
            report = check.run()
        finally:
            camera.stop()
    return report, lines, person


def test_everything_wired_right_passes_and_saves_a_snapshot(tmp_path: Path) -> None:
    report, lines, person = run(tmp_path)
    assert report.ok, "\n".join(lines)  # type: ignore[attr-defined]
    assert person.asked == ["end turn, seat 1", "end turn, seat 2", "undo", "scan"]
    names = [r.name for r in report.results]  # type: ignore[attr-defined]
    assert names == ["LED seat 1 (GPIO17)", "LED seat 2 (GPIO27)", "buzzer (GPIO12)", "end turn, seat 1",
                     "end turn, seat 2", "undo", "scan", "camera", "markers", "snapshot"]
    assert report.camera["width"] == 1120 and report.camera["height"] == 820  # type: ignore[attr-defined]
    assert report.markers == [0, 1, 2, 3]  # type: ignore[attr-defined]
    saved = cv2.imread(str(tmp_path / "snap.png"))
    assert saved is not None and saved.shape == (820, 1120, 3)
    assert lines[-1] == "All checks passed."


def test_a_wrong_button_is_named_and_the_right_one_still_awaited(tmp_path: Path) -> None:
    report, lines, _ = run(tmp_path, person_options=dict(wrong_first={"undo": 21}))
    assert report.ok  # type: ignore[attr-defined]
    assert any("got scan (shared) instead; still waiting for undo" in line for line in lines)


def test_a_dead_button_fails_the_check_and_the_others_still_pass(tmp_path: Path) -> None:
    report, lines, _ = run(tmp_path, person_options={"ignore": ("end turn, seat 2",)}, button_timeout=0.3)
    seat2 = report.result("end turn, seat 2")  # type: ignore[attr-defined]
    assert seat2.ok is False and seat2.detail == "no press within 0.3 s: check its wiring"
    assert report.result("scan").ok is True  # type: ignore[attr-defined]
    assert not report.ok  # type: ignore[attr-defined]
    assert lines[-1] == "1 check(s) failed: end turn, seat 2."


def test_skipping_a_button_at_the_keyboard(tmp_path: Path) -> None:
    state = {"asked": ""}

    class Asking(Person):
        def __call__(self, spec: ButtonSpec) -> None:
            state["asked"] = spec.name
            super().__call__(spec)

    factory = MockFactory()
    person = Asking(factory, ignore=("scan",))
    lines: list[str] = []
    with Controls(LAYOUT, pin_factory=factory, tick_interval=0.002) as controls:
        report = HwCheck(controls=controls, out=lines.append, person=person, led_seconds=0,
                         skip=lambda: state["asked"] == "scan", button_timeout=60).run()
    assert report.result("scan").ok is None
    assert report.ok and lines[-1] == "All checks passed."


def test_a_covered_marker_is_named(tmp_path: Path) -> None:
    report, _, _ = run(tmp_path, scene=table_scene(cover=(2,)))
    markers = report.result("markers")  # type: ignore[attr-defined]
    assert markers.ok is False and markers.detail == "marker 2 (bottom-right) not seen"
    assert report.markers == [0, 1, 3]  # type: ignore[attr-defined]
    assert (tmp_path / "snap.png").is_file()  # the snapshot shows what was found


def test_a_camera_that_never_answers_fails_with_its_reason(tmp_path: Path) -> None:
    camera = OpenCVSource(0, factory=capture_factory(Script(opens=[False] * 10_000)), read_timeout=0.2,
                          backoff_initial=0.01, backoff_max=0.02)
    lines: list[str] = []
    report = HwCheck(camera=camera, out=lines.append, first_frame_timeout=0.5).run()
    camera.stop()
    result = report.result("camera")
    assert result.ok is False and "could not open the camera cv2:0" in result.detail


def test_the_vision_fit_is_used_when_available(tmp_path: Path) -> None:
    from companion.commands.hw import vision_calibration
    from companion.config import TableConfig

    finder, fit = vision_calibration(TableConfig())
    if finder is None:
        pytest.skip("vision.calibration is not installed yet")
    report, _, _ = run(tmp_path, marker_finder=finder, calibrate=fit)
    markers = report.result("markers")  # type: ignore[attr-defined]
    assert markers.ok is True and "fit error" in markers.detail


def test_a_failed_fit_is_reported_with_its_reason(tmp_path: Path) -> None:
    def fit(_image: np.ndarray) -> float:
        raise ValueError("the markers do not match a 1000x700 mm play area")

    report, _, _ = run(tmp_path, calibrate=fit)
    markers = report.result("markers")  # type: ignore[attr-defined]
    assert markers.ok is False and markers.detail == ("all four seen, but the markers do not match a "
                                                      "1000x700 mm play area")


def test_our_marker_finder_sees_the_four_corners() -> None:
    found = find_markers(table_scene())
    assert sorted(found) == [0, 1, 2, 3]
    centre = found[2].mean(axis=0)
    assert np.allclose(centre, (MARGIN + 1000 - 0.5, MARGIN + 700 - 0.5), atol=1.5)


# -- the command line --------------------------------------------------------------------------

def companion(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "COMPANION_CONFIG": "", **(env or {})}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          cwd=ROOT, env=full_env, timeout=120)


def test_hw_config_prints_the_effective_settings(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[gpio]\nend_turn = [5]\nleds = []\n[table]\nseats = ["south", "north"]\n')
    proc = companion("hw", "config", "--path", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "end_turn = [5]" in proc.stdout and 'seats = ["south", "north"]' in proc.stdout
    assert proc.stdout.startswith(f"# effective configuration, from {path}: valid")


def test_hw_config_names_a_bad_key_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text("[gpio]\nleds = [17, 27, 22]\n")
    proc = companion("hw", "config", "--path", str(path))
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("companion: error: companion.toml: [gpio] leds: expected 4 pins "
                                   "(one per seat), got 3")
    missing = companion("hw", "config", "--path", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2 and "no such configuration file" in missing.stderr


def test_hw_check_from_the_command_line(tmp_path: Path) -> None:
    scene = tmp_path / "scene.png"
    cv2.imwrite(str(scene), table_scene())
    snap = tmp_path / "out" / "check.png"
    proc = companion("hw", "check", "--no-controls", "--camera", f"file:{scene}", "--snapshot", str(snap))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "camera: ok" in proc.stdout and "markers: ok" in proc.stdout and snap.is_file()
    # With mock pins nobody presses anything: the buttons fail, and so does the check.
    proc = companion("hw", "check", "--no-camera", "--timeout", "0.2", env={"GPIOZERO_PIN_FACTORY": "mock"})
    assert proc.returncode == 1
    assert "LED seat 4 (GPIO24): ok" in proc.stdout and "undo: FAILED (no press within 0.2 s" in proc.stdout


def test_the_snapshot_goes_to_the_cache_or_else_the_temporary_folder(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.commands.hw import default_snapshot

    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))
    assert default_snapshot() == tmp_path / "cache" / "hw-check.png"
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("COMPANION_CACHE", str(blocker / "cache"))  # cannot be created
    assert default_snapshot().name == "companion-hw-check.png"
