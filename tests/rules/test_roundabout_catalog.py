"""The stand-in Roundabout deck: contract with vision and the app, validation, owner override."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules import CatalogError
from rules.catalog import catalog_path
from rules.roundabout import Roundabout, catalog_items, load_deck
from rules.roundabout.cards import BONUS_KINDS, EDGE_FEATURES

STAND_IN = json.loads(catalog_path("roundabout", "cards.json").read_text(encoding="utf-8"))


def test_the_stand_in_deck_says_so_and_documents_its_geometry() -> None:
    assert isinstance(STAND_IN["stand_in"], str) and "no publisher card list" in STAND_IN["stand_in"].lower()
    geometry = " ".join(STAND_IN["geometry"])
    assert "south-east" in geometry and "clockwise" in geometry
    assert set(STAND_IN["bonuses"]) == set(BONUS_KINDS)


def test_catalog_items_follow_the_contract() -> None:
    items = catalog_items()
    assert json.loads(json.dumps(items)) == items
    assert len({i["id"] for i in items}) == len(items)
    for item in items:
        assert {"id", "kind", "count", "size_mm"} <= set(item)
        assert item["kind"] == "roundabout card" and item["size_mm"] == [70, 70]
        assert set(item["edges"]) == {"north", "east", "south", "west"}
        assert set(item["edges"].values()) <= set(EDGE_FEATURES)
        # the quarter's ring crosses the two edges beside its corner
        assert item["quarter_corner"] == "south-east"
        assert item["edges"]["east"] == item["edges"]["south"] == "gray"
        assert item["bonus"] is None or item["bonus"]["label"].startswith("+")
    assert sum(i["count"] for i in items) == load_deck().size == 64


def test_the_deck_has_every_kind_of_card_the_rulebook_names() -> None:
    """"Cards may have an entrance + exit, an exit, an entrance, or neither"; arrows; bonuses."""
    kinds = set()
    for item in catalog_items():
        outer = {item["edges"]["north"], item["edges"]["west"]}
        kinds.add(("entrance" in outer, "exit" in outer))
    assert kinds == {(True, True), (False, True), (True, False), (False, False)}
    assert {i["arrows"] for i in catalog_items()} >= {0, 1, 2}
    assert {i["bonus"]["kind"] for i in catalog_items() if i["bonus"]} == set(BONUS_KINDS)


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    folder = tmp_path / "roundabout"
    folder.mkdir(exist_ok=True)
    (folder / "cards.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def test_an_owner_can_replace_the_deck_without_touching_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = copy.deepcopy(STAND_IN)
    data["stand_in"] = False
    data["cards"] = [{"id": "real-1", "count": 3, "edges": ["exit", "gray", "gray", "entrance"], "arrows": 2}]
    _write(tmp_path, data)
    monkeypatch.setenv("COMPANION_CATALOGS", str(tmp_path))
    assert [i["id"] for i in catalog_items()] == ["real-1"]
    g = Roundabout(["A", "B"])
    assert g.legal_actions()[0]["card"] == "real-1"


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(STAND_IN)
    change(data)
    return data


BROKEN = {
    "edges too short": (lambda d: d["cards"][0].update(edges=["gray", "gray", "gray"]), "edges"),
    "unknown edge": (lambda d: d["cards"][0].update(edges=["road", "gray", "gray", "none"]), "edges"),
    "ring not gray": (lambda d: d["cards"][0].update(edges=["none", "exit", "gray", "none"]), "must be 'gray'"),
    "negative arrows": (lambda d: d["cards"][1].update(arrows=-1), "arrows"),
    "arrows as text": (lambda d: d["cards"][1].update(arrows="2"), "arrows"),
    "unknown bonus": (lambda d: d["cards"][2].update(bonus={"kind": "double", "amount": 1}), "kind"),
    "bonus without amount": (lambda d: d["cards"][2].update(bonus={"kind": "points"}), "amount"),
    "zero copies": (lambda d: d["cards"][3].update(count=0), "count"),
    "duplicate id": (lambda d: d["cards"][4].update(id=d["cards"][5]["id"]), "duplicate"),
    "no stand-in note": (lambda d: d.update(stand_in=""), "stand_in"),
    "wrong game": (lambda d: d.update(game="bigsur"), "game"),
    "no cards": (lambda d: d.update(cards=[]), "at least one"),
    "bad card size": (lambda d: d.update(card_size_mm=[70]), "card_size_mm"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_deck_names_file_entry_and_field(case: str, tmp_path: Path) -> None:
    change, words = BROKEN[case]
    folder = _write(tmp_path, _broken(change))
    with pytest.raises(CatalogError) as err:
        load_deck(folder)
    message = str(err.value)
    assert str(folder / "cards.json") in message and words in message and "\n" not in message


def test_an_unreadable_deck_is_a_catalog_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError):
        load_deck(tmp_path)
    (tmp_path / "cards.json").write_text("{", encoding="utf-8")
    with pytest.raises(CatalogError, match="not valid JSON"):
        load_deck(tmp_path)
