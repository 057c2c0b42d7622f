"""companion/config.py: which file is read, defaults, every kind of bad value, and a fuzzed loader."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import config
from companion.config import Config, ConfigError, load, loads

ROOT = Path(__file__).resolve().parents[2]
DEPLOYED = ROOT / "deploy" / "companion.toml"


def test_no_file_gives_the_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "absent.toml")
    cfg = load(env={})
    assert cfg == Config() and cfg.path is None
    assert cfg.camera.source == "auto" and (cfg.camera.width, cfg.camera.height) == (2304, 1296)
    assert cfg.table.seats == ("south", "west", "north", "east") and cfg.seats == 4
    assert cfg.gpio.hold_seconds == 1.5 and cfg.gpio.debounce_ms == 50 and cfg.gpio.long_press == "undo"
    assert cfg.app.fullscreen is True and dict(cfg.app.packs) == {}


def test_which_file_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    etc, env_file, arg = tmp_path / "etc.toml", tmp_path / "env.toml", tmp_path / "arg.toml"
    for path, source in [(etc, "cv2:0"), (env_file, "cv2:1"), (arg, "cv2:2")]:
        path.write_text(f'[camera]\nsource = "{source}"\n')
    monkeypatch.setattr(config, "DEFAULT_PATH", etc)
    assert load(env={}).camera.source == "cv2:0"
    assert load(env={"COMPANION_CONFIG": str(env_file)}).camera.source == "cv2:1"
    assert load(arg, env={"COMPANION_CONFIG": str(env_file)}).camera.source == "cv2:2"
    assert load(arg, env={}).path == arg


def test_a_named_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        load(tmp_path / "missing.toml", env={})
    with pytest.raises(ConfigError, match=r"from \$COMPANION_CONFIG"):
        load(env={"COMPANION_CONFIG": str(tmp_path / "missing.toml")})


def test_the_deployed_file_documents_every_key_with_its_default() -> None:
    cfg = load(DEPLOYED, env={})
    assert cfg == Config(path=DEPLOYED)
    text = DEPLOYED.read_text()
    documented = (ROOT / "docs" / "hardware.md").read_text()
    for section, values in Config().to_dict().items():
        for key in values:
            # active or commented out, every key appears in the deployed file and the docs
            assert f"{key} =" in text or f"# {key} =" in text or f"[{section}.{key}]" in text, key
            assert f"`{key}`" in documented, f"docs/hardware.md does not document [{section}] {key}"
    assert "buzzer =" in text  # optional keys are shown commented out


def test_the_effective_toml_reads_back_the_same(tmp_path: Path) -> None:
    cfg = loads('[camera]\nsource = "file:/tmp/scenes"\n[gpio]\nundo = false\nbuzzer = 12\n'
                '[app]\nfullscreen = false\ndata_dir = "/srv/games"\n[app.packs]\nbigsur = "/p/bs"\n')
    again = loads(cfg.to_toml())
    assert again == cfg
    assert again.gpio.undo is None and again.gpio.buzzer == 12
    assert again.app.data_path == Path("/srv/games") and again.app.packs["bigsur"] == Path("/p/bs")


def test_a_table_with_two_seats_and_one_shared_button() -> None:
    cfg = loads('[table]\nseats = ["south", "north"]\n[gpio]\nend_turn = 5\nleds = [17, 27]\n')
    assert cfg.seats == 2 and cfg.gpio.end_turn == (5,)
    layout = cfg.gpio_layout()
    assert layout.seats == 2 and [b.name for b in layout.buttons()] == ["end turn (shared)", "undo", "scan"]


@pytest.mark.parametrize("text, message", [
    ("[gpio]\nleds = [17, 27, 22]\n", "companion.toml: [gpio] leds: expected 4 pins (one per seat), got 3"),
    ("[gpio]\nfoo = 1\n", "companion.toml: [gpio] foo: unknown key (known: buzzer, debounce_ms, end_turn, "
                          "hold_seconds, leds, long_press, scan, undo)"),
    ("[screen]\nx = 1\n", "companion.toml: [screen]: unknown section (known: app, camera, gpio, table)"),
    ("camera = 3\n", "companion.toml: [camera] must be a table, got the number 3"),
    ('[camera]\nsource = "usb"\n', "companion.toml: [camera] source: unknown camera source 'usb'"),
    ('[camera]\nsource = 0\n', "companion.toml: [camera] source: expected a string, got the number 0"),
    ("[camera]\nwidth = 1920.5\n", "companion.toml: [camera] width: expected a whole number, got the number 1920.5"),
    ("[camera]\nheight = 0\n", "companion.toml: [camera] height: expected 48 to 8192, got 0"),
    ("[table]\nwidth_mm = true\n", "companion.toml: [table] width_mm: expected a number, got the boolean true"),
    ("[table]\nmarker_mm = 90\nheight_mm = 150\n", "companion.toml: [table] marker_mm: 90 mm markers do not fit"),
    ('[table]\nseats = ["south", "south"]\n', "companion.toml: [table] seats: an edge is listed twice"),
    ('[table]\nseats = []\n', "companion.toml: [table] seats: expected 1 to 4 seats, got 0"),
    ('[table]\nseats = "south"\n', "companion.toml: [table] seats: expected a list of table edges"),
    ("[gpio]\nundo = 5\n", "companion.toml: [gpio] undo: pin 5 is already used by end_turn"),
    ("[gpio]\nscan = 28\n", "companion.toml: [gpio] scan: pin 28 is not a usable GPIO (BCM 2 to 27)"),
    ("[gpio]\nbuzzer = true\n", "companion.toml: [gpio] buzzer: expected a BCM pin number or false"),
    ('[gpio]\nleds = ["17"]\n', "companion.toml: [gpio] leds: expected BCM pin numbers, got the string '17'"),
    ("[gpio]\nend_turn = [5, 6]\n", "companion.toml: [gpio] end_turn: expected 1 pin (shared) or 4 pins"),
    ('[gpio]\nlong_press = "redo"\n', "companion.toml: [gpio] long_press: expected one of undo, none"),
    ("[gpio]\ndebounce_ms = 0\n", "companion.toml: [gpio] debounce_ms: expected 1 to 500, got 0"),
    ("[gpio]\nhold_seconds = 60\n", "companion.toml: [gpio] hold_seconds: expected 0.3 to 10, got 60"),
    ('[app]\nfullscreen = "yes"\n', "companion.toml: [app] fullscreen: expected true or false"),
    ('[app]\ndata_dir = ""\n', "companion.toml: [app] data_dir: expected a folder"),
    ('[app.packs]\nchess = "/x"\n', "companion.toml: [app] packs.chess: unknown game"),
    ("[app.packs]\nbigsur = 3\n", "companion.toml: [app] packs.bigsur: expected a pack folder"),
    ("[gpio\n", "companion.toml: not valid TOML"),
])
def test_bad_settings_name_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        loads(text)
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_the_message_names_the_file_it_came_from(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text("[gpio]\nleds = [1]\n")
    with pytest.raises(ConfigError, match=r"^kiosk\.toml: \[gpio\] leds"):
        load(path, env={})
    path.write_bytes(b"\xff\xfe[gpio]")
    with pytest.raises(ConfigError, match="cannot be read"):
        load(path, env={})


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


# -- fuzzing -----------------------------------------------------------------------------------

KEYS = {
    "camera": ["source", "width", "height"],
    "table": ["width_mm", "height_mm", "marker_mm", "seats"],
    "gpio": ["end_turn", "undo", "scan", "leds", "buzzer", "hold_seconds", "debounce_ms", "long_press"],
    "app": ["fullscreen", "data_dir", "packs"],
}
scalars = st.one_of(st.booleans(), st.integers(-50, 5000), st.floats(-10, 5000, allow_nan=False),
                    st.sampled_from(["auto", "cv2:0", "file:/x", "picamera2", "south", "north", "undo",
                                     "none", "", "bigsur"]))
values = st.one_of(scalars, st.lists(scalars, max_size=5), st.dictionaries(
    st.sampled_from(["bigsur", "chess", "roundabout"]), scalars, max_size=2))
documents = st.dictionaries(
    st.sampled_from([*KEYS, "extra"]),
    st.dictionaries(st.sampled_from([k for ks in KEYS.values() for k in ks] + ["bogus"]), values, max_size=6),
    max_size=4)


def dump(doc: dict[str, dict[str, object]]) -> str:
    from companion.config import _toml_value

    lines = []
    for section, table in doc.items():
        lines.append(f"[{section}]")
        subtables = {k: v for k, v in table.items() if isinstance(v, dict)}
        lines += [f"{k} = {_toml_value(v)}" for k, v in table.items() if k not in subtables]
        for name, sub in subtables.items():
            lines.append(f"[{section}.{name}]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in sub.items()]
    return "\n".join(lines) + "\n"


@given(documents)
def test_any_document_loads_or_fails_with_a_config_error(doc: dict[str, dict[str, object]]) -> None:
    text = dump(doc)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return  # e.g. a key given twice by the dumper; not what this test is about
    try:
        cfg = loads(text)
    except ConfigError as exc:
        assert str(exc).startswith("companion.toml: ") and "\n" not in str(exc)
        return
    # Whatever loads is valid through and through: it reads back to the same settings.
    cfg.gpio_layout().validate()
    assert loads(cfg.to_toml()) == Config(camera=cfg.camera, table=cfg.table, gpio=cfg.gpio,
                                          app=cfg.app)
