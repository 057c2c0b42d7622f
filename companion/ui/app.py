"""The Kivy kiosk app: a ScreenManager of small screens over one :class:`TableModel`.

Sizes scale with the window: ``app.u`` is 1.0 on the 7-inch 800x480 touchscreen and grows with
the shorter side, so text stays readable from a metre away on 1024x600 and 1920x1080 alike.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty

from companion.session.memory import trim
from companion.store import Store

from . import screens
from .lazy import LazyScreens
from .transition import ReusedFade
from .viewmodel import TableModel

KV_DIR = Path(__file__).with_name("kv")
KV_FILES = ("common.kv", "home.kv", "players.kv", "setup.kv", "game.kv", "entry.kv", "rules.kv",
            "byways.kv", "end.kv", "history.kv")

#: Every screen by name. Home and the game screen hold state across visits (the game screen its
#: bindings to the view-model and the starting look at the table; the players screen the names
#: typed), so they are kept once built.
SCREENS = {"home": screens.HomeScreen, "players": screens.PlayersScreen, "setup": screens.SetupScreen,
           "game": screens.GameScreen, "entry": screens.EntryScreen, "rules": screens.RulesScreen,
           "byways": screens.BywaysScreen, "end": screens.EndScreen, "history": screens.HistoryScreen}
#: Screens that rebuild all they show when entered and keep nothing between visits.
TRANSIENT = ("setup", "entry", "rules", "byways", "end", "history")

#: How often writes held in memory are tried again.
SAVE_RETRY_SECONDS = 5.0


class CompanionApp(App):
    """``demo``: replay camera, app draws every random outcome, a scripted-move button."""

    u = NumericProperty(1.0)
    demo = BooleanProperty(False)
    kiosk = BooleanProperty(False)
    #: Name fields open the on-screen keyboard (companion.ui.touchkeys): the kiosk's touchscreen
    #: has no keyboard. A desktop (the demo) types on its own keyboard.
    touch_keyboard = BooleanProperty(False)
    vm = ObjectProperty(None)
    notice = StringProperty("")
    title = "Game-night companion"

    def __init__(self, *, store: Store, source: Any = None, scanner: Any = None, controls: Any = None,
                 demo: bool = False, kiosk: bool = False, demo_game: str | None = None,
                 engines: dict[str, Any] | None = None, notice: str = "",
                 touch_keyboard: bool | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.store = store
        self.source = source
        self.controls = controls
        self.demo = demo
        self.kiosk = kiosk
        self.touch_keyboard = kiosk if touch_keyboard is None else touch_keyboard
        self.demo_game = demo_game
        self.notice = notice
        if demo and scanner is None:
            # the demo's tables are drawn to each game's size (Roundabout's grid needs a larger one)
            from companion.session import vision_scanner
            from companion.session.demo import demo_table

            scanner = vision_scanner(table=demo_table)
        self.vm = TableModel(store, app_draws_all=demo, scanner=scanner, source=source, engines=engines)
        self.engines = engines or {}
        self.demo_script: Any = None

    # ------------------------------------------------------------------ building
    def build(self) -> LazyScreens:
        for name in KV_FILES:
            Builder.load_file(str(KV_DIR / name))
        Window.bind(size=self._rescale)
        self._rescale(Window, Window.size)
        if self.kiosk:
            Window.show_cursor = False
        Window.bind(on_key_down=self._key_down, on_key_up=self._key_up)
        # Each screen is built when first shown (companion.ui.lazy); the ones a game shows seldom
        # or once are let go when left and built again on the next visit. After each change of
        # screen the heap's free pages go back to the system (companion.session.memory): what the
        # screen left, the moves and pictures since the last end turn freed, glibc would keep.
        sm = LazyScreens(factories=SCREENS, transient=TRANSIENT, after_change=trim,
                         transition=ReusedFade(duration=0.15))
        sm.current = "home"
        self.sm = sm
        if self.controls is not None and hasattr(self.controls, "show_turn"):
            self.vm.on_turn.append(self._show_turn)
            self.vm.on_refused.append(lambda _m: self._buzz())
        if self.source is not None and hasattr(self.source, "on_event"):
            self.source.on_event(lambda ev: Clock.schedule_once(lambda dt: self._camera_event(ev), 0))
        if self.demo and self.demo_game:
            Clock.schedule_once(lambda dt: sm.get_screen("home").choose(self.demo_game), 0)
        # Writes the disk refused wait in memory: try them again every few seconds, so the
        # banner goes as soon as the disk works (a full card freed, a remount) without a play.
        Clock.schedule_interval(lambda dt: self.vm.retry_saving(), SAVE_RETRY_SECONDS)
        self.vm.retry_saving()
        return sm

    def _rescale(self, _win: Any, size: tuple[int, int]) -> None:
        w, h = size
        self.u = max(0.6, min(w / 800.0, h / 480.0))

    # ------------------------------------------------------------------ hardware
    def control_event(self, event: Any) -> None:
        """Called from any thread by the hardware controls."""
        Clock.schedule_once(lambda dt: self._control(event), 0)

    def _control(self, event: Any) -> None:
        if self.sm.current == "game":
            self.vm.control(event)

    def _show_turn(self, seat: int | None) -> None:
        try:
            self.controls.show_turn(seat)
        except Exception as exc:  # a broken LED must not stop the game; say so
            self.vm.camera_status = f"LEDs: {exc}"

    def _buzz(self) -> None:
        with contextlib.suppress(Exception):
            self.controls.buzz()

    def _camera_event(self, event: Any) -> None:
        name = type(event).__name__
        if name == "CameraLost":
            self.vm.camera_status = f"Camera lost: {getattr(event, 'reason', '')}. Reconnecting..."
        elif name == "CameraBack":
            self.vm.camera_status = ""

    def _text_focus(self) -> bool:
        """A text field (a player's name) has the keyboard: its keys are for typing, not controls."""
        has = getattr(self.sm.current_screen, "has_text_focus", None)
        return bool(has and has())

    def _key_down(self, _win: Any, key: int, _scancode: int, codepoint: str, modifiers: list[str]) -> bool:
        if self._text_focus():
            # Backspace (undo) and Enter (end turn) would otherwise never reach the name field.
            return False
        name = _key_name(key, codepoint)
        if self.controls is not None and hasattr(self.controls, "key_down"):
            return bool(self.controls.key_down(name))
        if self.sm.current != "game":
            return False
        if name in ("spacebar", "enter"):
            self.vm.end_turn()
            return True
        if name in ("backspace", "u"):
            self.vm.undo()
            return True
        return False

    def _key_up(self, _win: Any, key: int, _scancode: int, *args: Any) -> bool:
        if self._text_focus():
            return False
        codepoint = args[0] if args and isinstance(args[0], str) else ""
        if self.controls is not None and hasattr(self.controls, "key_up"):
            return bool(self.controls.key_up(_key_name(key, codepoint)))
        return False

    def on_stop(self) -> None:
        self.vm.wait_idle()
        for thing in (self.source, self.controls):
            stop = getattr(thing, "stop", None) or getattr(thing, "close", None)
            if stop is not None:
                with contextlib.suppress(Exception):
                    stop()


def _key_name(key: int, codepoint: str | None) -> str:
    named = {13: "enter", 32: "spacebar", 8: "backspace", 27: "escape"}
    if key in named:
        return named[key]
    return (codepoint or "").lower()


def data_dir() -> Path:
    return Path(os.environ.get("COMPANION_DATA") or Path.home() / ".local" / "share" / "companion")
