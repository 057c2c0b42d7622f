"""Highwayman at the table: the demo draws each route's pile with its top card showing, and the
real recogniser's picture is read back as the plays made (issue 6). A card laid on a pile hides
the one below; a run hides all but its last card; a Highwayman names its route by its pile."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from companion.reconcile import reconcile
from companion.session import Session
from companion.session.demo import TABLE_SCENES, route_slot, table_kinds
from companion.store import Store
from rules import Action, registry
from rules.playout import chooser_for

pytestmark = pytest.mark.skipif("highwayman" not in registry.available(), reason="no Highwayman engine")


def _play_until(pred, tmp_path, seed=2, limit=600):
    """A session played by the playout chooser (the app draws) until ``pred(game)`` finds
    something; returns (session, found)."""
    s = Session.new(Store(tmp_path / "db.sqlite3"), "highwayman", ["Ana", "Ben", "Cy"], seed=seed,
                    app_draws_all=True, scanner=lambda image, name: image)
    rng = random.Random(seed)
    choose = chooser_for(s.game)
    for _ in range(limit):
        if s.game.is_game_over():
            return None
        found = pred(s.game)
        if found:
            return s, found
        s.apply(choose(s.game, s.game.legal_actions(), rng))
    return None


def _table(game):
    """What the recogniser would report for the demo's picture of ``game``: each pile's top."""
    scene = TABLE_SCENES["highwayman"][0](game, SimpleNamespace(), image_px=(10, 10))
    items = [SimpleNamespace(id=p.card_id, rotation=p.rotation, center_mm=p.center_mm) for p in scene.placements]
    return SimpleNamespace(items=items, layout={}, unsure=[])


def _copy_with(game, *actions):
    copy = registry.game_class("highwayman")(list(game.players), seed=game.seed, options=dict(game.options))
    for a in [*game.actions, *actions]:
        copy.push(a)
    return copy


def _run_of_two(game):
    p = game.state.turn
    if game.is_chance_node() or game.current_player() != p:
        return None
    for route, reached in game.state.reached.items():
        nxt = [game.pack.stage(route, reached + 1), game.pack.stage(route, reached + 2)]
        if reached + 2 <= game.pack.routes[route].stages and all(c in game.state.hands[p] for c in nxt) \
                and Action.of("play", p, card=nxt[0]) in game.legal_actions():
            return [Action.of("play", p, card=c) for c in nxt]
    return None


def test_the_scene_shows_each_started_routes_top_card_in_its_own_place(tmp_path):
    s, _ = _play_until(lambda g: len(g.state.routes) >= 2 and g, tmp_path)
    game = s.game
    scene = TABLE_SCENES["highwayman"][0](game, SimpleNamespace(), image_px=(10, 10))
    tops = {p.card_id: p.center_mm for p in scene.placements}
    assert set(tops) == {pile[-1] for pile in game.state.routes.values() if pile}
    for route, pile in game.state.routes.items():
        assert tops[pile[-1]] == route_slot(game, route)
    assert table_kinds("highwayman") == frozenset({"play"})


def test_a_run_shows_only_its_last_card_and_is_read_as_every_stage_in_order(tmp_path):
    s, run = _play_until(_run_of_two, tmp_path)
    game = s.game
    s.accepted_items = _table(game).items
    after = _copy_with(game, *run)
    picture = _table(after)
    reading = reconcile(game, s.accepted_items, picture)
    assert not reading.problems, reading.problems  # the covered top is under the new one, not gone
    assert reading.candidates[0] == run[0]
    out = s.accept(SimpleNamespace(error=None, observation=picture, image=None, jpeg=b"", annotated=None))
    assert out.ok, out.message
    assert out.recorded[:2] == run
    assert s.game.state.routes == after.state.routes


def test_a_highwayman_is_read_on_the_route_whose_pile_he_covers(tmp_path):
    def ready(g):
        if g.is_chance_node():
            return None
        return next((a for a in g.legal_actions() if a["card"] == "hm-highwayman" if a.kind == "play"), None) \
            if any(a.kind == "play" and a.get("card") == "hm-highwayman" for a in g.legal_actions()) else None

    found = _play_until(ready, tmp_path)
    assert found is not None, "no Highwayman became playable in the playout"
    game, wanted = found[0].game, found[1]
    picture = _table(_copy_with(game, wanted))
    reading = reconcile(game, _table(game).items, picture)
    assert not reading.problems
    assert wanted in reading.candidates
    assert all(a["route"] == wanted["route"] for a in reading.candidates)


def test_a_card_that_vanished_with_nothing_laid_on_it_is_still_reported(tmp_path):
    s, _ = _play_until(lambda g: len(g.state.routes) >= 2 and g, tmp_path)
    game = s.game
    before = _table(game).items
    reading = reconcile(game, before, SimpleNamespace(items=before[1:], layout={}, unsure=[]))
    assert reading.problems and before[0].id in reading.problems[0]


def test_a_stage_the_mover_does_not_hold_gets_the_engines_reason_and_changes_nothing(tmp_path):
    def missing(g):
        if g.is_chance_node() or g.current_player() != g.state.turn:
            return None
        hand = g.state.hands[g.state.turn]
        return next(((r, g.pack.stage(r, n + 1)) for r, n in sorted(g.state.reached.items())
                     if n < g.pack.routes[r].stages and g.pack.stage(r, n + 1) not in hand), None)

    s, (route, wrong) = _play_until(missing, tmp_path)
    game = s.game
    before = list(game.actions)
    s.accepted_items = _table(game).items
    items = [i if i.id != game.state.routes[route][-1] else SimpleNamespace(id=wrong, rotation=0.0,
             center_mm=i.center_mm) for i in s.accepted_items]
    out = s.accept(SimpleNamespace(error=None, observation=SimpleNamespace(items=items, layout={}, unsure=[]),
                                   image=None, jpeg=b"", annotated=None))
    assert not out.ok and "does not hold" in out.message, out.message
    assert s.game.actions == before


def test_the_recogniser_reads_a_rendered_stage_play_as_that_play(tmp_path):
    """End to end: the demo's rendered piles, read by vision.scan, become the play just made."""
    pytest.importorskip("vision.synth")
    from companion.session import vision_scanner
    from companion.session.demo import render_table
    from tests.companion.test_vision_end_turn import camera

    def stage_due(g):
        if g.is_chance_node() or len(g.state.routes) < 2:
            return None
        return next((a for a in g.legal_actions() if a.kind == "play" and a.player == g.state.turn
                     and g.pack[a["card"]].kind == "stage"), None)

    s, wanted = _play_until(stage_due, tmp_path)
    s.scanner = vision_scanner()
    size = (2304, 1296)
    start = s.baseline(s.capture(camera(render_table(s.game.record().to_json(), size)), sleep=lambda t: None))
    assert start.ok, start.message
    after = _copy_with(s.game, wanted)
    out = s.end_turn(camera(render_table(after.record().to_json(), size)), sleep=lambda t: None)
    assert out.ok, out.message
    assert out.recorded[0] == wanted
    assert s.game.state.routes == after.state.routes


def test_highways_and_byways_table_shows_the_construction_card_the_recogniser_reads(tmp_path):
    """H&B: no player action lies on the table as a card (moves are on the map, events stay in
    hand), so no kind is read; the picture shows the current construction slot's card."""
    pytest.importorskip("vision.synth")
    if "highwaysbyways" not in registry.available():
        pytest.skip("no H&B engine")
    from companion.session import vision_scanner
    from companion.session.demo import example_record, render_table
    from tests.companion.test_vision_end_turn import camera

    assert table_kinds("highwaysbyways") == frozenset()
    rec = example_record("highwaysbyways")
    game = registry.game_class("highwaysbyways")(rec.players, seed=rec.seed, options=rec.options)
    for a in rec.actions:
        game.push(a)
        if len(game.state.slots) >= 2:
            break
    assert len(game.state.slots) >= 2
    s = Session.new(Store(tmp_path / "db.sqlite3"), "highwaysbyways", list(rec.players), seed=rec.seed,
                    scanner=vision_scanner())
    image = render_table(game.record().to_json(), (2304, 1296))
    capture = s.capture(camera(image), sleep=lambda t: None)
    assert capture.error is None, capture.error
    assert capture.observation.layout["construction_slot"] == game.state.slots[-1]


def _stage_due(g):
    if g.is_chance_node() or len(g.state.routes) < 2:
        return None
    return next((a for a in g.legal_actions() if a.kind == "play" and a.player == g.state.turn
                 and g.pack[a["card"]].kind == "stage"), None)


def _capture(picture):
    return SimpleNamespace(error=None, observation=picture, image=None, jpeg=b"", annotated=None)


def test_a_play_entered_by_hand_is_expected_on_the_table_not_read_again(tmp_path):
    """The camera missed a play, so it was entered by hand; at the next End turn the card lies
    on its pile. It was refused as 'appeared but no legal play puts it there'; it is the play
    already recorded, and the picture becomes the table to compare with."""
    s, wanted = _play_until(_stage_due, tmp_path)
    s.accepted_items = _table(s.game).items
    s.apply(wanted)  # entered by hand
    before = list(s.game.actions)
    picture = _table(s.game)
    out = s.accept(_capture(picture))
    assert "no legal play" not in out.message, out.message
    assert s.game.actions == before  # nothing recorded twice
    assert [i.id for i in s.accepted_items] == [i.id for i in picture.items]


def test_a_play_entered_by_hand_then_undone_is_read_from_the_table(tmp_path):
    """Entered by hand and taken back: the card on the pile is the play again."""
    s, wanted = _play_until(_stage_due, tmp_path)
    s.accepted_items = _table(s.game).items
    s.apply(wanted)
    after = _copy_with(s.game)
    assert s.undo().ok
    out = s.accept(_capture(_table(after)))
    assert out.ok, out.message
    assert out.recorded[0] == wanted
