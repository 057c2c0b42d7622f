"""Cards a region's split misses although the picture shows them plainly: a cell turned off its
tile. Each case is a bench scene (bench/vision.py --seed N) where the card was lost before."""

from __future__ import annotations

import numpy as np

from tests.vision.test_scan import bench_scene, check_against_truth
from vision import scan


def counted(obs, card: str, at: tuple[float, float], r: float = 15.0) -> bool:
    """Whether `card` is among the cards counted (not only listed as unsure) near `at` (mm)."""
    return any(it.id == card and np.hypot(it.center_mm[0] - at[0], it.center_mm[1] - at[1]) < r for it in obs.items)


def test_cells_turned_off_their_tiles_are_read_square_to_them():
    """A hand across a Monster Highway board tilts the region's frame: its cells lie 6-9 degrees
    off the tiles, and five tiles read 0.49-0.67 (listed as unsure). Read turned square to them,
    they are counted."""
    pack, frame, truth = bench_scene("monsterhighway", 4, seed=3)
    obs = scan(frame, "monsterhighway", pack=pack)
    for card, at in [("ground-zero", (525, 375)), ("road-curve", (525, 475)), ("road-straight", (475, 325)),
                     ("road-straight", (575, 525)), ("road-tee", (425, 426))]:
        assert counted(obs, card, at), f"{card} at {at} not counted"
    check_against_truth(obs, truth, recall=0.85)


def test_a_cell_turned_back_onto_its_grid_is_read_past_a_piece_as_the_grids_cells_are():
    """A tile read 0.675 under the Monster (not counted) reads 0.684 turned a few degrees: the
    turned cell is still its region's grid cell, so it is read past the piece too (0.92), as it
    was before cells were turned."""
    pack, frame, truth = bench_scene("monsterhighway", 16, True, seed=3)
    obs = scan(frame, "monsterhighway", pack=pack)
    assert counted(obs, "road-curve", (525, 325))
    check_against_truth(obs, truth, recall=0.6)
