"""Positions for the Monster Highway tests (no tests here): scripted setup, scripted dice, tiles put on the board.

``put`` sets up a position the way a FEN string does in chess: it writes the board directly, so a
test can start from the exact situation a rule talks about instead of playing fifty turns.
"""

from __future__ import annotations

import pickle
from typing import Any

from rules import Action
from rules.monsterhighway import MonsterHighway
from rules.monsterhighway.data import rotate

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
CORNERS = ["NW", "NE", "SE", "SW"]
STRAIGHTS = ["road-straight"] * 5


def act(kind: str, player: int | None, **params: Any) -> Action:
    return Action.of(kind, player, **params)


def started(players: int = 2, hands: list[list[str]] | None = None, seed: int = 0,
            options: dict[str, Any] | None = None) -> MonsterHighway:
    """A game right after setup: corners in seat order, the given five tiles dealt to each seat,
    the first Specialty Dice roll due."""
    g = MonsterHighway(NAMES[:players], seed=seed, options=options)
    for seat in range(players):
        g.push(act("choose_home_base", seat, corner=CORNERS[seat]))
    mix = ["road-straight", "road-curve", "road-tee", "road-cross"]
    hands = hands or [[mix[(seat + i) % 3] for i in range(5)] for seat in range(players)]
    for i in range(5):
        for seat in range(players):
            g.push(act("tile_draw", None, seat=seat, tile=hands[seat][i]))
    return g


def roll(g: MonsterHighway, first: str, second: str) -> None:
    g.push(act("specialty_dice", None, dice=[0, 1], faces=[first, second]))


def put(g: MonsterHighway, at: str, tile: str, rotation: int = 0) -> None:
    """Lay a tile straight onto the board, taken from the face-down piles so nothing is created."""
    s = g.state
    cell = g.catalog.cell_of(at)
    if g.catalog.tiles[tile].kind in ("road", "special"):
        assert s.pool.get(tile, 0) > 0, f"no {tile} left face down"
        s.pool[tile] -= 1
        if not s.pool[tile]:
            del s.pool[tile]
        s.piles[0 if s.piles[0] >= s.piles[1] else 1] -= 1
    s.board[cell] = (tile, rotation, rotate(g.catalog.tiles[tile].open_mask, rotation))


def give(g: MonsterHighway, seat: int, tile: str) -> None:
    """Hand a seat a tile from the face-down piles."""
    s = g.state
    assert s.pool.get(tile, 0) > 0, f"no {tile} left face down"
    s.pool[tile] -= 1
    if not s.pool[tile]:
        del s.pool[tile]
    s.piles[0 if s.piles[0] >= s.piles[1] else 1] -= 1
    s.hands[seat].append(tile)
    s.hands[seat].sort()


def cell(g: MonsterHighway, name: str) -> int:
    return g.catalog.cell_of(name)


def snapshot(g: MonsterHighway) -> tuple[Any, ...]:
    """A deep copy of everything a refused action must leave alone, compared with ``==``."""
    return pickle.loads(pickle.dumps((g.state, g.actions, g.current_player())))
