"""The screen is told when the disk refuses to save (the game is kept in memory meanwhile) and
when a damaged database was restored at start."""

from __future__ import annotations

import pytest

from companion.session import SAVING_PAUSED, Session, startup_notice, storage_notice
from companion.store import Seat, Store
from tests.rules.toy import Toy

recovery = pytest.importorskip("companion.recovery")


def play_one(session):
    return session.apply(session.game.legal_actions()[0])


def test_saving_paused_is_shown_while_the_disk_refuses_and_goes_once_written(tmp_path):
    store = recovery.SafeStore(tmp_path / "companion.sqlite3")
    s = Session.new(store, Toy.name, [Seat("Ana"), Seat("Ben")], engine=Toy, seed=11)
    assert s.storage_notice() == ""
    with recovery.writes_refused(store, "read-only"):
        out = play_one(s)
        assert out.ok
        assert s.storage_notice().startswith(SAVING_PAUSED)
        assert "waiting" in s.storage_notice()
        assert s.retry_saving() is False  # still refused: kept, not lost
        assert s.storage_notice().startswith(SAVING_PAUSED)
    assert s.retry_saving() is True
    assert s.storage_notice() == ""
    assert store.load(s.id).actions == s.game.actions
    store.close()


def test_a_plain_store_never_pauses(tmp_path):
    with Store(tmp_path / "db.sqlite3") as store:
        s = Session.new(store, Toy.name, [Seat("Ana"), Seat("Ben")], engine=Toy, seed=11)
        play_one(s)
        assert storage_notice(store) == "" and s.retry_saving() is True
        assert startup_notice(store) == ""


def test_a_damaged_database_restored_at_start_is_announced(tmp_path):
    path = tmp_path / "companion.sqlite3"
    store = recovery.SafeStore(path)
    s = Session.new(store, Toy.name, [Seat("Ana"), Seat("Ben")], engine=Toy, seed=11)
    play_one(s)
    assert store.backup() is not None
    store.close()
    for extra in path.parent.glob(path.name + "-*"):
        extra.unlink()  # no WAL left to rescue the file from
    path.write_bytes(b"this is not a database" * 100)
    again = recovery.SafeStore(path)
    said = startup_notice(again)
    assert said and "damaged" in said and "backup" in said
    assert said == again.recovered.message()
    again.close()
