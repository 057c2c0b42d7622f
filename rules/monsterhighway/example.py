"""Write the example game record shipped in companion/examples/monsterhighway.json.

    python -m rules.monsterhighway.example [SEED] > companion/examples/monsterhighway.json

The game is a random legal playout (rules.playout with this package's chooser), so it shows every
kind of action a real record holds: setup picks, deals, dice, tile plays, car and Monster moves.
"""

from __future__ import annotations

import sys

from ..playout import play_random_game
from ..record import Record
from .engine import MonsterHighway

PLAYERS = ["Ana", "Ben", "Cleo"]
SEED = 38


def example(seed: int = SEED) -> Record:
    game = play_random_game(MonsterHighway(PLAYERS, seed=seed), seed)
    record: Record = game.record()
    record.engine = None  # a bundled example, regenerated only when the rules change, names no version
    record.meta = {"note": f"a random legal game (python -m rules.monsterhighway.example {seed})"}
    return record


if __name__ == "__main__":
    print(example(int(sys.argv[1]) if len(sys.argv) > 1 else SEED).dumps())
