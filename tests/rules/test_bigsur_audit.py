"""Big Sur, second reading: regression tests for what the audit of the engine against the rulebook
(seeds/004) found, and adversarial sweeps that compare what the engine lists with what it accepts.

Each regression test is named after the rule and quotes the sentence it checks.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, IllegalAction, RulesError
from rules.bigsur import BigSur, TableauError, playout_choice, score_tableau
from rules.playout import random_step

from .bigsur_cases.table import (
    CAT,
    NAMES,
    build,
    cards,
    drawn,
    material_cards,
    pass_turn,
    put,
    snapshot,
    started,
)


def refused(game: BigSur, action: Action, rule: str) -> str:
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.push(action)
    assert snapshot(game) == before, f"{action!r} changed the state although it was refused"
    assert err.value.rule.startswith(rule), err.value.rule
    message = str(err.value)
    assert message and "\n" not in message
    return message


def one_material_cards(game: BigSur, material: str, exclude: list[str]) -> list[str]:
    """Unseen 1-mile cards costing exactly one ``material``."""
    return [c.id for c in cards(game, miles=1, exclude=exclude) if c.cost == (material,)]


# ------------------------------------------------------------------ the discard pile, card by card
def test_each_face_up_discard_card_pays_once_per_turn_not_the_pile_once() -> None:
    """"When building, the player may use the material displayed on the top-most card of their
    personal discard pile ... Face-up cards from the discard pile may only be used once per turn in
    this manner." The limit is on each card: after the top card paid and a hand card was spent onto
    it, the new top card may pay for the next build (the engine used to refuse this)."""
    game = started(2)
    row = game.state.row
    x = "stone"
    # First build: cost (stone, timber); the pile's top card X (stone) and a timber card from the hand.
    first = next(c for c in cards(game, exclude=row) if sorted(c.cost) == ["stone", "timber"])
    top = material_cards(game, x, 1, exclude=[*row, first.id])[0]
    spent = material_cards(game, "timber", 1, exclude=[*row, first.id, top])[0]
    second = one_material_cards(game, "timber", exclude=[*row, first.id, top, spent])[0]
    put(game, 0, highways=[first.id, second], materials=[spent], discard=[top])
    drawn(game)
    build(game, first.id, [f"discard:{x}", f"hand:{spent}"])
    seat = game.state.seats[0]
    assert seat.discard == [top, spent], "the timber card paid from the hand now lies on top"
    offered = [a for a in game.legal_actions() if a.kind == "build" and a["card"] == second]
    assert offered and offered[0]["pay"] == ("discard:timber",)
    build(game, second, ["discard:timber"])
    assert game.state.seats[0].tableau == [first.id, second]
    # That top card has now paid from the pile this turn: not again.
    third = one_material_cards(game, "timber", exclude=[*game.state.row, first.id, top, spent, second])[0]
    put(game, 0, highways=[third])
    message = refused(game, Action.of("build", 0, card=third, end="left", pay=["discard:timber"]),
                      "building: discard pile")
    assert "already used this turn" in message


def test_a_discard_card_that_paid_stays_used_while_it_is_still_on_top() -> None:
    """"Face-up cards from the discard pile may only be used once per turn": the card that paid from
    the top and is still on top (nothing was spent onto it) cannot pay again this turn."""
    game = started(2)
    row = game.state.row
    top = material_cards(game, "steel", 1, exclude=row)[0]
    a, b = one_material_cards(game, "steel", exclude=[*row, top])[:2]
    put(game, 0, highways=[a, b], discard=[top])
    drawn(game)
    build(game, a, ["discard:steel"])
    assert not any(x.kind == "build" and "discard:steel" in x["pay"] for x in game.legal_actions())
    refused(game, Action.of("build", 0, card=b, end="right", pay=["discard:steel"]), "building: discard pile")
    pass_turn(game)
    pass_turn(game)
    drawn(game)
    build(game, b, ["discard:steel"])  # a new turn: the same card pays again


# ------------------------------------------------------------------ scoring a tableau read off the table
@pytest.mark.parametrize("miles", [1, 3])
def test_only_two_mile_cards_carry_a_scoring_condition(miles: int) -> None:
    """"2-mile cards also have scoring conditions written on the bottom of the card": a condition
    read off a 1- or 3-mile card is a misreading and is refused, not scored."""
    card = {"miles": miles, "terrains": ["forest"], "condition": {"type": "at_end", "points": 2}}
    with pytest.raises(TableauError, match="only 2-mile cards"):
        score_tableau([card])
    card["miles"] = 2
    assert sum(ln.points for ln in score_tableau([card])) == 2


# ------------------------------------------------------------------ adversarial sweeps
def _accepts(game: BigSur, action: Action) -> bool:
    """Whether ``push`` takes ``action`` (the game is left exactly as it was either way)."""
    before, n = pickle.dumps(game.state), len(game.actions)
    try:
        game.push(action)
    except RulesError as exc:
        assert game.state == pickle.loads(before) and len(game.actions) == n
        assert str(exc) and "\n" not in str(exc)
        if isinstance(exc, IllegalAction):
            assert exc.rule, f"{action!r}: the refusal names no rule"
            assert "_" not in str(exc), f"{action!r}: the refusal speaks code, not the table's words: {exc}"
        return False
    game.state = pickle.loads(before)
    del game._history[n:]  # undo without the undo rules: chance outcomes are tried too
    return True


def _candidates(game: BigSur) -> list[Action]:
    """Every action worth trying now, legal or not (builds are checked apart: see below)."""
    s, cat = game.state, game.catalog
    out: list[Action] = []
    for p in [*range(len(game.players)), None]:
        seat = s.seats[s.turn if p is None else p]
        out += [Action.of("starter_side", p, material=m) for m in cat.materials]
        out += [Action.of("draw", p, card=c, side=side) for c in [*s.row, *s.unseen[:2]] for side in ("highway", "material")]
        out += [Action.of("draw_deck", p), Action.of("end_turn", p)]
        out += [Action.of("flip", p, card=c) for c in [*seat.highways, *seat.materials, *seat.tableau[:2]]]
        out += [Action.of("landmark", p, tile=t, card=c, where=w)
                for t in cat.landmarks for c in seat.tableau for w in ("above", "below")]
    out += [Action.of("deck_top", None, material=m) for m in cat.materials]
    out += [Action.of("reveal", None, card=c) for c in s.unseen]
    out += [Action.of("reveal_landmark", None, tile=t) for t in cat.landmarks]
    out += [Action.of("deal_starter", None, card=c, seat=i) for c in cat.starters for i in range(len(game.players))]
    return out


@settings(max_examples=12, deadline=None, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), landmarks=st.booleans())
def test_the_engine_accepts_exactly_the_actions_it_lists(seed: int, players: int, landmarks: bool) -> None:
    """Neither over-strict nor too lax: at random points of random games, every action tried is
    accepted if and only if ``legal_actions`` lists it; every refusal leaves the game untouched and
    names its rule in one line. Builds are listed once per card and end with one payment, so for
    them: a build of a card at an end is listed exactly when some payment of it is accepted."""
    game = BigSur(NAMES[:players], seed=seed, options={"landmarks": landmarks})
    rng = random.Random(seed)
    while not game.is_game_over():
        if rng.random() < 0.08:
            legal = set(game.legal_actions())
            for action in _candidates(game):
                assert _accepts(game, action) == (action in legal), action
            if not game.is_chance_node():
                p = game.state.turn
                listed = {(a["card"], a["end"]) for a in legal if a.kind == "build"}
                for card in game.state.seats[p].highways:
                    pay = game.payment_for(card)
                    for end in ("left", "right") if game.state.seats[p].tableau else ("right",):
                        tried = Action.of("build", p, card=card, end=end, pay=pay or [])
                        assert _accepts(game, tried) == ((card, end) in listed), tried
        game.push(random_step(game, rng, playout_choice))


# ------------------------------------------------------------------ Landmarks: a combination of 3 cards
def _face_up(game: BigSur, *tiles: str) -> None:
    """Exactly these Landmark tiles face up (the others face down: nothing created or lost)."""
    s = game.state
    s.landmark_pool.extend(s.landmarks_up)
    s.landmarks_up = []
    for t in tiles:
        s.landmark_pool.remove(t)
        s.landmarks_up.append(t)


def _cheap(game: BigSur, card: str) -> None:
    """Give seat 0 material cards paying exactly for ``card``."""
    used = {*game.state.row, card}
    for material in CAT.cards[card].cost:
        pick = material_cards(game, material, 1, exclude=used)[0]
        used.add(pick)
        put(game, 0, materials=[pick])


def test_a_combination_of_three_cards_need_not_lie_side_by_side() -> None:
    """"if that player completed a combination of 3 Highway cards that meets the requirements printed
    on any one of the face-up Landmark tiles, they may add that tile to their tableau. Tiles must be
    placed above or below one of the three cards that were used": the rulebook does not ask for the
    three cards to be neighbours (the engine used to), so three Forest cards with a Meadow card
    between them meet Ventana Wilderness (three Forest cards)."""
    game = started(2, landmarks=True)
    _face_up(game, "lm-07")
    assert not CAT.landmarks["lm-07"].adjacent
    f1, f2, f3 = [c.id for c in cards(game, miles=1, terrains=["forest"], exclude=game.state.row)][:3]
    meadow = cards(game, miles=1, terrains=["meadow"], exclude=game.state.row)[0].id
    put(game, 0, tableau=[f1, meadow, f2], highways=[f3])
    _cheap(game, f3)
    drawn(game)
    build(game, f3, game.payment_for(f3) or [], end="left")
    tableau = game.state.seats[0].tableau
    assert tableau == [f3, f1, meadow, f2]
    options = {a["card"] for a in game.legal_actions() if a.kind == "landmark"}
    assert options == {f3, f1, f2}, "any of the three cards used, never the meadow card"
    refused(game, Action.of("landmark", 0, tile="lm-07", card=meadow, where="above"), "adding landmarks")
    game.push(Action.of("landmark", 0, tile="lm-07", card=f2, where="below"))
    assert [(p.tile, p.card, p.where) for p in game.state.seats[0].landmarks] == [("lm-07", f2, "below")]


def test_a_tile_marked_adjacent_wants_its_three_cards_side_by_side() -> None:
    """A tile whose catalog entry says ``"adjacent": true`` (the stand-in bridges) is met only by three
    cards side by side: the same three cards spread out do not take Bixby Creek Bridge."""
    game = started(2, landmarks=True)
    _face_up(game, "lm-01")
    tile = CAT.landmarks["lm-01"]
    assert tile.adjacent
    o1, o2 = [c.id for c in cards(game, miles=1, terrains=["ocean"], exclude=game.state.row)][:2]
    meadow = cards(game, miles=1, terrains=["meadow"], exclude=game.state.row)[0].id
    three = cards(game, miles=3, terrains=["forest"], exclude=game.state.row)[0].id
    put(game, 0, tableau=[o1, meadow, o2], highways=[three])
    _cheap(game, three)
    drawn(game)
    build(game, three, game.payment_for(three) or [])
    tableau = game.state.seats[0].tableau
    assert game.combinations(tile, tableau) == []
    spread = replace(tile, adjacent=False)
    assert game.combinations(spread, tableau) == [(0, 2, 3)], "the same cards meet it when spread out"
    assert not any(a.kind == "landmark" for a in game.legal_actions())
    message = refused(game, Action.of("landmark", 0, tile="lm-01", card=three, where="above"), "adding landmarks")
    assert "3 adjacent Highway cards" in message
