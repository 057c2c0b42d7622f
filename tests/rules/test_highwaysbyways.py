"""Highways & Byways: one test per rule, named after it, with the rulebook sentence it checks.

Positions are reached by playing the set-up with fixed choices; where a test needs a particular
hand or square it moves cards between the deck and the hand (keeping every card accounted for)
or puts the car on a space, and says so.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from rules import Action, ActionFormatError, IllegalAction, RulesError, UndoRefused
from rules.highwaysbyways import HighwaysAndByways, catalog_items, load, playout_choice
from rules.highwaysbyways.playout import targets

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
CAT = load()
NEUTRAL = ["hb-veh-five-o", "hb-veh-ancient-one", "hb-veh-stationary-wagon", "hb-veh-cowboy"]


# ---------------------------------------------------------------------- helpers
def new_game(players: int = 2, seed: int = 0, **options: Any) -> HighwaysAndByways:
    return HighwaysAndByways(NAMES[:players], seed=seed, options=options)


def play_setup(game: HighwaysAndByways, vehicles: list[str] | None = None,
               starts: list[str] | None = None, *, until: str = "driving") -> HighwaysAndByways:
    """Set-up and drafts with fixed choices: the given vehicles and Start Spaces (else the first
    legal ones), chance from the seed, the first card of every choice kept, the first drop."""
    while game.state.phase != until:
        if game.is_chance_node():
            game.push(game.sample_chance())
            continue
        p = game.current_player()
        assert p is not None
        if game.state.phase == "vehicle" and vehicles:
            game.push(Action.of("choose_vehicle", p, vehicle=vehicles[p]))
        elif game.state.phase == "start" and starts:
            game.push(Action.of("choose_start", p, space=starts[p]))
        else:
            game.push(game.legal_actions()[0])
    return game


def driving_game(players: int = 2, *, vehicles: list[str] | None = None, seed: int = 0,
                 construction: str = "hb-con-a", starts: list[str] | None = None) -> HighwaysAndByways:
    """A game at the first event pick of the driving stage, ``construction`` face up."""
    game = play_setup(new_game(players, seed), vehicles or NEUTRAL[:players], starts)
    game.push(Action.of("construction", None, card=construction))
    return game


def set_hand(game: HighwaysAndByways, player: int, cards: list[str]) -> None:
    """Swap ``player``'s hand for ``cards`` through the event deck, so no card is made up."""
    s = game.state
    for card in s.hands[player]:
        s.event_deck[card] = s.event_deck.get(card, 0) + 1
    s.hands[player] = []
    for card in cards:
        pile = s.event_deck if s.event_deck.get(card, 0) else s.event_discard
        assert pile.get(card, 0) > 0, f"{card} is in neither the deck nor the discard pile"
        pile[card] -= 1
        if not pile[card]:
            del pile[card]
        s.hands[player].append(card)


def play_event(game: HighwaysAndByways, card: str) -> None:
    """The clockwise neighbour takes ``card`` (put leftmost in the mover's hand)."""
    mover = game.state.seat
    set_hand(game, mover, [card, *[c for c in game.state.hands[mover] if c != card][:4]])
    game.push(Action.of("pick_event", None, position=0))


def quiet_event(game: HighwaysAndByways) -> None:
    """Resolve an event card that changes nothing here (a Road Atlas)."""
    play_event(game, "hb-ev-road-atlas")


def put(game: HighwaysAndByways, player: int, space: str) -> None:
    game.state.position[player] = space


def drive(game: HighwaysAndByways, *path: str) -> None:
    game.push(Action.of("drive", game.state.seat, path=list(path)))


def finish_turn(game: HighwaysAndByways) -> None:
    """End the turn, draw from the seed and keep the first card drawn."""
    p = game.state.seat
    game.push(Action.of("end_turn", p))
    game.resolve_chance()
    if game.state.step == "keep":
        game.push(game.legal_actions()[0])


def start_round(game: HighwaysAndByways) -> None:
    """Player 1 draws the round's construction card (from the seed)."""
    assert game.state.step == "construction"
    game.push(game.sample_chance())


def refused(game: HighwaysAndByways, action: Action, error: type[RulesError] = IllegalAction) -> str:
    """Push ``action``, expect ``error``, and check the state did not change."""
    before = copy.deepcopy(game.state)
    history = len(game.actions)
    with pytest.raises(error) as info:
        game.push(action)
    assert game.state == before
    assert len(game.actions) == history
    message = str(info.value)
    assert message and "\n" not in message
    return message


# ---------------------------------------------------------------------- set-up
def test_player_one_chooses_the_first_vehicle_then_clockwise() -> None:
    """"Give that player the Player 1 Card. They choose the first Vehicle. Go clockwise around the
    table until everyone has a Vehicle.\""""
    game = new_game(3, first_player=1)
    order = []
    while game.state.phase == "vehicle":
        p = game.current_player()
        order.append(p)
        game.push(game.legal_actions()[0])
    assert order == [1, 2, 0]
    assert len(set(game.state.vehicles)) == 3
    assert refused(new_game(3), Action.of("choose_vehicle", 1, vehicle="hb-veh-cowboy"))


def test_a_vehicle_can_be_taken_only_once() -> None:
    """"Each player picks one Vehicle.\""""
    game = new_game(2)
    game.push(Action.of("choose_vehicle", 0, vehicle="hb-veh-cowboy"))
    assert "taken" in refused(game, Action.of("choose_vehicle", 1, vehicle="hb-veh-cowboy"))
    assert "no vehicle" in refused(game, Action.of("choose_vehicle", 1, vehicle="hb-veh-tardis"))


def test_start_spaces_are_chosen_in_the_same_order_and_never_shared() -> None:
    """"The player with the Player 1 Card chooses a Start Space first. Go clockwise around the
    table until everyone has a Start Space. Two or more players cannot share the same Start Space.\""""
    game = new_game(2, first_player=1)
    game.push(Action.of("choose_vehicle", 1, vehicle="hb-veh-cowboy"))
    game.push(Action.of("choose_vehicle", 0, vehicle="hb-veh-five-o"))
    assert game.current_player() == 1
    game.push(Action.of("choose_start", 1, space="j01"))
    assert "share" in refused(game, Action.of("choose_start", 0, space="j01"))
    assert "not a Start Space" in refused(game, Action.of("choose_start", 0, space="h01"))
    game.push(Action.of("choose_start", 0, space="j40"))
    assert game.state.homes == ["j40", "j01"]
    assert game.state.position == ["j40", "j01"], "the Car Piece goes on top of the Home Marker"


def test_six_start_spaces_one_in_each_named_state() -> None:
    """"Start Spaces circled in Pink. There are six. One is located in each of the following:
    California, Wyoming, Iowa, Texas, Georgia, and Pennsylvania.\""""
    regions = sorted(CAT.spaces[s].region for s in CAT.starts)
    assert regions == sorted(["California", "Wyoming", "Iowa", "Texas", "Georgia", "Pennsylvania"])
    assert all(CAT.spaces[s].is_highway for s in CAT.starts)


def test_each_player_is_dealt_five_event_cards() -> None:
    """"Deal each player five Event Cards.\""""
    game = play_setup(new_game(4), until="red draft")
    assert [len(h) for h in game.state.hands] == [5, 5, 5, 5]
    assert sum(game.state.event_deck.values()) == sum(c.count for c in CAT.events.values()) - 20


# ---------------------------------------------------------------------- planning stage
def test_red_draft_draw_two_keep_one_pass_one_clockwise() -> None:
    """"The player with the Player 1 Card draws two Red Byways Cards. They choose one Red Byway Card
    to keep and one to pass to the clockwise player. The next player will then draw a new Red Byway
    Card, keep one, and pass the other.\""""
    game = play_setup(new_game(3, first_player=2), until="red draft")
    reds = CAT.deck("red")
    game.push(Action.of("draw_byway", None, card=reds[0]))
    assert game.is_chance_node(), "Player 1 draws two"
    game.push(Action.of("draw_byway", None, card=reds[1]))
    assert game.current_player() == 2
    game.push(Action.of("keep_byway", 2, card=reds[1]))
    assert game.state.kept[2] == [reds[1]]
    assert game.state.draft_hold == [reds[0]], "the other card is passed"
    assert game.is_chance_node(), "the next player draws one new card"
    game.push(Action.of("draw_byway", None, card=reds[5]))
    assert game.current_player() == 0, "clockwise from seat 2 is seat 0"
    assert sorted(game.state.draft_hold) == sorted([reds[0], reds[5]])
    assert "hold" in refused(game, Action.of("keep_byway", 0, card=reds[2]))


def test_red_draft_with_four_players_the_last_player_receives_the_last_card() -> None:
    """"This process repeats until everybody has two Red Byway Cards. (When playing with four
    players, the last player will receive the last remaining Red Byway Card.)\""""
    game = play_setup(new_game(4), until="red draft")
    keeps = []
    while game.state.phase == "red draft":
        if game.is_chance_node():
            game.push(game.sample_chance())
        else:
            keeps.append(game.current_player())
            game.push(game.legal_actions()[0])
    assert keeps == [0, 1, 2, 3, 0, 1, 2], "the eighth card is received without a choice"
    assert [len(k) for k in game.state.kept] == [2, 2, 2, 2]
    assert all(CAT.byways[b].color == "red" for k in game.state.kept for b in k)
    assert game.state.box == []


def test_remaining_red_byway_cards_go_in_the_box() -> None:
    """"Place any remaining Red Byway Cards in the box. You don't need them anymore.\""""
    game = play_setup(new_game(2), until="blue draft")
    kept = [b for k in game.state.kept for b in k]
    assert len(kept) == 4
    assert sorted(game.state.box) == sorted(set(CAT.deck("red")) - set(kept))
    assert game.state.red_deck == []


def test_blue_draft_until_everyone_has_ten_blue_byways() -> None:
    """"Player 1 will now draw 2 Blue Byway Cards ... This process repeats until everybody has ten
    Blue Byway Cards. At this point, all players should have 2 Red Byway Cards, 10 Blue Byway Cards,
    and 12 Travel Markers on the board.\""""
    for players in (2, 4):
        game = play_setup(new_game(players), until="drop")
        for p in range(players):
            colors = Counter(CAT.byways[b].color for b in game.state.kept[p])
            assert colors == {"red": 2, "blue": 10}
            assert sorted(game.state.markers[p]) == sorted(game.state.kept[p])
            assert game.zones()["travel markers on the board"][f"travel marker {p}"] == 12


def test_travel_marker_placed_on_every_byway_received() -> None:
    """"Every time you draw a Red Byway Card or Blue Byway Card – place Travel Marker on the road
    depicted on the Byway Card you just received.\""""
    game = play_setup(new_game(2), until="red draft")
    game.resolve_chance()
    card = game.state.draft_hold[0]
    game.push(Action.of("keep_byway", 0, card=card))
    assert game.state.markers[0] == [card]


def test_drop_one_red_byway_or_two_blue_byways() -> None:
    """"Now you get to do one and only one of the following: 1. Remove one Travel Marker from one of
    your Red Byways. 2. Remove one Travel Marker from each of two of your Blue Byways.\""""
    game = play_setup(new_game(2), until="drop")
    p = game.current_player()
    assert p == 0
    marked = game.state.markers[0]
    reds = [b for b in marked if CAT.byways[b].color == "red"]
    blues = [b for b in marked if CAT.byways[b].color == "blue"]
    assert "one Red Byway or of two Blue" in refused(game, Action.of("drop_byways", 0, cards=[blues[0]]))
    refused(game, Action.of("drop_byways", 0, cards=[reds[0], blues[0]]))
    refused(game, Action.of("drop_byways", 0, cards=reds))
    refused(game, Action.of("drop_byways", 0, cards=[blues[0], blues[0]]))
    other = game.state.markers[1][0]
    refused(game, Action.of("drop_byways", 0, cards=[other]))
    assert len(game.legal_actions()) == 2 + 45
    game.push(Action.of("drop_byways", 0, cards=[reds[0]]))
    assert reds[0] not in game.state.markers[0] and game.state.dropped[0] == [reds[0]]
    assert len(game.state.markers[0]) == 11
    blues1 = [b for b in game.state.markers[1] if CAT.byways[b].color == "blue"]
    game.push(Action.of("drop_byways", 1, cards=blues1[:2]))
    assert len(game.state.markers[1]) == 10
    assert game.state.phase == "driving"


# ---------------------------------------------------------------------- driving: construction
def test_player_one_card_passes_to_the_player_who_chose_last() -> None:
    """"Give the Player 1 Card to the person who got to pick their Vehicle and Start Space last.
    The new Player 1 gets to move first, and then you go clockwise.\""""
    for first, expect in ((0, 2), (1, 0), (2, 1)):
        game = play_setup(new_game(3, first_player=first))
        assert game.state.p1 == expect
        game.push(Action.of("construction", None, card="hb-con-b"))
        assert game.state.seat == expect
        quiet_event(game)
        finish_turn(game)
        assert game.state.seat == (expect + 1) % 3


def test_player_one_draws_a_construction_card_into_the_leftmost_free_slot_each_round() -> None:
    """"Player 1 ... must draw a random Construction Card and place it in the leftmost available card
    slot on the bottom right of the board.\""""
    game = play_setup(new_game(2))
    assert game.is_chance_node() and game.state.step == "construction"
    assert {a["card"] for a in game.legal_actions()} == set(CAT.construction)
    game.push(Action.of("construction", None, card="hb-con-c"))
    assert game.state.slots == ["hb-con-c"] and game.construction_letter() == "C"
    quiet_event(game)
    finish_turn(game)
    assert game.state.step == "event", "only Player 1's turn starts with a construction card"
    quiet_event(game)
    finish_turn(game)
    assert game.state.step == "construction"
    assert "hb-con-c" not in {a["card"] for a in game.legal_actions()}
    assert "left to play" in refused(game, Action.of("construction", None, card="hb-con-c"))
    game.push(Action.of("construction", None, card="hb-con-e"))
    assert game.state.slots == ["hb-con-c", "hb-con-e"] and game.construction_letter() == "E"


def test_closed_highway_spaces_cannot_be_entered() -> None:
    """"While that Construction Card is face-up, players cannot travel on any highway spaces that
    contain the letter on the card.\""""
    game = driving_game(construction="hb-con-c")
    put(game, game.state.seat, "v11")   # a D road, next to j11 (roads C and D)
    quiet_event(game)
    assert game.is_closed("j11") and not game.is_closed("j12")
    p = game.state.seat
    assert "closed" in refused(game, Action.of("drive", p, path=["j11"]))
    assert Action.of("drive", p, path=["j11"]) not in game.legal_actions()
    drive(game, "j12")
    assert game.state.position[p] == "j12"


def test_a_car_on_a_closed_space_cannot_move_and_spends_the_day_planning() -> None:
    """"If you're currently on a highway space that contains the letter depicted on the Construction
    Card, you cannot move that turn. You must spend your day planning. That means you can discard up
    to three (3) Event Cards and draw the same amount from the top of the Event Card deck.\""""
    game = driving_game(construction="hb-con-c")
    p = game.state.seat
    put(game, p, "h11")  # a C road
    quiet_event(game)
    assert game.state.turn.planning_day
    assert {a.kind for a in game.legal_actions()} == {"plan_discard", "end_turn"}
    assert "cannot move" in refused(game, Action.of("drive", p, path=["j11"]), IllegalAction)
    hand = list(game.state.hands[p])
    for card in hand[:3]:
        game.push(Action.of("plan_discard", p, card=card))
    assert "at most 3" in refused(game, Action.of("plan_discard", p, card=hand[3]))
    assert len(game.state.hands[p]) == len(hand) - 3
    game.push(Action.of("end_turn", p))
    for _ in range(3):
        assert game.state.step == "redraw"
        game.push(game.sample_chance())
    assert len(game.state.hands[p]) == len(hand), "drew the same amount"
    assert game.state.step == "draw", "then the usual end-of-turn draw"


def test_full_slots_reshuffle_the_construction_cards_and_pass_event_hands_clockwise() -> None:
    """"If all 5 Construction Card slots are filled up at the start of Player 1's turn, two things
    happen. First, Player 1 picks up all the Construction Cards on the board, shuffles them together,
    and places a fresh card face-up in the leftmost slot. Second, all players pass their Event Card
    hands clockwise.\""""
    game = driving_game(3)
    for _ in range(4):
        for _ in range(3):
            quiet_event(game)
            finish_turn(game)
        start_round(game)
    assert len(game.state.slots) == 5 and not game.state.construction_deck
    for _ in range(3):
        quiet_event(game)
        finish_turn(game)
    assert game.state.step == "construction"
    assert game.state.reshuffled and game.state.slots == []
    assert sorted(a["card"] for a in game.legal_actions()) == sorted(CAT.construction)
    game.push(Action.of("construction", None, card="hb-con-d"))
    assert game.state.slots == ["hb-con-d"], "a fresh card face-up in the leftmost slot"


def test_event_hands_pass_to_the_next_player_clockwise_on_a_reshuffle() -> None:
    """"Second, all players pass their Event Card hands clockwise.\""""
    game = driving_game(3)
    p1 = game.state.p1
    for _ in range(4):
        for _ in range(3):
            quiet_event(game)
            finish_turn(game)
        start_round(game)
    for _ in range(2):
        quiet_event(game)
        finish_turn(game)
    quiet_event(game)
    last = game.state.seat
    game.push(Action.of("end_turn", last))
    game.resolve_chance()
    before = [list(h) for h in game.state.hands]
    kept = game.legal_actions()[0]
    before[last].append(kept["card"])
    game.push(kept)
    assert game.state.seat == p1 and game.state.reshuffled
    for p in range(3):
        assert game.state.hands[(p + 1) % 3] == before[p]


# ---------------------------------------------------------------------- driving: events
def test_the_clockwise_neighbour_picks_an_event_card_blind_as_a_random_hand_position() -> None:
    """"Without looking, the player clockwise of you must select an Event Card from your hand.\""""
    game = driving_game(3)
    mover = game.state.seat
    assert game.is_chance_node() and game.state.step == "event"
    assert game.legal_actions() == [Action.of("pick_event", None, position=i) for i in range(5)]
    third = Action.of("pick_event", None, position=2)
    neighbour = NAMES[(mover + 1) % 3]
    assert game.describe(third) == f"{neighbour}: take the 3rd card from the left of {NAMES[mover]}'s hand"
    hand = ["hb-ev-fog", "hb-ev-open-road", "hb-ev-road-atlas", "hb-ev-fender-bender", "hb-ev-blizzard"]
    set_hand(game, mover, hand)
    discarded = game.state.event_discard.get("hb-ev-road-atlas", 0)
    game.push(third)
    assert game.state.hands[mover] == hand[:2] + hand[3:]
    assert game.state.event_discard.get("hb-ev-road-atlas", 0) == discarded + 1, \
        "resolved, then placed in the Event Card discard pile"
    assert game.state.turn.extra_cards == 2
    with pytest.raises(UndoRefused):
        game.pop()
    assert "position 9" in refused(driving_game(3), Action.of("pick_event", None, position=9))


def test_the_event_is_resolved_even_if_the_mover_does_not_move() -> None:
    """"Resolve the effects on the Event Card, even if you cannot or choose not to move that turn.\""""
    game = driving_game(construction="hb-con-c")
    p = game.state.seat
    put(game, p, "h11")  # closed: a planning day, and still the event happens
    play_event(game, "hb-ev-fog")
    assert game.state.turn.planning_day and game.state.turn.penalty == 2
    assert game.state.event_discard.get("hb-ev-fog") == 1
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    put(game, p, "v11")
    play_event(game, "hb-ev-traffic-north")
    assert game.state.position[p] == "j12"
    game.push(Action.of("end_turn", p))
    assert game.state.position[p] == "j12"


def test_traffic_moves_the_car_one_space_that_way() -> None:
    """"Traffic Event Cards: these cards cause players to drive north, south, east, or west.\""""
    for card, expect in (("hb-ev-traffic-east", "h12"), ("hb-ev-traffic-south", "v11"),
                         ("hb-ev-traffic-west", "h02"), ("hb-ev-traffic-north", "v12")):
        game = driving_game(construction="hb-con-a")
        p = game.state.seat
        put(game, p, "j12")
        play_event(game, card)
        assert game.state.position[p] == expect, card


def test_an_event_that_conflicts_with_the_construction_card_is_discarded_without_effect() -> None:
    """"If the Event Card has an effect which conflicts with the Construction Card, discard the Event
    Card, don't resolve its effect, and start moving.\""""
    game = driving_game(construction="hb-con-b")
    p = game.state.seat
    put(game, p, "v11")  # north of it lies j12 on road B
    play_event(game, "hb-ev-traffic-north")
    assert game.state.position[p] == "v11"
    assert "conflicts with the construction card" in game.state.turn.event_note
    assert game.state.event_discard.get("hb-ev-traffic-north") == 1
    assert game.state.step == "move"
    game = driving_game(construction="hb-con-b", vehicles=["hb-veh-five-o", "hb-veh-cowboy"])
    play_event(game, "hb-ev-repairs-b")
    assert game.state.turn.closed == [] and "conflicts" in game.state.turn.event_note


def test_an_event_asking_the_impossible_is_discarded() -> None:
    """"The same principle applies if the Event Card requires you to do something you can't do
    (such as move south when you're at the southernmost point of Texas).\""""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    put(game, p, "j20")  # Texas, on the southern edge
    play_event(game, "hb-ev-traffic-south")
    assert game.state.position[p] == "j20" and "impossible" in game.state.turn.event_note
    game = driving_game(construction="hb-con-a", vehicles=["hb-veh-cowboy", "hb-veh-ancient-one"])
    p = game.state.seat
    put(game, p, "d05a")  # a byway space: no accident there
    play_event(game, "hb-ev-fender-bender")
    assert not game.state.turn.planning_day and "impossible" in game.state.turn.event_note


def test_traffic_ties_are_decided_by_the_player_one_card_holder() -> None:
    """"Sometimes the spaces are placed in a way that makes it ambiguous where a space is relative to
    another space. Whenever there are disputes, the player currently holding the Player 1 Card gets
    to make the decision.\""""
    game = driving_game(3, construction="hb-con-a")
    finish = game.state.seat
    quiet_event(game)
    finish_turn(game)
    mover = game.state.seat
    assert mover != game.state.p1
    put(game, mover, "h11")
    tied = game.traffic_targets("h11", "north")
    assert len(tied) == 2
    play_event(game, "hb-ev-traffic-north")
    assert game.state.step == "dispute" and game.current_player() == game.state.p1 == finish
    assert [a["space"] for a in game.legal_actions()] == tied
    assert "turn" in refused(game, Action.of("settle_dispute", mover, space=tied[0]))
    assert "disputed" in refused(game, Action.of("settle_dispute", finish, space="j11"))
    game.push(Action.of("settle_dispute", finish, space=tied[1]))
    assert game.state.position[mover] == tied[1] and game.state.step == "move"
    assert game.can_undo()


def test_weather_and_extra_moves_change_the_movement_budget() -> None:
    """Event cards are data with a documented effect vocabulary (events.json "about")."""
    game = driving_game(construction="hb-con-a")
    play_event(game, "hb-ev-blizzard")
    assert game.moves_left() == 2
    game = driving_game(construction="hb-con-a")
    play_event(game, "hb-ev-full-tank")
    assert game.moves_left() == 9


def test_road_repairs_close_a_road_to_the_mover_for_the_turn() -> None:
    """Event vocabulary: repair {letter} closes that road's highway spaces to you this turn."""
    game = driving_game(construction="hb-con-a", vehicles=["hb-veh-five-o", "hb-veh-cowboy"])
    p = game.state.seat
    put(game, p, "v11")
    play_event(game, "hb-ev-repairs-b")
    assert "closed" in refused(game, Action.of("drive", p, path=["j12"]))
    drive(game, "j11")


def test_an_accident_on_a_highway_space_means_a_planning_day() -> None:
    """Event vocabulary: accident on a highway space: no moving this turn, spend the day planning."""
    game = driving_game(construction="hb-con-a", vehicles=["hb-veh-cowboy", "hb-veh-ancient-one"])
    put(game, game.state.seat, "j11")
    play_event(game, "hb-ev-fender-bender")
    assert game.state.turn.planning_day


def test_the_event_deck_reshuffles_its_discard_pile_when_it_runs_out() -> None:
    """"Once the Event Card deck runs out, shuffle the Event Card discard pile and use that as the deck.\""""
    game = driving_game(construction="hb-con-a")
    s = game.state
    # Move the whole remaining deck onto the discard pile, as if it had been drawn and discarded.
    for card, n in s.event_deck.items():
        s.event_discard[card] = s.event_discard.get(card, 0) + n
    s.event_deck = {}
    game.push(Action.of("pick_event", None, position=0))
    p = s.seat
    stock = game.inventory()
    game.push(Action.of("end_turn", p))
    assert game.is_chance_node() and sum(game.state.event_deck.values()) > 0
    assert game.state.event_discard == {}
    assert game.inventory() == stock


# ---------------------------------------------------------------------- moving and planning
def test_move_up_to_six_spaces_backtracking_and_sharing_allowed() -> None:
    """"You may move up to six (6) spaces per turn ... You are allowed to backtrack, going on the same
    space more than once per turn. You are allowed to share spaces with others.\""""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    other = 1 - p
    put(game, p, "j11")
    put(game, other, "h11")
    quiet_event(game)
    drive(game, "h11", "j11", "h11")
    assert game.state.position[p] == game.state.position[other] == "h11"
    drive(game, "j21", "h11", "j11")
    assert game.moves_left() == 0
    assert "0 spaces left" in refused(game, Action.of("drive", p, path=["h11"]))
    assert {a.kind for a in game.legal_actions()} == {"end_turn"}


def test_a_drive_follows_paths_one_connected_space_after_another() -> None:
    """"You can move to any dot connected to the previous one.\""""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    put(game, p, "j11")
    quiet_event(game)
    assert "no path joins" in refused(game, Action.of("drive", p, path=["h11", "h21"]))
    assert "no space" in refused(game, Action.of("drive", p, path=["nowhere"]))
    assert "at least one" in refused(game, Action.of("drive", p, path=[]))
    refused(game, Action.of("drive", p, path="h11"), ActionFormatError)
    refused(game, Action.of("drive", p), ActionFormatError)
    assert sorted(a["path"][0] for a in game.legal_actions() if a.kind == "drive") == sorted(CAT.neighbours["j11"])


def test_reachable_spaces_respect_the_budget_and_the_closures() -> None:
    """"You may move up to six (6) spaces per turn" and closed highway spaces cannot be entered:
    what the screen highlights is exactly what a drive may reach."""
    game = driving_game(construction="hb-con-c")
    p = game.state.seat
    put(game, p, "v11")
    play_event(game, "hb-ev-fog")
    reach = game.reachable()
    assert reach["v11"] == 0 and reach["j12"] == 1
    assert "j11" not in reach and "h11" not in reach, "C roads are closed"
    assert max(reach.values()) == 4
    for space, steps in reach.items():
        trial = copy.deepcopy(game)
        path = trial.route(space)
        assert len(path) == steps
        if path:
            trial.push(Action.of("drive", p, path=path))
            assert trial.state.position[p] == space
    with pytest.raises(IllegalAction, match="cannot be reached"):
        game.route("j40")
    game.push(Action.of("choice", p))
    assert game.reachable() == {}


def test_draw_planning_action_costs_two_spaces() -> None:
    """"Draw: For two (2) spaces, discard one Event Card from your hand and draw the top Event Card
    from the deck.\""""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    quiet_event(game)
    drive(game, CAT.neighbours[game.state.position[p] or ""][0])
    card = game.state.hands[p][0]
    game.push(Action.of("draw", p, card=card))
    assert game.is_chance_node() and game.state.step == "redraw"
    game.push(game.sample_chance())
    assert len(game.state.hands[p]) == 4 and game.moves_left() == 3
    game.push(Action.of("draw", p, card=game.state.hands[p][0]))
    game.push(game.sample_chance())
    assert game.moves_left() == 1
    assert "costs 2" in refused(game, Action.of("draw", p, card=game.state.hands[p][0]))


def test_after_planning_you_cannot_move_any_more() -> None:
    """"After moving or not moving, if you have not reached your movement limit, you can trade extra
    spaces for planning actions.\""""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    quiet_event(game)
    game.push(Action.of("choice", p))
    here = game.state.position[p] or ""
    assert "planning actions come after moving" in refused(
        game, Action.of("drive", p, path=[CAT.neighbours[here][0]]))
    assert not any(a.kind == "drive" for a in game.legal_actions())


def test_choice_at_most_once_draws_five_and_keeps_one() -> None:
    """"Choice: For two (2) spaces, at the end of your turn, you get three (3) extra Event Cards to
    choose from ... You can take multiple planning actions, as long as only one is a Choice action.\""""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    quiet_event(game)
    game.push(Action.of("choice", p))
    assert "only one Choice" in refused(game, Action.of("choice", p))
    game.push(Action.of("draw", p, card=game.state.hands[p][0]))
    game.push(game.sample_chance())
    game.push(Action.of("end_turn", p))
    game.resolve_chance()
    # quiet_event was a Road Atlas (+2), so 2 + 3 + 2 cards to choose from
    assert len(game.state.turn.drawn) == 7
    hand = len(game.state.hands[p])
    game.push(game.legal_actions()[0])
    assert len(game.state.hands[p]) == hand + 1


def test_end_of_every_turn_draw_two_event_cards_keep_one() -> None:
    """"After moving and planning, draw two Event Cards at random. Discard one of the two Event Cards.\""""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    play_event(game, "hb-ev-fog")
    game.push(Action.of("end_turn", p))
    assert game.is_chance_node()
    game.resolve_chance()
    drawn = list(game.state.turn.drawn)
    assert len(drawn) == 2 and game.current_player() == p
    discards = dict(game.state.event_discard)
    assert "drew" in refused(game, Action.of("keep", p, card="hb-ev-not-drawn"))
    game.push(Action.of("keep", p, card=drawn[1]))
    assert game.state.hands[p][-1] == drawn[1]
    assert game.state.event_discard.get(drawn[0], 0) == discards.get(drawn[0], 0) + 1
    assert len(game.state.hands[p]) == 5


# ---------------------------------------------------------------------- byways
def byway_with(first: str) -> str:
    return next(b.id for b in CAT.byways.values() if b.spaces[0] == first)


def own(game: HighwaysAndByways, player: int, byways: list[str]) -> None:
    """Give ``player`` exactly these marked byways (test set-up: the drafts are tested above)."""
    game.state.markers[player] = list(byways)
    game.state.progress[player] = {}


def test_a_byway_counts_only_when_driven_end_to_end_in_either_direction() -> None:
    """"To get credit for finishing any given Byway, you have to drive the entire length continuously
    without leaving to drive on another road.\""""
    loop = byway_with("b11w")  # b11w - x11 - b11e, between v11 and v21
    for start, path in (("v11", ["b11w", "x11", "b11e"]), ("v21", ["b11e", "x11", "b11w"])):
        game = driving_game(construction="hb-con-a")
        p = game.state.seat
        own(game, p, [loop, byway_with("d05a")])
        put(game, p, start)
        quiet_event(game)
        drive(game, *path)
        assert game.state.driven[p] == [loop] and loop not in game.state.markers[p]
        assert game.breakdown(p).lines[0].kind == "byway"


def test_leaving_a_byway_part_way_means_driving_all_of_it_later() -> None:
    """"If you leave a Byway in mid-travel, you must travel the entire Byway's length later. Do not
    remove your Travel Marker from its Byway until you travel the entire length of the road.\""""
    red = byway_with("r11a")  # r11a - x11 - r11c - r11d, crossing the blue byway at x11
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    own(game, p, [red])
    put(game, p, "h11")
    quiet_event(game)
    drive(game, "r11a", "x11")
    assert game.state.progress[p] == {red: [1, 2]}, "the Travel Marker moves ahead in the direction to go"
    drive(game, "b11e", "x11", "r11c", "r11d")  # left along the blue byway, came back
    assert game.state.markers[p] == [red] and game.state.driven[p] == []


def test_byway_progress_carries_over_between_turns() -> None:
    """"If you start travelling on a Byway, move your Travel Marker one space ahead in the direction
    that must be travelled to complete the road.\""""
    red = byway_with("r11a")
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    own(game, p, [red])
    put(game, p, "h11")
    quiet_event(game)
    drive(game, "r11a", "x11")
    finish_turn(game)
    quiet_event(game)
    finish_turn(game)
    start_round(game)
    quiet_event(game)
    assert game.state.seat == p and game.state.progress[p] == {red: [1, 2]}
    drive(game, "r11c", "r11d")
    assert game.state.driven[p] == [red]


def test_backing_up_along_a_byway_breaks_it() -> None:
    """"... you have to drive the entire length continuously.\""""
    red = byway_with("r11a")
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    own(game, p, [red])
    put(game, p, "h11")
    quiet_event(game)
    drive(game, "r11a", "x11", "r11c", "x11", "r11c", "r11d")
    assert game.state.driven[p] == [] and game.state.markers[p] == [red]
    assert game.state.progress[p] == {}


def test_a_traffic_push_drives_the_path_it_follows() -> None:
    """Interpretation: a car pushed by Traffic drives that path, so it can start a byway ..."""
    red = byway_with("r11a")
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    own(game, p, [red])
    put(game, p, "r11a")
    play_event(game, "hb-ev-traffic-north")
    assert game.state.position[p] == "x11" and game.state.progress[p] == {red: [1, 2]}


def test_a_traffic_push_home_with_every_byway_driven_is_a_finish() -> None:
    """... and get home: "When you return to your Start Space after driving all your Byways"."""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    assert game.state.homes[p] == "j12"
    own(game, p, [])
    put(game, p, "v11")
    play_event(game, "hb-ev-traffic-north")
    assert game.state.finished == [p] and game.is_game_over()


# ---------------------------------------------------------------------- vehicles
@pytest.mark.parametrize(("vehicle", "card"), [
    ("hb-veh-cowboy", "hb-ev-blizzard"), ("hb-veh-stationary-wagon", "hb-ev-traffic-east"),
    ("hb-veh-five-o", "hb-ev-fender-bender"), ("hb-veh-ancient-one", "hb-ev-repairs-b"),
])
def test_some_vehicles_are_not_affected_by_certain_event_cards(vehicle: str, card: str) -> None:
    """"Some Vehicles (Cowboy, Stationary Wagon, Five-O, and the Ancient One) will not be affected by
    certain Event Cards.\""""
    others = [v for v in [*NEUTRAL, "hb-veh-soccermobile"] if v != vehicle]
    game = driving_game(vehicles=[others[0], vehicle])
    p = game.state.seat
    assert game.state.vehicles[p] == vehicle
    put(game, p, "j12")
    play_event(game, card)
    t = game.state.turn
    assert game.state.position[p] == "j12" and t.budget == 6 and not t.planning_day and not t.closed
    assert "no effect" in t.event_note


def test_the_soccermobile_draws_more_event_cards_each_turn() -> None:
    """"The Soccermobile is able to draw more Event Cards each turn.\""""
    game = driving_game(vehicles=["hb-veh-five-o", "hb-veh-soccermobile"])
    p = game.state.seat
    play_event(game, "hb-ev-fog")
    game.push(Action.of("end_turn", p))
    game.resolve_chance()
    assert len(game.state.turn.drawn) == 3
    game.push(game.legal_actions()[0])
    assert len(game.state.hands[p]) == 5, "still keeps only one"


def test_the_rustbucket_moves_extra_spaces_on_reshuffle_rounds() -> None:
    """"Rustbucket is able to move extra spaces on rounds when the Construction deck has been reshuffled.\""""
    game = driving_game(2, vehicles=["hb-veh-five-o", "hb-veh-rustbucket"])
    p1 = game.state.p1
    play_event(game, "hb-ev-fog")
    assert game.moves_left() == 4, "no bonus on an ordinary round"
    finish_turn(game)
    for _ in range(4):
        quiet_event(game)
        finish_turn(game)
        start_round(game)
        quiet_event(game)
        finish_turn(game)
    quiet_event(game)
    finish_turn(game)
    assert game.state.reshuffled and game.state.seat == p1
    start_round(game)
    play_event(game, "hb-ev-fog")
    assert game.moves_left() == 6, "6 - 2 for fog + 2 for the Rustbucket"


# ---------------------------------------------------------------------- winning
def test_home_with_every_byway_driven_finishes_and_discards_the_hand() -> None:
    """"Be the first player to drive all your Byways and return to your Start Space ... When you return
    to your Start Space after driving all your Byways, place your Event Cards in the discard pile.\""""
    game = driving_game(3, construction="hb-con-a")
    p = game.state.seat
    home = game.state.homes[p] or ""
    own(game, p, [])
    step_out = next(n for n in CAT.neighbours[home] if not game.is_closed(n))
    put(game, p, step_out)
    quiet_event(game)
    hand = Counter(game.state.hands[p])
    discard = Counter(game.state.event_discard)
    drive(game, home)
    assert game.state.finished == [p] and game.state.hands[p] == []
    assert Counter(game.state.event_discard) == discard + hand
    assert game.state.seat != p, "the next player drives"
    assert not game.is_game_over(), "play continues for second place"
    standing = {s.player: s for s in game.standings()}
    assert standing[p].place == 1 and standing[p].finished
    assert not any(standing[q].finished for q in range(3) if q != p)


def test_home_without_every_byway_driven_is_not_a_finish() -> None:
    """"Be the first player to drive all your Byways and return to your Start Space.\""""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    home = game.state.homes[p] or ""
    step_out = next(n for n in CAT.neighbours[home] if not game.is_closed(n))
    put(game, p, step_out)
    quiet_event(game)
    drive(game, home)
    assert game.state.finished == []


def test_play_continues_for_second_third_and_fourth_place() -> None:
    """"After the first player wins, continue to play the game to see who comes in second, third,
    and/or fourth place.\""""
    game = driving_game(4, construction="hb-con-a")
    order = []
    while not game.is_game_over():
        p = game.state.seat
        if game.state.step == "event":
            home = game.state.homes[p] or ""
            own(game, p, [])
            put(game, p, next(n for n in CAT.neighbours[home] if not game.is_closed(n)))
            quiet_event(game)
            drive(game, home)
            order.append(p)
        else:
            game.resolve_chance()
    assert game.state.finished == order and len(order) == 3
    standings = game.standings()
    assert [s.player for s in standings[:3]] == order
    assert [s.place for s in standings] == [1, 2, 3, 4]
    assert [s.finished for s in standings] == [True, True, True, False]
    for s in standings:
        assert s.score == game.breakdown(s.player).total
    last = game.breakdown(standings[0].player)
    assert [ln.label for ln in last.lines] == ["home 1st"]


def test_two_player_game_ends_when_the_first_player_gets_home() -> None:
    """"Be the first player to drive all your Byways and return to your Start Space.\""""
    game = driving_game(2, construction="hb-con-a")
    p = game.state.seat
    home = game.state.homes[p] or ""
    own(game, p, [])
    put(game, p, next(n for n in CAT.neighbours[home] if not game.is_closed(n)))
    quiet_event(game)
    drive(game, home)
    assert game.is_game_over() and game.legal_actions() == []
    assert "over" in refused(game, Action.of("end_turn", 1 - p))


def test_the_player_one_card_moves_on_when_its_holder_is_home() -> None:
    """Interpretation (the rulebook is silent): when the holder of the Player 1 card is home, the card
    goes clockwise to the next player still driving as the holder's turn comes round, and that
    player draws the round's construction card."""
    game = driving_game(3, construction="hb-con-a")
    p1 = game.state.p1
    home = game.state.homes[p1] or ""
    own(game, p1, [])
    put(game, p1, next(n for n in CAT.neighbours[home] if not game.is_closed(n)))
    quiet_event(game)
    drive(game, home)
    for _ in range(2):
        quiet_event(game)
        finish_turn(game)
    assert game.state.p1 == (p1 + 1) % 3 and game.state.step == "construction"


def test_byways_in_the_breakdown_add_up_to_the_ranking_score() -> None:
    """Standings use the finishing order; the lines (byways driven, place) add up to the score."""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    loop = byway_with("b11w")
    own(game, p, [loop])
    put(game, p, "v11")
    quiet_event(game)
    drive(game, "b11w", "x11", "b11e")
    b = game.breakdown(p)
    assert b.total == 1 and b.lines[0].label == "Sangre de Cristo Loop driven"
    assert {s.player: s.score for s in game.standings()}[p] == 1


# ---------------------------------------------------------------------- typed errors
def test_every_bad_action_is_a_typed_error_and_leaves_the_state_untouched() -> None:
    """Bad input gets a RulesError (a ValueError) with one sentence, and the state is unchanged."""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    other = 1 - p
    refused(game, Action.of("drive", p, path=["h11"]))  # a chance outcome is due first
    refused(game, Action.of("pick_event", None, position="2"), ActionFormatError)
    refused(game, Action.of("pick_event", None, position=-1))
    refused(game, Action.of("draw_event", None, card="hb-ev-fog"))
    quiet_event(game)
    refused(game, Action.of("fly", p), ActionFormatError)
    refused(game, Action.of("end_turn", other))
    refused(game, Action.of("keep", p, card="hb-ev-fog"))
    refused(game, Action.of("draw", p, card=7), ActionFormatError)
    refused(game, Action.of("draw", p, card="hb-ev-nothing"))
    refused(game, Action.of("plan_discard", p, card=game.state.hands[p][0]))
    refused(game, Action.of("choose_vehicle", p, vehicle="hb-veh-cowboy"))
    refused(game, Action.of("drop_byways", p, cards=["x"]))
    refused(game, Action.of("drive", p, path=[1, 2]), ActionFormatError)
    refused(game, Action.of("settle_dispute", game.state.p1, space="h11"))
    with pytest.raises(ValueError):
        game.push(Action.of("drive", p, path=["nowhere"]))


def test_bad_options_are_refused() -> None:
    """The Player 1 seat must exist."""
    from rules import OptionError

    with pytest.raises(OptionError, match="first_player"):
        new_game(2, first_player=2)
    with pytest.raises(OptionError):
        new_game(2, first_player="0")
    with pytest.raises(OptionError):
        HighwaysAndByways(NAMES[:1])


# ---------------------------------------------------------------------- playouts
def test_the_playout_chooser_heads_for_the_next_byway() -> None:
    """Random games must end: the chooser drives closer to its target whenever it can."""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    loop = byway_with("b11w")
    own(game, p, [loop])
    put(game, p, "j11")
    quiet_event(game)
    goal, why = targets(game, p)
    assert goal == {"b11w", "b11e"} and why == "nearest byway"
    import random

    pick = playout_choice(game, game.legal_actions(), random.Random(0))
    assert pick == Action.of("drive", p, path=["v11"])


def test_catalog_items_list_the_construction_cards_per_the_contract() -> None:
    """Contract 1: id, kind, count, size_mm; Highways & Byways construction cards are 63x88."""
    items = catalog_items()
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids))
    construction = [i for i in items if i["kind"] == "construction card"]
    assert sorted(i["letter"] for i in construction) == ["A", "B", "C", "D", "E"]
    assert all(i["size_mm"] == [63, 88] and i["count"] == 1 for i in construction)
    events = [i for i in items if i["kind"] == "event card"]
    assert sum(i["count"] for i in events) == 40
    assert sum(1 for i in items if i["kind"] == "byway card") == 48
    for item in items:
        assert {"id", "kind", "count", "size_mm", "name"} <= set(item)
    import json

    json.dumps(items)


def test_a_vehicle_choice_reads_as_a_sentence() -> None:
    """The screen and the log say what was chosen in plain words ("Ana chooses The Ancient One")."""
    game = HighwaysAndByways(NAMES[:2], seed=3)
    texts = {a.get("vehicle"): game.describe(a) for a in game.legal_actions() if a.kind == "choose_vehicle"}
    assert texts, "the game should start with a vehicle choice"
    for text in texts.values():
        assert "the The" not in text
    assert any(t.endswith("chooses The Ancient One") for t in texts.values())
    assert any(t.endswith("chooses the Cowboy") for t in texts.values())
