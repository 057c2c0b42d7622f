"""Window settings that must be made before Kivy opens its window (so: no Window import here)."""

from __future__ import annotations


def configure_window(*, width: int | None = None, height: int | None = None, fullscreen: bool = False) -> None:
    from kivy.config import Config

    # The kiosk is left only through the confirmed menu action, never by a stray Escape.
    Config.set("kivy", "exit_on_escape", "0")
    if width and height:
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
    if fullscreen:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
    else:
        Config.set("graphics", "fullscreen", "0")
