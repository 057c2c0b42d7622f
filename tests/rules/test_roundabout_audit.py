"""Roundabout audit: a second, independent reading of the rulebook (seeds/001) checked against the
engine. The referee below is written from the rulebook's sentences, not from the engine's code, so
a misreading shared by ``legal_placements`` and ``push`` would still show up here.

Each test names the rule it checks and quotes the rulebook sentence in its docstring.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Action, ActionFormatError, IllegalAction, RulesError
from rules.roundabout import Deck, Roundabout, legal_placements, playout_choice
from rules.roundabout.cards import parse_deck
from rules.roundabout.layout import (
    RULE_CARS,
    RULE_ENTRANCE,
    RULE_EXIT,
    RULE_GRAY,
    RULE_ROAD,
    check_placement,
)

# ---------------------------------------------------------------------------------- the referee

SIDES = ("north", "east", "south", "west")
STEP = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
FACING = {"north": "south", "south": "north", "east": "west", "west": "east"}
#: Where the quarter roundabout lies after turning clockwise (catalog: south-east at rotation 0).
QUARTER = {0: "south-east", 90: "south-west", 180: "north-west", 270: "north-east"}
#: The four cells around grid point (px, py) (its north-west corner is cell (px, py)) and the
#: corner of each that must hold its quarter for the roundabout to be complete.
AROUND = {(-1, -1): "south-east", (0, -1): "south-west", (0, 0): "north-west", (-1, 0): "north-east"}


def edge(deck: Deck, card: str, rotation: int, side: str) -> str:
    """The feature on ``side`` once the card is turned ``rotation`` degrees clockwise: turning
    clockwise by a quarter brings what was on the west edge to the north."""
    printed = dict(zip(SIDES, deck[card].edges, strict=True))
    came_from = SIDES[(SIDES.index(side) - rotation // 90) % 4]
    return printed[came_from]


def referee_allows(deck: Deck, layout: dict[Any, Any], cars: dict[Any, int], card: str,
                   cell: tuple[int, int], rotation: int, player: int | None) -> bool:
    """The rulebook's five criteria, read on their own, plus the car rules."""
    if cell in layout:
        return False
    # "On other players' turns, they may not play cards where you placed the card [car]"
    if cell in cars and player is not None and cars[cell] != player:
        return False
    pairs = []  # (this card's feature, the touching card's feature); a car has no features
    for side, (dx, dy) in STEP.items():
        there = layout.get((cell[0] + dx, cell[1] + dy))
        if there is not None:
            pairs.append((edge(deck, card, rotation, side), edge(deck, there[0], there[1], FACING[side])))
    for a, b in pairs:
        # "Any gray parts of cards must be legally connected to other gray parts or be exposed."
        if "gray" in (a, b) and a != b:
            return False
        # "Any exit must be connected to an entrance or be exposed." and the other way round
        if "exit" in (a, b) and {a, b} != {"exit", "entrance"}:
            return False
        if "entrance" in (a, b) and {a, b} != {"exit", "entrance"}:
            return False
    # "At least one road (exit, entrance, or roundabout) must be connected to another road."
    return any(a != "none" and b != "none" for a, b in pairs)


def complete_points(layout: dict[Any, Any]) -> set[tuple[int, int]]:
    points = {(x + dx, y + dy) for x, y in layout for dx in (0, 1) for dy in (0, 1)}
    done = set()
    for px, py in points:
        cards = [layout.get((px + dx, py + dy)) for dx, dy in AROUND]
        if all(c is not None and QUARTER[c[1]] == corner for c, corner in zip(cards, AROUND.values(), strict=True)):
            done.add((px, py))
    return done


def referee_points(deck: Deck, layout: dict[Any, Any], point: tuple[int, int]) -> int:
    """"+1 point for completing the roundabout, +1 point for every arrow on the roundabout, any
    other bonuses described by the cards in the completed roundabout" (catalog vocabulary)."""
    cards = [deck[layout[(point[0] + dx, point[1] + dy)][0]] for dx, dy in AROUND]
    arrows = sum(c.arrows for c in cards)
    per = {"points": 1, "per_arrow": arrows,
           "per_exit": sum(e == "exit" for c in cards for e in c.edges),
           "per_entrance": sum(e == "entrance" for c in cards for e in c.edges)}
    return 1 + arrows + sum(c.bonus.amount * per[c.bonus.kind] for c in cards if c.bonus)


#: Roadless rims close roundabouts off, so discards, the discard pile and passes come up often.
TIGHT = parse_deck("tight-deck", {"cards": [
    {"id": "plain", "count": 14, "edges": ["none", "gray", "gray", "none"], "arrows": 0},
    {"id": "in", "count": 4, "edges": ["entrance", "gray", "gray", "none"], "arrows": 1},
    {"id": "out", "count": 4, "edges": ["exit", "gray", "gray", "none"], "arrows": 2},
    {"id": "inout", "count": 2, "edges": ["entrance", "gray", "gray", "exit"], "arrows": 1,
     "bonus": {"kind": "per_exit", "amount": 1}},
]})
SMALL = parse_deck("small-deck", {"cards": [
    {"id": "plain", "count": 6, "edges": ["none", "gray", "gray", "none"], "arrows": 0},
    {"id": "in", "count": 2, "edges": ["entrance", "gray", "gray", "none"], "arrows": 1},
    {"id": "out", "count": 2, "edges": ["exit", "gray", "gray", "none"], "arrows": 2},
    {"id": "wide", "count": 2, "edges": ["gray", "gray", "gray", "gray"], "arrows": 0},
]})
NAMES = ["Ana", "Ben", "Cleo", "Dev"]


def random_game(seed: int, steps: int, players: int, deck: Deck | None) -> Roundabout:
    rng = random.Random(seed)
    g = Roundabout(NAMES[:players], seed=seed, deck=deck)
    for _ in range(steps):
        if g.is_game_over():
            break
        g.push(g.sample_chance() if g.is_chance_node() else playout_choice(g, g.legal_actions(), rng))
    return g


def cells_around(g: Roundabout) -> list[tuple[int, int]]:
    xs = [x for x, _ in g.state.layout] or [0]
    ys = [y for _, y in g.state.layout] or [0]
    return [(x, y) for x in range(min(xs) - 1, max(xs) + 2) for y in range(min(ys) - 1, max(ys) + 2)]


def referee_spots(g: Roundabout, card: str, player: int | None) -> set[tuple[int, int, int]]:
    s = g.state
    return {(x, y, r) for x, y in cells_around(g) for r in (0, 90, 180, 270)
            if referee_allows(g.deck, s.layout, s.cars, card, (x, y), r, player)}


# ---------------------------------------------------------------------------------- placement

@settings(max_examples=25, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(1, 220), players=st.integers(2, 4), tight=st.booleans())
def test_legal_placements_agree_with_a_referee_written_from_the_rulebook_for_every_seat(
        seed: int, steps: int, players: int, tight: bool) -> None:
    """The five criteria ("gray parts ... connected to other gray parts or be exposed", "exit ...
    connected to an entrance or be exposed", "entrance ... connected to an exit or be exposed",
    "at least one road ... connected to another road", full sides) and "they may not play cards
    where you placed [your car]", for each seat and for anyone (``player=None``)."""
    g = random_game(seed, steps, players, TIGHT if tight else None)
    rng = random.Random(seed)
    cards = sorted(g.deck.cards)
    for card in rng.sample(cards, min(3, len(cards))):
        for player in [None, *range(players)]:
            assert set(legal_placements(g, card, player=player)) == referee_spots(g, card, player), (card, player)


@settings(max_examples=20, database=None, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), tight=st.booleans())
def test_each_turn_offers_exactly_what_the_rulebook_allows(seed: int, players: int, tight: bool) -> None:
    """At every decision of a whole game: "flip over the top card from the deck OR take the top
    card from the discard pile" (taking only a card with a spot), the drawn card is placed on a
    legal spot or, "if a card has no legal spots", discarded ("players may not voluntarily
    discard"), and "instead of playing a card, you may place your car token"."""
    rng = random.Random(seed)
    g = Roundabout(NAMES[:players], seed=seed, deck=TIGHT if tight else None)
    while not g.is_game_over():
        if g.is_chance_node():
            g.push(g.sample_chance())
            continue
        s, p = g.state, g.current_player()
        assert p is not None
        legal = g.legal_actions()
        assert legal, "a player who is to move always has something to do"
        if s.held is not None:
            spots = referee_spots(g, s.held, p)
            if spots:
                assert {(a["x"], a["y"], a["rotation"]) for a in legal} == spots
                assert {a.kind for a in legal} == {"place"}
            else:
                assert legal == [Action.of("discard", p, card=s.held)]
        else:
            kinds = {a.kind for a in legal}
            assert ("flip" in kinds) == bool(s.deck)
            fits = bool(s.discard) and bool(referee_spots(g, s.discard[-1], p))
            assert ("take_discard" in kinds) == fits
            assert ("reserve" in kinds) == (p not in s.cars.values())
            assert ("pass" in kinds) == (not s.deck and not fits)
        if rng.random() < 0.05:
            assert accepted(g) == set(legal)
        g.push(playout_choice(g, legal, rng))


def accepted(g: Roundabout) -> set[Action]:
    """Every player action push() accepts now, found by trying each one anyone could name."""
    cards = sorted(g.deck.cards)
    # cells on or beside the layout and its cars: anything further away touches nothing
    near = sorted({(x + dx, y + dy) for x, y in [*g.state.layout, *g.state.cars]
                   for dx, dy in ((0, 0), *STEP.values())})
    tries = []
    for p in range(len(g.players)):
        tries += [Action.of("flip", p), Action.of("pass", p)]
        tries += [Action.of(kind, p, card=c) for kind in ("take_discard", "discard") for c in cards]
        tries += [Action.of("reserve", p, x=x, y=y) for x, y in near]
        tries += [Action.of("place", p, card=c, x=x, y=y, rotation=r)
                  for c in ([g.state.held] if g.state.held else []) for x, y in near for r in (0, 90, 180, 270)]
    before = pickle.dumps(g.state)
    out = set()
    for action in tries:
        try:
            g.push(action)
        except RulesError:
            assert pickle.loads(before) == g.state
            continue
        out.add(action)
        g.pop()
    return out


@pytest.mark.parametrize(("rule", "layout", "card", "rotation"), [
    # a: a gray-to-gray join on the west; the card's gray south edge meets a roadless north edge
    (RULE_GRAY, {(0, 0): ("plain", 0), (1, 1): ("plain", 0)}, "plain", 90),
    # b: the same join; the card's roadless east edge meets the gray west edge of the card there
    (RULE_GRAY, {(0, 0): ("plain", 0), (2, 0): ("plain", 180)}, "plain", 90),
    # c: the join; the card's exit (east) meets a roadless west edge
    (RULE_EXIT, {(0, 0): ("plain", 0), (2, 0): ("plain", 0)}, "out", 90),
    # d: the join; the card's roadless south edge meets an exit (north edge of "out" at (1, 1))
    (RULE_EXIT, {(0, 0): ("plain", 0), (1, 1): ("out", 0)}, "plain", 180),
    # e: the join; an exit meeting an exit
    (RULE_EXIT, {(0, 0): ("plain", 0), (2, 0): ("out", 270)}, "out", 90),
    # f: the join; the card's entrance meets a roadless edge
    (RULE_ENTRANCE, {(0, 0): ("plain", 0), (2, 0): ("plain", 0)}, "in", 90),
    # g: the join; an entrance meeting an entrance
    (RULE_ENTRANCE, {(0, 0): ("plain", 0), (2, 0): ("in", 270)}, "in", 90),
    # h: only roadless edges touch
    (RULE_ROAD, {(0, 0): ("plain", 180)}, "plain", 0),
])
def test_each_placement_criterion_is_checked_on_its_own(
        rule: str, layout: dict[Any, Any], card: str, rotation: int) -> None:
    """Each criterion with its own reason: every placement here breaks exactly one criterion
    (a gray-to-gray join keeps "at least one road connected" true) and is refused naming it."""
    cell = (1, 0)
    with pytest.raises(IllegalAction) as info:
        check_placement(SMALL, layout, {}, card, cell, rotation, 0)
    assert info.value.rule == rule, str(info.value)
    assert not referee_allows(SMALL, layout, {}, card, cell, rotation, 0)
    message = str(info.value)
    assert message.startswith("the card") and "\n" not in message


def test_a_refusal_names_the_edge_from_the_new_card_and_the_neighbour_by_direction() -> None:
    """A refusal must send the players to the right edges: the side is the new card's, and the
    neighbour is named by where it lies (its own touching edge is the opposite one)."""
    err = _refusal(RULE_EXIT, {(0, 0): ("plain", 0), (1, 1): ("out", 0)}, "plain", 180)
    assert str(err) == "the card's south edge would put an edge without road against an exit on the card to the south"
    err = _refusal(RULE_GRAY, {(0, 0): ("plain", 0), (2, 0): ("plain", 180)}, "plain", 90)
    assert str(err) == ("the card's east edge would put an edge without road against gray road surface "
                        "on the card to the east")


def _refusal(rule: str, layout: dict[Any, Any], card: str, rotation: int) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        check_placement(SMALL, layout, {}, card, (1, 0), rotation, 0)
    assert info.value.rule == rule
    return info.value


def test_the_same_placements_without_the_breaking_neighbour_are_legal() -> None:
    """The join used above is legal on its own, so each refusal really comes from the one
    neighbour that breaks its criterion (a test that could not fail would pass without it)."""
    check_placement(SMALL, {(0, 0): ("plain", 0)}, {}, "plain", (1, 0), 90, 0)
    check_placement(SMALL, {(0, 0): ("plain", 0)}, {}, "out", (1, 0), 90, 0)
    check_placement(SMALL, {(0, 0): ("plain", 0)}, {}, "in", (1, 0), 90, 0)
    # and an exit meeting an entrance is the legal join of two roundabouts
    check_placement(SMALL, {(0, 0): ("plain", 0), (2, 0): ("in", 270)}, {}, "out", (1, 0), 90, 0)


# ---------------------------------------------------------------------------------- cars

def _game(*, players: int = 2, first: int | None = None) -> Roundabout:
    options = {} if first is None else {"first": first}
    return Roundabout(NAMES[:players], seed=3, options=options, deck=SMALL)


def refused(g: Roundabout, action: Action, rule: str) -> IllegalAction:
    """Push ``action`` expecting a refusal under ``rule`` that changes nothing."""
    before = pickle.dumps(g.state)
    with pytest.raises(IllegalAction) as info:
        g.push(action)
    assert info.value.rule == rule, str(info.value)
    assert pickle.loads(before) == g.state
    return info.value


def _turn_up(g: Roundabout, card: str) -> int:
    p = g.current_player()
    assert p is not None
    g.push(Action.of("flip", p))
    g.push(Action.of("reveal", None, card=card))
    return p


def test_every_edge_facing_a_car_counts_as_exposed() -> None:
    """"...it does not count as having roads or gray parts after it is played": a gray edge, an
    exit or an entrance may face a car, as no feature of the car meets it."""
    layout = {(0, 0): ("plain", 0)}
    for card, rotation in (("plain", 90), ("out", 90), ("in", 90), ("wide", 0)):
        for car in ((2, 0), (1, -1), (1, 1)):
            check_placement(SMALL, layout, {car: 1}, card, (1, 0), rotation, 0)
            assert referee_allows(SMALL, layout, {car: 1}, card, (1, 0), rotation, 0)


def test_the_car_owner_plays_on_the_car_by_the_same_criteria() -> None:
    """"When it is your turn, you are allowed to place a card where your car is ... Place the card
    and continue normally": the five criteria still apply on the car's cell."""
    g = _game()
    g.push(Action.of("reveal", None, card="plain"))       # gray ring east and south
    g.push(Action.of("reserve", 0, x=1, y=0))
    p = _turn_up(g, "plain")
    assert p == 1
    g.push(Action.of("place", 1, card="plain", x=0, y=1, rotation=270))
    p = _turn_up(g, "plain")
    assert p == 0
    refused(g, Action.of("place", 0, card="plain", x=1, y=0, rotation=0), RULE_GRAY)
    assert g.state.cars == {(1, 0): 0}
    g.push(Action.of("place", 0, card="plain", x=1, y=0, rotation=90))
    assert g.state.cars == {} and g.car_in_hand(0)


def test_a_roundabout_completed_on_the_owners_car_scores_for_the_owner() -> None:
    """"If the card played is the last section in a roundabout ... the player who played the card
    begins scoring", also when it goes where their car was; the car kept the others off it."""
    g = _game(players=3)
    g.push(Action.of("reveal", None, card="out"))         # 2 arrows
    _turn_up(g, "out")                                    # Ana (0)
    g.push(Action.of("place", 0, card="out", x=1, y=0, rotation=90))
    g.push(Action.of("reserve", 2, x=1, y=1))             # Cleo keeps the last quarter
    _turn_up(g, "in")                                     # Ben (1)
    g.push(Action.of("place", 1, card="in", x=0, y=1, rotation=270))
    _turn_up(g, "plain")                                  # Ana: the only spot is under Cleo's car
    assert legal_placements(g, "plain") == [] and legal_placements(g, "plain", player=2) == [(1, 1, 180)]
    g.push(Action.of("discard", 0, card="plain"))
    _turn_up(g, "plain")                                  # Cleo
    g.push(Action.of("place", 2, card="plain", x=1, y=1, rotation=180))
    assert g.state.cars == {} and g.state.roundabouts == [(2, (1, 1))]
    assert [g.breakdown(p).total for p in range(3)] == [0, 0, 1 + 2 + 2 + 1 + 0]


def test_a_card_touching_only_a_car_has_no_road_to_connect_to() -> None:
    """A car "does not count as having roads": a spot that touches nothing but a car is refused."""
    g = _game()
    g.push(Action.of("reveal", None, card="wide"))
    g.push(Action.of("reserve", 0, x=1, y=0))
    _turn_up(g, "wide")
    refused(g, Action.of("place", 1, card="wide", x=2, y=0, rotation=0), RULE_ROAD)


def test_one_car_each_and_it_stays_until_its_owner_plays_there() -> None:
    """"Instead of playing a card, you may place your car token": each player has one car; it
    returns only "if you [place a card where your car is]"."""
    g = _game()
    g.push(Action.of("reveal", None, card="wide"))
    g.push(Action.of("reserve", 0, x=1, y=0))
    g.push(Action.of("reserve", 1, x=-1, y=0))
    assert not any(a.kind == "reserve" for a in g.legal_actions())
    refused(g, Action.of("reserve", 0, x=0, y=1), RULE_CARS)


# ---------------------------------------------------------------------------------- scoring

@settings(max_examples=30, database=None, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), tight=st.booleans())
def test_each_completed_roundabout_scores_once_for_the_player_who_completed_it(
        seed: int, players: int, tight: bool) -> None:
    """"If the card played is the last section in a roundabout, creating a four-card roundabout,
    the player who played the card begins scoring": +1, +1 per arrow, bonuses; nobody else."""
    rng = random.Random(seed)
    g = Roundabout(NAMES[:players], seed=seed, deck=TIGHT if tight else None)
    expected = [0] * players
    while not g.is_game_over():
        action = g.sample_chance() if g.is_chance_node() else playout_choice(g, g.legal_actions(), rng)
        before = complete_points(g.state.layout)
        g.push(action)
        new = complete_points(g.state.layout) - before
        if new:
            assert action.kind == "place" and action.player is not None and len(new) == 1
            expected[action.player] += referee_points(g.deck, g.state.layout, new.pop())
        assert [g.breakdown(p).total for p in range(players)] == expected


# ---------------------------------------------------------------------------------- the end

@settings(max_examples=30, database=None, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_the_game_ends_exactly_when_no_card_is_left_to_play(seed: int, players: int) -> None:
    """"The game ends when the last card from both the deck and the discard pile is played": the
    game is over exactly when the deck is empty, no card is in play, and the discard pile is
    empty or its top card fits nowhere for anyone (cars included, as an owner may play on theirs).
    Before that, somebody always has a move."""
    rng = random.Random(seed)
    g = Roundabout(NAMES[:players], seed=seed, deck=TIGHT)
    for _ in range(2000):
        s = g.state
        stuck = (not s.deck and s.held is None and not s.flipping and bool(s.layout)
                 and (not s.discard or not referee_spots(g, s.discard[-1], None)))
        assert g.is_game_over() == stuck
        if stuck:
            break
        g.push(g.sample_chance() if g.is_chance_node() else playout_choice(g, g.legal_actions(), rng))
    assert g.is_game_over()


def test_a_discard_that_fits_only_under_a_car_waits_for_the_cars_owner() -> None:
    """With the deck empty, a discard pile card that only the car's owner could play keeps the game
    going until the owner takes it: "the game ends when the last card from both the deck and the
    discard pile is played"."""
    deck = parse_deck("d", {"cards": [
        {"id": "plain", "count": 3, "edges": ["none", "gray", "gray", "none"], "arrows": 0},
        {"id": "in", "count": 1, "edges": ["entrance", "gray", "gray", "none"], "arrows": 1},
        {"id": "out", "count": 1, "edges": ["exit", "gray", "gray", "none"], "arrows": 2},
    ]})
    g = Roundabout(NAMES[:3], seed=1, deck=deck)
    g.push(Action.of("reveal", None, card="in"))          # entrance on the north edge
    g.push(Action.of("reserve", 0, x=0, y=-1))            # Ana's car north of it
    for card, x, y, r in (("plain", 1, 0, 90), ("plain", 1, 1, 180), ("plain", 0, 1, 270)):
        _turn_up(g, card)
        g.push(Action.of("place", g.state.turn, card=card, x=x, y=y, rotation=r))
    p = _turn_up(g, "out")                                # its exit fits only Ana's car's cell...
    assert p == 2 and legal_placements(g, "out") == []    # ...so Cleo must discard it
    assert legal_placements(g, "out", player=0) == [(0, -1, 180)]
    g.push(Action.of("discard", 2, card="out"))
    assert not g.is_game_over() and g.current_player() == 1
    ben = g.legal_actions_for(1)
    assert Action.of("pass", 1) in ben and not any(a.kind == "take_discard" for a in ben)
    g.push(Action.of("pass", 1))
    assert not g.is_game_over()
    assert g.legal_actions_for(0) == [Action.of("take_discard", 0, card="out")]
    g.push(Action.of("take_discard", 0, card="out"))
    g.push(Action.of("place", 0, card="out", x=0, y=-1, rotation=180))
    assert g.is_game_over() and g.state.cars == {} and not g.state.discard


# ---------------------------------------------------------------------------------- turn order

@pytest.mark.parametrize(("players", "first"), [(2, 0), (2, 1), (3, 0), (3, 2), (4, 1), (4, 3)])
def test_play_goes_counter_clockwise_from_whoever_most_recently_drove_on_a_roundabout(
        players: int, first: int) -> None:
    """"Whoever most recently drove on a roundabout goes first, and play continues
    counter-clockwise." Seats are listed clockwise, so the next seat counter-clockwise is i - 1."""
    g = _game(players=players, first=first)
    g.push(Action.of("reveal", None, card="wide"))
    seen = []
    for k in range(2 * players):
        p = g.current_player()
        assert p is not None
        seen.append(p)
        if k < players:  # a car each on the cells beside the centre card
            x, y = ((1, 0), (-1, 0), (0, 1), (0, -1))[k]
            g.push(Action.of("reserve", p, x=x, y=y))
        else:  # then a card each (played where it fits, or discarded)
            g.push(Action.of("flip", p))
            g.push(Action.of("reveal", None, card=g.legal_actions()[0]["card"]))
            g.push(g.legal_actions()[0])
    assert seen == [(first - k) % players for k in range(2 * players)]


def test_legal_actions_for_gives_the_mover_everything_and_the_others_nothing() -> None:
    g = _game(players=3)
    assert g.legal_actions_for(0) == []  # the centre card is still to be revealed
    g.push(Action.of("reveal", None, card="wide"))
    assert g.legal_actions_for(0) == g.legal_actions()
    assert g.legal_actions_for(1) == g.legal_actions_for(2) == []
    for bad in (-1, 3, True, "0"):
        with pytest.raises(ActionFormatError):
            g.legal_actions_for(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- bad input

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=True) | st.sampled_from(
        ["plain", "in", "wide", "ra-01", "", "0"]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["x", "y"]), inner, max_size=2),
    max_leaves=4,
)


@settings(max_examples=150, database=None, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 40),
       kind=st.sampled_from(["reveal", "flip", "take_discard", "place", "discard", "reserve", "pass", "drive"]),
       player=st.none() | st.integers(-1, 4),
       params=st.dictionaries(st.sampled_from(["card", "x", "y", "rotation", "route"]), JSONISH, max_size=4))
def test_any_action_is_applied_or_refused_with_a_typed_error_and_no_change(
        seed: int, steps: int, kind: str, player: int | None, params: dict[str, Any]) -> None:
    """Every kind of bad input gets a typed error (a RulesError, i.e. a ValueError) in one
    sentence and leaves the state untouched."""
    g = random_game(seed, steps, 3, SMALL)
    if g.is_game_over():
        return
    action = Action.from_json(json.loads(json.dumps({"kind": kind, "player": player, **params}, allow_nan=True)))
    before = pickle.dumps(g.state)
    history = list(g.actions)
    try:
        g.push(action)
    except RulesError as exc:
        assert pickle.loads(before) == g.state and g.actions == history
        assert str(exc) and "\n" not in str(exc)
        if isinstance(exc, IllegalAction):
            assert exc.rule
        return
    offered = set(_legal_before(before, g, history))
    if action.kind == "reveal":  # the centre card's reveal may add the rotation the camera sees
        action = Action.of("reveal", None, card=action["card"])
    assert action in offered, f"{action!r} was accepted but never offered"


def _legal_before(before: bytes, g: Roundabout, history: list[Action]) -> list[Action]:
    """The actions legal_actions() offered just before ``g``'s last action."""
    again = Roundabout(list(g.players), seed=g.seed, options=g.options, deck=g.deck)
    for a in history:
        again.push(a)
    assert pickle.loads(before) == again.state
    return again.legal_actions()
