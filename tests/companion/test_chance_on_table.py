"""Cards the app's own random draws put on the table are expected at the next End turn, not
read as plays: Highways & Byways' Construction card (Player 1 draws it into a slot when a round
starts) and a Highwayman LONDON card turned up from the stock (laid face up at once).

The real kiosk, not the demo: the app draws these outcomes itself (neither game reveals them
for the camera), so the only record of them is the chance event; the players then lay the card
where the app said, and the next picture shows it newly.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from companion.reconcile import reconcile, revealed_on_table
from companion.session import Session
from companion.store import Store
from rules import registry
from rules.playout import chooser_for


def _capture(items):
    return SimpleNamespace(error=None, observation=SimpleNamespace(items=items, layout={}, unsure=[]),
                           image=None, jpeg=b"", annotated=None)


def _item(card, at):
    return SimpleNamespace(id=card, rotation=0.0, center_mm=at)


def _hb_table(game):
    """The Construction cards in their slots, left to right along the top of the table."""
    return [_item(card, (120.0 + 110.0 * i, 80.0)) for i, card in enumerate(game.state.slots)]


def _hm_table(game):
    """Each started Highwayman route's pile, only its top card showing, in a row."""
    return [_item(pile[-1], (100.0 + 90.0 * i, 350.0))
            for i, (_route, pile) in enumerate(sorted(game.state.routes.items())) if pile]


def _kiosk(tmp_path, game_name, players, seed):
    """As the kiosk runs it: the app draws only what the game does not reveal on the table."""
    return Session.new(Store(tmp_path / f"{game_name}-{seed}.sqlite3"), game_name, players, seed=seed,
                       app_draws_all=False, scanner=lambda image, name: image)


def _until_app_lays(tmp_path, game_name, players, table, laid, seeds=range(1, 9), limit=1500):
    """Play random legal games until a player's action makes the app draw an outcome that
    ``laid(game, outcome)`` picks: returns the session with the picture from before that action
    accepted, the action's outcome and that picture."""
    for seed in seeds:
        s = _kiosk(tmp_path, game_name, players, seed)
        rng = random.Random(seed)
        choose = chooser_for(s.game)
        for _ in range(limit):
            if s.over:
                break
            before = table(s.game)
            action = choose(s.game, s.game.legal_actions(), rng)
            s.baseline(_capture(before))
            out = s.apply(action)
            if any(laid(s.game, a) for a in out.recorded[1:]):
                return s, out, before
    pytest.fail(f"no {game_name} playout made the app lay a card on the table")


def _construction(game, action):
    return action.kind == "construction"


def _london_from_stock(game, action):
    return action.kind == "drawn" and game.pack[action["card"]].kind == "london"


@pytest.mark.skipif("highwaysbyways" not in registry.available(), reason="no H&B engine")
def test_the_construction_card_the_app_drew_is_expected_at_the_next_end_turn(tmp_path):
    s, out, before = _until_app_lays(tmp_path, "highwaysbyways", ["Ana", "Ben", "Cy"], _hb_table, _construction)
    drawn = next(a for a in out.recorded if a.kind == "construction")
    actions = list(s.game.actions)
    picture = _hb_table(s.game)
    assert drawn["card"] in [i.id for i in picture] and drawn["card"] not in [i.id for i in before]
    result = s.accept(_capture(picture))
    assert "appeared" not in result.message, result.message
    assert not result.ok and result.message.startswith("Nothing new"), result.message
    assert s.game.actions == actions  # nothing read as a play
    # The picture with the card in its slot is now the table compared with.
    assert drawn["card"] in [i.id for i in s.accepted_items]


@pytest.mark.skipif("highwayman" not in registry.available(), reason="no Highwayman engine")
def test_a_london_card_the_stock_turned_up_is_expected_at_the_next_end_turn(tmp_path):
    s, out, before = _until_app_lays(tmp_path, "highwayman", ["Ana", "Ben", "Cy"], _hm_table, _london_from_stock)
    drawn = next(a for a in out.recorded if _london_from_stock(s.game, a))
    actions = list(s.game.actions)
    picture = _hm_table(s.game)
    assert drawn["card"] in [i.id for i in picture] and drawn["card"] not in [i.id for i in before]
    result = s.accept(_capture(picture))
    assert "appeared" not in result.message, result.message
    assert not result.ok and result.message.startswith("Nothing new"), result.message
    assert s.game.actions == actions
    assert drawn["card"] in [i.id for i in s.accepted_items]


@pytest.mark.skipif("highwaysbyways" not in registry.available(), reason="no H&B engine")
def test_only_as_many_cards_as_the_draws_laid_are_expected(tmp_path):
    """One Construction card drawn explains one sighting of it: a second one, or another card,
    that no draw laid there is still reported."""
    s, out, before = _until_app_lays(tmp_path, "highwaysbyways", ["Ana", "Ben", "Cy"], _hb_table, _construction)
    drawn = next(a for a in out.recorded if a.kind == "construction")
    assert revealed_on_table(s.game, out.recorded) == [drawn["card"]]
    picture = [*_hb_table(s.game), _item(drawn["card"], (600.0, 500.0))]
    reading = reconcile(s.game, before, SimpleNamespace(items=picture), revealed=[drawn["card"]])
    assert [x.id for x in reading.diff.expected] == [drawn["card"]]
    assert [x.id for x in reading.diff.added] == [drawn["card"]]
    actions = list(s.game.actions)
    result = s.accept(_capture(picture))
    assert not result.ok and "appeared but no legal play" in result.message, result.message
    assert s.game.actions == actions


@pytest.mark.skipif("highwayman" not in registry.available(), reason="no Highwayman engine")
def test_a_card_drawn_into_a_hand_is_not_expected_on_the_table(tmp_path):
    def stage_from_stock(game, action):
        return action.kind == "drawn" and game.pack[action["card"]].kind == "stage"

    s, out, _before = _until_app_lays(tmp_path, "highwayman", ["Ana", "Ben", "Cy"], _hm_table, stage_from_stock)
    assert revealed_on_table(s.game, out.recorded) == []


@pytest.mark.skipif("highwaysbyways" not in registry.available(), reason="no H&B engine")
def test_the_construction_cards_reshuffled_into_the_deck_are_not_reported_gone(tmp_path):
    """All five slots full at a round's start: the engine shuffles them back into the deck and
    Player 1 draws a fresh card into the first slot; the next picture shows only that card."""
    def reshuffled(game, action):
        return action.kind == "construction" and game.state.reshuffled

    s, _out, before = _until_app_lays(tmp_path, "highwaysbyways", ["Ana", "Ben", "Cy"], _hb_table, reshuffled,
                                     limit=4000)
    assert len(before) == 5 and len(s.game.state.slots) == 1
    actions = list(s.game.actions)
    result = s.accept(_capture(_hb_table(s.game)))
    assert "gone" not in result.message and "appeared" not in result.message, result.message
    assert s.game.actions == actions
    # A card of the slots still there that vanished from the picture is still missed.
    s.baseline(_capture(_hb_table(s.game)))
    result = s.accept(_capture([]))
    assert not result.ok and "is gone" in result.message, result.message
