"""The Raspberry Pi camera (Camera Module 3) through picamera2, as a ``FrameSource``.

picamera2 is imported only when this source opens, because it exists only on Raspberry Pi OS.
What happens on open, and why:

- the main stream is ``RGB888`` at the configured size (default 2304 x 1296). picamera2's RGB888
  is laid out B, G, R in memory: exactly OpenCV's BGR, no conversion needed;
- the sensor mode is the smallest one that sees the whole sensor (full field of view) and is at
  least as large as the main stream, so the table is never cropped (on a Camera Module 3 that is
  the 2304 x 1296 binned mode);
- one configuration is kept running for the whole session (reconfiguring costs frames and resets
  the control loops), at 15 frames per second by default (``frame_rate``);
- one autofocus cycle at start, then the lens stays where it is (``AfMode`` Auto only moves on a
  trigger): cards on a flat table do not need refocusing, and a hand over the table must not pull
  focus;
- exposure and white balance run automatically until they settle, then are locked
  (``AeEnable``/``AwbEnable`` off with the settled values), so a card's colours stay the same all
  evening and the recogniser's thresholds hold.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

import numpy as np

from .frames import CameraFault, FrameSource

log = logging.getLogger("hardware.camera")

AF_MODE_AUTO = 1  # libcamera's controls.AfModeEnum.Auto; a plain int keeps libcamera unimported

CameraFactory = Callable[[int], Any]


def _default_factory(camera_num: int) -> Any:
    try:
        from picamera2 import Picamera2  # only on a Pi
    except ImportError as exc:
        raise CameraFault(f"picamera2 cannot be imported ({exc}); it comes with Raspberry Pi OS") from None
    return Picamera2(camera_num)


def full_view_mode(modes: list[dict[str, Any]], sensor_resolution: tuple[int, int] | None,
                   width: int, height: int) -> dict[str, Any] | None:
    """The smallest sensor mode that covers the whole sensor and is at least width x height."""
    if not sensor_resolution:
        return None
    full = [m for m in modes if tuple(m.get("crop_limits", ())[2:4]) == tuple(sensor_resolution)]
    big_enough = [m for m in full if m["size"][0] >= width and m["size"][1] >= height]
    pool = big_enough or full
    if not pool:
        return None
    pick = min if big_enough else max
    return pick(pool, key=lambda m: (m["size"][0] * m["size"][1], -m.get("bit_depth", 0)))


class Picamera2Source(FrameSource):
    """The Pi camera. ``factory(camera_num)`` builds the Picamera2 object (tests pass a fake)."""

    def __init__(self, camera_num: int = 0, *, width: int = 2304, height: int = 1296,
                 factory: CameraFactory | None = None, settle_frames: int = 60,
                 lock_exposure: bool = True, frame_rate: float = 15.0, **options: Any) -> None:
        options.setdefault("open_timeout", 15.0)
        super().__init__(**options)
        self.camera_num = camera_num
        self.width = width
        self.height = height
        self.settle_frames = settle_frames
        self.lock_exposure = lock_exposure
        self.frame_rate = frame_rate
        self._factory = factory or _default_factory
        self.spec = "picamera2" if camera_num == 0 else f"picamera2:{camera_num}"
        #: what happened at the last open, for ``hw check`` and the log
        self.status: dict[str, Any] = {}

    def _open(self) -> Any:
        camera = self._factory(self.camera_num)
        try:
            self._configure(camera)
        except BaseException:
            with contextlib.suppress(Exception):  # the configuration error is the one to report
                camera.close()
            raise
        return camera

    def _configure(self, camera: Any) -> None:
        status: dict[str, Any] = {}
        mode = full_view_mode(list(getattr(camera, "sensor_modes", []) or []),
                              getattr(camera, "sensor_resolution", None), self.width, self.height)
        # 15 frames/s is plenty for a table and a live view; the sensor mode could do 56, but
        # each 2304x1296 picture is 9 MB to copy, which a Pi 4 would feel.
        kwargs: dict[str, Any] = {"main": {"size": (self.width, self.height), "format": "RGB888"},
                                  "buffer_count": 4, "controls": {"FrameRate": self.frame_rate}}
        if mode is not None:
            kwargs["raw"] = {"size": tuple(mode["size"])}
            status["sensor_mode"] = tuple(mode["size"])
        config = camera.create_video_configuration(**kwargs)
        camera.configure(config)
        camera.start()
        controls = getattr(camera, "camera_controls", {}) or {}
        if "AfMode" in controls:
            camera.set_controls({"AfMode": AF_MODE_AUTO})
            status["focused"] = bool(camera.autofocus_cycle())
            if not status["focused"]:
                log.warning("picamera2: the autofocus cycle did not converge; focus left where it stopped")
        else:
            status["focused"] = None  # a fixed-focus lens
        if self.lock_exposure:
            status["locked"] = self._settle_and_lock(camera)
        self.status = status

    def _settle_and_lock(self, camera: Any) -> dict[str, Any] | None:
        """Wait until exposure, gain and colour gains stop moving, then freeze them."""
        previous: tuple[float, float, float, float] | None = None
        steady = 0
        metadata: dict[str, Any] = {}
        for _ in range(self.settle_frames):
            metadata = camera.capture_metadata()
            try:
                gains = metadata.get("ColourGains") or (0.0, 0.0)
                now = (float(metadata["ExposureTime"]), float(metadata["AnalogueGain"]),
                       float(gains[0]), float(gains[1]))
            except (KeyError, TypeError, ValueError):
                continue
            if previous is not None and all(abs(a - b) <= 0.02 * max(abs(b), 1e-6)
                                            for a, b in zip(now, previous, strict=True)):
                steady += 1
                if steady >= 3:
                    break
            else:
                steady = 0
            previous = now
        if previous is None:
            log.warning("picamera2: no exposure metadata; exposure and white balance stay automatic")
            return None
        locked: dict[str, Any] = {"AeEnable": False, "AwbEnable": False,
                                  "ExposureTime": int(previous[0]), "AnalogueGain": previous[1]}
        if previous[2] > 0 and previous[3] > 0:
            locked["ColourGains"] = (previous[2], previous[3])
        if steady < 3:
            log.warning("picamera2: exposure did not settle in %d frames; locking the last values",
                        self.settle_frames)
        camera.set_controls(locked)
        return locked

    def _read(self, handle: Any) -> np.ndarray | None:
        image = handle.capture_array("main")
        return image if isinstance(image, np.ndarray) else None

    def _close(self, handle: Any) -> None:
        try:
            handle.stop()
        finally:
            handle.close()
