"""Highwayman properties on random positions (Hypothesis), for every player count 2-6."""

from __future__ import annotations

import json
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, RulesError
from rules.highwayman import HIGHWAYMAN_ID, RUNNER_ID, Highwayman, playout_choice

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn"]


def random_position(seed: int, steps: int, players: int) -> Highwayman:
    rng = random.Random(seed)
    g = Highwayman(NAMES[:players], seed=seed, options={"dealer": seed % players})
    for _ in range(steps):
        if g.is_game_over():
            break
        g.push(g.sample_chance() if g.is_chance_node() else playout_choice(g, g.legal_actions(), rng))
    return g


def every_candidate(g: Highwayman) -> list[Action]:
    """Every action anyone might try now, legal or not."""
    cards = sorted(g.pack.cards)
    if g.is_chance_node():
        return [Action.of(kind, None, card=c) for kind in ("deal", "drawn") for c in cards]
    out = []
    for p in range(len(g.players)):
        for c in cards:
            if c in (HIGHWAYMAN_ID, RUNNER_ID):
                out += [Action.of("play", p, card=c, route=r) for r in g.pack.routes]
            else:
                out.append(Action.of("play", p, card=c))
        out += [Action.of(kind, p) for kind in ("draw", "pass", "end_turn")]
    return out


@settings(max_examples=50, database=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 150), players=st.integers(2, 6))
def test_legal_actions_are_exactly_the_actions_push_accepts(seed: int, steps: int, players: int) -> None:
    g = random_position(seed, steps, players)
    if g.is_game_over():
        return
    legal = set(g.legal_actions())
    assert len(legal) == len(g.legal_actions()), "duplicates in legal_actions()"
    before = pickle.dumps(g.state)
    accepted = set()
    for action in every_candidate(g):
        # a random outcome cannot be undone, so try it on a copy of the game
        trial = pickle.loads(pickle.dumps(g)) if action.is_chance else g
        try:
            trial.push(action)
        except RulesError:
            assert pickle.loads(before) == trial.state
            continue
        accepted.add(action)
        if not action.is_chance:
            g.pop()
        assert pickle.loads(before) == g.state
    assert accepted == legal


@settings(max_examples=30, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(5, 6))
def test_five_and_six_player_games_end_and_keep_every_card(seed: int, players: int) -> None:
    """The shared playout test covers 2-4 players; Highwayman seats up to six."""
    g = Highwayman(NAMES[:players], seed=seed)
    stock = g.inventory()
    rng = random.Random(seed)
    for _ in range(5000):
        if g.is_game_over():
            break
        action = g.sample_chance() if g.is_chance_node() else playout_choice(g, g.legal_actions(), rng)
        g.push(action)
        assert g.inventory() == stock
    assert g.is_game_over()
    text = g.record().dumps()
    from rules import Record

    assert Record.loads(text).replay().state == g.state
    standings = g.standings()
    assert sorted(s.player for s in standings) == list(range(players))
    if g.state.out is not None:
        assert standings[0].player == g.state.out and standings[0].score == 0
    assert json.loads(json.dumps([s.to_json() for s in standings]))


@settings(max_examples=40, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_hand_scores_are_the_rule_5_penalties(seed: int, players: int) -> None:
    g = random_position(seed, 10_000, players)
    for p in range(players):
        expected = 0
        for card in g.state.hands[p]:
            info = g.pack[card]
            expected += {"highwayman": 20, "bow street runner": 10, "london": 0}.get(info.kind, info.number or 0)
        assert g.breakdown(p).total == expected
    if g.state.out is not None:
        assert g.state.hands[g.state.out] == []
