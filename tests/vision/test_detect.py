"""Detection on rendered tables with known truth, including cards laid edge to edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.calibration import ARUCO_DICTIONARY, calibrate, marker_table_corners
from vision.detect import LIGHTNESS, _completed, _distance, _flush_cells, find, outlined
from vision.observation import TableSpec

TEX = 2  # px per mm of the flat table picture the camera view is warped from


def random_face(rng: np.random.Generator, size_mm=(63, 88), px_per_mm=6) -> np.ndarray:
    """A distinct made-up card face: a coloured field, blobs and stripes, a pale border."""
    w, h = round(size_mm[0] * px_per_mm), round(size_mm[1] * px_per_mm)
    face = np.empty((h, w, 3), np.uint8)
    face[:] = rng.integers(40, 220, 3)
    for _ in range(7):
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        cv2.circle(face, c, int(rng.integers(w // 10, w // 3)), rng.integers(0, 255, 3).tolist(), -1)
    for _ in range(5):
        y = int(rng.integers(0, h))
        cv2.rectangle(face, (int(rng.integers(0, w // 2)), y), (int(rng.integers(w // 2, w)), y + h // 30),
                      rng.integers(0, 255, 3).tolist(), -1)
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), (235, 235, 235), max(2, w // 40))
    return face


def table_picture(table: TableSpec, rng: np.random.Generator, cloth=(60, 110, 40)) -> np.ndarray:
    m = table.marker_mm
    w, h = round((table.width_mm + 2 * m) * TEX), round((table.height_mm + 2 * m) * TEX)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = cloth
    noise = rng.normal(0, 6, (h // 4, w // 4, 1))
    img = np.clip(img + cv2.resize(noise, (w, h))[:, :, None], 0, 255).astype(np.uint8)
    d = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    for i in range(4):
        side = round(m * TEX)
        x0, y0 = ((marker_table_corners(i, table)[0] + m) * TEX).round().astype(int)
        q = side // 4
        img[y0 - q:y0 + side + q, x0 - q:x0 + side + q] = 255
        img[y0:y0 + side, x0:x0 + side] = cv2.aruco.generateImageMarker(d, i, side, borderBits=1)[:, :, None]
    return img


def paste(img: np.ndarray, face: np.ndarray, center_mm, rotation_cw: float, size_mm, table: TableSpec) -> None:
    """Lay a face on the flat table picture: centre in table mm, turned clockwise."""
    m = table.marker_mm
    fh, fw = face.shape[:2]
    w, h = size_mm[0] * TEX, size_mm[1] * TEX
    a = np.radians(rotation_cw)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    c = (np.array(center_mm) + m) * TEX
    dst = np.float32([c - right * w / 2 - down * h / 2, c + right * w / 2 - down * h / 2,
                      c - right * w / 2 + down * h / 2])
    src = np.float32([[0, 0], [fw, 0], [0, fh]])
    aff = cv2.getAffineTransform(src, dst)
    warped = cv2.warpAffine(face, aff, (img.shape[1], img.shape[0]), flags=cv2.INTER_AREA)
    cover = cv2.warpAffine(np.full((fh, fw), 255, np.uint8), aff, (img.shape[1], img.shape[0]))
    img[cover > 128] = warped[cover > 128]


def view(table: TableSpec, picture: np.ndarray, size=(2304, 1296), skew=True) -> tuple[np.ndarray, np.ndarray]:
    """The camera's picture of the table and the true table-mm -> image-px homography."""
    W, H = table.width_mm, table.height_mm
    src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    dst = np.float32([[420, 150], [1880, 175], [1930, 1150], [380, 1120]] if skew else
                     [[400, 150], [1900, 150], [1900, 1200], [400, 1200]])
    mm_to_px = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    m = table.marker_mm
    tex_to_mm = np.array([[1 / TEX, 0, -m], [0, 1 / TEX, -m], [0, 0, 1]])
    frame = cv2.warpPerspective(picture, mm_to_px @ tex_to_mm, size, flags=cv2.INTER_LINEAR,
                                borderValue=(70, 70, 70))
    return frame, mm_to_px


def row(start_mm, n, size_mm, rotation, gap=0.0):
    """Centres of n cards laid edge to edge, starting at start_mm, along the card's "right"."""
    a = np.radians(rotation)
    right = np.array([np.cos(a), np.sin(a)])
    return [tuple(np.array(start_mm) + right * k * (size_mm[0] + gap)) for k in range(n)]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("rotation", [0, 90, 7])
def test_edge_to_edge_row_is_split_into_its_cards(n, rotation):
    rng = np.random.default_rng(n * 100 + rotation)
    table = TableSpec()
    pic = table_picture(table, rng)
    centres = row((250, 300) if rotation != 90 else (600, 150), n, (63, 88), rotation, gap=rng.uniform(0, 1.5))
    for c in centres:
        paste(pic, random_face(rng), c, rotation, (63, 88), table)
    frame, _ = view(table, pic)
    cal = calibrate(frame, table)
    det = find(frame, cal, [(63.0, 88.0), (50.0, 50.0)])
    assert len(det.candidates) == n, det
    assert not det.blobs
    for want in centres:
        got = min(det.candidates, key=lambda c: np.hypot(c.center_mm[0] - want[0], c.center_mm[1] - want[1]))
        assert np.hypot(got.center_mm[0] - want[0], got.center_mm[1] - want[1]) < 6
        assert got.size_key == (63.0, 88.0)
        assert abs((got.angle_deg - rotation + 90) % 180 - 90) < 3


def test_a_grid_with_a_hole_is_split_into_square_tiles():
    rng = np.random.default_rng(5)
    table = TableSpec()
    pic = table_picture(table, rng)
    cells = [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2)]
    for i, j in cells:
        paste(pic, random_face(rng, (70, 70)), (400 + 70 * i, 200 + 70 * j), 0, (70, 70), table)
    frame, _ = view(table, pic)
    det = find(frame, calibrate(frame, table), [(70.0, 70.0)])
    got = sorted((round((c.center_mm[0] - 400) / 70), round((c.center_mm[1] - 200) / 70)) for c in det.candidates)
    assert got == sorted(cells)


def test_odd_things_are_blobs_and_small_things_are_pieces():
    rng = np.random.default_rng(9)
    table = TableSpec()
    pic = table_picture(table, rng)
    m = table.marker_mm
    cv2.circle(pic, (round((500 + m) * TEX), round((350 + m) * TEX)), 50 * TEX, (30, 30, 160), -1)  # a coaster
    cv2.rectangle(pic, (round((200 + m) * TEX), round((500 + m) * TEX)), (round((215 + m) * TEX), round((525 + m) * TEX)),
                  (200, 60, 20), -1)  # a blue car
    paste(pic, random_face(rng), (800, 200), 0, (63, 88), table)
    frame, _ = view(table, pic)
    det = find(frame, calibrate(frame, table), [(63.0, 88.0)])
    # the coaster is no grid of cards: any cells guessed on it are marked loose (only a sure
    # identification would make them cards) and it stays an unexplained blob
    firm = [c for c in det.candidates if not det.regions[c.region].loose]
    assert len(firm) == 1 and firm[0].center_mm == pytest.approx((800, 200), abs=3)
    assert len(det.blobs) == 1 and np.hypot(det.blobs[0].center_mm[0] - 500, det.blobs[0].center_mm[1] - 350) < 5
    assert len(det.pieces) == 1
    car = det.pieces[0]
    assert np.hypot(car.center_mm[0] - 207.5, car.center_mm[1] - 512.5) < 4
    assert car.colour_bgr[0] > 150 and car.colour_bgr[2] < 80


def test_a_thin_strip_is_no_playing_piece():
    """A strip as strong as a car but 3 mm wide (the table's edge against the floor, a line of a
    card's print cut off) is no piece; a car beside it still is."""
    rng = np.random.default_rng(10)
    table = TableSpec()
    pic = table_picture(table, rng)
    m = table.marker_mm
    cv2.rectangle(pic, (round((300 + m) * TEX), round((600 + m) * TEX)), (round((420 + m) * TEX), round((603 + m) * TEX)),
                  (20, 120, 230), -1)  # an orange strip 120 x 3 mm
    cv2.rectangle(pic, (round((600 + m) * TEX), round((500 + m) * TEX)), (round((622 + m) * TEX), round((511 + m) * TEX)),
                  (20, 120, 230), -1)  # an orange car 22 x 11 mm
    frame, _ = view(table, pic)
    det = find(frame, calibrate(frame, table), [(63.0, 88.0)])
    assert [tuple(round(v / 5) * 5 for v in p.center_mm) for p in det.pieces] == [(610, 505)]


def test_a_block_cut_off_by_the_views_border_is_no_playing_piece():
    """Past the play area's edge is the floor or the room: a block of colour the border cuts off
    is no piece; a car inside is."""
    rng = np.random.default_rng(11)
    table = TableSpec()
    pic = table_picture(table, rng)
    m = table.marker_mm
    for x0, y0 in ((-8, 300), (600, 500)):  # the first half past the left edge
        cv2.rectangle(pic, (round((x0 + m) * TEX), round((y0 + m) * TEX)),
                      (round((x0 + 22 + m) * TEX), round((y0 + 11 + m) * TEX)), (20, 120, 230), -1)
    frame, _ = view(table, pic)
    det = find(frame, calibrate(frame, table), [(63.0, 88.0)])
    assert [tuple(round(v / 5) * 5 for v in p.center_mm) for p in det.pieces] == [(610, 505)]


def test_empty_table_has_nothing():
    rng = np.random.default_rng(3)
    table = TableSpec()
    frame, _ = view(table, table_picture(table, rng))
    det = find(frame, calibrate(frame, table), [(63.0, 88.0)])
    assert det.candidates == [] and det.blobs == [] and det.pieces == []


def test_a_hand_touching_a_row_still_leaves_card_cells_where_the_cards_are():
    """A hand (or a dark shadow) joined to a row makes a region no grid of cards explains; cells
    of the true card size anchored on the row's straight sides still land on the cards."""
    from vision.detect import _cells, _loose_fits

    comp = np.zeros((400, 520), np.uint8)
    row = [(40 + 63 * k + 31.5, 150 + 44) for k in range(4)]
    cv2.rectangle(comp, (40, 150), (40 + 4 * 63 - 1, 150 + 88 - 1), 255, -1)
    cv2.ellipse(comp, (330, 230), (120, 45), 35, 0, 360, 255, -1)  # the hand over the last card
    splits = [_cells(g, fr, 1, 1.0) for g, fr in _loose_fits(comp, 0, 0, [(63.0, 88.0)], 1.0)]
    assert splits
    # some split puts a cell on each of the three cards the hand leaves uncovered, square to them
    hits = [sp for sp in splits
            if all(any(np.hypot(c.center_mm[0] - x, c.center_mm[1] - y) < 4 for c in sp) for x, y in row[:3])]
    assert hits and all(abs(c.angle_deg) < 2 for c in hits[0])


def _row_and_its_edges(seed, n, size_mm, gap):
    """A row of n random faces of `size_mm` from (300, 300) mm, `gap` mm apart, photographed:
    their centres and the rectified view's edges (detect.edge_maps)."""
    from vision.detect import edge_maps, rectify

    rng = np.random.default_rng(seed)
    table = TableSpec()
    pic = table_picture(table, rng)
    centres = row((300, 300), n, size_mm, 0, gap=gap)
    for c in centres:
        paste(pic, random_face(rng), c, 0, size_mm, table)
    frame, _ = view(table, pic)
    return centres, edge_maps(rectify(frame, calibrate(frame, table)))


@pytest.mark.parametrize("offset", [(14, 0), (0, -15), (-11, 12)])
def test_a_cell_off_its_card_is_moved_onto_the_card_edges(offset):
    """A cell the outline put beside its card (gaps add up along a hand-laid row) moves onto the
    card's edges before the recogniser looks at it, and stays where it is when it already fits."""
    from vision.detect import Candidate, snap_cell

    centres, edges = _row_and_its_edges(11, 3, (63, 88), 0.5)
    want = centres[1]
    off = Candidate((want[0] + offset[0], want[1] + offset[1]), 0.0, (63.0, 88.0), 1)
    got = snap_cell(off, edges)
    assert np.hypot(got.center_mm[0] - want[0], got.center_mm[1] - want[1]) < 2.5, got
    assert got.unsnapped == off
    on = snap_cell(Candidate(want, 0.0, (63.0, 88.0), 1), edges)
    assert np.hypot(on.center_mm[0] - want[0], on.center_mm[1] - want[1]) < 2.5


def test_where_a_cell_is_moved_does_not_depend_on_cells_of_another_size_elsewhere():
    """Cells are searched together, each in steps set by the reach of those searched with it: a
    phone's 63 x 88 mm cells across the table moved a board's 50 mm tiles by a px or two (bench
    seed 1, proxy Monster Highway 24, where a tile under a car then read otherwise). Each size
    is searched with its own alone."""
    from vision.detect import Candidate, snap_cells

    tiles, edges = _row_and_its_edges(5, 4, (50, 50), 0.3)
    # each a few mm off its tile, by an amount that falls between the steps of a wider search
    cells = [Candidate((x + 2.7 + k, y - 3.3 + 0.6 * k), 0.0, (50.0, 50.0), 1) for k, (x, y) in enumerate(tiles)]
    alone = snap_cells(cells, edges)
    beside = snap_cells([*cells, Candidate((750.0, 400.0), 20.0, (63.0, 88.0), 2)], edges)
    assert [c.center_mm for c in beside[:len(cells)]] == [c.center_mm for c in alone]
    assert all(np.hypot(c.center_mm[0] - x, c.center_mm[1] - y) < 2.5 for c, (x, y) in zip(alone, tiles, strict=True))


def test_a_lattice_is_laid_on_the_edges_the_picture_shows():
    """Lines 50 px apart whose strongest edges start 17 px in: the lattice's first line is put at
    17 - 50 (at or before 0); a profile with no edges gives no lattice."""
    from vision.detect import _lattice_phase

    profile = np.full(260, 10.0)
    profile[17::50] = 100.0
    assert _lattice_phase(profile, 50.0) == pytest.approx(17 - 50)
    assert _lattice_phase(np.full(260, 10.0), 50.0) is None


def test_a_lattice_takes_both_sides_of_a_card_over_one_stronger_line_inside_it():
    """A region one card (88 px) and a bit wide: the card's sides at 15 and 103 px, a print line
    across its middle at 57 px stronger than either side. The lattice lies on the two sides
    (a lattice through the middle would cut the card in two)."""
    from vision.detect import _lattice_phase

    profile = np.full(141, 8.0)
    profile[15], profile[103], profile[57] = 60.0, 55.0, 85.0
    assert _lattice_phase(profile, 88.0) == pytest.approx(15 - 88)


def test_tiles_whose_art_matches_the_cloth_get_cells_on_their_own_sides():
    """Tiles whose grass is the cloth's colour: the mask is a few road-shaped pieces whose
    outline bounds no tile, but the tiles' sides show in the picture. The lattice on those edges
    puts a cell on every tile with a road in it, which the region's corners do not."""
    from vision.detect import Edges, _cells, _loose_fits

    h, w = 300, 300
    img = np.zeros((h, w), np.float32)
    comp = np.zeros((h, w), np.uint8)
    tiles = [(23 + 50 * i, 37 + 50 * j) for i in range(4) for j in range(3)]  # top-left corners
    for x0, y0 in tiles:
        cv2.rectangle(img, (x0, y0), (x0 + 49, y0 + 49), 1.0, 1)  # the tile's thin border
    # the roads: one along each row and each column, stopping short of the outer tiles' sides
    for k in range(3):
        cv2.rectangle(comp, (23 + 10, 37 + 50 * k + 19), (223 - 6, 37 + 50 * k + 30), 255, -1)
    for k in range(4):
        cv2.rectangle(comp, (23 + 50 * k + 19, 37 + 8), (23 + 50 * k + 30, 187 - 4), 255, -1)
    across = cv2.GaussianBlur(img, (0, 0), 1.0) * 100
    edges = Edges(across, across, across, across)
    fits = _loose_fits(comp, 0, 0, [(50.0, 50.0)], 1.0, edges, edge_only=True)
    assert fits
    cells = _cells(*fits[0], 1, 1.0)
    centres = [(x0 + 24.5, y0 + 24.5) for x0, y0 in tiles]
    assert len(cells) == len(tiles)
    for cx, cy in centres:
        assert any(np.hypot(c.center_mm[0] - cx, c.center_mm[1] - cy) < 3 for c in cells), (cx, cy)


def test_a_card_the_colour_of_the_cloth_is_a_partial_cell_of_its_row():
    """A row of four whose last card is mostly the cloth's own colour (a brown card on wood, a
    forest on green felt): its mask covers the card only in part, so it is no cell of the row's
    grid, but it is offered as a partial cell where the card lies (and nowhere else)."""
    rng = np.random.default_rng(21)
    table = TableSpec()
    cloth = (60, 110, 40)
    pic = table_picture(table, rng, cloth)
    centres = row((300, 300), 4, (63, 88), 0, gap=0.5)
    for c in centres[:3]:
        paste(pic, random_face(rng), c, 0, (63, 88), table)
    face = np.empty((88 * 6, 63 * 6, 3), np.uint8)
    face[:] = cloth
    face[: 88 * 6 * 2 // 5] = (200, 180, 160)  # only the top two fifths differ from the cloth
    paste(pic, face, centres[3], 0, (63, 88), table)
    frame, _ = view(table, pic)
    det = find(frame, calibrate(frame, table), [(63.0, 88.0)])
    assert len(det.candidates) == 3
    assert len(det.partial) == 1, det.partial
    got = det.partial[0]
    assert np.hypot(got.center_mm[0] - centres[3][0], got.center_mm[1] - centres[3][1]) < 8
    assert got.region == det.candidates[0].region


def test_a_clean_row_has_no_partial_cells():
    rng = np.random.default_rng(22)
    table = TableSpec()
    pic = table_picture(table, rng)
    for c in row((300, 300), 4, (63, 88), 0):
        paste(pic, random_face(rng), c, 0, (63, 88), table)
    frame, _ = view(table, pic)
    det = find(frame, calibrate(frame, table), [(63.0, 88.0)])
    assert len(det.candidates) == 4 and det.partial == []


def test_signed_gradients_of_a_window_are_those_of_the_whole_view():
    """The signed gradients are worked out for a region's window alone: they must be exactly the
    whole view's there, at the view's borders too, or a frame would turn with the crop."""
    from vision.detect import edge_maps

    rng = np.random.default_rng(4)
    ones = np.ones((1, 3), np.float32)
    for h, w in ((120, 200), (37, 9), (5, 64)):
        top = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), (0, 0), 1.2)
        lab = cv2.cvtColor(cv2.GaussianBlur(top, (0, 0), 1.0), cv2.COLOR_BGR2LAB)
        whole = [cv2.transform(cv2.Sobel(lab, cv2.CV_32F, dx, 1 - dx, ksize=3), ones) for dx in (1, 0)]
        edges = edge_maps(top)
        for _ in range(12):
            y0, x0 = int(rng.integers(0, h)), int(rng.integers(0, w))
            y1, x1 = y0 + int(rng.integers(1, h + 1)), x0 + int(rng.integers(1, w + 1))
            for got, want in zip(edges.signed(y0, y1, x0, x1), whole, strict=True):
                assert np.array_equal(got, want[y0:y1, x0:x1]), (h, w, y0, y1, x0, x1)


def test_a_strip_one_card_wide_gives_a_card_flush_with_either_end():
    """A 61 x 45 mm region (the visible end of a 63 x 88 mm card whose rest is the cloth's
    colour): one upright card cell flush with its top, one with its bottom; no 50 mm tile (its
    sides match neither of the strip's)."""
    cells = _flush_cells(np.array([100.0, 100.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 61.0, 45.0,
                         [(50.0, 50.0), (63.0, 88.0)], 7, 1.0)
    assert sorted((round(c.center_mm[0], 1), round(c.center_mm[1], 1)) for c in cells) == [(130.5, 101.0), (130.5, 144.0)]
    assert all(c.size_key == (63.0, 88.0) and abs(c.angle_deg) < 1e-6 and c.region == 7 for c in cells)
    # turned a quarter: the strip lies across the table, the card's long side along x
    cells = _flush_cells(np.array([100.0, 100.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 45.0, 61.0,
                         [(63.0, 88.0)], 7, 1.0)
    assert sorted((round(c.center_mm[0], 1), round(c.center_mm[1], 1)) for c in cells) == [(101.0, 130.5), (144.0, 130.5)]
    assert all(abs(abs(c.angle_deg) - 90) < 1e-6 for c in cells)


def test_no_flush_cells_for_a_region_no_card_side_matches():
    assert _flush_cells(np.array([0.0, 0.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 40.0, 30.0,
                        [(50.0, 50.0), (63.0, 88.0)], 1, 1.0) == []
    # a whole card is no strip of one
    assert _flush_cells(np.array([0.0, 0.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 63.0, 88.0,
                        [(63.0, 88.0)], 1, 1.0) == []


def _fragment_in(strength: np.ndarray, x: int, y: int, w: int, h: int) -> np.ndarray:
    """The mask of the strong part of `strength` in the box (x, y, w, h), as find hands it on."""
    return (strength[y:y + h, x:x + w] > 1.0).astype(np.uint8) * 255


def test_a_fragment_of_print_is_followed_into_its_card_frame():
    """A green tile on green felt: the mask held its road (strength 1.9) and nothing of its frame,
    which differs from the cloth only weakly (0.8) and has gaps of a few mm. The fragment grows
    into the whole 50 mm tile; a fragment with nothing weaker around it stays what it was."""
    strength = np.zeros((300, 300), np.float32)
    strength[100:150, 100:150] = 0.8  # the tile's frame, 3 px wide
    strength[103:147, 103:147] = 0.0
    strength[100:104, 120:124] = 0.0  # gaps in the frame
    strength[130:134, 146:150] = 0.0
    strength[115:135, 102:148] = 1.9  # the road across it, from side to side
    comp = _fragment_in(strength, 102, 115, 46, 20)
    grown = _completed(strength, comp, 102, 115, 2500.0, 2500.0, 88.0, 1.0)
    assert grown is not None
    mask, x, y, area = grown
    assert (x, y) == (100, 100) and mask.shape == (50, 50)
    assert 0.9 * 2500 <= area <= 2500  # the frame closed and filled: the whole tile
    # nothing weaker around the road: no card to complete
    alone = np.zeros_like(strength)
    alone[115:135, 102:148] = 1.9
    assert _completed(alone, _fragment_in(alone, 102, 115, 46, 20), 102, 115, 2500.0, 2500.0, 88.0, 1.0) is None


def test_a_fragment_of_a_big_card_is_followed_past_shading_beside_it():
    """A 63 x 88 card whose body differs from the cloth weakly (0.8) with its icon in the mask
    (1.2), and a pool of the cloth's shading (0.6) 3 px off its side that reaches past a card's
    length: at half the threshold the card joins the pool; a little stronger it stands alone, and
    it is one card of the game's biggest size, not of its smallest."""
    strength = np.zeros((300, 300), np.float32)
    strength[:, :97] = 0.6
    strength[100:188, 100:163] = 0.8
    strength[130:150, 120:140] = 1.2
    comp = _fragment_in(strength, 120, 130, 20, 20)
    grown = _completed(strength, comp, 120, 130, 2500.0, 63.0 * 88.0, 88.0, 1.0)
    assert grown is not None
    mask, x, y, area = grown
    assert (x, y) == (100, 100) and mask.shape == (88, 63) and area == 63 * 88
    # a card the size of the smallest only: this one is too big to be one
    assert _completed(strength, comp, 120, 130, 2500.0, 2500.0, 88.0, 1.0) is None


def test_a_fragment_in_the_cloths_own_shading_is_no_card():
    """A fragment inside a wide patch of weak difference (light falling off across the cloth)
    grows past a card's length: no card is made of it, however big the patch."""
    strength = np.zeros((400, 400), np.float32)
    strength[50:350, 50:350] = 0.7  # a pool of shade 300 mm across
    strength[180:200, 180:210] = 1.9
    comp = _fragment_in(strength, 180, 180, 30, 20)
    assert _completed(strength, comp, 180, 180, 2500.0, 2500.0, 88.0, 1.0) is None
    # at the edge of the picture the window is cut short, and still nothing card-sized is made
    edge = np.zeros((120, 120), np.float32)
    edge[:, :] = 0.7
    edge[10:30, 10:40] = 1.9
    assert _completed(edge, _fragment_in(edge, 10, 10, 30, 20), 10, 10, 2500.0, 2500.0, 88.0, 1.0) is None


def _black_card() -> np.ndarray:
    """The proxy Highwayman card: near-black stock with a grey figure, a shadow's colours."""
    from vision.pack import proxy_pack

    pack = proxy_pack("highwayman")
    face = cv2.imread(str(next(c for c in pack.cards if c.id == "hm-highwayman").faces[0]))
    # without the coloured strips round its edge (a pile's cards, in the bench, break them up):
    # nothing light closes the dark body off from the cloth
    b = face.shape[1] // 30
    body = face[face.shape[0] // 2, face.shape[1] // 8].tolist()
    for sl in (np.s_[:b], np.s_[-b:], np.s_[:, :b], np.s_[:, -b:]):
        face[sl] = body
    return face


@pytest.mark.parametrize("cloth", [(108, 108, 113), (91, 58, 29)], ids=["grey", "dark blue"])
def test_a_black_card_on_a_dark_cloth_is_a_card_not_a_shadow(cloth):
    """A black card is darker than the cloth and no more colourful, as a shadow is; its sharp
    sides tell it apart (see detect._sharp_dark)."""
    rng = np.random.default_rng(21)
    table = TableSpec()
    pic = table_picture(table, rng, cloth=cloth)
    for c in ((420, 330), (560, 330)):
        paste(pic, _black_card(), c, 0, (57, 89), table)
    frame, _ = view(table, pic)
    det = find(frame, calibrate(frame, table), [(57.0, 89.0)])
    firm = [c for c in det.candidates if not det.regions[c.region].loose]
    assert sorted(round(c.center_mm[0] / 10) for c in firm) == [42, 56], det
    for c in firm:
        assert abs(c.center_mm[1] - 330) < 5


def test_a_soft_shadow_is_no_card_and_leaves_a_card_beside_it_alone():
    rng = np.random.default_rng(22)
    table = TableSpec()
    pic = table_picture(table, rng, cloth=(110, 112, 108))
    paste(pic, random_face(rng), (700, 300), 0, (63, 88), table)
    m = table.marker_mm
    shade = np.zeros(pic.shape[:2], np.float32)  # a hand's shadow from well above: 12 mm soft, dark
    cv2.ellipse(shade, (round((450 + m) * TEX), round((350 + m) * TEX)), (110 * TEX, 60 * TEX), 20, 0, 360, 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), 12 * TEX)
    pic = (pic * (1 - 0.55 * shade)[:, :, None]).astype(np.uint8)
    frame, _ = view(table, pic)
    det = find(frame, calibrate(frame, table), [(63.0, 88.0)])
    assert [tuple(round(v) for v in c.center_mm) for c in det.candidates] == [pytest.approx((700, 300), abs=4)]
    assert det.blobs == []


def test_the_cloth_distance_forgives_a_shadow_and_leaves_the_planes_it_is_given_alone():
    """foreground hands _distance the same planes at every step of its cloth model: they must
    come back as they went in."""
    lab = [np.array([[105.0, 240.0, 150.0]], np.float32), np.array([[128.0, 128.0, 150.0]], np.float32),
           np.full((1, 3), 128.0, np.float32)]  # a shadow, a white card, a change of colour
    bg = [np.full((1, 3), v, np.float32) for v in (150.0, 128.0, 128.0)]  # a grey cloth
    before = [p.copy() for p in lab + bg]
    forgiving = _distance(lab, bg)
    assert forgiving[0].tolist() == pytest.approx([0.0, LIGHTNESS**0.5 * 90.0, 22.0])
    assert _distance(lab, bg, forgive=False)[0].tolist() == pytest.approx([LIGHTNESS**0.5 * 45.0, LIGHTNESS**0.5 * 90.0, 22.0])
    assert all(np.array_equal(a, b) for a, b in zip(lab + bg, before, strict=True))


def test_what_a_cards_outline_encloses_is_found_where_its_colours_are_the_cloths():
    """A card whose body is the blue of a teal cloth's dots, its edge a thin pale frame: what the
    outline encloses is the card's whole place, and each dot only its own small round."""
    top = np.full((300, 400, 3), (190, 200, 110), np.uint8)
    blue = (130, 50, 20)
    for c in ((40, 40), (350, 60), (60, 250), (330, 250), (200, 270)):
        cv2.circle(top, c, 9, blue, -1)
    cv2.rectangle(top, (150, 100), (150 + 62, 100 + 87), (235, 235, 235), 2)
    cv2.rectangle(top, (153, 103), (150 + 59, 100 + 84), blue, -1)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(outlined(top, 1.0))
    areas = sorted(int(a) for a in stats[1:, 4])
    (card,) = [k for k in range(1, n) if stats[k, 4] > 1000]
    # (the edge round it adds a px or two each side)
    assert 63 * 88 <= int(stats[card, 4]) < 1.15 * 63 * 88, areas
    assert (labels[110:180, 160:205] == card).all()
    assert all(a < 400 for a in areas[:-1]), areas


@pytest.mark.parametrize("px_per_mm", [1.0, 2.0])
def test_the_sides_of_a_card_are_seen_as_its_outline_and_the_cloth_shows_none(px_per_mm):
    """outline_sides counts the sides of a place along which an edge runs that stands out from
    the print inside and the cloth outside: four for a card's own place, upright or turned, and
    fewer than a card's three (vision.scan.OUTLINED_SIDES) on bare cloth, where an edge as strong
    as its strongest off the side lies on it by chance."""
    from vision.detect import edge_maps, outline_sides

    rng = np.random.default_rng(3)
    s = px_per_mm
    h, w = round(300 * s), round(400 * s)
    top = np.empty((h, w, 3), np.uint8)
    top[:] = (70, 120, 60)
    # the cloth's weave and uneven dye: fine noise over soft patches
    patches = cv2.resize(rng.normal(0, 8, (h // 20, w // 20, 1)), (w, h))[:, :, None]
    weave = cv2.GaussianBlur(rng.normal(0, 4, (h, w)), (0, 0), 1.0 * s)[:, :, None]  # (through the lens)
    top = np.clip(top + patches + weave, 0, 255).astype(np.uint8)

    def lay(centre, turn):
        """A card's face laid with its centre at `centre` (mm), turned `turn` degrees: its corners (mm)."""
        face = cv2.resize(random_face(rng), (round(63 * s), round(88 * s)), interpolation=cv2.INTER_AREA)
        m = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), -turn, 1.0)
        m[:, 2] += np.array(centre) * s - np.array([face.shape[1] / 2, face.shape[0] / 2])
        laid = cv2.warpAffine(face, m, (w, h), flags=cv2.INTER_LINEAR)
        where = cv2.warpAffine(np.full(face.shape[:2], 255, np.uint8), m, (w, h), flags=cv2.INTER_NEAREST) > 0
        top[where] = laid[where]
        a = np.radians(turn)
        right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        c = np.array(centre, np.float64)
        return [c + sx * 31.5 * right + sy * 44.0 * down for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]

    upright, turned = lay((130.0, 120.0), 0.0), lay((280.0, 150.0), 30.0)
    edges = edge_maps(top)
    assert outline_sides(edges, upright, px_per_mm) == 4
    assert outline_sides(edges, turned, px_per_mm) == 4
    for centre in ((330.0, 60.0), (60.0, 250.0), (200.0, 240.0)):  # bare cloth
        cloth = [(centre[0] + dx, centre[1] + dy) for dx, dy in ((-31.5, -44), (31.5, -44), (31.5, 44), (-31.5, 44))]
        assert outline_sides(edges, cloth, px_per_mm) <= 2, centre
