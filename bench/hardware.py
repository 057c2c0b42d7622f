"""Hardware figures: frames per second delivered to the consumer, and how fast camera faults are
noticed and recovered from.

    .venv/bin/python bench/hardware.py                 # about half a minute
    .venv/bin/python bench/hardware.py --seconds 5 --repeats 10

1. Replay path: ``ReplaySource`` unpaced over 2304x1296 pictures; the consumer takes each new frame
   with ``wait_frame`` (what a scanning loop sees, not what the capture thread reads).
2. OpenCV path: a video file written with ``cv2.VideoWriter`` (MJPG) read by ``OpenCVSource``
   through ``cv2.VideoCapture``: decode + capture thread + hand-over.
3. Faults, with the production defaults (read_timeout 1 s, stale 1.5 s, 3 failed reads, back-off
   0.25 s to 4 s) on a simulated 30 fps camera: time from the fault to ``CameraLost`` (goal: within
   2 s) and from the device being usable again to ``CameraBack``.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware import CameraBack, CameraLost, OpenCVSource, ReplaySource

W, H = 2304, 1296


def scene(i: int, w: int = W, h: int = H) -> np.ndarray:
    rng = np.random.default_rng(i)
    image = np.full((h, w, 3), 150, np.uint8)
    image += rng.integers(0, 12, size=(h // 8, w // 8, 3), dtype=np.uint8).repeat(8, 0).repeat(8, 1)
    x = (i * 37) % (w - 300)
    cv2.rectangle(image, (x, 300), (x + 250, 650), (30, 60, 200), -1)
    return image


def consumer_fps(source: Any, seconds: float, max_frames: int | None = None) -> tuple[float, int]:
    with source:
        first = source.wait_frame(timeout=30)
        if first is None:
            raise SystemExit(f"{source.spec}: no frame")
        last, seen = first, 0
        end = time.monotonic() + seconds
        while time.monotonic() < end and (max_frames is None or last.index < max_frames):
            frame = source.wait_frame(after=last.index, timeout=5)
            if frame is None:
                break
            last, seen = frame, seen + 1
        elapsed = last.captured_at - first.captured_at
    return (seen / elapsed if elapsed > 0 else 0.0), seen


def bench_replay(seconds: float) -> None:
    frames = [scene(i) for i in range(8)]
    fps, n = consumer_fps(ReplaySource(frames, fps=0), seconds)
    print(f"replay  {W}x{H} unpaced: {fps:7.1f} frames/s to the consumer ({n} frames)")
    fps, n = consumer_fps(ReplaySource(frames, fps=30), seconds)
    print(f"replay  {W}x{H} at 30 fps: {fps:6.1f} frames/s to the consumer ({n} frames)")


def bench_opencv(seconds: float, tmp: Path) -> None:
    for w, h in [(1280, 720), (W, H)]:
        path = tmp / f"table-{w}.avi"
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (w, h))
        count = 300 if w < 2000 else 200
        for i in range(count):
            writer.write(scene(i, w, h))
        writer.release()
        source = OpenCVSource(str(path), width=None, height=None)
        # Stop before the file ends: its end is, to a capture source, a camera that went away.
        fps, n = consumer_fps(source, seconds, max_frames=count - 10)
        print(f"opencv  {w}x{h} MJPG file via VideoCapture: {fps:6.1f} frames/s to the consumer ({n} frames)")


class SimulatedCamera:
    """A 30 fps device whose behaviour the benchmark switches: ok, false, raise, hang, stale, gone."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.lock = threading.Lock()
        self.counter = 0
        self.small = [np.random.default_rng(i).integers(0, 255, (480, 640, 3), dtype=np.uint8) for i in range(4)]

    def factory(self, _device: Any) -> Any:
        return _Handle(self)


class _Handle:
    def __init__(self, cam: SimulatedCamera) -> None:
        self.cam = cam
        self.opened = cam.mode == "ok"
        self.released = threading.Event()
        self.last: np.ndarray | None = None

    def isOpened(self) -> bool:  # OpenCV's name
        return self.opened

    def set(self, *_: Any) -> bool:
        return True

    def release(self) -> None:
        self.released.set()

    def read(self) -> tuple[bool, np.ndarray | None]:
        time.sleep(1 / 30)
        mode = self.cam.mode
        if mode in ("false", "gone"):
            return False, None
        if mode == "raise":
            raise RuntimeError("Camera frontend has timed out!")
        if mode == "hang":
            self.released.wait()
            return False, None
        if mode == "stale" and self.last is not None:
            return True, self.last
        self.cam.counter += 1
        image = self.cam.small[self.cam.counter % 4].copy()
        image[0, 0, 0] = self.cam.counter % 256  # noise: no two consecutive pictures identical
        self.last = image
        return True, image


def bench_faults(repeats: int) -> None:
    print("fault (production timeouts, simulated 30 fps camera): time to CameraLost / to CameraBack")
    for mode, label in [("false", "reads fail (False)"), ("raise", "read raises"), ("hang", "read hangs"),
                        ("stale", "same picture (V4L unplug)"), ("gone", "unplugged (reads and opens fail)")]:
        notice, recover = [], []
        for _ in range(repeats):
            cam = SimulatedCamera()
            source = OpenCVSource(0, width=None, height=None, factory=cam.factory)
            marks: dict[str, float] = {}
            done = threading.Event()

            def listen(event: object, marks: dict[str, float] = marks, done: threading.Event = done) -> None:
                if isinstance(event, CameraLost):
                    marks.setdefault("lost", time.monotonic())
                elif isinstance(event, CameraBack):
                    marks.setdefault("back", time.monotonic())
                    done.set()

            source.on_event(listen)
            with source:
                source.wait_frame(timeout=10)
                time.sleep(0.3)
                t_fault = time.monotonic()
                cam.mode = mode
                while "lost" not in marks and time.monotonic() - t_fault < 20:
                    time.sleep(0.005)
                if mode == "gone":
                    time.sleep(1.0)  # unplugged for a second, then plugged back in
                t_fixed = time.monotonic()
                cam.mode = "ok"  # for a hang, the stuck handle stays stuck; a new one works
                done.wait(20)
            if "lost" in marks and "back" in marks:
                notice.append(marks["lost"] - t_fault)
                recover.append(marks["back"] - t_fixed)
        if not notice:
            print(f"  {label:34s} NOT DETECTED")
            continue
        print(f"  {label:34s} lost after {statistics.median(notice):5.2f} s (max {max(notice):5.2f}),"
              f" back {statistics.median(recover):5.2f} s (max {max(recover):5.2f}) after it works again")


def main() -> None:
    logging.basicConfig(level=logging.ERROR)  # the expected "camera lost" warnings are the point here
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per frame-rate measurement")
    parser.add_argument("--repeats", type=int, default=3, help="runs per fault kind")
    # `./dev.sh bench ARGS` hands the same arguments to every benchmark: ignore other benches' flags.
    args, ignored = parser.parse_known_args()
    if ignored:
        print(f"(ignoring arguments meant for other benchmarks: {' '.join(ignored)})")
    bench_replay(args.seconds)
    with tempfile.TemporaryDirectory() as tmp:
        bench_opencv(args.seconds, Path(tmp))
    bench_faults(args.repeats)


if __name__ == "__main__":
    main()
