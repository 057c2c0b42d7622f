"""A full or read-only disk while playing: the game goes on in memory, the table is told, and every
change is written, in order, the moment the disk accepts writes again.

Root ignores file permissions (the tests run as root here), so the refusals come from SQLite
itself: ``PRAGMA max_page_count`` at the current size is a real SQLITE_FULL, ``query_only`` the
same SQLITE_READONLY a read-only file system gives.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from companion.recovery import SafeStore, problem_with, writes_refused
from companion.session import Session, SessionError, encode_jpeg
from companion.store import Store, StoreError, StoreUnwritable

from .games import play_one, players

#: A turn's picture: incompressible, so each action needs new pages and a full disk shows at once.
PICTURE = encode_jpeg(np.random.default_rng(0).integers(0, 256, (240, 320, 3), dtype=np.uint8))


def on_disk(path: Path, game_id: int) -> list:
    with contextlib.closing(Store(path)) as other:
        return other.load(game_id).actions


def play(session: Session, rng: random.Random, n: int) -> None:
    for _ in range(n):
        legal = session.game.legal_actions()
        session.apply(rng.choice(legal), jpeg=PICTURE)


@pytest.mark.parametrize("how", ["full", "read-only"])
def test_the_game_goes_on_in_memory_and_is_saved_in_order_when_the_disk_is_back(tmp_path: Path, how: str) -> None:
    path = tmp_path / "companion.sqlite3"
    store = SafeStore(path)
    session = Session.new(store, "highwayman", players(3), seed=11, app_draws_all=True)
    rng = random.Random(3)
    play(session, rng, 3)
    saved = list(session.game.actions)
    assert on_disk(path, session.id) == saved and store.problem is None

    with writes_refused(store, how):
        play(session, rng, 5)
        assert store.pending, "the disk accepted everything: the refusal was not real"
        assert store.problem is not None and "kept in memory" in store.problem
        assert ("full" in store.problem) if how == "full" else ("readonly" in store.problem)
        # The screen's game has every play; the disk has a prefix of it, nothing out of order.
        disk = on_disk(path, session.id)
        assert disk == session.game.actions[:len(disk)] and len(disk) < len(session.game.actions)
        # Reading back through the store (a resume) sees the waiting changes too.
        assert store.load(session.id).actions == session.game.actions
        for _ in range(30):  # play on until the last step is a player's (undo stops at chance)
            if session.can_undo():
                break
            play(session, rng, 1)
        undone = session.undo()
        assert undone.ok, undone.message
        assert store.load(session.id).actions == session.game.actions
    in_memory = list(session.game.actions)

    play(session, rng, 1)  # the first write after the disk is back flushes everything first
    assert store.pending == [] and store.problem is None
    assert on_disk(path, session.id) == session.game.actions
    assert session.game.actions[:len(in_memory)] == in_memory
    assert problem_with(path) is None
    # And a restart resumes exactly there.
    store.close()
    with contextlib.closing(SafeStore(path)) as again:
        resumed = Session.resume(again, session.id, app_draws_all=True)
        assert resumed.game.actions == session.game.actions


def test_a_backup_is_taken_as_soon_as_the_waiting_changes_are_written(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    store = SafeStore(path)
    session = Session.new(store, "highwayman", players(2), seed=4, app_draws_all=True)
    rng = random.Random(0)
    with writes_refused(store, "full"):
        play(session, rng, 3)
        assert store.pending
    taken = store.backups_taken
    assert store.flush()
    assert store.backups_taken == taken + 1
    store.close()


def test_finishing_a_game_on_a_full_disk_waits_like_any_other_change(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    store = SafeStore(path)
    session = Session.new(store, "highwayman", players(2), seed=8, app_draws_all=True)
    rng = random.Random(8)
    with writes_refused(store, "read-only"):
        while not session.over:
            play_one(session, rng)
        session.finish()
        assert store.load(session.id).status == "finished"
        with pytest.raises(StoreError, match="already finished"):
            store.finish(session.id, {}, {})
    assert store.flush()
    with contextlib.closing(Store(path)) as other:
        assert other.load(session.id).status == "finished"
        assert other.load(session.id).actions == session.game.actions
    store.close()


def test_closing_the_store_writes_what_waits_when_it_can(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    store = SafeStore(path)
    session = Session.new(store, "highwayman", players(2), seed=9, app_draws_all=True)
    with writes_refused(store, "read-only"):
        play(session, random.Random(1), 2)
    assert store.pending
    store.close()
    assert on_disk(path, session.id) == session.game.actions


def test_a_refused_write_for_a_game_that_does_not_exist_is_still_an_error(tmp_path: Path) -> None:
    store = SafeStore(tmp_path / "companion.sqlite3")
    session = Session.new(store, "highwayman", players(2), seed=9, app_draws_all=True)
    with writes_refused(store, "read-only"), pytest.raises(StoreError, match="no game 999"):
        store.append_action(999, session.game.legal_actions()[0])
    assert store.pending == []
    store.close()


@pytest.mark.parametrize("how", ["full", "read-only"])
def test_the_plain_store_reports_a_refused_write_and_stays_usable(tmp_path: Path, how: str) -> None:
    # Without the safe store, the session refuses the play (and says why) and the store is left
    # without an open transaction, so the next write works.
    store = Store(tmp_path / "plain.sqlite3")
    session = Session.new(store, "highwayman", players(2), seed=1, app_draws_all=True)
    before = list(session.game.actions)
    action = session.game.legal_actions()[0]
    with writes_refused(store, how), pytest.raises(SessionError, match="not saved"):
        session.apply(action, jpeg=PICTURE)
    assert session.game.actions == before
    assert not store._db.in_transaction
    session.apply(action, jpeg=PICTURE)
    assert store.load(session.id).actions == session.game.actions
    store.close()


def test_a_raw_sqlite_full_error_becomes_store_unwritable(tmp_path: Path) -> None:
    store = Store(tmp_path / "raw.sqlite3")
    gid = store.create_game("highwayman", ["Ana", "Ben"], seed=1)
    session = Session.resume(store, gid, app_draws_all=True)
    with writes_refused(store, "full"), pytest.raises(StoreUnwritable, match="full") as caught:
        store.append_action(gid, session.game.legal_actions()[0], jpeg=PICTURE)
    assert isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, sqlite3.Error)
    store.close()


def test_the_table_is_told_when_a_play_is_only_in_memory(tmp_path: Path) -> None:
    store = SafeStore(tmp_path / "companion.sqlite3")
    session = Session.new(store, "highwayman", players(2), seed=3, app_draws_all=True)
    rng = random.Random(2)
    with writes_refused(store, "full"):
        outcome = session.apply(rng.choice(session.game.legal_actions()), jpeg=PICTURE)
        assert outcome.ok and "kept in memory" in outcome.message and "Do not switch it off" in outcome.message
    outcome = session.apply(rng.choice(session.game.legal_actions()), jpeg=PICTURE)
    assert outcome.ok and "memory" not in outcome.message
    store.close()
