"""Random legal games to the end for every game and player count, checking the invariants after
every action: nothing created or lost, the record replays to the live state, undo then redo
gives the same state, and every breakdown adds up to the score in the standings."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, registry
from rules.playout import chooser_for, random_step

CASES = [
    (name, n)
    for name in registry.available()
    for n in (2, 3, 4)
    if registry.game_class(name).min_players <= n <= registry.game_class(name).max_players
]
NAMES = ["Ana", "Ben", "Cleo", "Dev"]
MAX_STEPS = 20_000


def counts_per_game(name: str) -> int:
    """At least 200 games per game in CI, spread over its player counts."""
    sizes = sum(1 for g, _ in CASES if g == name)
    return -(-200 // sizes)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_legal_games_keep_every_invariant(name: str, players: int) -> None:
    cls = registry.game_class(name)

    @settings(max_examples=counts_per_game(name), database=None)
    @given(seed=st.integers(0, 2**31))
    def run(seed: int) -> None:
        game = cls(NAMES[:players], seed=seed)
        shadow = cls(NAMES[:players], seed=seed)
        stock = game.inventory()
        rng = random.Random(seed)
        choose = chooser_for(game)
        for _ in range(MAX_STEPS):
            if game.is_game_over():
                break
            action = random_step(game, rng, choose)
            game.push(action)
            assert game.inventory() == stock, f"cards created or lost by {action!r}"
            shadow.push(Action.from_json(json.loads(json.dumps(action.to_json()))))
            assert shadow.state == game.state, f"replay differs after {action!r}"
            if game.can_undo():
                after = pickle.dumps(game.state)
                undone = game.pop()
                game.push(undone)
                assert pickle.loads(after) == game.state, f"undo/redo of {action!r} differs"
        else:
            raise AssertionError(f"{name} with {players} players did not end in {MAX_STEPS} steps")
        standings = game.standings()
        assert sorted(s.player for s in standings) == list(range(players))
        for s in standings:
            assert s.score == game.breakdown(s.player).total
        assert game.record().replay().state == game.state

    run()
