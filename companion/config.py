"""The kiosk's settings: ``/etc/companion/companion.toml`` read with ``tomllib``.

Which file: the ``path`` argument, else ``$COMPANION_CONFIG``, else ``/etc/companion/companion.toml``
if it exists, else the built-in defaults. A file named explicitly (argument or environment) must
exist. Every key is optional; ``deploy/companion.toml`` and ``docs/hardware.md`` list them with
their defaults. Anything wrong (an unknown key, a wrong type, a value out of range, pins that
clash) raises ``ConfigError`` naming the file, section and key, e.g.
``companion.toml: [gpio] leds: expected 4 pins (one per seat), got 3``.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hardware.cameras import parse_spec
from hardware.controls import GpioLayout
from hardware.errors import CameraSpecError, PinLayoutError

ENV = "COMPANION_CONFIG"
DEFAULT_PATH = Path("/etc/companion/companion.toml")
# Seat order is play order: clockwise round the table as the camera sees it (screen at the bottom).
SEAT_EDGES = ("south", "west", "north", "east")


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file, section and key."""


@dataclass(frozen=True)
class CameraConfig:
    source: str = "auto"
    width: int = 2304
    height: int = 1296


@dataclass(frozen=True)
class TableConfig:
    width_mm: float = 1000.0
    height_mm: float = 700.0
    marker_mm: float = 40.0
    seats: tuple[str, ...] = SEAT_EDGES


@dataclass(frozen=True)
class GpioConfig:
    end_turn: tuple[int, ...] = (5, 6, 13, 19)
    undo: int | None = 26
    scan: int | None = 21
    leds: tuple[int, ...] = (17, 27, 22, 24)
    buzzer: int | None = None
    hold_seconds: float = 1.5
    debounce_ms: float = 50.0
    long_press: str = "undo"

    def layout(self, seats: int) -> GpioLayout:
        """The hardware layer's view of these pins for a table with ``seats`` seats."""
        return GpioLayout(seats=seats, end_turn=self.end_turn, undo=self.undo, scan=self.scan,
                          leds=self.leds, buzzer=self.buzzer, hold_seconds=self.hold_seconds,
                          debounce_ms=self.debounce_ms, long_press=self.long_press)


def default_data_dir() -> Path:
    return Path(os.environ.get("COMPANION_DATA") or Path.home() / ".local" / "share" / "companion")


@dataclass(frozen=True)
class AppConfig:
    fullscreen: bool = True
    #: None: ``$COMPANION_DATA``, else ``~/.local/share/companion`` (see ``data_path``)
    data_dir: Path | None = None
    #: game id -> deck pack folder (owner packs); games not listed use their proxy pack
    packs: Mapping[str, Path] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def data_path(self) -> Path:
        return self.data_dir if self.data_dir is not None else default_data_dir()


@dataclass(frozen=True)
class Config:
    camera: CameraConfig = CameraConfig()
    table: TableConfig = TableConfig()
    gpio: GpioConfig = GpioConfig()
    app: AppConfig = AppConfig()
    #: the file these settings came from; None for the built-in defaults
    path: Path | None = None

    @property
    def seats(self) -> int:
        return len(self.table.seats)

    def gpio_layout(self) -> GpioLayout:
        return self.gpio.layout(self.seats)

    def to_dict(self, *, resolve: bool = True) -> dict[str, Any]:
        """The effective settings, JSON/TOML-able (paths as strings, an absent buzzer left out).

        ``resolve`` fills in ``data_dir`` from the environment when the file does not set it;
        without it, an unset ``data_dir`` is left out (so it keeps following the environment)."""
        gpio: dict[str, Any] = {"end_turn": list(self.gpio.end_turn)}
        for name in ("undo", "scan"):
            value = getattr(self.gpio, name)
            gpio[name] = value if value is not None else False
        gpio["leds"] = list(self.gpio.leds)
        if self.gpio.buzzer is not None:
            gpio["buzzer"] = self.gpio.buzzer
        gpio.update(hold_seconds=self.gpio.hold_seconds, debounce_ms=self.gpio.debounce_ms,
                    long_press=self.gpio.long_press)
        app: dict[str, Any] = {"fullscreen": self.app.fullscreen}
        if resolve or self.app.data_dir is not None:
            app["data_dir"] = str(self.app.data_path)
        app["packs"] = {game: str(p) for game, p in sorted(self.app.packs.items())}
        return {
            "camera": {"source": self.camera.source, "width": self.camera.width, "height": self.camera.height},
            "table": {"width_mm": self.table.width_mm, "height_mm": self.table.height_mm,
                      "marker_mm": self.table.marker_mm, "seats": list(self.table.seats)},
            "gpio": gpio,
            "app": app,
        }

    def to_toml(self) -> str:
        """The effective settings as a TOML document that ``loads`` reads back to the same."""
        lines: list[str] = []
        for section, values in self.to_dict(resolve=False).items():
            tables = {k: v for k, v in values.items() if isinstance(v, dict)}
            lines.append(f"[{section}]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in values.items() if k not in tables]
            if section == "app" and "data_dir" not in values:
                lines.append(f"# data_dir = {_toml_value(str(self.app.data_path))}"
                             "  (not set: $COMPANION_DATA, else ~/.local/share/companion)")
            for name, table in tables.items():
                lines.append(f"\n[{section}.{name}]")
                lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
            lines.append("")
        return "\n".join(lines)


def _toml_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


# -- loading ---------------------------------------------------------------------------------

def resolve_path(path: str | os.PathLike[str] | None = None,
                 env: Mapping[str, str] | None = None) -> tuple[Path | None, bool]:
    """(the file to read or None, whether it was asked for explicitly)."""
    env = os.environ if env is None else env
    if path is not None and str(path) != "":
        return Path(path).expanduser(), True
    if env.get(ENV):
        return Path(env[ENV]).expanduser(), True
    if DEFAULT_PATH.is_file():
        return DEFAULT_PATH, False
    return None, False


def load(path: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None) -> Config:
    """The effective configuration (see the module docstring for which file)."""
    chosen, _ = resolve_path(path, env)
    if chosen is None:
        return Config()
    try:
        text = chosen.read_text(encoding="utf-8")
    except FileNotFoundError:
        where = "" if path is not None else f" (from ${ENV})"
        raise ConfigError(f"{chosen}: no such configuration file{where}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{chosen}: cannot be read ({exc})") from None
    return loads(text, name=chosen.name, path=chosen)


def loads(text: str, *, name: str = "companion.toml", path: Path | None = None) -> Config:
    """Parse and validate a configuration document."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML ({exc})") from None
    return _Reader(name).config(data, path)


class _Reader:
    """Validates one document; every message starts with the file name, section and key."""

    def __init__(self, name: str) -> None:
        self.name = name

    def error(self, where: str, message: str) -> ConfigError:
        return ConfigError(f"{self.name}: {where}: {message}")

    def section(self, data: dict[str, Any], section: str, known: set[str]) -> dict[str, Any]:
        values = data.get(section, {})
        if not isinstance(values, dict):
            raise ConfigError(f"{self.name}: [{section}] must be a table, got {_kind(values)}")
        for key in values:
            if key not in known:
                raise self.error(f"[{section}] {key}",
                                 f"unknown key (known: {', '.join(sorted(known))})")
        return values

    def config(self, data: dict[str, Any], path: Path | None) -> Config:
        for section in data:
            if section not in ("camera", "table", "gpio", "app"):
                raise ConfigError(f"{self.name}: [{section}]: unknown section "
                                  "(known: app, camera, gpio, table)")
        camera = self.camera(self.section(data, "camera", {"source", "width", "height"}))
        table = self.table(self.section(data, "table", {"width_mm", "height_mm", "marker_mm", "seats"}))
        gpio = self.gpio(self.section(data, "gpio", {"end_turn", "undo", "scan", "leds", "buzzer",
                                                     "hold_seconds", "debounce_ms", "long_press"}),
                         len(table.seats))
        app = self.app(self.section(data, "app", {"fullscreen", "data_dir", "packs"}))
        return Config(camera=camera, table=table, gpio=gpio, app=app, path=path)

    # each section --------------------------------------------------------------------------

    def camera(self, v: dict[str, Any]) -> CameraConfig:
        d = CameraConfig()
        source = self.string(v, "camera", "source", d.source)
        try:
            parse_spec(source)
        except CameraSpecError as exc:
            raise self.error("[camera] source", str(exc)) from None
        width = self.number(v, "camera", "width", d.width, int, 64, 8192)
        height = self.number(v, "camera", "height", d.height, int, 48, 8192)
        return CameraConfig(source=source.strip(), width=int(width), height=int(height))

    def table(self, v: dict[str, Any]) -> TableConfig:
        d = TableConfig()
        width = self.number(v, "table", "width_mm", d.width_mm, float, 100, 5000)
        height = self.number(v, "table", "height_mm", d.height_mm, float, 100, 5000)
        marker = self.number(v, "table", "marker_mm", d.marker_mm, float, 10, 200)
        if marker * 2 >= min(width, height):
            raise self.error("[table] marker_mm", f"{marker:g} mm markers do not fit a "
                             f"{width:g} x {height:g} mm play area")
        seats = v.get("seats", list(d.seats))
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise self.error("[table] seats", f"expected a list of table edges, got {_kind(seats)}")
        if not 1 <= len(seats) <= 4:
            raise self.error("[table] seats", f"expected 1 to 4 seats, got {len(seats)}")
        for s in seats:
            if s not in SEAT_EDGES:
                raise self.error("[table] seats", f"unknown edge {s!r} (expected {', '.join(SEAT_EDGES)})")
        if len(set(seats)) != len(seats):
            raise self.error("[table] seats", "an edge is listed twice (one seat per edge)")
        return TableConfig(width_mm=float(width), height_mm=float(height), marker_mm=float(marker),
                           seats=tuple(seats))

    def gpio(self, v: dict[str, Any], seats: int) -> GpioConfig:
        d = GpioConfig()
        end_turn = self.pins(v, "end_turn", d.end_turn)
        leds = self.pins(v, "leds", d.leds)
        undo = self.optional_pin(v, "undo", d.undo)
        scan = self.optional_pin(v, "scan", d.scan)
        buzzer = self.optional_pin(v, "buzzer", d.buzzer)
        hold = self.number(v, "gpio", "hold_seconds", d.hold_seconds, float, 0.3, 10)
        debounce = self.number(v, "gpio", "debounce_ms", d.debounce_ms, float, 1, 500)
        long_press = self.string(v, "gpio", "long_press", d.long_press)
        config = GpioConfig(end_turn=end_turn, undo=undo, scan=scan, leds=leds, buzzer=buzzer,
                            hold_seconds=float(hold), debounce_ms=float(debounce), long_press=long_press)
        try:
            config.layout(seats).validate()
        except PinLayoutError as exc:
            raise self.error(f"[gpio] {exc.field}", exc.detail) from None
        return config

    def app(self, v: dict[str, Any]) -> AppConfig:
        d = AppConfig()
        fullscreen = v.get("fullscreen", d.fullscreen)
        if not isinstance(fullscreen, bool):
            raise self.error("[app] fullscreen", f"expected true or false, got {_kind(fullscreen)}")
        data_dir = None
        if "data_dir" in v:
            raw = self.string(v, "app", "data_dir", "")
            if not raw.strip():
                raise self.error("[app] data_dir", "expected a folder, got an empty string")
            data_dir = Path(raw).expanduser()
        packs_raw = v.get("packs", {})
        if not isinstance(packs_raw, dict):
            raise self.error("[app] packs", f"expected a table of game = folder, got {_kind(packs_raw)}")
        from rules.registry import GAMES

        packs: dict[str, Path] = {}
        for game, folder in packs_raw.items():
            if game not in GAMES:
                raise self.error(f"[app] packs.{game}", f"unknown game (known: {', '.join(GAMES)})")
            if not isinstance(folder, str) or not folder.strip():
                raise self.error(f"[app] packs.{game}", f"expected a pack folder, got {_kind(folder)}")
            packs[game] = Path(folder).expanduser()
        return AppConfig(fullscreen=fullscreen, data_dir=data_dir, packs=MappingProxyType(packs))

    # value checks --------------------------------------------------------------------------

    def string(self, v: dict[str, Any], section: str, key: str, default: str) -> str:
        value = v.get(key, default)
        if not isinstance(value, str):
            raise self.error(f"[{section}] {key}", f"expected a string, got {_kind(value)}")
        return value

    def number(self, v: dict[str, Any], section: str, key: str, default: float,
               kind: Callable[[Any], Any], low: float, high: float) -> float:
        value = v.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or (
                kind is int and not isinstance(value, int)):
            expected = "a whole number" if kind is int else "a number"
            raise self.error(f"[{section}] {key}", f"expected {expected}, got {_kind(value)}")
        if not low <= value <= high:
            raise self.error(f"[{section}] {key}", f"expected {low:g} to {high:g}, got {value:g}")
        return value

    def pins(self, v: dict[str, Any], key: str, default: tuple[int, ...]) -> tuple[int, ...]:
        value = v.get(key, list(default))
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]  # one shared button may be written without brackets
        if not isinstance(value, list):
            raise self.error(f"[gpio] {key}", f"expected a list of BCM pin numbers, got {_kind(value)}")
        for pin in value:
            if isinstance(pin, bool) or not isinstance(pin, int):
                raise self.error(f"[gpio] {key}", f"expected BCM pin numbers, got {_kind(pin)}")
        return tuple(value)

    def optional_pin(self, v: dict[str, Any], key: str, default: int | None) -> int | None:
        value = v.get(key, default)
        if value is False or value is None:  # `undo = false`: no such button is wired
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"[gpio] {key}", f"expected a BCM pin number or false, got {_kind(value)}")
        return value


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__
