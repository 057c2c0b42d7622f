"""Calibration markers: the images decode as the right ids, and the PDF prints at true scale."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import VisionError
from vision.markers import (
    ARUCO_DICTIONARY,
    CORNER_NAMES,
    MarkerError,
    _marker_page,
    dictionary,
    marker_corners_mm,
    marker_image,
    markers_pdf,
)
from vision.pdf import PrintError, page_sizes_mm


def detect(gray: np.ndarray) -> dict[int, np.ndarray]:
    det = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(gray)
    return {} if ids is None else {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel(), strict=True)}


def test_the_dictionary_is_the_design_one() -> None:
    assert ARUCO_DICTIONARY == cv2.aruco.DICT_4X4_50
    assert CORNER_NAMES == {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}


@pytest.mark.parametrize("marker_id", [0, 1, 2, 3, 49])
@pytest.mark.parametrize("side", [37, 60, 200])
def test_marker_images_decode_as_their_id(marker_id: int, side: int) -> None:
    img = marker_image(marker_id, side)
    assert img.shape == (side, side) and img.dtype == np.uint8
    assert set(np.unique(img)) <= {0, 255}
    page = np.full((side * 2, side * 2), 255, np.uint8)
    page[side // 2: side // 2 + side, side // 2: side // 2 + side] = img
    found = detect(page)
    assert list(found) == [marker_id]
    corners = found[marker_id]
    # ArUco reports the centres of the outermost black pixels.
    assert np.allclose(corners[0], (side // 2, side // 2), atol=1.0)
    assert np.allclose(corners[2], (side // 2 + side - 1, side // 2 + side - 1), atol=1.0)


def test_wider_border_still_decodes() -> None:
    img = marker_image(2, 80, border_bits=2)
    page = np.full((160, 160), 255, np.uint8)
    page[40:120, 40:120] = img
    assert list(detect(page)) == [2]


@pytest.mark.parametrize(("args", "words"), [((50, 60), "not in DICT_4X4_50"), ((-1, 60), "not in"),
                                             ((True, 60), "not in"), ((0, 5), "at least 6 pixels"),
                                             ((0, 60, 0), "border_bits")])
def test_bad_marker_requests(args: tuple, words: str) -> None:
    with pytest.raises(MarkerError, match=words):
        marker_image(*args)
    assert issubclass(MarkerError, VisionError)


def test_marker_corners_are_centred_on_the_play_area_corners() -> None:
    corners = marker_corners_mm((1000, 700), 40)
    assert np.allclose(corners[0].mean(axis=0), (0, 0)) and np.allclose(corners[2].mean(axis=0), (1000, 700))
    assert np.allclose(corners[1][0], (980, -20)) and np.allclose(corners[3][2], (20, 720))


def test_the_pdf_has_four_a4_pages(tmp_path: Path) -> None:
    out = markers_pdf(tmp_path / "m.pdf", marker_mm=40, table=(1000, 700))
    sizes = page_sizes_mm(out)
    assert len(sizes) == 4
    for w, h in sizes:
        assert abs(w - 210) < 0.2 and abs(h - 297) < 0.2


def test_the_pdf_images_fill_the_page_at_600_dpi(tmp_path: Path) -> None:
    """Page size in points and image size in pixels together fix the print scale."""
    data = markers_pdf(tmp_path / "m.pdf").read_bytes()
    widths = [int(w) for w in re.findall(rb"/Width (\d+)", data)]
    assert widths and all(abs(w / 600 * 25.4 - 210) < 0.1 for w in widths)


@pytest.mark.parametrize("marker_mm", [30, 40, 80])
def test_the_printed_marker_measures_its_size(marker_mm: float) -> None:
    dpi = 200
    page = np.array(_marker_page(1, marker_mm, (1000, 700), dpi).convert("L"))
    found = detect(page)
    assert list(found) == [1]
    c = found[1]
    side_px = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2 + 1  # + the half pixels
    assert side_px / dpi * 25.4 == pytest.approx(marker_mm, abs=0.3)


@pytest.mark.parametrize(("kwargs", "words"), [({"marker_mm": 5}, "10 to 150"), ({"marker_mm": 400}, "10 to 150"),
                                               ({"table": (50, 700)}, "does not fit"), ({"table": "big"}, "table size")])
def test_bad_pdf_requests(tmp_path: Path, kwargs: dict, words: str) -> None:
    with pytest.raises(PrintError, match=words):
        markers_pdf(tmp_path / "m.pdf", **kwargs)
    assert not (tmp_path / "m.pdf").exists()


def test_pdf_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PrintError, match="does not exist"):
        markers_pdf(tmp_path / "nope" / "m.pdf")
