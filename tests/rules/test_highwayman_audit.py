"""Highwayman audit: a second, independent reading of the Chad Valley sheet (seeds/003, rules 1-5)
checked against the engine. The referee below is written from the rules' sentences (and the
interpretations documented in docs/records.md), not from the engine's code.

Each test names the rule it checks and quotes the sheet in its docstring.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, ActionFormatError, IllegalAction, OptionError, RulesError
from rules.highwayman import HIGHWAYMAN_ID as HW
from rules.highwayman import RUNNER_ID as RUNNER
from rules.highwayman import Highwayman, Series, playout_choice
from rules.highwayman.cards import Pack, parse_pack
from rules.highwayman.game import RULE_DRAW, RULE_HIGHWAYMAN, RULE_LONDON, RULE_RUN, RULE_TURN

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn"]


def b(n: int | str) -> str:
    return f"hm-bath-{n}"


def d(n: int | str) -> str:
    return f"hm-dover-{n}"


def pack(stages: int = 8, highwaymen: int = 3, runners: int = 3) -> Pack:
    return parse_pack("audit-pack", {
        "routes": [{"id": "bath", "name": "Bath Road", "colour": "red", "stages": stages},
                   {"id": "dover", "name": "Dover Road", "colour": "blue", "stages": stages}],
        "highwaymen": highwaymen, "bow_street_runners": runners,
    })


def dealt(hands: list[list[str]], *, dealer: int | None = None, cards: Pack | None = None) -> Highwayman:
    """Six-card ``hands`` in seat order, dealt one at a time from the dealer's left."""
    n = len(hands)
    g = Highwayman(NAMES[:n], seed=1, options={} if dealer is None else {"dealer": dealer},
                   pack=cards or pack())
    first = ((n - 1 if dealer is None else dealer) + 1) % n
    for i in range(6):
        for k in range(n):
            g.push(Action.of("deal", None, card=hands[(first + k) % n][i]))
    return g


def refused(g: Highwayman, action: Action, rule: str | None = None) -> IllegalAction:
    before = pickle.dumps(g.state)
    with pytest.raises(IllegalAction) as info:
        g.push(action)
    assert pickle.loads(before) == g.state
    if rule is not None:
        assert info.value.rule == rule, str(info.value)
    return info.value


# ---------------------------------------------------------------------------------- the referee

def is_held_up(g: Highwayman, route: str) -> bool:
    pile = g.state.routes.get(route, [])
    return bool(pile) and pile[-1] == HW


def numbered_plays(g: Highwayman, seat: int, run: str | None) -> set[str]:
    """Rule 2 "Number 2 on Number 1 and Number 3 on Number 2" (1 on LONDON); rule 3 a run goes on
    "on the correct route"; rule 4 nothing on a held-up route."""
    out = set()
    for route, pile in g.state.routes.items():
        if run is not None and route != run:
            continue
        numbers = [g.pack[c].number for c in pile if g.pack[c].kind in ("london", "stage")]
        nxt = f"hm-{route}-{max(n or 0 for n in numbers) + 1}"
        if nxt in g.state.hands[seat] and not is_held_up(g, route):
            out.add(nxt)
    return out


def referee(g: Highwayman) -> set[Action]:
    s = g.state
    p = s.turn
    numbered = numbered_plays(g, p, s.run)
    # "if any Player does not hold a numbered card he may play a 'London' card instead"
    londons = {c for c in s.hands[p] if g.pack[c].kind == "london"} if s.run is None and not numbered else set()
    out = {Action.of("play", p, card=c) for c in numbered | londons}
    started = [r for r in s.routes]
    for seat in range(len(g.players)):  # rule 4: "at any time and on any route after [it] has been started"
        if HW in s.hands[seat]:
            out |= {Action.of("play", seat, card=HW, route=r) for r in started if not is_held_up(g, r)}
    if RUNNER in s.hands[p]:
        out |= {Action.of("play", p, card=RUNNER, route=r) for r in started if is_held_up(g, r)}
    if s.run is not None:
        out.add(Action.of("end_turn", p))
    elif not numbered and not londons:  # "A Player holding neither must take a card from the pack"
        out.add(Action.of("draw", p) if s.stock else Action.of("pass", p))
    return out


def accepted(g: Highwayman) -> set[Action]:
    """Every action push() accepts now, found by trying each one anyone could name."""
    tries = [Action.of(kind, p) for p in range(len(g.players)) for kind in ("draw", "pass", "end_turn")]
    for p in range(len(g.players)):
        for card in g.pack.cards:
            if card in (HW, RUNNER):
                tries += [Action.of("play", p, card=card, route=r) for r in g.pack.routes]
            else:
                tries.append(Action.of("play", p, card=card))
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


def penalty(g: Highwayman, card: str) -> int:
    """Rule 5: "total up the numbers on the cards ... 10 points for a Bow Street Runner and 20
    points for a Highwayman"; a LONDON card carries no number."""
    info = g.pack[card]
    return {"highwayman": 20, "bow street runner": 10, "london": 0}.get(info.kind, info.number or 0)


@settings(max_examples=40, database=None, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_every_decision_of_a_whole_game_matches_a_referee_written_from_the_sheet(seed: int, players: int) -> None:
    """Rules 2-4 at every decision, the turn passing to the left, and rule 5's scores at the end."""
    rng = random.Random(seed)
    g = Highwayman(NAMES[:players], seed=seed, options={"dealer": seed % players})
    for _ in range(5000):
        if g.is_game_over():
            break
        if g.is_chance_node():
            g.push(g.sample_chance())
            continue
        assert set(g.legal_actions()) == referee(g)
        if rng.random() < 0.1:
            assert accepted(g) == referee(g)
        mover = g.state.turn
        action = playout_choice(g, g.legal_actions(), rng)
        g.push(action)
        if g.is_game_over():
            break
        s = g.state
        if action.kind in ("draw", "pass", "end_turn"):
            assert s.turn == (mover + 1) % players or s.drawing  # "the play goes to the next Player on his left"
        elif s.turn == mover and s.run is not None:
            # the turn goes on only while the mover still has something to play
            assert any(a.player == mover and a.kind == "play" for a in referee(g))
        elif s.turn != mover:
            assert s.turn == (mover + 1) % players
    assert g.is_game_over()
    s = g.state
    if s.out is not None:
        assert s.hands[s.out] == [] and g.standings()[0].player == s.out
    else:  # the stock ran out and a full round passed: truly nobody can play a number or LONDON
        assert not s.stock
        for seat in range(players):
            assert not numbered_plays(g, seat, None)
            assert not any(g.pack[c].kind == "london" for c in s.hands[seat])
    for seat in range(players):
        assert g.breakdown(seat).total == sum(penalty(g, c) for c in s.hands[seat])


# ---------------------------------------------------------------------------------- rule 1 and 2

@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (3, 0), (4, 2), (6, 5)])
def test_rule_1_and_2_deal_six_from_the_dealers_left_who_starts(players: int, dealer: int) -> None:
    """"Shuffle the pack and deal six cards to each player. Place the remainder of the pack face
    downwards..." and "The player on the left of the Dealer commences the game"."""
    g = Highwayman(NAMES[:players], seed=7, options={"dealer": dealer})
    receivers = []
    while g.is_chance_node():
        receivers.append(g.state.deal_to)
        g.push(g.sample_chance())
    left = (dealer + 1) % players
    assert receivers == [(left + k) % players for k in range(players)] * 6
    assert [len(h) for h in g.state.hands] == [6] * players
    assert sum(g.state.stock.values()) == g.pack.size - 6 * players
    assert g.current_player() == left and g.state.routes == {}


def test_rule_2_a_numbered_card_taken_from_the_pack_is_kept_even_if_it_could_be_played() -> None:
    """"A Player holding neither must take a card from the pack": taking it is the turn, as for a
    LONDON card, after which "the play goes to the next Player on his left"."""
    g = dealt([[b("london"), b(3), b(4), b(5), d(5), d(6)], [b(7), b(8), d(3), d(4), d(7), d(8)]])
    g.push(Action.of("play", 0, card=b("london")))
    assert g.current_player() == 1
    g.push(Action.of("draw", 1))
    g.push(Action.of("drawn", None, card=b(1)))  # it would fit on the Bath Road...
    assert g.current_player() == 0 and b(1) in g.state.hands[1]  # ...but Ben's turn is over
    refused(g, Action.of("play", 1, card=b(1)), RULE_TURN)


def test_rule_2_the_opening_goes_round_until_someone_has_a_london_card() -> None:
    """"If this card is not held then the player must take the top card from the pack ... and the
    play goes to the next Player on his left and so on."""
    g = dealt([[b(1), b(2), b(3), d(1), d(2), d(3)], [b(4), b(5), b(6), d(4), d(5), d(6)],
               [b(7), b(8), d(7), d(8), HW, RUNNER]])
    for seat, card in ((0, HW), (1, RUNNER), (2, b("london"))):
        assert g.legal_actions_for(seat) == [Action.of("draw", seat)]
        g.push(Action.of("draw", seat))
        g.push(Action.of("drawn", None, card=card))
    assert g.state.routes == {"bath": [b("london")]}
    assert g.current_player() == 0 and Action.of("play", 0, card=b(1)) in g.legal_actions_for(0)


# ---------------------------------------------------------------------------------- rule 3

def test_rule_3_a_run_stays_on_one_route_and_a_london_card_cannot_follow() -> None:
    """"A Player may continue to place any cards down as long as the numbers run consecutively
    and on the correct route": Bath 1 then Dover 1 is not a run, and neither is a LONDON card
    after a number."""
    g = dealt([[b("london"), d("london"), b(1), d(1), b(5), d(5)], [b(2), b(3), d(2), d(3), b(7), d(7)]])
    g.push(Action.of("play", 0, card=b("london")))
    err = refused(g, Action.of("play", 0, card=d("london")), RULE_RUN)
    assert "LONDON" in str(err)
    g.push(Action.of("play", 0, card=b(1)))
    assert g.current_player() == 1  # nothing left to run on: the turn ended by itself
    g.push(Action.of("play", 1, card=b(2)))
    refused(g, Action.of("play", 1, card=d(2)), RULE_RUN)
    g.push(Action.of("play", 1, card=b(3)))
    assert g.current_player() == 0
    g.push(Action.of("play", 0, card=d("london")))  # Bath Road 4 is nobody's: no number can be played
    refused(g, Action.of("play", 0, card=b(5)), RULE_RUN)
    g.push(Action.of("play", 0, card=d(1)))


# ---------------------------------------------------------------------------------- rule 4

def test_rule_4_a_highwayman_may_even_go_on_a_finished_route() -> None:
    """"A Player may play a Highwayman card at any time and on any route after the route has been
    started": the sheet makes no exception for a route whose numbers are all down, so a player may
    rid themselves of a Highwayman (20 points) there."""
    small = pack(stages=2)
    g = dealt([[b("london"), b(1), b(2), d(1), d(2), RUNNER], [HW, HW, d("london"), RUNNER, RUNNER, HW]],
              cards=small)
    g.push(Action.of("play", 0, card=b("london")))
    g.push(Action.of("play", 0, card=b(1)))
    g.push(Action.of("play", 0, card=b(2)))  # the Bath Road is complete
    g.push(Action.of("play", 1, card=HW, route="bath"))
    assert g.state.routes["bath"][-1] == HW


def test_rule_4_going_out_with_a_highwayman_out_of_turn_wins() -> None:
    """"A Player may play a Highwayman card at any time" and "the Player who gets rid of all his
    cards first is the Winner": even between two of another player's cards."""
    g = dealt([[b("london"), b(1), b(2), b(3), d(7), d(8)], [HW, b(4), b(5), b(6), b(7), b(8)]])
    g.push(Action.of("play", 0, card=b("london")))
    g.push(Action.of("play", 0, card=b(1)))
    g.push(Action.of("play", 0, card=b(2)))
    g.push(Action.of("play", 0, card=b(3)))
    assert g.current_player() == 1
    for n in range(4, 9):
        g.push(Action.of("play", 1, card=b(n)))
    g.push(Action.of("end_turn", 1))  # he keeps his Highwayman for later
    # Ben holds only his Highwayman; Ana's turn comes round and Ben goes out while she plays
    assert g.current_player() == 0 and g.state.hands[1] == [HW]
    g.push(Action.of("play", 1, card=HW, route="bath"))
    assert g.is_game_over() and g.state.out == 1
    assert [(s.place, s.name, s.score) for s in g.standings()] == [(1, "Ben", 0), (2, "Ana", 15)]


def test_rule_4_nothing_else_goes_on_a_held_up_route_not_even_for_its_highwayman_player() -> None:
    """"...until that card is covered by a Bow Street Runner, it is impossible for any other cards
    to be played on that route": no number, no second Highwayman, whoever plays them."""
    g = dealt([[b("london"), b(2), HW, HW, d(7), d(8)], [b(1), b(3), RUNNER, d(4), d(5), d(6)]])
    g.push(Action.of("play", 0, card=b("london")))
    g.push(Action.of("play", 0, card=HW, route="bath"))
    assert g.current_player() == 1  # Ana holds nothing else she could play
    refused(g, Action.of("play", 1, card=b(1)), RULE_HIGHWAYMAN)
    refused(g, Action.of("play", 0, card=HW, route="bath"), RULE_HIGHWAYMAN)
    assert Action.of("play", 1, card=RUNNER, route="bath") in g.legal_actions_for(1)
    g.push(Action.of("play", 1, card=RUNNER, route="bath"))
    g.push(Action.of("play", 1, card=b(1)))  # covered: the road is open again


def test_rule_4_a_bow_street_runner_is_not_the_turns_play() -> None:
    """The sheet gives the Bow Street Runner no timing of its own; the engine lets the mover play
    it in their turn without it counting as the turn's play (only a number, a LONDON card or a
    card taken from the pack is), as the Highwayman it answers does not count either."""
    g = dealt([[b("london"), b(1), RUNNER, b(5), d(5), d(6)], [HW, b(2), b(3), d(1), d(2), d(3)]])
    g.push(Action.of("play", 0, card=b("london")))
    g.push(Action.of("play", 1, card=HW, route="bath"))  # out of turn, before Ana's Bath Road 1
    assert g.current_player() == 0  # Ana still holds a Bow Street Runner she could play
    g.push(Action.of("end_turn", 0))  # she need not cover him now
    g.push(Action.of("draw", 1))
    g.push(Action.of("drawn", None, card=d(8)))
    assert g.legal_actions_for(0) == [Action.of("play", 0, card=RUNNER, route="bath"), Action.of("draw", 0)]
    g.push(Action.of("play", 0, card=RUNNER, route="bath"))
    refused(g, Action.of("end_turn", 0), RULE_DRAW)  # a Runner alone is not a turn
    assert g.legal_actions_for(0) == [Action.of("play", 0, card=b(1))]
    g.push(Action.of("play", 0, card=b(1)))
    assert g.current_player() == 1


def test_rule_4_only_the_highwayman_is_played_out_of_turn() -> None:
    """"A Player may play a Highwayman card at any time": the sheet says so of the Highwayman
    alone, so a Bow Street Runner, like every other card, waits for its player's turn."""
    g = dealt([[b("london"), HW, b(5), d(5), d(6), d(7)], [b(1), b(2), RUNNER, d(1), d(2), d(3)],
               [RUNNER, b(6), b(7), b(8), d(8), d(4)]])
    g.push(Action.of("play", 0, card=b("london")))
    g.push(Action.of("play", 0, card=HW, route="bath"))
    assert g.current_player() == 1
    err = refused(g, Action.of("play", 2, card=RUNNER, route="bath"), RULE_TURN)
    assert "Ben's turn" in str(err)
    g.push(Action.of("play", 1, card=RUNNER, route="bath"))


def test_rule_2_a_london_card_instead_only_without_a_numbered_card_to_play() -> None:
    """"...but if any Player does not hold a numbered card he may play a 'London' card instead":
    holding the next number of a started route, the LONDON card must wait."""
    g = dealt([[b("london"), d(4), d(5), d(6), d(7), d(8)], [b(1), d("london"), b(3), d(1), d(2), d(3)]])
    g.push(Action.of("play", 0, card=b("london")))
    assert g.current_player() == 1
    err = refused(g, Action.of("play", 1, card=d("london")), RULE_LONDON)
    assert "Bath Road 1 can be played" in str(err)
    assert g.legal_actions_for(1) == [Action.of("play", 1, card=b(1))]
    g.push(Action.of("play", 1, card=b(1)))
    assert g.current_player() == 0 and g.legal_actions_for(0) == [Action.of("draw", 0)]
    g.push(Action.of("draw", 0))
    g.push(Action.of("drawn", None, card=b(8)))
    g.push(Action.of("play", 1, card=d("london")))  # Bath Road 2 is nobody's: now he may


def test_a_highwayman_cannot_be_played_while_a_card_is_being_taken_from_the_pack() -> None:
    """Between the draw and the card seen the table waits for the card: everything else, even a
    Highwayman, comes after it (the app records the card first)."""
    g = dealt([[b("london"), b(4), b(5), b(6), d(5), d(6)], [HW, b(7), b(8), d(1), d(2), d(3)]])
    g.push(Action.of("play", 0, card=b("london")))
    g.push(Action.of("draw", 1))
    refused(g, Action.of("play", 1, card=HW, route="bath"), RULE_TURN)


# ---------------------------------------------------------------------------------- rule 5

def test_rule_5_the_others_total_the_numbers_runners_and_highwaymen_in_hand() -> None:
    """"...whilst the others total up the numbers on the cards remaining in their hands, counting
    10 points for a Bow Street Runner and 20 points for a Highwayman." A LONDON card has no number."""
    g = dealt([[b("london"), b(1), b(2), b(3), b(4), b(5)], [HW, RUNNER, d("london"), d(8), b(7), b(6)],
               [HW, RUNNER, RUNNER, d(1), d(2), d(3)]])
    g.push(Action.of("play", 0, card=b("london")))
    for n in range(1, 6):
        g.push(Action.of("play", 0, card=b(n)))
    assert g.is_game_over()
    assert [g.breakdown(p).total for p in range(3)] == [0, 20 + 10 + 0 + 8 + 7 + 6, 20 + 10 + 10 + 1 + 2 + 3]
    for p in range(3):
        assert sum(ln.points for ln in g.breakdown(p).lines) == g.breakdown(p).total
    assert [s.name for s in g.standings()] == ["Ana", "Cleo", "Ben"]


def test_rule_5_series_totals_lowest_wins_and_equal_totals_share_a_place() -> None:
    """"Scoring in this manner allows for a series of games to be played, the Player with the least
    score being the Winner." """
    series = Series(("Ana", "Ben", "Cleo"))
    g = dealt([[b("london"), b(1), b(2), b(3), b(4), b(5)], [d(3), d(4), d(5), d(6), d(7), d(8)],
               [b(6), b(7), b(8), d(1), d(2), HW]], dealer=2)
    g.push(Action.of("play", 0, card=b("london")))
    for n in range(1, 6):
        g.push(Action.of("play", 0, card=b(n)))
    assert series.add(g) == [0, 33, 6 + 7 + 8 + 1 + 2 + 20]
    assert [(s.place, s.name) for s in series.standings()] == [(1, "Ana"), (2, "Ben"), (3, "Cleo")]
    later = Series(("Ana", "Ben", "Cleo"), games=[[0, 33, 44], [33, 0, 0]])
    assert [(s.place, s.name, s.score) for s in later.standings()] == [
        (1, "Ana", 33), (1, "Ben", 33), (3, "Cleo", 44)]


@pytest.mark.parametrize("names", [("Ana", ""), ("Ana", "  "), ("Ana", 3)])
def test_a_series_needs_a_name_for_every_player(names: tuple[Any, ...]) -> None:
    with pytest.raises(OptionError):
        Series(names)


# ---------------------------------------------------------------------------------- helpers for the app

def test_legal_actions_for_separates_the_mover_from_out_of_turn_highwaymen() -> None:
    """Rule 4's "at any time" puts other seats' Highwayman plays into legal_actions(); the screen
    beside each seat shows only that seat's."""
    g = dealt([[b("london"), b(1), b(2), d(5), d(6), d(7)], [HW, b(4), b(5), d(1), d(2), d(3)],
               [HW, RUNNER, b(6), d(4), d(8), b(8)]])
    assert [g.legal_actions_for(p) for p in range(3)] == [[Action.of("play", 0, card=b("london"))], [], []]
    g.push(Action.of("play", 0, card=b("london")))
    assert g.legal_actions_for(1) == [Action.of("play", 1, card=HW, route="bath")]
    assert g.legal_actions_for(2) == [Action.of("play", 2, card=HW, route="bath")]
    assert sorted(map(repr, g.legal_actions())) == sorted(
        repr(a) for p in range(3) for a in g.legal_actions_for(p))
    g.push(Action.of("play", 0, card=b(1)))
    g.push(Action.of("play", 0, card=b(2)))
    g.push(Action.of("draw", 1))
    assert [g.legal_actions_for(p) for p in range(3)] == [[], [], []]  # the card is being taken
    for bad in (-1, 3, None, True, "1"):
        with pytest.raises(ActionFormatError):
            g.legal_actions_for(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- bad input

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.floats(allow_nan=True) | st.sampled_from(
        [HW, RUNNER, "hm-bath-london", "hm-bath-1", "hm-york-3", "bath", "", "hm-bath-99"]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from(["card", "route"]), inner, max_size=2),
    max_leaves=4,
)


@settings(max_examples=150, database=None, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 60),
       kind=st.sampled_from(["deal", "drawn", "play", "draw", "end_turn", "pass", "steal"]),
       player=st.none() | st.integers(-1, 4),
       params=st.dictionaries(st.sampled_from(["card", "route", "x"]), JSONISH, max_size=3))
def test_any_action_is_applied_or_refused_with_a_typed_error_and_no_change(
        seed: int, steps: int, kind: str, player: int | None, params: dict[str, Any]) -> None:
    """Every kind of bad input gets a typed error in one sentence and leaves the state untouched;
    what is accepted was offered by legal_actions() (a numbered card may name its own route)."""
    rng = random.Random(seed)
    g = Highwayman(NAMES[:3], seed=seed)
    for _ in range(steps):
        if g.is_game_over():
            return
        g.push(g.sample_chance() if g.is_chance_node() else playout_choice(g, g.legal_actions(), rng))
    if g.is_game_over():
        return
    offered = set(g.legal_actions())
    action = Action.from_json(json.loads(json.dumps({"kind": kind, "player": player, **params})))
    before = pickle.dumps(g.state)
    try:
        g.push(action)
    except RulesError as exc:
        assert pickle.loads(before) == g.state
        assert str(exc) and "\n" not in str(exc)
        if isinstance(exc, IllegalAction):
            assert exc.rule
        return
    if action.kind == "play" and action.get("card") not in (HW, RUNNER) and "route" in action:
        action = Action.of("play", action.player, card=action["card"])
    assert action in offered, f"{action!r} was accepted but never offered"
