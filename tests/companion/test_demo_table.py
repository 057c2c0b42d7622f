"""The demo's rendered Roundabout table: cards stay where they were laid, cars wear their seats'
colours, and the recogniser names those colours."""

from __future__ import annotations

import random

import pytest

from companion.session import COLOURS
from companion.session.demo import _grid_shift, roundabout_scene
from rules import registry
from rules.playout import chooser_for, random_step

pytest.importorskip("vision.synth")


@pytest.mark.parametrize("low, high, reach, shift", [
    (0, 0, 6, 0.0), (-6, 6, 6, 0.0), (-8, 1, 6, 2.0), (-1, 9, 6, -3.0), (-6, 11, 6, -2.5), (-2, 3, 4, 0.0)])
def test_the_grid_moves_only_when_it_would_leave_the_table(low, high, reach, shift):
    assert _grid_shift(low, high, reach) == shift


@pytest.mark.skipif("roundabout" not in registry.available(), reason="no Roundabout engine")
def test_cards_laid_earlier_keep_their_places_as_the_grid_grows():
    """Players never slide the cards already down: a card or car at a new column or row of the grid
    leaves every other card where it lay (until the grid reaches the table's edge)."""
    from vision.pack import proxy_pack

    pack = proxy_pack("roundabout")
    game = registry.game_class("roundabout")(["Ana", "Ben", "Cleo"], seed=4)
    rng = random.Random(4)
    choose = chooser_for(game)
    checked = 0
    before: dict[tuple[int, int], tuple[float, float]] = {}
    for _ in range(300):
        if game.is_game_over():
            break
        if not game.is_chance_node():
            placements = roundabout_scene(game, pack).placements  # in the order of their cells
            now = dict(zip(sorted(game.state.layout), (p.center_mm for p in placements), strict=True))
            cells = list(game.state.layout) + list(game.state.cars)
            xs, ys = [c[0] for c in cells], [c[1] for c in cells]
            fits = not cells or (min(xs) >= -6 and max(xs) <= 6 and min(ys) >= -4 and max(ys) <= 4)
            if fits:
                assert all(now[c] == before[c] for c in before), game.actions[-1]
                checked += 1
            before = now if fits else {}
        game.push(random_step(game, rng, choose))
    assert checked > 20


@pytest.mark.skipif("roundabout" not in registry.available(), reason="no Roundabout engine")
def test_each_car_is_drawn_in_its_seats_colour_and_read_so():
    """Seat colours beyond the random scenes' (purple, orange) render too, and the recogniser's
    colour words name every seat colour the app hands out."""
    import numpy as np

    from vision.layout import colour_name
    from vision.synth import PIECE_COLORS, Piece, Scene, SceneError, render_scene

    assert set(COLOURS) <= set(PIECE_COLORS)
    for name in COLOURS:
        assert colour_name(PIECE_COLORS[name]) == name
    frame, truth = render_scene(Scene(placements=(), pieces=(Piece("car", (500.0, 350.0), "purple"),),
                                      image_px=(1152, 648)), seed=1)
    x, y = (int(v) for v in truth.project(np.array([[500.0, 350.0]]))[0])
    b, g, r = (int(v) for v in frame[y, x])
    assert r > g + 40 and b > g + 40  # purple, not the grey of an unknown colour
    with pytest.raises(SceneError, match="unknown car colour"):
        render_scene(Scene(placements=(), pieces=(Piece("car", (500.0, 350.0), "pink"),)), seed=1)


@pytest.mark.skipif("roundabout" not in registry.available(), reason="no Roundabout engine")
def test_the_scripted_game_fits_its_table_and_no_card_ever_moves():
    """The demo's scripted Roundabout grid grows to 18 x 13 cards: on the 1000 x 700 table it slid
    (every card "moved") and from turn 56 covered a marker. On the demo's Roundabout table, with
    the first card laid where the whole grid will fit, every card keeps the place it was laid on,
    inside the play area and off the markers' papers in its corners."""
    from companion.session.demo import demo_table_mm, example_record
    from vision.pack import proxy_pack

    pack = proxy_pack("roundabout")
    rec = example_record("roundabout")
    w, h = demo_table_mm("roundabout")
    half = pack.card_size_mm[0] / 2
    paper = 40.0 * 1.7 / 2  # a marker's white paper (vision.synth), about each corner
    game = rec.start()
    laid: dict[tuple[int, int], tuple[float, float]] = {}
    for action in rec.actions:
        game.push(action)
        for cell, p in zip(sorted(game.state.layout), roundabout_scene(game, pack).placements, strict=True):
            x, y = p.center_mm
            assert half <= x <= w - half and half <= y <= h - half, (cell, x, y)
            for cx, cy in ((0, 0), (w, 0), (w, h), (0, h)):
                assert abs(x - cx) >= half + paper or abs(y - cy) >= half + paper, (cell, x, y)
            assert laid.setdefault(cell, (x, y)) == (x, y), cell
    assert len(laid) > 60
