"""Big Sur random games: the Advanced game's invariants (tests/rules/test_playouts.py covers the
basic game), and random junk actions thrown at games in progress."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, Record, RulesError
from rules.bigsur import BigSur, playout_choice
from rules.playout import random_step

NAMES = ["Ana", "Ben", "Cleo", "Dev"]


def advance(game: BigSur, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if game.is_game_over():
            return
        game.push(random_step(game, rng, playout_choice))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_advanced_games_keep_every_invariant(players: int) -> None:
    @settings(max_examples=25, database=None)
    @given(seed=st.integers(0, 2**31))
    def run(seed: int) -> None:
        game = BigSur(NAMES[:players], seed=seed, options={"landmarks": True})
        stock = game.inventory()
        rng = random.Random(seed)
        steps = 0
        while not game.is_game_over():
            action = random_step(game, rng, playout_choice)
            if action.player is not None:
                assert action in game.legal_actions()
            game.push(action)
            steps += 1
            assert steps < 5000
            assert game.inventory() == stock, f"cards created or lost by {action!r}"
            if game.can_undo():
                after = pickle.dumps(game.state)
                game.push(game.pop())
                assert pickle.loads(after) == game.state
            s = game.state
            assert len(s.landmarks_up) <= 3 and len(s.row) <= 5
            for seat in s.seats:
                assert len({(p.card, p.where) for p in seat.landmarks}) == len(seat.landmarks)
        assert game.state.deck_size() == 0
        turns = sum(1 for a in game.actions if a.kind == "end_turn")
        assert turns % players == 0, "every player had the same number of turns"
        replayed = Record.from_json(json.loads(json.dumps(game.record().to_json()))).replay()
        assert replayed.state == game.state
        for p in range(players):
            assert game.breakdown(p).total == sum(ln.points for ln in game.breakdown(p).lines)

    run()


junk_values = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 100), st.text(max_size=12),
    st.sampled_from(["bs-01", "bs-45", "bs-s1", "lm-01", "left", "right", "above", "highway", "material", "stone"]),
    st.lists(st.sampled_from(["hand:bs-01", "discard:stone", "mile:bs-02", "landmark:lm-03", "x", "hand:bs-s1"]),
             max_size=4),
)
junk_actions = st.builds(
    lambda kind, player, params: {"kind": kind, "player": player, **params},
    st.sampled_from(["starter_side", "draw", "draw_deck", "build", "flip", "landmark", "end_turn", "deal_starter",
                     "reveal", "reveal_landmark", "pass", ""]),
    st.one_of(st.none(), st.integers(-1, 5)),
    st.dictionaries(st.sampled_from(["card", "side", "end", "pay", "tile", "where", "material", "seat"]),
                    junk_values, max_size=5),
)


@settings(max_examples=400, database=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 150), junk=st.lists(junk_actions, min_size=1, max_size=5),
       landmarks=st.booleans())
def test_junk_actions_are_refused_with_typed_errors_or_are_legal(seed: int, steps: int, junk: list[dict[str, Any]],
                                                                  landmarks: bool) -> None:
    game = BigSur(NAMES[:3], seed=seed, options={"landmarks": landmarks})
    advance(game, steps, random.Random(seed))
    for raw in junk:
        if game.is_game_over():
            break
        try:
            action = Action.from_json(raw)
        except RulesError:
            continue
        legal = game.legal_actions()
        before = copy.deepcopy(game.state)
        try:
            game.push(action)
        except RulesError as exc:
            assert game.state == before and str(exc)
            assert action not in legal, f"{action!r} is listed as legal but refused: {exc}"


@pytest.mark.slow
@settings(max_examples=3000, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), landmarks=st.booleans())
def test_long_run_random_games_end_and_replay(seed: int, players: int, landmarks: bool) -> None:
    """./dev.sh long: thousands of random games of either kind end, conserve cards and replay."""
    game = BigSur(NAMES[:players], seed=seed, options={"landmarks": landmarks})
    stock = game.inventory()
    advance(game, 10_000, random.Random(seed))
    assert game.is_game_over() and game.inventory() == stock
    assert game.record().replay().state == game.state
