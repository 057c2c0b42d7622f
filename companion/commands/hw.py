"""``companion hw config`` (validate and print the settings) and ``companion hw check`` (wiring
and camera self-test; see ``hardware.check``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.config import TableConfig


def register(sub: Any) -> None:
    p = sub.add_parser("hw", help="check the buttons, LEDs, camera and configuration")
    hw = p.add_subparsers(dest="hw_command", metavar="HW_COMMAND")
    p.set_defaults(func=lambda _args: (p.print_help(), 0)[1])

    c = hw.add_parser("config", help="validate the configuration file and print the effective settings")
    c.add_argument("--path", help="the file to check (default: $COMPANION_CONFIG, else "
                   "/etc/companion/companion.toml, else the built-in defaults)")
    c.add_argument("--json", action="store_true", help="print JSON instead of TOML")
    c.set_defaults(func=show_config)

    k = hw.add_parser("check", help="light each LED, wait for each button, test the camera and markers")
    k.add_argument("--path", help="configuration file (as for hw config)")
    k.add_argument("--camera", help="camera to test instead of the configured one "
                   "(picamera2, cv2:N, file:PATH)")
    k.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for each button (20)")
    k.add_argument("--snapshot", help="where to save the annotated picture "
                   "(default: $COMPANION_CACHE/hw-check.png)")
    k.add_argument("--no-camera", action="store_true", help="check only the buttons and LEDs")
    k.add_argument("--no-controls", action="store_true", help="check only the camera")
    k.set_defaults(func=check)


def show_config(args: argparse.Namespace) -> int:
    from companion import config as configuration

    cfg = configuration.load(args.path)
    if args.json:
        print(json.dumps({"path": str(cfg.path) if cfg.path else None, **cfg.to_dict()}, indent=2))
        return 0
    where = f"{cfg.path}" if cfg.path else "built-in defaults (no configuration file)"
    print(f"# effective configuration, from {where}: valid")
    print(cfg.to_toml(), end="")
    return 0


def cache_dir() -> Path:
    return Path(os.environ.get("COMPANION_CACHE") or Path.home() / ".cache" / "companion")


def default_snapshot() -> Path:
    """$COMPANION_CACHE/hw-check.png, or the temporary folder when the cache cannot be created
    (``sudo -u companion`` runs as a system user whose home may not exist)."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if os.access(folder, os.W_OK):
            return folder / "hw-check.png"
    except OSError:
        pass
    return Path(tempfile.gettempdir()) / "companion-hw-check.png"


def vision_calibration(table: TableConfig) -> tuple[Any, Any]:
    """The vision layer's marker finder and play-area fit when they are installed, else (None, None)."""
    try:
        from vision import calibration
        from vision.observation import TableSpec
    except ImportError:
        return None, None
    import cv2

    spec = TableSpec(width_mm=table.width_mm, height_mm=table.height_mm, marker_mm=table.marker_mm,
                     seats=table.seats)

    def finder(image: Any) -> Any:
        return calibration.detect_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))

    def fit(image: Any) -> float:
        return float(calibration.calibrate(image, spec).reprojection_error_px)

    return finder, fit


def stdin_skipper() -> Any:
    """A skip() that turns True once each time Enter is pressed (only on a terminal)."""
    if not sys.stdin or not sys.stdin.isatty():
        return None
    pressed = threading.Event()

    def read() -> None:
        for _line in sys.stdin:
            pressed.set()

    threading.Thread(target=read, name="hw check stdin", daemon=True).start()

    def skip() -> bool:
        if pressed.is_set():
            pressed.clear()
            return True
        return False

    return skip


def check(args: argparse.Namespace) -> int:
    # Imported here, not at the top, so that registering the command can never break the CLI.
    from companion import config as configuration
    from hardware import ControlsUnavailable, open_camera
    from hardware.check import HwCheck, find_markers
    from hardware.controls import Controls
    from hardware.errors import CameraNotFound

    cfg = configuration.load(args.path)
    print(f"Configuration: {cfg.path or 'built-in defaults'}")
    controls = camera = None
    finder, fit = vision_calibration(cfg.table)
    snapshot = Path(args.snapshot).expanduser() if args.snapshot else default_snapshot()
    runner = HwCheck(button_timeout=args.timeout, snapshot=snapshot, marker_finder=finder or find_markers,
                     calibrate=fit, skip=stdin_skipper())
    if not args.no_controls:
        try:
            controls = Controls(cfg.gpio_layout())
        except ControlsUnavailable as exc:
            runner.add("buttons and LEDs", False, str(exc))
    if not args.no_camera:
        try:
            camera = open_camera(args.camera, configured=cfg.camera.source, width=cfg.camera.width,
                                 height=cfg.camera.height)
        except CameraNotFound as exc:
            runner.add("camera", False, str(exc))
    runner.controls, runner.camera = controls, camera
    try:
        report = runner.run()
    finally:
        if controls is not None:
            controls.close()
        if camera is not None:
            camera.stop()
    return 0 if report.ok else 1
