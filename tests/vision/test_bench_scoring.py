"""How bench/vision.py scores what a scan shows besides the cards: a foreign object shown as an
unknown place, unknown places where nothing lies (a "?" the players find nothing under), and cards
listed for the players to check where no card lies."""

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

from vision.observation import Observation, Unknown

BENCH = Path(__file__).resolve().parents[2] / "bench" / "vision.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_vision", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def thing(kind, at, size):
    return SimpleNamespace(kind=kind, center_mm=at, size_mm=size)


def truth(*distractors, items=(), pieces=()):
    return SimpleNamespace(items=list(items), pieces=list(pieces), distractors=list(distractors), layout=None)


def observed(*unknowns):
    obs = Observation(game="bigsur")
    obs.unknowns = [Unknown(at, (60.0, 60.0), "not a card of this pack", 0.0) for at in unknowns]
    return obs


def test_a_phone_with_a_question_mark_on_it_is_shown_and_nothing_strays(bench):
    s = bench.score_scene(observed((105.0, 110.0)), truth(thing("phone", (100.0, 100.0), (72.0, 150.0))), 0.25)
    assert (s["distractors"], s["rejected"], s["shown_unknown"], s["stray_unknowns"]) == (1, 1, 1, 0)


def test_a_question_mark_where_nothing_lies_is_stray_and_the_phone_not_shown(bench):
    s = bench.score_scene(observed((400.0, 100.0)), truth(thing("phone", (100.0, 100.0), (72.0, 150.0))), 0.25)
    assert (s["shown_unknown"], s["stray_unknowns"]) == (0, 1)


def test_a_question_mark_by_a_hand_or_a_piece_is_not_stray(bench):
    # a hand is no object the scan must show (it names the arm); a place on it is not stray
    hand = thing("hand", (300.0, 300.0), (95.0, 190.0))
    car = thing("car", (600.0, 300.0), (20.0, 40.0))
    s = bench.score_scene(observed((320.0, 330.0), (610.0, 300.0)), truth(hand, pieces=[car]), 0.25)
    assert (s["distractors"], s["shown_unknown"], s["stray_unknowns"]) == (0, 0, 0)


@pytest.mark.parametrize("rotation,at,stray", [
    (0.0, (300.0, 600.0), False),  # on the forearm, 300 mm from the hand's centre towards its elbow
    (0.0, (300.0, 150.0), False),  # at the fingertips
    (0.0, (420.0, 600.0), True),  # beside the forearm
    (0.0, (300.0, 50.0), True),  # beyond the fingertips
    (90.0, (0.0, 300.0), False),  # turned a quarter clockwise: its forearm runs towards -x
    (90.0, (600.0, 300.0), True),  # ... and not towards +x
])
def test_an_arms_place_far_from_its_hand_is_not_stray(bench, rotation, at, stray):
    """vision.synth draws a hand's forearm from its palm along +y of its own frame (turned
    clockwise by its rotation) to beyond the table's edge: the arm's places the scan shows are
    something lying there, not a "?" over nothing."""
    hand = SimpleNamespace(kind="hand", center_mm=(300.0, 300.0), size_mm=(95.0, 190.0), rotation=rotation)
    s = bench.score_scene(observed(at), truth(hand), 0.25)
    assert s["stray_unknowns"] == int(stray)


def test_a_card_listed_to_check_where_none_lies_is_counted_as_such(bench):
    from vision.observation import Item

    card = SimpleNamespace(id="bs-01", center_mm=(200.0, 200.0), size_mm=(63.0, 88.0), rotation=0.0, occluded=0.0)
    obs = observed()
    box = ((0.0, 0.0),) * 4
    obs.unsure = [Item("bs-01", 0.0, (205.0, 195.0), (63.0, 88.0), 0.6, box),
                  Item("bs-02", 0.0, (500.0, 200.0), (63.0, 88.0), 0.6, box)]
    s = bench.score_scene(obs, truth(items=[card]), 0.25)
    assert (s["unsure_listed"], s["unsure_nothing"], s["unsure"]) == (2, 1, 1)


def card_at(at, occluded=0.0):
    x, y = at
    corners = ((x - 31.5, y - 44.0), (x + 31.5, y - 44.0), (x + 31.5, y + 44.0), (x - 31.5, y + 44.0))
    return SimpleNamespace(id="bs-01", center_mm=at, size_mm=(63.0, 88.0), rotation=0.0, occluded=occluded,
                           corners_mm=corners)


@pytest.mark.parametrize("places,unshown", [
    ([], 1),  # nothing shown: the players are not told to look there
    ([Unknown((210.0, 190.0), (63.0, 88.0), "not a card of this pack", 0.0)], 0),  # a "?" on it
    # a "?" cell drawn 40 mm off across the card covers a third of it; 50 mm off, a fifth
    ([Unknown((240.0, 200.0), (63.0, 88.0), "not a card of this pack", 0.0)], 0),
    ([Unknown((250.0, 200.0), (63.0, 88.0), "not a card of this pack", 0.0)], 1),
    # a hand's place whose box holds the card's centre, though its own centre lies far off
    ([Unknown((200.0, 300.0), (100.0, 260.0), "a hand or an arm", 0.0)], 0),
    ([Unknown((200.0, 330.0), (100.0, 200.0), "a hand or an arm", 0.0)], 1),  # ... one that stops short
    ([Unknown((200.0, 290.0), (200.0, 60.0), "a lamp's glare", 90.0)], 0),  # a box turned a quarter
    ([Unknown((200.0, 290.0), (200.0, 60.0), "a lamp's glare", 0.0)], 1),  # ... not turned, it lies beside
])
def test_a_missed_card_is_silent_only_where_nothing_is_shown_at_it(bench, places, unshown):
    obs = Observation(game="bigsur")
    obs.unknowns = list(places)
    s = bench.score_scene(obs, truth(items=[card_at((200.0, 200.0))]), 0.25)
    assert (s["missing"], s["missing_unshown"]) == (1, unshown)


def test_a_card_listed_to_check_is_shown_and_a_hidden_card_is_not_required(bench):
    from vision.observation import Item

    obs = Observation(game="bigsur")
    obs.unsure = [Item("bs-01", 0.0, (205.0, 195.0), (63.0, 88.0), 0.6, ((0.0, 0.0),) * 4)]
    s = bench.score_scene(obs, truth(items=[card_at((200.0, 200.0)), card_at((500.0, 200.0), occluded=0.6)]), 0.25)
    assert (s["items"], s["unsure"], s["missing"], s["missing_unshown"]) == (1, 1, 0, 0)


def test_a_hand_is_named_where_an_arms_place_lies_on_it(bench):
    from vision.observation import ARM

    hand = SimpleNamespace(kind="hand", center_mm=(300.0, 300.0), size_mm=(95.0, 190.0), rotation=0.0)
    named, beside, other = observed(), observed(), observed((300.0, 500.0))
    named.unknowns = [Unknown((300.0, 500.0), (70.0, 120.0), ARM, 0.0)]  # on its forearm
    beside.unknowns = [Unknown((500.0, 300.0), (70.0, 120.0), ARM, 0.0)]  # an arm's place off it
    seen = [bench.score_scene(obs, truth(hand), 0.25) for obs in (named, beside, other)]
    assert [(s["hands"], s["hands_named"]) for s in seen] == [(1, 1), (1, 0), (1, 0)]


def test_a_hand_warned_of_is_counted_only_in_a_scene_without_one(bench):
    """An arm's place in a scene no hand reaches into tells the players to lift a hand that is not
    there (a shadow on a patterned cloth, a phone): counted. With a hand in the scene, an arm's
    place anywhere is not counted so (hands named and stray unknowns say where it lies)."""
    from vision.observation import ARM

    hand = SimpleNamespace(kind="hand", center_mm=(300.0, 300.0), size_mm=(95.0, 190.0), rotation=0.0)
    phone = thing("phone", (700.0, 300.0), (72.0, 150.0))
    arm, other = observed(), observed((700.0, 300.0))
    arm.unknowns = [Unknown((700.0, 300.0), (70.0, 120.0), ARM, 0.0)]  # the phone named an arm
    seen = [bench.score_scene(obs, t, 0.25) for obs, t in ((arm, truth(phone)), (other, truth(phone)),
                                                         (arm, truth(hand, phone)), (other, truth()))]
    assert [(s["no_hand"], s["hand_warned"]) for s in seen] == [(1, 1), (1, 0), (0, 0), (1, 0)]


def frame_with_white(x0=0, x1=0):
    """A grey 1000 x 700 frame (1 px a mm, as `mapped` projects) white between columns x0 and x1."""
    import numpy as np

    frame = np.full((700, 1000, 3), 128, np.uint8)
    frame[:, x0:x1] = 255
    return frame


def mapped(*items):
    """A scene's truth whose table mm are the frame's px (`project` as the renderer's own)."""
    import numpy as np

    t = truth(items=list(items))
    t.project = lambda points: np.asarray(points, np.float64)
    return t


@pytest.mark.parametrize("white_cols,occluded,found,want", [
    ((0, 0), 0.0, None, "plain"),  # missed in plain view
    ((0, 0), 0.1, None, "covered"),  # a tenth of it under a hand or a car
    ((150, 200), 0.0, None, "washed_out"),  # white over 31.5 of its 63 mm (50 %)
    ((150, 180), 0.1, None, "covered"),  # white over 11.5 mm (18 %): not washed out
    ((150, 200), 0.1, "unsure", "washed_out"),  # listed to check: not right either
    ((0, 0), 0.0, "wrong", "plain"),  # read as another card
    ((150, 200), 0.0, "right", None),  # found right: no cause counted
])
def test_a_visible_card_not_found_right_is_counted_by_what_lay_on_it(bench, white_cols, occluded, found, want):
    from vision.observation import Item

    obs = Observation(game="bigsur")
    if found:
        it = Item("bs-01" if found != "wrong" else "bs-02", 0.0, (200.0, 200.0), (63.0, 88.0), 0.9, ((0.0, 0.0),) * 4)
        (obs.unsure if found == "unsure" else obs.items).append(it)
    s = bench.score_scene(obs, mapped(card_at((200.0, 200.0), occluded)), 0.25, frame_with_white(*white_cols))
    assert {c: s[f"not_right_{c}"] for c in bench.CAUSES} == {c: int(c == want) for c in bench.CAUSES}
    assert s["right"] == (want is None)


def test_without_the_frame_no_cause_is_counted(bench):
    s = bench.score_scene(Observation(game="bigsur"), truth(items=[card_at((200.0, 200.0))]), 0.25)
    assert s["missing"] == 1 and not any(k.startswith("not_right_") for k in s)


@pytest.mark.parametrize("changes,perfect,note", [
    ({}, True, None),  # nothing to say: left out of the log
    ({"missing": 1}, False, ""),  # cards not all right: printed as they are
    ({"pieces": 2, "pieces_found": 1}, True, " (cards all right; pieces)"),
    ({"stray_unknowns": 1}, True, " (cards all right; unknown places)"),
    ({"hands": 1, "hands_named": 0}, True, " (cards all right; a hand not named)"),
    ({"hands": 1, "hands_named": 1}, True, None),
    ({"hand_warned": 1}, True, " (cards all right; a hand warned of where none is)"),
    ({"rows": 2, "rows_out_of_order": 1}, True, " (cards all right; layout)"),
    ({"reservations": 2, "reserved": 1}, True, " (cards all right; layout)"),
    ({"monsters": 1, "monster_right": 1}, True, None),
])
def test_the_verbose_log_names_every_scene_with_something_off(bench, changes, perfect, note):
    """bench/vision.py --verbose prints a scene whose cards are not all right, and one whose cards
    are but whose pieces, unknown places, hands or layout are not (bench.scene_note): comparing
    two runs' logs scene by scene, a hand no longer named showed in the totals only."""
    s = {**bench.score_scene(Observation(game="bigsur"), truth(), 0.25), **changes}
    assert bench.scene_note(s, perfect) == note
