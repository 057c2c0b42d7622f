"""The game session without Kivy: rules engine + store + end-of-turn reading + buttons.

``Session.new(store, "bigsur", ["Ana", "Ben"])`` starts a game; ``Session.resume(store, id)``
continues one exactly where it stopped. See :mod:`companion.session.session`.
"""

from .errors import NoCamera, ScanError, SessionError, TableNotStill, VisionUnavailable
from .guides import COLOURS, EDGES, GUIDES, guide
from .session import (
    SAVING_PAUSED,
    Capture,
    Outcome,
    Session,
    encode_jpeg,
    picture,
    startup_notice,
    storage_notice,
    vision_scanner,
)

__all__ = ["COLOURS", "EDGES", "GUIDES", "SAVING_PAUSED", "Capture", "NoCamera", "Outcome", "ScanError", "Session",
           "SessionError", "TableNotStill", "VisionUnavailable", "encode_jpeg", "guide", "picture", "startup_notice",
           "storage_notice", "vision_scanner"]
