"""The fade between screens keeps one pair of framebuffers instead of making a pair per change
(companion/ui/transition.py). Run in a subprocess under Xvfb: Kivy has one window per process."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import probe

pytestmark = pytest.mark.ui

PROBE = r"""
import json, sys
from companion.ui.window import configure_window
configure_window(width=400, height=300)
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen, ScreenManager
from companion.ui import transition

made = []
class CountedFbo(transition.Fbo):
    def __init__(self, **kw):
        super().__init__(**kw)
        made.append(self)
transition.Fbo = CountedFbo

report = {"shown": [], "fbos_made": [], "holding": []}

class Probe(App):
    def build(self):
        self.sm = ScreenManager(transition=transition.ReusedFade(duration=0.05))
        for name in ("a", "b", "c"):
            screen = Screen(name=name)
            screen.add_widget(Label(text=name))
            self.sm.add_widget(screen)
        self.steps = iter(["b", "c", "a", "b", "resize", "c", "a"])
        Clock.schedule_once(self.next, 0.2)
        return self.sm

    def next(self, _dt):
        tr = self.sm.transition
        if tr.is_active:
            Clock.schedule_once(self.next, 0.05)
            return
        if report["shown"]:
            # after a change: what is shown, how many buffers were ever made, and whether a
            # kept buffer still draws a screen
            report["holding"].append(sum(len(f.before.children) + len(f.after.children)
                                         + sum(1 for c in f.children if c is not f.before and c is not f.after)
                                         for f in made))
        try:
            step = next(self.steps)
        except StopIteration:
            print(json.dumps(report), flush=True)
            self.stop()
            return
        if step == "resize":
            Window.size = (500, 350)
            report["shown"].append("resize")
            Clock.schedule_once(self.next, 0.3)
            return
        self.sm.current = step
        report["shown"].append(self.sm.current)
        report["fbos_made"].append(len(made))
        Clock.schedule_once(self.next, 0.05)

Probe().run()
"""


def run_probe(tmp_path: Path) -> dict:
    return probe.run_probe(PROBE, tmp_path)


def test_screen_changes_reuse_one_pair_of_framebuffers(tmp_path):
    report = run_probe(tmp_path)
    assert report["shown"] == ["b", "c", "a", "b", "resize", "c", "a"]
    # Kivy's own fade makes two new buffers per change: 2, 4, 6, 8, 10, 12.
    assert report["fbos_made"] == [2, 2, 2, 2, 4, 4], report
    # Once a change is over no kept buffer still holds (and draws) a screen.
    assert report["holding"] == [0] * 7, report
