"""Buttons: our debounce on timestamped edges (no sleeping), long presses, and the gpiozero wiring
on MockFactory pins; keyboard controls; pin layouts."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from hardware import (
    ButtonLogic,
    ControlEvent,
    Controls,
    ControlsUnavailable,
    GpioLayout,
    KeyboardControls,
    PinLayoutError,
)

MS = 0.001


@st.composite
def bounce_trains(draw: st.DrawFn) -> list[tuple[bool, float]]:
    """1-20 alternating edges (closing first) within a 1-50 ms span, starting at a random time."""
    n = draw(st.integers(1, 20))
    span = draw(st.floats(1, 50)) * MS
    start = draw(st.floats(0, 1000))
    offsets = sorted(draw(st.lists(st.floats(0, 1), min_size=n - 1, max_size=n - 1)))
    times = [start] + [start + span * o for o in offsets]
    return [(i % 2 == 0, t) for i, t in enumerate(times)]


def play(logic: ButtonLogic, train: list[tuple[bool, float]], *, release_after: float) -> list[str]:
    """Feed a train, release cleanly if it ended closed, and let plenty of time pass in ticks."""
    out: list[str] = []
    for pressed, t in train:
        out += logic.edge(pressed, t)
    end = train[-1][1]
    if train[-1][0]:
        end += release_after
        out += logic.edge(False, end)
    for k in range(1, 40):
        out += logic.tick(end + k * 0.01)
    return out


@given(bounce_trains(), st.floats(0.06, 1.0))
def test_a_bouncing_contact_gives_exactly_one_press(train: list[tuple[bool, float]], hold_for: float) -> None:
    assert play(ButtonLogic(debounce=0.05), train, release_after=hold_for) == ["press"]


@given(bounce_trains(), st.floats(0.06, 1.0))
def test_the_debounce_alone_suffices_without_the_double_press_guard(train: list[tuple[bool, float]],
                                                                    hold_for: float) -> None:
    logic = ButtonLogic(debounce=0.051, min_interval=0.0)
    assert play(logic, train, release_after=hold_for) == ["press"]


@given(bounce_trains(), st.floats(0.06, 1.2))
def test_with_long_press_a_short_bouncing_press_is_one_press_on_release(train: list[tuple[bool, float]],
                                                                       hold_for: float) -> None:
    # Held less than 1.5 s in total: a short press, reported once, when it is over.
    assert play(ButtonLogic(debounce=0.05, hold=1.5), train, release_after=hold_for) == ["press"]


@given(bounce_trains(), st.floats(1.6, 5.0))
def test_holding_through_bounce_is_one_long_press_and_no_short_press(train: list[tuple[bool, float]],
                                                                     hold_for: float) -> None:
    if not train[-1][0]:
        train = [*train, (True, train[-1][1] + 0.001)]  # it ends closed and stays closed
    assert play(ButtonLogic(debounce=0.05, hold=1.5), train, release_after=hold_for) == ["held"]


@given(st.lists(bounce_trains(), min_size=2, max_size=5), st.floats(0.4, 3.0))
def test_separate_presses_each_count(trains: list[list[tuple[bool, float]]], gap: float) -> None:
    logic = ButtonLogic(debounce=0.05)
    out: list[str] = []
    t0 = 0.0
    for train in trains:
        shift = t0 - train[0][1]
        moved = [(p, t + shift) for p, t in train]
        out += play(logic, moved, release_after=0.1)
        t0 = moved[-1][1] + 0.1 + 0.4 + gap  # after the clean release and the ticks
    assert out == ["press"] * len(trains)


def test_a_second_press_too_soon_after_the_first_is_ignored() -> None:
    logic = ButtonLogic(debounce=0.02, min_interval=0.3)
    assert logic.edge(True, 0.0) == ["press"]
    assert logic.edge(False, 0.05) == []
    assert logic.tick(0.1) == []  # released (debounced)
    assert logic.edge(True, 0.2) == []  # a double press 0.2 s later: not a second end of turn
    assert logic.edge(False, 0.25) == []
    assert logic.tick(0.5) == []
    assert logic.edge(True, 0.6) == ["press"]


def test_the_press_is_taken_on_the_first_edge_and_the_long_press_when_due() -> None:
    logic = ButtonLogic(debounce=0.05, hold=1.5)
    assert logic.edge(True, 10.0) == []
    assert logic.tick(11.0) == []
    assert logic.tick(11.5) == ["held"]
    assert logic.tick(12.0) == []
    assert logic.edge(False, 13.0) == [] and logic.tick(13.1) == []
    # A long press decided only at the release (no ticks meanwhile) is still a long press.
    logic2 = ButtonLogic(debounce=0.05, hold=1.5)
    logic2.edge(True, 0.0)
    assert logic2.edge(False, 2.0) == ["held"]
    assert logic2.tick(3.0) == []


def test_nonsense_timings_are_refused() -> None:
    with pytest.raises(ValueError):
        ButtonLogic(debounce=-1)
    with pytest.raises(ValueError):
        ButtonLogic(debounce=0.05, hold=0.01)


# -- gpiozero on MockFactory -------------------------------------------------------------------

class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


LAYOUT = GpioLayout(seats=3, end_turn=(5, 6, 13), undo=26, scan=21, leds=(17, 27, 22), buzzer=12,
                    debounce_ms=50, hold_seconds=1.5, long_press="undo")


@pytest.fixture
def rig():  # type: ignore[no-untyped-def]
    factory = MockFactory()
    clock = FakeClock()
    controls = Controls(LAYOUT, pin_factory=factory, clock=clock, autotick=False)
    yield factory, clock, controls
    controls.close()


def bounce(factory: MockFactory, clock: FakeClock, pin: int, times_ms: list[float], *, end_closed: bool) -> None:
    for k, t in enumerate(times_ms):
        clock.t += t * MS
        if k % 2 == 0:
            factory.pin(pin).drive_low()  # buttons close to ground
        else:
            factory.pin(pin).drive_high()
    if not end_closed and len(times_ms) % 2 == 1:
        clock.t += 0.2
        factory.pin(pin).drive_high()


@given(bounce_trains(), st.sampled_from([(26, "undo", None), (5, "end_turn", 0), (21, "scan", None)]),
       st.floats(0.06, 1.2))
def test_bounce_trains_on_mock_pins_give_one_event(train: list[tuple[bool, float]], button: tuple[int, str, int | None],
                                                   hold_for: float) -> None:
    pin, action, seat = button
    factory, clock = MockFactory(), FakeClock()
    with Controls(LAYOUT, pin_factory=factory, clock=clock, autotick=False) as controls:
        for pressed, t in train:
            clock.t = 100.0 + t
            if pressed:
                factory.pin(pin).drive_low()
            else:
                factory.pin(pin).drive_high()
        if train[-1][0]:
            clock.t += hold_for
            factory.pin(pin).drive_high()
        for _ in range(10):
            clock.t += 0.02
            controls.tick()
        assert controls.poll() == [ControlEvent(action, seat)]  # type: ignore[arg-type]


def test_a_bouncing_undo_button_on_mock_pins_sends_one_undo(rig) -> None:  # type: ignore[no-untyped-def]
    factory, clock, controls = rig
    bounce(factory, clock, 26, [0, 2, 3, 1, 4, 2, 5], end_closed=False)
    clock.t += 0.1
    controls.tick()
    assert controls.poll() == [ControlEvent("undo", None, held=False)]
    assert controls.poll() == []


def test_end_turn_per_seat_short_and_long_press(rig) -> None:  # type: ignore[no-untyped-def]
    factory, clock, controls = rig
    bounce(factory, clock, 6, [0, 1, 2, 1], end_closed=True)
    factory.pin(6).drive_low()
    clock.t += 0.3
    factory.pin(6).drive_high()
    clock.t += 0.1
    controls.tick()
    assert controls.poll() == [ControlEvent("end_turn", 1)]
    # Hold seat 3's button: after 1.5 s it is an undo, and letting go sends nothing more.
    clock.t += 1.0
    factory.pin(13).drive_low()
    clock.t += 1.0
    controls.tick()
    assert controls.poll() == []
    clock.t += 0.6
    controls.tick()
    assert controls.poll() == [ControlEvent("undo", 2, held=True)]
    factory.pin(13).drive_high()
    clock.t += 0.2
    controls.tick()
    assert controls.poll() == []


def test_callbacks_receive_events_when_given() -> None:
    factory, clock, got = MockFactory(), FakeClock(), []
    with Controls(LAYOUT, pin_factory=factory, clock=clock, autotick=False, on_event=got.append) as controls:
        factory.pin(21).drive_low()
        assert got == [ControlEvent("scan")]
        assert controls.poll() == []  # delivered to the callback, not queued twice


def test_leds_show_whose_turn_it_is_and_the_buzzer_beeps(rig) -> None:  # type: ignore[no-untyped-def]
    factory, _clock, controls = rig
    controls.show_turn(1)
    assert [factory.pin(p).state for p in (17, 27, 22)] == [False, True, False]
    controls.show_turn(2)
    assert [factory.pin(p).state for p in (17, 27, 22)] == [False, False, True]
    controls.show_turn(None)
    assert [factory.pin(p).state for p in (17, 27, 22)] == [False, False, False]
    with pytest.raises(PinLayoutError):
        controls.show_turn(3)
    assert controls.buzz() is True


def test_the_ticker_thread_confirms_releases_by_itself() -> None:
    factory = MockFactory()
    layout = GpioLayout(seats=2, end_turn=(5,), undo=None, scan=None, leds=(), debounce_ms=5)
    with Controls(layout, pin_factory=factory, tick_interval=0.005) as controls:
        factory.pin(5).drive_low()
        factory.pin(5).drive_high()
        event = controls.get(timeout=15)
    assert event == ControlEvent("end_turn", None)


def test_long_press_none_ends_the_turn_at_once() -> None:
    factory, clock = MockFactory(), FakeClock()
    layout = GpioLayout(seats=2, end_turn=(5, 6), long_press="none", leds=())
    with Controls(layout, pin_factory=factory, clock=clock, autotick=False) as controls:
        factory.pin(5).drive_low()
        assert controls.poll() == [ControlEvent("end_turn", 0)]
        clock.t += 3
        controls.tick()
        assert controls.poll() == []


# -- pin layouts -------------------------------------------------------------------------------

@pytest.mark.parametrize("changes, field, words", [
    (dict(leds=(17, 27)), "leds", "expected 3 pins (one per seat), got 2"),
    (dict(end_turn=(5, 6)), "end_turn", "expected 1 pin (shared) or 3 pins"),
    (dict(undo=5), "undo", "pin 5 is already used by end_turn"),
    (dict(buzzer=17), "buzzer", "already used by leds"),
    (dict(scan=40), "scan", "pin 40 is not a usable GPIO"),
    (dict(scan=1), "scan", "pin 1 is not a usable GPIO"),
    (dict(end_turn=(5, 5, 6)), "end_turn", "pin 5 is already used by end_turn"),
    (dict(long_press="redo"), "long_press", "expected one of undo, none"),
    (dict(debounce_ms=0), "debounce_ms", "expected 1 to 500 ms"),
    (dict(hold_seconds=0.1), "hold_seconds", "expected 0.3 to 10 seconds"),
    (dict(seats=5), "seats", "expected 1 to 4 seats"),
])
def test_bad_layouts_name_the_field(changes: dict[str, object], field: str, words: str) -> None:
    fields = {**LAYOUT.__dict__, **changes}
    with pytest.raises(PinLayoutError) as err:
        GpioLayout(**fields).validate()  # type: ignore[arg-type]
    assert err.value.field == field and words in str(err.value)


def test_a_layout_with_one_shared_button_and_no_leds_is_fine() -> None:
    layout = GpioLayout(seats=4, end_turn=(5,), undo=None, scan=None, leds=()).validate()
    assert [b.name for b in layout.buttons()] == ["end turn (shared)"]


def test_a_bad_layout_claims_no_pins() -> None:
    factory = MockFactory()
    with pytest.raises(PinLayoutError):
        Controls(GpioLayout(seats=2, end_turn=(5, 5)), pin_factory=factory, autotick=False)
    with Controls(GpioLayout(seats=2, end_turn=(5,)), pin_factory=factory, autotick=False):
        pass


# -- keyboard ----------------------------------------------------------------------------------

def test_keyboard_controls_send_the_same_actions() -> None:
    keys = KeyboardControls(seats=2, clock=FakeClock(), long_press="none")
    assert keys.key_down("2", 0.0) and keys.key_up("2", 0.1)
    assert keys.key_down("s", 1.0) and keys.key_up("s", 1.1)
    assert keys.key_down("backspace", 2.0)
    assert not keys.key_down("3", 3.0)  # no third seat at this table
    assert not keys.key_down("x", 4.0)
    assert keys.poll() == [ControlEvent("end_turn", 1), ControlEvent("scan"), ControlEvent("undo")]


def test_keyboard_auto_repeat_is_one_press_and_holding_enter_is_undo() -> None:
    keys = KeyboardControls(seats=4, long_press="undo")
    for k in range(30):  # the OS repeats a held key about every 33 ms
        keys.key_down("enter", 10.0 + k * 0.033)
    keys.tick(10.0 + 1.6)
    keys.key_up("enter", 11.7)
    assert keys.poll() == [ControlEvent("undo", None, held=True)]
    keys.key_down("enter", 13.0)
    keys.key_up("enter", 13.1)
    assert keys.poll() == [ControlEvent("end_turn", None)]
    keys.show_turn(2)
    assert keys.turn == 2 and keys.buzz() is False and keys.buzzes == 1


def test_a_pin_taken_by_another_program_is_reported_and_nothing_stays_claimed() -> None:
    from gpiozero import LED

    factory = MockFactory()
    other = LED(27, pin_factory=factory)  # something else already drives GPIO27
    layout = GpioLayout(seats=2, end_turn=(5, 6), leds=(17, 27))
    with pytest.raises(ControlsUnavailable, match="cannot set up the GPIO pins: pin GPIO27 is already in use"):
        Controls(layout, pin_factory=factory, autotick=False)
    other.close()
    with Controls(layout, pin_factory=factory, autotick=False):  # the buttons and LED 17 were released
        pass
