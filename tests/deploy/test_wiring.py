"""docs/img/wiring.png is drawn from the configuration's defaults (deploy/wiring_diagram.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PIL import Image

from companion.config import GpioConfig

ROOT = Path(__file__).resolve().parents[2]


def load_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("wiring_diagram", ROOT / "deploy" / "wiring_diagram.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_configured_pin_is_drawn_on_a_real_header_pin() -> None:
    wiring = load_script()
    gpio = GpioConfig()
    drawn = {bcm for _, _, bcm in wiring.parts(gpio)}
    wanted = set(gpio.end_turn) | set(gpio.leds) | {p for p in (gpio.undo, gpio.scan) if p is not None}
    assert wanted <= drawn
    for bcm in drawn:
        assert bcm in wiring.BCM_TO_PIN, f"GPIO{bcm} is not on the 40-pin header"


def test_the_diagram_is_written(tmp_path: Path) -> None:
    wiring = load_script()
    out = tmp_path / "wiring.png"
    wiring.draw(GpioConfig(), out)
    with Image.open(out) as img:
        assert img.size == (wiring.W, wiring.H)


def test_the_shipped_picture_exists() -> None:
    assert (ROOT / "docs" / "img" / "wiring.png").is_file()
