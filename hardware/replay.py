"""A camera that replays pictures: a list of arrays, a folder of images, one image or a video file.

Used by the demo (rendered scenes of a scripted game), the tests and ``COMPANION_CAMERA=file:PATH``.
It goes through the same capture thread, events and ``latest()`` as a real camera, so code that
works with a replay works with the Pi camera.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .errors import CameraNotFound, CameraSpecError
from .frames import CameraFault, FrameSource, _Attempt, as_bgr

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".m4v", ".webm", ".mjpeg", ".mjpg"}
DEFAULT_FPS = 15.0


class _Cursor:
    """Where a replay is: the next picture and when it is due."""

    def __init__(self) -> None:
        self.position = 0
        self.epoch = 0
        self.due: float | None = None
        self.video: Any = None
        self.finished = False


class ReplaySource(FrameSource):
    """Replays ``frames`` (a sequence of BGR arrays, or a path) at ``fps`` pictures per second.

    ``fps=None`` uses the video's own rate (images: 15); ``fps=0`` replays as fast as the consumer
    side can take them (benchmarks). With ``loop=False`` the last picture stays the newest frame
    once the replay is over; that is not reported as a fault. A replay never repeats-detects: a
    still picture of a table is what a replay of one image is meant to show.
    """

    def __init__(self, frames: Sequence[np.ndarray] | str | Path, *, loop: bool = True,
                 fps: float | None = None, **options: Any) -> None:
        options.setdefault("stale_seconds", None)
        options.setdefault("read_timeout", 2.0)
        super().__init__(**options)
        if fps is not None and fps < 0:
            raise CameraSpecError(f"fps must be zero (unpaced) or positive, got {fps!r}")
        self.loop = loop
        self._lock = threading.Lock()
        self._arrays: list[np.ndarray] | None = None
        self._files: list[Path] = []
        self._video: Path | None = None
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._cursor_reset = 0
        self._unplugged = threading.Event()
        if isinstance(frames, str | Path):
            path = Path(frames).expanduser()
            self.spec = f"file:{path}"
            self._load_path(path)
            if fps is None:
                fps = self._video_fps() if self._video is not None else DEFAULT_FPS
        else:
            self.spec = "replay"
            self._arrays = self._validated(frames)
        self.fps = float(fps if fps is not None else DEFAULT_FPS)
        if self.fps > 0:
            # A slow slideshow (fps=0.2 in a demo) waits between pictures by design: never let
            # the watchdog take that pause for a hung camera.
            self.read_timeout = max(self.read_timeout, 3.0 / self.fps)

    # -- what to replay ------------------------------------------------------------------------

    @staticmethod
    def _validated(frames: Sequence[np.ndarray]) -> list[np.ndarray]:
        if isinstance(frames, np.ndarray) and frames.ndim in (2, 3) and frames.dtype == np.uint8 and (
                frames.ndim == 2 or frames.shape[2] in (3, 4)):
            frames = [frames]  # one picture, not a stack of rows
        out = []
        for i, image in enumerate(frames):
            try:
                out.append(np.array(as_bgr(image), copy=True))
            except CameraFault as exc:
                raise CameraSpecError(f"replay frame {i}: {exc}") from None
        if not out:
            raise CameraSpecError("a replay needs at least one frame")
        return out

    def _load_path(self, path: Path) -> None:
        if not path.exists():
            raise CameraNotFound(f"{self.spec}: no such file or folder")
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
            if not files:
                raise CameraNotFound(f"{self.spec}: the folder holds no images "
                                     f"({', '.join(sorted(IMAGE_SUFFIXES))})")
            self._files = files
            self._decode(0)  # fail now, not on the capture thread, if the first cannot be read
        elif path.suffix.lower() in IMAGE_SUFFIXES:
            self._files = [path]
            self._decode(0)
        else:
            import cv2

            capture = cv2.VideoCapture(str(path))
            try:
                ok, _ = capture.read() if capture.isOpened() else (False, None)
            finally:
                capture.release()
            if not ok:
                raise CameraNotFound(f"{self.spec}: not an image, a folder of images or a readable video")
            self._video = path

    def _video_fps(self) -> float:
        import cv2

        capture = cv2.VideoCapture(str(self._video))
        try:
            rate = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
        finally:
            capture.release()
        return rate if 0 < rate <= 240 else DEFAULT_FPS

    def _decode(self, i: int) -> np.ndarray:
        cached = self._cache.get(i)
        if cached is not None:
            self._cache.move_to_end(i)
            return cached
        import cv2

        image = cv2.imread(str(self._files[i]), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraNotFound(f"{self.spec}: cannot read image {self._files[i].name}")
        self._cache[i] = image
        while len(self._cache) > 16:  # big frames: keep memory bounded on a 2 GB Pi
            self._cache.popitem(last=False)
        return image

    def show(self, frames: Sequence[np.ndarray]) -> None:
        """Replace what is replayed (the demo moves to the next scene); starts from its first."""
        arrays = self._validated(frames)
        with self._lock:
            self._arrays = arrays
            self._files = []
            self._video = None
            self._cache.clear()
            self._cursor_reset += 1

    def unplug(self) -> None:
        """Script an outage (demo, UI tests): reads fail and reopening fails until ``plug_in()``,
        so the app sees the same ``CameraLost``/``CameraBack`` as with a real camera."""
        self._unplugged.set()

    def plug_in(self) -> None:
        self._unplugged.clear()

    def __len__(self) -> int:
        with self._lock:
            if self._arrays is not None:
                return len(self._arrays)
            return len(self._files)

    # -- device hooks --------------------------------------------------------------------------

    def _open(self) -> _Cursor:
        if self._unplugged.is_set():
            raise CameraFault(f"{self.spec} is unplugged (scripted)")
        cursor = _Cursor()
        with self._lock:
            cursor.epoch = self._cursor_reset  # which show() it is replaying
        return cursor

    def _close(self, handle: _Cursor) -> None:
        if handle.video is not None:
            handle.video.release()
            handle.video = None

    def _idle_now(self, attempt: _Attempt) -> bool:
        cursor = attempt.handle
        if isinstance(cursor, _Cursor) and cursor.finished:
            attempt.idle = True
            return True
        return False

    def _read(self, handle: _Cursor) -> np.ndarray | None:
        with self._lock:
            epoch = self._cursor_reset
        if handle.epoch != epoch:  # show() replaced the pictures: start them from the first
            handle.epoch, handle.position, handle.finished = epoch, 0, False
            if handle.video is not None:
                handle.video.release()
                handle.video = None
        if self._unplugged.is_set():
            self._stopping.wait(0.02)
            return None
        if handle.finished:
            self._stopping.wait(0.05)
            return None
        self._pace(handle)
        image = self._next_picture(handle)
        if image is None:
            return None
        return np.array(image, copy=True)  # the consumer may draw on it; the replay must not change

    def _pace(self, handle: _Cursor) -> None:
        if self.fps <= 0:
            return
        now = time.monotonic()
        if handle.due is None:
            handle.due = now
        elif handle.due > now:
            self._stopping.wait(handle.due - now)
        period = 1.0 / self.fps
        # Keep the rhythm, but after a stall start afresh instead of bursting to catch up.
        handle.due = max(handle.due + period, time.monotonic())

    def _next_picture(self, handle: _Cursor) -> np.ndarray | None:
        with self._lock:
            arrays, files, video = self._arrays, self._files, self._video
        if video is not None:
            return self._next_video_picture(handle, video)
        count = len(arrays) if arrays is not None else len(files)
        if handle.position >= count:
            if not self.loop:
                handle.finished = True
                return None
            handle.position = 0
        i = handle.position
        handle.position += 1
        if not self.loop and handle.position >= count:
            handle.finished = True
        if arrays is not None:
            return arrays[i]
        with self._lock:
            return self._decode(i)

    def _next_video_picture(self, handle: _Cursor, path: Path) -> np.ndarray | None:
        import cv2

        if handle.video is None:
            handle.video = cv2.VideoCapture(str(path))
        ok, image = handle.video.read()
        if not ok:
            if not self.loop:
                handle.finished = True
                return None
            handle.video.release()
            handle.video = cv2.VideoCapture(str(path))
            ok, image = handle.video.read()
            if not ok:
                raise CameraFault(f"{self.spec}: the video cannot be read again")
        return image  # type: ignore[no-any-return]
