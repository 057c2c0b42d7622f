"""Buttons, seat LEDs and the buzzer: gpiozero on the Pi, the keyboard elsewhere.

Both ``Controls`` (GPIO) and ``KeyboardControls`` turn presses into ``ControlEvent(action, seat,
held)`` with ``action`` one of ``end_turn``, ``undo``, ``scan``. Events are put on a thread-safe
queue the app drains with ``poll()``, or handed to ``on_event`` (called on the GPIO/ticker thread:
a Kivy app wraps it with ``Clock.schedule_once``). Nothing here imports Kivy.

Long press: with ``long_press="undo"``, holding an end-turn button for ``hold_seconds`` sends
``ControlEvent("undo", seat, held=True)`` instead of ending the turn, so a table with one button
per seat needs no separate undo button. A short end-turn press is then sent on release.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .debounce import ButtonLogic
from .errors import ControlsUnavailable, PinLayoutError

log = logging.getLogger("hardware.controls")

Action = Literal["end_turn", "undo", "scan"]
ACTIONS: tuple[str, ...] = ("end_turn", "undo", "scan")
LONG_PRESS = ("undo", "none")
#: BCM numbers of the 40-pin header's GPIOs; 0 and 1 belong to the HAT ID EEPROM
USABLE_PINS = range(2, 28)
DOUBLE_PRESS_GUARD = 0.3  # seconds: a second press sooner than this is a bounce or a slip


@dataclass(frozen=True)
class ControlEvent:
    """One thing a player asked for: ``seat`` is the seat index, or None for a shared button."""

    action: Action
    seat: int | None = None
    held: bool = False


@dataclass(frozen=True)
class ButtonSpec:
    """One physical button: what it is called, where it is wired and what it sends."""

    name: str
    pin: int | None
    action: Action
    seat: int | None = None


@dataclass(frozen=True)
class GpioLayout:
    """Where everything is wired (BCM pin numbers) and how presses are read."""

    seats: int = 4
    end_turn: tuple[int, ...] = ()
    undo: int | None = None
    scan: int | None = None
    leds: tuple[int, ...] = ()
    buzzer: int | None = None
    hold_seconds: float = 1.5
    debounce_ms: float = 50.0
    long_press: str = "undo"

    def validate(self) -> GpioLayout:
        """Raise ``PinLayoutError`` naming the first wrong field; return self when all is well."""
        if not isinstance(self.seats, int) or not 1 <= self.seats <= 4:
            raise PinLayoutError("seats", f"expected 1 to 4 seats, got {self.seats!r}")
        used: dict[int, str] = {}

        def claim(field: str, pin: object) -> None:
            if isinstance(pin, bool) or not isinstance(pin, int):
                raise PinLayoutError(field, f"expected a BCM pin number, got {pin!r}")
            if pin not in USABLE_PINS:
                raise PinLayoutError(field, f"pin {pin} is not a usable GPIO (BCM 2 to 27)")
            if pin in used:
                raise PinLayoutError(field, f"pin {pin} is already used by {used[pin]}")
            used[pin] = field

        if len(self.end_turn) not in (0, 1, self.seats):
            raise PinLayoutError("end_turn", f"expected 1 pin (shared) or {self.seats} pins (one per "
                                 f"seat), got {len(self.end_turn)}")
        for pin in self.end_turn:
            claim("end_turn", pin)
        for name in ("undo", "scan"):
            pin = getattr(self, name)
            if pin is not None:
                claim(name, pin)
        if len(self.leds) not in (0, self.seats):
            raise PinLayoutError("leds", f"expected {self.seats} pins (one per seat), got {len(self.leds)}")
        for pin in self.leds:
            claim("leds", pin)
        if self.buzzer is not None:
            claim("buzzer", self.buzzer)
        if not 1 <= self.debounce_ms <= 500:
            raise PinLayoutError("debounce_ms", f"expected 1 to 500 ms, got {self.debounce_ms!r}")
        if not 0.3 <= self.hold_seconds <= 10:
            raise PinLayoutError("hold_seconds", f"expected 0.3 to 10 seconds, got {self.hold_seconds!r}")
        if self.long_press not in LONG_PRESS:
            raise PinLayoutError("long_press", f"expected one of {', '.join(LONG_PRESS)}, got {self.long_press!r}")
        return self

    def buttons(self) -> list[ButtonSpec]:
        out = []
        if len(self.end_turn) == 1:
            out.append(ButtonSpec("end turn (shared)", self.end_turn[0], "end_turn", None))
        else:
            out += [ButtonSpec(f"end turn, seat {i + 1}", pin, "end_turn", i)
                    for i, pin in enumerate(self.end_turn)]
        if self.undo is not None:
            out.append(ButtonSpec("undo", self.undo, "undo"))
        if self.scan is not None:
            out.append(ButtonSpec("scan", self.scan, "scan"))
        return out


class _EventHub:
    """Debounced buttons feeding one queue; shared by the GPIO and keyboard controls."""

    def __init__(self, *, on_event: Callable[[ControlEvent], None] | None, clock: Callable[[], float],
                 hold_seconds: float, debounce: float, long_press: str,
                 min_interval: float = DOUBLE_PRESS_GUARD) -> None:
        self._on_event = on_event
        self._clock = clock
        self._queue: queue.SimpleQueue[ControlEvent] = queue.SimpleQueue()
        self._lock = threading.RLock()
        self._logic: dict[str, tuple[ButtonSpec, ButtonLogic]] = {}
        self.hold_seconds = hold_seconds
        self.debounce = debounce
        self.long_press = long_press
        self.min_interval = min_interval
        self.turn: int | None = None
        self.buzzes = 0

    def _add(self, key: str, spec: ButtonSpec) -> None:
        hold = self.hold_seconds if spec.action == "end_turn" and self.long_press == "undo" else None
        self._logic[key] = (spec, ButtonLogic(debounce=self.debounce, min_interval=self.min_interval, hold=hold))

    def _edge(self, key: str, pressed: bool, t: float | None = None) -> None:
        with self._lock:
            entry = self._logic.get(key)
            if entry is None:
                return
            spec, logic = entry
            outcomes = logic.edge(pressed, self._clock() if t is None else t)
            events = [self._event(spec, o) for o in outcomes]
        self._deliver(events)

    def tick(self, t: float | None = None) -> None:
        """Let time pass (confirm releases, fire long presses); the ticker thread calls this."""
        now = self._clock() if t is None else t
        events = []
        with self._lock:
            for spec, logic in self._logic.values():
                events += [self._event(spec, o) for o in logic.tick(now)]
        self._deliver(events)

    def _event(self, spec: ButtonSpec, outcome: str) -> ControlEvent:
        if outcome == "held":
            return ControlEvent("undo", spec.seat, held=True)
        return ControlEvent(spec.action, spec.seat, held=False)

    def _deliver(self, events: Iterable[ControlEvent]) -> None:
        for event in events:
            log.debug("control event %s", event)
            if self._on_event is not None:
                try:
                    self._on_event(event)
                except Exception:
                    log.exception("control event listener failed on %r", event)
            else:
                self._queue.put(event)

    def poll(self) -> list[ControlEvent]:
        """Every event since the last poll, oldest first; never blocks (for the UI's clock)."""
        out = []
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out

    def get(self, timeout: float | None = None) -> ControlEvent | None:
        """The next event, waiting up to ``timeout`` seconds (for tools such as ``hw check``)."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None


class Controls(_EventHub):
    """Buttons (to ground, internal pull-ups), seat LEDs and an optional buzzer, through gpiozero.

    ``pin_factory`` is gpiozero's: ``MockFactory()`` in tests; None lets gpiozero choose (on the
    Pi, ``GPIOZERO_PIN_FACTORY=lgpio``). ``clock`` timestamps edges; ``autotick`` runs a small
    thread that lets time pass for releases and long presses (tests turn it off and call
    ``tick(t)`` themselves).
    """

    def __init__(self, layout: GpioLayout, *, pin_factory: Any = None,
                 on_event: Callable[[ControlEvent], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, autotick: bool = True,
                 tick_interval: float = 0.01, min_interval: float = DOUBLE_PRESS_GUARD) -> None:
        layout.validate()
        super().__init__(on_event=on_event, clock=clock, hold_seconds=layout.hold_seconds,
                         debounce=layout.debounce_ms / 1000.0, long_press=layout.long_press,
                         min_interval=min_interval)
        self.layout = layout
        self.buttons = layout.buttons()
        self._devices: list[Any] = []
        self.leds: list[Any] = []
        self.buzzer: Any = None
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        try:
            # DigitalInputDevice is gpiozero's Button without its hold thread: long presses are
            # timed by ButtonLogic, and the extra thread made closing a held button wait.
            from gpiozero import LED, Buzzer, DigitalInputDevice
            from gpiozero.exc import BadPinFactory, GPIOZeroError
        except ImportError as exc:  # pragma: no cover - gpiozero is a dependency
            raise ControlsUnavailable(f"gpiozero cannot be imported ({exc})") from None
        try:
            for spec in self.buttons:
                key = spec.name
                self._add(key, spec)
                # bounce_time=None: every raw edge reaches ButtonLogic, which does the debouncing.
                button = DigitalInputDevice(spec.pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                button.when_activated = lambda _d=None, k=key: self._edge(k, True)
                button.when_deactivated = lambda _d=None, k=key: self._edge(k, False)
                self._devices.append(button)
            for pin in layout.leds:
                led = LED(pin, pin_factory=pin_factory)
                self.leds.append(led)
                self._devices.append(led)
            if layout.buzzer is not None:
                self.buzzer = Buzzer(layout.buzzer, pin_factory=pin_factory)
                self._devices.append(self.buzzer)
        except BadPinFactory as exc:
            self.close()
            raise ControlsUnavailable(f"no GPIO on this machine ({exc}); use the keyboard controls") from None
        except GPIOZeroError as exc:
            self.close()
            raise ControlsUnavailable(f"cannot set up the GPIO pins: {exc}") from None
        if autotick:
            self._ticker = threading.Thread(target=self._tick_loop, args=(tick_interval,),
                                            name="controls ticker", daemon=True)
            self._ticker.start()

    def _tick_loop(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self.tick()
            except Exception:  # keep reading buttons whatever a listener does
                log.exception("controls tick failed")

    def show_turn(self, seat: int | None) -> None:
        """Light the LED of the seat whose turn it is (None: all off)."""
        if seat is not None and not 0 <= seat < self.layout.seats:
            raise PinLayoutError("seat", f"no seat {seat} (there are {self.layout.seats})")
        self.turn = seat
        for i, led in enumerate(self.leds):
            led.value = 1 if i == seat else 0

    def set_led(self, index: int, on: bool) -> None:
        self.leds[index].value = 1 if on else 0

    def buzz(self, times: int = 1) -> bool:
        """Short beeps for an illegal play; False when no buzzer is wired."""
        self.buzzes += 1
        if self.buzzer is None:
            return False
        self.buzzer.beep(on_time=0.12, off_time=0.08, n=max(1, times), background=True)
        return True

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join(1.0)
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception as exc:
                log.debug("closing %r failed: %s", device, exc)
        self._devices.clear()
        self.leds = []
        self.buzzer = None

    def __enter__(self) -> Controls:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


DEFAULT_KEYS: Mapping[str, tuple[Action, int | None]] = {
    "enter": ("end_turn", None),
    "spacebar": ("end_turn", None),
    "1": ("end_turn", 0),
    "2": ("end_turn", 1),
    "3": ("end_turn", 2),
    "4": ("end_turn", 3),
    "backspace": ("undo", None),
    "u": ("undo", None),
    "s": ("scan", None),
}


class KeyboardControls(_EventHub):
    """The same actions from a keyboard, for desktops and the demo.

    The UI layer feeds key names (Kivy's, e.g. ``"enter"``, ``"spacebar"``, ``"1"``) to
    ``key_down``/``key_up``; auto-repeat of a held key is ignored, holding an end-turn key is a long
    press as on the real buttons. ``show_turn`` and ``buzz`` only remember what they were asked,
    for the UI to show. With ``long_press="undo"`` the UI calls ``tick()`` every few tens of
    milliseconds so a held key becomes an undo without waiting for its release.
    """

    def __init__(self, *, seats: int = 4, keys: Mapping[str, tuple[Action, int | None]] | None = None,
                 on_event: Callable[[ControlEvent], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, hold_seconds: float = 1.5,
                 long_press: str = "undo", min_interval: float = DOUBLE_PRESS_GUARD) -> None:
        # Keys do not bounce; the tiny debounce only orders a release before the next press.
        super().__init__(on_event=on_event, clock=clock, hold_seconds=hold_seconds,
                         debounce=0.0, long_press=long_press, min_interval=min_interval)
        if long_press not in LONG_PRESS:
            raise PinLayoutError("long_press", f"expected one of {', '.join(LONG_PRESS)}, got {long_press!r}")
        self.seats = seats
        self.keys: dict[str, tuple[Action, int | None]] = {}
        for key, (action, seat) in (keys or DEFAULT_KEYS).items():
            if action not in ACTIONS:
                raise PinLayoutError("keys", f"key {key!r}: unknown action {action!r}")
            if seat is not None and seat >= seats:
                continue  # a "4" key on a three-seat table does nothing
            self.keys[key.lower()] = (action, seat)
            self._add(key.lower(), ButtonSpec(f"key {key}", None, action, seat))

    def key_down(self, key: str, t: float | None = None) -> bool:
        """Feed a key press; True when the key means something here."""
        name = key.lower()
        self._edge(name, True, t)
        return name in self.keys

    def key_up(self, key: str, t: float | None = None) -> bool:
        name = key.lower()
        self._edge(name, False, t)
        self.tick(t)
        return name in self.keys

    def show_turn(self, seat: int | None) -> None:
        self.turn = seat

    def buzz(self, times: int = 1) -> bool:
        self.buzzes += 1
        return False

    def close(self) -> None:
        """Nothing to release; present so both kinds of controls can be used the same way."""

    def __enter__(self) -> KeyboardControls:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
