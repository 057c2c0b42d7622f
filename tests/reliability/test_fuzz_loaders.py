"""Fuzzing every loader a player or owner can feed a file to: the catalogs of all five games (as an
owner override through ``directory=`` and ``$COMPANION_CATALOGS``), deck packs
(``vision.pack.load_pack``) and the configuration (``companion.config``). Each mutated file gives
the loader's own typed error (CatalogError, PackError, ConfigError) or a complete result, never
another exception; and a failed load leaves nothing behind: the packaged catalogs still load the
same afterwards (issue 8; the game records are fuzzed in test_fuzz_records.py).

Quick here; ``./dev.sh long`` runs the slow variants with >= 100,000 examples in all."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import config
from rules import CatalogError
from vision.pack import FORMAT, PackError, load_pack

RULES = Path(__file__).resolve().parents[2] / "rules"


def _loaders() -> dict[str, Callable[[str | Path | None], Any]]:
    from rules.bigsur.catalog import load_catalog
    from rules.highwayman.cards import load_pack as highwayman_pack
    from rules.highwaysbyways.data import load as hb_load
    from rules.monsterhighway.data import load as mh_load
    from rules.roundabout.cards import load_deck

    return {"bigsur": load_catalog, "roundabout": load_deck, "monsterhighway": mh_load,
            "highwaysbyways": hb_load, "highwayman": highwayman_pack}


LOADERS = _loaders()
FILES = {game: sorted(p.name for p in (RULES / game).glob("*.json")) for game in LOADERS}

# ------------------------------------------------------------------------------ mutations

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6) | st.sampled_from(["", "E5", "road", "x" * 300, "-1", "0"]),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=5), kids, max_size=3),
    max_leaves=8,
)


@st.composite
def mutate_json(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` with one random change somewhere in its tree: a value replaced, a key or element
    removed, an element duplicated, a number nudged, or a string/number swapped."""
    doc = json.loads(json.dumps(doc))
    parent: Any = None
    key: Any = None
    node = doc
    while isinstance(node, dict | list) and node and draw(st.integers(0, 3)) > 0:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, draw(st.sampled_from(keys))
        node = node[key]
    op = draw(st.sampled_from(["replace", "delete", "duplicate", "nudge", "retype", "add"]))
    if parent is None:
        return draw(json_values) if op == "replace" else doc
    if op == "replace":
        parent[key] = draw(json_values)
    elif op == "delete":
        del parent[key]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
    elif op == "nudge" and isinstance(node, int | float) and not isinstance(node, bool):
        parent[key] = node + draw(st.sampled_from([-1, 1, -1000, 10**9, 0.5]))
    elif op == "retype":
        parent[key] = str(node) if not isinstance(node, str) else draw(st.integers(-5, 5))
    elif op == "add" and isinstance(parent, dict):
        parent[draw(st.text(max_size=6))] = draw(json_values)
    else:
        parent[key] = None
    return doc


@st.composite
def mutated_text(draw: st.DrawFn, text: str) -> str:
    """Text-level damage: cut short, a byte range overwritten, or random characters inserted."""
    op = draw(st.sampled_from(["cut", "overwrite", "insert"]))
    at = draw(st.integers(0, len(text)))
    if op == "cut":
        return text[:at]
    junk = draw(st.text(min_size=1, max_size=8))
    if op == "overwrite":
        return text[:at] + junk + text[at + len(junk):]
    return text[:at] + junk + text[at:]


# ------------------------------------------------------------------------------ catalogs

_BASELINE: dict[str, str] = {}


def baseline(game: str) -> str:
    """The packaged catalog as loaded before any fuzzing (its repr), to see nothing was poisoned."""
    if game not in _BASELINE:
        _BASELINE[game] = repr(LOADERS[game](None))
    return _BASELINE[game]


def try_catalog(game: str, name: str, text: str) -> str:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        for other in FILES[game]:
            if other != name:
                shutil.copy(RULES / game / other, folder / other)
        (folder / name).write_text(text, encoding="utf-8")
        try:
            result = LOADERS[game](folder)
        except CatalogError as exc:
            message = str(exc)
            assert message.strip() and "\n" not in message.strip(), f"not one clear line: {message!r}"
            assert name in message or any(f in message for f in FILES[game]), f"the error names no file: {message}"
            outcome = "refused"
        except Exception as exc:
            raise AssertionError(f"{game}/{name}: {type(exc).__name__}: {exc}\n--- file ---\n{text[:2000]}") from exc
        else:
            assert result is not None and type(result).__name__ == type(LOADERS[game](None)).__name__
            outcome = "loaded"
    assert repr(LOADERS[game](None)) == baseline(game), "a failed override changed the packaged catalog"
    return outcome


def catalog_case(game: str) -> st.SearchStrategy[tuple[str, str]]:
    @st.composite
    def case(draw: st.DrawFn) -> tuple[str, str]:
        name = draw(st.sampled_from(FILES[game]))
        original = (RULES / game / name).read_text(encoding="utf-8")
        if draw(st.integers(0, 4)) == 0:
            return name, draw(mutated_text(original))
        return name, json.dumps(draw(mutate_json(json.loads(original))))

    return case()


@pytest.mark.parametrize("game", list(LOADERS))
def test_mutated_catalogs_load_completely_or_fail_with_a_catalog_error(game: str) -> None:
    baseline(game)
    seen: set[str] = set()

    @settings(max_examples=120, suppress_health_check=list(HealthCheck), deadline=None)
    @given(catalog_case(game))
    def run(case: tuple[str, str]) -> None:
        seen.add(try_catalog(game, *case))

    run()
    assert "refused" in seen, "no mutation was refused: the fuzzing did not reach the validation"


@pytest.mark.slow
@pytest.mark.parametrize("game", list(LOADERS))
def test_mutated_catalogs_long(game: str) -> None:
    baseline(game)

    @settings(max_examples=20_000, suppress_health_check=list(HealthCheck), deadline=None)
    @given(catalog_case(game))
    def run(case: tuple[str, str]) -> None:
        try_catalog(game, *case)

    run()


def test_a_broken_override_in_companion_catalogs_is_a_catalog_error(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Through the environment, as an owner installs one: every game's catalog_items() refuses a
    # broken file with a CatalogError naming it, and works again once the file is removed.
    import importlib

    for game in LOADERS:
        folder = tmp_path / game
        folder.mkdir()
        name = FILES[game][0]
        (folder / name).write_text('{"format": "game-night-companion/catalog", "version": 1, "game": "' + game + '"')
        monkeypatch.setenv("COMPANION_CATALOGS", str(tmp_path))
        module = importlib.import_module(f"rules.{game}")
        with pytest.raises(CatalogError, match="not valid JSON"):
            module.catalog_items()
        (folder / name).unlink()
        assert module.catalog_items(), game
    monkeypatch.delenv("COMPANION_CATALOGS")


# ------------------------------------------------------------------------------ packs

def _pack_folder(root: Path) -> dict[str, Any]:
    from rules.highwayman import catalog_items

    faces = root / "faces"
    faces.mkdir(parents=True, exist_ok=True)
    cards = []
    for item in catalog_items()[:4]:
        face = faces / f"{len(cards)}.png"
        face.write_bytes(b"\x89PNG\r\n\x1a\n")  # the loader checks paths, the index reads pixels
        cards.append({"id": item["id"], "faces": [f"faces/{face.name}"]})
    return {"format": FORMAT, "version": 1, "game": "highwayman", "kind": "owner", "card_size_mm": [57, 89],
            "cards": cards}


@st.composite
def pack_case(draw: st.DrawFn, doc: dict[str, Any]) -> str:
    if draw(st.integers(0, 4)) == 0:
        return draw(mutated_text(json.dumps(doc)))
    return json.dumps(draw(mutate_json(doc)))


def try_pack(root: Path, text: str) -> str:
    (root / "pack.json").write_text(text, encoding="utf-8")
    try:
        pack = load_pack(root)
    except PackError as exc:
        assert str(exc).strip() and "\n" not in str(exc).strip()
        return "refused"
    except Exception as exc:
        raise AssertionError(f"{type(exc).__name__}: {exc}\n--- pack.json ---\n{text[:2000]}") from exc
    # Complete: every card has faces that exist inside the pack folder.
    assert pack.cards and all(c.faces and all(f.is_file() for f in c.faces) for c in pack.cards)
    assert all(f.resolve().is_relative_to(root.resolve()) for c in pack.cards for f in c.faces)
    return "loaded"


def _pack_test(examples: int) -> None:
    seen: set[str] = set()
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / "pack"
        doc = _pack_folder(root)
        assert try_pack(root, json.dumps(doc)) == "loaded"

        @settings(max_examples=examples, suppress_health_check=list(HealthCheck), deadline=None)
        @given(pack_case(doc))
        def run(text: str) -> None:
            seen.add(try_pack(root, text))

        run()
    assert seen == {"loaded", "refused"}, seen


def test_mutated_packs_load_completely_or_fail_with_a_pack_error() -> None:
    _pack_test(600)


@pytest.mark.slow
def test_mutated_packs_long() -> None:
    _pack_test(100_000)


# ------------------------------------------------------------------------------ configuration

TOML_VALUES = ["-1", "0", "1", "99999999999999999999", "1e999", "nan", "inf", "-0.0", "true", "false",
               '""', '"x"', '"cv2:-1"', '"file:/nonexistent"', '"picamera2"', "[]", "[1, 2]", '["a", 1]',
               "[5, 5]", "{}", '{a = 1}', "2026-11-22", "[[1]]", '"\\u0000"', '"south"', "500", "0.001"]


@st.composite
def config_text(draw: st.DrawFn) -> str:
    base = config.Config().to_toml().splitlines()
    lines = [ln for ln in base if ln.strip() and not ln.startswith("#")]
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["value", "drop", "key", "section", "dup", "text"]))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if op == "value" and " = " in line:
            lines[i] = line.split(" = ")[0] + " = " + draw(st.sampled_from(TOML_VALUES))
        elif op == "drop":
            del lines[i]
        elif op == "key":
            lines.insert(i + 1, draw(st.sampled_from(["colour", "seat", "pins", "source2", "x"])) + " = 1")
        elif op == "section":
            lines.insert(i, draw(st.sampled_from(["[cam]", "[gpio.extra]", "[app.packs]", "[table]", "[[app]]"])))
        elif op == "dup":
            lines.insert(i, line)
        else:
            lines[i] = draw(mutated_text(line))
        if not lines:
            break
    return "\n".join(lines) + "\n"


def try_config(text: str) -> str:
    try:
        cfg = config.loads(text)
    except config.ConfigError as exc:
        assert str(exc).strip() and "\n" not in str(exc).strip(), repr(str(exc))
        return "refused"
    except Exception as exc:
        raise AssertionError(f"{type(exc).__name__}: {exc}\n--- toml ---\n{text}") from exc
    # Complete: what was loaded writes back to a file that loads to the same settings.
    again = config.loads(cfg.to_toml())
    assert again.to_dict() == cfg.to_dict()
    tomllib.loads(cfg.to_toml())
    return "loaded"


CONFIG_SEEN: set[str] = set()


@settings(max_examples=800, deadline=None)
@given(config_text())
def test_mutated_configuration_files_load_completely_or_fail_with_a_config_error(text: str) -> None:
    CONFIG_SEEN.add(try_config(text))


def test_the_configuration_fuzzing_reaches_both_outcomes() -> None:
    seen = {try_config(config.Config().to_toml()), try_config("[camera]\nwidth = -1\n")}
    assert seen == {"loaded", "refused"}


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=120))
def test_any_text_as_configuration(text: str) -> None:
    try_config(text)


@pytest.mark.slow
@settings(max_examples=100_000, deadline=None)
@given(config_text())
def test_mutated_configuration_long(text: str) -> None:
    try_config(text)


def test_an_unreadable_configuration_file_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_bytes(b"[camera]\nsource = \"\xff\xfe\"\n")
    with pytest.raises(config.ConfigError, match=r"companion\.toml"):
        config.load(path)
    with pytest.raises(config.ConfigError, match="no such configuration file"):
        config.load(tmp_path / "missing.toml")
    assert os.path.exists(path)


def test_highways_and_byways_map_path_with_a_list_end_is_a_catalog_error() -> None:
    """Found by the long catalog fuzz: a path end that is a list raised TypeError, not CatalogError."""
    data = json.loads((RULES / "highwaysbyways" / "map.json").read_text(encoding="utf-8"))
    data["paths"][0] = [[], data["paths"][0][1]]
    assert try_catalog("highwaysbyways", "map.json", json.dumps(data)) == "refused"
