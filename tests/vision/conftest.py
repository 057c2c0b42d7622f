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


@pytest.fixture(autouse=True)
def cloth_learned_afresh():  # type: ignore[no-untyped-def]
    """Each test starts as on a fresh scanner: no cloth colours kept from another test's table
    (vision.detect keeps them for the same table only, but a test must not depend on order)."""
    from vision import detect

    detect.forget_cloth()
    yield
    detect.forget_cloth()
