"""End of turn without a window: still-table wait, reading the picture, recording or explaining."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.reconcile import diff, reconcile
from companion.session import Session
from companion.session.errors import NoCamera, TableNotStill
from companion.session.stillness import wait_still
from companion.store import Store
from tests.companion.tabletoy import TableToy


class Frames:
    """A scripted camera: each latest() call gives the next frame (the last one repeats)."""

    def __init__(self, images):
        self.images = list(images)
        self.i = 0

    def latest(self):
        if not self.images:
            return None
        k = min(self.i, len(self.images) - 1)
        self.i += 1
        return SimpleNamespace(image=self.images[k], index=k, captured_at=float(k))


def still(value=100):
    return np.full((90, 160, 3), value, np.uint8)


def hand(seed):
    return np.random.default_rng(seed).integers(0, 255, (90, 160, 3), dtype=np.uint8)


def item(card, x, y=50.0, rot=0.0):
    return SimpleNamespace(id=card, rotation=rot, center_mm=(x, y))


def obs(*items, unsure=()):
    return SimpleNamespace(items=list(items), unknowns=[], unsure=list(unsure))


# ---------------------------------------------------------------- stillness
def test_waits_until_hands_leave_the_table():
    frames = Frames([hand(1), hand(2), hand(3), still(), still(), still()])
    frame = wait_still(frames, needed=2, sleep=lambda s: None)
    assert frame.index == 5


def test_a_table_that_never_keeps_still_is_reported():
    frames = Frames([hand(i) for i in range(50)] + [hand(99)])
    frames.latest = _advancing(frames)
    with pytest.raises(TableNotStill, match="hands away"):
        wait_still(frames, max_frames=10, sleep=lambda s: None)


def _advancing(frames):
    counter = iter(range(10_000))

    def latest():
        k = next(counter)
        return SimpleNamespace(image=hand(k), index=k, captured_at=0.0)

    return latest


def test_no_frames_is_a_camera_error():
    with pytest.raises(NoCamera, match="camera"):
        wait_still(Frames([]), max_polls=3, sleep=lambda s: None)


def test_a_camera_its_watchdog_reports_lost_is_a_camera_error_at_once():
    """End turn must not poll for seconds when the camera has already said it is gone."""
    polls = []
    lost = SimpleNamespace(latest=lambda: None, state="lost", lost_reason="reads keep failing")
    with pytest.raises(NoCamera, match="reads keep failing"):
        wait_still(lost, max_polls=500, sleep=polls.append)
    assert polls == []
    starting = SimpleNamespace(latest=lambda: None, state="starting", lost_reason=None)
    with pytest.raises(NoCamera):
        wait_still(starting, max_polls=3, sleep=polls.append)
    assert len(polls) == 3  # a camera still starting is given its polls


class Delivered(Frames):
    """A camera that had already delivered ``before`` when it was asked, and keeps its preview
    (as FrameSource.preview does for its last few frames)."""

    def __init__(self, before, images):
        super().__init__(images)
        self.before = before

    def latest(self):
        frame = super().latest()
        return SimpleNamespace(image=frame.image, index=frame.index + 1, captured_at=frame.captured_at)

    def preview(self, index):
        return self.before if index == 0 else None


def test_a_table_still_since_the_frame_before_is_read_without_waiting():
    polls = []
    frame = wait_still(Delivered(still(), [still(), still(), still()]), sleep=polls.append)
    assert frame.index == 1 and polls == []


def test_a_hand_moving_between_the_last_two_frames_is_still_waited_for():
    frames = Delivered(hand(7), [still(), still(), hand(1), hand(2), still(), still()])
    frame = wait_still(frames, sleep=lambda s: None)
    assert frame.index == 2  # the newest frame differed from the one before: one more was taken
    moving = Delivered(hand(7), [hand(i) for i in range(10)])
    moving.latest = _advancing(moving)
    with pytest.raises(TableNotStill):
        wait_still(moving, max_frames=5, sleep=lambda s: None)


# ---------------------------------------------------------------- diff
def test_diff_sees_added_removed_and_moved_cards():
    d = diff([item("a1", 0), item("b2", 100), item("c3", 200)],
             [item("a1", 3), item("b2", 160), item("d4", 300)])
    assert [s.id for s in d.added] == ["d4"]
    assert [s.id for s in d.removed] == ["c3"]
    assert [(o.id, n.center) for o, n in d.moved] == [("b2", (160.0, 50.0))]


def test_a_turned_card_counts_as_moved():
    d = diff([item("a1", 0, rot=0)], [item("a1", 0, rot=90)])
    assert len(d.moved) == 1


def test_turns_that_look_the_same_are_no_move():
    """A crossroads (four turns alike) read at 0 and then at 90, a straight (two) at 0 and 180,
    has not been turned; a straight at 90 has."""
    def sym(cid, rot, symmetry):
        return SimpleNamespace(id=cid, rotation=float(rot), center_mm=(0.0, 50.0), symmetry=symmetry)

    assert diff([sym("cross", 0, 4)], [sym("cross", 90, 4)]).moved == []
    assert diff([sym("straight", 0, 2)], [sym("straight", 180, 2)]).moved == []
    assert len(diff([sym("straight", 0, 2)], [sym("straight", 90, 2)]).moved) == 1


def test_copies_of_a_card_keep_their_own_places():
    """Two copies of a tile, the first gone (the Monster ate it): the one left stayed where it lay,
    so the first is reported gone, not moved onto the second's place."""
    d = diff([item("road", 0), item("road", 50)], [item("road", 50)])
    assert [s.center for s in d.removed] == [(0.0, 50.0)]
    assert d.moved == []


# ---------------------------------------------------------------- the whole end of turn
@pytest.fixture
def session(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    readings = []

    def scanner(image, game_name):
        assert game_name == "tabletoy"
        return readings.pop(0)

    s = Session.new(store, "tabletoy", ["Ana", "Ben"], engine=TableToy, seed=5, scanner=scanner)
    s.readings = readings
    yield s
    store.close()


def end_turn(s, observation):
    s.readings.append(observation)
    return s.end_turn(Frames([still(), still(), still()]), sleep=lambda t: None)


def test_a_seen_play_is_recorded_with_its_picture(session):
    card = session.game.state.shown
    out = end_turn(session, obs(item(card, 200)))
    assert out.ok, out.message
    assert out.recorded[0] == session.game.actions[1] and out.recorded[0]["cell"] == 2
    stored = session.store.load(session.id)
    seq = session.store.live_seqs(session.id)[1]
    assert session.store.scan(session.id, seq)[:2] == b"\xff\xd8"  # a JPEG
    assert stored.actions == session.game.actions


def test_an_illegal_play_gets_the_engine_reason_and_the_spot(session):
    first = session.game.state.shown
    assert end_turn(session, obs(item(first, 200))).ok
    second = session.game.state.shown
    out = end_turn(session, obs(item(first, 200), item(second, 500)))
    assert not out.ok
    assert "must touch the row" in out.message and out.rule == "must touch the row"
    assert out.spots == [(500.0, 50.0)]
    assert session.game.state.shown == second  # nothing recorded


def test_a_removed_card_is_reported_and_the_last_good_picture_kept(session):
    first = session.game.state.shown
    assert end_turn(session, obs(item(first, 200))).ok
    good = session.accepted_jpeg
    second = session.game.state.shown
    out = end_turn(session, obs(item(second, 300)))
    assert not out.ok and f"{first} was at (200, 50) mm and is gone" in out.message
    assert out.spots == [(200.0, 50.0)]
    assert session.accepted_jpeg == good


def test_a_moved_card_is_reported(session):
    first = session.game.state.shown
    assert end_turn(session, obs(item(first, 200))).ok
    second = session.game.state.shown
    out = end_turn(session, obs(item(first, 260), item(second, 300)))
    assert not out.ok and "moved" in out.message


def test_an_unsure_reading_asks_for_confirmation(session):
    card = session.game.state.shown
    seen = item(card, 200)
    out = end_turn(session, obs(seen, unsure=[seen]))
    assert not out.ok and "Not sure" in out.message
    assert out.choices and all(a["card"] == card for a in out.choices)
    assert len(session.game.actions) == 1


def test_nothing_new_says_so(session):
    out = end_turn(session, obs())
    assert not out.ok and "Nothing new" in out.message


def test_a_card_that_fits_several_plays_offers_a_choice(session, monkeypatch):
    import companion.reconcile as rc

    # Without the game's own reconciler, the generic matcher knows the card but not the cell.
    monkeypatch.setattr(rc, "REGISTERED", {})
    card = session.game.state.shown
    out = end_turn(session, obs(item(card, 200)))
    assert not out.ok and "several plays" in out.message
    assert {a["cell"] for a in out.choices} == set(range(6))
    assert len(session.game.actions) == 1
    chosen = session.play(out.choices[2])
    assert chosen.ok and session.game.state.row == {2: card}


def test_an_unknown_card_gives_no_candidates(session):
    assert reconcile(session.game, [], obs(item("zz", 0))).candidates[0]["card"] == "zz"
    out = end_turn(session, obs(item("zz", 0)))
    assert not out.ok and "not allowed" in out.message and out.spots == [(0.0, 50.0)]


def test_scan_errors_become_messages(session):
    def broken(image, game):
        from companion.session.errors import VisionUnavailable
        raise VisionUnavailable("the recogniser is not part of this installation yet")

    session.scanner = broken
    out = session.end_turn(Frames([still(), still(), still()]), sleep=lambda t: None)
    assert not out.ok and "recogniser" in out.message


def test_buttons_map_to_session_calls(session):
    session.readings.append(obs(item(session.game.state.shown, 200)))
    out = session.handle_control(SimpleNamespace(action="end_turn", seat=0, held=False),
                                 Frames([still(), still(), still()]))
    assert out.ok
    assert not session.handle_control(SimpleNamespace(action="undo", seat=None, held=False)).ok


def test_a_seat_button_pressed_out_of_turn_is_refused(session):
    assert session.to_move() == 0
    out = session.handle_control(SimpleNamespace(action="end_turn", seat=1, held=False),
                                 Frames([still(), still(), still()]))
    assert not out.ok and "Ben pressed end turn, but it is Ana's turn" in out.message
    assert len(session.game.actions) == 1  # nothing read, nothing recorded


def test_a_card_turned_up_on_the_table_is_recorded_then_its_placement(tmp_path):
    """Table-revealed chance: the app does not draw; the picture shows which card came up."""
    store = Store(tmp_path / "db.sqlite3")
    box = []
    from companion.session.guides import Guide, _generic_setup

    table_reveals = Guide("tabletoy", "Table Toy", _generic_setup, observed_chance=frozenset({"reveal"}),
                          revealed_is_played=True)
    s = Session.new(store, "tabletoy", ["Ana", "Ben"], engine=TableToy, seed=5, scanner=lambda i, g: box.pop(0),
                    guide=table_reveals)
    assert s.waiting_for_table()  # the first card is not drawn by the app
    box.append(obs(item("c3", 300)))
    out = s.end_turn(Frames([still(), still(), still()]), sleep=lambda t: None)
    assert out.ok, out.message
    assert [a.kind for a in out.recorded] == ["reveal", "place"]
    assert out.recorded[0]["card"] == "c3" and s.game.state.row == {3: "c3"}
    assert store.load(s.id).actions == s.game.actions
    store.close()


def test_a_card_turned_up_as_table_furniture_is_recorded_alone(tmp_path):
    """Big Sur's draw row: the revealed card lies there; it is not read as a play."""
    from companion.session.guides import Guide, _generic_setup

    store = Store(tmp_path / "db.sqlite3")
    box = []
    row_reveals = Guide("tabletoy", "Table Toy", _generic_setup, observed_chance=frozenset({"reveal"}))
    s = Session.new(store, "tabletoy", ["Ana", "Ben"], engine=TableToy, seed=5, scanner=lambda i, g: box.pop(0),
                    guide=row_reveals)
    box.append(obs(item("b2", 300)))
    out = s.end_turn(Frames([still(), still(), still()]), sleep=lambda t: None)
    assert out.ok and [a.kind for a in out.recorded] == ["reveal"]
    assert s.game.state.shown == "b2" and s.game.state.row == {}
    assert [i.id for i in s.accepted_items] == ["b2"]
    store.close()
