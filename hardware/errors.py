"""The hardware layer's exception family.

Bad settings (a malformed camera spec, two buttons on one pin) are ``ValueError``s; a device that is
missing or stops answering is an ``OSError``. Both are ``HardwareError``s, so a caller can catch the
whole layer at once, and the command line turns either into one line on stderr.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base of every error the hardware layer raises."""


class CameraError(HardwareError, OSError):
    """A camera that cannot be opened or read."""


class CameraNotFound(CameraError):
    """No camera answered; the message names every source that was tried and why it failed."""


class CameraSpecError(HardwareError, ValueError):
    """A camera spec or frame-source option that makes no sense (``cv2:x``, a negative timeout)."""


class ControlsError(HardwareError, ValueError):
    """A button/LED layout that cannot be wired as asked."""


class PinLayoutError(ControlsError):
    """One field of a pin layout is wrong; ``field`` names it (``leds``, ``end_turn``, ...)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message


class ControlsUnavailable(HardwareError, OSError):
    """The GPIO pins cannot be reached on this machine (no pin factory works here)."""
