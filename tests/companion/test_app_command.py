"""``companion demo`` / the kiosk entry: bad input and a missing screen are one clear line, exit 2."""

from __future__ import annotations

import pytest

from companion.cli import main


def test_a_bad_window_size_is_one_line(capsys):
    assert main(["demo", "--size", "big"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--size must look like 800x480" in err


def test_an_absurd_window_size_is_refused(capsys):
    assert main(["demo", "--size", "10x10"]) == 2
    assert "outside" in capsys.readouterr().err


def test_no_screen_is_one_line(monkeypatch, capsys):
    import companion.commands.app as app

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(app.os.path, "exists", lambda p: False)
    assert main(["demo", "bigsur"]) == 2
    assert "no screen to draw on" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["demo", "chess"]])
def test_an_unknown_game_is_refused_by_the_parser(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
