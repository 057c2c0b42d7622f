"""Random legal playouts: used by the property tests and by ``bench/rules.py``.

A game module may define ``playout_choice(game, legal, rng) -> Action`` to pick among legal
actions with a bias towards progress (so random games end in reasonable time); the choice must
always be one of ``legal``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from .actions import Action
from .game import Game

Chooser = Callable[[Game[Any], list[Action], random.Random], Action]


def chooser_for(game: Game[Any]) -> Chooser:
    from .registry import GAMES

    module = importlib.import_module(GAMES[game.name][0] if game.name in GAMES else type(game).__module__)
    found = getattr(module, "playout_choice", None)
    if found is None:
        return lambda _g, legal, rng: rng.choice(legal)
    chooser: Chooser = found
    return chooser


def random_step(game: Game[Any], rng: random.Random, choose: Chooser | None = None) -> Action:
    """The next action of a random legal playout (chance from the game's own generator)."""
    if game.is_chance_node():
        return game.sample_chance()
    legal = game.legal_actions()
    if not legal:
        raise AssertionError(f"{game!r}: the game is not over but nobody has a legal action")
    pick = (choose or chooser_for(game))(game, legal, rng)
    return pick


def play_random_game(game: Game[Any], seed: int, max_steps: int = 20_000) -> Game[Any]:
    rng = random.Random(seed)
    choose = chooser_for(game)
    for _ in range(max_steps):
        if game.is_game_over():
            return game
        game.push(random_step(game, rng, choose))
    raise AssertionError(f"{game!r}: no end after {max_steps} steps")
