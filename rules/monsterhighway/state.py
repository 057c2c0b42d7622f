"""The state of a Monster Highway game and the fixed facts of a turn, as plain data.

Kept apart from the rules so that the engine modules (``base``, ``specials``, ``engine``) share one
definition, and so the state stays a small picklable dataclass compared with ``==`` by replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

ROTATIONS = (0, 90, 180, 270)
#: Specialty Dice result (sorted faces) -> the steps of the turn, in the rulebook's order.
RESULTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("road", "road"): ("tile", "tile"),
    ("car", "road"): ("tile", "roll_movement", "car_move"),
    ("monster", "road"): ("tile", "draw_monster"),
    ("car", "car"): ("car_any",),
    ("monster", "monster"): ("monster_any",),
    ("car", "monster"): ("roll_movement", "car_move", "draw_monster"),
}
OPTIONAL_STEPS = ("tile", "car_move", "car_any")
STEP_WORDS = {
    "tile": "play a Road tile (or skip)",
    "roll_movement": "roll the Car Movement Die",
    "car_move": "move your car (or skip)",
    "car_any": "move your car any distance (or skip)",
    "draw_monster": "draw a Monster Card",
    "monster_any": "move the Monster",
    "monster_wild": "move the Monster where the Wild card lets you",
}


class Placement(NamedTuple):
    """A legal tile placement: the tile, the space and a clockwise rotation in degrees."""

    tile: str
    at: str
    rotation: int


@dataclass
class MonsterState:
    """Everything on and around the table. Tiles on the board are ``cell -> (tile, rotation,
    open mask)``; face-down tiles whose order nobody knows are counted in ``pool``."""

    homes: list[str | None]
    board: dict[int, tuple[str, int, int]]
    hands: list[list[str]]
    buster_used: list[bool]
    cars: list[int]
    pool: dict[str, int]
    set_aside: dict[str, int]
    monster_deck: list[str]
    phase: str = "homes"  # homes, play, over
    monster: int | None = None
    monster_previous: int | None = None
    piles: list[int] = field(default_factory=lambda: [0, 0])
    bottoms: list[list[str]] = field(default_factory=lambda: [[], []])
    discard: list[str] = field(default_factory=list)
    monster_discard: list[str] = field(default_factory=list)
    turn: int = 0
    round: int = 1
    dice: list[str] = field(default_factory=list)
    started: bool = False
    steps: list[str] = field(default_factory=list)
    movement: int = 0
    pending: list[tuple[str, int]] = field(default_factory=list)
    winner: int | None = None


def add_count(counts: dict[str, int], tile: str, n: int = 1) -> None:
    """Change how many of ``tile`` a face-down stack holds; none left means no entry (so equal
    stacks compare equal)."""
    counts[tile] = counts.get(tile, 0) + n
    if counts[tile] == 0:
        del counts[tile]


def insert_sorted(items: list[str], item: str) -> None:
    """Add to a pile kept sorted: its order means nothing, so two equal piles compare equal."""
    items.append(item)
    items.sort()
