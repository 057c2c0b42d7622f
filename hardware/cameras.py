"""Choosing a camera: ``open_camera(spec)`` for ``picamera2``, ``cv2:N``, ``file:PATH`` or auto."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .errors import CameraNotFound, CameraSpecError
from .frames import FrameSource
from .opencv import CaptureFactory, OpenCVSource
from .picam import CameraFactory, Picamera2Source
from .replay import ReplaySource

ENV = "COMPANION_CAMERA"
#: what "auto" tries, in order: the Pi camera, then the first two USB webcams
AUTO_CANDIDATES = ("picamera2", "cv2:0", "cv2:1")
SPEC_HELP = "expected auto, picamera2, cv2:N (a webcam number) or file:PATH"


def parse_spec(spec: str) -> tuple[str, Any]:
    """``("auto", None)``, ``("picamera2", n)``, ``("cv2", n)`` or ``("file", Path)``."""
    if not isinstance(spec, str):
        raise CameraSpecError(f"camera source must be a string, got {type(spec).__name__}; {SPEC_HELP}")
    text = spec.strip()
    kind, _, rest = text.partition(":")
    kind = kind.lower()
    if text.lower() == "auto":
        return "auto", None
    if kind == "picamera2":
        if not rest:
            return "picamera2", 0
        if rest.isdigit():
            return "picamera2", int(rest)
    elif kind == "cv2":
        if rest.isdigit():
            return "cv2", int(rest)
    elif kind == "file":
        if rest.strip():
            return "file", Path(rest.strip()).expanduser()
        raise CameraSpecError(f"camera source {spec!r} names no file; {SPEC_HELP}")
    raise CameraSpecError(f"unknown camera source {spec!r}; {SPEC_HELP}")


def make_source(spec: str, *, width: int = 2304, height: int = 1296,
                picamera2_factory: CameraFactory | None = None,
                capture_factory: CaptureFactory | None = None, **options: Any) -> FrameSource:
    """The source a spec names, not started and not probed (``auto`` is not allowed here)."""
    kind, arg = parse_spec(spec)
    if kind == "picamera2":
        return Picamera2Source(arg, width=width, height=height, factory=picamera2_factory, **options)
    if kind == "cv2":
        return OpenCVSource(arg, width=width, height=height, factory=capture_factory, **options)
    if kind == "file":
        return ReplaySource(arg, **options)
    raise CameraSpecError("make_source needs a concrete camera, not auto")


def open_camera(spec: str | None = None, *, configured: str | None = None, width: int = 2304,
                height: int = 1296, env: Mapping[str, str] | None = None,
                candidates: Sequence[str] = AUTO_CANDIDATES,
                probe_timeout: float = 10.0, picamera2_factory: CameraFactory | None = None,
                capture_factory: CaptureFactory | None = None, **options: Any) -> FrameSource:
    """The camera to use, not yet started.

    Which camera: ``spec`` (a command-line choice) wins, then ``$COMPANION_CAMERA`` (so the demo
    or a test can swap the camera without editing files), then ``configured`` (the configuration
    file's ``[camera] source``), then ``auto``. A named camera is returned without
    touching the device: if it is missing, the started source reports ``CameraLost`` and keeps
    retrying (it may be plugged in later). ``auto`` probes each candidate in turn and returns the
    first that delivers a picture, or raises ``CameraNotFound`` naming everything it tried.
    """
    env = os.environ if env is None else env
    chosen = next((c for c in (spec, env.get(ENV), configured) if c), "auto")
    kind, _ = parse_spec(chosen)
    common = dict(width=width, height=height, picamera2_factory=picamera2_factory,
                  capture_factory=capture_factory, **options)
    if kind != "auto":
        return make_source(chosen, **common)
    tried = []
    for candidate in candidates:
        source = make_source(candidate, **common)
        try:
            source.probe(probe_timeout)
        except CameraNotFound as exc:
            tried.append(str(exc))
            continue
        return source
    raise CameraNotFound("no camera found; tried " + "; ".join(tried)
                         + f". Set [camera] source in the configuration or ${ENV}.")
