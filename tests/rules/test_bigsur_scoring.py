"""Big Sur scoring: the pure tableau scorer, its conditions and landmarks, and properties of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bigsur import (
    Condition,
    PlacedLandmark,
    TableauCard,
    TableauError,
    default_catalog,
    score_tableau,
    stretches,
)
from rules.scoring import Breakdown

CAT = default_catalog()


def total(lines: list[Any]) -> int:
    return sum(ln.points for ln in lines)


def details(ln: Any) -> dict[str, Any]:
    return ln.to_json()


def test_rulebook_example_four_mile_forest_and_three_mile_ocean() -> None:
    """"a 1-mile card with a Forest terrain icon and a 3-mile card with a Forest and an Ocean terrain
    icon represent one 4-mile Forest stretch and one 3-mile Ocean stretch." Four or more miles score
    a point a mile: 4 points, and the 3-mile Ocean stretch scores nothing."""
    lines = score_tableau([{"miles": 1, "terrains": ["forest"]}, {"miles": 3, "terrains": ["forest", "ocean"]}])
    out = [details(ln) for ln in lines]
    assert {"kind": "stretch", "points": 4, "terrain": "forest", "miles": 4, "cards": [0, 1]}.items() <= out[0].items()
    assert {"kind": "stretch", "points": 0, "terrain": "ocean", "miles": 3, "cards": [1]}.items() <= out[1].items()
    assert total(lines) == 4 and len(lines) == 2


def test_one_point_per_mile_only_in_stretches_of_four_or_more() -> None:
    """"Players score one point for each mile in any stretch that is four or more miles long.\""""
    ocean = {"miles": 3, "terrains": ["ocean"]}
    one = {"miles": 1, "terrains": ["ocean"]}
    assert total(score_tableau([ocean])) == 0
    assert total(score_tableau([ocean, one])) == 4
    assert total(score_tableau([ocean, ocean, ocean])) == 9


def test_a_stretch_is_broken_by_a_card_without_its_terrain() -> None:
    """"A stretch is one or more adjacent Highway cards that contain the same terrain type.\""""
    forest3 = {"miles": 3, "terrains": ["forest"]}
    cliff = {"miles": 1, "terrains": ["cliff"]}
    found = stretches([TableauCard(3, ("forest",)), TableauCard(1, ("cliff",)), TableauCard(3, ("forest",))])
    assert [(s.terrain, s.cards, s.miles) for s in found] == [("forest", (0,), 3), ("cliff", (1,), 1),
                                                              ("forest", (2,), 3)]
    assert total(score_tableau([forest3, cliff, forest3])) == 0


def test_two_terrain_cards_count_in_both_stretches() -> None:
    """A two-terrain card extends a stretch of each of its terrains."""
    lines = score_tableau([
        {"miles": 2, "terrains": ["ocean"]},
        {"miles": 3, "terrains": ["forest", "ocean"]},
        {"miles": 2, "terrains": ["forest"]},
    ])
    got = {(d["terrain"], tuple(d["cards"])): d["points"] for d in map(details, lines)}
    assert got == {("ocean", (0, 1)): 5, ("forest", (1, 2)): 5}


def test_catalog_cards_by_id_and_catalog_objects_score_alike() -> None:
    ids = ["bs-02", "bs-62", "bs-71"]
    by_id = score_tableau([{"id": i} for i in ids])
    assert by_id == score_tableau([CAT.cards[i] for i in ids])
    assert by_id[0].to_json()["miles"] == 7


@pytest.mark.parametrize(("condition", "tableau", "position", "met"), [
    ({"type": "adjacent_terrain", "terrain": "forest", "points": 2}, [["forest"], ["ocean"]], 1, True),
    ({"type": "adjacent_terrain", "terrain": "forest", "points": 2}, [["forest"], ["cliff"], ["ocean"]], 2, False),
    ({"type": "terrain_miles", "terrain": "ocean", "at_least": 6, "points": 3}, [["ocean"], ["ocean", "forest"]], 0, False),
    ({"type": "terrain_miles", "terrain": "ocean", "at_least": 6, "points": 3}, [["ocean"], ["cliff"], ["ocean"], ["ocean"]], 0, True),
    ({"type": "in_stretch", "terrain": "ocean", "at_least": 5, "points": 2}, [["ocean"], ["ocean"], ["ocean"]], 1, True),
    ({"type": "in_stretch", "terrain": "ocean", "at_least": 5, "points": 2}, [["forest"], ["ocean"], ["ocean"]], 0, False),
    ({"type": "cards_of_miles", "miles": 2, "at_least": 3, "points": 2}, [["ocean"], ["ocean"], ["ocean"]], 0, True),
    ({"type": "cards_of_miles", "miles": 2, "at_least": 4, "points": 2}, [["ocean"], ["ocean"], ["ocean"]], 0, False),
    ({"type": "at_end", "points": 2}, [["ocean"], ["ocean"], ["ocean"]], 2, True),
    ({"type": "at_end", "points": 2}, [["ocean"], ["ocean"], ["ocean"]], 1, False),
    ({"type": "distinct_terrains", "at_least": 3, "points": 2}, [["ocean", "cliff"], ["forest"]], 1, True),
    ({"type": "distinct_terrains", "at_least": 3, "points": 2}, [["ocean"], ["forest"]], 1, False),
])
def test_two_mile_conditions(condition: dict[str, Any], tableau: list[list[str]], position: int, met: bool) -> None:
    """"2-mile cards also have scoring conditions written on the bottom of the card. If a player meets
    those conditions, they score the specified number of points." (Every card here is 2 miles.)"""
    cards: list[dict[str, Any]] = [{"miles": 2, "terrains": t} for t in tableau]
    cards[position] = {**cards[position], "condition": condition}
    lines = score_tableau(cards)
    cond = [ln for ln in lines if ln.kind == "condition"]
    assert len(cond) == 1
    assert cond[0].to_json()["met"] is met and cond[0].points == (condition["points"] if met else 0)
    assert cond[0].to_json()["cards"] == [position]


def test_condition_texts_read_like_the_card() -> None:
    assert Condition("adjacent_terrain", 2, terrain="ocean").text() == "next to an ocean card: +2"
    assert Condition("terrain_miles", 3, terrain="forest", at_least=6).text() == "tableau has 6+ forest miles: +3"


def test_landmark_points_and_conditions_add_to_the_score() -> None:
    """"Some Landmark tiles grant additional scoring conditions or points, which should be added to
    the total.\""""
    flat = next(t for t in CAT.landmarks.values() if t.points and t.condition is None)
    conditional = next(t for t in CAT.landmarks.values() if t.condition is not None and t.condition.type == "adjacent_terrain")
    assert conditional.condition is not None and conditional.condition.terrain is not None
    tableau = [{"miles": 1, "terrains": [conditional.condition.terrain]}, {"miles": 1, "terrains": ["cliff"]}]
    lines = score_tableau(tableau, [PlacedLandmark(flat, 0, "above"), {"id": conditional.id, "position": 1}])
    kinds = [(ln.kind, ln.points) for ln in lines if ln.kind != "stretch"]
    assert kinds == [("landmark", flat.points), ("condition", conditional.condition.points)]
    assert total(lines) == flat.points + conditional.condition.points


@pytest.mark.parametrize(("cards", "landmarks", "message"), [
    ([{"miles": 4, "terrains": ["forest"]}], [], "'miles' must be 1, 2 or 3"),
    ([{"miles": True, "terrains": ["forest"]}], [], "'miles'"),
    ([{"miles": 1, "terrains": ["lava"]}], [], "unknown terrain 'lava'"),
    ([{"miles": 1, "terrains": "forest"}], [], "'terrains' must be a list"),
    ([{"miles": 1, "terrains": ["forest", "forest"]}], [], "twice"),
    ([{"miles": 1, "terrains": ["forest", "ocean", "cliff"]}], [], "one or two"),
    ([{"id": "bs-999"}], [], "unknown card id"),
    ([{"id": "bs-s1"}], [], "Starter cards have no Highway side"),
    ([{"id": "bs-01", "miles": 2}], [], "takes no other field"),
    ([{"miles": 1, "terrains": ["forest"], "colour": "red"}], [], "unknown field 'colour'"),
    (["bs-01"], [], "must be a JSON object"),
    ([{"miles": 2, "terrains": ["forest"], "condition": {"type": "luck", "points": 2}}], [], "condition type"),
    ([{"id": "bs-01"}], [{"id": "lm-99", "position": 0}], "unknown Landmark tile"),
    ([{"id": "bs-01"}], [{"id": "lm-01", "position": 1}], "is not a card"),
    ([{"id": "bs-01"}], [{"id": "lm-01", "position": 0, "where": "beside"}], "'above' or 'below'"),
    ([{"id": "bs-01"}], [{"id": "lm-01", "position": 0}, {"id": "lm-02", "position": 0}], "two Landmark tiles above"),
    ([{"id": "bs-01"}], [{"id": "lm-01", "position": 0}, {"id": "lm-01", "position": 0, "where": "below"}], "twice"),
])
def test_bad_tableaus_are_typed_errors(cards: list[Any], landmarks: list[Any], message: str) -> None:
    with pytest.raises(TableauError) as err:
        score_tableau(cards, landmarks)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


# ------------------------------------------------------------------------------ properties
TERRAINS = list(CAT.terrains)
ad_hoc = st.builds(
    lambda miles, terrains: {"miles": miles, "terrains": terrains},
    st.sampled_from([1, 2, 3]),
    st.lists(st.sampled_from(TERRAINS), min_size=1, max_size=2, unique=True),
)
catalog_card = st.sampled_from(sorted(CAT.cards)).map(lambda i: {"id": i})
tableaus = st.lists(ad_hoc | catalog_card, max_size=15)


def stretch_points(lines: list[Any]) -> int:
    return sum(ln.points for ln in lines if ln.kind == "stretch")


@settings(max_examples=300)
@given(tableaus)
def test_lines_add_up_and_name_their_cards(cards: list[dict[str, Any]]) -> None:
    lines = score_tableau(cards)
    assert Breakdown(0, tuple(lines)).total == sum(ln.points for ln in lines)
    for ln in lines:
        d = ln.to_json()
        assert d["points"] >= 0
        assert all(0 <= p < len(cards) for p in d["cards"])
        if ln.kind == "stretch":
            assert d["points"] in (0, d["miles"]) and (d["points"] > 0) == (d["miles"] >= 4)
            assert d["cards"] == list(range(d["cards"][0], d["cards"][-1] + 1)), "a stretch is adjacent cards"


@settings(max_examples=300)
@given(tableaus)
def test_every_terrain_icon_is_in_exactly_one_stretch(cards: list[dict[str, Any]]) -> None:
    lines = [ln.to_json() for ln in score_tableau(cards) if ln.kind == "stretch"]
    resolved = [CAT.cards[c["id"]] if "id" in c else None for c in cards]
    icons = sorted((i, t) for i, c in enumerate(cards)
                   for t in (resolved[i].terrains if resolved[i] else c["terrains"]))
    assert sorted((p, ln["terrain"]) for ln in lines for p in ln["cards"]) == icons
    miles = [resolved[i].miles if resolved[i] else c["miles"] for i, c in enumerate(cards)]
    for ln in lines:
        assert ln["miles"] == sum(miles[p] for p in ln["cards"])


@settings(max_examples=300)
@given(tableaus, st.integers(0, 15))
def test_splitting_a_tableau_never_increases_stretch_points(cards: list[dict[str, Any]], cut: int) -> None:
    whole = stretch_points(score_tableau(cards))
    assert stretch_points(score_tableau(cards[:cut])) + stretch_points(score_tableau(cards[cut:])) <= whole


@settings(max_examples=200)
@given(tableaus)
def test_reading_the_highway_from_the_other_end_scores_the_same_stretches(cards: list[dict[str, Any]]) -> None:
    assert stretch_points(score_tableau(cards[::-1])) == stretch_points(score_tableau(cards))


@settings(max_examples=200)
@given(tableaus, ad_hoc)
def test_adding_a_card_at_an_end_never_loses_stretch_points(cards: list[dict[str, Any]], extra: dict[str, Any]) -> None:
    before = stretch_points(score_tableau(cards))
    assert stretch_points(score_tableau([*cards, extra])) >= before
    assert stretch_points(score_tableau([extra, *cards])) >= before


CASES = json.loads((Path(__file__).parent / "bigsur_cases" / "scoring.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hand_scored_tableaus(case: dict[str, Any]) -> None:
    lines = score_tableau(case["tableau"], case.get("landmarks", []))
    got = [[d["terrain"], d["miles"], d["points"]] for d in map(details, lines) if d["kind"] == "stretch"]
    assert got == case["stretches"]
    assert total(lines) == case["total"]
