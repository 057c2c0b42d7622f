"""Seat order is play order, and play goes clockwise round the table in Big Sur, Monster Highway,
Highways & Byways and Highwayman ("continuing clockwise", "the next Player on his left"); Roundabout
plays the same seats counter-clockwise. So every default seating must run clockwise as the overhead
camera sees the table, and the copies of that default in each layer must agree."""

from __future__ import annotations

import itertools
import math

from companion.config import SEAT_EDGES, TableConfig
from companion.session.guides import EDGES
from vision.observation import TableSpec
from vision.synth.layouts import SEATS

# Where each edge's player sits, in image coordinates (x right, y down, the screen at the bottom).
POSITION = {"south": (0.0, 1.0), "west": (-1.0, 0.0), "north": (0.0, -1.0), "east": (1.0, 0.0)}


def turns_clockwise(edges: tuple[str, ...] | list[str]) -> bool:
    """With y pointing down, a clockwise turn on screen is an increasing atan2 angle."""
    angles = [math.degrees(math.atan2(POSITION[e][1], POSITION[e][0])) for e in edges]
    steps = [(b - a) % 360 for a, b in itertools.pairwise(angles)]
    return all(0 < s < 180 or (len(edges) == 2 and s == 180) for s in steps)


def test_the_checker_can_tell_the_two_directions_apart() -> None:
    assert turns_clockwise(("south", "west", "north", "east"))
    assert not turns_clockwise(("south", "east", "north", "west"))


def test_every_default_seating_runs_clockwise_and_they_agree() -> None:
    defaults = [tuple(SEAT_EDGES), tuple(TableConfig().seats), tuple(EDGES), TableSpec().seats, tuple(SEATS)]
    assert len(set(defaults)) == 1, defaults
    assert turns_clockwise(defaults[0])
    for n in (2, 3, 4):
        assert turns_clockwise(TableSpec.for_players(n).seats)
