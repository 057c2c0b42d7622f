"""The Kivy app driven by simulated touches under Xvfb, one subprocess per run (Kivy has one
window per process). Screenshots of every screen go to artifacts/screens/ for people to look at.

Each run is tests/ui/drive.py; its own checks (buttons found and enabled, the game advancing on
every tap, labels fitting at the window size, the game stored as finished and exported) fail the
subprocess, and this file reports its traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rules import Action, registry

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "artifacts" / "screens"

pytestmark = pytest.mark.ui


def command(args: list[str]) -> list[str]:
    cmd = [sys.executable, "-m", "tests.ui.drive", *args]
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return cmd
    if shutil.which("xvfb-run") is None:
        pytest.skip("no display and no xvfb-run")
    return ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", *cmd]


def env(tmp_path: Path) -> dict[str, str]:
    cache = os.environ.get("COMPANION_CACHE") or str(ROOT / "artifacts" / "cache")
    return {**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_CACHE": cache, "KIVY_NO_ARGS": "1",
            "KIVY_HOME": str(tmp_path / "kivy")}


def run(tmp_path: Path, args: list[str], timeout: float = 900) -> list[dict]:
    proc = subprocess.run(command(args), cwd=ROOT, env=env(tmp_path), capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, (proc.stderr[-4000:] or "(no stderr)") + "\n" + proc.stdout[-2000:]
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("game", registry.available())
def test_a_whole_game_by_touch_at_800x480(tmp_path, game):
    out = run(tmp_path, [game, "--data", str(tmp_path / "data"), "--out", str(SCREENS)])
    assert out and out[-1]["actions"] > 0
    for name in ("01-home", "02-players", "03-setup", "04-game", "06-entry", "10-end", "11-history"):
        assert (SCREENS / f"{game}-800x480-{name}.png").stat().st_size > 5000, name


@pytest.mark.parametrize("size", ["1024x600", "1920x1080"])
def test_the_kiosk_scales_to_bigger_screens(tmp_path, size):
    game = registry.available()[0]
    run(tmp_path, [game, "--size", size, "--data", str(tmp_path / "data"), "--out", str(SCREENS)])
    assert (SCREENS / f"{game}-{size}-04-game.png").exists()


def test_kill_9_mid_game_then_resume_from_the_home_screen(tmp_path):
    """Every action the app confirmed on screen is there after kill -9 and a restart."""
    game = "bigsur" if "bigsur" in registry.available() else registry.available()[0]
    data = str(tmp_path / "data")
    proc = subprocess.Popen(command([game, "--data", data, "--out", str(tmp_path), "--script", "start"]),
                            cwd=ROOT, env=env(tmp_path), stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    confirmed: list[dict] = []
    try:
        for _ in range(15):
            line = proc.stdout.readline()
            assert line, "the app stopped before it was killed"
            confirmed = json.loads(line)["actions"]
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole group: xvfb-run, Xvfb and the app
        proc.wait()
    out = run(tmp_path, [game, "--data", data, "--out", str(SCREENS), "--script", "resume"])
    resumed = [Action.from_json(a) for a in out[-1]["actions"]]
    assert resumed[:len(confirmed)] == [Action.from_json(a) for a in confirmed]


def test_saving_paused_is_on_the_game_screen_while_the_disk_refuses(tmp_path):
    game = "highwayman" if "highwayman" in registry.available() else registry.available()[0]
    run(tmp_path, [game, "--data", str(tmp_path / "data"), "--out", str(SCREENS), "--script", "storage"])
    assert (SCREENS / f"{game}-800x480-13-saving-paused.png").stat().st_size > 5000


@pytest.mark.parametrize("size", ["800x480", "1024x600", "1920x1080"])
def test_kiosk_names_are_typed_on_the_on_screen_keyboard(tmp_path, size):
    """The kiosk's touchscreen has no keyboard: a tap on a name field brings up the app's own
    keyboard, wholly on screen with the field in sight above it; a name typed key by key (real
    touches on the keys) is the seat's name in the started game. drive.py checks each step."""
    game = "highwaysbyways" if "highwaysbyways" in registry.available() else registry.available()[0]
    out = run(tmp_path, [game, "--kiosk", "--size", size, "--data", str(tmp_path / "data"), "--out", str(SCREENS),
                         "--script", "names"])
    assert "Zoe" in out[-1]["players"]
    for name in ("02k-keyboard", "02l-keyboard-typed", "02m-keyboard-done"):
        assert (SCREENS / f"{game}-{size}-kiosk-{name}.png").stat().st_size > 5000, name


@pytest.mark.parametrize("size", ["800x480", "1024x600", "1920x1080"])
def test_kiosk_every_players_name_can_be_typed_in_above_the_keyboard(tmp_path, size):
    """The largest group (six at Highwayman): with the on-screen keyboard up, each name field can
    be scrolled to and is shown wholly above the keyboard when tapped, the last one even when
    tapped while a flick of the list is still springing back; Done gives the layout back."""
    game = max(registry.available(), key=lambda g: registry.game_class(g).max_players)
    out = run(tmp_path, [game, "--kiosk", "--size", size, "--data", str(tmp_path / "data"), "--out", str(SCREENS),
                         "--script", "rows"])
    assert out[-1]["players"] >= 5
    for name in ("02n-keyboard-last-row", "02o-keyboard-first-row", "02p-keyboard-closed"):
        assert (SCREENS / f"{game}-{size}-kiosk-{name}.png").stat().st_size > 5000, name


def test_demo_names_are_typed_on_the_desktop_keyboard(tmp_path):
    """The demo on a desktop: no on-screen keyboard; Backspace and Enter reach the name field
    even though the demo's keyboard controls use them for Undo and End turn in a game."""
    game = "highwayman" if "highwayman" in registry.available() else registry.available()[0]
    out = run(tmp_path, [game, "--data", str(tmp_path / "data"), "--out", str(tmp_path), "--script", "names"])
    assert "Zoe" in out[-1]["players"]
