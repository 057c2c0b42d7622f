"""Screens built when first shown, and the seldom shown ones let go once left.

The app has nine screens; a game of Big Sur shows the rules reference once, the hand entry a few
times, the end and history screens once, and never the byway checklists. Built up front, every
one of them kept its widgets and its labels' textures for the whole run, and the labels bound to
the game's state (the rules reference, the end screen's message) were drawn again after every
move although nobody saw them: on a software OpenGL (llvmpipe) those textures are the process's
own memory. Here a screen is made by its factory the first time it is asked for (by ``current``
or ``get_screen``; ``has_screen`` knows it before), and a screen named ``transient`` is removed
once another screen has taken its place, so the next visit builds it afresh. Transient screens
must therefore rebuild what they show in ``on_pre_enter`` and keep no state between visits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kivy.clock import Clock
from kivy.uix.screenmanager import Screen, ScreenManager


class LazyScreens(ScreenManager):
    def __init__(self, *, factories: dict[str, Callable[[], Screen]], transient: Iterable[str] = (),
                 after_change: Callable[[], Any] | None = None, **kw: Any) -> None:
        self._factories = dict(factories)
        self._transient = set(transient)
        #: Called once a change of screen is over and the screens left have been let go.
        self._after_change = after_change
        self._bound_transition: Any = None
        super().__init__(**kw)
        self._watch(self, self.transition)
        self.fbind("transition", self._watch)

    # ------------------------------------------------------------------ building
    def _built(self, name: str) -> Screen | None:
        return next((s for s in self.screens if s.name == name), None)

    def get_screen(self, name: str) -> Screen:
        if self._built(name) is None and name in self._factories:
            screen = self._factories[name]()
            if screen.name != name:
                raise ValueError(f"the factory for {name!r} made a screen named {screen.name!r}")
            self.add_widget(screen)
        return super().get_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in self._factories or super().has_screen(name)

    @property
    def built(self) -> list[str]:
        """The names of the screens that exist now (tests, and to see what memory is held)."""
        return [s.name for s in self.screens]

    # ------------------------------------------------------------------ letting go
    def _watch(self, _sm: Any, transition: Any) -> None:
        if self._bound_transition is not None:
            self._bound_transition.unbind(on_complete=self._changed)
        self._bound_transition = transition
        if transition is not None:
            transition.bind(on_complete=self._changed)

    def on_current(self, instance: Any, value: Any) -> None:
        super().on_current(instance, value)
        if not self.transition.is_active:  # the first screen, or a change with no transition
            self._changed()

    def _changed(self, *_args: Any) -> None:
        # On the next frame: the screen going out still gets its on_leave from the transition.
        Clock.schedule_once(self.release_left, 0)

    def release_left(self, *_args: Any) -> None:
        """Remove the transient screens that are neither shown nor fading in or out, then call
        ``after_change``."""
        t = self.transition
        if t.is_active:
            return  # that change's own end comes back here
        for screen in list(self.screens):
            if screen.name in self._transient and screen is not self.current_screen:
                self.remove_widget(screen)
                # The finished transition would otherwise keep the screen alive until the next
                # change (its properties take no None; the next change sets both again).
                if t.screen_out is screen:
                    t.screen_out = self.current_screen
                if t.screen_in is screen:
                    t.screen_in = self.current_screen
        if self._after_change is not None:
            self._after_change()
