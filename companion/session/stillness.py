"""Waiting for a still table before scanning: no hands moving over it.

Frame differencing on a small grey copy of each frame: the table is still when ``needed``
consecutive new frames each differ from the one before by less than ``threshold`` (mean absolute
grey-level difference, 0-255). Small copies keep this cheap on a Pi and blind to sensor noise. One still pair is the default:
a moving hand already shows between two consecutive frames.

The first pair is the newest frame and the one the camera delivered just before it, when the
source still has that one's preview (``FrameSource.preview``): a table that was already still
when the button was pressed is scanned at once, instead of after waiting for a new frame (up to
one frame period, 33 ms at 30 fps, plus the polling interval). A table that moved between those
two frames is waited for exactly as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .errors import NoCamera, TableNotStill

#: Width of the grey copy compared between frames.
PROBE_WIDTH = 160


def probe(image: Any) -> Any:
    """A small grey float copy of a BGR frame (or of its preview: the same values, as the preview
    keeps every n-th pixel with the same step this takes)."""
    import numpy as np  # here, not at the top: the kiosk's first screen should not wait for numpy

    # Subsample before averaging the colours: averaging a whole 2304x1296 frame first cost about
    # 130 ms per frame, most of the end-turn budget, for pixels the probe then threw away.
    step = max(1, image.shape[1] // PROBE_WIDTH)
    small = image[::step, ::step]
    grey = small.mean(axis=2, dtype=np.float32) if small.ndim == 3 else small
    return np.asarray(grey, dtype=np.float32)


def motion(a: Any, b: Any) -> float:
    """Mean absolute difference between two probes (0 when identical)."""
    import numpy as np

    if a.shape != b.shape:
        return 255.0
    return float(np.abs(a - b).mean())


def wait_still(source: Any, *, needed: int = 1, threshold: float = 4.0, max_frames: int = 40,
               poll: float = 0.02, max_polls: int = 500,
               sleep: Callable[[float], None] = time.sleep) -> Any:
    """The newest frame once the table has been still for ``needed`` frame pairs.

    ``source`` is a hardware FrameSource (``latest() -> Frame | None``). Gives up with
    :class:`TableNotStill` after ``max_frames`` new frames without stillness, and with
    :class:`NoCamera` after ``max_polls`` polls without any new frame: bounded by counts, not by
    the wall clock, so tests can drive it with scripted frames.
    """
    last_index = None
    last_probe = None
    still = 0
    seen = 0
    polls = 0
    while True:
        frame = source.latest()
        if frame is None and getattr(source, "state", None) == "lost":
            # The camera's own watchdog has already said it is gone: tell the table now instead of
            # polling for seconds (it reconnects by itself; the next scan will find it back).
            reason = getattr(source, "lost_reason", None)
            raise NoCamera("the camera is not giving pictures" + (f" ({reason})" if reason else "")
                           + ": check its cable, then scan again")
        if frame is None or frame.index == last_index:
            polls += 1
            if polls > max_polls:
                raise NoCamera("no picture is coming from the camera: check its cable, then scan again")
            sleep(poll)
            continue
        polls = 0
        seen += 1
        small = getattr(frame, "preview", None)
        current = probe(small if small is not None else frame.image)
        if last_probe is None:
            last_probe = _probe_before(source, frame)
        if last_probe is not None and motion(last_probe, current) < threshold:
            still += 1
            if still >= needed:
                return frame
        else:
            still = 0
        if seen >= max_frames:
            raise TableNotStill("the table did not keep still: take your hands away and press end turn again")
        last_index = frame.index
        last_probe = current


def _probe_before(source: Any, frame: Any) -> Any:
    """The probe of the frame delivered just before ``frame``, if the source kept its preview."""
    previews = getattr(source, "preview", None)
    index = getattr(frame, "index", None)
    if not callable(previews) or not isinstance(index, int) or index < 1:
        return None
    earlier = previews(index - 1)
    return probe(earlier) if earlier is not None else None
