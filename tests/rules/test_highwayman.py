"""Highwayman: one test per rule of the Chad Valley sheet (seeds/003, rules 1-5), each with the
rule's sentence as docstring. Hands are dealt by pushing the observed deal outcomes, so every
position is reached by legal actions only."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from rules import Action, ActionFormatError, IllegalAction, OptionError, Record, RecordError, UndoRefused
from rules.highwayman import HIGHWAYMAN_ID as HW
from rules.highwayman import RUNNER_ID as RUNNER
from rules.highwayman import Highwayman, Series
from rules.highwayman.cards import Pack, parse_pack
from rules.highwayman.game import (
    RULE_DEAL,
    RULE_DRAW,
    RULE_HAND,
    RULE_HIGHWAYMAN,
    RULE_LONDON,
    RULE_ROTATION,
    RULE_RUN,
    RULE_STOCK,
    RULE_TURN,
)

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn"]
LB, LD = "hm-bath-london", "hm-dover-london"


def b(n: int) -> str:
    return f"hm-bath-{n}"


def d(n: int) -> str:
    return f"hm-dover-{n}"


def small_pack(stages: int = 4, highwaymen: int = 2, runners: int = 2) -> Pack:
    """Two routes of ``stages`` stages: 2 * (stages + 1) + highwaymen + runners cards."""
    return parse_pack("test-pack", {
        "routes": [{"id": "bath", "name": "Bath Road", "colour": "red", "stages": stages},
                   {"id": "dover", "name": "Dover Road", "colour": "blue", "stages": stages}],
        "highwaymen": highwaymen, "bow_street_runners": runners,
    })


def dealt(hands: list[list[str]], *, dealer: int | None = None, pack: Pack | None = None) -> Highwayman:
    """A game whose six-card hands are ``hands`` (seat order), dealt one at a time from the
    dealer's left as at the table."""
    n = len(hands)
    options = {} if dealer is None else {"dealer": dealer}
    g = Highwayman(NAMES[:n], seed=3, options=options, pack=pack or small_pack(stages=8))
    first = ((n - 1 if dealer is None else dealer) + 1) % n
    for i in range(6):
        for k in range(n):
            seat = (first + k) % n
            g.push(Action.of("deal", None, card=hands[seat][i]))
    assert not g.is_chance_node()
    return g


def play(g: Highwayman, card: str, player: int | None = None, route: str | None = None) -> None:
    who = g.current_player() if player is None else player
    params: dict[str, Any] = {"card": card} if route is None else {"card": card, "route": route}
    g.push(Action.of("play", who, **params))


def draw(g: Highwayman, card: str) -> None:
    g.push(Action.of("draw", g.current_player()))
    g.push(Action.of("drawn", None, card=card))


def refused(g: Highwayman, action: Action, rule: str | None = None,
            error: type[Exception] = IllegalAction) -> Exception:
    before = pickle.dumps(g.state)
    history = list(g.actions)
    with pytest.raises(error) as info:
        g.push(action)
    if rule is not None:
        assert getattr(info.value, "rule", None) == rule, str(info.value)
    assert pickle.loads(before) == g.state and g.actions == history
    assert str(info.value) and "\n" not in str(info.value)
    return info.value


# ---------------------------------------------------------------------------------- rule 1

def test_rule_1_deal_six_cards_each_and_the_rest_is_the_stock() -> None:
    """"Shuffle the pack and deal six cards to each player. Place the remainder of the pack face
    downwards in the centre of the table.\""""
    g = Highwayman(NAMES[:3], seed=11, options={"dealer": 1})
    assert g.is_chance_node()
    outcomes = g.legal_actions()
    assert {a.kind for a in outcomes} == {"deal"} and len(outcomes) == 47  # distinct designs
    assert sum(g.chance_weights(outcomes)) == 55
    receivers = []
    for _ in range(18):
        receivers.append(g.state.deal_to)
        g.push(g.sample_chance())
    assert receivers == [2, 0, 1] * 6  # one at a time, starting on the dealer's left
    assert [len(h) for h in g.state.hands] == [6, 6, 6]
    assert sum(g.state.stock.values()) == 55 - 18
    assert g.current_player() == 2
    refused(g, Action.of("deal", None, card=b(1)), "turn order")


def test_dealing_a_card_that_is_not_in_the_pack_is_refused() -> None:
    g = Highwayman(NAMES[:2], pack=small_pack(stages=4))
    g.push(Action.of("deal", None, card=LB))
    refused(g, Action.of("deal", None, card=LB), RULE_DEAL)
    refused(g, Action.of("deal", None, card="hm-bath-9"), error=ActionFormatError)


# ---------------------------------------------------------------------------------- rule 2

def test_rule_2_the_player_left_of_the_dealer_must_play_a_london_card() -> None:
    """"The player on the left of the Dealer commences the game and must play a "LONDON" card.\""""
    g = dealt([[LB, b(1), b(2), d(5), d(6), d(7)], [b(3), b(4), b(5), d(1), d(2), d(3)]])
    assert g.current_player() == 0
    assert {a for a in g.legal_actions() if a.player == 0} == {Action.of("play", 0, card=LB)}
    refused(g, Action.of("play", 0, card=b(1)), RULE_ROTATION)
    refused(g, Action.of("draw", 0), RULE_DRAW)
    play(g, LB)
    assert g.state.routes == {"bath": [LB]}


def test_rule_2_without_a_london_card_take_the_top_card_and_a_london_card_goes_down_at_once() -> None:
    """"If this card is not held then the player must take the top card from the pack. Should
    this card be a "LONDON" card he places it face up on the centre of the table and the play goes
    to the next Player on his left.\""""
    g = dealt([[b(1), b(2), b(3), b(4), d(5), d(6)], [b(5), b(6), b(7), d(1), d(2), d(3)]])
    assert [a for a in g.legal_actions() if a.player == 0] == [Action.of("draw", 0)]
    draw(g, LD)
    assert g.state.routes == {"dover": [LD]} and LD not in g.state.hands[0]
    assert g.current_player() == 1
    play(g, d(1))  # Ben plays on the route Ana's LONDON card started


def test_rule_2_a_card_taken_from_the_pack_that_is_not_london_is_kept_and_the_turn_passes() -> None:
    g = dealt([[b(1), b(2), b(3), b(4), d(5), d(6)], [b(5), b(6), b(7), d(1), d(2), d(3)]])
    draw(g, d(8))
    assert d(8) in g.state.hands[0] and len(g.state.hands[0]) == 7
    assert g.current_player() == 1
    with pytest.raises(UndoRefused):
        g.pop()  # the card taken from the pack has been seen


def test_rule_2_cards_are_played_in_rotation() -> None:
    """"Cards may only be played In rotation. i.e., Number 2 on Number 1 and Number 3 on
    Number 2." Number 1 goes on the LONDON card."""
    g = dealt([[LB, b(2), b(4), d(5), d(6), d(7)], [b(1), b(3), b(5), d(1), d(2), d(3)]])
    play(g, LB)
    assert g.current_player() == 1  # nothing to run on with: the turn ended by itself
    refused(g, Action.of("play", 1, card=b(3)), RULE_ROTATION)
    refused(g, Action.of("play", 1, card=d(1)), RULE_ROTATION)  # the Dover Road is not started
    refused(g, Action.of("play", 1, card=b(1), route="dover"), RULE_ROTATION)
    play(g, b(1))
    assert g.current_player() == 0
    play(g, b(2))
    assert g.state.routes["bath"] == [LB, b(1), b(2)] and g.state.reached == {"bath": 2}


def test_rule_2_a_london_card_only_when_no_numbered_card_can_be_played() -> None:
    """"...but if any Player does not hold a numbered card he may play a "London" card instead.\""""
    g = dealt([[LB, LD, b(2), d(5), d(6), d(7)], [b(1), b(3), b(5), d(1), d(2), d(3)]])
    play(g, LB)
    assert g.current_player() == 1
    play(g, b(1))
    assert g.current_player() == 0
    # Ana holds Bath Road 2, which can be played: no LONDON card now
    refused(g, Action.of("play", 0, card=LD), RULE_LONDON)
    assert Action.of("play", 0, card=LD) not in g.legal_actions()
    play(g, b(2))
    assert g.current_player() == 1


def test_rule_2_a_player_holding_neither_must_take_a_card_from_the_pack() -> None:
    """"A Player holding neither must take a card from the pack.\""""
    g = dealt([[LB, b(4), b(5), d(5), d(6), d(7)], [b(1), b(2), b(3), d(1), d(2), d(3)]])
    play(g, LB)
    refused(g, Action.of("draw", 1), RULE_DRAW)  # Ben can play Bath Road 1
    play(g, b(1))
    play(g, b(2))
    play(g, b(3))  # Ben's run ends by itself: Bath Road 4 is Ana's
    assert g.current_player() == 0
    play(g, b(4))
    play(g, b(5))
    assert g.current_player() == 1
    assert [a for a in g.legal_actions() if a.player == 1] == [Action.of("draw", 1)]
    refused(g, Action.of("end_turn", 1), RULE_DRAW)
    draw(g, d(8))


# ---------------------------------------------------------------------------------- rule 3

def test_rule_3_play_on_while_the_numbers_run_consecutively_on_the_correct_route() -> None:
    """"A Player may continue to place any cards down as long as the numbers run consecutively
    and on the correct route.\""""
    g = dealt([[LB, b(1), b(2), b(3), b(4), d(2)], [LD, d(1), b(6), d(4), d(5), d(6)]])
    play(g, LB)
    play(g, b(1))
    assert g.current_player() == 0
    refused(g, Action.of("play", 0, card=b(3)), RULE_RUN)
    assert Action.of("end_turn", 0) in g.legal_actions()
    play(g, b(2))
    g.push(Action.of("end_turn", 0))  # may stop although Bath Road 3 could follow
    assert g.current_player() == 1 and b(3) in g.state.hands[0]
    play(g, LD)  # no Bath Road 3: a LONDON card
    play(g, d(1))
    assert g.current_player() == 0  # no Dover Road 2 in Ben's hand: the turn ended by itself
    play(g, b(3))
    refused(g, Action.of("play", 0, card=d(2)), RULE_RUN)  # another route breaks the run
    play(g, b(4))
    assert g.current_player() == 1


def test_end_turn_before_playing_is_refused() -> None:
    g = dealt([[LB, b(1), b(2), b(3), d(2), d(7)], [LD, d(1), b(5), d(4), d(5), d(6)]])
    refused(g, Action.of("end_turn", 0), RULE_DRAW)


# ---------------------------------------------------------------------------------- rule 4

def test_rule_4_a_highwayman_at_any_time_stops_a_started_route() -> None:
    """"A Player may play a Highwayman card at any time and on any route after the route has been
    started, and until that card is covered by a "Bow Street Runner", it is impossible for any
    other cards to be played on that route.\""""
    g = dealt([[LB, b(1), b(2), b(3), d(2), d(7)], [HW, RUNNER, b(5), LD, d(5), d(6)]])
    refused(g, Action.of("play", 1, card=HW, route="bath"), RULE_HIGHWAYMAN)  # not started yet
    play(g, LB)
    play(g, b(1))
    # Ben holds up the Bath Road in the middle of Ana's run
    assert Action.of("play", 1, card=HW, route="bath") in g.legal_actions()
    play(g, HW, player=1, route="bath")
    assert g.state.routes["bath"][-1] == HW
    assert g.current_player() == 1  # Ana's run cannot go on: her turn ended by itself
    refused(g, Action.of("play", 0, card=b(2)), RULE_TURN)
    # Ben could cover his own Highwayman; he plays his LONDON card instead, and as he still holds
    # a Bow Street Runner he could play, his turn ends when he says so
    play(g, LD)
    assert g.current_player() == 1 and Action.of("end_turn", 1) in g.legal_actions()
    g.push(Action.of("end_turn", 1))
    refused(g, Action.of("play", 0, card=b(2)), RULE_HIGHWAYMAN)
    assert [a for a in g.legal_actions() if a.player == 0] == [Action.of("draw", 0)]


def test_rule_4_a_bow_street_runner_covers_the_highwayman_and_reopens_the_route() -> None:
    g = dealt([[LB, b(1), b(2), RUNNER, d(2), d(7)], [HW, b(4), b(5), b(6), d(5), d(6)]])
    play(g, LB)
    play(g, b(1))
    play(g, HW, player=1, route="bath")
    assert g.current_player() == 0  # Ana holds a Bow Street Runner: her turn goes on
    refused(g, Action.of("play", 0, card=RUNNER, route="dover"), RULE_HIGHWAYMAN)  # no Highwayman there
    refused(g, Action.of("play", 0, card=RUNNER, route="nowhere"), error=ActionFormatError)
    refused(g, Action.of("play", 0, card=RUNNER), error=ActionFormatError)  # which route?
    assert g.route_tops() == {"bath": HW}
    play(g, RUNNER, route="bath")
    assert g.state.routes["bath"] == [LB, b(1), HW, RUNNER] and g.route_tops() == {"bath": RUNNER}
    play(g, b(2))  # the run goes on past the covered Highwayman
    assert g.current_player() == 1


def test_rule_4_a_runner_needs_a_highwayman_and_is_played_in_your_own_turn() -> None:
    g = dealt([[LB, b(1), HW, RUNNER, d(2), d(7)], [RUNNER, b(4), b(5), b(6), d(5), d(6)]])
    play(g, LB)
    refused(g, Action.of("play", 0, card=RUNNER, route="bath"), RULE_HIGHWAYMAN)  # nothing to cover
    play(g, HW, route="bath")  # Ana may even hold up her own road
    refused(g, Action.of("play", 0, card=HW, route="bath"), RULE_HAND)  # she had one
    refused(g, Action.of("play", 1, card=RUNNER, route="bath"), RULE_TURN)
    play(g, RUNNER, route="bath")
    play(g, b(1))
    assert g.current_player() == 1


def test_rule_4_a_held_up_route_takes_no_second_highwayman() -> None:
    pack = small_pack(stages=8, highwaymen=3)
    g = dealt([[LB, HW, HW, RUNNER, d(2), d(7)], [HW, b(4), b(5), b(6), d(5), d(6)]], pack=pack)
    play(g, LB)
    play(g, HW, route="bath")
    refused(g, Action.of("play", 1, card=HW, route="bath"), RULE_HIGHWAYMAN)
    refused(g, Action.of("play", 0, card=HW, route="bath"), RULE_HIGHWAYMAN)


# ---------------------------------------------------------------------------------- rule 5

def test_rule_5_the_first_player_out_of_cards_wins_and_the_others_count_their_hands() -> None:
    """"The Player who gets rid of all his cards first is the Winner, whilst the others total up
    the numbers on the cards remaining in their hands, counting 10 points for a Bow Street Runner
    and 20 points for a Highwayman.\""""
    g = dealt([[LB, b(1), b(2), b(3), b(4), b(5)], [HW, RUNNER, LD, d(3), d(7), b(8)]])
    play(g, LB)
    for n in range(1, 5):
        play(g, b(n))
    assert not g.is_game_over()
    play(g, b(5))
    assert g.is_game_over() and g.state.out == 0 and g.legal_actions() == []
    assert g.breakdown(0).total == 0
    ben = g.breakdown(1)
    assert ben.total == 20 + 10 + 0 + 3 + 7 + 8
    assert {ln.label for ln in ben.lines} >= {"Highwayman", "Bow Street Runner", "Dover Road LONDON (no number)"}
    assert [(s.place, s.name, s.score) for s in g.standings()] == [(1, "Ana", 0), (2, "Ben", 48)]
    refused(g, Action.of("play", 1, card=HW, route="bath"), "game end")


def test_rule_5_the_player_out_first_wins_even_against_a_hand_worth_nothing() -> None:
    g = dealt([[LB, b(1), b(2), b(3), b(4), b(5)], [LD, d(1), d(2), d(3), d(4), d(5)],
               ["hm-york-london", "hm-exeter-london", "hm-holyhead-london", d(6), d(7), d(8)]],
              pack=parse_pack("p", {"routes": [
                  {"id": r, "name": r.title(), "colour": c, "stages": 8}
                  for r, c in (("bath", "red"), ("dover", "blue"), ("york", "green"), ("exeter", "gold"),
                               ("holyhead", "grey"))], "highwaymen": 0, "bow_street_runners": 0}))
    play(g, LB)
    for n in range(1, 6):
        play(g, b(n))
    assert g.state.out == 0
    assert g.breakdown(2).total == 21 and g.standings()[0].name == "Ana"


def test_rule_5_a_series_of_games_the_least_score_wins() -> None:
    """"Scoring in this manner allows for a series of games to be played, the Player with the
    least score being the Winner.\""""
    series = Series(("Ana", "Ben"))
    assert series.next_options() == {"dealer": 1}  # the last seat deals first, as in one game
    first = dealt([[LB, b(1), b(2), b(3), b(4), b(5)], [HW, RUNNER, LD, d(3), d(7), b(8)]])
    refused_game = dealt([[LB, b(1), b(2), b(3), b(4), b(5)], [HW, RUNNER, LD, d(3), d(7), b(8)]])
    with pytest.raises(OptionError, match="finished"):
        series.add(refused_game)
    play(first, LB)
    for n in range(1, 6):
        play(first, b(n))
    assert series.add(first) == [0, 48]
    assert series.next_dealer() == 0  # the deal passes to the left
    second = dealt([[HW, RUNNER, d(1), d(2), b(7), b(8)], [LD, LB, b(1), b(2), b(3), b(4)]], dealer=0)
    play(second, LB)  # Ben, on Ana's left, starts: no numbered card runs yet
    for n in range(1, 5):
        play(second, b(n))
    assert second.current_player() == 0
    draw(second, d(8))
    play(second, LD)
    assert second.state.out == 1
    assert series.add(second) == [20 + 10 + 1 + 2 + 7 + 8 + 8, 0]
    assert series.totals() == [56, 48]
    assert [(s.place, s.name, s.score) for s in series.standings()] == [(1, "Ben", 48), (2, "Ana", 56)]
    assert series.to_json()["next_dealer"] == 1 and series.next_options() == {"dealer": 1}
    assert series.to_json()["dealers"] == [1, 0]
    with pytest.raises(OptionError):
        series.add(Highwayman(["Ana", "Cleo"]))
    with pytest.raises(OptionError):
        Series(("Ana",))
    with pytest.raises(OptionError):
        Series(("Ana", "Ana"))


def test_a_series_from_records() -> None:
    g = Highwayman(["Ana", "Ben", "Cleo"], seed=5)
    from rules.playout import play_random_game

    play_random_game(g, 5)
    series = Series(("Ana", "Ben", "Cleo"))
    assert series.add_record(g.record()) == [g.breakdown(p).total for p in range(3)]
    with pytest.raises(RecordError):
        series.add_record(Record("roundabout", ["Ana", "Ben", "Cleo"]))


# ---------------------------------------------------------------------------------- the stock runs out

def test_with_the_stock_empty_a_round_of_passes_ends_the_game_and_everyone_counts_their_hand() -> None:
    """The sheet is silent on an empty stock: a player who can neither play nor draw passes; once
    every player has passed in a row nobody can ever play again, so the game ends and everyone
    scores their hand (lowest wins)."""
    pack = small_pack(stages=4, highwaymen=2, runners=0)  # 12 cards: all dealt, no stock
    g = dealt([[LB, HW, HW, d(2), d(3), d(4)], [b(1), b(2), b(3), b(4), d(1), LD]], pack=pack)
    assert g.state.stock == {}
    play(g, LB)
    play(g, HW, route="bath")  # Ana holds up her own road to spite Ben
    assert g.current_player() == 1  # nothing more she could play: the turn ended by itself
    # Ben's Bath Road cards are held up and nothing covers the Highwayman: his LONDON card
    play(g, LD)
    play(g, d(1))
    assert g.current_player() == 0
    play(g, d(2))
    play(g, d(3))
    play(g, d(4))
    g.push(Action.of("end_turn", 0))  # she could play her second Highwayman on the Dover Road
    assert g.current_player() == 1
    assert [a for a in g.legal_actions() if a.player == 1] == [Action.of("pass", 1)]
    refused(g, Action.of("draw", 1), RULE_STOCK)
    g.push(Action.of("pass", 1))
    assert not g.is_game_over()
    g.push(Action.of("pass", 0))
    assert g.is_game_over() and g.state.out is None
    assert [g.breakdown(p).total for p in (0, 1)] == [20, 1 + 2 + 3 + 4]
    assert [(s.place, s.name) for s in g.standings()] == [(1, "Ben"), (2, "Ana")]
    assert g.pop() == Action.of("pass", 0)  # undo works at the end too


# ---------------------------------------------------------------------------------- bad input

def test_bad_actions_are_typed_errors_and_change_nothing() -> None:
    g = dealt([[LB, b(1), b(2), b(3), d(2), d(7)], [HW, RUNNER, b(5), LD, d(5), d(6)]])
    refused(g, Action.of("fly", 0), error=ActionFormatError)
    refused(g, Action.of("play", 0), error=ActionFormatError)
    refused(g, Action.of("play", 0, card=LB, colour="red"), error=ActionFormatError)
    refused(g, Action.of("play", 0, card=3), error=ActionFormatError)
    refused(g, Action.of("play", 0, card="hm-bath-99"), error=ActionFormatError)
    refused(g, Action.of("play", 0, card=HW, route=7), error=ActionFormatError)
    refused(g, Action.of("play", 0, card=d(5)), RULE_HAND)
    refused(g, Action.of("play", 1, card=LD), RULE_TURN)
    refused(g, Action.of("play", 9, card=HW, route="bath"), RULE_TURN)
    refused(g, Action.of("play", None, card=HW, route="bath"), RULE_TURN)
    refused(g, Action.of("drawn", None, card=b(8)), RULE_TURN)
    refused(g, Action.of("deal", 0, card=b(8)), RULE_TURN)
    refused(g, Action.of("pass", 0), RULE_DRAW)
    g.push(Action.of("play", 0, card=LB))
    assert g.pop() == Action.of("play", 0, card=LB)


@pytest.mark.parametrize("dealer", [-1, 2, "1", True])
def test_the_dealer_must_be_a_seat(dealer: object) -> None:
    with pytest.raises(OptionError, match="dealer"):
        Highwayman(["Ana", "Ben"], options={"dealer": dealer})


def test_players_and_pack_size() -> None:
    with pytest.raises(OptionError):
        Highwayman([*NAMES, "Gus"])
    with pytest.raises(OptionError, match="too few"):
        Highwayman(NAMES, pack=small_pack(stages=4))
    assert Highwayman.lowest_wins


def test_the_example_record_replays_to_a_finished_game() -> None:
    """companion/examples/highwayman.json is a whole game made by this engine (docs/records.md)."""
    path = Path(__file__).resolve().parents[2] / "companion" / "examples" / "highwayman.json"
    record = Record.load(path)
    g = record.replay()
    assert isinstance(g, Highwayman) and g.is_game_over() and g.state.out is not None
    played = {a["card"] for a in record.actions if a.kind == "play"}
    assert {HW, RUNNER} <= played
    assert {"deal", "draw", "drawn", "end_turn", "play"} <= {a.kind for a in record.actions}
    assert g.standings()[0].player == g.state.out


def test_the_worked_example_in_the_records_doc_is_legal() -> None:
    import json

    text = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    section = text.split("### Highwayman (`highwayman`)", 1)[1]
    block = section.split("```json", 1)[1].split("```", 1)[0]
    g = Highwayman(["Ana", "Ben"])
    for raw in json.loads(block):
        g.push(Action.from_json(raw))
    assert g.current_player() == 1
    assert [g.breakdown(p).total for p in (0, 1)] == [5, 8]
