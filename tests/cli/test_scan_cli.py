"""``companion scan IMAGE --game GAME``: output, scores, the debug overlay and one-line errors."""

from __future__ import annotations

import json
import os

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.pack import proxy_pack
from vision.synth import Camera, Placement, Scene, render_scene


@pytest.fixture(autouse=True)
def cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path_factory.getbasetemp() / "cli-cache"))


@pytest.fixture(scope="module")
def big_sur_photo(tmp_path_factory):
    """A south tableau of four edge-to-edge Highway cards photographed as a JPEG."""
    os.environ.setdefault("COMPANION_CACHE", str(tmp_path_factory.getbasetemp() / "cli-cache"))
    pack = proxy_pack("bigsur")
    ids = ["bs-01", "bs-02", "bs-03", "bs-04"]
    places = tuple(Placement(cid, (400 + 63.5 * k, 600), 0.0) for k, cid in enumerate(ids))
    frame, _truth = render_scene(Scene(placements=places, pack=pack, camera=Camera(view_deg=5, noise=2)), seed=1)
    path = tmp_path_factory.mktemp("scan") / "table.jpg"
    cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path, ids


def run(capsys, *args):
    rc = main(["scan", *map(str, args)])
    out, err = capsys.readouterr()
    return rc, out, err


def test_json_lists_items_layout_and_scores(big_sur_photo, capsys, tmp_path):
    path, ids = big_sur_photo
    debug = tmp_path / "overlay.png"
    rc, out, err = run(capsys, path, "--game", "bigsur", "--json", "--debug", debug)
    assert rc == 0 and err == ""
    doc = json.loads(out)
    assert sorted(i["id"] for i in doc["items"]) == ids
    assert doc["layout"]["tableaus"]["south"]["cards"] == ids
    from rules.bigsur import score_tableau

    want = sum(ln.points for ln in score_tableau([{"id": c} for c in ids]))
    assert doc["scores"]["south"]["total"] == want
    for item in doc["items"]:
        assert set(item) >= {"id", "rotation", "center_mm", "confidence"}
    img = cv2.imread(str(debug))
    assert img is not None and img.shape == cv2.imread(str(path)).shape


def test_readable_output(big_sur_photo, capsys):
    path, ids = big_sur_photo
    rc, out, _ = run(capsys, path, "--game", "bigsur", "--players", "2")
    assert rc == 0
    assert out.startswith("bigsur: 4 cards, 0 unsure")
    assert all(cid in out for cid in ids)
    assert "score south:" in out


@pytest.mark.parametrize(("args", "words"), [
    (["no-such.png", "--game", "bigsur"], "no such image file"),
    (["{bad}", "--game", "bigsur"], "not a readable image"),
    (["{black}", "--game", "bigsur"], "all black"),
    (["{noise}", "--game", "bigsur"], "not seen"),
    (["{photo}", "--game", "chess"], "unknown game"),
    (["{photo}", "--game", "bigsur", "--table", "big"], "--table must look like"),
    (["{photo}", "--game", "bigsur", "--table", "0x700"], "width_mm"),
    (["{photo}", "--game", "bigsur", "--pack", "{missing}"], ""),
    (["{photo}", "--game", "bigsur", "--players", "7"], "--players"),
])
def test_bad_input_is_one_line_and_exit_2(big_sur_photo, capsys, tmp_path, args, words):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG not really")
    black = tmp_path / "black.png"
    cv2.imwrite(str(black), np.zeros((400, 600, 3), np.uint8))
    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), np.random.default_rng(0).integers(0, 255, (400, 600, 3), dtype=np.uint8))
    fill = {"bad": bad, "black": black, "noise": noise, "photo": big_sur_photo[0], "missing": tmp_path / "nope"}
    rc, out, err = run(capsys, *[a.format(**fill) for a in args])
    assert rc == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("companion: error: ")
    assert words in err
    assert "Traceback" not in err


def test_readable_output_names_the_monster_not_an_unknown_object(capsys, tmp_path):
    """A Monster Highway board with the Monster on an empty space away from the road: the place it
    hides is printed as the Monster, with its board cell, not as an unknown object."""
    from vision.synth import Piece

    pack = proxy_pack("monsterhighway")
    ids = ["road-straight", "road-cross", "road-tee", "road-curve", "road-straight", "ground-zero"]
    places = tuple(Placement(cid, (425 + 50 * (k % 3), 325 + 50 * (k // 3)), 0.0) for k, cid in enumerate(ids))
    scene = Scene(placements=places, pieces=(Piece("monster", (775.0, 175.0), rotation=20.0),), pack=pack,
                  camera=Camera(view_deg=8, light=0.3, noise=2, blur=0.6, jpeg_quality=90))
    out = scan_rendered(capsys, tmp_path / "board.png", scene, 5, "monsterhighway")
    assert out.startswith("monsterhighway: 6 cards, 0 unsure, 0 unknown, the Monster")
    assert "the Monster at (" in out and "board cell 15, 3" in out
    assert "unknown object" not in out


def test_readable_output_says_where_the_monster_may_stand_when_places_apart_could_be_its_own(capsys, tmp_path):
    """Bench seed 2's Monster Highway board 2 (proxy pack): a tile hidden apart from the Monster's
    place could be its place too. Neither is printed as the Monster; both as where it may stand,
    with the warning asking to uncover the board."""
    from tests.vision.test_scan import bench_scene

    _, frame, _ = bench_scene("monsterhighway", 2, seed=2)
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), frame)
    rc, out, _ = run(capsys, path, "--game", "monsterhighway")
    assert rc == 0
    assert ", the Monster on one of 2 places" in out.splitlines()[0] and "\n  the Monster at (" not in out
    assert out.count("  maybe the Monster at (") == 2
    assert 'warning: the Monster may stand on any of 2 places marked "Monster?"' in out


def test_readable_output_names_a_lamps_glare_not_an_unknown_object(capsys, tmp_path):
    """A spot driving the camera to white on bare cloth beside a card: printed as the glare, with
    the warning saying how to see what it hides, and not counted as an unknown object."""
    from tests.vision.test_glare import table, with_spot

    frame = with_spot(table(placements=[Placement("bs-19", (500.0, 350.0))]), 1500.0, 600.0, 90.0, 180.0)
    path = tmp_path / "lamp.png"
    cv2.imwrite(str(path), frame)
    rc, out, _ = run(capsys, path, "--game", "bigsur")
    assert rc == 0
    assert out.startswith("bigsur: 1 cards, 0 unsure, 0 unknown")
    assert "  glare at (" in out and "unknown object" not in out
    assert "move or shade the lamp" in out


def test_readable_output_names_an_arm_not_unknown_objects(capsys, tmp_path):
    """A hand reaching over a card from the table's edge: the card read past it, the places cut
    out of the arm printed as a hand or an arm, not counted as unknown objects, and the warning
    says how to see what it hides."""
    from vision.synth.scene import Distractor

    pack = proxy_pack("bigsur")
    scene = Scene(placements=(Placement("bs-11", (500.0, 420.0)),), distractors=(Distractor("hand", (530.0, 545.0)),),
                  pack=pack, camera=Camera(light=0.2, noise=2.0, blur=0.6), background="cloth")
    out = scan_rendered(capsys, tmp_path / "hand.png", scene, 3, "bigsur")
    assert out.startswith("bigsur: 1 cards, 0 unsure, 0 unknown")
    assert "  bs-11 " in out and "  a hand or an arm at (" in out and "unknown object" not in out
    assert "lift it, then scan again" in out


def test_readable_output_counts_what_an_arm_hides_as_the_arms(capsys, tmp_path, monkeypatch):
    """Places read as no card that overlap an arm's places are what the arm hides (a row under an
    arm, bench seed 9 proxy Big Sur 12): printed as hidden by it and not counted unknown, as on
    the overlay; a place apart is still an unknown object."""
    import vision
    from vision.layout import NOT_IN_PACK
    from vision.observation import ARM, Observation, Unknown

    obs = Observation("bigsur", unknowns=[Unknown((500.0, 350.0), (50.0, 50.0), ARM),
                                          Unknown((520.0, 360.0), (50.0, 50.0), NOT_IN_PACK),
                                          Unknown((150.0, 150.0), (50.0, 50.0), NOT_IN_PACK)])
    monkeypatch.setattr(vision, "scan", lambda *a, **k: obs)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.zeros((20, 20, 3), np.uint8))
    rc, out, _ = run(capsys, path, "--game", "bigsur")
    assert rc == 0
    assert out.startswith("bigsur: 0 cards, 0 unsure, 1 unknown (")
    assert "  hidden by a hand or an arm at (520.0, 360.0) mm" in out
    assert "  unknown object at (150.0, 150.0) mm" in out and out.count("unknown object") == 1


def scan_rendered(capsys, path, scene, seed, game):
    """`companion scan` of the scene rendered with `seed` and written to `path`: its output (the
    scan succeeded)."""
    frame, _ = render_scene(scene, seed=seed)
    cv2.imwrite(str(path), frame)
    rc, out, _ = run(capsys, path, "--game", game)
    assert rc == 0
    return out
