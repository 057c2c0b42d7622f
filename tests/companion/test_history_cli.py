"""``companion history``: listing and exports from a database with one finished game."""

from __future__ import annotations

import csv
import importlib
import json

import pytest

from companion.store import Seat, Store


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "companion.sqlite3"
    with Store(path) as s:
        gid = s.create_game("bigsur", [Seat("Ana", "red"), Seat("Ben", "blue")])
        s.finish(gid, {"standings": [{"player": 1, "name": "Ben", "score": 9, "place": 1},
                                     {"player": 0, "name": "Ana", "score": 4, "place": 2}]}, {})
    return path


def run(argv):
    history = importlib.import_module("companion.commands.history")
    import argparse

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    history.register(sub)
    args = parser.parse_args(["history", *argv])
    return args.func(args)


def test_lists_games_and_players(db, capsys):
    assert run(["--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "1. Ben 9" in out and "Ana" in out


def test_json_and_exports(db, tmp_path, capsys):
    bg, plays = tmp_path / "bg.json", tmp_path / "plays.csv"
    assert run(["--db", str(db), "--json", "--bgstats", str(bg), "--csv", str(plays)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"][0]["player"] == "Ana"
    exported = json.loads(bg.read_text())
    assert exported[0]["game"]["name"] == "Big Sur" and exported[0]["players"][1]["winner"] is True
    assert len(list(csv.DictReader(plays.open()))) == 2


def test_a_missing_database_is_an_os_error(tmp_path):
    with pytest.raises(OSError, match="no such database"):
        run(["--db", str(tmp_path / "nope" / "x.sqlite3")])
