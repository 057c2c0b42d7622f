"""Roundabout: one test per rule of the rulebook (seeds/001), with the rule's sentence as docstring.

Scenarios use a small test deck so each position is built by legal actions only: the chance
outcomes (which card is turned up) are pushed as observed outcomes, as the app does at the table.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from rules import Action, ActionFormatError, IllegalAction, OptionError, Record, UndoRefused
from rules.roundabout import Roundabout, legal_placements, score_layout
from rules.roundabout.cards import Deck, parse_deck
from rules.roundabout.layout import (
    RULE_CARS,
    RULE_ENTRANCE,
    RULE_EXIT,
    RULE_FULL_SIDES,
    RULE_GRAY,
    RULE_ONE_CARD,
    RULE_ROAD,
)


def deck(**counts: int) -> Deck:
    """A test deck; edges are north, east, south, west at rotation 0 (east and south: the ring)."""
    designs: dict[str, dict[str, Any]] = {
        "plain": {"edges": ["none", "gray", "gray", "none"], "arrows": 0},
        "in": {"edges": ["entrance", "gray", "gray", "none"], "arrows": 1},
        "out": {"edges": ["exit", "gray", "gray", "none"], "arrows": 2},
        "inout": {"edges": ["entrance", "gray", "gray", "exit"], "arrows": 1,
                  "bonus": {"kind": "points", "amount": 2}},
        "exitbonus": {"edges": ["none", "gray", "gray", "exit"], "arrows": 0,
                      "bonus": {"kind": "per_exit", "amount": 1}},
        "inbonus": {"edges": ["entrance", "gray", "gray", "none"], "arrows": 0,
                    "bonus": {"kind": "per_entrance", "amount": 2}},
        "arrowbonus": {"edges": ["none", "gray", "gray", "none"], "arrows": 1,
                       "bonus": {"kind": "per_arrow", "amount": 1}},
        "wide": {"edges": ["gray", "gray", "gray", "gray"], "arrows": 0},
    }
    cards = [{"id": cid, "count": n, **designs[cid]} for cid, n in counts.items()]
    return parse_deck("test-deck", {"cards": cards})


def game(players: int = 2, first: int | None = None, **counts: int) -> Roundabout:
    names = ["Ana", "Ben", "Cleo", "Dev"][:players]
    options = {} if first is None else {"first": first}
    return Roundabout(names, seed=1, options=options, deck=deck(**(counts or {"plain": 8})))


def start(g: Roundabout, card: str) -> None:
    g.push(Action.of("reveal", None, card=card))


def play(g: Roundabout, card: str, x: int, y: int, rotation: int) -> None:
    """The player to move flips ``card`` and plays it at (x, y)."""
    p = g.current_player()
    g.push(Action.of("flip", p))
    g.push(Action.of("reveal", None, card=card))
    g.push(Action.of("place", p, card=card, x=x, y=y, rotation=rotation))


def flip(g: Roundabout, card: str) -> int:
    p = g.current_player()
    assert p is not None
    g.push(Action.of("flip", p))
    g.push(Action.of("reveal", None, card=card))
    return p


def place(g: Roundabout, card: str, x: Any, y: Any, rotation: Any) -> None:
    g.push(Action.of("place", g.current_player(), card=card, x=x, y=y, rotation=rotation))


def refused(g: Roundabout, action: Action, rule: str | None = None,
            error: type[Exception] = IllegalAction) -> Exception:
    """Push ``action`` expecting ``error`` (with ``rule``), and check nothing changed."""
    before = pickle.dumps(g.state)
    history = list(g.actions)
    with pytest.raises(error) as info:
        g.push(action)
    if rule is not None:
        assert getattr(info.value, "rule", None) == rule, str(info.value)
    assert pickle.loads(before) == g.state
    assert g.actions == history
    message = str(info.value)
    assert message and "\n" not in message
    return info.value


# ---------------------------------------------------------------------------------- setup and turns

def test_setup_reveal_the_top_card_into_the_centre() -> None:
    """"Reveal the top card of the deck and place it face-up in the center of the table.\""""
    g = game(plain=2, out=1)
    assert g.current_player() is None
    assert {a["card"] for a in g.legal_actions()} == {"plain", "out"}
    assert g.chance_weights(g.legal_actions()) == [1.0, 2.0]  # "out", "plain": by copies left
    start(g, "out")
    assert g.state.layout == {(0, 0): ("out", 0)}
    assert g.state.deck == {"plain": 2}
    assert g.current_player() == 0


def test_the_centre_card_may_lie_turned_as_the_camera_sees_it() -> None:
    """The grid is measured from the centre card, so its rotation is free: the app passes the one
    the camera sees, and every later rotation then agrees with the camera's."""
    g = game(plain=3)
    g.push(Action.of("reveal", None, card="plain", rotation=90))
    assert g.state.layout == {(0, 0): ("plain", 90)}
    p = flip(g, "plain")
    # the centre card's ring now crosses its south and west edges
    assert sorted({(x, y) for x, y, _ in legal_placements(g, "plain")}) == [(-1, 0), (0, 1)]
    refused(g, Action.of("reveal", None, card="plain", rotation=90), "turn order")
    place(g, "plain", -1, 0, 0)
    assert p == 0
    h = game(plain=3)
    refused(h, Action.of("reveal", None, card="plain", rotation=45), RULE_FULL_SIDES)
    start(h, "plain")
    p = flip(h, "plain")
    h.push(Action.of("place", p, card="plain", x=1, y=0, rotation=90))
    q = h.current_player()
    h.push(Action.of("flip", q))
    refused(h, Action.of("reveal", None, card="plain", rotation=0), error=ActionFormatError)


def test_play_continues_counter_clockwise_from_who_goes_first() -> None:
    """"Whoever most recently drove on a roundabout goes first, and play continues
    counter-clockwise." Seats are listed clockwise, so after seat i comes seat i - 1."""
    g = game(players=4, first=2, wide=8)
    start(g, "wide")
    order = []
    for x in range(1, 5):
        order.append(g.current_player())
        play(g, "wide", x, 0, 0)
    assert order == [2, 1, 0, 3]
    assert g.current_player() == 2


@pytest.mark.parametrize("first", [-1, 4, "0", True, 1.0])
def test_who_goes_first_must_be_a_seat(first: object) -> None:
    with pytest.raises(OptionError, match="first"):
        Roundabout(["A", "B", "C", "D"], options={"first": first})


def test_a_turn_is_to_place_a_card_or_reserve_a_spot() -> None:
    """"On your turn, you can either place a card or reserve a spot.\""""
    g = game(plain=3)
    start(g, "plain")
    kinds = {a.kind for a in g.legal_actions()}
    assert kinds == {"flip", "reserve"}
    p = flip(g, "plain")
    assert {a.kind for a in g.legal_actions()} == {"place"}
    refused(g, Action.of("reserve", p, x=1, y=0), "on your turn, place a card or reserve a spot")
    refused(g, Action.of("flip", p), "on your turn, place a card or reserve a spot")


# ---------------------------------------------------------------------------------- placement criteria

def test_gray_parts_connect_to_gray_parts_or_are_exposed() -> None:
    """"Any gray parts of cards must be legally connected to other gray parts or be exposed.\""""
    g = game(plain=3)
    start(g, "plain")  # its ring crosses its east and south edges
    flip(g, "plain")
    # turned 0 the new card's west edge has no road and would cover the centre card's gray ring
    err = refused(g, Action.of("place", 0, card="plain", x=1, y=0, rotation=0), RULE_GRAY)
    assert str(err) == ("the card's west edge would put an edge without road against gray road "
                        "surface on the card to the west")
    # north of the centre turned 0, its own gray ring would cover the centre's roadless north edge
    err = refused(g, Action.of("place", 0, card="plain", x=0, y=-1, rotation=0), RULE_GRAY)
    assert str(err).startswith("the card's south edge would put gray road surface against")
    place(g, "plain", 1, 0, 90)  # gray meets gray; its other gray edge is exposed
    assert (1, 0) in g.state.layout


def test_an_exit_connects_to_an_entrance_or_is_exposed() -> None:
    """"Any exit must be connected to an entrance or be exposed.\""""
    g = game(out=2, plain=2, **{"in": 1})
    start(g, "out")  # an exit on its north edge
    flip(g, "plain")
    refused(g, Action.of("place", 0, card="plain", x=0, y=-1, rotation=270), RULE_EXIT)
    place(g, "plain", 1, 0, 90)  # the exit stays exposed: fine
    flip(g, "out")
    # "out" turned 180 has its exit on its south edge: exit meeting exit
    refused(g, Action.of("place", 1, card="out", x=0, y=-1, rotation=180), RULE_EXIT)
    place(g, "out", 1, 1, 180)
    flip(g, "in")
    assert (0, -1, 180) in legal_placements(g, "in")  # its entrance meets the exit
    place(g, "in", 0, -1, 180)


def test_an_entrance_connects_to_an_exit_or_is_exposed() -> None:
    """"Any entrance must be connected to an exit or be exposed.\""""
    g = game(plain=2, **{"in": 2})
    start(g, "in")  # an entrance on its north edge
    flip(g, "plain")
    refused(g, Action.of("place", 0, card="plain", x=0, y=-1, rotation=270), RULE_ENTRANCE)
    place(g, "plain", 0, 1, 270)
    flip(g, "in")
    # "in" turned 180 has its entrance on its south edge: entrance meeting entrance
    refused(g, Action.of("place", 1, card="in", x=0, y=-1, rotation=180), RULE_ENTRANCE)


def test_at_least_one_road_connects_to_another_road() -> None:
    """"At least one road (exit, entrance, or roundabout) must be connected to another road.\""""
    g = game(plain=3)
    start(g, "plain")
    flip(g, "plain")
    # north of the centre card: roadless edge meets roadless edge, and nothing else touches
    err = refused(g, Action.of("place", 0, card="plain", x=0, y=-1, rotation=270), RULE_ROAD)
    assert "road" in str(err)
    refused(g, Action.of("place", 0, card="plain", x=5, y=5, rotation=0), RULE_ROAD)  # touches nothing
    assert all(abs(x) + abs(y) == 1 for x, y, _ in legal_placements(g, "plain"))


@pytest.mark.parametrize(("x", "y", "rotation"), [(0.5, 0, 90), (1, -0.25, 90), (1.0, 0, 90), (1, 0, 45),
                                                  (1, 0, 360), (1, 0, -90), (1, 0, 90.0)])
def test_touching_edges_cover_the_full_side_of_the_card(x: Any, y: Any, rotation: Any) -> None:
    """"All edges touching other edges must cover the full side of the card." The engine lays
    cards on a grid of whole card widths in quarter turns; anything else is refused."""
    g = game(plain=3)
    start(g, "plain")
    flip(g, "plain")
    refused(g, Action.of("place", 0, card="plain", x=x, y=y, rotation=rotation), RULE_FULL_SIDES)


def test_a_spot_holds_one_card() -> None:
    g = game(plain=3)
    start(g, "plain")
    flip(g, "plain")
    refused(g, Action.of("place", 0, card="plain", x=0, y=0, rotation=0), RULE_ONE_CARD)


# ---------------------------------------------------------------------------------- scoring

def test_completing_a_four_card_roundabout_scores_for_who_played_the_last_section() -> None:
    """"If the card played is the last section in a roundabout, creating a four-card roundabout,
    the player who played the card begins scoring": +1 for completing it, +1 per arrow on it,
    and the bonuses of its cards."""
    g = game(players=3, inout=1, exitbonus=1, out=1, plain=1)
    start(g, "inout")                      # 1 arrow, +2 points, one exit
    play(g, "exitbonus", 1, 0, 90)         # seat 0: +1 per exit on this roundabout, one exit
    play(g, "out", 1, 1, 180)              # seat 2: 2 arrows, one exit
    assert [g.breakdown(p).total for p in range(3)] == [0, 0, 0]
    play(g, "plain", 0, 1, 270)            # seat 1 completes it
    assert g.state.roundabouts == [(1, (1, 1))]
    (scored,) = g.breakdown(1).lines
    exits = 3
    assert scored.points == 1 + (1 + 0 + 2 + 0) + 2 + exits
    info = scored.to_json()
    assert info["kind"] == "roundabout" and info["arrows"] == 3 and info["completion"] == 1
    assert sorted(map(tuple, info["cells"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert {b["card"]: b["points"] for b in info["bonuses"]} == {"inout": 2, "exitbonus": 3}
    assert g.breakdown(0).total == g.breakdown(2).total == 0


def test_bonuses_per_entrance_and_per_arrow() -> None:
    """"Any other bonuses described by the cards in the completed roundabout.\""""
    g = game(inbonus=1, arrowbonus=1, out=1, inout=1)
    start(g, "inbonus")                    # +2 per entrance; one entrance
    play(g, "arrowbonus", 1, 0, 90)        # +1 per arrow; 1 arrow
    play(g, "out", 1, 1, 180)              # 2 arrows
    play(g, "inout", 0, 1, 270)            # 1 arrow, one entrance, +2 points
    arrows, entrances = 4, 2
    assert g.breakdown(0).total == 1 + arrows + 2 * entrances + arrows + 2


def test_most_points_wins() -> None:
    """"Whoever has the most points at the end of the game wins!\""""
    g = game(plain=3, out=1)
    start(g, "out")
    play(g, "plain", 1, 0, 90)
    play(g, "plain", 1, 1, 180)
    play(g, "plain", 0, 1, 270)            # seat 0 completes: 1 + 2 arrows
    assert g.is_game_over()
    standings = g.standings()
    assert [(s.place, s.name, s.score) for s in standings] == [(1, "Ana", 3), (2, "Ben", 0)]


def test_score_layout_matches_the_game_and_ignores_history() -> None:
    g = game(plain=4, out=1)
    start(g, "out")
    play(g, "plain", 1, 0, 90)
    play(g, "plain", 1, 1, 180)
    play(g, "plain", 0, 1, 270)
    lines = score_layout(dict(g.state.layout), deck=g.deck)
    assert lines == list(g.breakdown(0).lines)
    # the same table seen turned a quarter clockwise: cell (x, y) -> (-y, x), every card +90
    turned = {(-y, x): (c, (r + 90) % 360) for (x, y), (c, r) in g.state.layout.items()}
    (line,) = score_layout(turned, deck=g.deck)
    assert line.points == lines[0].points
    assert score_layout({}, deck=g.deck) == []


# ---------------------------------------------------------------------------------- discards

def _closed_roundabout(cards: dict[str, int], players: int = 2) -> Roundabout:
    """Four roadless-rimmed cards completed around point (1, 1): no card fits anywhere after."""
    g = game(players=players, **cards)
    start(g, "plain")
    play(g, "plain", 1, 0, 90)
    play(g, "plain", 1, 1, 180)
    play(g, "plain", 0, 1, 270)
    return g


def test_a_card_without_a_legal_spot_starts_the_discard_pile() -> None:
    """"If a card has no legal spots to be played ... it is placed at the top of the discard pile.
    If there is no discard pile, create one by placing the card face-up next to the deck.\""""
    g = _closed_roundabout({"plain": 4, "in": 1, "out": 1})
    p = flip(g, "in")
    assert legal_placements(g, "in") == []
    assert g.legal_actions() == [Action.of("discard", p, card="in")]
    refused(g, Action.of("discard", p, card="out"), "players may not voluntarily discard cards")
    g.push(Action.of("discard", p, card="in"))
    assert g.state.discard == ["in"]
    assert g.current_player() == (p - 1) % 2  # the turn ends
    flip(g, "out")
    g.push(Action.of("discard", g.current_player(), card="out"))
    assert g.state.discard == ["in", "out"]  # on top of the pile


def test_players_may_not_voluntarily_discard_cards() -> None:
    """"Players may not voluntarily discard cards.\""""
    g = game(plain=3)
    start(g, "plain")
    p = flip(g, "plain")
    refused(g, Action.of("discard", p, card="plain"), "players may not voluntarily discard cards")
    refused(g, Action.of("discard", (p - 1) % 2, card="plain"), "turn order")


def test_take_the_top_card_from_the_discard_pile() -> None:
    """"When you choose to play a card, flip over the top card from the deck OR take the top card
    from the discard pile." Taking it is allowed when it can be played: it could only go back."""
    g = _closed_roundabout({"plain": 4, "in": 2}, players=3)
    p = flip(g, "in")
    g.push(Action.of("discard", p, card="in"))
    q = g.current_player()
    assert q is not None
    # still unplayable: taking it is refused (it could only be discarded again)
    refused(g, Action.of("take_discard", q, card="in"), "players may not voluntarily discard cards")
    assert Action.of("take_discard", q, card="in") not in g.legal_actions()


def test_take_the_discard_pile_top_card_and_play_it() -> None:
    g = game(players=4, out=1, plain=3, **{"in": 1})
    start(g, "out")                            # an exit on the north edge
    play(g, "plain", 1, 0, 90)                 # Ana (0)
    play(g, "plain", 1, 1, 180)                # Dev (3)
    play(g, "plain", 0, 1, 270)                # Cleo (2) completes: now only (0, -1) is open
    g.push(Action.of("reserve", 1, x=0, y=-1))  # Ben (1) reserves it
    flip(g, "in")                              # Ana: the only spot is under Ben's car
    assert legal_placements(g, "in") == []
    assert legal_placements(g, "in", player=1) == [(0, -1, 180)]
    g.push(Action.of("discard", 0, card="in"))
    # the deck is empty; Dev and Cleo cannot play the discard pile's top card, so they pass
    assert g.legal_actions()[-1] == Action.of("pass", 3)
    assert not g.is_game_over()
    g.push(Action.of("pass", 3))
    refused(g, Action.of("take_discard", 2, card="in"), "players may not voluntarily discard cards")
    g.push(Action.of("pass", 2))
    assert g.legal_actions() == [Action.of("take_discard", 1, card="in")]
    refused(g, Action.of("pass", 1), "on your turn, place a card or reserve a spot")
    refused(g, Action.of("take_discard", 1, card="plain"), "on your turn, place a card or reserve a spot")
    g.push(Action.of("take_discard", 1, card="in"))
    place(g, "in", 0, -1, 180)
    assert g.state.cars == {} and g.car_in_hand(1)
    assert g.is_game_over()
    assert g.standings()[0].name == "Cleo"


# ---------------------------------------------------------------------------------- cars

def test_a_car_reserves_a_spot_others_may_not_play_on() -> None:
    """"Instead of playing a card, you may place your car token on the board as if it was a
    normal card with no arrows. On other players' turns, they may not play cards where you placed
    the card.\""""
    g = game(plain=5)
    start(g, "plain")
    g.push(Action.of("reserve", 0, x=1, y=0))
    assert g.state.cars == {(1, 0): 0} and g.current_player() == 1
    flip(g, "plain")
    refused(g, Action.of("place", 1, card="plain", x=1, y=0, rotation=90), RULE_CARS)
    assert all((x, y) != (1, 0) for x, y, _ in legal_placements(g, "plain"))
    place(g, "plain", 0, 1, 270)
    refused(g, Action.of("reserve", 0, x=1, y=1), RULE_CARS)  # one car each
    refused(g, Action.of("reserve", 0, x=1, y=0), RULE_CARS)


def test_a_car_counts_as_no_road_and_no_gray() -> None:
    """"...it does not count as having roads or gray parts after it is played." An edge facing a
    car is exposed, and a car never provides the road a new card must connect to."""
    g = game(plain=5)
    start(g, "plain")
    g.push(Action.of("reserve", 0, x=1, y=0))
    p = flip(g, "plain")
    assert p == 1
    # (2, 0) touches only the car: no road to connect to
    refused(g, Action.of("place", 1, card="plain", x=2, y=0, rotation=90), RULE_ROAD)
    place(g, "plain", 0, 1, 270)
    flip(g, "plain")
    # at (1, 1) turned 180 the card's gray ring crosses its north edge, which faces the car:
    # exposed, not "gray meeting no gray"
    assert (1, 1, 180) in legal_placements(g, "plain")
    place(g, "plain", 1, 1, 180)
    assert g.state.roundabouts == []  # the car is no quarter of a roundabout


def test_the_owner_may_play_on_their_car_and_takes_it_back() -> None:
    """"When it is your turn, you are allowed to place a card where your car is. If you do,
    remove the car from where it is and return it to yourself.\""""
    g = game(plain=5)
    start(g, "plain")
    g.push(Action.of("reserve", 0, x=1, y=0))
    play(g, "plain", 0, 1, 270)
    p = flip(g, "plain")
    assert p == 0 and (1, 0, 90) in legal_placements(g, "plain")
    place(g, "plain", 1, 0, 90)
    assert g.state.cars == {} and g.car_in_hand(0)


@pytest.mark.parametrize(("x", "y", "rule"), [(0, 0, RULE_ONE_CARD), (3, 3, RULE_CARS), (1, 0.5, RULE_FULL_SIDES)])
def test_a_car_goes_on_an_empty_spot_beside_the_layout(x: Any, y: Any, rule: str) -> None:
    """A car is placed "as if it was a normal card": on a free spot of the grid, touching a card."""
    g = game(plain=5)
    start(g, "plain")
    refused(g, Action.of("reserve", 0, x=x, y=y), rule)
    g.push(Action.of("reserve", 0, x=1, y=0))
    refused(g, Action.of("reserve", 1, x=1, y=0), RULE_ONE_CARD)  # a car is already there


# ---------------------------------------------------------------------------------- end of game

def test_the_game_ends_when_the_last_card_of_deck_and_discard_pile_is_played() -> None:
    """"The game ends when the last card from both the deck and the discard pile is played.\""""
    g = game(plain=3)
    start(g, "plain")
    play(g, "plain", 1, 0, 90)
    assert not g.is_game_over()
    play(g, "plain", 1, 1, 180)
    assert g.is_game_over() and g.legal_actions() == []
    refused(g, Action.of("flip", g.state.turn), "game end")


def test_the_game_ends_when_no_card_left_can_ever_be_played() -> None:
    """Interpretation: with the deck empty, cards on the discard pile that fit nowhere can never
    be played, so the game ends rather than wait for them forever."""
    g = _closed_roundabout({"plain": 4, "in": 1})
    p = flip(g, "in")
    g.push(Action.of("discard", p, card="in"))
    assert g.is_game_over()
    assert g.state.discard == ["in"]


# ---------------------------------------------------------------------------------- bad input and undo

def test_bad_actions_are_typed_errors_and_change_nothing() -> None:
    g = game(plain=5, out=1)
    start(g, "out")
    refused(g, Action.of("teleport", 0), error=ActionFormatError)
    refused(g, Action.of("flip", 0, card="plain"), error=ActionFormatError)  # a field it does not take
    refused(g, Action.of("reserve", 0, x=1), error=ActionFormatError)  # missing y
    refused(g, Action.of("reserve", 0, x="1", y=0), error=ActionFormatError)
    refused(g, Action.of("flip", 1), "turn order")
    refused(g, Action.of("reveal", None, card="plain"), "turn order")
    refused(g, Action.of("place", 0, card="plain", x=1, y=0, rotation=90), "on your turn, place a card or reserve a spot")
    refused(g, Action.of("discard", 0, card="plain"), "players may not voluntarily discard cards")
    refused(g, Action.of("take_discard", 0, card="plain"), "on your turn, place a card or reserve a spot")
    refused(g, Action.of("pass", 0), "on your turn, place a card or reserve a spot")
    g.push(Action.of("flip", 0))
    refused(g, Action.of("reveal", None, card="out"), "flip over the top card from the deck")  # none left
    refused(g, Action.of("reveal", None, card=7), error=ActionFormatError)
    refused(g, Action.of("reveal", None, card="ra-99"), error=ActionFormatError)
    refused(g, Action.of("flip", 0), "turn order")
    g.push(Action.of("reveal", None, card="plain"))
    refused(g, Action.of("place", 0, card="out", x=1, y=0, rotation=90), "on your turn, place a card or reserve a spot")
    refused(g, Action.of("place", 0, card="plain", x=None, y=0, rotation=90), error=ActionFormatError)
    refused(g, Action.of("place", 0, card="plain", x=1, y=0, rotation="90"), error=ActionFormatError)
    refused(g, Action.of("place", 0, card="plain", x=True, y=0, rotation=90), error=ActionFormatError)


def test_undo_a_placement_but_not_a_flip() -> None:
    g = game(plain=5)
    start(g, "plain")
    flip(g, "plain")
    with pytest.raises(UndoRefused):
        g.pop()
    before = pickle.dumps(g.state)
    place(g, "plain", 1, 0, 90)
    g.pop()
    assert pickle.loads(before) == g.state


def test_records_replay_and_name_the_illegal_action() -> None:
    g = game(plain=4, out=1)
    start(g, "out")
    play(g, "plain", 1, 0, 90)
    text = g.record().dumps()
    data = json.loads(text)
    # the owner's deck differs from the test deck, so replay it on the test deck by hand
    again = Roundabout(data["players"], seed=data["seed"], deck=g.deck)
    for raw in data["actions"]:
        again.push(Action.from_json(raw))
    assert again.state == g.state
    assert Record.loads(text).game == "roundabout"


def test_legal_placements_takes_the_game_or_its_state() -> None:
    g = game(plain=4)
    start(g, "plain")
    assert legal_placements(g, "plain") == [(0, 1, 180), (0, 1, 270), (1, 0, 90), (1, 0, 180)]
    assert legal_placements(g.state, "plain", deck=g.deck) == legal_placements(g, "plain")
    from rules.roundabout import LayoutError

    with pytest.raises(LayoutError):
        legal_placements(g, "nope")
    with pytest.raises(LayoutError):
        legal_placements("table", "plain")  # type: ignore[arg-type]


def test_the_example_record_replays_to_a_finished_game() -> None:
    """companion/examples/roundabout.json is a whole game made by this engine (docs/records.md)."""
    path = Path(__file__).resolve().parents[2] / "companion" / "examples" / "roundabout.json"
    record = Record.load(path)
    g = record.replay()
    assert isinstance(g, Roundabout) and g.is_game_over()
    kinds = {a.kind for a in record.actions}
    assert {"reveal", "flip", "place", "reserve"} <= kinds
    assert len(g.state.roundabouts) >= 3
    assert sum(g.breakdown(p).total for p in range(len(g.players))) == sum(
        ln.points for ln in score_layout(dict(g.state.layout)))


def test_the_worked_example_in_the_records_doc_is_legal() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    section = text.split("### Roundabout (`roundabout`)", 1)[1]
    block = section.split("```json", 1)[1].split("```", 1)[0]
    g = Roundabout(["Ana", "Ben", "Cleo"])
    for raw in json.loads(block):
        g.push(Action.from_json(raw))
    assert g.breakdown(2).total == 6 and g.state.cars == {}


@pytest.mark.parametrize("cells", [
    {(0, 0): ("ra-99", 0)},
    {(0, 0): ("ra-01", 45)},
    {(0, 0): ("ra-01", True)},
    {(0, 0.5): ("ra-01", 0)},
    {"0,0": ("ra-01", 0)},
    {(0, 0): "ra-01"},
    [((0, 0), ("ra-01", 0))],
])
def test_score_layout_refuses_a_layout_no_table_could_show(cells: Any) -> None:
    from rules.roundabout import LayoutError

    with pytest.raises(LayoutError) as err:
        score_layout(cells)
    assert "\n" not in str(err.value)
