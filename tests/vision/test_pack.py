"""Deck packs: loading checks everything and names the culprit; writing and caching round-trip."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from vision import pack as packmod
from vision.errors import PackError, VisionError
from vision.pack import Pack, load_pack, proxy_pack, write_pack

FAKE_ITEMS = [
    {"id": "c1", "kind": "highway card", "count": 1, "size_mm": [63, 88], "miles": 1},
    {"id": "c2", "kind": "highway card", "count": 2, "size_mm": [63, 88], "miles": 2},
    {"id": "L1", "kind": "landmark", "count": 1, "size_mm": [50, 50], "points": 3},
]


@pytest.fixture
def fake_catalog(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    monkeypatch.setattr(packmod, "catalog_items", lambda game: [dict(i) for i in FAKE_ITEMS])
    return FAKE_ITEMS


def face(color: tuple[int, int, int] = (10, 200, 30)) -> np.ndarray:
    img = np.zeros((88, 63, 3), np.uint8)
    img[:] = color
    return img


def make_pack(root: Path, doc: dict, files: tuple[str, ...] = ("faces/a.png",)) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for f in files:
        (root / f).parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(root / f), face())
    (root / "pack.json").write_text(json.dumps(doc))
    return root


def good_doc() -> dict:
    return {"game": "bigsur", "card_size_mm": [63, 88], "cards": [{"id": "c1", "faces": ["faces/a.png"]}]}


def test_a_minimal_pack_loads(tmp_path: Path, fake_catalog: list) -> None:
    p = load_pack(make_pack(tmp_path / "p", good_doc()))
    assert p.game == "bigsur" and p.card_size_mm == (63.0, 88.0) and p.kind == "owner"
    assert p.ids == ("c1",) and p.size_of("c1") == (63.0, 88.0)
    [(cid, img)] = list(p.face_images())
    assert cid == "c1" and img.shape == (88, 63, 3) and img.dtype == np.uint8


def test_per_card_size_override(tmp_path: Path, fake_catalog: list) -> None:
    doc = good_doc()
    doc["cards"].append({"id": "L1", "faces": ["faces/a.png"], "size_mm": [50, 50]})
    p = load_pack(make_pack(tmp_path / "p", doc))
    assert p.size_of("L1") == (50.0, 50.0) and p.size_of("c1") == (63.0, 88.0)
    assert p.sizes_mm() == ((63.0, 88.0), (50.0, 50.0))


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.pop("game"), "'game'"),
    (lambda d: d.update(game="chess"), "'game'"),
    (lambda d: d.update(card_size_mm=[63]), "'card_size_mm'"),
    (lambda d: d.update(card_size_mm=[0, 88]), "'card_size_mm'"),
    (lambda d: d.update(card_size_mm=[63, float("inf")]), "'card_size_mm'"),
    (lambda d: d.update(card_size_mm=[True, 88]), "'card_size_mm'"),
    (lambda d: d.update(cards=[]), "'cards'"),
    (lambda d: d.update(kind="borrowed"), "'kind'"),
    (lambda d: d.update(version=2), "'version'"),
    (lambda d: d["cards"].append({"id": "c1", "faces": ["faces/a.png"]}), "duplicate id 'c1'"),
    (lambda d: d["cards"].append({"id": "nope", "faces": ["faces/a.png"]}), "not in the bigsur catalog"),
    (lambda d: d["cards"][0].update(faces=[]), "cards[0] (c1): field 'faces'"),
    (lambda d: d["cards"][0].update(faces=["/etc/passwd.png"]), "relative"),
    (lambda d: d["cards"][0].update(faces=["../outside.png"]), "outside the pack"),
    (lambda d: d["cards"][0].update(faces=["faces/missing.png"]), "does not exist"),
    (lambda d: d["cards"][0].update(faces=["faces/a.txt"]), "not an image"),
    (lambda d: d["cards"][0].update(colour="red"), "unknown field 'colour'"),
    (lambda d: d["cards"][0].update(id=""), "field 'id'"),
    (lambda d: d["cards"][0].update(size_mm="big"), "cards[0] (c1): field 'size_mm'"),
])
def test_every_problem_is_a_pack_error_naming_the_entry(tmp_path: Path, fake_catalog: list, change, words: str) -> None:
    doc = good_doc()
    change(doc)
    (tmp_path / "outside.png").write_bytes(b"x")
    root = make_pack(tmp_path / "p", doc)
    with pytest.raises(PackError) as err:
        load_pack(root)
    assert words in str(err.value) and "pack.json" in str(err.value)
    assert isinstance(err.value, VisionError) and isinstance(err.value, ValueError)


def test_a_symlink_out_of_the_pack_is_refused(tmp_path: Path, fake_catalog: list) -> None:
    secret = tmp_path / "secret.png"
    cv2.imwrite(str(secret), face())
    root = make_pack(tmp_path / "p", good_doc())
    os.symlink(secret, root / "faces" / "link.png")
    doc = good_doc()
    doc["cards"][0]["faces"] = ["faces/link.png"]
    (root / "pack.json").write_text(json.dumps(doc))
    with pytest.raises(PackError, match="outside the pack"):
        load_pack(root)


def test_missing_and_broken_files(tmp_path: Path) -> None:
    with pytest.raises(PackError, match=r"pack\.json not found"):
        load_pack(tmp_path)
    (tmp_path / "pack.json").write_text("{nope")
    with pytest.raises(PackError, match="not valid JSON"):
        load_pack(tmp_path)
    (tmp_path / "pack.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PackError):
        load_pack(tmp_path)


def test_an_unreadable_face_is_refused_at_load(tmp_path: Path, fake_catalog: list) -> None:
    root = make_pack(tmp_path / "p", good_doc())
    (root / "faces" / "a.png").write_bytes(b"not a png")
    with pytest.raises(PackError, match=r"cards\[0\] \(c1\): field 'faces'\[0\]: 'faces/a.png' is not a readable image"):
        load_pack(root)


def test_a_face_spoilt_after_loading_is_named_when_read(tmp_path: Path, fake_catalog: list) -> None:
    root = make_pack(tmp_path / "p", good_doc())
    p = load_pack(root)
    (root / "faces" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    with pytest.raises(PackError, match=r"a\.png: not a readable image"):
        list(p.face_images())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
card_entries = st.fixed_dictionaries(
    {"id": st.sampled_from(["c1", "c2", "L1", "zz", ""]) | json_values},
    optional={"faces": st.lists(st.sampled_from(["faces/a.png", "faces/b.png", "../x.png", "/abs.png", "a.txt"])
                                | json_values, max_size=3) | json_values,
              "size_mm": st.lists(st.floats(-5, 2000) | st.integers(-5, 2000), max_size=3) | json_values},
)
pack_docs = st.fixed_dictionaries(
    {},
    optional={"game": st.sampled_from(["bigsur", "roundabout", "nope"]) | json_values,
              "card_size_mm": st.lists(st.floats(-5, 2000) | st.integers(-5, 2000), max_size=3) | json_values,
              "cards": st.lists(card_entries | json_values, max_size=4) | json_values,
              "kind": st.sampled_from(["proxy", "owner", "x"]),
              "version": st.sampled_from([1, 2, True])},
) | json_values


@given(doc=pack_docs)
def test_any_pack_json_gives_a_pack_or_a_pack_error(tmp_path_factory: pytest.TempPathFactory, doc: object) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    (root / "faces").mkdir()
    cv2.imwrite(str(root / "faces" / "a.png"), face())
    (root / "pack.json").write_text(json.dumps(doc))
    try:
        p = load_pack(root)
    except PackError:
        return
    # Whatever loads is complete and consistent, never half-checked.
    assert isinstance(p, Pack) and p.cards
    assert len(set(p.ids)) == len(p.ids)
    for c in p.cards:
        assert c.faces and all(f.is_file() and f.resolve().is_relative_to(root.resolve()) for f in c.faces)
        w, h = p.size_of(c.id)
        assert 0 < w <= 1000 and 0 < h <= 1000


def test_write_pack_round_trips(tmp_path: Path, fake_catalog: list) -> None:
    faces = {"c1": [face((1, 2, 3)), face((4, 5, 6))], "L1": [face((7, 8, 9))]}
    p = write_pack(tmp_path / "out", "bigsur", (63, 88), faces, kind="owner", sizes_mm={"L1": (50, 50)})
    assert p.ids == ("c1", "L1") and len(p.card("c1").faces) == 2 and p.size_of("L1") == (50.0, 50.0)
    got = {(cid, tuple(img[0, 0])) for cid, img in p.face_images()}
    assert got == {("c1", (1, 2, 3)), ("c1", (4, 5, 6)), ("L1", (7, 8, 9))}
    assert load_pack(tmp_path / "out") == p


def test_write_pack_refuses_bad_faces_and_games(tmp_path: Path, fake_catalog: list) -> None:
    with pytest.raises(PackError, match="BGR uint8"):
        write_pack(tmp_path / "a", "bigsur", (63, 88), {"c1": [np.zeros((5, 5), np.uint8)]})
    with pytest.raises(PackError, match="unknown game"):
        write_pack(tmp_path / "b", "chess", (63, 88), {"c1": [face()]})
    assert not (tmp_path / "a" / "pack.json").exists()


def test_ids_with_odd_characters_get_safe_distinct_file_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packmod, "catalog_items", lambda game: None)  # as if no engine is installed
    p = write_pack(tmp_path / "o", "highwayman", (57, 89), {"a/b": [face()], "a b": [face((9, 9, 9))]})
    names = [c.faces[0].name for c in p.cards]
    assert len(set(names)) == 2 and all("/" not in n for n in names)


def test_digest_follows_the_face_bytes(tmp_path: Path, fake_catalog: list) -> None:
    p = write_pack(tmp_path / "o", "bigsur", (63, 88), {"c1": [face()]})
    before = p.digest()
    cv2.imwrite(str(p.card("c1").faces[0]), face((0, 0, 255)))
    assert load_pack(tmp_path / "o").digest() != before


def test_proxy_pack_renders_once_then_comes_from_the_cache(tmp_path: Path, fake_catalog: list,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.proxy as proxy

    calls = []
    real = proxy.render_face

    def counting(game: str, item: dict, px_per_mm: float = 12) -> np.ndarray:
        calls.append(item["id"])
        return real(game, item, 4)

    monkeypatch.setattr(proxy, "render_face", counting)
    p = proxy_pack("bigsur", cache_dir=tmp_path)
    assert p.kind == "proxy" and set(p.ids) == {"c1", "c2", "L1"} and p.size_of("L1") == (50.0, 50.0)
    assert p.root.parent == tmp_path / "packs" and p.root.name.startswith("bigsur-proxy-")
    assert sorted(calls) == ["L1", "c1", "c2"]
    again = proxy_pack("bigsur", cache_dir=tmp_path)
    assert again == p and len(calls) == 3
    assert [x.name for x in (tmp_path / "packs").iterdir()] == [p.root.name]  # no leftovers


def test_proxy_pack_hash_follows_the_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items = [dict(i) for i in FAKE_ITEMS]
    monkeypatch.setattr(packmod, "catalog_items", lambda game: items)
    first = proxy_pack("bigsur", cache_dir=tmp_path).root
    items[0] = {**items[0], "miles": 3}
    assert proxy_pack("bigsur", cache_dir=tmp_path).root != first


def test_proxy_pack_without_an_engine_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packmod, "catalog_items", lambda game: None)
    with pytest.raises(PackError, match="not installed"):
        proxy_pack("highwayman", cache_dir=tmp_path)


def mutations() -> st.SearchStrategy:
    """A valid pack.json with one to three random edits: most fail, some still load."""
    paths = st.sampled_from([("game",), ("card_size_mm",), ("card_size_mm", 0), ("cards",), ("cards", 0),
                             ("cards", 0, "id"), ("cards", 0, "faces"), ("cards", 0, "faces", 0),
                             ("cards", 0, "size_mm"), ("kind",), ("version",), ("cards", 1)])
    return st.lists(st.tuples(paths, st.booleans(), json_values | st.sampled_from(
        ["c2", "L1", "faces/a.png", "faces/b.png", [50, 50], [63, 88], "proxy", 1])), min_size=1, max_size=3)


@given(edits=mutations())
def test_edited_packs_load_whole_or_fail_cleanly(tmp_path_factory: pytest.TempPathFactory, edits: list) -> None:
    root = tmp_path_factory.mktemp("edit")
    (root / "faces").mkdir()
    for name in ("a.png", "b.png"):
        cv2.imwrite(str(root / "faces" / name), face())
    doc: dict = {"game": "bigsur", "card_size_mm": [63, 88], "kind": "owner", "version": 1,
                 "cards": [{"id": "c1", "faces": ["faces/a.png"]}, {"id": "L1", "faces": ["faces/b.png"], "size_mm": [50, 50]}]}
    for path, delete, value in edits:
        node: object = doc
        for key in path[:-1]:
            try:
                node = node[key]  # type: ignore[index]
            except (KeyError, IndexError, TypeError):
                break
        else:
            try:
                if delete:
                    del node[path[-1]]  # type: ignore[attr-defined]
                else:
                    # a copy: sampled_from hands out one list object, and setting it inside
                    # itself ([63, 88] then its item 0) made a doc json cannot write
                    node[path[-1]] = copy.deepcopy(value)  # type: ignore[index]
            except (KeyError, IndexError, TypeError):
                pass
    (root / "pack.json").write_text(json.dumps(doc))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(packmod, "catalog_items", lambda game: [dict(i) for i in FAKE_ITEMS])
        try:
            p = load_pack(root)
        except PackError:
            event("refused")
            return
    event("loaded")
    assert p.cards and all(c.faces for c in p.cards) and len(set(p.ids)) == len(p.ids)
    assert set(p.ids) <= {"c1", "c2", "L1"}
    assert [img.shape for _, img in p.face_images()]


def test_the_recognisers_caches_keep_only_their_newest_entries() -> None:
    """The in-memory caches (indexes, digests) let go of their oldest entries, and letting go
    does not raise when another scan on another thread let go of the same entry first."""
    from vision.kept import trim as _trim

    kept = {k: k for k in "abcdef"}
    _trim(kept, 4)
    assert list(kept) == ["c", "d", "e", "f"]
    _trim(kept, 4)  # nothing to do
    assert list(kept) == ["c", "d", "e", "f"]
    _trim(kept, 0)
    assert kept == {}
