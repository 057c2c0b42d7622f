"""Camera sources and GPIO buttons/LEDs: a real implementation of each device and a scripted one.

Like gpiozero's pin factories and httpx's MockTransport, every device is chosen by configuration
and can be replaced by a scripted stand-in, so nothing here needs a Pi to be tested:

- cameras: ``FrameSource`` (``latest()``, ``start()``, ``stop()``, ``on_event``) implemented by
  ``Picamera2Source``, ``OpenCVSource`` and ``ReplaySource``; ``open_camera(spec)`` chooses;
- controls: ``Controls`` (gpiozero buttons, LEDs, buzzer, with our own debounce) and
  ``KeyboardControls`` (the same actions from a keyboard), both delivering ``ControlEvent``s.
"""

from .cameras import AUTO_CANDIDATES, make_source, open_camera, parse_spec
from .controls import (
    ACTIONS,
    ButtonSpec,
    ControlEvent,
    Controls,
    GpioLayout,
    KeyboardControls,
)
from .debounce import ButtonLogic
from .errors import (
    CameraError,
    CameraNotFound,
    CameraSpecError,
    ControlsError,
    ControlsUnavailable,
    HardwareError,
    PinLayoutError,
)
from .frames import CameraBack, CameraEvent, CameraFault, CameraLost, Frame, FrameSource
from .opencv import OpenCVSource
from .picam import Picamera2Source
from .replay import ReplaySource

__all__ = [
    "ACTIONS",
    "AUTO_CANDIDATES",
    "ButtonLogic",
    "ButtonSpec",
    "CameraBack",
    "CameraError",
    "CameraEvent",
    "CameraFault",
    "CameraLost",
    "CameraNotFound",
    "CameraSpecError",
    "ControlEvent",
    "Controls",
    "ControlsError",
    "ControlsUnavailable",
    "Frame",
    "FrameSource",
    "GpioLayout",
    "HardwareError",
    "KeyboardControls",
    "OpenCVSource",
    "Picamera2Source",
    "PinLayoutError",
    "ReplaySource",
    "make_source",
    "open_camera",
    "parse_spec",
]
