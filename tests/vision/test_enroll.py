"""Owner enrolment: a card photographed on the table comes back as its straight face."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import pack as packmod
from vision.enroll import EnrollError, enroll_folder, enroll_from_frame, read_mapping
from vision.proxy import render_face
from vision.synth import Camera, Placement, Scene, render_scene

TOP_DOWN = Camera()
ITEMS = [{"id": f"bs-{k}", "kind": "highway card", "count": 1, "size_mm": [63, 88], "miles": k} for k in (1, 2, 3)]
ITEMS.append({"id": "lm-1", "kind": "landmark", "count": 1, "size_mm": [50, 50], "points": 2})


@pytest.fixture(autouse=True)
def fake_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packmod, "catalog_items", lambda game: [dict(i) for i in ITEMS])
    import vision.enroll as enroll

    monkeypatch.setattr(enroll, "catalog_items", lambda game: [dict(i) for i in ITEMS])


def face_of(item: dict) -> np.ndarray:
    return render_face("bigsur", item, 8)


def photo(faces: list[tuple[np.ndarray, tuple[float, float], tuple[float, float], float]], *, camera: Camera = TOP_DOWN,
          background: str = "wood", seed: int = 1) -> np.ndarray:
    """Cards (face, size, centre, rotation) photographed on a small stretch of table, no markers."""
    placements = tuple(Placement(f"p{k}", c, r, face=f, size_mm=s) for k, (f, s, c, r) in enumerate(faces))
    scene = Scene(placements, table_mm=(160, 120), hidden_markers=(0, 1, 2, 3), camera=camera,
                  background=background, image_px=(1600, 1200), margin_mm=10)
    return render_scene(scene, seed=seed)[0]


def difference(a: np.ndarray, b: np.ndarray) -> float:
    size = (32, 44) if a.shape[0] > a.shape[1] else (32, 32)
    sa = cv2.resize(a, size, interpolation=cv2.INTER_AREA).astype(float)
    sb = cv2.resize(b, size, interpolation=cv2.INTER_AREA).astype(float)
    return float(np.abs(sa - sb).mean())


@pytest.mark.parametrize(("camera", "background", "rotation"), [
    (Camera(), "wood", 0.0),
    (Camera(), "cloth", 25.0),
    (Camera(view_deg=15, view_dir_deg=40, light=0.4, noise=3, jpeg_quality=85), "cloth", -10.0),
    (Camera(view_deg=10, view_dir_deg=200, distortion=-0.04, blur=0.7), "wood", 8.0),
])
def test_enrolment_recovers_the_face(camera: Camera, background: str, rotation: float) -> None:
    face = face_of(ITEMS[1])
    img = photo([(face, (63, 88), (80, 60), rotation)], camera=camera, background=background)
    got = enroll_from_frame(img, (63, 88))
    assert got.shape == (880, 630, 3) and got.dtype == np.uint8
    assert difference(got, face) < 12
    other = face_of(ITEMS[2])
    assert difference(got, other) > 1.5 * difference(got, face)


def test_a_sideways_card_is_turned_upright() -> None:
    face = face_of(ITEMS[0])
    img = photo([(face, (63, 88), (80, 60), 90.0)])
    got = enroll_from_frame(img, (63, 88))
    assert got.shape[:2] == (880, 630)
    assert difference(got, face) < 12  # a card lying a quarter turn clockwise is turned back


def test_square_tiles_enrol_at_their_size() -> None:
    face = face_of(ITEMS[3])
    got = enroll_from_frame(photo([(face, (50, 50), (80, 60), 5.0)]), (50, 50), px_per_mm=6)
    assert got.shape == (300, 300, 3) and difference(got, face) < 12


def test_no_card_is_a_clear_error() -> None:
    with pytest.raises(EnrollError, match="no card found"):
        enroll_from_frame(photo([], background="cloth"), (63, 88))


def test_several_cards_are_refused() -> None:
    f1, f2 = face_of(ITEMS[0]), face_of(ITEMS[1])
    img = photo([(f1, (63, 88), (40, 60), 0.0), (f2, (63, 88), (120, 60), 0.0)], background="cloth")
    with pytest.raises(EnrollError, match="2 cards found"):
        enroll_from_frame(img, (63, 88))


@pytest.mark.parametrize("bad", [np.zeros((10, 10, 3), np.uint8), np.zeros((100, 100, 3), np.float32), "x",
                                 np.zeros((100, 100, 5), np.uint8)])
def test_bad_frames(bad: object) -> None:
    with pytest.raises(EnrollError):
        enroll_from_frame(bad, (63, 88))


def write_photo(folder: Path, name: str, item: dict, size: tuple[float, float]) -> np.ndarray:
    face = face_of(item)
    cv2.imwrite(str(folder / name), photo([(face, size, (80, 60), 3.0)], background="cloth"), [cv2.IMWRITE_JPEG_QUALITY, 90])
    return face


def test_a_folder_of_named_photos_becomes_a_pack(tmp_path: Path) -> None:
    src = tmp_path / "photos"
    src.mkdir()
    write_photo(src, "bs-1.jpg", ITEMS[0], (63, 88))
    write_photo(src, "bs-1-2.jpg", ITEMS[0], (63, 88))
    lm = write_photo(src, "lm-1.jpg", ITEMS[3], (50, 50))
    p = enroll_folder("bigsur", src, tmp_path / "pack")
    assert p.kind == "owner" and set(p.ids) == {"bs-1", "lm-1"}
    assert len(p.card("bs-1").faces) == 2 and p.size_of("lm-1") == (50.0, 50.0)
    faces = dict(p.face_images())
    assert difference(faces["lm-1"], lm) < 12


def test_a_mapping_names_the_photos(tmp_path: Path) -> None:
    src = tmp_path / "photos"
    src.mkdir()
    write_photo(src, "IMG_0001.jpg", ITEMS[1], (63, 88))
    write_photo(src, "IMG_0002.jpg", ITEMS[2], (63, 88))
    (tmp_path / "map.csv").write_text("photo,id\nIMG_0001.jpg,bs-2\nIMG_0002.jpg,bs-3\n")
    (tmp_path / "map.json").write_text(json.dumps({"IMG_0001.jpg": "bs-2"}))
    assert set(enroll_folder("bigsur", src, tmp_path / "a", mapping=tmp_path / "map.csv").ids) == {"bs-2", "bs-3"}
    assert enroll_folder("bigsur", src, tmp_path / "b", mapping=tmp_path / "map.json").ids == ("bs-2",)


def test_unknown_ids_and_failed_photos_write_nothing(tmp_path: Path) -> None:
    src = tmp_path / "photos"
    src.mkdir()
    write_photo(src, "bs-1.jpg", ITEMS[0], (63, 88))
    cv2.imwrite(str(src / "bs-2.jpg"), photo([], background="cloth"))
    with pytest.raises(EnrollError, match=r"1 of 2 photos failed, nothing written: bs-2\.jpg: no card found"):
        enroll_folder("bigsur", src, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    (src / "bs-2.jpg").unlink()
    write_photo(src, "zz-9.jpg", ITEMS[0], (63, 88))
    with pytest.raises(EnrollError, match="'zz-9' is not a card id"):
        enroll_folder("bigsur", src, tmp_path / "out")


def test_bad_mappings(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text("[1, 2]")
    with pytest.raises(EnrollError, match="JSON object"):
        read_mapping(tmp_path / "m.json")
    (tmp_path / "m.csv").write_text("a.jpg,b,c\n")
    with pytest.raises(EnrollError, match="line 1"):
        read_mapping(tmp_path / "m.csv")
    with pytest.raises(EnrollError, match="not a folder"):
        enroll_folder("bigsur", tmp_path / "nope", tmp_path / "out")


@pytest.mark.parametrize(("item", "size"), [(ITEMS[0], (63, 88)), (ITEMS[2], (63, 88)), (ITEMS[3], (50, 50))])
def test_enrolment_from_a_table_camera_frame_ignores_the_markers(item: dict, size: tuple[float, float]) -> None:
    """The app enrols from the overhead camera: the whole table, markers and all, one card on it."""
    face = face_of(item)
    scene = Scene((Placement("x", (500, 350), 0.0, face=face, size_mm=size),), background="cloth")
    frame = render_scene(scene, seed=2)[0]
    got = enroll_from_frame(frame, size)
    assert difference(got, face) < 16  # the card is ~110 px wide here: a blurrier face, same design
