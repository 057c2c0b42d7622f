"""Identification on rendered tables: id, rotation, rejection of things not in the pack, cache."""

from __future__ import annotations

import json
import os

import cv2
import numpy as np
import pytest

from tests.vision.test_detect import paste, random_face, table_picture, view
from vision import identify
from vision.calibration import calibrate
from vision.identify import CardIndex, Reference
from vision.observation import TableSpec
from vision.scan import scan

RECT = (63.0, 88.0)
SQUARE = (50.0, 50.0)


@pytest.fixture(scope="module")
def deck():
    rng = np.random.default_rng(42)
    refs = [Reference(f"card-{k}", RECT, random_face(rng, RECT)) for k in range(24)]
    refs += [Reference(f"tile-{k}", SQUARE, random_face(rng, SQUARE)) for k in range(12)]
    return refs, CardIndex.learn(refs)


def lay(placements, seed=0):
    """A camera frame of the table with (face, centre, rotation, size) placements."""
    rng = np.random.default_rng(seed)
    table = TableSpec()
    pic = table_picture(table, rng)
    for face, centre, rotation, size in placements:
        paste(pic, face, centre, rotation, size, table)
    frame, _ = view(table, pic)
    return frame


def test_every_card_and_rotation_is_recognised(deck):
    refs, index = deck
    by_id = {r.id: r for r in refs}
    cases = [("card-3", 0), ("card-7", 180), ("card-11", 90), ("card-20", 270), ("card-5", 4),
             ("tile-0", 0), ("tile-4", 90), ("tile-8", 180), ("tile-11", 270)]
    placements = [(by_id[cid].face, (130 + 105 * k, 250 + 220 * (k % 2)), rot, by_id[cid].size_mm)
                  for k, (cid, rot) in enumerate(cases)]
    obs = scan(lay(placements), "bigsur", index=index)
    assert not obs.unsure and not obs.unknowns
    got = {it.id: it for it in obs.items}
    assert set(got) == {c for c, _ in cases}
    for (cid, rot), (_, centre, _, _) in zip(cases, placements, strict=True):
        assert abs((got[cid].rotation - rot + 180) % 360 - 180) < 3, (cid, got[cid].rotation, rot)
        assert np.hypot(*(np.array(got[cid].center_mm) - centre)) < 3
        assert got[cid].confidence > identify.ACCEPT


def test_things_not_in_the_pack_are_unknown_never_guessed(deck):
    _, index = deck
    rng = np.random.default_rng(7)
    strangers = [(random_face(rng, RECT), (200 + 150 * k, 300), 0, RECT) for k in range(4)]  # another game's cards
    strangers.append((np.full((300, 300, 3), (30, 60, 120), np.uint8), (800, 550), 0, SQUARE))  # a plain coaster
    obs = scan(lay(strangers, seed=3), "bigsur", index=index)
    assert obs.items == []
    assert len(obs.unknowns) + len(obs.unsure) == 5
    assert len(obs.unknowns) >= 4


def test_a_symmetric_face_reports_its_symmetry():
    rng = np.random.default_rng(1)
    half = random_face(rng, (50, 25))
    symmetric = np.concatenate([half, np.rot90(half, 2)], axis=0)  # the same turned by 180 degrees
    refs = [Reference("straight", SQUARE, np.ascontiguousarray(symmetric)),
            Reference("other", SQUARE, random_face(rng, SQUARE))]
    index = CardIndex.learn(refs)
    obs = scan(lay([(refs[0].face, (500, 350), 270, SQUARE)]), "monsterhighway", index=index)
    assert [(i.id, i.symmetry) for i in obs.items] == [("straight", 2)]
    assert abs(obs.items[0].rotation - 90) < 3  # 270 and 90 look the same: the smaller is reported


def test_near_identical_designs_are_still_told_apart():
    rng = np.random.default_rng(11)
    base = random_face(rng, RECT)
    twin = base.copy()
    cv2.circle(twin, (60, 60), 30, (0, 0, 255), -1)  # only a bonus symbol in a corner differs
    refs = [Reference("plain", RECT, base), Reference("bonus", RECT, twin)]
    index = CardIndex.learn(refs)
    obs = scan(lay([(base, (300, 300), 0, RECT), (twin, (600, 300), 180, RECT)]), "bigsur", index=index)
    assert sorted((i.id, round(i.rotation)) for i in obs.items) == [("bonus", 180), ("plain", 0)]


def test_a_near_tie_is_not_decided_where_a_lamps_light_was_strong():
    # Bench seed 9, proxy Big Sur 323: two designs alike but for a corner were told apart by that
    # corner under a glare spot's light (taken out again, its misfit enough to favour either), and
    # the wrong one counted. Where the light was strong (vision.glare.lit) the corner decides
    # nothing: the card is read, but not sure; light elsewhere on the card changes nothing.
    rng = np.random.default_rng(11)
    base = random_face(rng, RECT)
    twin = base.copy()
    cv2.circle(twin, (60, 60), 30, (0, 0, 255), -1)  # the corner 10 mm in from the top left
    index = CardIndex.learn([Reference("plain", RECT, base), Reference("bonus", RECT, twin)])
    frame = lay([(twin, (600, 300), 0, RECT)])
    cal = calibrate(frame)
    key = identify.size_key(RECT)

    def lit_over(x0, y0, x1, y1):
        mask = np.zeros(frame.shape[:2], np.uint8)
        corners = cal.to_image(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float))
        cv2.fillConvexPoly(mask, np.rint(corners).astype(np.int32), 255)
        return mask

    def read(lit=None):
        return index.identify(frame, cal.homography, (600.0, 300.0), 0.0, key, lit)

    assert (read().status, read().id) == ("sure", "bonus")
    assert read().margin < identify.MARGIN  # (a near tie, which only the corner decides)
    under = read(lit_over(562, 250, 596, 284))
    assert under.status == "unsure" and under.id == "bonus"
    assert read(lit_over(0, 0, 1000, 700)).status == "unsure"  # all of it lit
    elsewhere = read(lit_over(604, 316, 640, 350))  # the far corner lit: the bonus symbol is seen
    assert (elsewhere.status, elsewhere.id) == ("sure", "bonus")
    assert read(np.zeros(frame.shape[:2], np.uint8)) == read()
    assert index.identify_many(frame, cal.homography, [((600.0, 300.0), 0.0, key)], lit_over(562, 250, 596, 284)) \
        == [under]


def test_learning_is_cached_by_pack_contents(tmp_path, monkeypatch):
    from vision.pack import write_pack

    rng = np.random.default_rng(5)
    faces = {f"bs-{k:02d}": [random_face(rng, RECT)] for k in range(1, 6)}
    pack_dir = tmp_path / "pack"
    pack = write_pack(pack_dir, "bigsur", RECT, faces)
    cache = tmp_path / "cache"
    monkeypatch.setattr(identify, "_MEMORY", {})
    first = identify.index_for_pack(pack, cache)
    files = list((cache / "vision-index").glob("*.npz"))
    assert len(files) == 1
    monkeypatch.setattr(identify, "_MEMORY", {})
    again = identify.index_for_pack(pack, cache)
    assert again.digest == first.digest
    assert np.array_equal(again.classes[(63.0, 88.0)].fine, first.classes[(63.0, 88.0)].fine)
    # a changed face is a different pack: learned afresh under another key
    face_file = pack_dir / json.loads((pack_dir / "pack.json").read_text())["cards"][0]["faces"][0]
    original = face_file.read_bytes()
    cv2.imwrite(str(face_file), random_face(rng, RECT))
    monkeypatch.setattr(identify, "_MEMORY", {})
    assert identify.index_for_pack(pack, cache).digest != first.digest
    assert len(list((cache / "vision-index").glob("*.npz"))) == 2
    # a corrupt cache file is relearned, not trusted
    files[0].write_bytes(b"not an index")
    monkeypatch.setattr(identify, "_MEMORY", {})
    face_file.write_bytes(original)
    assert identify.index_for_pack(pack, cache).digest == first.digest


def test_a_pack_without_faces_cannot_be_learned():
    with pytest.raises(identify.IndexError_):
        CardIndex.learn([])
    with pytest.raises(identify.IndexError_, match="card 'x'"):
        CardIndex.learn([Reference("x", RECT, np.zeros((3, 3), np.uint8))])


def test_calibration_cache_is_rechecked_between_scans(deck):
    _, index = deck
    frame = lay([])
    cal = calibrate(frame)
    obs = scan(frame, "bigsur", index=index, calibration=cal)
    assert obs.calibration is cal  # nothing moved: the cached homography is kept
    assert obs.items == [] and obs.unknowns == []


def test_shared_crop_correlation_agrees_with_opencv_match_template():
    # match_crop correlates many templates against one crop at once; its peaks and their places
    # must be the ones cv2.matchTemplate(TM_CCOEFF_NORMED) + minMaxLoc give, flat template included
    rng = np.random.default_rng(3)
    h, w = identify.fine_shape(RECT)
    fine = rng.uniform(0, 255, (5, h, w, 3)).astype(np.float32)
    fine[1] = cv2.GaussianBlur(fine[1], (0, 0), 3)
    fine[4] = 90.0  # one flat colour
    templates = identify._Templates(fine, np.arange(5), 5)
    for k in range(4):
        crop = rng.uniform(0, 255, (h + 2 * identify.SLACK, w + 2 * identify.SLACK, 3)).astype(np.float32)
        if k == 1:
            crop[3:3 + h, 5:5 + w] = fine[1] * 0.8 + 20  # the template itself, dimmer, off centre
        if k == 2:
            crop[:] = 128.0  # a flat crop: no correlation at all
        got = identify._CropWindows(crop, h, w).correlate(templates, [0, 1, 2, 3, 4])
        for e, (peak, loc) in enumerate(got):
            _, want, _, want_loc = cv2.minMaxLoc(cv2.matchTemplate(crop, fine[e], cv2.TM_CCOEFF_NORMED))
            assert abs(peak - want) < 1e-4, (k, e, peak, want)
            if want < 0.99 or k == 1:
                assert loc == want_loc, (k, e, loc, want_loc)
        if k == 1:
            assert got[1][0] > 0.999 and got[1][1] == (5, 3)


def test_a_crop_too_small_for_the_templates_is_a_clear_error(deck):
    _, index = deck
    sc = index.classes[RECT]
    with pytest.raises(identify.CropError, match="cannot hold"):
        index.match_crop(np.zeros((20, 20, 3), np.float32), sc)


def test_a_pack_is_hashed_again_only_when_a_face_file_changes(tmp_path, monkeypatch):
    import time

    from vision.pack import write_pack

    rng = np.random.default_rng(8)
    pack = write_pack(tmp_path / "pack", "bigsur", RECT, {f"bs-{k:02d}": [random_face(rng, RECT)] for k in range(1, 4)})
    face = pack.root / pack.cards[0].faces[0]
    monkeypatch.setattr(identify, "_DIGESTS", {})
    hashed = []
    real = identify.pack_digest
    monkeypatch.setattr(identify, "pack_digest", lambda p: hashed.append(p) or real(p))
    later = time.time_ns() + 10_000_000_000
    monkeypatch.setattr(identify, "_now_ns", lambda: later)  # the files were written 10 s ago
    first = identify.cached_pack_digest(pack)
    assert identify.cached_pack_digest(pack) == first == real(pack)
    assert len(hashed) == 1
    # other bytes of the same size, the modification time put back: the change time gives it away
    st = face.stat()
    data = bytearray(face.read_bytes())
    data[-20] ^= 0xFF
    face.write_bytes(bytes(data))
    os.utime(face, ns=(st.st_atime_ns, st.st_mtime_ns))
    changed = identify.cached_pack_digest(pack)
    assert len(hashed) == 2 and changed != first and changed == real(pack)
    assert identify.cached_pack_digest(pack) == changed and len(hashed) == 2
    # a file changed just before it was hashed may change again unseen: hashed on every call
    monkeypatch.setattr(identify, "_DIGESTS", {})
    monkeypatch.setattr(identify, "_now_ns", time.time_ns)
    identify.cached_pack_digest(pack)
    identify.cached_pack_digest(pack)
    assert len(hashed) == 4


def test_cells_read_together_are_each_read_as_alone(deck):
    # identify_many reads a scan's cells in batches: every cell must get the very Match identify
    # gives it alone, and its own (cells of two sizes interleaved, a stranger, an empty place)
    refs, index = deck
    by_id = {r.id: r for r in refs}
    cases = [("card-1", 0), ("tile-2", 90), ("card-9", 180), ("tile-7", 0), ("card-14", 90), ("card-22", 0)]
    placements = [(by_id[cid].face, (130 + 140 * k, 250 + 220 * (k % 2)), rot, by_id[cid].size_mm)
                  for k, (cid, rot) in enumerate(cases)]
    placements.append((random_face(np.random.default_rng(5), RECT), (860, 520), 0, RECT))  # not in the pack
    frame = lay(placements, seed=4)
    cal = calibrate(frame)
    cells = [(centre, float(rot), identify.size_key(size)) for _, centre, rot, size in placements]
    cells.append(((500.0, 600.0), 0.0, identify.size_key(RECT)))  # bare cloth
    alone = [index.identify(frame, cal.homography, *cell) for cell in cells]
    assert index.identify_many(frame, cal.homography, cells) == alone
    assert index.identify_many(frame, cal.homography, cells[::-1]) == alone[::-1]
    assert [m.id for m in alone[:len(cases)]] == [cid for cid, _ in cases]
    assert all(m.status != "sure" for m in alone[len(cases):])
    assert index.identify_many(frame, cal.homography, []) == []


def test_crops_correlated_together_get_the_peaks_each_gets_alone():
    rng = np.random.default_rng(9)
    h, w = identify.fine_shape(RECT)
    fine = rng.uniform(0, 255, (40, h, w, 3)).astype(np.float32)
    fine[3] = 90.0  # one flat colour
    templates = identify._Templates(fine, np.arange(40), 40)
    crops, entries = [], []
    for k in range(12):
        slack = identify.SLACK + (k % 3 == 2)  # crops of another size among them
        crop = rng.uniform(0, 255, (h + 2 * slack, w + 2 * slack, 3)).astype(np.float32)
        crop[2:2 + h, 3:3 + w] = fine[k] * 0.9 + 10
        crops.append(identify._CropWindows(crop, h, w))
        entries.append([] if k == 4 else [int(e) for e in rng.choice(40, 1 + k % 7, replace=False)] + [k])
    got = identify._correlate_many(templates, crops, entries)
    assert got == [c.correlate(templates, e) if e else [] for c, e in zip(crops, entries, strict=True)]
    # each crop's own template found where it was put (the flat one fits everywhere)
    assert all(g[-1][1] == (3, 2) and g[-1][0] > 0.99 for g, e in zip(got, entries, strict=True) if e and e[-1] != 3)


def _crossroads(rng):
    """A tile whose picture is the same turned a quarter but for a label in one corner."""
    q = random_face(rng, (25, 25))
    top = np.concatenate([q, np.rot90(q, -1)], axis=1)
    face = np.ascontiguousarray(np.concatenate([top, np.rot90(top, 2)], axis=0))
    h, w = face.shape[:2]
    face[: h // 6, : w // 3] = (40, 40, 200)
    return face


def test_turns_the_game_cannot_tell_apart_do_not_compete():
    """A crossroads whose label is under a car, and its game does not care which way round it
    lies (the catalog's turns: 4): read so, it is sure. Read as a tile whose every turn matters,
    it is read at its own turn only because the label is seen nowhere another turn would put it
    (compared without the car's pixels); with a second piece over where the half-turned tile's
    label would be, which of the two it is cannot be seen, and it is listed unsure."""
    rng = np.random.default_rng(1)
    face, other = _crossroads(rng), random_face(rng, SQUARE)
    table = TableSpec()
    pic = table_picture(table, np.random.default_rng(1))
    paste(pic, face, (500, 350), 90, SQUARE, table)  # its label at the top right ...
    paste(pic, np.full((80, 50, 3), (20, 200, 240), np.uint8), (517, 337), 0, (16, 26), table)  # ... under a car
    frame, _ = view(table, pic)
    alike = CardIndex.learn([Reference("cross", SQUARE, face, turns=4), Reference("other", SQUARE, other)])
    obs = scan(frame, "monsterhighway", index=alike)
    assert [(i.id, i.symmetry) for i in obs.items] == [("cross", 4)] and obs.unsure == []
    assert obs.items[0].rotation < 90  # (the same reading whichever quarter)
    every_turn = CardIndex.learn([Reference("cross", SQUARE, face), Reference("other", SQUARE, other)])
    obs = scan(frame, "monsterhighway", index=every_turn)
    assert [(i.id, i.rotation) for i in obs.items] == [("cross", 90.0)] and obs.unsure == []
    paste(pic, np.full((50, 80, 3), (200, 60, 40), np.uint8), (516, 370), 0, (18, 10), table)  # a second piece
    frame, _ = view(table, pic)
    obs = scan(frame, "monsterhighway", index=every_turn)
    assert obs.items == [] and [u.id for u in obs.unsure] == ["cross"]


def test_a_rectangle_counts_at_most_half_turns_as_one():
    rng = np.random.default_rng(2)
    index = CardIndex.learn([Reference("c", RECT, random_face(rng, RECT), turns=4),
                             Reference("t", SQUARE, random_face(rng, SQUARE), turns=2)])
    assert set(index.classes[identify.size_key(RECT)].entry_sym.tolist()) == {2}
    assert set(index.classes[identify.size_key(SQUARE)].entry_sym.tolist()) == {2}


@pytest.mark.parametrize("turns", [3, 0, True])
def test_turns_other_than_1_2_or_4_are_refused(turns):
    with pytest.raises(identify.IndexError_, match="turns must be 1, 2 or 4"):
        CardIndex.learn([Reference("t", SQUARE, random_face(np.random.default_rng(3), SQUARE), turns=turns)])


def test_the_catalogs_turns_reach_the_index_and_its_digest(monkeypatch):
    from vision.pack import proxy_pack

    pack = proxy_pack("monsterhighway")
    turns = {r.id: r.turns for r in identify.references_from_pack(pack) if r.id.startswith(("road-", "ground"))}
    assert turns == {"road-straight": 2, "road-curve": 1, "road-tee": 1, "road-cross": 4, "ground-zero": 4}
    before = identify.pack_digest(pack)
    facts = identify._catalog_facts("monsterhighway")
    monkeypatch.setattr(identify, "_catalog_facts", lambda game: {**facts, "road-cross": ("road tile", 1)})
    assert identify.pack_digest(pack) != before  # a catalog that changes them is learned afresh


def test_a_sleeves_sheen_is_read_past_with_the_lightness_flattened():
    """A glossy sleeve's sheen (the renderer's: +12 % towards white in a band along a diagonal,
    about a third of the card) lowers the whole-face correlation of the proxy tiles' flat colours
    to 0.79-0.91. Read with the lightness flattened (identify(flat=True)), crop and templates
    alike, the same tiles read 0.93-0.96, the same card at the same turn; bare tiles read the same
    either way."""
    from vision.identify import index_for_pack
    from vision.pack import proxy_pack
    from vision.synth import Camera, Placement, Scene, render_scene

    pack = proxy_pack("monsterhighway")
    index = index_for_pack(pack)
    ids = ["road-curve", "road-straight", "road-tee", "road-cross", "swap", "re-roll", "remove", "ground-zero"]
    for sleeve in (False, True):
        placed = tuple(Placement(cid, (200.0 + 80 * k, 300.0), 90.0 * (k % 4), sleeve=sleeve)
                       for k, cid in enumerate(ids))
        scene = Scene(placements=placed, pack=pack, background="wood",
                      camera=Camera(view_deg=4, light=0.2, noise=2, blur=0.6))
        frame, _ = render_scene(scene, seed=5)
        to_image = calibrate(frame).homography
        for p in placed:
            plain = index.identify(frame, to_image, p.center_mm, 0.0, SQUARE)
            flat = index.identify(frame, to_image, p.center_mm, 0.0, SQUARE, flat=True)
            for m in (plain, flat):
                period = 360 / m.symmetry
                assert m.id == p.card_id and abs((m.rotation - p.rotation) % period) < 1e-6, (sleeve, p, m)
            assert flat.status == "sure" and flat.score > 0.9, (sleeve, p.card_id, flat.score)
            if sleeve:
                assert flat.score > plain.score + 0.03, (p.card_id, plain.score, flat.score)
