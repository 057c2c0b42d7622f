"""Proxy faces: every catalog item of every installed engine renders at its physical size, each
design looks different from every other (for players and for an appearance-only recogniser),
and nothing a catalog may add makes rendering crash."""

from __future__ import annotations

import importlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from rules import registry
from vision.errors import PackError
from vision.pdf import page_sizes_mm
from vision.proxy import generic, render_face
from vision.proxy.printing import cards_pdf, print_plan

PX = 4.0  # low resolution keeps the all-items sweep quick; the layout is resolution independent


def installed() -> list[str]:
    out = []
    for g in registry.available():
        if hasattr(importlib.import_module(f"rules.{g}"), "catalog_items"):
            out.append(g)
    return out


def items_of(game: str) -> list[dict]:
    return importlib.import_module(f"rules.{game}").catalog_items()


@pytest.mark.parametrize("game", installed())
def test_every_item_renders_at_its_size_with_its_own_design(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    used_generic: list[str] = []
    real = generic.render_generic
    import vision.proxy as proxy

    def spy(item: dict, px: float) -> np.ndarray:
        used_generic.append(item["id"])
        return real(item, px)

    monkeypatch.setattr(proxy, "render_generic", spy)
    for item in items_of(game):
        face = render_face(game, item, PX)
        w, h = item["size_mm"]
        assert face.shape == (round(h * PX), round(w * PX), 3) and face.dtype == np.uint8, item["id"]
    # Every kind in the shipped catalogs has a game design, not the generic fallback.
    assert used_generic == []


def thumb(img: np.ndarray) -> np.ndarray:
    return cv2.resize(img, (16, 16), interpolation=cv2.INTER_AREA).astype(np.float32)


@pytest.mark.parametrize("game", installed())
def test_faces_are_pairwise_distinct(game: str) -> None:
    """Coarse 16x16 thumbnails of any two designs differ clearly: no two designs share a look."""
    items = items_of(game)
    thumbs = {it["id"]: thumb(render_face(game, it, PX)) for it in items}
    ids = list(thumbs)
    worst = min((float(np.abs(thumbs[a] - thumbs[b]).mean()), a, b) for i, a in enumerate(ids) for b in ids[i + 1:])
    assert worst[0] > 4.0, worst


@pytest.mark.parametrize("game", installed())
def test_square_faces_look_different_when_turned(game: str) -> None:
    """A square tile must not look the same after a quarter turn, or its rotation is unknowable."""
    for item in items_of(game):
        w, h = item["size_mm"]
        if w != h:
            continue
        t = thumb(render_face(game, item, PX))
        for k in (1, 2, 3):
            assert float(np.abs(np.rot90(t, k) - t).mean()) > 2.0, (item["id"], k)


@pytest.mark.parametrize("game", ["bigsur", "roundabout", "monsterhighway", "highwayman", "highwaysbyways", "chess"])
def test_unknown_kinds_and_attributes_never_crash(game: str) -> None:
    item = {"id": "odd-1", "kind": "mystery", "count": 1, "size_mm": [60, 90], "colour": None,
            "nested": {"a": [1, {"b": 2.5}]}, "flag": True, "text": "x" * 400}
    assert render_face(game, item, PX).shape == (360, 240, 3)
    known = {"bigsur": "highway card", "roundabout": "roundabout card", "monsterhighway": "road tile",
             "highwayman": "route card", "highwaysbyways": "construction card"}
    if game in known:
        bare = {"id": "bare", "kind": known[game], "count": 1, "size_mm": [50, 50]}
        assert render_face(game, bare, PX).shape == (200, 200, 3)


@pytest.mark.parametrize("item", [{"kind": "x", "size_mm": [5, 5]}, {"id": "a", "size_mm": [0, 5]},
                                  {"id": "a", "size_mm": "big"}, {"id": "a"}, "not a dict"])
def test_bad_items_are_pack_errors(item: object) -> None:
    with pytest.raises(PackError):
        render_face("bigsur", item, PX)  # type: ignore[arg-type]


def test_bigsur_print_plan_pairs_sides() -> None:
    if "bigsur" not in installed():
        pytest.skip("Big Sur engine not installed")
    items = items_of("bigsur")
    plan = print_plan("bigsur", items)
    kinds = {it["id"]: it["kind"] for it in items}
    highway = [(f, b) for f, b in plan if kinds[f] == "highway card"]
    starters = [(f, b) for f, b in plan if kinds[f] == "starter side"]
    assert len(highway) == 90 and all(b is not None and kinds[b] == "material side" for _, b in highway)
    assert len(starters) == 7 and all(b is not None and kinds[b] == "starter side" for _, b in starters)
    # The material sides printed on backs are exactly the catalog's counts.
    counts = {it["id"]: it["count"] for it in items if it["kind"] == "material side"}
    backs = [b for _, b in highway]
    assert {m: backs.count(m) for m in counts} == counts


def test_print_and_play_pdf_is_true_scale(tmp_path: Path) -> None:
    game = "highwayman" if "highwayman" in installed() else (installed() or [None])[0]
    if game is None:
        pytest.skip("no engine installed")
    items = items_of(game)
    path, pieces, pages = cards_pdf(game, tmp_path / "c.pdf", items, dpi=100)
    assert pieces == sum(it["count"] for it in items)
    sizes = page_sizes_mm(path)
    assert len(sizes) == pages and all(abs(w - 210) < 0.3 and abs(h - 297) < 0.3 for w, h in sizes)


def test_card_on_the_printed_page_measures_its_size() -> None:
    from vision.proxy.printing import _page

    dpi = 150
    face = np.zeros((100, 70, 3), np.uint8)  # a black card on a white page
    page = np.array(_page("t", (63.0, 88.0), [face], mirrored=False, dpi=dpi).convert("L"))
    # The biggest black blob is the card (cut marks and the ruler are thin): measure its box.
    mask = (page < 40).astype(np.uint8)
    stats = cv2.connectedComponentsWithStats(mask)[2]
    big = int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) + 1
    w_px, h_px = stats[big, cv2.CC_STAT_WIDTH], stats[big, cv2.CC_STAT_HEIGHT]
    assert w_px / dpi * 25.4 == pytest.approx(63, abs=0.3) and h_px / dpi * 25.4 == pytest.approx(88, abs=0.3)
