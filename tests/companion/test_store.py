"""The SQLite store: durability settings, append-only events, resume data, history, exports."""

from __future__ import annotations

import csv
import io
import sqlite3

import pytest

from companion.store import Seat, Store, StoreError
from rules import Action


@pytest.fixture
def store(tmp_path):
    clock = iter(range(1_700_000_000, 1_800_000_000, 60))
    with Store(tmp_path / "db.sqlite3", clock=lambda: next(clock)) as s:
        yield s


def test_the_database_lives_in_companion_data(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    with Store() as s:
        assert s.path == tmp_path / "data" / "companion.sqlite3"
        assert s.path.exists()


def test_wal_and_full_synchronous(store):
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_actions_and_undos_replay_to_the_live_actions(store):
    gid = store.create_game("toy", [Seat("Ana", "red"), Seat("Ben", "blue")], seed=7)
    a1, a2, a3 = (Action.of("take", 0, card=f"c{i}") for i in range(3))
    store.append_action(gid, a1)
    store.append_action(gid, a2)
    store.append_undo(gid)
    store.append_action(gid, a3)
    g = store.load(gid)
    assert g.actions == [a1, a3]
    assert g.events == 4
    assert g.players == ["Ana", "Ben"] and g.seats[0].colour == "red"
    assert g.seed == 7 and g.status == "playing"


def test_events_are_append_only(store):
    gid = store.create_game("toy", ["Ana", "Ben"])
    store.append_action(gid, Action.of("take", 0))
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("UPDATE events SET kind='undo'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store._db.execute("DELETE FROM events")
    assert store.load(gid).actions == [Action.of("take", 0)]


def test_undo_with_nothing_recorded_is_refused(store):
    gid = store.create_game("toy", ["Ana", "Ben"])
    with pytest.raises(StoreError, match="no recorded action"):
        store.append_undo(gid)
    assert store.load(gid).events == 0


def test_unknown_game_is_a_store_error(store):
    with pytest.raises(StoreError, match="no game 99"):
        store.load(99)
    with pytest.raises(StoreError, match="no game 99"):
        store.append_action(99, Action.of("take", 0))


def test_the_turn_picture_is_kept_and_undone_pictures_are_not_shown(store):
    gid = store.create_game("toy", ["Ana", "Ben"])
    store.append_action(gid, Action.of("take", 0), jpeg=b"first")
    seq = store.append_action(gid, Action.of("take", 1), jpeg=b"second")
    assert store.scan(gid, seq) == b"second"
    assert store.last_scan(gid) == b"second"
    store.append_undo(gid)
    assert store.last_scan(gid) == b"first"


def test_unfinished_games_are_offered_for_resume(store):
    a = store.create_game("toy", ["Ana", "Ben"])
    b = store.create_game("toy", ["Cy", "Di"])
    store.finish(a, _result([("Ana", 5, 1), ("Ben", 3, 2)]), {"game": "toy"})
    assert [g.id for g in store.unfinished()] == [b]
    store.abandon(b)
    assert store.unfinished() == []


def test_a_finished_game_takes_no_more_actions(store):
    gid = store.create_game("toy", ["Ana", "Ben"])
    store.finish(gid, _result([("Ana", 5, 1), ("Ben", 3, 2)]), {})
    with pytest.raises(StoreError, match="finished"):
        store.append_action(gid, Action.of("take", 0))
    with pytest.raises(StoreError, match="already finished"):
        store.finish(gid, {}, {})


def _result(rows, lowest=False):
    return {"lowest_wins": lowest, "standings": [
        {"player": i, "name": n, "score": s, "place": p} for i, (n, s, p) in enumerate(rows)]}


def test_player_stats_count_games_wins_average_and_best(store):
    for rows in ([("Ana", 10, 1), ("Ben", 4, 2)], [("Ana", 6, 2), ("Ben", 8, 1)], [("Ana", 20, 1), ("Ben", 1, 2)]):
        gid = store.create_game("bigsur", [r[0] for r in rows])
        store.finish(gid, _result(rows), {})
    gid = store.create_game("highwayman", ["Ana", "Ben"])
    store.finish(gid, _result([("Ana", 3, 1), ("Ben", 30, 2)], lowest=True), {})
    stats = {(s["player"], s["game"]): s for s in store.player_stats()}
    assert stats[("Ana", "bigsur")] == {"player": "Ana", "game": "bigsur", "games": 3, "wins": 2,
                                         "average": 12.0, "best": 20}
    assert stats[("Ben", "bigsur")]["wins"] == 1 and stats[("Ben", "bigsur")]["best"] == 8
    # Lowest wins: the best score is the smallest.
    assert stats[("Ben", "highwayman")]["best"] == 30 and stats[("Ana", "highwayman")]["best"] == 3


def test_bgstats_export_follows_the_import_format(store):
    gid = store.create_game("bigsur", [Seat("Ana", "red"), Seat("Ben", "blue")], seed=3)
    store.append_action(gid, Action.of("take", 0))
    store.finish(gid, _result([("Ben", 9, 1), ("Ana", 4, 2)]) | {"standings": [
        {"player": 1, "name": "Ben", "score": 9, "place": 1},
        {"player": 0, "name": "Ana", "score": 4, "place": 2}]}, {})
    play = store.bgstats_play(gid, title="Big Sur")
    assert play["game"] == {"name": "Big Sur", "sourceGameId": "bigsur", "highestWins": True, "noPoints": False}
    assert play["playDate"] == store.load(gid).started
    assert play["durationMin"] >= 0
    by_name = {p["name"]: p for p in play["players"]}
    assert by_name["Ben"]["winner"] is True and by_name["Ben"]["rank"] == 1 and by_name["Ben"]["score"] == 9
    assert by_name["Ana"]["startPlayer"] is True and by_name["Ana"]["winner"] is False
    assert {"sourceName", "sourcePlayId"} <= play.keys()


def test_bgstats_export_of_an_unfinished_game_is_refused(store):
    gid = store.create_game("bigsur", ["Ana", "Ben"])
    with pytest.raises(StoreError, match="not finished"):
        store.bgstats_play(gid, title="Big Sur")


def test_csv_has_one_row_per_player_per_finished_game(store):
    gid = store.create_game("bigsur", [Seat("Ana", "red"), Seat("Ben, Jr.", "blue")])
    store.finish(gid, _result([("Ana", 9, 1), ("Ben, Jr.", 4, 2)]), {})
    store.create_game("bigsur", ["Cy", "Di"])  # unfinished: not a play yet
    rows = list(csv.DictReader(io.StringIO(store.plays_csv())))
    assert [(r["player"], r["score"], r["winner"]) for r in rows] == [("Ana", "9", "1"), ("Ben, Jr.", "4", "0")]


def test_a_corrupt_database_is_a_store_error(tmp_path):
    path = tmp_path / "bad.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        Store(path)
