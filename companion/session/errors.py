"""The session layer's errors: each a ValueError with one sentence a player can act on."""

from __future__ import annotations


class SessionError(ValueError):
    """A request the session cannot carry out now (no game, nothing to scan, bad setup)."""


class ScanError(SessionError):
    """The end-of-turn picture could not be read. ``spot`` is where to look, in table mm."""

    def __init__(self, message: str, *, spot: tuple[float, float] | None = None) -> None:
        super().__init__(message)
        self.spot = spot

    @classmethod
    def unexpected(cls, what: str, exc: BaseException) -> ScanError:
        """A fault that is not a reading's own (a bug, memory, a camera driver), as the one
        sentence the players see: `what` failed, and what they can do about it."""
        return cls(f"{what} ({type(exc).__name__}: {exc}); try again, or enter the play by hand")


class TableNotStill(ScanError):
    """Hands kept moving over the table while the app waited for a still picture."""


class NoCamera(ScanError):
    """No frame came from the camera."""


class VisionUnavailable(ScanError):
    """The recogniser is not part of this installation (or cannot read this game yet)."""
