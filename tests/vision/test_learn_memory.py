"""Learning a pack holds one print-resolution face at a time, and learns the same index as before."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from tests.vision.test_detect import random_face
from vision import identify
from vision.identify import CardIndex, Reference

RECT = (63.0, 88.0)
LANDSCAPE = (88.0, 63.0)
SQUARE = (50.0, 50.0)


def faces(n: int = 9) -> list[Reference]:
    rng = np.random.default_rng(7)
    sizes = [RECT, SQUARE, LANDSCAPE]  # size classes interleaved, as a pack may list them
    return [Reference(f"c{k}", sizes[k % 3], random_face(rng, sizes[k % 3])) for k in range(n)]


def arrays(index: CardIndex) -> dict[str, np.ndarray]:
    out = {}
    for key, sc in index.classes.items():
        out[f"{key} ids"] = np.array(sc.entry_id)
        for name in ("entry_rot", "entry_sym", "fine", "desc", "desc_entry", "twins"):
            out[f"{key} {name}"] = getattr(sc, name)
    return out


def test_learning_lets_go_of_each_face_before_reading_the_next():
    refs = faces()
    shapes = [r.face.shape for r in refs]
    alive: list[weakref.ref] = []

    def one_at_a_time():
        for k, shape in enumerate(shapes):
            gc.collect()
            held = [w for w in alive if w() is not None]
            assert not held, f"{len(held)} earlier faces still held when face {k} is read"
            face = refs[k].face.copy()  # a fresh picture, as if just read from its file
            assert face.shape == shape
            alive.append(weakref.ref(face))
            yield Reference(refs[k].id, refs[k].size_mm, face, refs[k].kind)
            del face

    CardIndex.learn(one_at_a_time())
    assert len(alive) == len(refs)


def test_a_generator_learns_exactly_what_a_list_learns():
    refs = faces()
    from_list = arrays(CardIndex.learn(list(refs)))
    from_generator = arrays(CardIndex.learn(r for r in refs))
    assert from_list.keys() == from_generator.keys()
    for name, a in from_list.items():
        b = from_generator[name]
        assert a.dtype == b.dtype and np.array_equal(a, b), name


def test_iter_references_reads_the_faces_references_from_pack_reads(tmp_path):
    from vision.pack import catalog_items, write_pack

    ids = [str(item["id"]) for item in catalog_items("bigsur") or []][:2]
    refs = faces(2)
    pack = write_pack(tmp_path / "pack", "bigsur", RECT, {i: [r.face] for i, r in zip(ids, refs, strict=True)})
    listed = identify.references_from_pack(pack)
    lazy = identify.iter_references(pack)
    assert not isinstance(lazy, list)
    for a, b in zip(listed, lazy, strict=True):
        assert (a.id, a.size_mm, a.kind) == (b.id, b.size_mm, b.kind) and np.array_equal(a.face, b.face)


def test_an_empty_pack_is_still_refused():
    with pytest.raises(identify.IndexError_, match="no card faces"):
        CardIndex.learn(iter(()))
