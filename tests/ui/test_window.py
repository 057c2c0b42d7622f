"""The window the app opens (companion/ui/window.py), checked on the real GL context under Xvfb in
a subprocess: Kivy has one window per process."""

from __future__ import annotations

import pytest

from . import probe

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
    report = probe.run_probe(PROBE, tmp_path)
    assert report == {"sample_buffers": 0, "samples": 0}
