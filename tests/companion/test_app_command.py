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


def test_the_kiosk_gpio_seats_follow_the_table_not_the_leds(monkeypatch):
    """Two seats and no LEDs wired: the buttons are laid out for two seats (it used to be 4)."""
    import companion.commands.app as app
    import hardware
    from companion import config as config_module

    config = config_module.loads('[table]\nseats = ["south", "north"]\n[gpio]\nend_turn = [5, 6]\nleds = []\n')
    made = []
    monkeypatch.setattr(hardware, "Controls", lambda layout, **kw: made.append(layout) or "buttons")
    notes: list[str] = []
    assert app._gpio(config, type("App", (), {"control_event": None})(), notes) == "buttons"
    assert made[0].seats == 2 and made[0].end_turn == (5, 6) and made[0].leds == ()
    made[0].validate()
    assert notes == []


@pytest.mark.parametrize("flag, env, expected", [
    (None, None, "file:/from/the/file"),
    (None, "file:/from/the/env", "file:/from/the/env"),
    ("file:/from/the/flag", "file:/from/the/env", "file:/from/the/flag"),
])
def test_the_kiosk_camera_flag_then_env_then_file(monkeypatch, flag, env, expected):
    import companion.commands.app as app
    import hardware.cameras as cameras
    from companion import config as config_module

    if env is None:
        monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    else:
        monkeypatch.setenv("COMPANION_CAMERA", env)
    chosen = []
    monkeypatch.setattr(cameras, "make_source", lambda spec, **kw: chosen.append((spec, kw["width"])) or "camera")
    config = config_module.loads('[camera]\nsource = "file:/from/the/file"\nwidth = 1920\nheight = 1080\n')
    assert app._camera(config, [], flag) == "camera"
    assert chosen == [(expected, 1920)]
