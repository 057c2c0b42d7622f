"""The fade between screens, drawn into the same two offscreen buffers every time.

Kivy's FadeTransition renders the screen going and the screen coming into two new window-sized
framebuffers (colour and stencil) on every change of screen and leaves the old pair to the
garbage collector. On a software OpenGL (Mesa llvmpipe, as on a desktop without a GPU driver or
under Xvfb) those buffers are the process's own memory, about 6 MB a pair at 800x480: a whole
demo game left 18 MB more resident and a 28 MB higher peak than the same game without fades
(measured with bench/app.py). This fade looks the same and keeps one pair, made again only when
the screens change size.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import ClearBuffers, ClearColor, Fbo, InstructionGroup, PopMatrix, PushMatrix, Translate
from kivy.uix.screenmanager import FadeTransition


class ReusedFade(FadeTransition):
    """A FadeTransition whose two framebuffers are kept from one screen change to the next."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        #: The pair of the last change, free for the next one (any other size is made afresh).
        self._spare: list[Fbo] = []
        self._in_use: list[Fbo] = []

    def make_screen_fbo(self, screen: Any) -> Fbo:
        size = (int(screen.width), int(screen.height))
        fbo = next((f for f in self._spare if tuple(f.size) == size), None)
        if fbo is None:
            fbo = Fbo(size=size, with_stencilbuffer=True)
        else:
            self._spare.remove(fbo)
        # What Kivy's make_screen_fbo puts in a new buffer, put into this one afresh.
        for group in (fbo.before, fbo, fbo.after):
            group.clear()
        with fbo:
            ClearColor(*self.clearcolor)
            ClearBuffers()
        # The screen's canvas goes in through a group of its own: once the screen going out has
        # left the manager's canvas, Kivy can no longer remove that canvas from a buffer (an
        # instruction without a parent is not removed), but the group can always be.
        holder = InstructionGroup()
        holder.add(screen.canvas)
        fbo.add(holder)
        with fbo.before:
            PushMatrix()
            Translate(-screen.x, -screen.y, 0)
        with fbo.after:
            PopMatrix()
        self._in_use.append(fbo)
        return fbo

    def remove_screen(self, screen: Any) -> None:
        super().remove_screen(screen)
        for fbo in self._in_use:
            # Let go of the screens' canvases; the buffers themselves wait for the next change.
            for group in (fbo.before, fbo, fbo.after):
                group.clear()
        self._spare, self._in_use = self._in_use, []
