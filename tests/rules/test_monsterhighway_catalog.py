"""Monster Highway's catalogs: the stand-in data follows every fact of the rulebook, an owner's files
under $COMPANION_CATALOGS replace it without code changes, and bad files are refused by name."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules import CatalogError
from rules.monsterhighway import MonsterHighway, catalog_items, data

HERE = Path(data.__file__).parent
FILES = ("board.json", "tiles.json", "monsters.json", "dice.json")


def test_stand_in_files_say_they_are_stand_ins() -> None:
    """Where data is missing, ship stand-in data files ... marked as stand-in in their header."""
    for name in FILES:
        header = json.loads((HERE / name).read_text(encoding="utf-8"))
        assert isinstance(header["stand_in"], str) and "stand-in" in header["stand_in"].lower()


def test_board_has_ground_zero_in_the_centre_and_a_home_base_in_each_corner() -> None:
    """Each player picks a Home Base at a corner of the board ... The Ground Zero tile is placed on the
    center of the board."""
    cat = data.load()
    assert (cat.columns, cat.rows, cat.cell_mm) == (9, 9, 50)
    assert cat.name_of(cat.ground_zero) == "E5"
    assert sorted(cat.name_of(h.cell) for h in cat.home_bases) == ["A1", "A9", "I1", "I9"]
    assert {"pond", "mountain"} <= set(cat.objects.values())


def test_tiles_match_the_component_list() -> None:
    """44 Road Tiles, 1 Ground Zero Tile, 4 Home Base Tiles, 18 Special Tiles; every player is dealt a
    Monster Buster."""
    cat = data.load()
    count = lambda kind: sum(t.count for t in cat.by_kind(kind))  # noqa: E731
    assert (count("road"), count("ground zero"), count("home base"), count("special")) == (44, 1, 4, 18)
    effects = {t.effect: t.count for t in cat.by_kind("special")}
    assert effects == {"monster_buster": 4, "swap": 3, "remove": 3, "reroll": 4, "dead_end": 4}
    shapes = {t.id: sorted(data.sides_of(t.open_mask)) for t in cat.by_kind("road")}
    assert shapes == {"road-straight": ["N", "S"], "road-curve": ["E", "N"], "road-tee": ["E", "S", "W"],
                      "road-cross": ["E", "N", "S", "W"]}


def test_monster_cards_are_thirty_naming_a_board_space_or_wild() -> None:
    """30 Monster Cards ... the Monster moves to the space shown on the card ... a "Wild" card."""
    cat = data.load()
    assert len(cat.monster_cards) == 30
    spaces = [c.space for c in cat.monster_cards]
    assert spaces.count("Wild") == 6
    assert all(s == "Wild" or s in cat.spaces for s in spaces)


def test_dice_have_road_car_and_monster_faces() -> None:
    cat = data.load()
    assert sorted(cat.specialty_faces) == ["car", "car", "monster", "monster", "road", "road"]
    assert cat.movement_faces == (1, 2, 3, 4, 5, 6)


def test_catalog_items_follow_the_contract() -> None:
    """Contract 1: one JSON-able dict per design with id, kind, count, size_mm and the face's attributes."""
    items = catalog_items()
    json.dumps(items)
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids))
    for item in items:
        assert {"id", "kind", "count", "size_mm"} <= set(item)
    tiles = [i for i in items if i["kind"] != "monster card"]
    assert all(i["size_mm"] == [50, 50] for i in tiles)
    assert sum(i["count"] for i in items if i["kind"] == "road tile") == 44
    assert sum(i["count"] for i in items if i["kind"] == "special tile") == 18
    assert [i["open_sides"] for i in items if i["id"] == "ground-zero"] == [["N", "E", "S", "W"]]
    assert {i["corner"] for i in items if i["kind"] == "home base"} == {"NW", "NE", "SE", "SW"}
    cards = [i for i in items if i["kind"] == "monster card"]
    assert len(cards) == 30 and all(c["size_mm"] == [63, 88] and "space" in c for c in cards)


def copy_catalogs(tmp: Path) -> Path:
    folder = tmp / "monsterhighway"
    folder.mkdir(parents=True)
    for name in FILES:
        shutil.copy(HERE / name, folder / name)
    return folder


def edit(folder: Path, name: str, change: Callable[[dict[str, Any]], Any]) -> None:
    path = folder / name
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content)
    path.write_text(json.dumps(content), encoding="utf-8")


def test_an_owner_can_replace_the_catalogs_without_code_changes(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand-in data ... replaceable without code changes ($COMPANION_CATALOGS)."""
    folder = copy_catalogs(tmp_path)

    def bigger(board: dict[str, Any]) -> None:
        board.update(columns=11, rows=11, ground_zero="F6", stand_in=False)
        board["home_bases"] = [{"corner": "NW", "at": "A1", "colour": "red"},
                               {"corner": "NE", "at": "K1", "colour": "blue"},
                               {"corner": "SE", "at": "K11", "colour": "yellow"},
                               {"corner": "SW", "at": "A11", "colour": "green"}]
        for space in board["spaces"]:
            if space["at"] == "F6":
                space["at"] = "J10"

    edit(folder, "board.json", bigger)
    edit(folder, "dice.json", lambda d: d.update(movement_faces=[1, 1, 2, 2, 3, 3]))
    monkeypatch.setenv("COMPANION_CATALOGS", str(tmp_path))
    g = MonsterHighway(["Ana", "Ben"])
    assert g.grid.cells == 121 and g.catalog.name_of(g.grid.ground_zero) == "F6"
    assert g.home_cell(0) is None and g.catalog.cell_of("K11") == 120
    monkeypatch.delenv("COMPANION_CATALOGS")
    assert MonsterHighway(["Ana", "Ben"]).grid.cells == 81


def _drop_card(m: dict[str, Any]) -> None:
    m["cards"].pop()


BROKEN: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("tiles.json", lambda t: t["road_tiles"][0].update(count=13), "44 Road tiles"),
    ("tiles.json", lambda t: t["road_tiles"][1].update(open=["N"]), "at least two sides"),
    ("tiles.json", lambda t: t["road_tiles"][1].update(open=["N", "Q"]), "bad item 'Q'"),
    ("tiles.json", lambda t: t["special_tiles"][1].update(count=4), "18 Special tiles"),
    ("tiles.json", lambda t: t["special_tiles"][0].update(effect="teleport"), "effect"),
    ("tiles.json", lambda t: t["home_base_tiles"].pop(), "one Home Base tile per corner"),
    ("tiles.json", lambda t: t["road_tiles"][2].update(id="road-straight"), "duplicate"),
    ("monsters.json", lambda m: m["cards"][0].update(space="Nowhere"), "not a named space"),
    ("monsters.json", _drop_card, "30 Monster Cards"),
    ("board.json", lambda b: b.update(ground_zero="A5"), "center of the board"),
    ("board.json", lambda b: b["spaces"][0].update(at="E5"), "Ground Zero"),
    ("board.json", lambda b: b["spaces"][0].update(at="Z1"), "off the 9 x 9 board"),
    ("board.json", lambda b: b["spaces"][0].update(at="5E"), "space name like"),
    ("board.json", lambda b: b["home_bases"][0].update(at="B1"), "NW corner"),
    ("board.json", lambda b: b.update(columns=8), "odd number"),
    ("board.json", lambda b: b.pop("stand_in"), "stand_in"),
    ("dice.json", lambda d: d.update(specialty_faces=["road", "car", "car"]), "'monster'"),
    ("dice.json", lambda d: d.update(movement_faces=[0, 1]), "positive whole numbers"),
]


@pytest.mark.parametrize(("name", "change", "message"), BROKEN, ids=[f"{n}-{m}" for n, _, m in BROKEN])
def test_bad_catalog_files_are_refused_naming_the_file_and_field(
        tmp_path: Path, name: str, change: Callable[[dict[str, Any]], Any], message: str) -> None:
    """A catalog data file that fails validation; the message names file, entry and field."""
    folder = copy_catalogs(tmp_path)
    edit(folder, name, change)
    with pytest.raises(CatalogError) as err:
        data.load(folder)
    assert name in str(err.value) and message in str(err.value)


def test_unreadable_catalog_is_a_catalog_error(tmp_path: Path) -> None:
    folder = copy_catalogs(tmp_path)
    (folder / "dice.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(CatalogError, match="not valid JSON"):
        data.load(folder)
    (folder / "dice.json").unlink()
    with pytest.raises(CatalogError, match="cannot read"):
        data.load(folder)
