"""``companion --camera SPEC`` with no command hands the camera choice to the kiosk."""

from __future__ import annotations

from typing import Any

import pytest

from companion import cli


def test_the_kiosk_receives_the_camera_option(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    import companion.commands.app as app

    monkeypatch.setattr(app, "kiosk", lambda args: seen.setdefault("camera", args.camera) and 0)
    assert cli.main(["--camera", "file:/tmp/table.png"]) == 0
    assert seen["camera"] == "file:/tmp/table.png"


def test_without_the_option_the_kiosk_gets_none(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    import companion.commands.app as app

    monkeypatch.setattr(app, "kiosk", lambda args: seen.update(camera=args.camera) or 0)
    assert cli.main([]) == 0
    assert seen["camera"] is None
