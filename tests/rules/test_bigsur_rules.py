"""Big Sur: one test per rule of the rulebook (seeds/004), each quoting the sentence it checks.

Positions are arranged like a chess FEN (tests/rules/bigsur_cases/table.py): a game after setup,
with chosen catalog cards moved from the unseen pile into hands, discard piles and tableaus.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, ActionFormatError, IllegalAction, OptionError, UndoRefused
from rules.bigsur import BigSur

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


def refused(game: BigSur, action: Action, rule: str = "") -> IllegalAction:
    """Push ``action``, expect IllegalAction (for ``rule`` if given) and an untouched game."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.push(action)
    assert snapshot(game) == before, f"{action!r} changed the state although it was refused"
    if rule:
        assert err.value.rule.startswith(rule), err.value.rule
    assert str(err.value) and "\n" not in str(err.value)
    return err.value


def end_turn(game: BigSur) -> None:
    """End the turn of the player to act (their draws arranged if not taken) and deal the refills."""
    pass_turn(game)


# ---------------------------------------------------------------------------------------- setup
def test_setup_separates_the_starters_and_deals_one_to_each_player() -> None:
    """"Separate the 7 Starter cards (Pink Background) From the deck. Shuffle and deal 1 Starter
    card to each player.\""""
    for n in (2, 3, 4):
        game = started(n, choose_sides=False)
        starters = [seat.starter for seat in game.state.seats]
        assert all(s in CAT.starters for s in starters) and len(set(starters)) == n
        assert all(seat.materials == [seat.starter] and not seat.highways for seat in game.state.seats)
        assert len(game.state.starters_box) == 7 - n
        assert not set(game.state.row) & set(CAT.starters), "Starters have no Highway side to show"


@pytest.mark.parametrize(("players", "deck"), [(2, 40), (3, 58), (4, 76)])
def test_draw_deck_size_depends_on_the_player_count(players: int, deck: int) -> None:
    """"2-Player Games: Create a Draw Deck of 40 Cards / 3-Player ... 58 Cards / 4-Player ... 76 cards\""""
    game = started(players)
    assert len(game.state.row) + game.state.deck_size() == deck
    assert len(game.state.unseen) == 90 - len(game.state.row)  # the deck (top included) and the box


def test_draw_row_of_five_highway_side_up_and_the_deck_material_side_up() -> None:
    """"Draw the first five cards from the draw deck and display them side-by-side in a row ... with
    the Highway side facing up. Make sure the deck is Material (gray) side-up.\""""
    game = started(2)
    assert len(game.state.row) == 5
    assert game.state.top in CAT.materials  # the top card's material is in view, not which card it is


def test_advanced_game_turns_three_landmark_tiles_face_up() -> None:
    """"If playing the Advanced game, shuffle the Landmark Tiles ... Then, flip 3 tiles face-up.\""""
    game = started(3, landmarks=True)
    assert len(game.state.landmarks_up) == 3 and len(game.state.landmark_pool) == 11
    assert started(3).state.landmarks_up == []


def test_shuffles_and_deals_are_recorded_chance_outcomes() -> None:
    """Setup's shuffles are chance events: outcomes recorded with player None, undo refused."""
    game = BigSur(NAMES[:2], seed=4)
    assert game.is_chance_node()
    assert {a.kind for a in game.legal_actions()} == {"deal_starter"}
    game.resolve_chance()
    kinds = [a.kind for a in game.actions]
    # Each row card is first in view on the deck (its material), then turned Highway side up.
    assert kinds == ["deal_starter"] * 2 + ["deck_top", "reveal"] * 5 + ["deck_top"]
    assert all(a.player is None for a in game.actions)
    with pytest.raises(UndoRefused):
        game.pop()
    again = BigSur(NAMES[:2], seed=4)
    again.resolve_chance()
    assert again.state == game.state, "the same seed deals the same table"


def test_options_and_players_are_checked() -> None:
    """"2-4 Players"; the Advanced game is the option ``landmarks``."""
    with pytest.raises(OptionError):
        BigSur(["Ana"])
    with pytest.raises(OptionError):
        BigSur([*NAMES, "Eve"])
    with pytest.raises(OptionError):
        BigSur(NAMES[:2], options={"landmarks": "yes"})
    with pytest.raises(OptionError):
        BigSur(NAMES[:2], options={"expansion": True})


# ---------------------------------------------------------------------------------------- drawing
def test_starter_side_is_chosen_before_the_first_turn() -> None:
    """"Before taking their first turn, each player may choose which side of their Starter card to use.\""""
    game = started(2, choose_sides=False)
    seat = game.state.seats[0]
    assert seat.starter is not None
    a, b = CAT.starters[seat.starter].materials
    assert {x.kind for x in game.legal_actions()} == {"starter_side"}
    refused(game, Action.of("draw", 0, card=game.state.row[0], side="highway"), "drawing: starter side")
    other = next(m for m in CAT.materials if m not in (a, b))
    refused(game, Action.of("starter_side", 0, material=other), "drawing: starter side")
    game.push(Action.of("starter_side", 0, material=b))
    seat = game.state.seats[0]  # a refused action restores a copy of the state
    assert seat.starter_side == b
    assert game.hand_material(0, seat.starter) == b
    refused(game, Action.of("starter_side", 0, material=a), "drawing: starter side")


def test_draw_two_cards_from_the_row_as_highway_or_material() -> None:
    """"On the player's turn they draw any two cards from the face-up row into their hand ... they
    must decide whether to add that card as a Highway card or as a Material card.\""""
    game = started(2)
    first, second = game.state.row[1], game.state.row[3]
    game.push(Action.of("draw", 0, card=first, side="highway"))
    game.push(Action.of("draw", 0, card=second, side="material"))
    seat = game.state.seats[0]
    assert first in seat.highways and second in seat.materials
    assert len(game.state.row) == 3
    assert {a.kind for a in game.legal_actions()} <= {"build", "end_turn"}
    refused(game, Action.of("draw", 0, card=game.state.row[0], side="highway"), "drawing")


def test_deck_top_may_only_be_added_as_a_material_card() -> None:
    """"Players may also draw the topmost card from the draw deck, but may only add it to their hand
    as a Material card.\""""
    game = started(2)
    top = game.state.top
    assert top is not None
    refused(game, Action.of("draw_deck", 0, side="highway"), "drawing: draw deck")
    wrong = next(m for m in CAT.materials if m != top)
    refused(game, Action.of("draw_deck", 0, material=wrong), "drawing: draw deck")
    hand = list(game.state.seats[0].materials)
    game.push(Action.of("draw_deck", 0, material=top))
    # The card's identity is a chance outcome among the unidentified cards showing that material.
    assert game.is_chance_node()
    outcomes = game.legal_actions()
    assert outcomes and all(a.kind == "reveal" and CAT.cards[a["card"]].material == top for a in outcomes)
    other = next(c for c in game.state.unseen if CAT.cards[c].material != top)
    refused(game, Action.of("reveal", None, card=other), "setup")
    game.push(outcomes[0])
    assert game.state.seats[0].materials == [*hand, outcomes[0]["card"]]
    assert game.is_chance_node() and {a.kind for a in game.legal_actions()} == {"deck_top"}
    game.resolve_chance()
    assert game.state.top is not None and game.current_player() == 0


def test_the_deck_top_shows_materials_as_often_as_the_cards_carry_them() -> None:
    """The deck's top is a random card: its material comes up as often as unseen cards carry it."""
    game = started(2)
    game.push(Action.of("draw_deck", 0))
    game.push(game.sample_chance())
    outcomes = game.legal_actions()
    weights = game.chance_weights(outcomes)
    counts = {m: sum(1 for c in game.state.unseen if CAT.cards[c].material == m) for m in CAT.materials}
    assert {a["material"]: w for a, w in zip(outcomes, weights, strict=True)} == {m: n for m, n in counts.items() if n}


def test_drawing_is_mandatory() -> None:
    """"Each turn consists of two steps: Drawing (mandatory) and Building (optional)." """
    game = started(2)
    refused(game, Action.of("end_turn", 0), "drawing")
    game.push(Action.of("draw", 0, card=game.state.row[0], side="material"))
    refused(game, Action.of("end_turn", 0), "drawing")
    hw = cards(game, miles=1, exclude=game.state.row)[0]
    put(game, 0, highways=[hw.id], materials=material_cards(game, hw.cost[0], 1, exclude=game.state.row))
    refused(game, Action.of("build", 0, card=hw.id, end="right", pay=[f"hand:{game.state.seats[0].materials[-1]}"]),
            "drawing")


def test_cards_in_hand_may_not_be_flipped() -> None:
    """"At no point (unless allowed by a Landmark ability ...), may a player flip a card in their hand
    from the Highway side to the Material side or vice-versa.\""""
    game = started(2)
    card = game.state.row[0]
    game.push(Action.of("draw", 0, card=card, side="highway"))
    game.push(Action.of("draw", 0, card=game.state.row[0], side="highway"))
    refused(game, Action.of("flip", 0, card=card), "drawing: no flipping")
    assert not any(a.kind == "flip" for a in game.legal_actions())
    # A Highway card held in the hand cannot pay as a material either.
    target = cards(game, miles=1, exclude=game.state.row + game.state.seats[0].highways)[0]
    put(game, 0, highways=[target.id])
    refused(game, Action.of("build", 0, card=target.id, end="right", pay=[f"hand:{card}"]), "building")


def test_draw_row_refills_at_the_end_of_the_turn_not_between_draws() -> None:
    """"the player's turn concludes and they should refill the draw row.\""""
    game = started(2)
    game.push(Action.of("draw", 0, card=game.state.row[0], side="highway"))
    assert len(game.state.row) == 4 and not game.is_chance_node()
    game.push(Action.of("draw", 0, card=game.state.row[0], side="highway"))
    deck = game.state.deck_size()
    game.push(Action.of("end_turn", 0))
    assert game.is_chance_node()
    game.resolve_chance()
    assert len(game.state.row) == 5 and game.state.deck_size() == deck - 2
    assert game.current_player() == 1, "play continues to the next player in clockwise order"


def test_a_player_draws_what_is_left_when_row_and_deck_run_out() -> None:
    """Drawing is mandatory, but nobody can draw from an empty row and an empty deck."""
    game = started(2)
    s = game.state
    s.unseen.extend(s.row[1:])
    s.row, s.top, s.hidden = s.row[:1], None, 0
    game.push(Action.of("draw", 0, card=s.row[0], side="highway"))
    assert [a.kind for a in game.legal_actions()] == ["end_turn"]
    game.push(Action.of("end_turn", 0))
    assert game.is_game_over() is False and game.current_player() == 1
    assert [a.kind for a in game.legal_actions()] == ["end_turn"]


# ---------------------------------------------------------------------------------------- building
def _hand_for(game: BigSur, seat: int, card: str, exclude: list[str] | None = None) -> list[str]:
    """Give ``seat`` material cards exactly covering ``card``'s cost; returns their ids in cost order."""
    used = set(exclude or []) | {card} | set(game.state.row)
    paid: list[str] = []
    for material in CAT.cards[card].cost:
        pick = material_cards(game, material, 1, exclude=used)[0]
        used.add(pick)
        paid.append(pick)
    put(game, seat, materials=paid)
    return paid


def test_build_pays_the_cost_with_material_cards_into_the_discard_pile() -> None:
    """"To build a highway card, the player spends Material cards from their hand to meet the cost
    requirement ... discards the corresponding Material cards into their personal discard pile ...
    so that the last material used may be clearly seen.\""""
    game = started(2)
    card = cards(game, miles=3, exclude=game.state.row)[0].id
    put(game, 0, highways=[card])
    paid = _hand_for(game, 0, card)
    drawn(game)
    build(game, card, [f"hand:{c}" for c in reversed(paid)])
    seat = game.state.seats[0]
    assert seat.tableau == [card] and card not in seat.highways
    assert seat.discard == list(reversed(paid)) and seat.discard[-1] == paid[0]
    assert not set(paid) & set(seat.materials)


def test_a_build_that_does_not_meet_the_cost_is_refused() -> None:
    """"the player spends Material cards from their hand to meet the cost requirement of the card.\""""
    game = started(2)
    card = cards(game, miles=2, exclude=game.state.row)[0]
    put(game, 0, highways=[card.id])
    paid = _hand_for(game, 0, card.id)
    drawn(game)
    err = refused(game, Action.of("build", 0, card=card.id, end="right", pay=[f"hand:{paid[0]}"]), "building: cost")
    assert "costs" in str(err)
    wrong = next(m for m in CAT.materials if m not in card.cost)
    extra = material_cards(game, wrong, 1, exclude=game.state.row + paid + [card.id])
    put(game, 0, materials=extra)
    refused(game, Action.of("build", 0, card=card.id, end="right", pay=[f"hand:{paid[0]}", f"hand:{extra[0]}"]),
            "building: cost")
    # Paying more than the cost is refused too: the extra card would be wasted by mistake.
    refused(game, Action.of("build", 0, card=card.id, end="right", pay=[*(f"hand:{p}" for p in paid), f"hand:{extra[0]}"]),
            "building: cost")
    refused(game, Action.of("build", 0, card=card.id, end="right", pay=[f"hand:{paid[0]}", f"hand:{paid[0]}"]),
            "building: materials")
    game.push(Action.of("build", 0, card=card.id, end="right", pay=[f"hand:{p}" for p in paid]))


def test_only_highway_cards_in_the_hand_can_be_built() -> None:
    """"the player may choose to build one or more Highway cards from their hand.\""""
    game = started(2)
    card = cards(game, miles=1, exclude=game.state.row)[0].id
    put(game, 0, materials=[card])
    paid = _hand_for(game, 0, card)
    drawn(game)
    refused(game, Action.of("build", 0, card=card, end="right", pay=[f"hand:{p}" for p in paid]), "building")
    stranger = cards(game, miles=1, exclude=[*game.state.row, card, *paid])[0].id
    refused(game, Action.of("build", 0, card=stranger, end="right", pay=[f"hand:{p}" for p in paid]), "building")


def test_the_discard_piles_top_card_pays_once_per_turn() -> None:
    """"the player may use the material displayed on the top-most card of their personal discard pile
    to meet the cost requirement ... Face-up cards from the discard pile may only be used once per turn.\""""
    game = started(2)
    one = [c.id for c in cards(game, miles=1, exclude=game.state.row) if len(c.cost) == 1]
    a, b = one[0], next(c for c in one[1:] if CAT.cards[c].cost == CAT.cards[one[0]].cost)
    material = CAT.cards[a].cost[0]
    top = material_cards(game, material, 1, exclude=[*game.state.row, a, b])[0]
    put(game, 0, highways=[a, b], discard=[top])
    drawn(game)
    build(game, a, [f"discard:{material}"])
    seat = game.state.seats[0]
    assert seat.discard == [top], "the discard pile's card is used, not spent"
    refused(game, Action.of("build", 0, card=b, end="right", pay=[f"discard:{material}"]), "building: discard pile")
    assert not any(x.kind == "build" and any(p.startswith("discard") for p in x["pay"]) for x in game.legal_actions())
    end_turn(game)
    # The next turn of the same player may use it again.
    end_turn(game)
    assert game.current_player() == 0
    drawn(game)
    build(game, b, [f"discard:{material}"])
    assert game.state.seats[0].tableau == [a, b]


def test_an_empty_discard_pile_pays_nothing() -> None:
    """The discard pile pays with its top card: there must be one."""
    game = started(2)
    card = cards(game, miles=1, exclude=game.state.row)[0]
    put(game, 0, highways=[card.id])
    drawn(game)
    refused(game, Action.of("build", 0, card=card.id, end="right", pay=[f"discard:{card.cost[0]}"]),
            "building: discard pile")


def test_a_starter_on_the_discard_pile_offers_either_material() -> None:
    """"If a player's discard pile holds one of the pink Starting cards, they may choose one of the two
    materials to use when building. This card may only be used once per turn as well.\""""
    game = started(2)
    seat = game.state.seats[0]
    assert seat.starter is not None
    x, y = CAT.starters[seat.starter].materials
    seat.materials.remove(seat.starter)
    seat.discard.append(seat.starter)
    for_x = next(c for c in cards(game, miles=1, exclude=game.state.row) if c.cost == (x,))
    for_y = next(c for c in cards(game, miles=1, exclude=game.state.row) if c.cost == (y,))
    put(game, 0, highways=[for_x.id, for_y.id])
    drawn(game)
    other = next(m for m in CAT.materials if m not in (x, y))
    refused(game, Action.of("build", 0, card=for_y.id, end="right", pay=[f"discard:{other}"]), "building: discard pile")
    build(game, for_y.id, [f"discard:{y}"])
    refused(game, Action.of("build", 0, card=for_x.id, end="right", pay=[f"discard:{x}"]), "building: discard pile")
    end_turn(game)
    end_turn(game)
    drawn(game)
    build(game, for_x.id, [f"discard:{x}"])


def test_one_mile_materials_in_the_tableau_pay_once_per_turn_each() -> None:
    """"Players may also use materials listed on the bottom left-hand corner of any 1-mile cards already
    in their tableau. These materials may each be used only once per turn when building.\""""
    game = started(2)
    mile = cards(game, miles=1, exclude=game.state.row)[0]
    m = mile.tableau_material
    assert m is not None
    wants = [c.id for c in cards(game, miles=1, exclude=[*game.state.row, mile.id]) if c.cost == (m,)][:2]
    put(game, 0, tableau=[mile.id], highways=wants)
    drawn(game)
    build(game, wants[0], [f"mile:{mile.id}"])
    refused(game, Action.of("build", 0, card=wants[1], end="right", pay=[f"mile:{mile.id}"]),
            "building: 1-mile materials")
    # The 1-mile card built a moment ago is "already in their tableau" and offers its own material.
    built = CAT.cards[wants[0]]
    want2 = next((c for c in cards(game, miles=1, exclude=[*game.state.row, mile.id, *wants])
                  if c.cost == (built.tableau_material,)), None)
    assert want2 is not None
    put(game, 0, highways=[want2.id])
    build(game, want2.id, [f"mile:{wants[0]}"])
    # A card that is not a 1-mile card of the tableau pays nothing.
    refused(game, Action.of("build", 0, card=wants[1], end="right", pay=[f"mile:{wants[1]}"]),
            "building: 1-mile materials")
    end_turn(game)
    end_turn(game)
    drawn(game)
    build(game, wants[1], [f"mile:{mile.id}"])


def test_cards_are_placed_left_or_right_and_never_move() -> None:
    """"After the first card, Highway cards may be placed to the left or to the right of the already
    played cards. Once placed, however, Highway cards may not be moved.\""""
    game = started(2)
    ones = [c for c in cards(game, miles=1, exclude=game.state.row) if len(c.cost) == 1][:3]
    put(game, 0, highways=[c.id for c in ones])
    for c in ones:
        _hand_for(game, 0, c.id, exclude=[o.id for o in ones])
    drawn(game)
    hand = game.state.seats[0].materials

    def pay(card: str) -> list[str]:
        need = CAT.cards[card].cost[0]
        return [f"hand:{next(h for h in hand if h != game.state.seats[0].starter and CAT.cards[h].material == need)}"]

    build(game, ones[0].id, pay(ones[0].id))
    build(game, ones[1].id, pay(ones[1].id), end="left")
    build(game, ones[2].id, pay(ones[2].id), end="right")
    assert game.state.seats[0].tableau == [ones[1].id, ones[0].id, ones[2].id]
    assert all(a.kind != "build" or a["end"] in ("left", "right") for a in game.legal_actions())
    with pytest.raises(ActionFormatError):
        game.push(Action.of("build", 0, card=ones[0].id, end="middle", pay=[]))


def test_several_cards_may_be_built_in_one_turn() -> None:
    """"Players may build multiple Highway cards during this step of their turn.\""""
    game = started(2)
    two = cards(game, miles=2, exclude=game.state.row)[:2]
    put(game, 0, highways=[c.id for c in two])
    paid = [_hand_for(game, 0, c.id, exclude=[t.id for t in two]) for c in two]
    drawn(game)
    build(game, two[0].id, [f"hand:{p}" for p in paid[0]])
    build(game, two[1].id, [f"hand:{p}" for p in paid[1]])
    assert game.state.seats[0].tableau == [two[0].id, two[1].id]


def test_malformed_payments_are_typed_errors() -> None:
    """A payment names where each material comes from; anything else is refused with a clear error."""
    game = started(2)
    card = cards(game, miles=1, exclude=game.state.row)[0].id
    put(game, 0, highways=[card])
    drawn(game)
    before = snapshot(game)
    for pay in (["wallet:5"], "hand:x", [3], None):
        with pytest.raises((ActionFormatError, IllegalAction)):
            game.push(Action.of("build", 0, card=card, end="right", pay=pay))
    with pytest.raises(ActionFormatError):
        game.push(Action.of("build", 0, card=card, end="right"))
    with pytest.raises(ActionFormatError):
        game.push(Action.of("teleport", 0))
    assert snapshot(game) == before


def test_wrong_turn_is_refused() -> None:
    """"players will take turns ... beginning with the first player and continuing clockwise.\""""
    game = started(3)
    refused(game, Action.of("draw", 1, card=game.state.row[0], side="highway"), "turn order")
    refused(game, Action.of("reveal", None, card=game.state.unseen[0]), "turn order")


def test_legal_builds_are_all_accepted() -> None:
    """Every build the engine offers (with its canonical payment) is accepted and pays exactly."""
    game = started(2, seed=11)
    hand = cards(game, exclude=game.state.row)[:12]
    put(game, 0, highways=[c.id for c in hand[:6]], materials=[c.id for c in hand[6:]])
    drawn(game)
    for action in [a for a in game.legal_actions() if a.kind == "build"]:
        game.push(action)
        game.pop()


# ---------------------------------------------------------------------------------------- landmarks
def _landmark_table(tile_id: str) -> tuple[BigSur, list[str]]:
    """Seat 0 has built two cards and holds a third completing ``tile_id``'s requirement."""
    game = started(2, landmarks=True)
    s = game.state
    for t in list(s.landmarks_up):
        s.landmark_pool.append(t)
    s.landmarks_up = [tile_id]
    s.landmark_pool.remove(tile_id)
    tile = CAT.landmarks[tile_id]
    chosen: list[str] = []
    for spec in tile.requires:
        pick = next(c.id for c in CAT.cards.values()
                    if spec.fits(c) and c.id not in chosen and c.id in s.unseen)
        chosen.append(pick)
    put(game, 0, tableau=chosen[:2], highways=chosen[2:])
    _hand_for(game, 0, chosen[2], exclude=chosen)
    drawn(game)
    return game, chosen


def _pay_all(game: BigSur, card: str) -> list[str]:
    pay = game.payment_for(card)
    assert pay is not None
    return pay


def test_a_landmark_is_added_after_building_a_combination_meeting_its_requirement() -> None:
    """"After the Building phase of a player's turn, if that player completed a combination of 3
    Highway cards that meets the requirements printed on any one of the face-up Landmark tiles, they
    may add that tile to their tableau.\""""
    game, chosen = _landmark_table("lm-01")
    refused(game, Action.of("landmark", 0, tile="lm-01", card=chosen[0], where="above"), "adding landmarks")
    build(game, chosen[2], _pay_all(game, chosen[2]))
    options = [a for a in game.legal_actions() if a.kind == "landmark"]
    assert {a["card"] for a in options} == set(chosen) and {a["where"] for a in options} == {"above", "below"}
    game.push(Action.of("landmark", 0, tile="lm-01", card=chosen[1], where="below"))
    seat = game.state.seats[0]
    assert [(p.tile, p.card, p.where) for p in seat.landmarks] == [("lm-01", chosen[1], "below")]
    assert "lm-01" not in game.state.landmarks_up
    assert any(ln.kind == "landmark" and ln.points == CAT.landmarks["lm-01"].points
               for ln in game.breakdown(0).lines)


def test_a_landmark_without_its_requirement_is_refused() -> None:
    """"if that player completed a combination of 3 Highway cards that meets the requirements\""""
    game, chosen = _landmark_table("lm-01")
    build(game, chosen[2], _pay_all(game, chosen[2]))
    s = game.state
    wrong = next(t for t in s.landmark_pool if not game.combinations(CAT.landmarks[t], s.seats[0].tableau))
    s.landmark_pool.remove(wrong)
    s.landmarks_up.append(wrong)
    refused(game, Action.of("landmark", 0, tile=wrong, card=chosen[0], where="above"), "adding landmarks")
    refused(game, Action.of("landmark", 0, tile=s.landmark_pool[0], card=chosen[0], where="above"), "adding landmarks")


def test_the_tile_goes_above_or_below_one_of_the_three_cards() -> None:
    """"Tiles must be placed above or below one of the three cards that were used to complete the
    requirement.\""""
    game, chosen = _landmark_table("lm-07")
    far = cards(game, miles=1, terrains=["meadow"])[0].id
    game.state.seats[0].tableau.insert(0, far)
    game.state.unseen.remove(far)
    build(game, chosen[2], _pay_all(game, chosen[2]))
    refused(game, Action.of("landmark", 0, tile="lm-07", card=far, where="above"), "adding landmarks")
    game.push(Action.of("landmark", 0, tile="lm-07", card=chosen[2], where="above"))


def test_each_card_holds_one_tile_above_and_one_below() -> None:
    """"Each Highway card may have only one Landmark tile above and one Landmark tile below it.\""""
    game, chosen = _landmark_table("lm-07")
    from rules.bigsur import Placement

    game.state.seats[0].landmarks.append(Placement("lm-02", chosen[0], "above"))
    game.state.landmark_pool.remove("lm-02")
    build(game, chosen[2], _pay_all(game, chosen[2]))
    assert Action.of("landmark", 0, tile="lm-07", card=chosen[0], where="above") not in game.legal_actions()
    refused(game, Action.of("landmark", 0, tile="lm-07", card=chosen[0], where="above"), "adding landmarks")
    game.push(Action.of("landmark", 0, tile="lm-07", card=chosen[0], where="below"))


def test_at_most_one_landmark_per_turn_and_building_is_over() -> None:
    """"If a player completes the requirement of more than one Landmark tile on their turn, they may
    choose one eligible tile. Each player may only acquire a maximum of one tile per turn.\""""
    game = started(2, landmarks=True)
    s = game.state
    # Three forest cards, one 3 miles long and one also meadow: Ventana Wilderness (3 forest cards)
    # and Redwood Grove (3-mile forest, forest, meadow) are both met.
    both = ["lm-07", "lm-14"]
    s.landmark_pool.extend(s.landmarks_up)
    s.landmarks_up = both
    for t in both:
        s.landmark_pool.remove(t)
    three = cards(game, miles=3, terrains=["forest"])[0].id
    one = cards(game, miles=1, terrains=["forest"])[0].id
    mixed = cards(game, terrains=["forest", "meadow"])[0].id
    put(game, 0, tableau=[three, one], highways=[mixed])
    _hand_for(game, 0, mixed)
    drawn(game)
    build(game, mixed, _pay_all(game, mixed))
    offered = {a["tile"] for a in game.legal_actions() if a.kind == "landmark"}
    assert offered == set(both)
    game.push(Action.of("landmark", 0, tile="lm-14", card=one, where="above"))
    assert not any(a.kind in ("landmark", "build") for a in game.legal_actions())
    refused(game, Action.of("landmark", 0, tile="lm-07", card=three, where="above"), "adding landmarks")
    extra = cards(game, miles=1)[0].id
    put(game, 0, highways=[extra])
    paid = _hand_for(game, 0, extra)
    refused(game, Action.of("build", 0, card=extra, end="right", pay=[f"hand:{p}" for p in paid]), "adding landmarks")


def test_the_combination_must_be_completed_this_turn() -> None:
    """"if that player completed a combination" on their turn: an old combination does not count."""
    game, chosen = _landmark_table("lm-07")
    build(game, chosen[2], _pay_all(game, chosen[2]))
    end_turn(game)
    end_turn(game)
    drawn(game)
    refused(game, Action.of("landmark", 0, tile="lm-07", card=chosen[0], where="above"), "adding landmarks")


def test_face_up_landmarks_refill_at_the_end_of_the_turn() -> None:
    """After a tile is taken, the face-up tiles are made up to three again (stand-in decision: when
    the draw row is refilled)."""
    game, chosen = _landmark_table("lm-07")
    build(game, chosen[2], _pay_all(game, chosen[2]))
    game.push(Action.of("landmark", 0, tile="lm-07", card=chosen[0], where="above"))
    assert game.state.landmarks_up == []
    game.push(Action.of("end_turn", 0))
    game.resolve_chance()
    assert len(game.state.landmarks_up) == 3


def test_landmarks_are_refused_in_the_basic_game() -> None:
    """"If playing the Advanced version, the Adding Landmarks step occurs after the Building step.\""""
    game = started(2)
    drawn(game)
    refused(game, Action.of("landmark", 0, tile="lm-01", card="bs-01", where="above"), "adding landmarks")


def test_a_flip_landmark_lets_its_owner_flip_one_card_per_turn() -> None:
    """"At no point (unless allowed by a Landmark ability, see Landmarks below), may a player flip a
    card" — the stand-in 'flip' ability allows one flip per turn."""
    game = started(2, landmarks=True)
    flip_tile = next(t.id for t in CAT.landmarks.values() if t.ability == "flip")
    from rules.bigsur import Placement

    base = cards(game, miles=1, exclude=game.state.row)[0].id
    hand = cards(game, miles=2, exclude=[*game.state.row, base])[:2]
    put(game, 0, tableau=[base], highways=[hand[0].id], materials=[hand[1].id])
    s = game.state
    (s.landmark_pool if flip_tile in s.landmark_pool else s.landmarks_up).remove(flip_tile)
    s.seats[0].landmarks.append(Placement(flip_tile, base, "above"))
    refused(game, Action.of("flip", 0, card=hand[0].id), "drawing")  # flipping waits for the building step
    drawn(game)
    game.push(Action.of("flip", 0, card=hand[0].id))
    s = game.state  # a refused action restores a copy of the state
    assert hand[0].id in s.seats[0].materials
    refused(game, Action.of("flip", 0, card=hand[1].id), "drawing: no flipping")
    refused(game, Action.of("flip", 0, card=s.seats[0].starter), "drawing: no flipping")
    end_turn(game)
    end_turn(game)
    drawn(game)
    game.push(Action.of("flip", 0, card=hand[1].id))
    assert hand[1].id in game.state.seats[0].highways


def test_a_landmark_material_pays_once_per_turn() -> None:
    """Stand-in benefit: a tile's material is used like a 1-mile card's, once per turn."""
    game = started(2, landmarks=True)
    tile = next(t for t in CAT.landmarks.values() if t.material)
    from rules.bigsur import Placement

    base = cards(game, miles=3, exclude=game.state.row)[0].id
    want = [c.id for c in cards(game, miles=1, exclude=[*game.state.row, base]) if c.cost == (tile.material,)][:2]
    put(game, 0, tableau=[base], highways=want)
    s = game.state
    (s.landmark_pool if tile.id in s.landmark_pool else s.landmarks_up).remove(tile.id)
    s.seats[0].landmarks.append(Placement(tile.id, base, "below"))
    drawn(game)
    build(game, want[0], [f"landmark:{tile.id}"])
    refused(game, Action.of("build", 0, card=want[1], end="left", pay=[f"landmark:{tile.id}"]), "landmarks: materials")


# ---------------------------------------------------------------------------------------- game end
def test_the_game_ends_after_the_last_players_turn_once_the_deck_is_exhausted() -> None:
    """"Play continues until the final turn of the last player, after which the draw deck is exhausted.
    After that player's turn, the game ends.\""""
    game = started(3)
    s = game.state
    # Leave two cards in the deck: the top one in view and one below it.
    keep = s.hidden - 1
    s.hidden -= keep
    game.push(Action.of("draw_deck", 0))
    game.resolve_chance()
    game.push(Action.of("draw_deck", 0))
    game.resolve_chance()
    assert s.deck_size() == 0
    end_turn(game)  # the row cannot be refilled; seats 1 and 2 still play
    assert not game.is_game_over() and game.current_player() == 1
    for seat in (1, 2):
        assert game.current_player() == seat
        game.push(Action.of("draw", seat, card=s.row[0], side="highway"))
        game.push(Action.of("draw", seat, card=s.row[0], side="highway"))
        end_turn(game)
    assert game.is_game_over()
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction):
        game.push(Action.of("end_turn", 0))


def test_the_round_goes_on_when_the_deck_runs_out_early() -> None:
    """The deck running out during the first player's turn does not end the game at once."""
    game = started(2)
    s = game.state
    s.hidden = 0
    game.push(Action.of("draw_deck", 0))
    game.resolve_chance()
    game.push(Action.of("draw", 0, card=s.row[0], side="material"))
    end_turn(game)
    assert not game.is_game_over() and game.current_player() == 1
    game.push(Action.of("draw", 1, card=s.row[0], side="material"))
    game.push(Action.of("draw", 1, card=s.row[0], side="material"))
    end_turn(game)
    assert game.is_game_over()


def test_a_deck_refilled_row_does_not_end_the_game_early() -> None:
    """While the deck holds cards the game goes on, round after round."""
    game = started(2, seed=5)
    turns = 0
    while not game.is_game_over():
        assert turns < 200
        drawable = [a for a in game.legal_actions() if a.kind in ("draw", "draw_deck")]
        game.push(drawable[0] if drawable else Action.of("end_turn", game.state.turn))
        if not drawable:
            game.resolve_chance()
            turns += 1
    assert game.state.deck_size() == 0
    assert turns % 2 == 0, "both players had the same number of turns"


def test_a_landmark_stays_with_its_card_when_cards_are_added_on_the_left() -> None:
    """"Once placed, however, Highway cards may not be moved": a tile placed against a card stays
    against it, and its reported position follows as cards are built on the left."""
    game, chosen = _landmark_table("lm-07")
    build(game, chosen[2], _pay_all(game, chosen[2]))
    game.push(Action.of("landmark", 0, tile="lm-07", card=chosen[1], where="above"))
    assert [p.position for p in game.placed_landmarks(0)] == [1]
    end_turn(game)
    end_turn(game)
    extra = cards(game, miles=1)[0].id
    put(game, 0, highways=[extra])
    _hand_for(game, 0, extra)
    drawn(game)
    build(game, extra, _pay_all(game, extra), end="left")
    assert game.state.seats[0].tableau[2] == chosen[1]
    assert [p.position for p in game.placed_landmarks(0)] == [2]
    line = next(ln.to_json() for ln in game.breakdown(0).lines if ln.kind == "landmark")
    assert line["cards"] == [2] and line["where"] == "above"


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_canonical_payment_is_found_whenever_any_payment_exists(data: st.DataObject) -> None:
    """The engine lists a build whenever some choice of sources pays its cost exactly (checked by
    brute force over every subset of the sources), and the payment it lists is accepted."""
    game = started(2, seed=data.draw(st.integers(0, 50)))
    free = [c.id for c in cards(game)]
    picks = data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=9, unique=True))
    target, rest = picks[0], picks[1:]
    ones = [c for c in rest if CAT.cards[c].miles == 1]
    n_tableau = data.draw(st.integers(0, min(2, len(ones))))
    tableau = ones[:n_tableau]
    others = [c for c in rest if c not in tableau]
    discard = others[:1] if others and data.draw(st.booleans()) else []
    hand = [c for c in others if c not in discard]
    put(game, 0, highways=[target], materials=hand, discard=discard, tableau=tableau)
    seat = game.state.seats[0]
    if data.draw(st.booleans()):  # the Starter on the discard pile instead
        assert seat.starter is not None
        seat.materials.remove(seat.starter)
        seat.discard.append(seat.starter)
    drawn(game)
    options: list[tuple[str, tuple[str, ...]]] = [(f"hand:{c}", (game.hand_material(0, c),)) for c in seat.materials]
    options += list(game.sources(0).items())
    cost = Counter(CAT.cards[target].cost)
    possible = any(Counter(chosen) == cost
                   for combo in itertools.combinations(options, cost.total())
                   for chosen in itertools.product(*(offers for _, offers in combo)))
    pay = game.payment_for(target)
    assert (pay is not None) == possible
    if pay is not None:
        game.push(Action.of("build", 0, card=target, end="right", pay=pay))
        assert game.state.seats[0].tableau[-1] == target
