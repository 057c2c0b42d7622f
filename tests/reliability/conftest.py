"""The reliability tests never touch the user's ~/.cache: the proxy packs vision renders go to a
cache of their own under the system's temporary folder (kept between runs: packs are keyed by
their catalog's hash, so a changed catalog renders afresh)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def reliability_cache():  # type: ignore[no-untyped-def]
    old = os.environ.get("COMPANION_CACHE")
    path = Path(tempfile.gettempdir()) / "companion-reliability-cache"
    path.mkdir(exist_ok=True)
    os.environ["COMPANION_CACHE"] = str(path)
    yield path
    if old is None:
        os.environ.pop("COMPANION_CACHE", None)
    else:
        os.environ["COMPANION_CACHE"] = old
