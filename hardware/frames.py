"""One frame-source interface for every camera, with fault detection and reconnection.

A ``FrameSource`` runs a capture thread that keeps only the newest frame, so the consumer (the app,
``hw check``) never waits on the camera: ``latest()`` returns at once. A supervisor thread watches
the capture thread and turns every way a camera fails on a game night into one ``CameraLost`` event
followed, once pictures flow again, by one ``CameraBack``:

- the device cannot be opened (missing at start, unplugged),
- reads fail (``False``/``None`` from OpenCV) several times in a row,
- a read raises (picamera2's frontend time-outs, driver errors),
- a read hangs (the watchdog sees no read return within ``read_timeout``),
- the same picture repeats for ``stale_seconds`` (what V4L does after a USB camera is unplugged).

Each attempt to use the device runs on its own reader thread with its own device handle, so a hung
read can be abandoned and a fresh handle opened while the old thread stays blocked. Reconnection
backs off exponentially from ``backoff_initial`` to ``backoff_max`` seconds.

Subclasses implement three hooks on a device handle: ``_open() -> handle``, ``_read(handle) ->
image or None`` and ``_close(handle)``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import CameraError, CameraNotFound, CameraSpecError

log = logging.getLogger("hardware.camera")

Clock = Callable[[], float]


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture: BGR uint8 pixels, when it was captured (``time.monotonic``), and its number.

    ``index`` counts the frames this source has delivered, across reconnections, so a consumer can
    tell a new frame from one it has already seen.
    """

    image: np.ndarray
    captured_at: float
    index: int
    #: Every n-th pixel of ``image`` in both directions, about :data:`PREVIEW_WIDTH` wide (see
    #: :func:`preview_of`): small enough to keep for the last few frames and to compare cheaply.
    preview: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])

    def __repr__(self) -> str:
        w, h = self.size
        return f"Frame(index={self.index}, size={w}x{h}, captured_at={self.captured_at:.3f})"


@dataclass(frozen=True)
class CameraLost:
    """The camera stopped delivering pictures; ``reason`` says how, in one sentence."""

    reason: str
    source: str = ""


@dataclass(frozen=True)
class CameraBack:
    """Pictures flow again after a ``CameraLost``."""

    source: str = ""


CameraEvent = CameraLost | CameraBack
Listener = Callable[[CameraEvent], None]


class CameraFault(CameraError):
    """Raised inside a reader to end the current attempt with a reason (bad frame shape, ...)."""


@dataclass(eq=False)
class _Attempt:
    """One connection to the device: its reader thread, handle and progress."""

    gen: int
    started: float
    handle: Any = None
    opened_at: float | None = None
    last_progress: float | None = None
    frames: int = 0
    failure: str | None = None
    idle: bool = False  # a finished, non-looping replay: silence is not a fault
    closed: bool = False
    thread: threading.Thread | None = field(default=None, repr=False)


#: Width in pixels a frame's preview is subsampled to (at least this, under twice this).
PREVIEW_WIDTH = 160
#: How many recent frames' previews a source keeps (``FrameSource.preview``).
PREVIEWS_KEPT = 4


def preview_of(image: np.ndarray) -> np.ndarray:
    """Every ``max(1, width // PREVIEW_WIDTH)``-th pixel of ``image``, as a copy: 2304x1296 gives
    165x93 pixels (45 KB) instead of 9 MB."""
    step = max(1, image.shape[1] // PREVIEW_WIDTH)
    return np.array(image[::step, ::step], copy=True)


def as_bgr(image: Any) -> np.ndarray:
    """A camera picture as an H x W x 3 uint8 array; grey and BGRA pictures are converted."""
    if not isinstance(image, np.ndarray):
        raise CameraFault(f"the camera returned {type(image).__name__}, not a picture")
    if image.dtype != np.uint8:
        raise CameraFault(f"the camera returned {image.dtype} pixels, expected uint8")
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = np.ascontiguousarray(image[:, :, :3])
    elif image.ndim == 3 and image.shape[2] == 1:
        image = np.repeat(image, 3, axis=2)
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] < 2 or image.shape[1] < 2:
        raise CameraFault(f"the camera returned a picture of shape {image.shape}, expected H x W x 3")
    return image


def _signature(image: np.ndarray) -> np.ndarray:
    # Every 7th pixel in both directions: a live sensor's noise changes it on every frame, while
    # V4L's repeated buffer after an unplug is bytewise identical. A prime stride avoids lining up
    # with 8x8 compression blocks.
    return np.array(image[::7, ::7], copy=True)


class FrameSource:
    """Base class: threads, watchdog, events. See the module docstring."""

    #: how the source was asked for (``cv2:0``, ``picamera2``, ``file:/x``); used in messages
    spec: str = "camera"

    def __init__(
        self,
        *,
        read_timeout: float = 1.0,
        open_timeout: float = 10.0,
        stale_seconds: float | None = 1.5,
        failed_reads: int = 3,
        backoff_initial: float = 0.25,
        backoff_max: float = 4.0,
        clock: Clock = time.monotonic,
    ) -> None:
        for name, value in [("read_timeout", read_timeout), ("open_timeout", open_timeout),
                            ("backoff_initial", backoff_initial), ("backoff_max", backoff_max)]:
            if not value > 0:
                raise CameraSpecError(f"{name} must be a positive number of seconds, got {value!r}")
        if stale_seconds is not None and not stale_seconds > 0:
            raise CameraSpecError(f"stale_seconds must be positive or None, got {stale_seconds!r}")
        if failed_reads < 1:
            raise CameraSpecError(f"failed_reads must be at least 1, got {failed_reads!r}")
        self.read_timeout = float(read_timeout)
        self.open_timeout = float(open_timeout)
        self.stale_seconds = stale_seconds
        self.failed_reads = int(failed_reads)
        self.backoff_initial = float(backoff_initial)
        self.backoff_max = float(max(backoff_max, backoff_initial))
        self._clock = clock
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._previews: dict[int, np.ndarray] = {}
        self._delivered = 0
        self._state = "stopped"
        self._lost_reason: str | None = None
        self._listeners: list[Listener] = []
        self._stopping = threading.Event()
        self._supervisor: threading.Thread | None = None
        self._attempt: _Attempt | None = None
        self._gen = 0
        self._probed: Any = None
        self._outages = 0

    # -- device hooks (subclasses) -------------------------------------------------------------

    def _open(self) -> Any:
        raise NotImplementedError

    def _read(self, handle: Any) -> np.ndarray | None:
        raise NotImplementedError

    def _close(self, handle: Any) -> None:
        """Release the device; may be called from another thread when a read hangs."""

    # -- public interface ----------------------------------------------------------------------

    def on_event(self, listener: Listener) -> Listener:
        """Call ``listener(event)`` for every ``CameraLost``/``CameraBack``.

        Listeners run on the camera's own threads: a UI must hand the event to its main loop
        (Kivy: ``Clock.schedule_once``). Returns the listener, so this works as a decorator.
        """
        with self._cond:
            self._listeners.append(listener)
        return listener

    def start(self) -> FrameSource:
        """Start capturing in the background (idempotent). A missing camera is not an error here:
        it is reported as ``CameraLost`` and retried with back-off."""
        with self._cond:
            if self._supervisor is not None and self._supervisor.is_alive():
                return self
            self._stopping.clear()
            self._state = "starting"
            self._supervisor = threading.Thread(target=self._supervise, name=f"camera {self.spec}",
                                                daemon=True)
            self._supervisor.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        """Stop capturing and release the device. Safe to call twice."""
        self._stopping.set()
        with self._cond:
            self._cond.notify_all()
            sup = self._supervisor
        if sup is not None and sup is not threading.current_thread():
            sup.join(timeout)
        with self._cond:
            self._state = "stopped"
            self._supervisor = None
            self._cond.notify_all()
        if self._probed is not None:
            handle, self._probed = self._probed, None
            self._safe_close(handle)

    def __enter__(self) -> FrameSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def latest(self) -> Frame | None:
        """The newest frame, at once; ``None`` before the first one and while the camera is lost
        (so nobody scans a picture of a table that may have changed since)."""
        with self._cond:
            return self._latest

    def preview(self, index: int) -> np.ndarray | None:
        """The preview of delivered frame ``index`` while it is one of the last few
        (:data:`PREVIEWS_KEPT`), else ``None``: lets a consumer compare the newest frame with the
        one before it without waiting for, or holding, another full frame."""
        with self._cond:
            return self._previews.get(index)

    def wait_frame(self, after: int = -1, timeout: float = 5.0) -> Frame | None:
        """Block until a frame newer than index ``after`` exists (or ``timeout``): for tools such
        as ``hw check``; an interactive consumer should use ``latest()``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                frame = self._latest
                if frame is not None and frame.index > after:
                    return frame
                left = deadline - time.monotonic()
                if left <= 0 or self._state == "stopped":
                    return None
                self._cond.wait(left)

    @property
    def state(self) -> str:
        """``stopped``, ``starting``, ``running`` or ``lost``."""
        with self._cond:
            return self._state

    @property
    def lost_reason(self) -> str | None:
        """Why the camera was last lost (kept after it came back, for diagnostics)."""
        with self._cond:
            return self._lost_reason

    @property
    def frames_delivered(self) -> int:
        with self._cond:
            return self._delivered

    @property
    def outages(self) -> int:
        """How many times the camera was lost since ``start``."""
        with self._cond:
            return self._outages

    def probe(self, timeout: float = 10.0) -> None:
        """Open the device and read one picture now, in the caller's thread (with a time limit).

        Raises ``CameraNotFound`` naming the reason. On success the open device is kept and used
        by ``start()``, so probing costs no second open (picamera2 takes a second or two).
        """
        box: dict[str, Any] = {}

        def attempt() -> None:
            handle = None
            try:
                handle = self._open()
                box["image"] = as_bgr(self._read_first(handle))
                box["handle"] = handle
            except Exception as exc:  # any driver failure is a "not found" here
                box["error"] = _describe(exc)
                if handle is not None:
                    self._safe_close(handle)

        worker = threading.Thread(target=attempt, name=f"probe {self.spec}", daemon=True)
        worker.start()
        worker.join(timeout)
        if worker.is_alive():
            raise CameraNotFound(f"{self.spec}: the camera did not answer within {timeout:g} s")
        if "error" in box:
            raise CameraNotFound(f"{self.spec}: {box['error']}")
        self._probed = box["handle"]

    def _read_first(self, handle: Any) -> np.ndarray:
        for _ in range(self.failed_reads):
            image = self._read(handle)
            if image is not None:
                return image
        raise CameraFault(f"{self.failed_reads} reads in a row returned no picture")

    def describe(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} {self.state}>"

    # -- supervision ---------------------------------------------------------------------------

    def _supervise(self) -> None:
        backoff = self.backoff_initial
        while not self._stopping.is_set():
            attempt = self._begin_attempt()
            reason = self._watch(attempt)
            if reason is None:  # stopping
                self._end_attempt(attempt, abandon=False)
                break
            self._end_attempt(attempt, abandon=True)
            first = self._report_lost(reason)
            if attempt.frames:
                backoff = self.backoff_initial
            # One warning per outage; the retries of a long outage only at debug level.
            (log.warning if first else log.debug)("camera %s lost (%s); retrying in %.2f s",
                                                   self.spec, reason, backoff)
            if self._stopping.wait(backoff):
                break
            backoff = min(backoff * 2, self.backoff_max)

    def _begin_attempt(self) -> _Attempt:
        with self._cond:
            self._gen += 1
            attempt = _Attempt(gen=self._gen, started=self._clock())
            self._attempt = attempt
        attempt.thread = threading.Thread(target=self._reader, args=(attempt,),
                                          name=f"camera {self.spec} reader {attempt.gen}", daemon=True)
        attempt.thread.start()
        return attempt

    def _watch(self, attempt: _Attempt) -> str | None:
        """Wait until the attempt fails (returns the reason) or the source stops (None)."""
        poll = min(0.05, self.read_timeout / 4)
        with self._cond:
            while not self._stopping.is_set():
                if attempt.failure is not None:
                    return attempt.failure
                now = self._clock()
                if attempt.opened_at is None:
                    if now - attempt.started > self.open_timeout:
                        return f"the camera did not open within {self.open_timeout:g} s"
                elif not attempt.idle:
                    last = attempt.last_progress if attempt.last_progress is not None else attempt.opened_at
                    if now - last > self.read_timeout:
                        return f"no picture for {self.read_timeout:g} s (the camera stopped answering)"
                self._cond.wait(poll)
        return None

    def _end_attempt(self, attempt: _Attempt, *, abandon: bool) -> None:
        with self._cond:
            if self._attempt is attempt:
                self._gen += 1  # the reader sees it is outdated and publishes nothing more
                self._cond.notify_all()
        thread = attempt.thread
        if thread is None:
            return
        thread.join(0.2 if abandon else self.read_timeout)
        if thread.is_alive():
            # The read is stuck inside the driver. Closing the handle from here is the only way
            # to free the device for a new attempt (and often unblocks the read).
            closer = threading.Thread(target=self._close_attempt, args=(attempt,),
                                      name=f"camera {self.spec} closer", daemon=True)
            closer.start()

    def _close_attempt(self, attempt: _Attempt) -> None:
        with self._cond:
            if attempt.closed or attempt.handle is None:
                attempt.closed = True
                return
            attempt.closed = True
            handle = attempt.handle
        self._safe_close(handle)

    def _safe_close(self, handle: Any) -> None:
        try:
            self._close(handle)
        except Exception as exc:
            log.debug("closing camera %s failed: %s", self.spec, exc)

    def _reader(self, attempt: _Attempt) -> None:
        try:
            handle, self._probed = self._probed, None
            if handle is None:
                handle = self._open()
            with self._cond:
                attempt.handle = handle
                attempt.opened_at = self._clock()
                current = attempt.gen == self._gen and not self._stopping.is_set()
            if not current:
                return
            failures = 0
            same_since: float | None = None
            previous: np.ndarray | None = None
            while True:
                with self._cond:
                    if attempt.gen != self._gen or self._stopping.is_set():
                        return
                image = self._read(handle)
                now = self._clock()
                if image is None:
                    if self._idle_now(attempt):
                        continue
                    failures += 1
                    with self._cond:
                        attempt.last_progress = now
                    if failures >= self.failed_reads:
                        raise CameraFault(f"{failures} reads in a row returned no picture")
                    continue
                image = as_bgr(image)
                failures = 0
                attempt.idle = False
                if self.stale_seconds is not None:
                    signature = _signature(image)
                    if previous is not None and previous.shape == signature.shape and np.array_equal(
                            previous, signature):
                        if same_since is None:
                            same_since = now
                        elif now - same_since >= self.stale_seconds:
                            raise CameraFault(f"the same picture for {self.stale_seconds:g} s "
                                              "(the camera was probably unplugged)")
                    else:
                        same_since = None
                    previous = signature
                self._publish(attempt, image, now)
        except Exception as exc:
            with self._cond:
                if attempt.failure is None:
                    attempt.failure = _describe(exc)
                self._cond.notify_all()
        finally:
            self._close_attempt(attempt)

    def _idle_now(self, attempt: _Attempt) -> bool:
        """Subclasses (a finished replay) return True when no picture is expected, not a fault."""
        return False

    def _publish(self, attempt: _Attempt, image: np.ndarray, now: float) -> None:
        back = False
        small = preview_of(image)  # outside the lock: the consumer's latest() never waits on it
        with self._cond:
            if attempt.gen != self._gen:
                return
            attempt.frames += 1
            attempt.last_progress = now
            frame = Frame(image=image, captured_at=now, index=self._delivered, preview=small)
            self._previews[frame.index] = small
            self._previews.pop(frame.index - PREVIEWS_KEPT, None)
            self._delivered += 1
            self._latest = frame
            if self._state != "running":
                back = self._state == "lost"
                self._state = "running"
            self._cond.notify_all()
        if back:
            log.info("camera %s is back", self.spec)
            self._emit(CameraBack(source=self.spec))

    def _report_lost(self, reason: str) -> bool:
        """Record the loss; True (and one CameraLost event) when it starts a new outage."""
        with self._cond:
            first = self._state != "lost"
            self._lost_reason = reason
            self._latest = None
            self._previews.clear()  # frames from before an outage are not compared with later ones
            if first:
                self._state = "lost"
                self._outages += 1
            self._cond.notify_all()
        if first:
            self._emit(CameraLost(reason=reason, source=self.spec))
        return first

    def _emit(self, event: CameraEvent) -> None:
        with self._cond:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(event)
            except Exception:  # a broken listener must not stop the camera
                log.exception("camera event listener failed on %r", event)


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if isinstance(exc, CameraError):
        return text or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
