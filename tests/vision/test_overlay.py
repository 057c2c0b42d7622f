"""The overlay's card labels: two cards side by side whose ids are wider than a card."""

from __future__ import annotations

import numpy as np

from vision.overlay import SURE, _free_place, _label


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_label_where_none_is_stays_where_it_is():
    assert _free_place((10, 10, 60, 30), [(100, 10, 150, 30)]) == 0


def test_a_label_over_another_moves_down_a_label_height_then_up():
    assert _free_place((10, 10, 60, 30), [(40, 10, 90, 30)]) == 22
    assert _free_place((10, 10, 60, 30), [(40, 10, 90, 30), (40, 32, 90, 52)]) == -22


def test_labels_at_one_place_are_drawn_apart_and_none_is_lost():
    img = np.zeros((400, 600, 3), np.uint8)
    taken: list[tuple[int, int, int, int]] = []
    for x in (280, 300, 320):  # three cards 20 px apart, ids about 200 px wide
        _label(img, "hm-exeter-london", (x, 200), SURE, 0.8, taken)
    assert len(taken) == 3
    assert not any(_overlap(a, b) for i, a in enumerate(taken) for b in taken[i + 1:])
    # each label is drawn where its box says (its colour fills the box's corner)
    for x0, y0, _, _ in taken:
        assert tuple(img[y0 + 1, x0 + 1]) == SURE


def test_the_monster_hiding_a_tile_is_named_not_asked_about():
    """Monster Highway's Monster is read where it hides a tile, a place that stays among the
    unknowns: it is boxed and named in its own colour, any other unknown place keeps the red box;
    the caption names it rather than counting it unknown."""
    from vision.calibration import Calibration
    from vision.layout import NOT_IN_PACK
    from vision.observation import Observation, TableSpec, Unknown
    from vision.overlay import MONSTER, UNKNOWN, caption, draw_overlay

    cal = Calibration(TableSpec(), (1000, 700), np.eye(3), {})  # 1 px a mm
    obs = Observation("monsterhighway", unknowns=[Unknown((500.0, 300.0), (50.0, 50.0), NOT_IN_PACK),
                                                  Unknown((700.0, 300.0), (50.0, 50.0), NOT_IN_PACK)],
                      layout={"monster": {"cell": [10, 6], "center_mm": [500.0, 300.0]}})
    img = draw_overlay(np.zeros((700, 1000, 3), np.uint8), obs, cal)
    assert tuple(img[300, 475]) == MONSTER and tuple(img[300, 675]) == UNKNOWN
    # and the summary line counts its place as the Monster, not as something unknown
    assert caption(obs) == "0 cards, 1 unknown, the Monster"
    obs.layout = {"monster": None}
    assert caption(obs) == "0 cards, 2 unknown"
    # places apart the Monster may each stand on: boxed in its colour, and where it is, not unknown
    obs.unknowns.append(Unknown((200.0, 500.0), (50.0, 50.0), NOT_IN_PACK))
    obs.layout = {"monster": None, "monster_one_of": [{"cell": [10, 6], "center_mm": [500.0, 300.0]},
                                                       {"cell": [14, 6], "center_mm": [700.0, 300.0]}]}
    img = draw_overlay(np.zeros((700, 1000, 3), np.uint8), obs, cal)
    # (their lower edges: the longer name covers the sides)
    assert tuple(img[324, 500]) == MONSTER and tuple(img[324, 700]) == MONSTER and tuple(img[500, 175]) == UNKNOWN
    assert caption(obs) == "0 cards, 1 unknown, the Monster on one of 2 places"


def test_a_glare_spots_white_is_named_as_glare_not_asked_about():
    """An unknown place a lamp's glare drove to white is boxed and named in its own colour, and
    the caption says the glare hides part of the table instead of counting it unknown."""
    from vision.calibration import Calibration
    from vision.layout import NOT_IN_PACK
    from vision.observation import GLARE, Observation, TableSpec, Unknown
    from vision.overlay import GLARE_COLOUR, UNKNOWN, caption, draw_overlay

    cal = Calibration(TableSpec(), (1000, 700), np.eye(3), {})  # 1 px a mm
    obs = Observation("bigsur", unknowns=[Unknown((500.0, 300.0), (90.0, 100.0), GLARE),
                                          Unknown((800.0, 300.0), (50.0, 50.0), NOT_IN_PACK)])
    img = draw_overlay(np.zeros((700, 1000, 3), np.uint8), obs, cal)
    assert tuple(img[300, 455]) == GLARE_COLOUR and tuple(img[300, 775]) == UNKNOWN
    assert caption(obs) == "0 cards, 1 unknown, glare hides part of the table"


def test_an_arms_places_are_named_as_a_hand_not_counted_unknown():
    from vision.calibration import Calibration
    from vision.layout import NOT_IN_PACK
    from vision.observation import ARM, Observation, TableSpec, Unknown
    from vision.overlay import UNKNOWN, caption, draw_overlay

    cal = Calibration(TableSpec(), (1000, 700), np.eye(3), {})  # 1 px a mm
    obs = Observation("bigsur", unknowns=[Unknown((500.0, 300.0), (50.0, 50.0), ARM),
                                          Unknown((500.0, 350.0), (50.0, 50.0), ARM),
                                          Unknown((800.0, 300.0), (50.0, 50.0), NOT_IN_PACK)])
    img = draw_overlay(np.zeros((700, 1000, 3), np.uint8), obs, cal)
    assert tuple(img[300, 475]) == UNKNOWN and tuple(img[350, 475]) == UNKNOWN  # each still boxed
    assert caption(obs) == "0 cards, 1 unknown, a hand hides part of the table"


def test_an_arm_cut_into_places_is_outlined_and_labelled_once(monkeypatch):
    """A column of places cut out of one arm is one outline with one "hand" label (the overlay of
    a board an arm crossed read "hand" ten times over, in a dozen boxes); a second arm far off has
    its own."""
    import vision.overlay as overlay
    from vision.calibration import Calibration
    from vision.observation import ARM, Observation, TableSpec, Unknown

    cal = Calibration(TableSpec(), (1000, 700), np.eye(3), {})
    arm = [Unknown((500.0, 350.0 + 50.0 * k), (50.0, 50.0), ARM) for k in range(6)]
    other = Unknown((150.0, 650.0), (50.0, 50.0), ARM)
    labels: list[str] = []
    real = overlay._label
    monkeypatch.setattr(overlay, "_label", lambda img, text, *a, **k: labels.append(text) or real(img, text, *a, **k))
    img = overlay.draw_overlay(np.zeros((700, 1000, 3), np.uint8), Observation("bigsur", unknowns=[*arm, other]), cal)
    assert labels.count("hand") == 2
    # the column's sides are drawn its whole length; the seams between its places are not
    assert all(tuple(img[round(u.center_mm[1]), 475]) == overlay.UNKNOWN for u in arm)
    assert all(not img[y, 500:520].any() for y in (375, 425, 525, 575))
    assert tuple(img[625, 150]) == overlay.UNKNOWN  # the other arm's box


def test_a_thing_cut_into_places_is_one_unknown_outlined_once(monkeypatch):
    """A coaster the scan cut into four card-sized places (a 2 x 2 block, a few mm between them)
    is one "?" with one outline round the four, and counted as one unknown; a place apart is
    another; a lamp's glare touching the block is not part of it."""
    import vision.overlay as overlay
    from vision.calibration import Calibration
    from vision.layout import NOT_IN_PACK
    from vision.observation import GLARE, Observation, TableSpec, Unknown

    cal = Calibration(TableSpec(), (1000, 700), np.eye(3), {})  # 1 px a mm
    block = [Unknown((300.0 + 53.0 * i, 300.0 + 53.0 * j), (50.0, 50.0), NOT_IN_PACK) for i in (0, 1) for j in (0, 1)]
    apart = Unknown((700.0, 300.0), (50.0, 50.0), NOT_IN_PACK)
    glare = Unknown((404.0, 300.0), (50.0, 50.0), GLARE)
    labels: list[str] = []
    real = overlay._label
    monkeypatch.setattr(overlay, "_label", lambda img, text, *a, **k: labels.append(text) or real(img, text, *a, **k))
    obs = Observation("roundabout", unknowns=[*block, apart, glare])
    img = overlay.draw_overlay(np.zeros((700, 1000, 3), np.uint8), obs, cal)
    assert labels.count("?") == 2 and labels.count("glare") == 1
    assert overlay.caption(obs) == "0 cards, 2 unknown, glare hides part of the table"
    red = (img == overlay.UNKNOWN).all(axis=2)
    assert red[300, 275] and red[353, 378] and red[275, 330]  # the block's outer sides
    assert not red[250:260, 326:328].any() and not red[290:300, 326:328].any()  # no seam drawn between its places
    assert red[300, 675]  # the place apart keeps its own box
    assert tuple(img[300, 429]) == overlay.GLARE_COLOUR


def test_unknown_places_of_one_kind_touching_in_a_chain_are_one_thing():
    from vision.layout import NOT_IN_PACK
    from vision.observation import ARM, TOUCH_MM, Unknown, unknown_things

    chain = [Unknown((100.0 + 52.0 * k, 100.0), (50.0, 50.0), NOT_IN_PACK) for k in range(3)]
    far = Unknown((100.0 + 52.0 * 2 + 50.0 + TOUCH_MM + 1.0, 100.0), (50.0, 50.0), NOT_IN_PACK)
    arm = Unknown((100.0, 49.0), (50.0, 50.0), ARM)  # touching the chain's first place from above
    # a place turned 45 degrees whose corner reaches into the chain's first place's side
    turned = Unknown((100.0, 150.0 - 25.0 + 35.0 - 3.0), (50.0, 50.0), NOT_IN_PACK, rotation=45.0)
    groups = unknown_things([*chain, far, arm, turned])
    assert groups == [[*chain, turned], [far], [arm]]
    # the same corner a hand's breadth lower touches nothing
    lower = Unknown((100.0, 150.0 + 35.0 + 20.0), (50.0, 50.0), NOT_IN_PACK, rotation=45.0)
    assert unknown_things([chain[0], lower]) == [[chain[0]], [lower]]
    assert unknown_things([]) == []


def test_places_an_arm_overlaps_are_what_it_hides_not_things_unknown(monkeypatch):
    """Bench seed 9, proxy Big Sur 12: an arm across a row of cards, the row cut into places read
    as no card whose "?" outlines crossed the arm's own. A thing of such places that overlaps the
    arm's (by HIDDEN_OVERLAP_MM, not only touching) is part of what the arm hides: one outline, one
    "hand", not counted unknown. A place touching the arm, or overlapping it less, is a thing of
    its own, as is one far off, and one overlapping a lamp's glare only (a foreign card half in
    its white is still shown); one overlapping two arms joins the one it overlaps in more places."""
    import vision.overlay as overlay
    from vision.calibration import Calibration
    from vision.layout import NOT_IN_PACK
    from vision.observation import (
        ARM,
        GLARE,
        HIDDEN_OVERLAP_MM,
        Observation,
        TableSpec,
        Unknown,
        hidden_by,
        unknown_things,
    )

    cal = Calibration(TableSpec(), (1000, 700), np.eye(3), {})  # 1 px a mm
    arm = [Unknown((500.0, 350.0 + 50.0 * k), (50.0, 50.0), ARM) for k in range(4)]
    under = Unknown((530.0, 370.0), (50.0, 50.0), NOT_IN_PACK)  # overlaps the arm's first two by 20 mm
    beside = Unknown((582.0, 370.0), (50.0, 50.0), NOT_IN_PACK)  # touches `under` only
    shallow = Unknown((550.0 - HIDDEN_OVERLAP_MM + 1.0, 500.0), (50.0, 50.0), NOT_IN_PACK)
    far = Unknown((150.0, 150.0), (50.0, 50.0), NOT_IN_PACK)
    groups = unknown_things([under, *arm, beside, shallow, far])
    assert groups == [[under, *arm, beside], [shallow], [far]]
    assert [hidden_by(g) for g in groups] == [ARM, "", ""]
    labels: list[str] = []
    real = overlay._label
    monkeypatch.setattr(overlay, "_label", lambda img, text, *a, **k: labels.append(text) or real(img, text, *a, **k))
    obs = Observation("bigsur", unknowns=[under, *arm, beside, shallow, far])
    img = overlay.draw_overlay(np.zeros((700, 1000, 3), np.uint8), obs, cal)
    assert labels.count("hand") == 1 and labels.count("?") == 2
    assert overlay.caption(obs) == "0 cards, 2 unknown, a hand hides part of the table"
    red = (img == overlay.UNKNOWN).all(axis=2)
    assert not red[360:380, 524:526].any()  # the arm's side inside `under` is no outline now
    lit = Unknown((570.0, 360.0), (50.0, 50.0), GLARE)
    assert unknown_things([lit, under]) == [[lit], [under]]
    # between an arm (two places) and another (one), a thing overlapping both is the first's
    other = Unknown((570.0, 360.0), (50.0, 50.0), ARM)
    both = Unknown((530.0, 380.0), (50.0, 50.0), NOT_IN_PACK)
    assert unknown_things([other, *arm[:2], both]) == [[other], [arm[0], arm[1], both]]


def test_an_unknowns_corners_follow_its_turn():
    from vision.observation import Unknown

    square = Unknown((100.0, 50.0), (40.0, 20.0)).corners_mm()
    assert np.allclose(square, [[80, 40], [120, 40], [120, 60], [80, 60]])
    turned = Unknown((100.0, 50.0), (40.0, 20.0), rotation=90.0).corners_mm()
    assert np.allclose(turned, [[110, 30], [110, 70], [90, 70], [90, 30]])


def test_the_summary_stays_at_the_top_centre_where_nothing_lies_there():
    from vision.overlay import panel_place

    x, y, side = panel_place((700, 1000), [(400, 30), (120, 30)], 1.0, [(0, 600, 100, 700)])
    assert (x, side) == (500, 0) and y < 100


def test_the_summary_moves_off_the_cards_it_would_cover():
    """A Big Sur seat at the camera's top edge: its row lies where the summary was always written
    (the scores covered the row they scored); it goes where it covers none of what was seen."""
    from vision.overlay import LINE_STEP, panel_place

    sizes = [(400, 30), (120, 30), (300, 20)]
    row, south = (420, 20, 580, 120), (420, 600, 580, 700)
    for things in ([row], [row, south], [row, south, (0, 0, 200, 200)]):
        x, y, side = panel_place((700, 1000), sizes, 1.0, things)
        box = (x - 200, y - 15, x + 200, y - 15 + 2 * LINE_STEP + 25)
        assert box[0] >= 0 and box[2] <= 1000 and box[1] >= 0 and box[3] <= 700
        assert not any(_overlap(box, t) for t in things), (things, box)
    assert side == 1  # the top right, the first corner free, its lines flush right


def test_the_drawn_summary_leaves_a_top_row_of_cards_to_be_seen():
    from vision.calibration import Calibration
    from vision.observation import Item, Observation, TableSpec
    from vision.overlay import draw_overlay

    cal = Calibration(TableSpec(), (1000, 700), np.eye(3), {})  # 1 px a mm

    def card(x: float) -> Item:
        corners = ((x - 31.5, 6.0), (x + 31.5, 6.0), (x + 31.5, 94.0), (x - 31.5, 94.0))
        return Item(f"bs-{round(x):03}", 0.0, (x, 50.0), (63.0, 88.0), 0.97, corners)

    row = [card(350.0 + 64 * k) for k in range(5)]
    obs = Observation("bigsur", items=row, warnings=["1 card(s) not recognised for sure: check them and scan again"])
    img = draw_overlay(np.zeros((700, 1000, 3), np.uint8), obs, cal, scores={"north": 12})
    grey = (img == (60, 60, 60)).all(axis=2)  # the summary line's box
    assert grey.any()
    assert not grey[6:94, 318:670].any()  # not over the row
