"""Big Sur's stand-in catalogs: every fact the rulebook gives, validation naming file/entry/field,
the owner's override, and ``catalog_items()`` for the camera."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import CatalogError
from rules.bigsur import BigSur, catalog_items, default_catalog, load_catalog
from rules.bigsur.conditions import VOCABULARY

HERE = Path(__file__).resolve().parents[2] / "rules" / "bigsur"
CAT = default_catalog()


def test_the_box_holds_97_cards_and_14_landmark_tiles() -> None:
    """"Components: 97 Cards, 14 Landmark Tiles"; "Separate the 7 Starter cards\""""
    assert len(CAT.starters) == 7 and len(CAT.cards) == 90 and len(CAT.starters) + len(CAT.cards) == 97
    assert len(CAT.landmarks) == 14


def test_the_stand_ins_say_so_in_their_headers() -> None:
    for name in ("cards.json", "landmarks.json"):
        head = json.loads((HERE / name).read_text(encoding="utf-8"))
        assert isinstance(head["stand_in"], str) and "stand-in" in head["stand_in"].lower()


def test_highway_sides_follow_the_rulebook() -> None:
    """"Each Highway card contains a stretch of highway either 1, 2, or 3 miles long ... Cards also
    have one or two terrain types"; 1-mile cards list a material in the bottom-left corner; 2-mile
    cards have scoring conditions; every card has a cost and a Material side."""
    assert {"forest", "ocean"} <= set(CAT.terrains)
    miles = Counter(c.miles for c in CAT.cards.values())
    assert set(miles) == {1, 2, 3}
    for c in CAT.cards.values():
        assert 1 <= len(c.terrains) <= 2 and c.cost and c.material in CAT.materials
        assert (c.tableau_material is not None) == (c.miles == 1)
        assert (c.condition is not None) == (c.miles == 2)
        assert c.condition is None or c.condition.type in VOCABULARY
    assert {c.condition.type for c in CAT.cards.values() if c.condition} == set(VOCABULARY)
    # Two-terrain cards exist at every mileage (the rulebook's own example has one).
    assert {c.miles for c in CAT.cards.values() if len(c.terrains) == 2} == {1, 2, 3}


def test_starters_have_a_material_on_each_side() -> None:
    for s in CAT.starters.values():
        assert len(s.materials) == 2 and s.materials[0] != s.materials[1]
        assert set(s.materials) <= set(CAT.materials)


def test_landmarks_ask_for_three_highway_cards_and_give_a_benefit() -> None:
    for t in CAT.landmarks.values():
        assert len(t.requires) == 3
        assert t.points or t.condition or t.material or t.ability


def test_the_biggest_draw_deck_fits_in_the_stand_in() -> None:
    assert len(CAT.cards) >= 76


def test_catalog_items_follow_the_contract() -> None:
    items = catalog_items()
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids))
    for item in items:
        assert {"id", "kind", "count", "size_mm"} <= set(item)
        json.dumps(item)
        assert item["size_mm"] == ([50, 50] if item["kind"] == "landmark" else [63, 88])
    kinds = Counter(i["kind"] for i in items)
    assert kinds["highway card"] == 90 and kinds["landmark"] == 14
    # Every physical face is counted: 90 Material sides, 14 Starter sides (7 cards, two sides).
    assert sum(i["count"] for i in items if i["kind"] == "material side") == 90
    assert sum(i["count"] for i in items if i["kind"] == "starter side") == 14
    one = next(i for i in items if i["id"] == "bs-01")
    assert {"miles", "terrains", "cost", "material", "tableau_material"} <= set(one)
    two = next(i for i in items if i["kind"] == "highway card" and i["miles"] == 2)
    assert "condition" in two and "condition_text" in two


# ------------------------------------------------------------------------------ validation
def _copy(tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    for name in ("cards.json", "landmarks.json"):
        shutil.copy(HERE / name, tmp_path / name)
    return (json.loads((tmp_path / "cards.json").read_text()), json.loads((tmp_path / "landmarks.json").read_text()))


def _write(tmp_path: Path, name: str, data: Any) -> None:
    (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(("file", "edit", "message"), [
    ("cards.json", lambda d: d["cards"][4].update(miles=4), "cards[4] (bs-05): field 'miles'"),
    ("cards.json", lambda d: d["cards"][4].update(terrains=["lava"]), "cards[4] (bs-05): field 'terrains'"),
    ("cards.json", lambda d: d["cards"][4].update(terrains=[]), "field 'terrains'"),
    ("cards.json", lambda d: d["cards"][4].update(cost=["gold"]), "cards[4] (bs-05): field 'cost'"),
    ("cards.json", lambda d: d["cards"][4].pop("tableau_material"), "field 'tableau_material': is missing"),
    ("cards.json", lambda d: d["cards"][40].pop("condition"), "cards[40] (bs-41): field 'condition'"),
    ("cards.json", lambda d: d["cards"][40]["condition"].update(type="luck"), "condition type 'luck'"),
    ("cards.json", lambda d: d["cards"][40]["condition"].update(points=-1), "field 'condition'"),
    ("cards.json", lambda d: d["cards"][70].update(condition={"type": "at_end", "points": 1}), "only 2-mile cards"),
    ("cards.json", lambda d: d["cards"][3].update(id="bs-01"), "duplicate id 'bs-01'"),
    ("cards.json", lambda d: d["cards"].pop(), "the 90 double-sided cards"),
    ("cards.json", lambda d: d["starters"][0].update(materials=["stone"]), "starters[0] (bs-s1): field 'materials'"),
    ("cards.json", lambda d: d.update(stand_in=""), "field 'stand_in'"),
    ("cards.json", lambda d: d.update(terrains=["Forest"]), "field 'terrains'"),
    ("landmarks.json", lambda d: d["landmarks"][2]["requires"].pop(), "landmarks[2] (lm-03): field 'requires'"),
    ("landmarks.json", lambda d: d["landmarks"][2]["requires"][0].update(miles=5), "field 'requires[0]'"),
    ("landmarks.json", lambda d: d["landmarks"][2].update(points=0, material=None), "field 'material'"),
    ("landmarks.json", lambda d: d["landmarks"][0].update(points=0), "must give some benefit"),
    ("landmarks.json", lambda d: d["landmarks"][0].update(ability="teleport"), "field 'ability'"),
    ("landmarks.json", lambda d: d["landmarks"][3].update(adjacent="yes"), "landmarks[3] (lm-04): field 'adjacent'"),
    ("landmarks.json", lambda d: d["landmarks"].pop(), "the 14 tiles"),
])
def test_a_broken_catalog_names_file_entry_and_field(tmp_path: Path, file: str, edit: Any, message: str) -> None:
    cards, tiles = _copy(tmp_path)
    data = cards if file == "cards.json" else tiles
    edit(data)
    _write(tmp_path, file, data)
    with pytest.raises(CatalogError) as err:
        load_catalog(tmp_path)
    assert str(tmp_path / file) in str(err.value) and message in str(err.value)


def test_not_json_is_a_catalog_error(tmp_path: Path) -> None:
    _copy(tmp_path)
    (tmp_path / "cards.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(CatalogError, match="not valid JSON"):
        load_catalog(tmp_path)


def test_the_owner_replaces_a_catalog_without_code_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$COMPANION_CATALOGS/bigsur/cards.json is read instead of the stand-in."""
    folder = tmp_path / "bigsur"
    folder.mkdir()
    cards, _ = _copy(folder)
    (folder / "landmarks.json").unlink()  # only one file overridden: the other stays the stand-in
    cards["cards"][0]["miles"] = 3
    cards["cards"][0].pop("tableau_material")
    _write(folder, "cards.json", cards)
    monkeypatch.setenv("COMPANION_CATALOGS", str(tmp_path))
    owner = default_catalog()
    assert owner.cards["bs-01"].miles == 3 and owner.cards_path == folder / "cards.json"
    assert owner.landmarks_path == HERE / "landmarks.json"
    assert BigSur(["Ana", "Ben"]).catalog is owner
    monkeypatch.delenv("COMPANION_CATALOGS")
    assert default_catalog().cards["bs-01"].miles == 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.text(max_size=6) | st.sampled_from(["forest", "stone", "at_end"]),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from(["type", "points", "terrain", "miles"]), kids,
                                                              max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 89), field=st.sampled_from(["miles", "terrains", "cost", "material", "tableau_material",
                                                         "condition", "id", "extra"]), value=json_values)
def test_any_mutated_card_loads_or_names_its_entry(tmp_path: Path, index: int, field: str, value: Any) -> None:
    cards, _ = _copy(tmp_path)
    cards["cards"][index][field] = value
    _write(tmp_path, "cards.json", cards)
    try:
        load_catalog(tmp_path)
    except CatalogError as exc:
        assert str(tmp_path / "cards.json") in str(exc)
        assert f"cards[{index}]" in str(exc) or "id" in str(exc)
