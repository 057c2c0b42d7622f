"""Hot paths of the engine for ``bench/rules.py``: each callable returns milliseconds for one call."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..playout import random_step
from .chooser import playout_choice
from .engine import MonsterHighway


def half_built(seed: int = 7, tiles: int = 22) -> MonsterHighway:
    """A 4-player game played by the playout chooser until about half the Road tiles are down,
    stopped where the player to move is about to play a Road tile (what the app asks most)."""
    game = MonsterHighway(["Ana", "Ben", "Cleo", "Dev"], seed=seed, options={"round_limit": 0})
    rng = random.Random(seed)
    while not game.is_game_over():
        on_board = sum(1 for t, _, _ in game.state.board.values() if t.startswith("road"))
        if on_board >= tiles and not game.is_chance_node() and game.state.steps[:1] == ["tile"]:
            return game
        game.push(random_step(game, rng, playout_choice))
    raise RuntimeError("the prepared game ended before the board was half built")


def extras() -> dict[str, Callable[[], float]]:
    game = half_built()

    def placements() -> float:
        start = time.perf_counter()
        game.legal_placements()
        return (time.perf_counter() - start) * 1000

    def legal_actions() -> float:
        start = time.perf_counter()
        game.legal_actions()
        return (time.perf_counter() - start) * 1000

    return {"legal tile placements, half-built board": placements,
            "all legal actions, same board": legal_actions}
