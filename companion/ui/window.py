"""Window settings that must be made before Kivy opens its window (so: no Window import here)."""

from __future__ import annotations


def configure_window(*, width: int | None = None, height: int | None = None, fullscreen: bool = False) -> None:
    from companion.session.memory import limit_arenas

    # Before the window's GL threads and the app's own start (see companion.session.memory).
    limit_arenas()
    from kivy.config import Config

    # Text goes to the focused field from the window's own keyboard only: the kiosk's touchscreen
    # gets the app's on-screen keyboard (companion.ui.touchkeys), laid out within the screen. A
    # keyboard_mode of "dock" or "multi" left in a Kivy config.ini would add Kivy's VKeyboard on top
    # of it, partly off an 800x480 screen.
    Config.set("kivy", "keyboard_mode", "system")
    # The kiosk is left only through the confirmed menu action, never by a stray Escape.
    Config.set("kivy", "exit_on_escape", "0")
    # No multisampled window: Kivy asks for 2x by default, and on a software OpenGL (llvmpipe)
    # the multisampled colour, depth and stencil buffers are the process's memory, about 13 MB
    # at 800x480 (bench/app.py). The screens are text and rectangles whose edges are smoothed
    # by their own textures, so they look the same.
    Config.set("graphics", "multisamples", "0")
    if width and height:
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
    if fullscreen:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
    else:
        Config.set("graphics", "fullscreen", "0")
