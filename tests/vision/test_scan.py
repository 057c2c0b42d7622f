"""vision.scan end to end on rendered game positions (vision.synth) with known truth."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import draw_overlay, layout, scan
from vision.errors import CalibrationError
from vision.identify import index_for_pack
from vision.pack import proxy_pack
from vision.synth import random_scene, render_scene

GAMES = ["bigsur", "roundabout", "monsterhighway", "highwayman", "highwaysbyways"]


def scene_for(game, seed, difficulty):
    pack = proxy_pack(game)
    scene = random_scene(game, pack, np.random.default_rng([seed, 7]), difficulty)
    if game == "monsterhighway":  # only the 50 mm tiles lie on board cells (see bench/vision.py)
        scene = dataclasses.replace(scene, placements=tuple(
            p for p in scene.placements if tuple(pack.size_of(p.card_id)) == (50.0, 50.0)))
    frame, truth = render_scene(scene, seed=seed)
    return pack, scene, frame, truth


def near(a, b, r):
    return np.hypot(a[0] - b[0], a[1] - b[1]) < r


def check_against_truth(obs, truth, recall=0.9):
    """Every reported card is right; nearly every visible card is reported; no distractor is a card."""
    found = 0
    visible = [t for t in truth.items if t.occluded < 0.05]
    for it in obs.items:
        under = [t for t in truth.items if near(it.center_mm, t.center_mm, 0.35 * min(t.size_mm))]
        assert under, f"phantom {it.id} at {it.center_mm}"
        top = min(under, key=lambda t: t.occluded)
        assert it.id == top.id, f"{it.id} reported where {top.id} lies"
        period = 360 / it.symmetry
        d = (it.rotation - top.rotation) % period
        assert min(d, period - d) < 10, f"{it.id} rotation {it.rotation} vs {top.rotation}"
    unsure = 0
    for t in visible:
        found += any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items)
        unsure += any(near(it.center_mm, t.center_mm, 10) for it in obs.unsure)
    # a card the recogniser is unsure of is listed for the players to check: it is not lost
    assert found + unsure >= recall * len(visible), f"found {found} (+{unsure} unsure) of {len(visible)} visible cards"
    assert found >= (recall - 0.15) * len(visible), f"found {found} of {len(visible)} visible cards"
    for d in truth.distractors:
        if d.kind != "hand":
            assert not any(near(it.center_mm, d.center_mm, 0.5 * max(d.size_mm)) for it in obs.items)


def scan_or_covered_marker(frame, game, pack, truth):
    """The observation, or None when a hand in the scene really covers the marker named."""
    try:
        return scan(frame, game, pack=pack)
    except CalibrationError as exc:
        w, h = truth.table_mm
        corners = {0: (0, 0), 1: (w, 0), 2: (w, h), 3: (0, h)}
        hands = [d for d in truth.distractors if d.kind == "hand"]
        for m in exc.missing:
            assert any(near(d.center_mm, corners[m], max(d.size_mm)) for d in hands), str(exc)
        return None


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_scan_recognises_a_game_position(game, seed):
    """Mild conditions (difficulty 0.15): nearly everything is found, nothing is misread."""
    pack, _scene, frame, truth = scene_for(game, seed, 0.15)
    obs = scan_or_covered_marker(frame, game, pack, truth)
    if obs is None:
        return
    check_against_truth(obs, truth)
    assert obs.reprojection_error_px < 3
    assert obs.to_json()["game"] == game


@pytest.mark.parametrize("game", GAMES)
def test_scan_under_hard_conditions_never_misreads(game):
    """Hard conditions (difficulty 0.7: tilt, lens, shadows, glare, hands): cards may be missed
    or listed as unsure (bench/vision.py measures how many), but none is reported wrongly."""
    pack, _scene, frame, truth = scene_for(game, 3, 0.7)
    obs = scan_or_covered_marker(frame, game, pack, truth)
    if obs is not None:
        check_against_truth(obs, truth, recall=0.0)


def test_big_sur_tableaus_match_the_laid_out_rows():
    pack, scene, frame, _truth = scene_for("bigsur", 3, 0.2)
    obs = scan(frame, "bigsur", pack=pack)
    for seat, row in scene.layout["tableaus"].items():
        assert obs.layout["tableaus"][seat]["cards"] == [c["id"] for c in row], seat
    # the draw row holds Big Sur's look-alike designs (same picture, another bonus symbol): a
    # card may be held back as unsure, but the row never shows a wrong card or a wrong order,
    # and a card held back is listed for the players where it lies
    want = scene.layout["draw_row"]
    got = obs.layout["draw_row"]
    assert got == [c for c in want if c in got]
    centres = {t.id: t.center_mm for t in _truth.items}
    for c in want:
        if c not in got:
            assert any(near(u.center_mm, centres[c], 10) for u in obs.unsure), c
    assert len(want) - len(got) <= 1


def test_roundabout_grid_matches_the_laid_out_grid():
    pack, scene, frame, _truth = scene_for("roundabout", 4, 0.2)
    obs = scan(frame, "roundabout", pack=pack)
    want = sorted((c["id"], int(c["rotation"]) % 360) for c in scene.layout["grid"])
    got = sorted((c["id"], c["rotation"]) for c in obs.layout["grid"])
    assert got == want
    # the same cells up to where the origin is (ours is the top-left card's column and row)
    ox = min(c["cell"][0] for c in scene.layout["grid"]) - min(c["cell"][0] for c in obs.layout["grid"])
    oy = min(c["cell"][1] for c in scene.layout["grid"]) - min(c["cell"][1] for c in obs.layout["grid"])
    assert sorted((c["id"], c["cell"][0] + ox, c["cell"][1] + oy) for c in obs.layout["grid"]) == sorted(
        (c["id"], c["cell"][0], c["cell"][1]) for c in scene.layout["grid"])


def test_highwayman_top_cards_and_construction_slot():
    pack, scene, frame, _ = scene_for("highwayman", 5, 0.2)
    obs = scan(frame, "highwayman", pack=pack)
    assert [r["top"] for r in obs.layout["routes"]] == [r["top"] for r in scene.layout["routes"]]
    pack, scene, frame, _ = scene_for("highwaysbyways", 5, 0.2)
    obs = scan(frame, "highwaysbyways", pack=pack)
    assert obs.layout["construction_slot"] == scene.layout["construction_slot"]["id"]


def test_overlay_draws_on_a_copy(tmp_path):
    pack, _, frame, _ = scene_for("bigsur", 1, 0.35)
    obs = scan(frame, "bigsur", pack=pack)
    before = frame.copy()
    img = draw_overlay(frame, obs, scores={"south": 12})
    assert np.array_equal(frame, before)
    assert img.shape == frame.shape and not np.array_equal(img, frame)
    # the outline colour of recognised cards appears where the first card is
    it = obs.items[0]
    cx, cy = obs.calibration.to_image([it.corners_mm[0]])[0].round().astype(int)
    patch = img[cy - 6:cy + 7, cx - 6:cx + 7].reshape(-1, 3)
    assert any(abs(int(p[0]) - 60) < 30 and p[1] > 150 and p[2] < 90 for p in patch)


def test_scans_reuse_the_learned_index():
    pack, _, frame, _ = scene_for("highwaysbyways", 6, 0.1)
    first = index_for_pack(pack)
    scan(frame, "highwaysbyways", pack=pack)
    assert index_for_pack(pack) is first


def test_a_lamp_and_a_shadow_on_red_felt_do_not_hide_the_cards():
    """A noisy red felt lit in one corner and shaded across the middle was once judged a
    patterned cloth from the first, coarse cloth model, and the lit felt became one region with
    the cards: 10 of 25 cards were found. The scene is the bench's (seed 1, scene 5)."""
    pack = proxy_pack("bigsur")
    rng = np.random.default_rng([1, 5])
    scene = random_scene("bigsur", pack, rng, float(rng.uniform(0, 1)))
    frame, truth = render_scene(scene, seed=100_005)
    obs = scan(frame, "bigsur", pack=pack)
    check_against_truth(obs, truth, recall=0.9)


def test_a_scan_does_not_depend_on_what_ran_before():
    """The same frame gives the same observation whatever state OpenCV's shared random generator
    was left in (kmeans++ on patterned cloth draws from it: the full suite once saw a route vanish)."""
    import cv2

    from vision import detect

    pack, _, frame, _ = scene_for("highwayman", 5, 0.2)
    seen = []
    for seed in (1, 2, 7919):
        cv2.setRNGSeed(seed)
        detect.forget_cloth()  # the cloth's colours learned from scratch each time (with kmeans++)
        seen.append(scan(frame, "highwayman", pack=pack).layout)
    assert seen[0] == seen[1] == seen[2]


def bench_scene(game, i, photo=False, seed=1, monster=None):
    """Scene i of `bench/vision.py --seed SEED` (the same rng, pack and render seed as the bench).
    `monster`: a Monster Highway board cell to stand the Monster on instead (the bench's boards
    before its fourth pieces pass put it on a road tile every time; all else is as they were)."""
    from dataclasses import replace

    from vision.synth import photo_like_pack

    pack = photo_like_pack(game, seed) if photo else proxy_pack(game)
    rng = np.random.default_rng([seed, i])
    scene = random_scene(game, pack, rng, float(rng.uniform(0, 1)))
    if monster is not None:
        at = ((monster[0] + 0.5) * 50.0, (monster[1] + 0.5) * 50.0)
        scene = replace(scene, pieces=tuple(replace(p, center_mm=at) if p.kind == "monster" else p for p in scene.pieces),
                        layout={**scene.layout, "monster": list(monster)})
    frame, truth = render_scene(scene, seed=seed * 100_000 + i)
    return pack, frame, truth


@pytest.mark.parametrize("i,card,at", [(46, "ra-18", (120, 141)), (98, "ra-07", (120, 140))])
def test_a_card_with_the_cloths_dots_stuck_to_two_sides_is_counted(i, card, at):
    """A Roundabout card on a dotted cloth (bench seed 9, proxy pack) with a dot joined to each of
    two opposite sides: its region, 1.2-1.3 cards, fits no card. Cells anchored on its straight
    sides (vision.detect.LOOSE_LEAST) read the card, which was only shown as "not card-shaped".
    Counted, it covers most of the region, which is no thing of its own (vision.scan.BLOB_COUNTED)."""
    pack, frame, truth = bench_scene("roundabout", i, seed=9)
    obs = scan(frame, "roundabout", pack=pack)
    assert any(it.id == card and near(it.center_mm, at, 10) for it in obs.items)
    assert not any(near(u.center_mm, at, 20) for u in obs.unknowns), obs.unknowns
    check_against_truth(obs, truth, recall=0.8)


def test_tiles_counted_over_a_ragged_region_are_no_thing_of_their_own():
    """Bench seed 9, proxy Monster Highway 19: a board's tiles whose region a car's corner made
    ragged fit no grid; cells anchored on its sides read them all, covering all of it, and it was
    still listed as "not card-shaped" over them (vision.scan.BLOB_COUNTED)."""
    pack, frame, truth = bench_scene("monsterhighway", 19, seed=9)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert sum(near(it.center_mm, (511, 413), 60) for it in obs.items) >= 4
    assert not any(u.reason == "not card-shaped" and near(u.center_mm, (511, 413), 30) for u in obs.unknowns)
    check_against_truth(obs, truth, recall=0.8)


@pytest.mark.parametrize("photo", [False, True])
def test_a_card_beside_a_lamps_spot_joined_to_a_column_is_read_on_its_own_sides(photo):
    """Bench seed 9, Big Sur 39: a lamp's spot on the wood joins a starter card to a column of
    cards turned across the table. Once the column is read, what is left (the spot and the card)
    is best covered by lattices on the spot, and the lattice on the card's own sides was left out
    (vision.detect.Detection.residual): the card was shown as two "not a card of this pack"."""
    pack, frame, truth = bench_scene("bigsur", 39, photo=photo, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    assert any(it.id == "bs-starter-steel" and near(it.center_mm, (276, 325), 10) for it in obs.items)
    check_against_truth(obs, truth, recall=0.8)


def test_a_row_an_arm_reaches_past_is_read_on_its_cards_own_sides():
    """Bench seed 9, proxy Big Sur 12: an arm on a dotted cloth reaches past a row of four cards
    at the table's edge into the rows below. The leftover beside the cards read below is the arm
    and the row, and only the lattice on the row's own sides puts cells on its four cards."""
    pack, frame, truth = bench_scene("bigsur", 12, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    for card, at in (("bs-16", (445, 77)), ("bs-73", (509, 77)), ("bs-03", (572, 77)), ("bs-82", (636, 77))):
        assert any(it.id == card and near(it.center_mm, at, 10) for it in obs.items), card
    check_against_truth(obs, truth, recall=0.6)


@pytest.mark.parametrize("i,card,at", [(122, "hm-exeter-4", (455, 353)), (74, "hm-highwayman", (411, 342))])
def test_a_piles_top_card_a_little_off_its_outline_is_read_turned_two_degrees(i, card, at):
    """Bench seed 9, proxy Highwayman: a pile's top card lies a few degrees off the pile's outline.
    hm-exeter-4 (122), read as placed, was only 0.049 ahead of hm-exeter-8 (they differ in their
    number alone) and listed to check; hm-highwayman (74) read 0.79, short of a clear score. Two
    degrees round (vision.scan.TURN_TRIES) each reads sure and clear, and counts."""
    pack, frame, truth = bench_scene("highwayman", i, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    assert any(it.id == card and near(it.center_mm, at, 10) for it in obs.items), (obs.items, obs.unsure)
    assert not any(near(it.center_mm, at, 20) for it in obs.unsure)
    # (in 74 a hand reaches over the other pile: one of its two cards in plain view)
    check_against_truth(obs, truth, recall=0.5)


def test_a_piles_top_card_read_sure_but_weakly_far_off_its_outline_is_read_turned():
    """Bench seed 10, photo-like Highwayman 124: a hand reaches over hm-exeter-london's pile, and
    the pile's region follows the arm's angle: the card was read sure at 0.82, 12 degrees off, and
    counted there. A sure reading short of scan.TURN_BELOW is read turned too: 0.96, square to the
    card."""
    pack, frame, truth = bench_scene("highwayman", 124, photo=True, seed=10)
    obs = scan(frame, "highwayman", pack=pack)
    (card,) = [t for t in truth.items if t.id == "hm-exeter-london"]
    (read,) = [it for it in obs.items if near(it.center_mm, card.center_mm, 10)]
    assert read.id == card.id
    assert abs((read.rotation - card.rotation + 180.0) % 360.0 - 180.0) < 3.0, (read.rotation, card.rotation)


def test_a_pile_of_the_cloths_colour_whose_outline_dots_join_to_the_next_pile_is_read():
    """Bench seed 9, proxy Highwayman 100: the Great North Road pile, cream on a cream cloth dotted
    purple, leaves only its bands and its number in the mask. Its outline encloses it, but two dots
    that touch it and the Dover pile beside it joined the two outlines into one, which the mask
    (holding the Dover card) mostly inked: no place was cut there, and nothing was shown. Once the
    dots are taken off (vision.detect.OUTLINE_ROW_OPEN_MM), the pile's own part is tried as one card."""
    pack, frame, truth = bench_scene("highwayman", 100, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    (card,) = [t for t in truth.items if t.id == "hm-york-4"]
    read = [it.id for it in obs.items if near(it.center_mm, card.center_mm, 10)]
    assert read == [card.id], (obs.items, obs.unsure)
    check_against_truth(obs, truth, recall=0.9)


def test_a_piles_top_card_whose_lower_half_is_the_cloths_colour_is_read_flush_with_its_top():
    """Bench seed 9, photo-like Highwayman 90: hm-dover-2, brown over its lower half, lies on a
    brown wood; the mask holds its upper half and the cards of its pile fanned a few degrees
    beneath it, 65 x 61 mm, a card's width and more across (detect.FLUSH_WIDER). It was fitted as a
    card turned across it, read as no card, and shown as an unknown; a cell flush with the top of
    what is seen reads it sure."""
    pack, frame, truth = bench_scene("highwayman", 90, photo=True, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    (card,) = [t for t in truth.items if t.id == "hm-dover-2"]
    read = [it.id for it in obs.items if near(it.center_mm, card.center_mm, 5)]
    assert read == [card.id], (obs.items, obs.unsure)
    assert not any(near(u.center_mm, card.center_mm, 30) for u in obs.unknowns)
    check_against_truth(obs, truth, recall=0.9)


def test_a_card_the_mask_holds_in_two_bands_is_found_by_its_outline_on_a_plain_cloth():
    """Bench seed 9, photo-like Highwayman 78: hm-holyhead-london, green across its middle, alone
    on green felt, turned 8 degrees. The mask held its top and its bottom band apart, two pieces
    no card fits (together 64 % of it), and it was read nowhere, not even as an unknown. Its
    closed outline encloses it whole, and no one piece of the mask holds half of that
    (detect.OUTLINE_NEW): it is a place to read, on a plain cloth as on a patterned one."""
    pack, frame, truth = bench_scene("highwayman", 78, photo=True, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    (card,) = [t for t in truth.items if t.id == "hm-holyhead-london"]
    read = [it.id for it in obs.items if near(it.center_mm, card.center_mm, 5)]
    assert read == [card.id], (obs.items, obs.unsure)
    check_against_truth(obs, truth, recall=0.9)


def test_a_pile_in_a_deep_shadow_left_in_the_mask_as_specks_is_read():
    """Bench seed 9, photo-like Highwayman 162: hm-dover-4's pile lies in a lamp's deep shadow on a
    wood. Its dark print differs from the wood by 0.3-1 times the mask's threshold (a shadow's
    darkening is forgiven; the wood round it 0.1-0.3), and the mask held three specks of it, 84-251
    mm², each too small for a fragment (detect.FRAGMENT): nothing at all was shown there. A speck
    (detect.SPECK_MM2) is followed into its card, which is outlined and stands out from the wood
    round it: read sure."""
    pack, frame, truth = bench_scene("highwayman", 162, photo=True, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    (card,) = [t for t in truth.items if t.id == "hm-dover-4"]
    assert [it.id for it in obs.items if near(it.center_mm, card.center_mm, 10)] == [card.id], (obs.items, obs.unsure)
    check_against_truth(obs, truth, recall=0.9)


@pytest.mark.parametrize("photo", [False, True])
def test_a_speck_on_a_blotched_cloth_grows_into_no_card(photo):
    """Bench seed 9, Highwayman 138 (either pack): a speck of a blotched grey cloth at (151, 377),
    followed into the blotch round it (detect.SPECK_MM2), grows into something card-sized with
    three sides outlined, 73 x 88 mm, shown as an unknown where nothing lies. It differs from the
    cloth only twice as much as the ring round it (detect.SPECK_CONTRAST): no card."""
    pack, frame, truth = bench_scene("highwayman", 138, photo=photo, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    assert not any(near(u.center_mm, (151, 377), 40) for u in obs.unknowns + obs.unsure), obs.unknowns
    check_against_truth(obs, truth, recall=0.5)


def test_a_row_running_on_under_a_hand_is_read_one_card_on_from_two_counted_cards():
    """Bench seed 9, photo-like Big Sur 53: a hand lies over the middle of the bottom row. Joined
    to the hand, the row's region there put its grid 12 mm off the cards beside the hand, which
    were read as no card. One card on past bs-10, whose other side bs-11 holds, bs-23 (a sixth of
    it under the hand) is read where it lies and counts."""
    pack, frame, truth = bench_scene("bigsur", 53, photo=True, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    (card,) = [t for t in truth.items if t.id == "bs-23"]
    assert [it.id for it in obs.items if near(it.center_mm, card.center_mm, 5)] == [card.id]
    assert not any(near(u.center_mm, card.center_mm, 20) for u in obs.unknowns)
    check_against_truth(obs, truth, recall=0.9)


def test_an_arm_cut_into_cells_is_not_read_on_in_line():
    """Bench seed 9, photo-like Highwayman 53: an arm reaching down to the row is cut into cells,
    four of them in a line up it read as hm-holyhead-7 (0.80-0.86) before the arm's rules set
    them aside. Read one card on past them in line, the place beyond the table's edge read as it
    too, and then every place on up the arm: hm-holyhead-7 read 17 times, three of those listed to
    check and ten more places shown as unknowns. Cards an arm reaches over lead to no place in
    line."""
    pack, frame, truth = bench_scene("highwayman", 53, photo=True, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    assert not [it for it in obs.items + obs.unsure if it.id == "hm-holyhead-7"]
    check_against_truth(obs, truth, recall=0.9)


def test_a_foreign_card_the_mask_holds_in_pieces_is_still_shown_where_its_outline_reads_no_card():
    """Bench seed 9, proxy Roundabout 113: a card of another game on grey cloth, its brown side
    about the cloth's colour, is held by the mask in pieces, and its closed outline is a place
    to read as well. The outline's cell read no card (the cloth, by the rules of a place found
    by its outline alone) and, landing on the mask's own cell, took its place: the foreign
    card was shown nowhere. The mask's cell is kept, and it is shown as not a card of the pack."""
    from vision.layout import NOT_IN_PACK

    pack, frame, truth = bench_scene("roundabout", 113, seed=9)
    obs = scan(frame, "roundabout", pack=pack)
    (foreign,) = [d for d in truth.distractors if d.kind == "foreign card" and near(d.center_mm, (646, 575), 5)]
    assert any(u.reason == NOT_IN_PACK and near(u.center_mm, foreign.center_mm, 20) for u in obs.unknowns)
    assert not any(near(it.center_mm, foreign.center_mm, 40) for it in obs.items + obs.unsure)


@pytest.mark.parametrize("game,i,want", [("monsterhighway", 27, 17), ("roundabout", 0, 4), ("bigsur", 23, 26)])
def test_cards_in_a_check_cloths_own_colours_are_found(game, i, want):
    """Check cloths of the bench (seed 1, proxy pack), whose colours the cards share: a green home
    base and a column of green road tiles on a green check (Monster Highway 27: 12 of the 17
    counted cards were found), a Roundabout grid on a purple and peach check (0 of 4), Big Sur
    rows on a red and cream check (23 of 27). The check's lattice finds them
    (vision.detect._periodic_mask)."""
    pack, frame, truth = bench_scene(game, i)
    obs = scan(frame, game, pack=pack)
    check_against_truth(obs, truth, recall=0.0)
    counted = [t for t in truth.items if t.occluded <= 0.25]
    found = sum(any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items) for t in counted)
    assert found >= want, f"found {found} of {len(counted)}"
    if game == "monsterhighway":
        assert any(it.id == "home-base-sw" for it in obs.items)


@pytest.mark.parametrize("game,i", [("bigsur", 1), ("bigsur", 8)])
def test_rows_whose_art_matches_the_cloth_are_read_as_cards(game, i):
    """A grey road band across every card on a grey cloth (scene 1), a green check cloth the
    forest art matches (scene 8): the rows' masks have holes, and they were split into 50 mm tile
    cells, none a card (15 of 27 and 4 of 29 cards found). The bench's scenes."""
    pack, frame, truth = bench_scene(game, i)
    obs = scan(frame, game, pack=pack)
    check_against_truth(obs, truth, recall={1: 0.9, 8: 0.6}[i])


def test_landmark_tiles_below_a_row_are_found_beside_its_cards():
    """One region holding a row of cards and the Landmark tiles laid below it: the tiles are
    found in what the cards leave (they were lost when the region was split one way only)."""
    pack, frame, truth = bench_scene("bigsur", 1)
    obs = scan(frame, "bigsur", pack=pack)
    tiles = [t for t in truth.items if t.id.startswith("lm-")]
    assert tiles
    for t in tiles:
        assert any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items), t.id


@pytest.mark.parametrize("i", [5, 9])
def test_a_hand_reaching_into_a_roundabout_grid_leaves_its_cards_counted(i):
    """A hand joined to the grid made one region no grid explains, and every card in it was only
    listed as unsure (1 of 11 and 1 of 12 cards counted): the cards are now counted."""
    pack, frame, truth = bench_scene("roundabout", i)
    obs = scan(frame, "roundabout", pack=pack)
    check_against_truth(obs, truth, recall=0.9)


def test_a_phone_beside_the_board_is_never_a_card():
    """A phone's screen cut into 50 mm cells once matched a photo-like face at 0.72 (what the
    board's sure tiles left of the region was split again): a lone match in a leftover needs a
    clear score to count."""
    pack, frame, truth = bench_scene("monsterhighway", 4, photo=True)
    obs = scan(frame, "monsterhighway", pack=pack)
    check_against_truth(obs, truth, recall=0.0)


def test_a_phone_cut_into_places_none_read_clearly_is_one_unknown_thing():
    """Bench seed 9, photo-like Big Sur 35: a phone 150 mm long on a wooden table cut into six
    landmark-sized places, none read sure, three listed to check as landmarks at 0.52-0.56 and
    three shown unknown. A region of places none of which reads a card at ACCEPT or better is
    one thing that is no card of the pack: one unknown place over the phone, no guess listed."""
    pack, frame, truth = bench_scene("bigsur", 35, photo=True, seed=9)
    (phone,) = [d for d in truth.distractors if d.kind == "phone"]
    obs = scan(frame, "bigsur", pack=pack)
    assert not [u for u in obs.unsure if near(u.center_mm, phone.center_mm, 80)]
    assert [u for u in obs.unknowns if near(u.center_mm, phone.center_mm, 80)] == \
        [u for u in obs.unknowns if near(u.center_mm, phone.center_mm, 15)]
    assert len([u for u in obs.unknowns if near(u.center_mm, phone.center_mm, 80)]) == 1
    check_against_truth(obs, truth, recall=1.0)


def test_a_row_joined_to_a_glare_spot_is_cut_square_to_its_cards():
    """A row of four cards joined to a glare spot has no straight outline to speak of, and its
    minimum-area rectangle is turned 26 degrees: cells square to that cut every card (none of the
    four was found). The cards' direction is now read from the picture's own edges (bench scene 9)."""
    pack, frame, truth = bench_scene("bigsur", 9)
    obs = scan(frame, "bigsur", pack=pack)
    row = [t for t in truth.items if t.center_mm[1] > 580 and t.occluded < 0.05]
    assert len(row) == 4
    for t in row:
        assert any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items), t.id
    check_against_truth(obs, truth, recall=0.0)


def test_a_tile_moved_half_a_road_off_its_place_is_not_misread():
    """A road tile's cell moved onto a road's edge read as another tile (Swap) at 0.66, a sure
    verdict: a moved cell whose match is not clear is compared with the unmoved one (bench scene
    6, photo-like pack)."""
    pack, frame, truth = bench_scene("monsterhighway", 6, photo=True)
    obs = scan(frame, "monsterhighway", pack=pack)
    check_against_truth(obs, truth, recall=0.8)


@pytest.mark.parametrize("game,i,photo,seed", [("highwayman", 15, False, 1), ("highwayman", 29, True, 1),
                                               ("roundabout", 27, True, 1), ("highwaysbyways", 5, False, 2),
                                               ("bigsur", 10, True, 2), ("roundabout", 496, True, 1),
                                               ("bigsur", 470, True, 1), ("highwaysbyways", 14, False, 3),
                                               ("highwayman", 33, False, 3), ("highwayman", 57, False, 3)])
def test_piles_arms_and_phones_are_never_read_as_cards(game, i, photo, seed):
    """Bench scenes where a card was misread or invented: a pile's top card read unsure at 0.90
    lost its place to a cell laid across the pile read as another card at 0.81 (Highwayman 15); an
    arm left over beside a card matched one smooth photo-like face in three cells in a row at 0.69
    (Highwayman 29); a phone cut into three cells matched a card at 0.75 in one of them
    (Roundabout 27); seed 2, never tuned on: a phone cut into two card cells matched a byway card
    at 0.76 in one (Highways & Byways 5), cells beside two foreign cards matched one Landmark
    face four times at 0.62-0.68 (Big Sur 10); the 5,000-scene run: a check cloth taken for
    cards, one region cut into dozens of cells read unsure, two of them read as a card at 0.73
    and 0.74 (Roundabout 496, Big Sur 470); seed 3, while the corner-anchored lattices and the
    look-alike check were new: a glare spot on a check cloth cut into cells, two of them read as
    byway cards at 0.86 among eight read unsure (Highways & Byways 14), and hm-dover-4 read as
    hm-holyhead-4, the look-alike check having compared the picture with hm-holyhead-4 and
    hm-dover-8 with its colour standardised away (Highwayman 33 and 57)."""
    pack, frame, truth = bench_scene(game, i, photo=photo, seed=seed)
    obs = scan(frame, game, pack=pack)
    check_against_truth(obs, truth, recall=0.0)


def test_green_tiles_on_a_green_cloth_are_counted_when_their_match_is_clear():
    """Roundabout tiles whose grass matches a green cloth: the mask is cut into road-shaped
    pieces, no grid explains the region, and its cells were only ever listed as unsure, though
    five of them matched their faces at 0.96-0.98 (bench seed 3, scene 13). A match that clear is
    counted; what a weaker one reads is still only listed."""
    pack, frame, truth = bench_scene("roundabout", 13, seed=3)
    obs = scan(frame, "roundabout", pack=pack)
    check_against_truth(obs, truth, recall=0.7)


@pytest.mark.parametrize("i,photo", [(91, False), (443, True)])
def test_no_monster_is_read_beside_a_hand_or_a_glare_spot_where_a_hand_hides_it(i, photo):
    """Bench seed 9, Monster Highway 91 (proxy) and 443 (photo-like): a hand reaches over the board
    and hides the Monster. With the board's tiles read turned (scan.TURN_BELOW), a place read as
    no card beside the road lay side by side with a lamp's white (91) or with the fingers' end
    (443), and was read as the Monster, sure and wrong. The place of a glare spot is the glare's,
    and a place side by side with it or with an arm's is theirs too (vision.layout): no wrong
    space is named, and the players are told to lift the hand."""
    pack, frame, truth = bench_scene("monsterhighway", i, photo=photo, seed=9)
    obs = scan(frame, "monsterhighway", pack=pack)
    monster = obs.layout["monster"]
    assert monster is None or monster["cell"] == list(truth.layout["monster"]), (monster, truth.layout["monster"])
    assert any("a hand or an arm" in w for w in obs.warnings)


def test_a_place_by_the_road_and_a_lone_place_are_both_listed_as_the_monsters_maybe():
    """Bench seed 9, proxy Monster Highway 173: the Monster stands alone on an empty space; a road
    tile the lamp washed pale is read as no card beside the road. The place by the road was named
    the Monster, sure and wrong. As likely the one as the other (vision.layout.MONSTER_ONE_OF), both
    are marked "Monster?" and the players asked to uncover the board."""
    pack, frame, truth = bench_scene("monsterhighway", 173, seed=9)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert obs.layout["monster"] is None
    assert list(truth.layout["monster"]) in [p["cell"] for p in obs.layout["monster_one_of"]]
    assert len(obs.layout["monster_one_of"]) == 2
    assert any("Monster?" in w for w in obs.warnings)


def test_the_monster_seen_off_its_cells_middle_keeps_a_lone_place_elsewhere_from_being_named():
    """Bench seed 9, photo-like Monster Highway 59: the Monster stands beside the road near the play
    area's edge, its place seen 15 mm off its cell's middle (its top pushed away from the camera);
    a home base under a hand's fingers was the one lone place on the grid and was named the
    Monster, sure and wrong. No space is named now (vision.layout.MONSTER_LEANS_MM)."""
    pack, frame, truth = bench_scene("monsterhighway", 59, photo=True, seed=9)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert obs.layout["monster"] is None
    assert any(u.reason == layout.NOT_IN_PACK and list(layout._board_cell(u.center_mm)) == list(truth.layout["monster"])
               for u in obs.unknowns)


@pytest.mark.parametrize("i", [3, 5])
def test_tiles_with_a_car_or_the_monster_on_them_are_read_past_the_piece(i):
    """A car standing on a Monster Highway tile covers a tenth of it and the whole-face match
    fell to 0.53-0.68: those tiles were only listed as unsure (bench seed 3, scenes 3 and 5).
    Read again with the pixels each face explains worst left out, they match at 0.93-0.96."""
    pack, frame, truth = bench_scene("monsterhighway", i, seed=3)
    obs = scan(frame, "monsterhighway", pack=pack)
    under = [t for t in truth.items if 0.05 < t.occluded <= 0.25]
    assert under
    for t in under:
        assert any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items), t.id
    check_against_truth(obs, truth, recall=0.9)


@pytest.mark.parametrize("i,card,monster", [(2, "road-curve", None), (9, "road-curve", (8, 8)), (9, "road-curve", None)])
def test_a_tile_whose_road_a_car_stands_on_is_read_when_far_ahead(i, card, monster):
    """A car on a curve's road (bench seed 1, scenes 2 and 9, the Monster where the bench then put
    it): left out, the tile still matched only 0.81-0.86 and the car and its shadow split into blobs
    (0.69-0.82 together), so it was listed as unsure; but no other tile or turn came within 0.36 of
    it, and it now counts. With the Monster off the tile beside it (scene 9 as the bench now draws
    it) the same tile read 0.85, 0.29 ahead, 0.80 together, short of every way in by a hair: it
    counts by the blob's (see occlusion.BLOB_SURE)."""
    pack, frame, truth = bench_scene("monsterhighway", i, seed=1, monster=monster)
    obs = scan(frame, "monsterhighway", pack=pack)
    t = next(t for t in truth.items if t.id == card and 0.05 < t.occluded <= 0.25)
    assert any(it.id == card and near(it.center_mm, t.center_mm, 10) for it in obs.items), obs.unsure
    check_against_truth(obs, truth, recall=0.9)


def test_a_card_whose_cell_is_turned_off_it_is_not_read_past_a_piece():
    """A Highwayman card on a pile whose cell came out 14 degrees off it (bench seed 3, scene 7):
    left out, its misfitting corners made the trimmed reading far ahead of every other (0.83),
    which once counted it at the cell's wrong rotation. Cards are not read past a piece that way,
    only square tiles."""
    pack, frame, truth = bench_scene("highwayman", 7, seed=3)
    obs = scan(frame, "highwayman", pack=pack)
    check_against_truth(obs, truth, recall=0.0)


def test_a_board_of_tiles_whose_grass_matches_the_cloth_is_read():
    """Monster Highway tiles on a green cloth of their grass's colour (bench seed 3, scene 13):
    the mask is the roads only, the grid fitted to its outline sat half a tile off, and 3 of 28
    tiles were found. The lattice on the tiles' own sides is tried as another split. Since scenes
    hold no more copies of a tile than the box (two of its six crossroads are now T-junctions, whose
    roads leave the mask less to go on), 17 of its 24 visible tiles are read: still weak, but far
    from the 3 of old."""
    pack, frame, truth = bench_scene("monsterhighway", 13, seed=3)
    obs = scan(frame, "monsterhighway", pack=pack)
    check_against_truth(obs, truth, recall=0.7)


def _read(cid, score, x):
    from vision.observation import Item

    return Item(cid, 0.0, (x, 100.0), (70.0, 70.0), score,
                ((x - 35, 65.0), (x + 35, 65.0), (x + 35, 135.0), (x - 35, 135.0)))


def test_a_card_read_more_often_than_the_game_has_it_is_listed_for_the_players():
    """Two cells along an arm both read as the same byway card at 0.82-0.83, a card the game has
    once (bench Highways & Byways 258): at least one of them is chance, and neither is clearly the
    card, so both are listed for the players to check, with the card named."""
    import importlib

    from vision.observation import Observation

    beyond = importlib.import_module("vision.scan")._beyond_the_box
    catalog = {"bw-01": {"count": 1}, "ra-05": {"count": 2}}
    obs = Observation("highwaysbyways", items=[_read("bw-01", 0.82, 100), _read("ra-05", 0.9, 300),
                                               _read("bw-01", 0.83, 200), _read("ra-05", 0.75, 400)])
    beyond(obs, catalog)
    assert [(i.id, i.confidence) for i in obs.items] == [("ra-05", 0.9), ("ra-05", 0.75)]  # two copies: fine
    assert sorted(i.confidence for i in obs.unsure) == [0.82, 0.83]
    assert any("bw-01" in w and "read 2 times" in w and "has 1" in w for w in obs.warnings)


def test_of_cards_read_too_often_one_clearly_ahead_still_counts():
    """The card itself at 0.95 and a chance match of it at 0.80 elsewhere: the card counts, the
    chance match is listed; a card the catalog gives no count for is left alone."""
    import importlib

    from vision.observation import Observation

    beyond = importlib.import_module("vision.scan")._beyond_the_box
    obs = Observation("roundabout", items=[_read("ra-28", 0.80, 100), _read("ra-28", 0.95, 200),
                                           _read("x-1", 0.9, 300), _read("x-1", 0.9, 400)])
    beyond(obs, {"ra-28": {"count": 1}})
    assert [(i.id, i.confidence) for i in obs.items] == [("ra-28", 0.95), ("x-1", 0.9), ("x-1", 0.9)]
    assert [(i.id, i.confidence) for i in obs.unsure] == [("ra-28", 0.80)]


def test_a_place_holds_one_card():
    """Two regions side by side both read the tile between them: it is reported once, the best
    reading kept. Another card read at the same place but not clearly behind: both are listed for
    the players; clearly behind: it is no card (a pile's lower card, a cell reaching over)."""
    import importlib

    from vision.observation import Observation

    one = importlib.import_module("vision.scan")._one_per_place
    obs = Observation("monsterhighway", items=[_read("road-straight", 0.93, 100), _read("road-cross", 0.9, 300),
                                               _read("road-straight", 0.927, 100.4), _read("road-tee", 0.95, 600),
                                               _read("swap", 0.80, 610), _read("ra-1", 0.9, 900),
                                               _read("ra-2", 0.88, 905)])
    one(obs)
    assert [(i.id, i.confidence) for i in obs.items] == [("road-straight", 0.93), ("road-cross", 0.9),
                                                         ("road-tee", 0.95)]
    assert sorted((i.id, i.confidence) for i in obs.unsure) == [("ra-1", 0.9), ("ra-2", 0.88)]


def test_two_places_that_overlap_much_are_one_place():
    """A cell laid 38 mm down a counted card, across its lower half and the wood beside it, read
    as another card at 0.71 (bench seed 9, photo-like Big Sur 115): more than half a card apart,
    but the two places overlap by more than SAME_PLACE_SHARE, so only the better reading counts.
    Cards side by side, overlapping a little (5 mm of 70), both stay."""
    import importlib

    from vision.observation import Observation

    sm = importlib.import_module("vision.scan")
    obs = Observation("bigsur", items=[_read("bs-55", 0.98, 100), _read("bs-starter-stone", 0.71, 138),
                                       _read("bs-27", 0.96, 305), _read("bs-12", 0.95, 370)])
    sm._one_per_place(obs)
    assert [(i.id, i.confidence) for i in obs.items] == [("bs-55", 0.98), ("bs-27", 0.96), ("bs-12", 0.95)]
    assert obs.unsure == []


def test_a_tile_two_regions_reach_over_is_reported_once():
    """A card-sized region beside a board of tiles and the board's own region both reached over
    one tile and each read it (bench seed 1, scene 161): the same road-straight twice at one
    place, which the bench counted as a phantom."""
    pack, frame, truth = bench_scene("monsterhighway", 161, seed=1)
    obs = scan(frame, "monsterhighway", pack=pack)
    for a, b in ((a, b) for k, a in enumerate(obs.items) for b in obs.items[k + 1:]):
        assert not near(a.center_mm, b.center_mm, 25), (a, b)
    check_against_truth(obs, truth, recall=0.8)


def test_a_row_joined_to_a_glare_spot_below_it_is_tried_as_a_row():
    """A glare spot joined to a south row of six cards made its region a card's height taller
    (380 x 134 mm), a grid of 50 mm Landmark tiles explained it better than the row, and no tile
    was a card: the whole row was one unknown object (bench scene 28). Lattices of true card size
    anchored on the region's corners are tried when no split holds a card."""
    pack, frame, truth = bench_scene("bigsur", 28)
    obs = scan(frame, "bigsur", pack=pack)
    row = [t for t in truth.items if t.center_mm[1] > 580 and t.occluded < 0.05]
    assert len(row) == 6
    found = [t for t in row if any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items)]
    assert len(found) >= 5, [t.id for t in found]
    check_against_truth(obs, truth, recall=0.9)


@pytest.mark.parametrize("i,card", [(2, "bs-25"), (28, "bs-19")])
def test_a_card_the_colour_of_the_cloth_at_a_rows_end_is_read(i, card):
    """A brown mountain card at the end of a row on wood (scene 2), a forest card in a row on green
    felt (scene 28): the mask covered them only in part, they were no cell of the row's grid and
    were lost without a word in otherwise easy scenes. The bench's scenes (seed 3)."""
    pack, frame, truth = bench_scene("bigsur", i, seed=3)
    obs = scan(frame, "bigsur", pack=pack)
    want = next(t for t in truth.items if t.id == card)
    assert any(it.id == card and near(it.center_mm, want.center_mm, 10) for it in obs.items), obs.items
    check_against_truth(obs, truth, recall=1.0)


@pytest.mark.parametrize("i", [31, 56])
def test_another_games_card_like_a_london_card_is_not_counted(i):
    """A Highways & Byways card lying loose on a Highwayman table (cream, a coloured band, a
    title) read as a route's LONDON card at 0.81, sure only by its look-alike's narrow margin:
    at the camera's detail no LONDON card fits it (0.74-0.75) and it is not counted. The
    bench's scenes (seed 3); the routes' top cards are all still read."""
    pack, frame, truth = bench_scene("highwayman", i, seed=3)
    obs = scan(frame, "highwayman", pack=pack)
    assert not any(it.id.endswith("-london") for it in obs.items), obs.items
    check_against_truth(obs, truth, recall=1.0)


@pytest.mark.parametrize("i,at", [(367, (192, 498)), (384, (135, 106))])
def test_a_face_read_where_no_card_outline_is_seen_is_not_counted(i, at):
    """A photo-like Highwayman face half green felt read on the felt itself (bench seed 10, never
    tuned on): at 0.81 in a lamp's glare spot (367), at 0.85 over a phone's end and the felt
    beside it (384), the place outlined as a card on one side and on none. It is shown as a thing
    of no card of the pack, and every route's top card is still read."""
    pack, frame, truth = bench_scene("highwayman", i, photo=True, seed=10)
    obs = scan(frame, "highwayman", pack=pack)
    assert not any(near(it.center_mm, at, 40) for it in obs.items + obs.unsure), obs.items + obs.unsure
    assert any(near(u.center_mm, at, 40) for u in obs.unknowns), obs.unknowns
    check_against_truth(obs, truth, recall=1.0)


@pytest.mark.parametrize("i", [73, 83])
def test_a_stage_card_read_as_its_look_alike_is_told_at_full_detail(i):
    """hm-bath-4 on a pile, read as hm-bath-1 at 0.91 (scene 73: sure by a narrow margin, the
    one wrong card of 1,600 bench scenes) or listed as unsure (scene 83). Each card keeps only its
    closest look-alikes and hm-bath-1 does not list hm-bath-4, so it was never compared with it;
    at full detail it fits half turned from the reading (hm-bath-1 looks the same both ways) and
    is read right. The bench's scenes (seed 3)."""
    pack, frame, truth = bench_scene("highwayman", i, seed=3)
    obs = scan(frame, "highwayman", pack=pack)
    want = next(t for t in truth.items if t.id == "hm-bath-4")
    assert any(it.id == "hm-bath-4" and near(it.center_mm, want.center_mm, 10) for it in obs.items), obs.items
    check_against_truth(obs, truth, recall=1.0)


def test_a_card_read_weakly_upside_down_lies_as_its_print_shows_at_full_detail():
    """hm-exeter-london read sure at 0.73 turned half round from how it lies (bench seed 10, never
    tuned on): the recogniser's shortlist held its look-alike hm-exeter-7 but not the card itself
    the other way up, so nothing said the turn was wrong. Its face, tried both ways up at the
    camera's resolution, fits upright clearly better."""
    pack, frame, truth = bench_scene("highwayman", 457, seed=10)
    want = next(t for t in truth.items if t.id == "hm-exeter-london" and near(t.center_mm, (587, 367), 15))
    obs = scan(frame, "highwayman", pack=pack)
    got = [it for it in obs.items if it.id == want.id and near(it.center_mm, want.center_mm, 10)]
    assert got, obs.items
    turn = (got[0].rotation - want.rotation) % 360
    assert min(turn, 360 - turn) <= 10, (got[0].rotation, want.rotation)
    check_against_truth(obs, truth, recall=0.0)


def test_a_coaster_cut_into_four_tiles_is_not_a_tile():
    """A round coaster is about two Landmark tiles across; a 2 x 2 grid of 50 mm cells explained
    it (each cell covered about 0.7) and one cell read as the photo-like lm-14 at 0.85, a phantom
    (seed 3, scene 95). A convex region that does not fill its rectangle is no cards: its cells
    are only hypotheses now, and nothing is counted there."""
    pack, frame, truth = bench_scene("bigsur", 95, photo=True, seed=3)
    obs = scan(frame, "bigsur", pack=pack)
    check_against_truth(obs, truth, recall=0.9)
    coaster = next(d for d in truth.distractors if d.kind == "coaster")
    assert any(near(u.center_mm, coaster.center_mm, 20) for u in obs.unknowns)


@pytest.mark.parametrize("i", [53, 92])
def test_an_arm_over_the_cloth_beside_a_big_sur_row_is_no_landmark_tile(i):
    """A hand reaching over a row, its arm across the cloth: a 50 mm cell on the arm was read
    "past a piece" (its worst fifth left out) as landmark lm-14 at 0.90 and counted (scene 92;
    scene 53 did the same at 0.85 under a warp a few grey levels apart). Nothing stands on Big
    Sur's cards, so no cell there is read past a piece (bench seed 3, the photo-like pack)."""
    pack, frame, truth = bench_scene("bigsur", i, photo=True, seed=3)
    obs = scan(frame, "bigsur", pack=pack)
    check_against_truth(obs, truth, recall=0.8)


@pytest.mark.parametrize("game", ["bigsur", "highwayman", "highwaysbyways", "monsterhighway"])
def test_cells_are_read_past_a_piece_only_in_games_whose_pieces_stand_on_cards(monkeypatch, game):
    """Only Roundabout's cars and Monster Highway's cars and Monster stand on the cards and tiles
    the camera reads: in the other games no cell is read again past a piece."""
    import sys

    scan_module = sys.modules["vision.scan"]  # (the package's `scan` is the function)

    calls = []
    real = scan_module.read_past_a_piece
    monkeypatch.setattr(scan_module, "read_past_a_piece", lambda *a, **k: calls.append(a) or real(*a, **k))
    pack = proxy_pack(game)
    scene = random_scene(game, pack, np.random.default_rng([5, 3]), 0.9)
    frame, _ = render_scene(scene, seed=11)
    scan_module.scan(frame, game, pack=pack)
    if game in layout.PIECES_ON_CARDS:
        assert calls, "a tile with a car on it would never be read past the car"
    else:
        assert not calls


def test_dark_cards_on_dark_wood_are_read_where_the_mask_left_them_bare():
    """Dark photo-like cards on dark wood (bench seed 2, scene 23): the cloth's colours took in
    all of a row of nine but its two end cards, and left of three of the four cards above it a
    61 x 45 mm strip, split as a 50 mm tile. Seven cards of the row and all four above were lost
    without a word. A sure card's neighbour along a line of cards is now read where the mask is
    bare, and a strip one card wide as the card it may be the visible end of. (The fourth card
    above, bs-08, left nothing in the mask and continues no line: it is still lost.)"""
    pack, frame, truth = bench_scene("bigsur", 23, photo=True, seed=2)
    obs = scan(frame, "bigsur", pack=pack)
    row = [t for t in truth.items if t.center_mm[1] > 600]
    strips = [t for t in truth.items if t.id in ("bs-starter-stone", "bs-11", "bs-44")]
    assert len(row) == 9 and len(strips) == 3
    for t in row + strips:
        assert any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items), t.id
    check_against_truth(obs, truth, recall=0.6)
    # the strips' 50 mm tile cells were left as unknowns ("?") drawn on the cards read there, and
    # a tile cell read unsure inside a grown card was listed for the players: a counted card's
    # place is that card
    for u in obs.unknowns + obs.unsure:
        assert not any(near(u.center_mm, it.center_mm, 0.5 * min(it.size_mm)) for it in obs.items), u


def test_what_a_counted_card_lies_over_is_that_card_but_a_phone_on_it_stays():
    """Unsure readings and card-cell unknowns whose centre falls on a counted card go; an unknown
    of its own shape there (a phone laid on a card) and anything beside the card stay."""
    import sys

    from vision.observation import Item, Observation, Unknown

    scan_module = sys.modules["vision.scan"]
    card = Item("bs-01", 0.0, (100.0, 100.0), (63.0, 88.0), 0.95,
                ((68.5, 56.0), (131.5, 56.0), (131.5, 144.0), (68.5, 144.0)))
    on_it = Item("lm-11", 0.0, (110.0, 120.0), (50.0, 50.0), 0.63,
                 ((85.0, 95.0), (135.0, 95.0), (135.0, 145.0), (85.0, 145.0)))
    beside = dataclasses.replace(on_it, center_mm=(170.0, 100.0),
                                 corners_mm=((145.0, 75.0), (195.0, 75.0), (195.0, 125.0), (145.0, 125.0)))
    obs = Observation("bigsur", items=[card], unsure=[on_it, beside],
                      unknowns=[Unknown((100.0, 80.0), (50.0, 50.0), "not a card of this pack"),
                                Unknown((100.0, 90.0), (71.0, 146.0), "not card-shaped"),
                                Unknown((200.0, 100.0), (50.0, 50.0), "not a card of this pack")])
    scan_module._covered_by_cards(obs, [(50.0, 50.0), (63.0, 88.0)])
    assert obs.items == [card]
    assert obs.unsure == [beside]
    assert [u.center_mm for u in obs.unknowns] == [(100.0, 90.0), (200.0, 100.0)]


def test_an_unsure_place_counted_cards_mostly_cover_is_those_cards():
    """A card-sized cell laid over the end of a card and the Landmark tile above it (the demo's
    west row, a tile above its third card) was read unsure, its centre on neither: it is those two.
    One that they cover less than COVERED_SHARE stays listed."""
    import sys

    from vision.observation import Item, Observation

    scan_module = sys.modules["vision.scan"]

    def quad(cx, cy, w, h):
        return ((cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2))

    card = Item("bs-08", 90.0, (113.7, 219.4), (63.0, 88.0), 0.97, quad(113.7, 219.4, 88, 63))
    tile = Item("lm-03", 90.0, (184.0, 220.0), (50.0, 50.0), 0.97, quad(184.0, 220.0, 50, 50))
    over = Item("bs-44", 90.0, (158.5, 226.0), (63.0, 88.0), 0.51, quad(158.5, 226.0, 88, 63))
    past = Item("bs-45", 90.0, (240.0, 226.0), (63.0, 88.0), 0.51, quad(240.0, 226.0, 88, 63))
    assert scan_module.COVERED_SHARE == 0.6
    obs = Observation("bigsur", items=[card, tile], unsure=[over, past])
    scan_module._covered_by_cards(obs, [(50.0, 50.0), (63.0, 88.0)])
    assert obs.unsure == [past]  # 'over' is 83 % covered, 'past' 12 %


def test_a_tile_the_colour_of_the_felt_is_found_from_what_the_mask_holds_of_it():
    """A green Home Base tile on green felt (bench seed 3, scene 72): the mask held its road and a
    few bits of its frame, each too small for a card, and the tile was lost without a word. The
    road is followed into the weaker frame around it, which makes one tile's region."""
    pack, frame, truth = bench_scene("monsterhighway", 72, seed=3)
    home = next(t for t in truth.items if t.id == "home-base-sw")
    obs = scan(frame, "monsterhighway", pack=pack)
    assert any(it.id == "home-base-sw" and near(it.center_mm, home.center_mm, 10) for it in obs.items)
    check_against_truth(obs, truth, recall=0.6)


def test_a_card_beyond_the_recognisers_slack_is_read_where_its_face_fitted():
    """Two road tiles of a Monster Highway road (bench seed 3, scene 67) were read unsure (0.68,
    0.70): their cells lay more than the recogniser's few mm of slack off the tiles, and the faces
    fitted at the edge of it. Read again where the faces fitted, they are sure (0.88, 0.93)."""
    pack, frame, truth = bench_scene("monsterhighway", 67, seed=3)
    obs = scan(frame, "monsterhighway", pack=pack)
    for at in ((525, 525), (575, 525)):
        t = next(t for t in truth.items if near(t.center_mm, at, 5))
        assert t.id == "road-straight"
        assert any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items), at
    check_against_truth(obs, truth, recall=0.6)


def test_recentred_takes_a_sure_reading_where_the_face_fitted_and_nothing_less():
    """_recentred on made-up readings of a region that holds a sure card (a row): a place read
    unsure whose face fitted 5 mm off is read there; a sure clear reading of the same card there
    replaces it; an unsure one, another card's and one on a place a sure card holds do not. A
    clear sure reading and a reading of no card are left alone, and a region with no sure card
    (a lone cell on a check cloth) is not read again at all."""
    import sys

    from vision.detect import Candidate
    from vision.identify import Match

    scan_module = sys.modules["vision.scan"]

    def match(status, score, at, cid="bs-01"):
        return Match(status, cid if status != "unknown" else None, 0.0, score, 0.2, at)

    looked = []

    def look(c):
        looked.append(c.center_mm)
        return c, answers[c.center_mm]

    row = (Candidate((300.0, 100.0), 0.0, (63.0, 88.0), 1), match("sure", 0.95, (300.0, 100.0), "bs-09"))
    cell = Candidate((100.0, 100.0), 0.0, (63.0, 88.0), 1)
    answers = {(105.0, 100.0): match("sure", 0.9, (105.5, 100.0))}
    got = scan_module._recentred([row, (cell, match("unsure", 0.7, (105.0, 100.0)))], look)
    assert looked == [(105.0, 100.0)] and got[1][1].status == "sure" and got[1][0].center_mm == (105.0, 100.0)
    # the same, alone in its region: no row, no second look
    looked.clear()
    alone = [(cell, match("unsure", 0.7, (105.0, 100.0)))]
    assert scan_module._recentred(alone, look) == alone and looked == []
    # read again there, still not sure: the reading stays as it was
    answers = {(105.0, 100.0): match("unsure", 0.75, (105.5, 100.0))}
    first = (cell, match("unsure", 0.7, (105.0, 100.0)))
    assert scan_module._recentred([row, first], look) == [row, first]
    # another card read sure there: a chance match of the search, not this card better placed
    answers = {(105.0, 100.0): match("sure", 0.9, (105.5, 100.0), "bs-02")}
    assert scan_module._recentred([row, first], look) == [row, first]
    # the place a sure card holds: no second card there
    answers = {(160.0, 100.0): match("sure", 0.9, (160.0, 100.0), "bs-02")}
    held = (Candidate((165.0, 100.0), 0.0, (63.0, 88.0), 1), match("sure", 0.95, (165.0, 100.0), "bs-03"))
    off = (cell, match("unsure", 0.7, (160.0, 100.0)))
    assert scan_module._recentred([held, off], look) == [held, off]
    # a face that fitted on the cell, a clear sure card and no card at all: nothing read again
    looked.clear()
    readings = [row, (cell, match("unsure", 0.7, (101.0, 100.0))), (cell, match("sure", 0.9, (107.0, 100.0))),
                (cell, match("unknown", 0.3, (108.0, 100.0)))]
    assert scan_module._recentred(readings, look) == readings and looked == []


def test_clear_cards_in_a_region_no_grid_explains_count_from_0_85():
    """Highwayman piles side by side under glare (bench seed 3, scene 21) join into one region no
    grid explains, cut into cells on its sides: the York route's London card (0.89) and the
    runner on top of the Bath pile (0.87) were listed as unsure, below the 0.9 such a place asked
    for. The chance matches measured there when that bar was set scored at most 0.67: from 0.85
    they count."""
    pack, frame, truth = bench_scene("highwayman", 21, seed=3)
    obs = scan(frame, "highwayman", pack=pack)
    for cid in ("hm-york-london", "hm-runner"):
        t = next(t for t in truth.items if t.id == cid)
        assert any(it.id == cid and near(it.center_mm, t.center_mm, 10) for it in obs.items), cid
    check_against_truth(obs, truth, recall=0.3)


@pytest.mark.parametrize("i,ids", [(2, ("bs-78", "bs-25", "bs-79", "bs-12", "bs-87")),
                                   (10, ("bs-05", "bs-18", "bs-35", "bs-08", "bs-64"))])
def test_a_row_with_something_joined_to_its_sides_is_cut_on_the_cards_own_sides(i, ids):
    """A Big Sur row with the cloth's dots joined to both its long sides (bench seed 6, scene 2)
    or the wood's shading (scene 10): no grid of card size explains the region, and the lattice
    laid on the picture's edges went through the cards' middles, where a line of their print was
    stronger than either side of a card taken alone. All five cards of each row were lost."""
    pack, frame, truth = bench_scene("bigsur", i, seed=6)
    obs = scan(frame, "bigsur", pack=pack)
    for cid in ids:
        t = next(t for t in truth.items if t.id == cid)
        assert any(it.id == cid and near(it.center_mm, t.center_mm, 10) for it in obs.items), cid
    check_against_truth(obs, truth, recall=0.8)


def test_landmark_tiles_in_what_a_row_leaves_are_found_when_the_leftover_is_too_tall_for_them():
    """Three Landmark tiles below a row, in one region with it (bench seed 6, scene 11): what the
    row's cards leave is 72 mm tall with the gap and a dot of the cloth, past any grid of 50 mm
    tiles; lattices of the tiles' size on its corners find them."""
    pack, frame, truth = bench_scene("bigsur", 11, seed=6)
    obs = scan(frame, "bigsur", pack=pack)
    for cid in ("lm-02", "lm-10", "lm-12"):
        t = next(t for t in truth.items if t.id == cid)
        assert any(it.id == cid and near(it.center_mm, t.center_mm, 10) for it in obs.items), cid
    check_against_truth(obs, truth, recall=0.8)


def test_a_grey_card_on_grey_felt_is_followed_from_its_icon_into_its_body():
    """The grey Steel material card on grey felt (bench seed 6, scene 28): the mask held its icon
    and bits of its frame. The icon differs from the felt weakly (1.27 times the threshold) and
    the card is over twice the smallest card of the game, so it was not followed; and at half the
    threshold its body joined the felt's shading 7 mm off."""
    pack, frame, truth = bench_scene("bigsur", 28, seed=6)
    obs = scan(frame, "bigsur", pack=pack)
    t = next(t for t in truth.items if t.id == "bs-material-steel")
    assert any(it.id == t.id and near(it.center_mm, t.center_mm, 10) for it in obs.items)
    check_against_truth(obs, truth, recall=0.9)


def test_cards_beside_clear_ones_count_one_after_another():
    """_counted_beside on made-up readings of 50 mm tiles: a clear card counts; a fair one beside
    it counts, and one beside that (a chain along a row); a fair one alone, one beside only an
    unsure reading and one below the floor do not; with no clear card nothing counts."""
    import sys

    from vision.detect import Candidate
    from vision.identify import Match

    scan_module = sys.modules["vision.scan"]

    def cell(x, y, status, score):
        c = Candidate((x, y), 0.0, (50.0, 50.0), 1)
        return c, Match(status, "road-tee" if status != "unknown" else None, 0.0, score, 0.2, (x, y))

    clear = cell(100.0, 100.0, "sure", 0.9)
    next_ = cell(150.0, 100.0, "sure", 0.72)
    chain = cell(200.0, 100.0, "sure", 0.75)
    low = cell(100.0, 150.0, "sure", 0.65)  # beside the clear one, below the floor
    alone = cell(400.0, 400.0, "sure", 0.78)
    unsure = cell(300.0, 300.0, "unsure", 0.6)
    past_unsure = cell(350.0, 300.0, "sure", 0.74)
    found = [chain, next_, clear, low, alone, unsure, past_unsure]
    got = scan_module._counted_beside(found, 0.8, 0.7)
    assert got == {id(clear[0]), id(next_[0]), id(chain[0])}
    assert scan_module._counted_beside([next_, chain, alone], 0.8, 0.7) == set()


def test_a_board_with_pieces_standing_out_of_it_counts_its_tiles_beside_clear_ones():
    """A Monster Highway board on grey felt with the Monster and cars joined to it (bench seed 8,
    scene 25): its grid explains too little of the region for a clean one, so only tiles read at
    0.8 or better counted, and 15 of its 16 places read sure but six of them at 0.76-0.80 were
    listed for the players to check. The board is held by its cards: a tile beside a clear one
    counts from 0.7."""
    pack, frame, truth = bench_scene("monsterhighway", 25, seed=8)
    obs = scan(frame, "monsterhighway", pack=pack)
    for cid, at in (("remove", (475, 375)), ("road-curve", (475, 425)), ("road-tee", (425, 375)),
                    ("dead-end", (325, 325)), ("dead-end", (375, 275))):
        assert any(it.id == cid and near(it.center_mm, at, 10) for it in obs.items), cid
    check_against_truth(obs, truth, recall=0.8)


def test_tiles_under_cars_found_from_their_neighbours_are_read_past_the_cars():
    """A Monster Highway board on grey felt (bench seed 8, scene 13, the Monster where the bench
    then put it) whose places under two cars were found from the sure tiles beside them, not from
    the region's own grid: they were never read past the car (road-straight 0.52, road-curve 0.65,
    both listed for the players). A place beside a clear tile whose whole face named a card is
    read past the piece too."""
    pack, frame, truth = bench_scene("monsterhighway", 13, seed=8, monster=(9, 8))
    obs = scan(frame, "monsterhighway", pack=pack)
    for cid, at in (("road-curve", (525, 425)), ("road-straight", (525, 275))):
        assert any(it.id == cid and near(it.center_mm, at, 10) for it in obs.items), cid
    check_against_truth(obs, truth, recall=0.7)


def test_a_green_tile_whose_road_stands_out_like_a_piece_is_completed():
    """A green Monster Highway home base alone on green felt (bench seed 2, scene 12): the mask
    held its road and arrow as one blob differing from the cloth as strongly as a car (2.6) and
    bits of its frame too small to count. A blob that strong was taken only for a piece, never
    followed into the tile's frame as a fragment of print is, and the tile was not found. It is
    now followed too."""
    pack, frame, truth = bench_scene("monsterhighway", 12, seed=2)
    obs = scan(frame, "monsterhighway", pack=pack)
    (home,) = [t for t in truth.items if t.id == "home-base-sw"]
    assert any(it.id == "home-base-sw" and near(it.center_mm, home.center_mm, 5) for it in obs.items)
    check_against_truth(obs, truth, recall=0.7)


def test_half_a_tile_the_colour_of_the_wood_is_completed():
    """A photo-like home base whose upper half is about the wood's colour (bench seed 3, scene 10):
    the mask held its lower half, 28 x 50 mm, too big to be followed into its card as a fragment
    of print is (under 0.45 of the smallest card) and too small to fit one, so it was left as
    something not card-shaped. A piece of that size that fits no card is followed too."""
    pack, frame, truth = bench_scene("monsterhighway", 10, photo=True, seed=3)
    obs = scan(frame, "monsterhighway", pack=pack)
    (home,) = [t for t in truth.items if t.id == "home-base-se"]
    assert any(it.id == "home-base-se" and near(it.center_mm, home.center_mm, 5) for it in obs.items)
    check_against_truth(obs, truth, recall=0.85)


def test_half_a_card_that_fits_a_card_is_not_followed_as_a_fragment():
    """A photo-like Big Sur starter card in deep shade on wood (bench seed 2, scene 23): the mask
    holds its lit part, under 0.8 of a landmark tile, which fits the card it is. Followed into the
    weaker difference around it, it became a 50 mm place read as no card and the card was lost:
    only a piece that fits no card is followed."""
    pack, frame, truth = bench_scene("bigsur", 23, photo=True, seed=2)
    obs = scan(frame, "bigsur", pack=pack)
    (card,) = [t for t in truth.items if t.id == "bs-starter-stone"]
    assert any(it.id == "bs-starter-stone" and near(it.center_mm, card.center_mm, 5) for it in obs.items)


def test_cells_that_look_like_no_card_are_not_read_again_turned(monkeypatch):
    """The bench's latency table on a plain grey cloth: one card's grey road band matches the
    cloth, its region is first split as 50 mm tiles, and each of those cells read as nothing
    (0.07-0.16) was read again turned six ways: 117 readings for 30 cards. A reading below
    TURN_FROM is not turned (no turned try from below 0.38 ever found a card on seeds 1-2)."""
    from vision.identify import CardIndex
    from vision.pack import proxy_pack
    from vision.synth import Camera, Placement, Scene, render_scene

    pack = proxy_pack("bigsur")
    ids = [c.id for c in pack.cards if (c.size_mm or pack.card_size_mm) == pack.card_size_mm]
    places = [Placement(ids[(row * 6 + k) % len(ids)], (150 + 63 * k + 420 * (row % 2), 140 + 260 * (row // 2)), 0.0)
              for row in range(4) for k in range(6)]
    places += [Placement(ids[(24 + k) % len(ids)], (120 + 150 * k, 640 - 20 * (k % 2)), 90.0) for k in range(6)]
    scene = Scene(placements=tuple(places), pack=pack, camera=Camera(view_deg=6, light=0.3, noise=2, blur=0.5),
                  background="cloth")
    frame, truth = render_scene(scene, seed=1)
    reads = [0]
    many, one = CardIndex.identify_many, CardIndex.identify

    def count_many(self, fr, h, cells, *a, **k):
        reads[0] += len(cells)
        return many(self, fr, h, cells, *a, **k)

    def count_one(self, *a, **k):
        reads[0] += 1
        return one(self, *a, **k)

    monkeypatch.setattr(CardIndex, "identify_many", count_many)
    monkeypatch.setattr(CardIndex, "identify", count_one)
    obs = scan(frame, "bigsur", pack=pack)
    assert sorted(i.id for i in obs.items) == sorted(t.id for t in truth.items) and not obs.unsure
    assert reads[0] <= 70, reads[0]


def test_a_home_base_on_strongly_grained_wood_is_completed():
    """A photo-like home base on strongly grained wood (bench seed 3, scene 6), which detection
    reads as a patterned cloth: the mask held a piece of the tile and the rest, of a wood tone's
    colour, had no strength at all to be followed into (the patterned-cloth path's mask held one
    strength), so the tile was something not card-shaped. What that mask leaves now keeps how far
    it is from the cloth's colours."""
    pack, frame, truth = bench_scene("monsterhighway", 6, photo=True, seed=3)
    obs = scan(frame, "monsterhighway", pack=pack)
    (home,) = [t for t in truth.items if t.id == "home-base-ne"]
    assert any(it.id == "home-base-ne" and near(it.center_mm, home.center_mm, 5) for it in obs.items)
    check_against_truth(obs, truth, recall=0.85)


def test_a_card_of_the_dotted_cloths_colours_is_found_by_its_outline():
    """Bench seed 9, proxy Big Sur 393: bs-10 lies alone, whole and in plain view on a teal cloth
    dotted with the blue of its ocean art. The patterned cloth's colour mask kept three strips of
    its print, none enough to be completed into a card, and no place was cut there: the card was
    not found at all. What its outline encloses is followed as a grown fragment is, and it is
    counted; the rounds of the cloth's dots, the size of a landmark where a few touch, are no card
    and no "?"."""
    pack, frame, truth = bench_scene("bigsur", 393, seed=9)
    (card,) = [t for t in truth.items if t.id == "bs-10"]
    obs = scan(frame, "bigsur", pack=pack)
    assert [it.id for it in obs.items if near(it.center_mm, card.center_mm, 10)] == ["bs-10"]
    for dots in ((124, 540), (920, 559)):
        assert not any(near(u.center_mm, dots, 30) for u in obs.unknowns + obs.unsure), dots
    check_against_truth(obs, truth, recall=0.0)


def test_rows_on_a_check_are_found_by_the_edges_its_lattice_does_not_explain():
    """Bench seed 9, proxy Big Sur 297: a row of three cards and three landmark tiles on a lime,
    grey and purple check. The cards' text bands and the tiles' pale faces are near the check's
    lime squares in colour, and each card matched the next one a period of the check along: the
    mask kept only the row's art and specks of the tiles, shown as unknowns, and none of the six
    was found. The check's edges are all its stripes' sides, each one step of its lattice from the
    next; the cards' sides and print are not: with those edges the six are found and read."""
    pack, frame, truth = bench_scene("bigsur", 297, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    middle = [t for t in truth.items if 380 < t.center_mm[0] < 620 and 280 < t.center_mm[1] < 450]
    assert len(middle) == 6
    for t in middle:
        assert [it.id for it in obs.items if near(it.center_mm, t.center_mm, 10)] == [t.id], t
    check_against_truth(obs, truth)


def test_a_row_of_the_dotted_cloths_colours_is_found_by_its_outline():
    """Bench seed 9, proxy Big Sur 296: a seat's row of five cards edge to edge, turned across the
    table, on a cream cloth dotted with dark and coloured flecks. The cards' text bands are the
    cloth's cream: the mask kept two strips of their print, each shown as something not of the
    pack, and none of the five was found. Their outline encloses the whole row (with the flecks
    that touch it, taken off): followed as the clean grid of cards it is, every card is read."""
    pack, frame, truth = bench_scene("bigsur", 296, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    row = [t for t in truth.items if t.center_mm[0] < 120]
    assert len(row) == 5
    for t in row:
        assert [it.id for it in obs.items if near(it.center_mm, t.center_mm, 10)] == [t.id], t
    check_against_truth(obs, truth)


@pytest.mark.parametrize("i,cards", [(245, ("bs-03", "bs-08", "bs-46")), (9, ("bs-13", "bs-29"))])
def test_a_ragged_region_no_card_fits_is_traced_by_its_outline(i, cards):
    """Bench seed 9, proxy Big Sur 245: a seat's column of three cards edge to edge on green felt,
    two of them forest cards whose green is nearly the felt's. The mask left a ragged region of
    92 x 193 mm that no card fits, shown as something not card-shaped, and none of the three was
    found, in a clean, sharp frame. The outline round it encloses the three cards: split as the
    recogniser must confirm, each is read. Proxy Big Sur 9: two forest cards side by side on
    green felt, of whose 130 x 91 mm the mask held only the frames, the road and the labels, 42 %:
    their outline encloses 2.4 times the region (detect.TRACE_MOST)."""
    pack, frame, truth = bench_scene("bigsur", i, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    for cid in cards:
        (t,) = [t for t in truth.items if t.id == cid]
        assert [it.id for it in obs.items if near(it.center_mm, t.center_mm, 10)] == [cid], cid
    # (no "?" but on what is not a card: a foreign card beside the rows of scene 9)
    on_things = [any(near(u.center_mm, d.center_mm, 10) for d in truth.distractors) for u in obs.unknowns]
    assert all(on_things), obs.unknowns
    check_against_truth(obs, truth)


def test_the_cards_beside_an_arm_are_read_in_each_size_their_part_splits_into():
    """Bench seed 9, proxy Big Sur 288: a forearm crosses the left card of a seat's row (turned to
    face its seat across the table) and joins it to the row below. The part of the row the arm
    leaves, three cards, fit a lattice of landmark tiles (50 mm) better than a row of cards, and
    only that split was read beside the arm: bs-61, bs-45 and bs-88, the last two in plain view,
    were not found. Its best split into cards is read there too, after the first."""
    pack, frame, truth = bench_scene("bigsur", 288, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    for cid in ("bs-61", "bs-45", "bs-88"):
        (t,) = [t for t in truth.items if t.id == cid]
        assert [it.id for it in obs.items if near(it.center_mm, t.center_mm, 10)] == [cid], cid
    check_against_truth(obs, truth)


def test_the_outline_of_dots_a_piece_stands_on_is_no_place_to_report():
    """Bench seed 9, proxy Monster Highway 46: clusters of the cloth's dots, each enclosed by its
    outline and the size of a tile, read as no card. On a Monster Highway board a grown place
    with a piece on it is kept (the Monster stands so); a place found by its outline alone is the
    cloth's dots, and a dot is a piece too: no "?" there (one was shown 21 mm from the second
    before outlines were followed, and stays)."""
    pack, frame, truth = bench_scene("monsterhighway", 46, seed=9)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert not any(near(u.center_mm, (685, 265), 30) for u in obs.unknowns)
    assert len([u for u in obs.unknowns if near(u.center_mm, (780, 380), 40)]) == 1, obs.unknowns
    check_against_truth(obs, truth)


def test_a_fleck_of_a_cloth_grown_into_its_pattern_is_not_reported():
    """Flecks of a textured cloth that the fragment rule (detect._completed) grew into card-sized
    places where no card lies (proxy Big Sur 24 of bench seed 1: at about (798, 384) and (949, 646)
    mm, nothing on the table) were drawn as a "?" the players could find nothing under. A grown
    place that reads as no card and is not of an arm's colour is the cloth's (in Big Sur a
    piece found on it, here a fleck, is no reason to keep it). The phones lying there keep their
    "?"."""
    pack, frame, truth = bench_scene("bigsur", 24, seed=1)
    obs = scan(frame, "bigsur", pack=pack)
    for fleck in ((798, 384), (949, 646)):
        assert not any(near(u.center_mm, fleck, 40) for u in obs.unknowns), obs.unknowns
    assert truth.distractors
    for d in truth.distractors:
        assert any(near(u.center_mm, d.center_mm, 0.5 * max(d.size_mm)) for u in obs.unknowns), d
    check_against_truth(obs, truth)


@pytest.mark.parametrize("game,grown,piece,arm,left_out", [
    ("bigsur", True, False, False, True),
    ("bigsur", False, False, False, False),  # not grown: an object's, reported
    ("bigsur", True, True, False, True),  # a fleck found as a piece is no reason
    ("monsterhighway", True, False, False, True),
    ("monsterhighway", True, True, False, False),  # the Monster may stand there
    ("bigsur", True, False, True, False),  # an arm's colour: reported, named as the arm
])
def test_which_grown_places_read_as_no_card_are_the_cloths(game, grown, piece, arm, left_out):
    import cv2

    from vision import detect, hand
    from vision.scan import _grown_from_cloth

    ppm = detect.DETECT_PX_PER_MM
    top = np.full((round(700 * ppm), round(1000 * ppm), 3), (90, 110, 130), np.uint8)
    skin = (120, 150, 200)
    cv2.rectangle(top, (round(470 * ppm), round(256 * ppm)), (round(530 * ppm), round(344 * ppm)), skin, -1)
    place = detect.Region((500.0, 300.0), (63.0, 88.0), 90.0, 63.0 * 88.0, skin, 7, grown=grown)
    on_it = detect.Region((505.0, 310.0), (20.0, 20.0), 0.0, 400.0, (0, 0, 200), 8)
    lab = cv2.cvtColor(np.uint8([[skin]]), cv2.COLOR_BGR2LAB)[0, 0]
    det = detect.Detection([], [], [on_it] if piece else [], {7: place}, top, np.zeros(top.shape[:2], np.uint8),
                           px_per_mm=ppm, arms=[hand.Arm(tuple(float(v) for v in lab), (2.0, 2.0, 2.0), 80.0)] if arm else [])
    assert _grown_from_cloth(det, place, game) is left_out


@pytest.mark.parametrize("game,i,photo,kind", [("bigsur", 8, True, "coaster"), ("highwayman", 16, False, "hand")])
def test_no_card_to_check_is_listed_inside_a_place_shown_as_unknown(game, i, photo, kind):
    """A coaster on the table (photo-like Big Sur 8 of bench seed 1) and a hand reaching over it
    (proxy Highwayman 16) are no card shape: the place is shown as unknown, and the card-sized
    cells guessed in it were read as landmarks or route cards far short of counting (0.47-0.58,
    as chance matches there mostly are: scan.LOOSE_LISTED) and listed for the players to check,
    four guesses on one coaster. The coaster and the hand keep their "?"; no card to check is
    listed inside such a place, and the cards are read."""
    pack, frame, truth = bench_scene(game, i, photo=photo, seed=1)
    obs = scan(frame, game, pack=pack)
    places = [u for u in obs.unknowns if u.reason == "not card-shaped"]
    assert places
    (thing,) = [d for d in truth.distractors if d.kind == kind]
    assert any(near(u.center_mm, thing.center_mm, 0.5 * max(thing.size_mm)) for u in obs.unknowns)
    for it in obs.unsure:
        assert not any(near(it.center_mm, u.center_mm, 0.5 * max(u.size_mm)) and max(u.size_mm) > max(it.size_mm)
                       for u in places), (it, places)
    check_against_truth(obs, truth)


def test_a_card_read_well_inside_a_place_shown_as_unknown_is_still_listed_to_check():
    """A home base joined to a lamp's glare (proxy Monster Highway 21 of bench seed 2) makes a
    place of no card shape, shown as unknown; the tile in it reads right at 0.81, short of
    counting there: it stays listed for the players to check (scan.LOOSE_LISTED), not dropped
    with the chance matches such places hold."""
    pack, frame, truth = bench_scene("monsterhighway", 21, seed=2)
    obs = scan(frame, "monsterhighway", pack=pack)
    (home,) = [t for t in truth.items if t.id == "home-base-nw"]
    assert any(it.id == "home-base-nw" and near(it.center_mm, home.center_mm, 10) for it in obs.unsure + obs.items)
    assert any(near(u.center_mm, home.center_mm, 0.5 * max(u.size_mm)) for u in obs.unknowns)


def test_a_tile_read_short_of_counting_beside_counted_ones_counts():
    """A straight road tile under a sleeve's sheen in a clean board (proxy Monster Highway 50 of
    bench seed 3) reads right at 0.68, short of scan.COUNTED, with counted tiles read 0.85-0.90
    edge to edge with it: a board's tile, not a chance match, so it counts (it was listed for the
    players to check)."""
    pack, frame, truth = bench_scene("monsterhighway", 50, seed=3)
    obs = scan(frame, "monsterhighway", pack=pack)
    (tile,) = [t for t in truth.items if t.id == "road-straight" and near(t.center_mm, (525, 325), 10)]
    assert any(it.id == tile.id and near(it.center_mm, tile.center_mm, 10) for it in obs.items)
    assert not any(near(u.center_mm, tile.center_mm, 10) for u in obs.unsure)
    check_against_truth(obs, truth)


@pytest.mark.parametrize("i", [4, 91])
def test_a_place_partly_over_counted_cards_is_not_counted_as_their_neighbour(i):
    """Photo-like Big Sur of bench seed 3. Scene 4: a place found half over the last card of a row
    and half over the cloth below it reads as another card at 0.68; it lies beside the counted
    card but not edge to edge with it (scan._edge_to_edge). Scene 91: a landmark tile's place over
    the ends of two row cards reads as a landmark at 0.65, edge to edge with the landmark tile
    below it, but the row's counted cards cover most of it (scan.EDGE_OVERLAP). Neither is
    counted: no card is counted where none lies."""
    pack, frame, truth = bench_scene("bigsur", i, photo=True, seed=3)
    obs = scan(frame, "bigsur", pack=pack)
    for it in obs.items:
        assert any(t.id == it.id and near(t.center_mm, it.center_mm, 0.35 * min(t.size_mm)) for t in truth.items), it


def test_a_place_read_turned_off_its_row_under_fingers_is_not_counted_as_the_rows():
    """Bench seed 9, photo-like Big Sur scene 76: fingers over half of a row's card (bs-39), its
    place read turned 8 degrees as another card (bs-70, 0.66), short of COUNTED, was counted for
    lying edge to edge with the counted card below it. A card turned that far off its row lies as
    no row's card does (EDGE_TURN_DEG): it is listed for the players to check instead."""
    pack, frame, truth = bench_scene("bigsur", 76, photo=True, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    (t,) = [t for t in truth.items if t.id == "bs-39"]
    assert not [it for it in obs.items if near(it.center_mm, t.center_mm, 30)]
    assert [u for u in obs.unsure if near(u.center_mm, t.center_mm, 30)]
    for it in obs.items:
        assert any(t.id == it.id and near(t.center_mm, it.center_mm, 0.35 * min(t.size_mm)) for t in truth.items), it


def test_a_place_of_no_print_is_no_card():
    """scan._flat: a place whose lightness barely varies (the cloth, its shading and the camera's
    noise) shows no print; a card's face does, even dim; a place beyond the view is not judged."""
    from vision.observation import Item
    from vision.scan import FLAT_STD, _flat

    rng = np.random.default_rng(3)
    grey = np.clip(rng.normal(120, FLAT_STD * 0.5, (300, 400)), 0, 255).astype(np.uint8)  # a cloth, noisy
    grey[:, :] = np.clip(grey + np.linspace(0, 6, 400)[None, :], 0, 255).astype(np.uint8)  # and shaded
    grey[50:150, 250:320] = np.where(rng.random((100, 70)) < 0.3, 90, 130).astype(np.uint8)  # a dim face's print

    def at(x, y):
        corners = ((x - 31.5, y - 44.0), (x + 31.5, y - 44.0), (x + 31.5, y + 44.0), (x - 31.5, y + 44.0))
        return Item("c", 0.0, (x, y), (63.0, 88.0), 0.8, corners)

    assert _flat(grey, at(100.0, 150.0), 1.0)
    assert not _flat(grey, at(285.0, 100.0), 1.0)
    assert not _flat(grey, at(-200.0, 100.0), 1.0)


def test_a_bare_place_of_the_cloth_beside_a_grid_is_no_card():
    """Bench seed 9, photo-like Roundabout scene 1: the bare place of a purple cloth beside a
    grid, its lightness varying by 3 grey levels, read as ra-08 at 0.82 and counted (a phantom).
    A place of no print (scan.FLAT_STD) is not counted: the reading was listed for the players,
    and as no card's outline is seen there (scan.OUTLINED_SIDES) it is shown as a place unknown."""
    from vision.layout import NOT_IN_PACK

    pack, frame, truth = bench_scene("roundabout", 1, photo=True, seed=9)
    obs = scan(frame, "roundabout", pack=pack)
    bare = (571.7, 274.4)
    assert not [it for it in obs.items + obs.unsure if near(it.center_mm, bare, 20)]
    assert [u for u in obs.unknowns if u.reason == NOT_IN_PACK and near(u.center_mm, bare, 20)]
    for it in obs.items:
        assert any(t.id == it.id and near(t.center_mm, it.center_mm, 0.35 * min(t.size_mm)) for t in truth.items), it


def _cell(x, y, angle=0.0, size=(63.0, 88.0)):
    from vision.detect import Candidate

    return Candidate((x, y), angle, size, 0)


@pytest.mark.parametrize("other,beside", [
    (_cell(64.0, 0.0), True),  # the next card of a row, a 1 mm gap
    (_cell(-63.0, 3.0), True),  # the one before, a little off the line
    (_cell(0.0, 90.0), True),  # the card below in a grid
    (_cell(0.0, 37.0), False),  # half over it
    (_cell(64.0, 88.0), False),  # corner to corner
    (_cell(80.0, 0.0), False),  # a card's width and 17 mm apart
    (_cell(76.0, 0.0, 90.0), True),  # turned a quarter, its long side along the row
    (_cell(64.0, 0.0, 90.0), False),  # turned a quarter: it would lie over the card
    (_cell(64.0, 0.0, 4.0), True),  # a few degrees off its row, as a hand lays cards
    (_cell(64.0, 0.0, 352.0), False),  # turned 8 degrees off the row (EDGE_TURN_DEG)
    (_cell(76.0, 0.0, 98.0), False),  # a quarter and 8 degrees
])
def test_which_cells_lie_edge_to_edge(other, beside):
    from vision.scan import _edge_to_edge

    assert _edge_to_edge(_cell(0.0, 0.0), other) is beside
    assert _edge_to_edge(_cell(100.0, 50.0, 30.0),
                         _turned_about(other, (100.0, 50.0), 30.0)) is beside


def test_a_lattice_card_edge_to_edge_with_a_clear_one_stays_sure():
    """scan._unclear_unsure: a cell of no grid read sure short of WEAK_SURE is listed as unsure,
    unless (with ``row``) it lies edge to edge with a clear card of the same split; a clear card
    beside it that is not edge to edge (corner to corner), or a card short of clear, does not keep
    it; without ``row`` nothing is kept."""
    from vision.identify import Match
    from vision.scan import WEAK_SURE, _unclear_unsure

    def read(cell, status, score):
        return cell, Match(status, "bs-01" if status != "unknown" else None, 0.0, score, 0.3, cell.center_mm)

    clear = read(_cell(0.0, 0.0), "sure", WEAK_SURE + 0.1)
    weak = read(_cell(64.0, 0.0), "sure", WEAK_SURE - 0.1)  # the next card of its row
    corner = read(_cell(64.0, 88.0), "sure", WEAK_SURE - 0.1)  # corner to corner with the clear card
    unsure = read(_cell(-64.0, 0.0), "unsure", 0.6)
    got = dict((c.center_mm, m.status) for c, m in _unclear_unsure([clear, weak, corner, unsure], row=True))
    assert got == {(0.0, 0.0): "sure", (64.0, 0.0): "sure", (64.0, 88.0): "unsure", (-64.0, 0.0): "unsure"}
    assert [m.status for _, m in _unclear_unsure([clear, weak, corner, unsure])] == ["sure", "unsure", "unsure", "unsure"]
    # a neighbour short of clear keeps nothing (two weak cards side by side are no clear row)
    other = read(_cell(128.0, 0.0), "sure", WEAK_SURE - 0.05)
    assert [m.status for _, m in _unclear_unsure([weak, other], row=True)] == ["unsure", "unsure"]


@pytest.mark.parametrize("i,card", [(160, "bs-67"), (329, "bs-36"), (336, "bs-54")])
def test_a_row_card_under_a_lamp_spot_joined_to_its_row_counts(i, card):
    """Bench seed 9, photo-like Big Sur: a lamp's spot on a row joins it in one region whose grid
    reads more places unsure than sure; the lattice anchored on the region's corners reads the
    card under the spot right at 0.66-0.76, its neighbours at 0.84-0.96. It was listed to check (a
    cell of no grid counts only from WEAK_SURE); edge to edge with a clear card of the lattice it
    is a row's card and counts. Every counted card is right."""
    pack, frame, truth = bench_scene("bigsur", i, photo=True, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    (t,) = [t for t in truth.items if t.id == card]
    assert [it for it in obs.items if it.id == card and near(it.center_mm, t.center_mm, 20)]
    assert not [u for u in obs.unsure if near(u.center_mm, t.center_mm, 30)]
    for it in obs.items:
        assert any(t.id == it.id and near(t.center_mm, it.center_mm, 0.35 * min(t.size_mm)) for t in truth.items), it


def test_a_split_read_sure_only_weakly_gives_way_to_a_clear_one():
    """scan._settle: a region's first split read sure throughout, but short of a clear score
    (WEAK_SURE), is not taken as settled: its other splits are read, and the place goes to the best
    reading (one cell across two weak halves). A split read sure clearly throughout needs no
    other: the alternatives are not read at all."""
    from vision.identify import Match
    from vision.scan import WEAK_SURE, _settle

    upper, lower, whole = _cell(100.0, 80.0, 90.0), _cell(100.0, 130.0, 90.0), _cell(100.0, 105.0)
    answers = {whole.center_mm: ("hm-dover-2", 0.95)}
    looked = []

    def look_all(cells):
        looked.extend(c.center_mm for c in cells)
        return [(c, Match("sure", answers[c.center_mm][0], 0.0, answers[c.center_mm][1], 0.3, c.center_mm))
                for c in cells]

    def read(cell, cid, score):
        return cell, Match("sure", cid, 0.0, score, 0.1, cell.center_mm)

    def settle(first):
        return _settle(first, [[whole]], lambda taken: [], lambda cells: list(cells), look_all)

    weak = [read(upper, "hm-bath-london", WEAK_SURE - 0.13), read(lower, "hm-bath-london", WEAK_SURE - 0.18)]
    got = settle(weak)
    assert [(c.center_mm, m.id) for c, m in got if m.status == "sure"] == [(whole.center_mm, "hm-dover-2")]
    looked.clear()
    clear = [read(upper, "hm-bath-london", WEAK_SURE + 0.1), read(lower, "hm-bath-1", WEAK_SURE + 0.05)]
    assert settle(clear) == clear and looked == []


def test_a_pile_split_across_its_top_card_is_read_whole():
    """Bench seed 9, proxy Highwayman 431 (a clean scene: red cloth, no lamp, no hand): the Dover
    pile's region, 72 x 102 mm with the cards under the top one showing, was split across the top
    card into two cells, each read sure as hm-bath-london at 0.62-0.67; the split of one cell
    (hm-dover-2, 0.95) was never read, and the top card was shown as two "?". It is counted."""
    pack, frame, truth = bench_scene("highwayman", 431, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    (top,) = [t for t in truth.items if t.id == "hm-dover-2"]
    assert [it for it in obs.items if it.id == "hm-dover-2" and near(it.center_mm, top.center_mm, 15)]
    assert not [u for u in obs.unknowns if near(u.center_mm, top.center_mm, 40)]
    for it in obs.items:
        assert any(t.id == it.id and near(t.center_mm, it.center_mm, 0.35 * min(t.size_mm)) for t in truth.items), it


@pytest.mark.parametrize("i,top_id,at", [
    # a Bow Street Runner, red on a red cloth, offset 12 mm down the Holyhead pile: its region
    # (105 x 69 mm) the pile's coloured edges and the card's figure; its grid's cell 35 mm off
    (201, "hm-runner", (414, 377)),
    # hm-holyhead-4 on wood, the pile spread 80 x 101 mm: split into two cards lying across it
    (413, "hm-holyhead-4", (415, 338)),
])
def test_a_piles_top_card_is_read_in_a_corner_of_the_piles_region(i, top_id, at):
    """Bench seed 9, proxy Highwayman (no hand, no lamp): a pile's top card that no split of its
    region placed within the recogniser's slack was reported as "not a card of this pack". It lies
    in a corner of the region, where it is read clearly, and is counted."""
    pack, frame, truth = bench_scene("highwayman", i, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    (top,) = [t for t in truth.items if t.id == top_id and t.occluded == 0 and near(t.center_mm, at, 3)]
    assert [it for it in obs.items if it.id == top_id and near(it.center_mm, top.center_mm, 10)]
    assert not [u for u in obs.unknowns if near(u.center_mm, top.center_mm, 40)]
    for it in obs.items:
        assert any(t.id == it.id and near(t.center_mm, it.center_mm, 0.35 * min(t.size_mm)) for t in truth.items), it


def test_a_piles_top_card_read_in_a_corner_short_of_counting_is_listed_there():
    """Bench seed 9, proxy Highwayman 79: hm-exeter-1 on a dim red cloth, on top of the Exeter pile.
    No split of the pile's region reads it; in the region's corners it reads 0.84 sure, short of
    what a cell of no grid counts from (scan.LOOSE_COUNTED). It was shown as two places "not a card
    of this pack" 17 and 22 mm off it. It is listed for the players to check, as that card, where
    it lies, and nothing else is shown over it (scan._pile_top)."""
    pack, frame, truth = bench_scene("highwayman", 79, seed=9)
    obs = scan(frame, "highwayman", pack=pack)
    (top,) = [t for t in truth.items if t.id == "hm-exeter-1"]
    assert [it for it in obs.unsure if it.id == "hm-exeter-1" and near(it.center_mm, top.center_mm, 5)]
    assert not [u for u in obs.unknowns if near(u.center_mm, top.center_mm, 40)]
    assert not [it for it in obs.items if near(it.center_mm, top.center_mm, 40)]


def _turned_about(c, at, degrees):
    """Cell c (laid about the origin) turned clockwise by `degrees` and moved to `at`."""
    t = np.radians(degrees)
    x, y = c.center_mm
    return dataclasses.replace(c, center_mm=(at[0] + x * np.cos(t) - y * np.sin(t), at[1] + x * np.sin(t) + y * np.cos(t)),
                               angle_deg=c.angle_deg + degrees)


def test_cards_to_check_along_an_arm_are_shown_as_the_arm():
    """An arm reaching from the table's top edge to a hand over a construction card (proxy
    Highways & Byways 27 of bench seed 1) was cut into card places read as byway cards at
    0.59-0.83 (one of them twice) and listed to check: "0 cards, 7 unsure". Those places are the
    arm's colour, joined through it to the table's edge: they are shown as the arm (with the
    advice to lift it), not as cards to check. A cork coaster of about the arm's colour lying
    apart is not named the arm."""
    from vision.observation import ARM

    pack, frame, truth = bench_scene("highwaysbyways", 27, seed=1)
    obs = scan(frame, "highwaysbyways", pack=pack)
    (h,) = [d for d in truth.distractors if d.kind == "hand"]

    def on_the_arm(p):  # the hand's box and what lies above it, up to the table's top edge
        return abs(p[0] - h.center_mm[0]) < 0.5 * h.size_mm[0] and p[1] < h.center_mm[1] + 0.5 * h.size_mm[1] + 10

    assert not [u for u in obs.unsure if on_the_arm(u.center_mm)]
    assert len([u for u in obs.unknowns if u.reason == ARM and on_the_arm(u.center_mm)]) >= 3
    assert any(w.startswith("a hand or an arm reaches over the table") for w in obs.warnings)
    (coaster,) = [d for d in truth.distractors if d.kind == "coaster"]
    assert not any(u.reason == ARM and near(u.center_mm, coaster.center_mm, 0.5 * max(coaster.size_mm))
                   for u in obs.unknowns)
    assert not obs.items  # the one card lies 62 % under the hand


def test_an_arm_in_a_lamps_light_is_still_the_arm():
    """An arm crossing the right edge where a lamp's spot lights it (photo-like Highwayman 14 of
    bench seed 1): without the spot's light it is still far from the wood's colour, so it is an
    arm (hand.LAMP_SHARE), the players are told to lift it, and the guesses along it are shown as
    the arm, not as cards to check. A test by the spot's distance alone had lost the arm."""
    from vision.observation import ARM

    pack, frame, truth = bench_scene("highwayman", 14, photo=True, seed=1)
    obs = scan(frame, "highwayman", pack=pack)
    (h,) = [d for d in truth.distractors if d.kind == "hand"]
    assert any(w.startswith("a hand or an arm reaches over the table") for w in obs.warnings)
    assert len([u for u in obs.unknowns if u.reason == ARM]) >= 3
    assert not any(near(u.center_mm, h.center_mm, max(h.size_mm)) for u in obs.unsure)
    assert len(obs.items) == 4  # the four cards left of the hand still count


def test_a_lamps_spot_driven_to_white_at_the_tables_edge_is_no_arm():
    """A lamp's spot crossing the top edge, driven to white (proxy Highways & Byways 14 of bench
    seed 3): no light can be taken out of white, so only its whiteness says it is the lamp's
    (hand.LAMP_SHARE). No hand lies on that table: none is warned of, and no place is named the
    arm; the four guesses on the white stay listed to check."""
    from vision.observation import ARM

    pack, frame, truth = bench_scene("highwaysbyways", 14, photo=False, seed=3)
    assert not [d for d in truth.distractors if d.kind == "hand"]
    obs = scan(frame, "highwaysbyways", pack=pack)
    assert not any(w.startswith("a hand or an arm reaches over the table") for w in obs.warnings)
    assert not any(u.reason == ARM for u in obs.unknowns)


def test_guesses_on_a_lamps_spot_at_the_tables_edge_are_not_named_the_arm():
    """A lamp's spot crossing the table's top edge (photo-like Monster Highway 12 of bench seed 2)
    passes for an arm (vision.hand.arms finds its colour crossing the edge); three card places on
    it were guessed as Monster cards at 0.56-0.58 and listed to check. They are not named the arm,
    nor are unknown places there: without the spot's light that run is the cloth's colour, so it
    is no arm (hand.LAMP_SHARE). The hand at the right edge is still shown."""
    from vision.observation import ARM

    pack, frame, truth = bench_scene("monsterhighway", 12, photo=True, seed=2)
    obs = scan(frame, "monsterhighway", pack=pack)
    spot = [(396, 53), (430, 59), (378, 116)]
    assert not any(u.reason == ARM and near(u.center_mm, p, 10) for u in obs.unknowns for p in spot)
    # the spot's centre lies at about (455, 77) mm, 71 mm wide (sigma)
    assert not any(u.reason == ARM and near(u.center_mm, (455, 77), 150) for u in obs.unknowns)
    (h,) = [d for d in truth.distractors if d.kind == "hand"]
    assert any(u.reason == ARM and near(u.center_mm, h.center_mm, 0.5 * max(h.size_mm)) for u in obs.unknowns)


def test_a_cloth_with_few_dots_shows_no_unknown_on_most_of_its_dots():
    """Bench seed 9, proxy Monster Highway 169: a board on a lavender cloth with green dots over
    about an eighth of it. The cloth's spread was the plain ground's, so it passed for a plain
    cloth, every dot was foreground, and 23 places where nothing lies were shown as unknown. Read
    as the dotted cloth it is (vision.detect._dotted), its green is one of its colours."""
    pack, frame, truth = bench_scene("monsterhighway", 169, seed=9)
    obs = scan(frame, "monsterhighway", pack=pack)
    things = [t.center_mm for t in truth.items] + [d.center_mm for d in truth.distractors] + \
        [p.center_mm for p in truth.pieces]
    stray = [u for u in obs.unknowns if not any(near(u.center_mm, c, 60) for c in things)]
    assert len(stray) <= 12, [u.center_mm for u in stray]
    check_against_truth(obs, truth)


def test_the_cloth_the_mask_holds_at_the_edge_warns_of_no_hand():
    """Bench seed 9, proxy Highwayman 119: no hand on the table, but along the bottom and left
    edges the dotted cloth's mask held the pale cloth itself, of one colour and reaching in: two
    "arms" of the cloth's colour, six places named "a hand or an arm" and the players told to
    lift it. An arm of the colour of the cloth beside it in the band is the cloth
    (vision.hand.CLOTH_NEAR_MM)."""
    from vision.observation import ARM

    pack, frame, truth = bench_scene("highwayman", 119, seed=9)
    assert not any(d.kind == "hand" for d in truth.distractors)
    obs = scan(frame, "highwayman", pack=pack)
    assert [u for u in obs.unknowns if u.reason == ARM] == []
    check_against_truth(obs, truth)


def test_a_guess_where_no_card_outline_is_seen_is_shown_as_what_lies_there():
    """Bench seed 9, proxy Highways & Byways 262: a lamp's glare spot on a check cloth, cut into
    card places, was listed as four byway cards to check (0.56-0.69), where no card lies. A
    listing whose place shows fewer than three sides of a card's outline
    (scan.OUTLINED_SIDES) is no card to check: those four are the glare now. The construction
    card half under a hand, its outline seen, is still listed."""
    from vision.observation import GLARE

    pack, frame, truth = bench_scene("highwaysbyways", 262, seed=9)
    obs = scan(frame, "highwaysbyways", pack=pack)
    (card,) = truth.items
    assert [(u.id, near(u.center_mm, card.center_mm, 10)) for u in obs.unsure] == [(card.id, True)]
    assert sum(u.reason == GLARE for u in obs.unknowns) >= 4
    check_against_truth(obs, truth)


def test_an_arm_whose_shadow_joins_it_at_the_edge_is_still_the_arm():
    """Bench seed 9, photo-like Highways & Byways 288: a forearm reaching in over a dark dotted
    cloth. Read as the dotted cloth it is, the arm's soft shadow beside it is foreground too, so
    where the arm crosses the table's edge the run is 88 mm of skin and 14 of shadow, not of one
    colour: no arm was found, and a card was counted on the bare forearm. The stretch of the run
    that is of one colour and goes on into the table is the arm (vision.hand._stretches)."""
    from vision.observation import ARM

    pack, frame, truth = bench_scene("highwaysbyways", 288, photo=True, seed=9)
    obs = scan(frame, "highwaysbyways", pack=pack)
    assert obs.items == []
    (hand,) = [d for d in truth.distractors if d.kind == "hand"]
    assert any(u.reason == ARM and near(u.center_mm, hand.center_mm, 100) for u in obs.unknowns)


@pytest.mark.parametrize("game,i,cards", [
    ("monsterhighway", 64, [("road-cross", (525, 425)), ("road-curve", (475, 425)), ("road-straight", (575, 375)),
                            ("road-straight", (525, 275))]),
    ("monsterhighway", 60, [("road-straight", (475, 325))]), ("bigsur", 64, [("bs-material-concrete", (341, 325))])])
def test_cards_in_glossy_sleeves_count(game, i, cards):
    """Bench seed 9, proxy pack: cards in glossy sleeves, whose sheen (a band of +12 % towards
    white along a diagonal) left their whole faces read sure but at 0.65-0.79, short of what their
    regions count from: Monster Highway 64's four tiles and 60's straight road, and Big Sur 64's
    concrete material, were listed for the players to check. Read again with the lightness
    flattened (identify(flat=True)), each names the same card more clearly (0.80-0.88, 0.21-0.57
    ahead), and counts."""
    pack, frame, truth = bench_scene(game, i, seed=9)
    obs = scan(frame, game, pack=pack)
    check_against_truth(obs, truth)
    for cid, at in cards:
        assert any(it.id == cid and near(it.center_mm, at, 10) for it in obs.items), (cid, at)
        assert not any(near(u.center_mm, at, 10) for u in obs.unsure), (cid, at)


@pytest.mark.parametrize("i", [300, 357, 421, 226])
def test_ground_zero_is_read_on_the_boards_centre(i):
    """Ground Zero, grey on a grey cloth (bench seed 9, proxy Monster Highway 300, 357, 421) or
    under a hand's edge on wood (226): the mask left it bare but for its yellow sign, and no
    counted tile lay beside it to grow from (the Monster or a hand over its one neighbour), so
    nothing at all was shown where it lies. The rulebook puts it on the board's centre, midway
    between the home bases in the corners: read there, it counts."""
    pack, frame, truth = bench_scene("monsterhighway", i, seed=9)
    obs = scan(frame, "monsterhighway", pack=pack)
    (zero,) = [t for t in truth.items if t.id == "ground-zero"]
    assert any(it.id == "ground-zero" and near(it.center_mm, zero.center_mm, 5) for it in obs.items)
    check_against_truth(obs, truth, recall=0.7)


def _centre_read(homes, reads, cell=50.0, known=()):
    """vision.scan._at_the_centre on counted home bases at `homes` (and readings `known`), its
    first looks answered by `reads` (a place's centre -> (id, score)); returns what it counted
    and the places it looked at."""
    import sys
    from types import SimpleNamespace

    from vision.detect import Candidate
    from vision.identify import Match

    def read(c, cid, score, status="sure"):
        return Candidate(c, 0.0, (cell, cell), 1), Match(status, cid, 0.0, score, 0.3, c, 4)

    found = [read(at, f"home-base-{k}", 0.95) for k, at in enumerate(homes)] + [read(*k) for k in known]
    catalog = {**{f"home-base-{k}": {"kind": "home base"} for k in range(4)}, "ground-zero": {"kind": "ground zero"},
               "road-straight": {"kind": "road tile"}}
    looked = []

    def first_look(cells):
        looked.extend(c.center_mm for c in cells)
        out = []
        for c in cells:
            got = [v for at, v in reads.items() if near(at, c.center_mm, 1)]
            cid, score = got[0] if got else (None, 0.2)
            out.append(Match("sure" if cid else "unknown", cid, 0.0, score, 0.3, c.center_mm, 4))
        return out

    det = SimpleNamespace(edges=None, pieces=[], px_per_mm=1.0)
    scan_module = sys.modules["vision.scan"]  # (the package's `scan` is the function)
    got = scan_module._at_the_centre({1: found}, det, lambda c, m=None: (c, m), first_look, None,
                                     "monsterhighway", catalog)
    return [(m.id, m.center_mm) for _, m in got], looked


def test_the_centre_is_the_four_cells_around_the_midpoint_of_an_even_board_and_the_cell_on_it_of_an_odd_one():
    homes = [(75.0, 75.0), (925.0, 75.0), (75.0, 625.0), (925.0, 625.0)]  # 18 x 12 cells apart: even
    got, looked = _centre_read(homes, {(525.0, 375.0): ("ground-zero", 0.9)})
    assert got == [("ground-zero", (525.0, 375.0))]
    assert sorted(looked) == [(475.0, 325.0), (475.0, 375.0), (525.0, 325.0), (525.0, 375.0)]
    homes = [(75.0, 75.0), (475.0, 75.0), (75.0, 475.0), (475.0, 475.0)]  # 8 x 8 cells apart: odd
    got, looked = _centre_read(homes[::3], {(275.0, 275.0): ("ground-zero", 0.9)})
    assert got == [("ground-zero", (275.0, 275.0))] and looked == [(275.0, 275.0)]


@pytest.mark.parametrize("homes,reads,known", [
    # two home bases on one side of the board: their midpoint is its edge, not its centre
    ([(75.0, 75.0), (925.0, 75.0)], {(500.0, 75.0): ("ground-zero", 0.9)}, ()),
    # another tile read there: the rule says only where Ground Zero lies
    ([(75.0, 75.0), (925.0, 625.0)], {(525.0, 375.0): ("road-straight", 0.95)}, ()),
    # Ground Zero read short of a grid's card (vision.scan.COUNTED)
    ([(75.0, 75.0), (925.0, 625.0)], {(525.0, 375.0): ("ground-zero", 0.65)}, ()),
    # Ground Zero read already (listed to check elsewhere): its place is not guessed again
    ([(75.0, 75.0), (925.0, 625.0)], {(525.0, 375.0): ("ground-zero", 0.9)},
     [((300.0, 300.0), "ground-zero", 0.6, "unsure")]),
])
def test_nothing_is_counted_at_the_centre_without_opposite_home_bases_or_a_clear_ground_zero(homes, reads, known):
    got, _ = _centre_read(homes, reads, known=known)
    assert got == []


def test_a_tile_joined_to_a_lamps_faint_halo_is_not_dropped_as_shade():
    """A red home base on a blue cloth under a lamp's halo (bench seed 9, proxy Monster Highway
    292): the halo's faint edge joined it to the table's corner, a region 2.6 tiles in area whose
    median strength was the halo's (1.23, under vision.detect.FAINT), and the whole region was
    dropped as shade with the tile in it: nothing was shown there. Its strong part, the tile, is
    split as a region of its own (vision.detect._strong_core)."""
    pack, frame, truth = bench_scene("monsterhighway", 292, seed=9)
    obs = scan(frame, "monsterhighway", pack=pack)
    (home,) = [t for t in truth.items if t.id == "home-base-nw"]
    assert any(it.id == "home-base-nw" and near(it.center_mm, home.center_mm, 5) for it in obs.items)


def test_a_lamps_white_core_in_its_halo_is_no_card_and_no_unknown():
    """Photo-like Big Sur 83 (bench seed 9): a lamp's halo on green felt, its white core 0.66 of a
    landmark tile at a median strength of 1.74. Taken for a card in a faint region (as the rule
    for a tile in a halo was first tried: half a card, no strength asked), it was shown as a "?"
    where nothing lies. A faint region's strong part must be a card in size and as strong as a
    piece (vision.detect._strong_core)."""
    pack, frame, truth = bench_scene("bigsur", 83, photo=True, seed=9)
    obs = scan(frame, "bigsur", pack=pack)
    assert not any(near(u.center_mm, (496.0, 486.0), 30) for u in obs.unknowns), obs.unknowns
    check_against_truth(obs, truth, recall=0.95)
