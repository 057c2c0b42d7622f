"""vision.lookalike: two designs that differ only in a number or an icon, told apart at the
camera's resolution, and never when the picture cannot say."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import lookalike, scan
from vision.pack import proxy_pack
from vision.synth import Camera, Placement, Scene, render_scene

PLAIN = Camera(view_deg=4, light=0.2, noise=2, blur=0.6, jpeg_quality=85)


def one_card(card_id: str, rotation: float, camera: Camera = PLAIN):
    pack = proxy_pack("highwayman")
    scene = Scene(placements=(Placement(card_id, (480.0, 330.0), rotation),), pack=pack, camera=camera)
    frame, truth = render_scene(scene, seed=5)
    return pack, frame, truth


def test_two_stages_of_one_road_are_told_apart_even_from_a_tilted_cell():
    """hm-exeter-2 and hm-exeter-7 differ only in their numbers: the picture says which, even
    when the cell is read 4 degrees off the card (a pile's top card) and whichever is named first."""
    pack, frame, truth = one_card("hm-exeter-2", 3.5)
    (t,) = truth.items
    for order in (("hm-exeter-7", "hm-exeter-2"), ("hm-exeter-2", "hm-exeter-7")):
        faces = {cid: lookalike.faces_of(pack, cid) for cid in order}
        v = lookalike.tell_apart(frame, truth.homography, t.center_mm, t.rotation - 4, faces, t.size_mm, (0, 180))
        assert v.winner == "hm-exeter-2" and v.rotation == 0.0
        assert v.ratio < lookalike.CLEAR_RATIO and v.fit > 0.8


def test_a_card_turned_round_says_so():
    """Read at the wrong half turn, the winning face is the card turned by 180 degrees: the scan
    then keeps its doubt (a look-alike turned round is no verdict on the rotation it read)."""
    pack, frame, truth = one_card("hm-dover-3", 180.0)
    (t,) = truth.items
    faces = {cid: lookalike.faces_of(pack, cid) for cid in ("hm-dover-3", "hm-dover-5")}
    v = lookalike.tell_apart(frame, truth.homography, t.center_mm, 0.0, faces, t.size_mm, (0, 180))
    assert v.winner == "hm-dover-3" and v.rotation == 180.0


def test_no_verdict_where_the_picture_cannot_tell():
    """Two candidates with the same face picture (an owner pack with one photo for two ids), or
    a picture of neither card: no winner."""
    pack, frame, truth = one_card("hm-exeter-2", 0.0)
    (t,) = truth.items
    same = lookalike.faces_of(pack, "hm-exeter-2")
    v = lookalike.tell_apart(frame, truth.homography, t.center_mm, 0.0, {"a": same, "b": same}, t.size_mm, (0, 180))
    assert v.winner is None
    # a stretch of bare table where a card was expected
    faces = {cid: lookalike.faces_of(pack, cid) for cid in ("hm-exeter-2", "hm-exeter-7")}
    v = lookalike.tell_apart(frame, truth.homography, (150.0, 150.0), 0.0, faces, t.size_mm, (0, 180))
    assert v.winner is None
    assert lookalike.faces_of(pack, "no-such-card") == ()


@pytest.mark.parametrize("game,i", [("highwayman", 31), ("highwayman", 33)])
def test_a_piles_top_card_is_not_held_back_for_its_look_alikes(game, i):
    """The top card of an Exeter pile (hm-exeter-2, hm-exeter-3) was read right at 0.88-0.90 but
    listed as unsure: the other stages of the road score nearly as well on the 64-px templates
    (bench seed 1). Compared at the camera's resolution where the designs differ, it counts."""
    from tests.vision.test_scan import bench_scene, check_against_truth

    pack, frame, truth = bench_scene(game, i)
    obs = scan(frame, game, pack=pack)
    top = max((t for t in truth.items if t.id.startswith("hm-exeter")), key=lambda t: t.id[-1].isdigit() and int(t.id[-1]))
    assert top.occluded == 0.0
    assert any(it.id == top.id and np.hypot(it.center_mm[0] - top.center_mm[0], it.center_mm[1] - top.center_mm[1]) < 10
               for it in obs.items), (top.id, [(u.id, u.confidence) for u in obs.unsure])
    check_against_truth(obs, truth, recall=0.9)


def test_which_way_round_a_crossroads_lies_is_read_from_its_print():
    """A crossroads tile's roads are the same every quarter turn; only its print (the corner
    mark, the name, the coloured border) says which way it lies. Each turn is a reading of its
    own, and the print decides."""
    pack = proxy_pack("monsterhighway")
    scene = Scene(placements=(Placement("road-cross", (480.0, 330.0), 90.0),), pack=pack, camera=PLAIN)
    frame, truth = render_scene(scene, seed=5)
    (t,) = truth.items
    faces = {"road-cross": lookalike.faces_of(pack, "road-cross")}
    for read_at, turned in ((90.0, 0.0), (0.0, 90.0), (180.0, 270.0)):
        v = lookalike.tell_apart(frame, truth.homography, t.center_mm, read_at, faces, t.size_mm,
                                 (0, 90, 180, 270), by_turn=True)
        assert (v.winner, v.rotation) == ("road-cross", turned)
    # without by_turn one card is no choice between two
    v = lookalike.tell_apart(frame, truth.homography, t.center_mm, 90.0, faces, t.size_mm, (0, 90, 180, 270))
    assert v.winner is None


def test_a_crossroads_read_unsure_for_its_own_quarter_turns_counts():
    """Bench seed 1, Monster Highway scene 5: a crossroads read right at 0.93 was listed as unsure
    because the same tile a half turn round scored nearly as well on the templates."""
    from tests.vision.test_scan import bench_scene, check_against_truth

    pack, frame, truth = bench_scene("monsterhighway", 5)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert not [u for u in obs.unsure if u.id == "road-cross"]
    check_against_truth(obs, truth, recall=0.95)


def test_two_roads_told_apart_by_colour_alone():
    """hm-dover-4 and hm-holyhead-4 differ only in their band's colour (blue, purple). Asked
    between the right card and its colour twin, the check picks the right one; asked between two
    wrong ones (the number's twin and the colour's), it gives no verdict rather than a wrong card."""
    pack, frame, truth = one_card("hm-dover-4", 0.0)
    (t,) = truth.items
    faces = {cid: lookalike.faces_of(pack, cid) for cid in ("hm-holyhead-4", "hm-dover-4")}
    v = lookalike.tell_apart(frame, truth.homography, t.center_mm, 0.0, faces, t.size_mm, (0, 180))
    assert v.winner == "hm-dover-4"
    faces = {cid: lookalike.faces_of(pack, cid) for cid in ("hm-holyhead-4", "hm-dover-8")}
    v = lookalike.tell_apart(frame, truth.homography, t.center_mm, 0.0, faces, t.size_mm, (0, 180))
    assert v.winner is None


def test_a_wider_ratio_names_a_card_only_once_its_own_look_alikes_are_compared(monkeypatch):
    """At WIDE_RATIO, hm-dover-4 compared only with two wrong cards (its colour twin and its
    number twin) is read as one of them, as above. The scan's check accepts a winner past
    CLEAR_RATIO only when every look-alike of the winner was compared: here the winner's own
    look-alikes bring hm-dover-4 in, and the verdict is then no longer the wrong card."""
    import importlib

    from vision.identify import Match, index_for_pack

    scan_module = importlib.import_module("vision.scan")
    pack, frame, truth = one_card("hm-dover-4", 0.0)
    (t,) = truth.items
    faces = {cid: lookalike.faces_of(pack, cid) for cid in ("hm-holyhead-4", "hm-dover-8")}
    wide = lookalike.tell_apart(frame, truth.homography, t.center_mm, 0.0, faces, t.size_mm, (0, 180),
                                clear_ratio=lookalike.WIDE_RATIO)
    assert wide.winner == "hm-holyhead-4" and lookalike.CLEAR_RATIO < wide.ratio <= lookalike.WIDE_RATIO

    index = index_for_pack(pack)
    reading = Match("unsure", "hm-holyhead-4", 0.0, 0.9, 0.01, t.center_mm, 1, "hm-dover-8")
    real = scan_module._look_alikes
    asked: list[str] = []

    def first_blind(idx, cid):
        # the reading's look-alikes as if the recogniser had learned none: only the two it named
        asked.append(cid)
        return [] if len(asked) == 1 else real(idx, cid)

    monkeypatch.setattr(scan_module, "_look_alikes", first_blind)
    got = scan_module.look_alike_verdict(frame, truth.homography, reading, index, lambda: pack)
    assert asked == ["hm-holyhead-4", "hm-holyhead-4"]  # the winner's look-alikes were asked for
    assert "hm-dover-4" in real(index, "hm-holyhead-4")
    assert got == reading  # no verdict: the card there is not the one first found best
    monkeypatch.setattr(scan_module, "_look_alikes", real)
    got = scan_module.look_alike_verdict(frame, truth.homography, reading, index, lambda: pack)
    assert got.id == "hm-dover-4" and got.status == "sure"


def test_a_face_picture_gone_since_learning_leaves_the_reading_as_it_was(tmp_path, monkeypatch):
    """An owner's pack folder edited while the app runs: a look-alike's face file is gone. The
    check that would read it is skipped and the scan goes on (the card stays listed as unsure).
    (The card lies 4 degrees off its cell, and read turned square to it the card is sure without
    the check: the cell is read only as it lies here.)"""
    import importlib
    import shutil

    from tests.vision.test_scan import bench_scene
    from vision.identify import index_for_pack
    from vision.pack import load_pack

    pack, frame, _truth = bench_scene("highwayman", 31)
    shutil.copytree(pack.root, tmp_path / "pack")
    mine = load_pack(tmp_path / "pack")
    index = index_for_pack(mine)
    for path in lookalike.faces_of(mine, "hm-exeter-7"):
        path.unlink()
    monkeypatch.setattr(importlib.import_module("vision.scan"), "TURN_TRIES", ())
    obs = scan(frame, "highwayman", pack=mine, index=index)
    assert not any(it.id == "hm-exeter-2" for it in obs.items)
    assert any(u.id == "hm-exeter-2" for u in obs.unsure)


def _washed(frame: np.ndarray, share: float) -> np.ndarray:
    """The frame with its colours `share` as strong as they were (its lightness as it was)."""
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 1:] = 128 + (lab[..., 1:] - 128) * share
    return cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)


@pytest.mark.parametrize("card,twin,neither",
                         [("hm-dover-4", "hm-holyhead-4", ("hm-holyhead-4", "hm-dover-8")),
                          ("hm-exeter-2", "hm-exeter-7", ("hm-exeter-3", "hm-exeter-7"))])
def test_look_alikes_are_told_apart_in_a_picture_whose_colours_are_half_as_strong(card, twin, neither):
    """A printed card under a lamp, in a sleeve, shows its colours about half as strong as its
    face picture. Compared as they were, the twin's colours missed such a picture nearly as much
    as the card's own (ratio 0.73 for the colour twins, 0.96 for the number twins: no verdict).
    With the picture's colour spread widened to the face's, the card wins; between two cards
    neither of which lies there, there is still no verdict."""
    pack, frame, truth = one_card(card, 0.0)
    (t,) = truth.items
    washed = _washed(frame, 0.5)
    faces = {cid: lookalike.faces_of(pack, cid) for cid in (twin, card)}
    v = lookalike.tell_apart(washed, truth.homography, t.center_mm, 0.0, faces, t.size_mm, (0, 180))
    assert v.winner == card and v.ratio < lookalike.CLEAR_RATIO
    faces = {cid: lookalike.faces_of(pack, cid) for cid in neither}
    v = lookalike.tell_apart(washed, truth.homography, t.center_mm, 0.0, faces, t.size_mm, (0, 180))
    assert v.winner is None


def test_a_sleeved_card_is_told_from_its_twin_by_its_badge():
    """Bench seed 9, proxy Roundabout 135: ra-17, in a glossy sleeve in the middle of a grid, read
    0.85 but only 0.08 ahead of ra-11, which differs in its IN/OUT badge and arrow. The picture's
    colours are about half as strong as its face's, and the badge's blue explained it little
    better than the red one: listed to check. With the colour spread widened, it counts."""
    from tests.vision.test_scan import bench_scene, check_against_truth

    pack, frame, truth = bench_scene("roundabout", 135, seed=9)
    obs = scan(frame, "roundabout", pack=pack)
    assert any(it.id == "ra-17" and np.hypot(it.center_mm[0] - 500, it.center_mm[1] - 350) < 10
               for it in obs.items)
    assert not obs.unsure
    check_against_truth(obs, truth, recall=1.0)
