"""USB webcams (and anything else ``cv2.VideoCapture`` opens) as a ``FrameSource``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import CameraSpecError
from .frames import CameraFault, FrameSource

#: builds the capture object; tests pass a fake with isOpened/read/set/release
CaptureFactory = Callable[[Any], Any]


class OpenCVSource(FrameSource):
    """``cv2.VideoCapture(device)`` read on the capture thread; ``device`` is an index or a path.

    ``factory`` builds the capture object (``cv2.VideoCapture`` by default), so tests inject a
    scripted fake and never need a webcam.
    """

    def __init__(self, device: int | str = 0, *, width: int | None = 2304, height: int | None = 1296,
                 factory: CaptureFactory | None = None, **options: Any) -> None:
        super().__init__(**options)
        if isinstance(device, int) and device < 0:
            raise CameraSpecError(f"a camera index cannot be negative, got {device}")
        self.device = device
        self.width = width
        self.height = height
        self._factory = factory
        self.spec = f"cv2:{device}"

    def _open(self) -> Any:
        factory = self._factory
        if factory is None:
            import cv2

            factory = cv2.VideoCapture
        capture = factory(self.device)
        if capture is None or not capture.isOpened():
            if capture is not None:
                capture.release()
            raise CameraFault(f"could not open the camera {self.spec} (is it plugged in?)")
        import cv2

        # Ask for the configured size (webcams pick the nearest they support) and the shortest
        # driver queue, so the newest frame is what we get, not one from a second ago.
        if self.width and self.height:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, float(self.width))
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, float(self.height))
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1.0)
        return capture

    def _read(self, handle: Any) -> np.ndarray | None:
        ok, image = handle.read()
        if not ok or image is None:
            return None
        if not isinstance(image, np.ndarray):
            raise CameraFault(f"{self.spec} returned {type(image).__name__}, not a picture")
        return image

    def _close(self, handle: Any) -> None:
        handle.release()
