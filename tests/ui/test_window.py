"""The window the app opens (companion/ui/window.py), checked on the real GL context under Xvfb in
a subprocess: Kivy has one window per process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.ui

PROBE = r"""
import json
from companion.ui.window import configure_window
configure_window(width=400, height=300)
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import opengl as gl
from kivy.uix.label import Label

GL_SAMPLE_BUFFERS, GL_SAMPLES = 0x80A8, 0x80A9


class Probe(App):
    def build(self):
        Clock.schedule_once(self.report, 0.2)
        return Label(text="probe")

    def report(self, _dt):
        print(json.dumps({"sample_buffers": gl.glGetIntegerv(GL_SAMPLE_BUFFERS)[0],
                          "samples": gl.glGetIntegerv(GL_SAMPLES)[0]}), flush=True)
        self.stop()

Probe().run()
"""


def test_the_window_is_not_multisampled(tmp_path):
    """Kivy's default 2x multisampling cost about 13 MB on a software OpenGL for nothing the
    screens show."""
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    cmd = [sys.executable, str(probe)]
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        if shutil.which("xvfb-run") is None:
            pytest.skip("no display and no xvfb-run")
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", *cmd]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
           "KIVY_HOME": str(tmp_path / "kivy")}
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
    assert report == {"sample_buffers": 0, "samples": 0}
