"""``companion`` (no command): the kiosk; ``companion demo [GAME]``: the same app with no hardware.

Both degrade instead of crashing when a part is missing: no camera or no recogniser means plays
are entered by hand, no GPIO means the keyboard, no engine means that game's button is greyed out.
Each degradation is said on the home screen.
"""

from __future__ import annotations

import argparse
import os
import threading
from pathlib import Path
from typing import Any

from rules import registry


class AppError(ValueError):
    """The app cannot start (bad window size, no display)."""


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="the app with a replay camera and a scripted game: no hardware needed")
    p.add_argument("game", nargs="?", choices=list(registry.GAMES), help="start this game's demo at once")
    p.add_argument("--size", default="800x480", help="window size WxH (default 800x480, the 7-inch screen)")
    p.add_argument("--fullscreen", action="store_true", help="fill the screen like the kiosk")
    p.set_defaults(func=demo)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise AppError(f"--size must look like 800x480, not {text!r}") from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise AppError(f"--size {text} is outside 320x240 .. 7680x4320")
    return w, h


def _need_display() -> None:
    if os.name == "posix" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) \
            and not os.path.exists("/dev/dri/card0") and not os.path.exists("/dev/dri/card1"):
        raise AppError("there is no screen to draw on (no DISPLAY, no Wayland, no /dev/dri): "
                       "run it on the Pi's screen or under xvfb-run")


def demo(args: argparse.Namespace) -> int:
    width, height = _size(args.size)
    _need_display()
    from companion.session.demo import placeholder
    from companion.ui.window import configure_window

    configure_window(width=width, height=height, fullscreen=args.fullscreen)
    notes: list[str] = []
    source = _replay_source([placeholder((1152, 648), "Demo camera: choose a game")], notes)
    store = _open_store(_data_dir() / "demo.sqlite3", notes)
    from companion.ui.app import CompanionApp

    app = CompanionApp(store=store, source=source, demo=True, demo_game=args.game,
                       notice=" ".join(notes) or "Demo: a replay camera and a scripted game; nothing is needed.")
    controls = _keyboard(app, notes)
    app.controls = controls
    app.vm.bind(session=lambda _vm, session: _render_demo_scenes(session, source, app))
    app.run()
    return 0


def _render_demo_scenes(session: Any, source: Any, app: Any) -> None:
    """A new demo game: set its script and render its table scenes off the UI thread."""
    if session is None:
        return
    from companion.session.demo import DemoScript, demo_pictures

    app.demo_script = DemoScript.for_game(session.game.name)
    if source is None or not hasattr(source, "show"):
        return

    def work() -> None:
        frames = demo_pictures(session.game.name, count=3)
        # One still scene at a time (a replay of changing pictures would never look still);
        # the next scene comes after each demo turn.
        scenes = iter(frames * 1000)
        app.next_scene = lambda: source.show([next(scenes)])
        app.next_scene()

    threading.Thread(target=work, name="demo scenes", daemon=True).start()


def _replay_source(frames: list[Any], notes: list[str]) -> Any:
    try:
        from hardware import ReplaySource
    except ImportError as exc:
        notes.append(f"No replay camera ({exc}).")
        return None
    return ReplaySource(frames, loop=True, fps=2)


def _keyboard(app: Any, notes: list[str], seats: int = 4) -> Any:
    try:
        from hardware import KeyboardControls
    except ImportError:
        return None
    return KeyboardControls(seats=seats, on_event=app.control_event)


def _open_store(path: Path, notes: list[str]) -> Any:
    """The game database: SafeStore (recovery at start, per-turn backups, writes held while the
    disk refuses them) when it is part of this build, else the plain store."""
    try:
        from companion.recovery import SafeStore
    except ImportError:
        from companion.store import Store

        return Store(path)
    store = SafeStore(path)
    if store.recovered is not None:
        notes.append(store.recovered.message())
    return store


def _data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA")
    return Path(env) if env else Path.home() / ".local" / "share" / "companion"


def kiosk(args: argparse.Namespace) -> int:
    """The table app: configured camera and buttons, fullscreen, no cursor."""
    _need_display()
    notes: list[str] = []
    config = _config(notes)
    from companion.session import vision_scanner
    from companion.ui.window import configure_window

    fullscreen = bool(getattr(getattr(config, "app", None), "fullscreen", True))
    configure_window(fullscreen=fullscreen)
    source = _camera(config, notes, getattr(args, "camera", None))
    table = _table(config)
    packs = dict(getattr(getattr(config, "app", None), "packs", {}) or {})
    scanner = vision_scanner(packs=packs, table=table)
    data_dir = getattr(getattr(config, "app", None), "data_dir", None) or _data_dir()
    store = _open_store(Path(data_dir) / "companion.sqlite3", notes)
    from companion.ui.app import CompanionApp

    app = CompanionApp(store=store, source=source, scanner=scanner, kiosk=True, notice=" ".join(notes))
    app.controls = _gpio(config, app, notes)
    app.notice = " ".join(notes)
    app.run()
    return 0


def _config(notes: list[str]) -> Any:
    try:
        from companion import config as config_module
    except ImportError:
        notes.append("No configuration module: using defaults.")
        return None
    return config_module.load()  # a bad file is a ConfigError: one line, exit 2


def _camera(config: Any, notes: list[str], spec: str | None = None) -> Any:
    """The camera: ``spec`` (a command-line choice) first, then $COMPANION_CAMERA, then the file's
    ``[camera] source``, then auto (open_camera keeps that order, so it gets them separately)."""
    try:
        from hardware import open_camera
    except ImportError as exc:
        notes.append(f"No camera support ({exc}): enter plays by hand.")
        return None
    cam = getattr(config, "camera", None)
    configured = getattr(cam, "source", None)
    try:
        return open_camera(spec or None, configured=None if configured in (None, "auto") else configured,
                           width=getattr(cam, "width", 2304), height=getattr(cam, "height", 1296))
    except (ValueError, OSError) as exc:
        notes.append(f"No camera: {exc}. Enter plays by hand.")
        return None


def _table(config: Any) -> Any:
    try:
        from vision import TableSpec
    except ImportError:
        return None
    t = getattr(config, "table", None)
    if t is None:
        return None
    return TableSpec(width_mm=t.width_mm, height_mm=t.height_mm, marker_mm=t.marker_mm, seats=tuple(t.seats))


def _gpio(config: Any, app: Any, notes: list[str]) -> Any:
    seats = int(getattr(config, "seats", 0) or 4)
    try:
        from hardware import Controls
    except ImportError:
        return _keyboard(app, notes, seats)
    if config is None or not hasattr(config, "gpio_layout"):
        return _keyboard(app, notes, seats)
    try:
        # The seat count is the table's ([table] seats), not the number of LEDs wired.
        return Controls(config.gpio_layout(), on_event=app.control_event)
    except (ValueError, OSError) as exc:
        notes.append(f"No buttons ({exc}): use the screen or the keyboard.")
        return _keyboard(app, notes, seats)
