"""Helpers for the hardware tests: wait for a condition with a generous bound, collect events."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from hardware import CameraBack, CameraLost

BOUND = 15.0  # seconds: generous on a shared machine; the tests assert outcomes, not durations


class Events:
    """Collects a source's events and lets a test wait for them."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.cond = threading.Condition()
        self.latest_when_lost: list[Any] = []
        self.source: Any = None

    def __call__(self, event: Any) -> None:
        if isinstance(event, CameraLost) and self.source is not None:
            self.latest_when_lost.append(self.source.latest())
        with self.cond:
            self.items.append(event)
            self.cond.notify_all()

    def attach(self, source: Any) -> Events:
        self.source = source
        source.on_event(self)
        return self

    def wait_for(self, predicate: Callable[[list[Any]], bool], what: str) -> None:
        deadline = time.monotonic() + BOUND
        with self.cond:
            while not predicate(self.items):
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(f"never saw {what}; events: {self.items}")
                self.cond.wait(left)

    def kinds(self) -> list[str]:
        with self.cond:
            return [type(e).__name__ for e in self.items]

    def lost(self) -> list[CameraLost]:
        with self.cond:
            return [e for e in self.items if isinstance(e, CameraLost)]


def count(kind: type) -> Callable[[list[Any]], int]:
    return lambda items: sum(isinstance(e, kind) for e in items)


def wait_until(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"never saw {what}")
        time.sleep(0.005)


@pytest.fixture
def events() -> Events:
    return Events()


__all__ = ["BOUND", "CameraBack", "CameraLost", "Events", "count", "wait_until"]
