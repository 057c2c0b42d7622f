"""Camera frame -> Observation: pure functions on numpy arrays (see DESIGN.md, Layers).

``scan(frame, game, pack=..., calibration=..., table=TableSpec())`` is the one entry point the
app needs; ``draw_overlay`` shows players what was seen.
"""

from vision.calibration import Calibration, calibrate, recheck
from vision.errors import CalibrationError, FrameError, VisionError
from vision.observation import Item, Observation, TableSpec, Unknown
from vision.overlay import draw_overlay
from vision.scan import GAMES, scan

__all__ = [
    "GAMES", "Calibration", "CalibrationError", "FrameError", "Item", "Observation", "TableSpec", "Unknown",
    "VisionError", "calibrate", "draw_overlay", "recheck", "scan",
]
