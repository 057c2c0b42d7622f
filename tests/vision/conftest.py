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


def _forget_tables() -> None:
    """What a scanner keeps between scans: the cloth's colours (vision.detect) and the last
    calibration of each frame size and table, which the next scan only re-checks (vision.scan)."""
    import importlib

    from vision import detect

    detect.forget_cloth()
    importlib.import_module("vision.scan")._LAST_CALIBRATION.clear()  # (the package's `scan` is the function)


@pytest.fixture(autouse=True)
def cloth_learned_afresh():  # type: ignore[no-untyped-def]
    """Each test starts as on a fresh scanner: no cloth colours and no calibration kept from
    another test's table (both are kept for the same table only, but a test must not depend on
    order)."""
    _forget_tables()
    yield
    _forget_tables()
