"""`companion cards ...` and `companion print markers`: real output, and bad input is one line + exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from rules import registry
from vision.pack import load_pack
from vision.pdf import page_sizes_mm


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))


def installed() -> list[str]:
    return [g for g in registry.available() if hasattr(__import__(f"rules.{g}", fromlist=["x"]), "catalog_items")]


def one_game() -> str:
    games = installed()
    if not games:
        pytest.skip("no engine with a catalog is installed")
    return "roundabout" if "roundabout" in games else games[0]


def test_list_json_is_the_catalog(capsys: pytest.CaptureFixture[str]) -> None:
    game = one_game()
    assert main(["cards", "list", game, "--json"]) == 0
    items = json.loads(capsys.readouterr().out)
    mod = __import__(f"rules.{game}", fromlist=["catalog_items"])
    assert items == json.loads(json.dumps(mod.catalog_items()))
    assert all({"id", "kind", "count", "size_mm"} <= set(i) for i in items)


def test_list_text_names_every_id(capsys: pytest.CaptureFixture[str]) -> None:
    game = one_game()
    assert main(["cards", "list", game]) == 0
    out = capsys.readouterr().out
    mod = __import__(f"rules.{game}", fromlist=["catalog_items"])
    assert all(i["id"] in out for i in mod.catalog_items())
    assert "designs" in out.splitlines()[-1]


def test_render_writes_a_loadable_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = one_game()
    assert main(["cards", "render", game, "--out", str(tmp_path / "pack"), "--px-per-mm", "4"]) == 0
    pack = load_pack(tmp_path / "pack")
    mod = __import__(f"rules.{game}", fromlist=["catalog_items"])
    assert set(pack.ids) == {i["id"] for i in mod.catalog_items()} and pack.kind == "proxy"
    # Rendering again over the same pack is allowed.
    assert main(["cards", "render", game, "--out", str(tmp_path / "pack"), "--px-per-mm", "4"]) == 0


def test_render_refuses_a_folder_of_other_things(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = one_game()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "thesis.txt").write_text("precious")
    assert main(["cards", "render", game, "--out", str(tmp_path / "docs")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty and not a pack" in err
    assert sorted(p.name for p in (tmp_path / "docs").iterdir()) == ["thesis.txt"]


def test_print_makes_a4_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = one_game()
    out = tmp_path / "cards.pdf"
    assert main(["cards", "print", game, "--out", str(out), "--dpi", "100"]) == 0
    assert "A4 pages" in capsys.readouterr().out
    sizes = page_sizes_mm(out)
    assert sizes and all(abs(w - 210) < 0.3 and abs(h - 297) < 0.3 for w, h in sizes)


def test_print_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.pdf"
    assert main(["print", "markers", "--out", str(out), "--marker-mm", "50", "--table", "900x600"]) == 0
    assert len(page_sizes_mm(out)) == 4 and "50 mm" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["cards", "list", "chess"],
    ["cards", "enroll", "chess", "--from", "PHOTOS", "--out", "OUT"],
    ["print", "markers", "--marker-mm", "3"],
    ["print", "markers", "--table", "huge"],
    ["print", "markers", "--out", "/nonexistent/dir/m.pdf"],
    ["cards", "enroll", "bigsur", "--from", "/nonexistent", "--out", "OUT"],
    ["cards", "enroll", "bigsur", "--from", "PHOTOS", "--out", "OUT", "--card-mm", "big"],
    ["cards", "print", "bigsur", "--dpi", "5000"],
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "PHOTOS").mkdir()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: ") and err.count("\n") == 1


def test_enroll_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = one_game()
    from vision.pack import catalog_items
    from vision.proxy import render_face
    from vision.synth import Placement, Scene, render_scene

    item = catalog_items(game)[0]
    face = render_face(game, item, 6)
    size = tuple(item["size_mm"])
    scene = Scene((Placement("x", (80, 60), 4.0, face=face, size_mm=size),), table_mm=(160, 120),
                  hidden_markers=(0, 1, 2, 3), background="cloth", image_px=(1200, 900), margin_mm=10)
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / f"{item['id']}.jpg"), render_scene(scene, seed=1)[0])
    assert main(["cards", "enroll", game, "--from", str(photos), "--out", str(tmp_path / "mine")]) == 0
    assert "enrolled 1 photos of 1 cards" in capsys.readouterr().out
    pack = load_pack(tmp_path / "mine")
    assert pack.ids == (item["id"],) and pack.kind == "owner"
