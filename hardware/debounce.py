"""Our own debounce, long-press and double-press logic for one button, as a pure state machine.

gpiozero's ``bounce_time`` only drops edges that follow too closely on the *same* pin state, and
its callbacks arrive on a background thread; an arcade button's contact can still bounce into two
"pressed" callbacks and end two turns. ``ButtonLogic`` takes the raw edges with their timestamps
(from any clock) and decides, so a bounce train can be replayed in a test without sleeping:

- a press is taken on its first edge (no added latency) unless a press was taken less than
  ``min_interval`` seconds ago (double-press protection: nobody ends two turns in 0.3 s);
- after that, the button counts as released only once its contact has stayed open for
  ``debounce`` seconds; a closing edge sooner than that is bounce and is ignored;
- with ``hold`` set, the button reports ``"held"`` once it has been kept down ``hold`` seconds,
  and a short press is reported on release instead (you cannot know it is short before then).

``edge(pressed, t)`` feeds a raw edge, ``tick(t)`` lets time pass; both return the outcomes,
each ``"press"`` or ``"held"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ButtonLogic:
    debounce: float = 0.05
    min_interval: float = 0.3
    hold: float | None = None
    # state
    down: bool = field(default=False, init=False)  # the debounced (logical) state
    pressed_at: float = field(default=0.0, init=False)
    released_at: float | None = field(default=None, init=False)  # an open contact not yet trusted
    accepted_at: float | None = field(default=None, init=False)
    held_fired: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        if self.debounce < 0 or self.min_interval < 0:
            raise ValueError("debounce and min_interval cannot be negative")
        if self.hold is not None and self.hold <= self.debounce:
            raise ValueError("a long press must last longer than the debounce time")

    def edge(self, pressed: bool, t: float) -> list[str]:
        out = self._advance(t)
        if pressed:
            if self.down:
                self.released_at = None  # the contact closed again within the debounce: bounce
            elif self.accepted_at is None or t - self.accepted_at >= self.min_interval:
                self.down = True
                self.pressed_at = t
                self.accepted_at = t
                self.held_fired = False
                self.released_at = None
                if self.hold is None:
                    out.append("press")
        elif self.down and self.released_at is None:
            self.released_at = t
        return out

    def tick(self, t: float) -> list[str]:
        return self._advance(t)

    def _advance(self, t: float) -> list[str]:
        """Apply everything that time alone decides, up to ``t``, in the order it happened."""
        out: list[str] = []
        if not self.down:
            return out
        if self.hold is not None and not self.held_fired:
            # The button is held until its (trusted) release, or until now if still down.
            end = self.released_at if self.released_at is not None else t
            if end - self.pressed_at >= self.hold:
                self.held_fired = True
                out.append("held")
        if self.released_at is not None and t - self.released_at >= self.debounce:
            self.down = False
            self.released_at = None
            if self.hold is not None and not self.held_fired:
                out.append("press")
        return out

    @property
    def busy(self) -> bool:
        """True while time alone can still produce an outcome (a tick is needed)."""
        return self.down and (self.released_at is not None or (self.hold is not None and not self.held_fired))
