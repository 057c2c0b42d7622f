"""The stand-in Highwayman pack: contract with vision and the app, validation, owner override."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules import CatalogError
from rules.catalog import catalog_path
from rules.highwayman import Highwayman, catalog_items, load_pack

STAND_IN = json.loads(catalog_path("highwayman", "cards.json").read_text(encoding="utf-8"))


def test_the_stand_in_pack_says_so() -> None:
    assert isinstance(STAND_IN["stand_in"], str) and "no publisher card list" in STAND_IN["stand_in"].lower()


def test_catalog_items_follow_the_contract() -> None:
    items = catalog_items()
    assert json.loads(json.dumps(items)) == items
    assert len({i["id"] for i in items}) == len(items)
    for item in items:
        assert {"id", "kind", "count", "size_mm"} <= set(item)
        assert item["size_mm"] == [57, 89]
        assert item["kind"] in {"route card", "highwayman card", "bow street runner card"}
    assert sum(i["count"] for i in items) == load_pack().size == 55


def test_each_route_has_a_london_card_a_colour_band_and_numbers_in_rotation() -> None:
    """Rule 1: cards go "in numerical order along their respective Coaching Route indicated by
    the coloured band"; rule 2: a route starts with its "LONDON" card."""
    items = catalog_items()
    routes: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        if item["kind"] == "route card":
            routes.setdefault(item["route"], []).append(item)
    assert len(routes) == 5
    colours = set()
    for cards in routes.values():
        assert sum(c["london"] for c in cards) == 1
        numbers = sorted(c["number"] for c in cards if not c["london"])
        assert numbers == list(range(1, len(numbers) + 1))
        assert len({c["colour"] for c in cards}) == 1
        colours.add(cards[0]["colour"])
    assert len(colours) == 5
    penalties = {i["kind"]: i["penalty"] for i in items if i["kind"] != "route card"}
    assert penalties == {"highwayman card": 20, "bow street runner card": 10}


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    folder = tmp_path / "highwayman"
    folder.mkdir(exist_ok=True)
    (folder / "cards.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def test_an_owner_can_replace_the_pack_without_touching_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = copy.deepcopy(STAND_IN)
    data["stand_in"] = False
    data["routes"] = [{"id": "bath", "name": "Bath Road", "colour": "red", "stages": 12},
                      {"id": "york", "name": "Great North Road", "colour": "green", "stages": 12}]
    _write(tmp_path, data)
    monkeypatch.setenv("COMPANION_CATALOGS", str(tmp_path))
    assert load_pack().size == 2 * 13 + 4 + 6
    g = Highwayman(["A", "B"])
    assert "hm-bath-12" in g.state.stock


BROKEN = {
    "route without colour": (lambda d: d["routes"][0].pop("colour"), "colour"),
    "two routes one colour": (lambda d: d["routes"][1].update(colour=d["routes"][0]["colour"]), "colour"),
    "no stages": (lambda d: d["routes"][0].update(stages=0), "stages"),
    "odd route id": (lambda d: d["routes"][0].update(id="Bath Road"), "id"),
    "duplicate route": (lambda d: d["routes"][1].update(id=d["routes"][0]["id"]), "duplicate"),
    "highwaymen as text": (lambda d: d.update(highwaymen="four"), "highwaymen"),
    "negative runners": (lambda d: d.update(bow_street_runners=-1), "bow_street_runners"),
    "missing highwaymen": (lambda d: d.pop("highwaymen"), "highwaymen"),
    "no routes": (lambda d: d.update(routes=[]), "at least one"),
    "wrong version": (lambda d: d.update(version=2), "version"),
    "bad card size": (lambda d: d.update(card_size_mm="57x89"), "card_size_mm"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_pack_names_file_entry_and_field(case: str, tmp_path: Path) -> None:
    change, words = BROKEN[case]
    data = copy.deepcopy(STAND_IN)
    change(data)
    folder = _write(tmp_path, data)
    with pytest.raises(CatalogError) as err:
        load_pack(folder)
    message = str(err.value)
    assert str(folder / "cards.json") in message and words in message and "\n" not in message


def test_an_unreadable_pack_is_a_catalog_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError):
        load_pack(tmp_path)
