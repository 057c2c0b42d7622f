"""The kiosk's own on-screen keyboard, for typing player names on a touchscreen with no keyboard.

It is a panel of ordinary buttons that the players screen shows below its rows while a name field
has the focus, not Kivy's docked VKeyboard: the screen lays itself out around the panel, so the
keyboard is never partly off the 800x480 screen and the field being typed into is scrolled into
sight above it. Keys type into the focused field through TextInput's own editing calls, the same
ones a physical keyboard uses, so a keyboard plugged into the kiosk (or the demo's desktop
keyboard) keeps working alongside it.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.text import DEFAULT_FONT
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

#: Special keys; every other key types its own text.
SHIFT, BACKSPACE, SPACE, CLEAR, DONE = "shift", "backspace", "space", "clear", "done"

#: The keys row by row: (key, width in key units). Ten units a row, so keys line up in columns.
#: Digits have a row of their own (names like "Player 2"); hyphen and apostrophe are in names.
LAYOUT: tuple[tuple[tuple[str, float], ...], ...] = (
    tuple((c, 1.0) for c in "1234567890"),
    tuple((c, 1.0) for c in "qwertyuiop"),
    (*((c, 1.0) for c in "asdfghjkl"), ("'", 1.0)),
    ((SHIFT, 1.5), *((c, 1.0) for c in "zxcvbnm"), (BACKSPACE, 1.5)),
    ((CLEAR, 2.0), ("-", 1.0), (SPACE, 4.0), (DONE, 3.0)),
)

#: What the special keys show. Roboto has no arrows, so those two use the DejaVu font Kivy ships.
LABELS = {SHIFT: "\u21e7", BACKSPACE: "\u232b", SPACE: "space", CLEAR: "Clear", DONE: "Done"}
SYMBOL_FONT = "DejaVuSans"

#: After these (or at the start of the field) the next letter is a capital, as names are written.
WORD_BREAKS = " -'"


def app() -> Any:
    return App.get_running_app()


class TouchKey(Button):
    """One key. A touch on it must not take the focus away from the field being typed into."""

    key = StringProperty("")
    lit = BooleanProperty(False)  # the shift key while the next letter will be a capital

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) and not self.disabled:
            FocusBehavior.ignored_touch.append(touch)
        return bool(super().on_touch_down(touch))


class TouchKeyboard(BoxLayout):
    """The key panel. ``target`` is the TextInput the keys type into (None: nothing to type in).

    ``shift`` capitalises the next letter only; it comes on by itself at the start of a word, and
    the shift key turns it off (or on) for that one letter.
    """

    target = ObjectProperty(None, allownone=True)
    shift = BooleanProperty(True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(orientation="vertical", **kw)
        self.keys: dict[str, TouchKey] = {}
        for row in LAYOUT:
            line = BoxLayout(orientation="horizontal")
            self.bind(spacing=line.setter("spacing"))
            for key, units in row:
                button = TouchKey(key=key, text=LABELS.get(key, key), size_hint_x=units,
                                  font_name=SYMBOL_FONT if key in (SHIFT, BACKSPACE) else DEFAULT_FONT)
                button.bind(on_release=lambda b: self.press(b.key))
                self.keys[key] = button
                line.add_widget(button)
            self.add_widget(line)
        self.fbind("shift", self._show_case)
        self._show_case()

    @property
    def rows(self) -> int:
        return len(LAYOUT)

    def on_touch_down(self, touch: Any) -> bool:
        # A touch between the keys is still a touch on the keyboard: it neither reaches what is
        # behind the panel nor ends the typing.
        if self.disabled or not self.collide_point(*touch.pos):
            return False
        FocusBehavior.ignored_touch.append(touch)
        super().on_touch_down(touch)
        return True

    def press(self, key: str) -> None:
        """What a tap on ``key`` does to the target field."""
        field = self.target
        if field is None:
            return
        if key == DONE:
            field.focus = False  # the players screen closes the panel when the field lets go
            return
        if key == SHIFT:
            self.shift = not self.shift
            return
        if key == BACKSPACE:
            field.do_backspace()
        elif key == CLEAR:
            field.text = ""
        elif key == SPACE:
            field.insert_text(" ")
        else:
            field.insert_text(key.upper() if self.shift else key)
        self.follow_text()

    def follow_text(self) -> None:
        """Capitals at the start of each word of the name, as a phone keyboard does."""
        field = self.target
        if field is None:
            return
        before = field.text[: field.cursor_index()]
        self.shift = not before or before[-1] in WORD_BREAKS

    def on_target(self, _self: Any, field: Any) -> None:
        if field is not None:
            self.follow_text()

    def _show_case(self, *_args: Any) -> None:
        for key, button in self.keys.items():
            if len(key) == 1 and key.isalpha():
                button.text = key.upper() if self.shift else key
        self.keys[SHIFT].lit = self.shift
