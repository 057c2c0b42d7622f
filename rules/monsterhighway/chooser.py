"""How random playouts pick among legal actions: mostly like a player who wants to get home.

A uniformly random player builds roads nowhere in particular and rarely drives home, so random
games would last until the round limit. This chooser keeps every choice legal and random, but
leans towards building towards one's own Home Base, driving towards it and finishing the turn,
with a pinch of everything else (swaps, removals, dead ends, busters, re-rolls) so the property
tests still visit every rule.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action
from ..game import Game
from .data import rotate
from .engine import MonsterHighway


def _lean(game: MonsterHighway, p: int, cell: int, mask: int) -> int:
    """How close a tile on ``cell`` showing ``mask`` brings the road to ``p``'s Home Base."""
    home = game.home_cell(p)
    if home is None:
        return 0
    grid = game.grid
    best = grid.distance(cell, home) * 2
    for d, n in enumerate(grid.neighbours[cell]):
        if mask >> d & 1 and n >= 0 and n not in game.state.board:
            best = min(best, grid.distance(n, home) * 2 - 1)
    return best


def playout_choice(game: Game[Any], legal: list[Action], rng: random.Random) -> Action:
    p = game.current_player()
    if p is None:
        return rng.choice(legal)
    mine = [a for a in legal if a.player == p]
    others = [a for a in legal if a.player != p]
    if others and rng.random() < 0.01:
        return rng.choice(others)
    kinds: dict[str, list[Action]] = {}
    for a in mine:
        kinds.setdefault(a.kind, []).append(a)
    g = game if isinstance(game, MonsterHighway) else None
    if g is None:
        return rng.choice(legal)
    home = g.home_cell(p)
    extras = [k for k in ("swap_tiles", "remove_tile", "dead_end", "monster_buster") if k in kinds]
    if extras and rng.random() < 0.04:
        return rng.choice(kinds[rng.choice(extras)])
    if "reroll" in kinds and rng.random() < 0.1:
        return rng.choice(kinds["reroll"])
    # Exchange now and then; when nothing can be placed, half the time (the other half skips).
    exchange_odds = 0.05 if "place_tile" in kinds else 0.5
    if "exchange_tile" in kinds and rng.random() < exchange_odds:
        return rng.choice(kinds["exchange_tile"])
    if "place_tile" in kinds:
        options = kinds["place_tile"]
        homes = [a for a in options if g.catalog.tiles[a["tile"]].kind == "home base"]
        if homes:
            return homes[0]
        if rng.random() < 0.85:
            scored = []
            for a in options:
                cell = g.catalog.cell_of(a["at"])
                mask = rotate(g.catalog.tiles[a["tile"]].open_mask, a["rotation"])
                scored.append((_lean(g, p, cell, mask), rng.random(), a))
            return min(scored, key=lambda t: (t[0], t[1]))[2]
        return rng.choice(options)
    if "move_car" in kinds and home is not None:
        here = g.grid.distance(g.state.cars[p], home)
        best = min(kinds["move_car"], key=lambda a: (g.grid.distance(g.catalog.cell_of(a["to"]), home), rng.random()))
        if g.grid.distance(g.catalog.cell_of(best["to"]), home) < here or rng.random() < 0.1:
            return best
    if "skip" in kinds:
        return kinds["skip"][0]
    for kind in ("end_turn", "roll_movement_die", "draw_monster_card", "choose_home_base", "move_monster"):
        if kind in kinds:
            return rng.choice(kinds[kind])
    return rng.choice(mine or legal)
