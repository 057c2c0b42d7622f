"""Reading a tile past a piece standing on it (vision.occlusion)."""

import numpy as np
import pytest

from vision.occlusion import TOGETHER, TRIM, _together, _trimmed_scores


def faces(n=4, h=32, w=24, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(0, 255, (n, h, w, 3)).astype(np.float32)


def test_a_piece_on_the_face_is_left_out_and_lies_together():
    f = faces()
    win = f[0].copy()
    win[4:12, 6:14] = (200.0, 40.0, 40.0)  # a red car: 64 of 768 pixels
    whole = np.corrcoef(win.ravel(), f[0].ravel())[0, 1]
    scores, misfit = _trimmed_scores(win, f, TRIM)
    assert scores[0] > 0.99 > whole
    assert scores[0] - max(scores[1:]) > 0.5
    left_out = misfit[0] >= np.sort(misfit[0].ravel())[-round(TRIM * 32 * 24)]
    assert left_out[4:12, 6:14].all()  # every pixel of the car is left out
    assert _together(misfit[0]) >= TOGETHER


def test_differences_scattered_all_over_are_no_piece():
    f = faces()
    rng = np.random.default_rng(1)
    win = f[0].copy()
    spots = rng.random(win.shape[:2]) < 0.15
    win[spots] = rng.uniform(0, 255, (int(spots.sum()), 3))
    _, misfit = _trimmed_scores(win, f, TRIM)
    assert _together(misfit[0]) < TOGETHER


def test_nothing_left_out_together_is_zero():
    assert _together(np.zeros((8, 8))) == 0.0


def test_a_reading_far_ahead_passes_with_a_piece_in_two_blobs():
    """read_past_a_piece's second way in: a car and its shadow apart leave two blobs (less
    together than TOGETHER), which a reading far ahead of every other face still accepts."""
    from vision.occlusion import AHEAD_TOGETHER

    f = faces()
    win = f[0].copy()
    win[2:9, 2:10] = (200.0, 40.0, 40.0)  # a car (56 px) ...
    win[22:26, 12:18] = (30.0, 30.0, 30.0)  # ... and its shadow apart (24 px)
    scores, misfit = _trimmed_scores(win, f, TRIM)
    assert scores[0] - max(scores[1:]) > 0.3
    assert AHEAD_TOGETHER <= _together(misfit[0]) < TOGETHER


def test_a_rereadings_rival_is_another_card_or_turn():
    """The best face read again, and its rival: a card that looks the same turned half round (two
    entries, one turn) has no rival in itself; the next other card is it. The reading names the
    whole face's card and turn only when both agree (within the card's period)."""
    from types import SimpleNamespace

    from vision.identify import Match
    from vision.occlusion import best_of

    sc = SimpleNamespace(entry_id=["a", "a", "a", "b"], entry_rot=np.array([0, 180, 90, 0]),
                         entry_sym=np.array([2, 2, 2, 1]))
    scores = np.array([0.9, 0.89, 0.7, 0.8])
    got = best_of(sc, scores, np.argsort(-scores), 10.0)
    assert (got.card, got.rotation, got.other, got.rival) == ("a", 10.0, 3, 0.8)
    assert got.ahead == pytest.approx(0.1)
    assert got.names(Match("unsure", "a", 190.0, 0.6, 0.0, (0.0, 0.0), 2))  # half round: the same turn
    assert not got.names(Match("unsure", "a", 100.0, 0.6, 0.0, (0.0, 0.0), 2))
    assert not got.names(Match("unsure", "b", 10.0, 0.6, 0.0, (0.0, 0.0), 1))
    sure = got.match((5.0, 6.0), Match("unsure", "a", 10.0, 0.6, 0.0, (0.0, 0.0), 2, "b"))
    assert (sure.status, sure.id, sure.score, sure.center_mm, sure.symmetry, sure.runner_up) == \
        ("sure", "a", 0.9, (5.0, 6.0), 2, "b")
    # its own other turn alone: no rival at all
    alone = best_of(sc, np.array([0.9, 0.89]), np.array([0, 1]), 0.0)
    assert (alone.other, alone.rival) == (-1, -1.0)


def test_where_two_designs_differ_is_compared_without_the_piece():
    """Two faces alike but for a band: a crop of the first with a bright piece on it is told
    from the second where they differ, the piece's pixels left out (and standardised without
    them); with the band itself hidden there is nothing to tell them by (1.0, undecided)."""
    from vision.identify import DIFFER_RATIO, where_they_differ

    a = faces(1)[0]
    b = a.copy()
    b[0:8] = np.flip(a[0:8], axis=1) + 40.0  # the band where the designs differ
    crop = a.copy()
    crop[18:30, 6:18] = (255.0, 200.0, 20.0)  # a car, 12 x 12 px, away from the band
    seen = np.ones(a.shape[:2], bool)
    seen[18:30, 6:18] = False
    assert where_they_differ(crop, (0, 0), a, b, seen) < DIFFER_RATIO
    hidden = seen.copy()
    hidden[0:8] = False
    assert where_they_differ(crop, (0, 0), a, b, hidden) == 1.0


def _counted_in_bench_scene(i, card, at, photo=False, seed=1, recall=0.85):
    """Monster Highway bench scene i of --seed SEED (proxy pack, or photo-like) scanned: `card`
    counted within 15 mm of `at`, and every card counted the one lying there; the observation."""
    from tests.vision.test_scan import bench_scene, check_against_truth
    from vision import scan

    pack, frame, truth = bench_scene("monsterhighway", i, photo=photo, seed=seed)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert any(it.id == card and np.hypot(it.center_mm[0] - at[0], it.center_mm[1] - at[1]) < 15 for it in obs.items)
    check_against_truth(obs, truth, recall=recall)
    return obs


@pytest.mark.parametrize("i,card,at", [(22, "road-cross", (525, 325)), (26, "road-straight", (525, 275))])
def test_a_tile_a_car_makes_look_like_no_card_is_read_past_the_car(i, card, at):
    """A yellow car on a dark road tile outweighs the rest of it: the tile reads 0.36-0.38, as no
    card (bench scenes of --seed 1). Read past the car, and a few px about its cell, since no
    reading placed it, the tile counts."""
    _counted_in_bench_scene(i, card, at)


def _board(pieces=(), distractors=(), turn=90.0):
    """A 4 x 3 Monster Highway board on wood, laid on the layout's 50 mm cells, with Ground Zero (a
    trefoil on a tile read alike turned) in the middle turned `turn`, the crossroads so too and the
    straights twice that: tiles read alike turned, whose reported turn need not be the one they
    lie at."""
    from vision.pack import proxy_pack
    from vision.synth import Camera, Placement, Scene, render_scene

    pack = proxy_pack("monsterhighway")
    ids = ["road-straight", "road-cross", "road-tee", "road-curve", "road-straight", "ground-zero",
           "road-cross", "road-tee", "road-curve", "road-straight", "road-cross", "road-tee"]
    alike = {"ground-zero": turn, "road-cross": turn, "road-straight": 2 * turn}
    places = tuple(Placement(cid, (425 + 50 * (k % 4), 325 + 50 * (k // 4)), alike.get(cid, 0.0))
                   for k, cid in enumerate(ids))
    scene = Scene(placements=places, pieces=tuple(pieces), distractors=tuple(distractors), pack=pack,
                  camera=Camera(view_deg=8, light=0.3, noise=2, blur=0.6, jpeg_quality=90))
    frame, truth = render_scene(scene, seed=5)
    return pack, frame, truth


@pytest.mark.parametrize("i,card,at", [
    (12, "road-cross", (525, 425)),  # whole face sure at 0.73, listed unsure: a hand joined the board
    (4, "road-cross", (375, 375)),  # the same, 0.72; a tee the car's blob left as close as 0.82
    (29, "swap", (425, 325)),  # read as no card; past the car 0.71, 0.32 ahead, the car one blob
])
def test_a_tile_under_a_car_on_a_board_a_hand_reaches_into_is_read_past_the_car(i, card, at):
    """Bench scenes of --seed 1 where a car's tile was listed unsure or unknown: on a board region
    a hand is joined to (weak), a tile beside a clear one whose whole face named a card is read
    past the car too; where a look-alike (a tee, for a crossroads) is close behind, what tells them
    apart is compared without the car's pixels; and a reading whose misfit is one compact blob
    needs less of a score."""
    _counted_in_bench_scene(i, card, at)


@pytest.mark.parametrize("i,photo,card,at", [
    (27, False, "road-cross", (725, 325)),  # at a board's edge, its neighbours under a hand
    (27, True, "road-cross", (725, 325)),  # the same with photo-like faces
    (80, False, "road-tee", (525, 475)),  # on a board read as one loose region
])
def test_a_tile_under_a_car_with_no_clear_tile_beside_it_is_read_past_the_car(i, photo, card, at):
    """Bench scenes of --seed 3 where a car's tile stayed listed unsure: a crossroads at a board's
    edge whose neighbours a hand hides, read 0.50 7 mm off its place with no clear tile beside it;
    a tee on a board no grid explains, read 0.73 beside tiles that count. Read past the car each
    counts, and no card counted there is another one."""
    obs = _counted_in_bench_scene(i, card, at, photo=photo, seed=3, recall=0.5)
    assert not any(np.hypot(u.center_mm[0] - at[0], u.center_mm[1] - at[1]) < 15 for u in obs.unsure)


def test_a_tile_grown_beside_a_clear_one_is_read_past_the_car_on_it():
    """Bench scene 93 of --seed 3 (proxy pack): a tee under a car, listed to check at 0.54 by its
    board's split, is read from the crossroads beside it (0.95) at 0.75 whole, short of what a
    place grown so needs. Read past the car there (0.96) it counts."""
    at = (625, 525)
    obs = _counted_in_bench_scene(93, "road-tee", at, seed=3)
    assert not any(np.hypot(u.center_mm[0] - at[0], u.center_mm[1] - at[1]) < 15 for u in obs.unsure)


@pytest.mark.parametrize("i,card,at,seed", [
    (89, "dead-end", (625, 375), 3),  # whole face 0.72-0.74, past the car 0.95
    (98, "ground-zero", (525, 375), 3),  # whole face 0.67-0.69, past the car 0.96
    (7, "ground-zero", (525, 375), 2),  # whole face 0.62 unsure, past the car 0.96
])
def test_a_tile_the_mask_left_bare_beside_a_clear_one_is_read_past_the_car_on_it(i, card, at, seed):
    """Bench scenes (proxy pack) where a car stands on a tile whose body the mask left bare: the
    tile's place, proposed by a clear tile beside it, is read only as a bare place, and its whole
    face, the car on it, fell short of what a grown place needs. Nothing was reported there, not
    even a place to check. Read past the car, it counts."""
    obs = _counted_in_bench_scene(i, card, at, seed=seed)
    assert not any(np.hypot(u.center_mm[0] - at[0], u.center_mm[1] - at[1]) < 15 for u in obs.unsure)


@pytest.mark.parametrize("i,card,at", [
    (24, "swap", (575, 325)),  # whole face home-base-ne at 0.49, below the recogniser's bar
    (29, "ground-zero", (525, 375)),  # whole face home-base-ne at 0.45
])
def test_a_tile_a_car_makes_look_like_another_is_read_past_the_car(i, card, at):
    """Bench scenes of --seed 1 where a car on a tile left another tile's face ahead, too weakly
    for the recogniser to accept it: that reading names nothing the reading past the car must
    agree with, and past the car the tile lying there is read clearly and counts."""
    obs = _counted_in_bench_scene(i, card, at)
    assert not any(np.hypot(it.center_mm[0] - at[0], it.center_mm[1] - at[1]) < 15 for it in obs.unsure)


def test_only_a_whole_face_below_the_recognisers_bar_may_be_read_as_another_tile():
    """The swap tile a car stands on in bench scene 24 of --seed 1, given to the reading past the
    piece as read home-base-ne: read so at 0.49 (below ACCEPT) the reading past the car names the
    swap; read so at ACCEPT, a reading the recogniser would take, it is not overruled."""
    import dataclasses

    from tests.vision.test_scan import bench_scene
    from vision.calibration import calibrate
    from vision.identify import ACCEPT, Match, index_for_pack
    from vision.occlusion import read_past_a_piece

    pack, frame, truth = bench_scene("monsterhighway", 24, seed=1)
    tile = next(t for t in truth.items if t.id == "swap" and 0.05 < t.occluded < 0.2)
    index = index_for_pack(pack)
    key = index.sizes["swap"]
    whole = Match("unsure", "home-base-ne", 0.0, 0.49, 0.0, tuple(tile.center_mm), 1)
    h = calibrate(frame).homography
    got = read_past_a_piece(index, frame, h, tile.rotation % 90, key, whole)
    assert got is not None and got.status == "sure" and got.id == "swap"
    assert np.hypot(got.center_mm[0] - tile.center_mm[0], got.center_mm[1] - tile.center_mm[1]) < 5
    assert read_past_a_piece(index, frame, h, tile.rotation % 90, key, dataclasses.replace(whole, score=ACCEPT)) is None


def test_cars_standing_on_recognised_tiles_are_found_with_their_colour():
    """The mask joins a car standing on a tile to the tile, so no piece was ever found on a Monster
    Highway board (bench seed 1: 1 of 89). What the tile's face, fitted to the crop, does not
    explain is the car: each is found within 6 mm of where it stands, in its colour, and the
    layout gives its cell."""
    from vision import scan
    from vision.synth import Piece

    cars = [Piece("car", (425.0, 325.0), "red", 90.0), Piece("car", (525.0, 375.0), "blue", 0.0),
            Piece("car", (575.0, 425.0), "yellow", 90.0), Piece("car", (575.0, 325.0), "green", 30.0)]
    pack, frame, _ = _board(cars)
    obs = scan(frame, "monsterhighway", pack=pack)
    found = obs.layout["cars"]
    assert len(found) == len(cars), found
    for car in cars:
        (hit,) = [c for c in found if np.hypot(c["center_mm"][0] - car.center_mm[0], c["center_mm"][1] - car.center_mm[1]) < 6]
        assert hit["colour"] == car.color
        assert hit["cell"] == [int(car.center_mm[0] // 50), int(car.center_mm[1] // 50)]


@pytest.mark.parametrize("at", [(475.0, 375.0), (575.0, 375.0), (625.0, 375.0), (775.0, 175.0)])
def test_the_monster_is_read_on_the_place_it_hides(at):
    """The Monster covers most of its place, which is then read as no card of the pack (the bench
    found it on 3 of 308 boards, each time by a car or a blob near it): that place, on the board's
    grid beside tiles, or alone on the grid away from the road, is the Monster's. It is listed among
    the pieces standing and is no car; the car beside it is read as before."""
    from vision import scan
    from vision.synth import Piece

    pack, frame, _ = _board([Piece("monster", at, rotation=20.0), Piece("car", (425.0, 325.0), "red", 90.0)])
    obs = scan(frame, "monsterhighway", pack=pack)
    monster = obs.layout["monster"]
    assert monster is not None and monster["cell"] == [int(at[0] // 50), int(at[1] // 50)], monster
    assert np.hypot(monster["center_mm"][0] - at[0], monster["center_mm"][1] - at[1]) < 6
    assert [p["center_mm"] for p in obs.layout["pieces"]].count(monster["center_mm"]) == 1
    assert [(c["colour"], c["cell"]) for c in obs.layout["cars"]] == [("red", [8, 6])]


def test_a_bare_board_has_no_pieces_on_it():
    """Tiles with nothing on them, some lying at a turn they are read alike in (the reported turn
    is then one of several): what their faces do not explain is print off by a pixel, thin lines
    the opening takes away, never a piece."""
    from vision import scan

    for turn in (0.0, 90.0, 180.0):
        pack, frame, _ = _board(turn=turn)
        obs = scan(frame, "monsterhighway", pack=pack)
        assert len(obs.items) == 12
        assert obs.layout["pieces"] == [] and obs.layout["cars"] == [], (turn, obs.layout["pieces"])
        assert obs.layout["monster"] is None


def test_a_hand_reaching_over_a_tile_is_no_piece_on_it():
    """A finger over a tile's corner differs from the face as a car does, but it comes from beyond
    the tile's border (bench seed 1, Roundabout scene 5 read an orange car there): a blob reaching
    the border is not standing on the tile."""
    from vision import scan
    from vision.synth import Distractor

    pack, frame, _ = _board(distractors=[Distractor("hand", (600, 465), 200.0)])
    obs = scan(frame, "monsterhighway", pack=pack)
    assert len(obs.items) >= 10
    on_board = [p for p in obs.layout["pieces"] if 400 <= p["center_mm"][0] <= 600 and 300 <= p["center_mm"][1] <= 450]
    assert on_board == []
    # nor is the hand, hiding tiles in a chain of places reaching off the board, the Monster
    assert obs.layout["monster"] is None


@pytest.mark.parametrize("game,i,seed", [("bigsur", 0, 1), ("highwayman", 21, 3)])
def test_no_pieces_are_looked_for_in_games_that_have_none_on_the_table(game, i, seed):
    """Big Sur and Highwayman have no playing pieces (and the cars of Highways & Byways stand on
    its map, which the camera does not read): the spots the mask took for pieces there (a Big Sur
    card's print, 176 flecks of a patterned cloth under Highwayman's routes) are no longer listed,
    nor drawn on the overlay (bench scenes, proxy pack)."""
    from tests.vision.test_scan import bench_scene
    from vision import scan

    pack, frame, truth = bench_scene(game, i, seed=seed)
    assert truth.pieces == ()
    obs = scan(frame, game, pack=pack)
    assert obs.layout["pieces"] == []


def _pieces_met(obs, truth):
    """The truth's pieces some reported piece stands on (as the bench counts them), and the
    reported pieces meeting none."""
    seen = [p["center_mm"] for p in obs.layout["pieces"]]
    met = {k for t in truth.pieces for k, c in enumerate(seen)
           if np.hypot(c[0] - t.center_mm[0], c[1] - t.center_mm[1]) < 0.5 * max(t.size_mm) + 10}
    return len(met), len(seen) - len(met)


@pytest.mark.parametrize("i,seed,met,cars", [
    (39, 3, 1, [("red", [11, 6])]),
    (7, 2, 5, [("blue", [9, 7]), ("green", [10, 7]), ("red", [10, 6]), ("yellow", [9, 6])]),
])
def test_monster_highway_pieces_are_those_on_the_road(i, seed, met, cars):
    """Bench boards (proxy pack). Seed 3's 39, on a patterned cloth: 70 spots were listed as pieces,
    69 of them flecks of the cloth off the board, and taken for cars. A car moves only along road
    already built, so only a spot on a tile read counts: the red car. Seed 2's 7: four spots of
    tiles' grass were listed as green cars beside the four cars and the Monster; a car on a tile
    read joins it in the mask (and is found against the tile's face), so a spot inside one is its
    print. The green car there hides its tile, between two read ones, and is still found."""
    from tests.vision.test_scan import bench_scene
    from vision import scan

    pack, frame, truth = bench_scene("monsterhighway", i, seed=seed)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert _pieces_met(obs, truth) == (met, 0)
    assert sorted((c["colour"], c["cell"]) for c in obs.layout["cars"]) == cars


def test_a_roundabout_cards_own_print_is_no_piece():
    """Bench seed 3, Roundabout 8 (proxy pack) on a grey cloth: the dark green island in a corner
    of four cards was a spot of its own in the mask, and listed as a green car beside the two cars
    found. A spot inside a card read is the card's print (a piece standing on a card is looked
    for against its face)."""
    from tests.vision.test_scan import bench_scene
    from vision import scan

    pack, frame, truth = bench_scene("roundabout", 8, seed=3)
    obs = scan(frame, "roundabout", pack=pack)
    assert _pieces_met(obs, truth) == (2, 0)
    assert sorted(c["colour"] for c in obs.layout["cars"]) == ["blue", "green"]


def test_a_table_crowded_with_spots_lists_no_piece():
    """Bench seed 3, Roundabout 27 (proxy pack) on a dotted cloth: 118 spots looked like pieces.
    No car can be told from them, so none is listed as a car or a piece; the players are told so
    and asked to enter a reservation by hand."""
    from tests.vision.test_scan import bench_scene
    from vision import scan

    pack, frame, _ = bench_scene("roundabout", 27, seed=3)
    obs = scan(frame, "roundabout", pack=pack)
    assert obs.layout["pieces"] == [] and obs.layout["cars"] == []
    assert obs.layout["cars_unread"] > 12
    assert any("enter a reservation by hand" in w for w in obs.warnings)


@pytest.mark.parametrize("i,seed,want", [(2, 2, [7, 9]), (48, 3, [13, 9])])
def test_no_monster_is_named_where_places_apart_could_each_be_its_own(i, seed, want):
    """Bench boards (proxy pack) where a hand or a card hid a tile beside the road as the Monster
    hides its place: the other place was named the Monster's (seed 2's 2: [9, 6]; seed 3's 48:
    [12, 8]). Now none is named, the places are listed with the Monster's among them, and the
    players are asked to uncover the board."""
    from tests.vision.test_scan import bench_scene
    from vision import draw_overlay, scan

    pack, frame, _ = bench_scene("monsterhighway", i, seed=seed)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert obs.layout["monster"] is None
    assert want in [p["cell"] for p in obs.layout["monster_one_of"]]
    assert any('marked "Monster?"' in w for w in obs.warnings)
    assert draw_overlay(frame, obs).shape == frame.shape


@pytest.mark.parametrize("i", [19, 21])
def test_a_bare_place_a_car_leaves_under_the_bar_is_read_past_the_car(i):
    """Bench seed 9, proxy Monster Highway 19 and 21: a car on Ground Zero, grey on a grey cloth
    that leaves its body bare in the mask. The place, beside clear tiles, was offered only as a
    bare place, and its whole face with the car on it read 0.56 and 0.62, under the recogniser's
    bar: it was not read further, and nothing at all was reported there. Where a piece stands in
    a bare place whose first look is under the bar, the place is read past the piece: Ground Zero
    counts, and nothing is listed there to check."""
    at = (525, 375)
    obs = _counted_in_bench_scene(i, "ground-zero", at, seed=9)
    assert not any(np.hypot(u.center_mm[0] - at[0], u.center_mm[1] - at[1]) < 15 for u in obs.unsure)


@pytest.mark.parametrize("i,card,at", [(12, "road-curve", (525, 525)), (72, "swap", (475, 375))])
def test_a_place_read_as_no_card_beside_clear_tiles_is_read_past_the_car(i, card, at):
    """Bench seed 9, proxy Monster Highway 12 and 72: a car on a tile of a board whose grid did not
    explain it (a weak region, held by its clear tiles), the place found from the tiles beside it.
    Its whole face read as no card at all (0.31: the car's yellow on a curve's bend), and only a
    place the grid explains, or one whose whole face named a card, was read past a piece: nothing
    counted there, only a "not a card" was shown. A place edge to edge with a clear tile whose
    whole face names no card is read past the piece as such a place is: the tile counts."""
    _counted_in_bench_scene(i, card, at, seed=9)


@pytest.mark.parametrize("i,card,at", [(74, "swap", (675, 375)), (127, "road-straight", (475, 325)),
                                       (138, "road-curve", (475, 475))])
def test_a_tile_in_a_glossy_sleeve_is_read_past_the_car_with_the_lightness_flattened(i, card, at):
    """Bench seed 9, proxy Monster Highway 74, 127 and 138: tiles in glossy sleeves, a car on each.
    The whole face named the tile, unsure (0.48-0.63), and read past the car it fell short of every
    way in (0.70-0.84, 0.06-0.12 ahead of another face, or 0.45 ahead at 0.71), so it was listed
    to check. Read past the car again with the lightness flattened, the card the whole face named,
    0.82-0.87 and 0.15-0.40 ahead, its misfit in one blob (0.83-0.94 together): it counts."""
    _counted_in_bench_scene(i, card, at, seed=9)


@pytest.mark.parametrize("i,card,at", [(3, "road-curve", (575, 325)), (2, "road-cross", (575, 425))])
def test_a_tile_a_car_makes_look_like_no_card_is_read_past_it_flattened(i, card, at):
    """Bench seed 9, proxy Monster Highway 2 and 3: a car on a tile (scene 3's in a glossy
    sleeve: its whole face read no card, 0.31, and past the car as it is 0.62-0.65). Flattened,
    0.85-0.88 and 0.23-0.41 ahead of every other face, its misfit in one blob. A place read as no
    card is read flattened too, and the tile counts."""
    _counted_in_bench_scene(i, card, at, seed=9)


def test_a_check_square_beside_a_tile_is_no_card_past_a_piece_with_the_lightness_flattened(monkeypatch):
    """Bench seed 9, photo-like Monster Highway 108: a bare square of a check cloth beside
    home-base-se, its whole face read as the Remove tile (0.48, unsure). Read past a "piece" with
    the lightness flattened, that same tile scored 0.83, 0.47 ahead of any other face, its misfit
    only 0.62-0.64 together: as clear as a tile under a car but for the misfit, which a piece's lies
    in one blob. Nothing counts there with FLAT_TOGETHER; without it the square counts as Remove."""
    from tests.vision.test_scan import bench_scene
    from vision import occlusion, scan

    at = (873, 635)
    pack, frame, _ = bench_scene("monsterhighway", 108, photo=True, seed=9)

    def counted() -> bool:
        obs = scan(frame, "monsterhighway", pack=pack)
        return any(np.hypot(it.center_mm[0] - at[0], it.center_mm[1] - at[1]) < 15 for it in obs.items)

    assert not counted()
    monkeypatch.setattr(occlusion, "FLAT_TOGETHER", 0.0)
    assert counted()
