"""Vision tests never touch the user's ~/.cache: proxy and photo-like packs render into one
temporary cache per test session (so each renders once per run)."""

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def companion_cache(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    old = os.environ.get("COMPANION_CACHE")
    path = tmp_path_factory.mktemp("companion-cache")
    os.environ["COMPANION_CACHE"] = str(path)
    yield path
    if old is None:
        os.environ.pop("COMPANION_CACHE", None)
    else:
        os.environ["COMPANION_CACHE"] = old
