"""Roundabout: a card that appeared in the grid was placed there; a car that appeared reserves.

The camera's grid counts cells from its own top-left card, the engine from the first centre card,
so the offset between them is found by voting over cards both know. Rotations are clockwise
quarter turns in both (the catalog's convention).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules import Action

from . import Difference, generic_candidates


def offset(game: Any, grid: list[dict[str, Any]]) -> tuple[int, int]:
    votes: Counter[tuple[int, int]] = Counter()
    placed = getattr(game.state, "layout", {}) or {}
    for cell in grid:
        cx, cy = cell["cell"]
        for (x, y), (card, rotation) in placed.items():
            if card == cell["id"] and rotation == cell.get("rotation", rotation):
                votes[(x - cx, y - cy)] += 1
    return votes.most_common(1)[0][0] if votes else (0, 0)


def candidates(game: Any, diff: Difference, observation: Any, context: dict[str, Any]) -> list[Action]:
    p = game.current_player()
    layout = getattr(observation, "layout", None) or {}
    grid = layout.get("grid")
    if p is None or grid is None:
        return generic_candidates(game, diff)
    dx, dy = offset(game, grid)
    placed = getattr(game.state, "layout", {}) or {}
    out: list[Action] = []
    for cell in grid:
        x, y = cell["cell"][0] + dx, cell["cell"][1] + dy
        if (x, y) not in placed:
            # The card the camera saw: if it is not the one flipped, the engine says so.
            out.append(Action.of("place", p, card=cell["id"], x=x, y=y, rotation=int(cell["rotation"])))
    if not out:
        cars = getattr(game.state, "cars", {}) or {}
        taken = set(cars.values()) if isinstance(cars, dict) else set()
        for car in layout.get("cars", []):
            if car.get("cell") is not None:
                x, y = car["cell"][0] + dx, car["cell"][1] + dy
                if (x, y) not in taken and (x, y) not in placed:
                    out.append(Action.of("reserve", p, x=x, y=y))
    return out or generic_candidates(game, diff)
