"""Screens built when first shown and the transient ones let go once left (companion/ui/lazy.py).
Run in a subprocess under Xvfb: Kivy has one window per process. The app's own screens are
visited lazily by every whole game in test_ui.py (drive.py also checks the rules screen is let go)."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import probe

pytestmark = pytest.mark.ui

PROBE = r"""
import gc, json, weakref
from companion.ui.window import configure_window
configure_window(width=400, height=300)
from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen
from companion.ui.lazy import LazyScreens
from companion.ui.transition import ReusedFade

made = {"home": 0, "notes": 0}
entered = []
trims = []


class Shared(App):
    text = StringProperty("first")


class Home(Screen):
    def __init__(self):
        super().__init__(name="home")
        made["home"] += 1


Builder.load_string('''
# A label bound to the app's state in kv, as the rules reference is bound to the view-model's.
<Notes>:
    Label:
        id: label
        text: app.text
''')


class Notes(Screen):
    def __init__(self):
        super().__init__(name="notes")
        made["notes"] += 1

    def on_pre_enter(self, *args):
        entered.append(self.ids.label.text)


report = {"built": [], "made": [], "alive": []}
refs = []


class Probe(Shared):
    def build(self):
        self.sm = LazyScreens(factories={"home": Home, "notes": Notes}, transient=["notes"],
                              after_change=lambda: trims.append(1), transition=ReusedFade(duration=0.05))
        self.sm.current = "home"
        report["start"] = list(self.sm.built)
        report["has_notes"] = self.sm.has_screen("notes")
        self.steps = iter(["notes", "home", "text", "notes", "home"])
        self.changes = 1  # the first screen's
        Clock.schedule_once(self.next, 0.2)
        return self.sm

    def next(self, _dt):
        # on a slow machine this may run between a transition's end and the frame where the
        # screens left are let go: wait for that too, or two changes would settle as one
        if self.sm.transition.is_active or len(trims) < self.changes:
            Clock.schedule_once(self.next, 0.05)
            return
        gc.collect()
        report["built"].append(list(self.sm.built))
        report["made"].append(dict(made))
        report["alive"].append(sum(1 for r in refs if r() is not None))
        try:
            step = next(self.steps)
        except StopIteration:
            report["entered"] = entered
            report["trims"] = len(trims)
            print(json.dumps(report), flush=True)
            self.stop()
            return
        if step == "text":
            self.text = "second"  # while the notes are not built: nothing to draw again
        else:
            self.sm.current = step
            self.changes += 1
            if step == "notes":
                refs.append(weakref.ref(self.sm.current_screen))
        Clock.schedule_once(self.next, 0.2)

Probe().run()
"""


def run_probe(tmp_path: Path) -> dict:
    return probe.run_probe(PROBE, tmp_path)


def test_a_screen_is_built_when_first_shown_and_a_transient_one_let_go_when_left(tmp_path):
    r = run_probe(tmp_path)
    # Only the first screen exists at start; the other is known but not built.
    assert r["start"] == ["home"] and r["has_notes"] is True
    # States after: start, notes shown, home again, text changed, notes again, home again.
    assert r["built"] == [["home"], ["home", "notes"], ["home"], ["home"], ["home", "notes"], ["home"]], r
    assert [m["notes"] for m in r["made"]] == [0, 1, 1, 1, 2, 2], r
    assert all(m["home"] == 1 for m in r["made"]), r
    # A screen let go is collected: nothing (a finished transition, a binding) keeps it.
    assert r["alive"] == [0, 1, 0, 0, 1, 0], r
    # Built afresh, it shows the state as it is now.
    assert r["entered"] == ["first", "second"], r
    # Each completed change of screen (the first one included) calls after_change once.
    assert r["trims"] == 5, r
