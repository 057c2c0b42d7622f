"""Roundabout: a card that appeared in the grid was placed there; a car that appeared reserves.

The camera's grid counts cells from its own top-left card, the engine from the first centre card,
so the offset between them is found by voting over cards both know. The engine's grid is also
turned however the centre card happened to be revealed (0 unless the reveal said otherwise),
while the camera sees the table as it lies: so the vote also tries the four quarter turns.
Rotations are clockwise quarter turns in both (the catalog's convention), y grows southwards.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rules import Action

from . import Difference, generic_candidates

#: Actions whose card lies on the table afterwards (named in their parameters).
LAYS = frozenset({"place"})


def _turn(cell: tuple[int, int], quarters: int) -> tuple[int, int]:
    """``cell`` turned clockwise about the origin (y grows southwards, so north (0, -1) -> east)."""
    x, y = cell
    for _ in range(quarters % 4):
        x, y = -y, x
    return x, y


@dataclass(frozen=True)
class Alignment:
    """How the camera's grid lies on the engine's: turn by ``quarters`` clockwise, then shift."""

    quarters: int = 0
    dx: int = 0
    dy: int = 0

    def to_engine(self, cell: tuple[int, int]) -> tuple[int, int]:
        x, y = _turn(cell, self.quarters)
        return x + self.dx, y + self.dy

    def to_camera(self, cell: tuple[int, int]) -> tuple[int, int]:
        return _turn((cell[0] - self.dx, cell[1] - self.dy), -self.quarters)

    def engine_rotation(self, camera_rotation: float) -> int:
        return int(round(camera_rotation / 90.0) * 90 + 90 * self.quarters) % 360


def alignment(game: Any, grid: list[dict[str, Any]]) -> Alignment:
    """The turn and shift under which most cards the camera sees sit where the engine has them
    (with the same rotation); no turn and no shift when nothing matches."""
    votes: Counter[Alignment] = Counter()
    placed = getattr(game.state, "layout", {}) or {}
    for quarters in range(4):
        for cell in grid:
            tx, ty = _turn((int(cell["cell"][0]), int(cell["cell"][1])), quarters)
            for (x, y), (card, rotation) in placed.items():
                seen = Alignment(quarters).engine_rotation(float(cell.get("rotation", rotation)))
                if card == cell["id"] and rotation == seen:
                    votes[Alignment(quarters, x - tx, y - ty)] += 1
    if not votes:
        return Alignment()
    # Ties (a lone centre card whose design looks the same turned) keep the camera's own turn.
    best = max(votes.values())
    return min((a for a, n in votes.items() if n == best), key=lambda a: (a.quarters, abs(a.dx) + abs(a.dy)))


def offset(game: Any, grid: list[dict[str, Any]]) -> tuple[int, int]:
    """The shift alone, for a camera grid that is not turned against the engine's."""
    found = alignment(game, grid)
    return found.dx, found.dy


def candidates(game: Any, diff: Difference, observation: Any, context: dict[str, Any]) -> list[Action]:
    p = game.current_player()
    layout = getattr(observation, "layout", None) or {}
    grid = layout.get("grid")
    if p is None or grid is None:
        return generic_candidates(game, diff)
    align = alignment(game, grid)
    placed = getattr(game.state, "layout", {}) or {}
    out: list[Action] = []
    for cell in grid:
        x, y = align.to_engine((int(cell["cell"][0]), int(cell["cell"][1])))
        if (x, y) not in placed:
            # The card the camera saw: if it is not the one flipped, the engine says so.
            out.append(Action.of("place", p, card=cell["id"], x=x, y=y,
                                 rotation=align.engine_rotation(float(cell["rotation"]))))
    if not out:
        # A car that appeared on a free cell reserves it: only the player's own (by the seat's
        # colour, when the seats have colours), and not one the engine already has there.
        reserved = getattr(game.state, "cars", {}) or {}
        colours = list(context.get("colours") or [])
        mine = colours[p] if p < len(colours) else None
        for car in layout.get("cars", []):
            if car.get("cell") is None or (mine and car.get("colour") != mine):
                continue
            x, y = align.to_engine((int(car["cell"][0]), int(car["cell"][1])))
            if (x, y) not in reserved and (x, y) not in placed:
                out.append(Action.of("reserve", p, x=x, y=y))
    return out or generic_candidates(game, diff)
