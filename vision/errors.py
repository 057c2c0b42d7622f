"""The vision layer's exception family: every bad frame, pack or calibration is one of these."""

from __future__ import annotations


class VisionError(ValueError):
    """Base of every error the vision layer raises for bad input."""


class FrameError(VisionError):
    """A frame that cannot be scanned (empty, wrong dtype or shape, too small, too large)."""


class CalibrationError(VisionError):
    """The play area cannot be located: markers missing or covered (named), or a bad fit."""

    def __init__(self, message: str, *, missing: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.missing = missing


class PackError(VisionError):
    """A deck pack that fails validation; the message names the file, the entry and the field."""
