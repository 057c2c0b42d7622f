"""``companion score bigsur TABLEAU.json [--json]``: scores, the readable table, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

RULEBOOK_EXAMPLE = {"players": [{"name": "Ana", "tableau": [{"miles": 1, "terrains": ["forest"]},
                                                            {"miles": 3, "terrains": ["forest", "ocean"]}],
                                 "landmarks": []}]}


def score(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, *extra: str) -> tuple[int, str, str]:
    path = tmp_path / "tableau.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    rc = main(["score", "bigsur", str(path), *extra])
    out, err = capsys.readouterr()
    return rc, out, err


def test_json_output_itemises_the_rulebook_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = score(tmp_path, capsys, RULEBOOK_EXAMPLE, "--json")
    assert rc == 0 and err == ""
    doc = json.loads(out)
    (ana,) = doc["players"]
    assert ana["name"] == "Ana" and ana["total"] == 4
    assert [(ln["kind"], ln["terrain"], ln["miles"], ln["cards"], ln["points"]) for ln in ana["breakdown"]] == [
        ("stretch", "forest", 4, [0, 1], 4), ("stretch", "ocean", 3, [1], 0)]
    assert doc["standings"][0] == {"place": 1, "player": 0, "name": "Ana", "score": 4, "finished": True}


def test_human_output_is_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = score(tmp_path, capsys, RULEBOOK_EXAMPLE)
    assert rc == 0
    lines = out.splitlines()
    assert lines[0] == "Ana: 4 points"
    assert lines[1].split() == ["kind", "terrain", "miles", "cards", "points"]
    assert lines[2].split() == ["stretch", "forest", "4", "0-1", "4"]
    assert lines[3].split() == ["stretch", "ocean", "3", "1", "0"]
    assert lines[4].split() == ["total", "4"]


def test_catalog_ids_and_landmarks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {"players": [
        {"name": "Ben", "tableau": [{"id": "bs-62"}, {"id": "bs-02"}, {"id": "bs-17"}],
         "landmarks": [{"id": "lm-07", "position": 0, "where": "below"}]},
        {"name": "Cleo", "tableau": []},
    ]}
    rc, out, _ = score(tmp_path, capsys, data, "--json")
    assert rc == 0
    ben, cleo = json.loads(out)["players"]
    # bs-62 (3 forest) + bs-02 (1 forest) + bs-17 (1 forest/meadow): a 5-mile forest stretch, and
    # Ventana Wilderness's points.
    assert ben["breakdown"][0]["points"] == 5
    assert any(ln["kind"] == "landmark" and ln["landmark"] == "lm-07" and ln["points"] == 3 for ln in ben["breakdown"])
    assert ben["total"] == sum(ln["points"] for ln in ben["breakdown"]) == 8
    assert cleo == {"name": "Cleo", "total": 0, "breakdown": []}


def test_the_bundled_example_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "bigsur", "--example", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in doc["players"]] == ["Ana", "Ben", "Cleo"]
    for p in doc["players"]:
        assert p["total"] == sum(ln["points"] for ln in p["breakdown"])
    assert main(["score", "bigsur", "--example"]) == 0
    assert "Standings: 1. Ana" in capsys.readouterr().out


@pytest.mark.parametrize(("data", "message"), [
    ("{not json", "is not valid JSON (line 1"),
    ("[]", "must hold a JSON object"),
    ({"players": []}, "non-empty list"),
    ({"players": [{"tableau": []}]}, "player 0: 'name'"),
    ({"players": [{"name": "Ana", "tableau": {}}]}, "player 0 (Ana): 'tableau' must be a list"),
    ({"players": [{"name": "Ana", "tableau": [{"id": "bs-999"}]}]}, "player 0 (Ana): card 0: unknown card id 'bs-999'"),
    ({"players": [{"name": "Ana", "tableau": [{"miles": 1, "terrains": ["lava"]}]}]}, "unknown terrain 'lava'"),
    ({"players": [{"name": "Ana", "tableau": [{"miles": 5, "terrains": ["forest"]}]}]}, "'miles' must be 1, 2 or 3"),
    ({"players": [{"name": "Ana", "tableau": [{"miles": "2", "terrains": ["forest"]}]}]}, "'miles' must be 1, 2 or 3"),
    ({"players": [{"name": "Ana", "tableau": [{"miles": 2, "terrains": "forest"}]}]}, "'terrains' must be a list"),
    ({"players": [{"name": "Ana", "tableau": [], "landmarks": [{"id": "lm-01", "position": 0}]}]}, "is not a card"),
    ({"players": [{"name": "Ana", "tableau": []}, {"name": "Ana", "tableau": []}]}, "two players have this name"),
    ({"players": [{"name": "Ana", "tableau": [], "score": 3}]}, "unknown field 'score'"),
    ({"game": "roundabout", "players": []}, "not Big Sur"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any,
                                          message: str) -> None:
    rc, out, err = score(tmp_path, capsys, data)
    assert rc == 2 and out == ""
    assert err.startswith("companion: error: ") and err.count("\n") == 1
    assert message in err


def test_unreadable_file_and_other_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "bigsur", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    assert main(["score", "bigsur", str(tmp_path / "bin.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["score", "bigsur", str(tmp_path)]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["score", "roundabout", str(tmp_path / "x.json")]) == 2
    assert "only Big Sur" in capsys.readouterr().err
    assert main(["score", "bigsur"]) == 2
    assert "name a tableau file" in capsys.readouterr().err
