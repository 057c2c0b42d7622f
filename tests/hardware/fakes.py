"""Scripted stand-ins for the camera devices: a fault-injecting VideoCapture and a fake Picamera2."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

HEIGHT, WIDTH = 24, 32


def noise(seed: int, shape: tuple[int, int] = (HEIGHT, WIDTH)) -> np.ndarray:
    """A distinct picture per seed, like a live sensor whose noise changes every frame."""
    return np.random.default_rng(seed).integers(0, 256, size=(*shape, 3), dtype=np.uint8)


class Script:
    """What a device does, one step per read: "frame", "false" (read() -> False), "none" (read()
    -> True, None), "stale" (the previous picture again), "hang" (block until released or
    closed), "stuck" (block until the test ends), "bad" (a wrongly shaped picture) or an exception instance to raise. After the script
    the device is healthy. ``opens`` says, per open, whether the device is there (then True)."""

    def __init__(self, steps: Iterable[Any] = (), opens: Iterable[bool] = ()) -> None:
        self.steps = list(steps)
        self.opens = list(opens)
        self.lock = threading.Lock()
        self.counter = 0
        self.handles: list[Any] = []
        self.hung = 0
        self.unstick = threading.Event()  # the test frees "stuck" reads when it is over

    def next_step(self) -> Any:
        with self.lock:
            return self.steps.pop(0) if self.steps else "frame"

    def next_open(self) -> bool:
        with self.lock:
            return self.opens.pop(0) if self.opens else True

    def picture(self, shape: tuple[int, int] = (HEIGHT, WIDTH)) -> np.ndarray:
        with self.lock:
            self.counter += 1
            return noise(self.counter, shape)


class FakeCapture:
    """Quacks like cv2.VideoCapture: isOpened, read, set, get, release."""

    def __init__(self, script: Script, device: Any) -> None:
        self.script = script
        self.device = device
        self.opened = script.next_open()
        self.released = threading.Event()
        self.settings: dict[int, float] = {}
        self.last: np.ndarray | None = None
        script.handles.append(self)

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened and not self.released.is_set()

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.settings.get(prop, 0.0)

    def release(self) -> None:
        self.released.set()

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.released.is_set():
            return False, None
        time.sleep(0.002)  # a real camera paces itself; keep the fake from spinning a core
        step = self.script.next_step()
        if isinstance(step, BaseException):
            raise step
        if step == "false":
            return False, None
        if step == "none":
            return True, None
        if step == "hang":
            with self.script.lock:
                self.script.hung += 1
            self.released.wait()  # a driver call that only returns when the device is closed
            return False, None
        if step == "stuck":  # a driver call that not even closing the device frees
            with self.script.lock:
                self.script.hung += 1
            self.script.unstick.wait()
            return False, None
        if step == "bad":
            return True, np.zeros((HEIGHT, WIDTH, 2), np.uint8)
        if step == "stale" and self.last is not None:
            return True, self.last.copy()
        self.last = self.script.picture()
        return True, self.last


def capture_factory(script: Script) -> Callable[[Any], FakeCapture]:
    return lambda device: FakeCapture(script, device)


CM3_MODES = [
    {"size": (1536, 864), "crop_limits": (768, 432, 3072, 1728), "bit_depth": 10, "fps": 120.1},
    {"size": (2304, 1296), "crop_limits": (0, 0, 4608, 2592), "bit_depth": 10, "fps": 56.0},
    {"size": (4608, 2592), "crop_limits": (0, 0, 4608, 2592), "bit_depth": 10, "fps": 14.3},
]


class FakePicamera2:
    """Quacks like picamera2.Picamera2 for what Picamera2Source uses; records every call."""

    def __init__(self, camera_num: int = 0, *, script: Script | None = None, autofocus: bool = True,
                 metadata: list[dict[str, Any]] | None = None) -> None:
        self.camera_num = camera_num
        self.script = script or Script()
        self.calls: list[tuple[str, Any]] = []
        self.controls_set: list[dict[str, Any]] = []
        self.camera_controls = {"AfMode": (0, 2, 0), "ExposureTime": (1, 10**6, None)} if autofocus else {
            "ExposureTime": (1, 10**6, None)}
        self.sensor_modes = CM3_MODES
        self.sensor_resolution = (4608, 2592)
        self.metadata = list(metadata or [])
        self.closed = threading.Event()
        self.size = (WIDTH, HEIGHT)

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", kwargs))
        return {"kind": "video", **kwargs}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))
        w, h = config["main"]["size"]
        self.size = (min(w, 64), min(h, 48))  # keep test pictures small whatever was asked

    def start(self) -> None:
        self.calls.append(("start", None))

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def close(self) -> None:
        self.calls.append(("close", None))
        self.closed.set()

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls_set.append(dict(controls))

    def autofocus_cycle(self) -> bool:
        self.calls.append(("autofocus_cycle", None))
        return True

    def capture_metadata(self) -> dict[str, Any]:
        if self.metadata:
            return self.metadata.pop(0)
        return {"ExposureTime": 20000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}

    def capture_array(self, name: str = "main") -> np.ndarray:
        if self.closed.is_set():
            raise RuntimeError("Camera is not running")
        time.sleep(0.002)
        step = self.script.next_step()
        if isinstance(step, BaseException):
            raise step
        if step == "hang":
            self.closed.wait()
            raise RuntimeError("Camera is not running")
        return self.script.picture((self.size[1], self.size[0]))
