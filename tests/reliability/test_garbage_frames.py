"""Garbage frames (noise, black, white, wrong shape or dtype, half the table, no markers...) through
``vision.scan`` and through the session's end-turn path: only the vision layer's typed errors (or
an observation with no card in it), no crash, and no change to the game (issue 8). 300 frames
here, 10,000 in the long run; ``bench/reliability.py frames`` reports the time to reject one."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vision
from companion.recovery import SafeStore
from companion.session import Session, vision_scanner
from hardware import Frame

from .games import digest, players
from .garbage import camera_like, frames, malformed, table

GAME = "highwayman"


def verdict(frame: Any) -> str:
    """'refused: <error>' or 'empty' for a frame scanned without a card in it; anything else fails."""
    try:
        obs = vision.scan(frame, GAME)
    except vision.VisionError as exc:
        assert str(exc).strip() and "\n" not in str(exc).strip(), "a typed error must say one clear sentence"
        return f"refused: {type(exc).__name__}"
    assert obs.items == [] and obs.unsure == [], f"cards read in garbage: {obs.items or obs.unsure}"
    return "empty"


def check_frames(n: int, start: int = 0, max_width: int = 2304) -> dict[str, int]:
    seen: dict[str, int] = {}
    for i, (kind, frame) in enumerate(frames(n, start, max_width), start):
        try:
            result = verdict(frame)
        except vision.VisionError:
            raise
        except AssertionError as exc:
            raise AssertionError(f"frame {i} ({kind}): {exc}") from None
        except Exception as exc:
            raise AssertionError(f"frame {i} ({kind}) raised {type(exc).__name__}: {exc}") from exc
        seen[result] = seen.get(result, 0) + 1
    return seen


def test_garbage_frames_get_typed_errors_and_never_cards() -> None:
    reference = vision.scan(table(1152), GAME).to_json()
    # Small frames here (the full 2304 x 1296 ones are in the long run): the same code paths.
    seen = check_frames(300, max_width=640)
    assert sum(seen.values()) == 300
    assert seen.get("refused: FrameError", 0) > 40 and seen.get("refused: CalibrationError", 0) > 40
    # Nothing the garbage did changes how the next good frame is read.
    assert vision.scan(table(1152), GAME).to_json() == reference


@pytest.mark.slow
def test_ten_thousand_garbage_frames() -> None:
    seen = check_frames(10_000, start=300)
    assert sum(seen.values()) == 10_000


def test_each_kind_of_malformed_frame_is_a_frame_error_or_calibration_error() -> None:
    for i in range(20):
        kind, frame = malformed(i)
        result = verdict(frame)
        assert result.startswith("refused"), f"{kind}: {result}"


class StillCamera:
    """A FrameSource stand-in: the same picture again and again, as a still table gives."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.index = 0

    def latest(self) -> Frame:
        self.index += 1
        return Frame(self.image, float(self.index), self.index)


def test_garbage_at_end_of_turn_changes_nothing_in_the_game(tmp_path: Path) -> None:
    store = SafeStore(tmp_path / "companion.sqlite3")
    session = Session.new(store, GAME, players(2), seed=5, app_draws_all=True, scanner=vision_scanner())
    with contextlib.closing(store):
        before = (digest(session.game), list(session.game.actions), store.load(session.id).events)
        for i in range(40):
            kind, image = camera_like(i, max_width=1152)
            outcome = session.end_turn(StillCamera(image), poll=0.0)
            assert not outcome.ok, f"frame {i} ({kind}) was accepted: {outcome.message}"
            assert outcome.message.strip(), f"frame {i} ({kind}) gave no reason"
            assert (digest(session.game), list(session.game.actions), store.load(session.id).events) == before, \
                f"frame {i} ({kind}) changed the game"
