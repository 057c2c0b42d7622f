"""Small caches kept in insertion order, shared by the scan's stages."""

from __future__ import annotations

from typing import Any


def trim(kept: dict[Any, Any], most: int) -> None:
    """Let go of the oldest entries of a cache kept in insertion order until at most ``most``
    remain. Scans run on the app's worker threads: the keys are copied first and each is let go
    with pop(key, None), so another scan trimming the same cache in between raises nothing (a
    check-then-pop could raise KeyError)."""
    for old in list(kept)[: max(0, len(kept) - most)]:
        kept.pop(old, None)
