"""Highways & Byways: each player's byway checklist with progress (issue 6), from the engine's
own state, followed through the bundled example game."""

from __future__ import annotations

import pytest

from companion.session.demo import example_record
from companion.session.status import byway_checklists, status_lines
from rules import registry

pytestmark = pytest.mark.skipif("highwaysbyways" not in registry.available(), reason="no H&B engine")


def _game_until(pred):
    """The example game replayed action by action until ``pred(game)`` holds."""
    rec = example_record("highwaysbyways")
    assert rec is not None
    game = registry.game_class("highwaysbyways")(rec.players, seed=rec.seed, options=rec.options)
    for action in rec.actions:
        if pred(game):
            return game
        game.push(action)
    return game if pred(game) else None


def test_before_the_draft_every_player_has_an_empty_checklist():
    game = _game_until(lambda g: True)
    lists = byway_checklists(game)
    assert [c.player for c in lists] == list(game.players)
    assert all(c.entries == () and c.summary.endswith("0 of 0 byways driven") for c in lists)


def test_the_checklist_names_every_byway_to_drive_and_each_one_driven():
    game = _game_until(lambda g: g.state.phase == "driving" and any(g.state.driven))
    assert game is not None, "the example game never drives a byway"
    s = game.state
    for c in byway_checklists(game):
        p = c.seat
        assert {e.id for e in c.entries} == set(s.markers[p]) | set(s.driven[p])
        assert c.dropped == len(s.dropped[p])
        for e in c.entries:
            byway = game.cat.byways[e.id]
            assert e.name == byway.name and e.route == byway.spaces and e.colour == byway.color
            assert byway.name in e.label and byway.spaces[0] in e.label and byway.spaces[-1] in e.label
            if e.id in s.driven[p]:
                assert (e.state, e.progress) == ("driven", "driven")
            elif e.id in s.progress[p]:
                assert e.state == "driving" and e.progress == f"driving: {s.progress[p][e.id][1]} of {len(e.route)} spaces"
            else:
                assert (e.state, e.done) == ("to drive", 0)
        assert c.driven == len(s.driven[p])
        assert c.summary == f"{game.players[p]}: {len(s.driven[p])} of {len(s.driven[p]) + len(s.markers[p])} byways driven"
    assert any(c.driven for c in byway_checklists(game))


def test_a_byway_part_way_shows_how_far():
    game = _game_until(lambda g: any(g.state.progress))
    assert game is not None, "the example game never has a byway part-way"
    parts = [e for c in byway_checklists(game) for e in c.entries if e.state == "driving"]
    assert parts and all(0 < e.done < len(e.route) for e in parts)


def test_the_status_line_counts_the_movers_byways_driven():
    game = _game_until(lambda g: g.state.phase == "driving" and g.current_player() is not None
                       and any(g.state.driven))
    mover = game.current_player()
    driven = len(game.state.driven[mover])
    total = driven + len(game.state.markers[mover])
    assert f"{game.players[mover]}: {driven} of {total} byways driven." in " ".join(status_lines(game))


def test_other_games_have_no_byway_checklist():
    for name in registry.available():
        if name != "highwaysbyways":
            rec = example_record(name)
            game = registry.game_class(name)(rec.players, seed=rec.seed, options=rec.options)
            assert byway_checklists(game) == []
