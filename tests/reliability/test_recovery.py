"""A damaged or truncated database at start is detected and the game comes back from the newest
per-turn backup, with a message that says which game, how many actions came back and what was
lost. Also: backups are whole files, taken when the turn passes, and only the newest few kept."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.recovery import (
    KEEP_BACKUPS,
    RecoveryError,
    SafeStore,
    backups,
    open_store,
    problem_with,
    recover,
)
from companion.session import Session

from .games import digest, play_one, players

PAGE = 4096


def played(tmp_path: Path, game: str = "highwayman", turns: int = 12, seed: int = 5) -> tuple[Path, list, dict]:
    """A game played ``turns`` player actions deep with a SafeStore, then closed (as after a power
    cut the file system is all that is left). Returns the path, the actions of the game at each
    backup, keyed by backup file name, and the final actions."""
    path = tmp_path / "companion.sqlite3"
    store = SafeStore(path)
    session = Session.new(store, game, players(2), seed=seed, app_draws_all=True)
    rng = random.Random(seed)
    at_backup: dict[str, list] = {}
    for _ in range(turns):
        if session.over:
            break
        before = store.backups_taken
        play_one(session, rng)
        if store.backups_taken != before:
            at_backup[backups(path)[0].name] = list(session.game.actions)
    final = list(session.game.actions)
    store.close()
    return path, final, at_backup


def db_files(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.is_file())


def test_a_backup_is_taken_each_time_the_turn_passes_and_only_the_newest_are_kept(tmp_path: Path) -> None:
    path, _final, at_backup = played(tmp_path, turns=10)
    saved = backups(path)
    assert 1 <= len(saved) <= KEEP_BACKUPS
    assert len(at_backup) >= 5  # highwayman passes the turn after nearly every play
    for b in saved:
        assert problem_with(b, read_only=True) is None
        with sqlite3.connect(b) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    # The newest backup holds the game exactly as it stood when it was taken.
    store = SafeStore(saved[0])
    try:
        gid = store.unfinished()[0].id
        assert store.load(gid).actions == at_backup[saved[0].name]
    finally:
        store.close()
    # Nothing half-written is left behind.
    assert not [p for p in (path.parent / "backups").iterdir() if p.suffix == ".tmp"]


def _truncate_half(path: Path) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as fh:
        fh.truncate(size // 2)


def _truncate_zero(path: Path) -> None:
    path.write_bytes(b"")


def _garbage_header(path: Path) -> None:
    with open(path, "r+b") as fh:
        fh.write(os.urandom(100))


def _garbage_pages(path: Path) -> None:
    rng = random.Random(7)
    pages = path.stat().st_size // PAGE
    with open(path, "r+b") as fh:
        for page in rng.sample(range(1, pages), k=max(1, pages // 3)):
            fh.seek(page * PAGE)
            fh.write(rng.randbytes(PAGE))


def _older_copy(path: Path) -> None:
    """A whole, valid database that is shorter than its backups: what a file system that lost
    the last writes leaves (integrity_check alone cannot see this)."""
    oldest = backups(path)[-1]
    path.unlink()
    shutil.copy(oldest, path)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        gid = db.execute("SELECT MAX(game_id) FROM events").fetchone()[0]
        db.execute("DROP TRIGGER events_append_only_delete")
        last = db.execute("SELECT MAX(seq) FROM events WHERE game_id=?", (gid,)).fetchone()[0]
        db.execute("DELETE FROM events WHERE game_id=? AND seq>=?", (gid, last - 1))


@pytest.mark.parametrize("damage", [_truncate_half, _truncate_zero, _garbage_header, _garbage_pages, _older_copy],
                         ids=["truncated-half", "truncated-zero", "garbage-header", "garbage-pages", "shorter-copy"])
def test_a_damaged_database_is_restored_from_the_newest_good_backup(tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    path, final, at_backup = played(tmp_path)
    newest = backups(path)[0]
    expected = at_backup[newest.name]
    damage(path)
    assert problem_with(path) is not None or damage is _older_copy

    store = open_store(path)
    try:
        report = store.recovered
        assert report is not None and report.recovered
        assert report.backup == newest
        [game] = report.games
        assert game.actions == len(expected) and game.players == ("Ana", "Ben")
        text = report.message()
        assert "Highwayman" in text and f"{len(expected)} actions recovered" in text
        assert report.damaged_copy.exists() and report.damaged_copy.name in text
        # The restored database is sound and the game resumes exactly where the backup was taken.
        assert problem_with(path) is None
        session = Session.resume(store, game.id, app_draws_all=True)
        assert session.game.actions == expected
        assert len(expected) < len(final) or expected == final
        # ... and can be played on.
        play_one(session, random.Random(1))
    finally:
        store.close()


def test_what_was_lost_is_counted_when_the_damaged_file_still_shows_it(tmp_path: Path) -> None:
    path, final, at_backup = played(tmp_path)
    expected = at_backup[backups(path)[0].name]
    # Two more actions after the newest backup, by appending to the file directly (no turn change
    # means no backup), then damage a table the events do not live in.
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        gid, seq = db.execute("SELECT game_id, MAX(seq) FROM events").fetchone()
        for i in (1, 2):
            db.execute("INSERT INTO events VALUES (?, ?, 'action', '{\"kind\": \"x\", \"player\": 0}', 'now')",
                       (gid, seq + i))
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name='snapshots'").fetchone()[0]
    with open(path, "r+b") as fh:
        fh.seek((root - 1) * PAGE)
        fh.write(b"\xff" * PAGE)
    store = open_store(path)
    try:
        report = store.recovered
        assert report is not None
        [game] = report.games
        on_disk_after = len(final) + 2
        assert game.actions == len(expected)
        assert game.lost == on_disk_after - len(expected)
        assert f"the last {game.lost} actions were lost" in report.message()
    finally:
        store.close()


def test_a_damaged_newest_backup_falls_back_to_the_one_before(tmp_path: Path) -> None:
    path, final, at_backup = played(tmp_path)
    newest, older = backups(path)[:2]
    _garbage_header(newest)
    _truncate_half(path)
    store = open_store(path)
    try:
        assert store.recovered is not None and store.recovered.backup == older
        [game] = store.recovered.games
        actions = store.load(game.id).actions
        # An older position of the same game: a prefix of what was played.
        assert game.actions == len(actions) and actions == final[:len(actions)]
        assert len(actions) < len(at_backup[newest.name])
    finally:
        store.close()


def test_without_a_good_backup_the_damaged_file_is_kept_and_the_table_is_told(tmp_path: Path) -> None:
    path, _, _ = played(tmp_path, turns=4)
    for b in backups(path):
        b.unlink()
    _garbage_header(path)
    store = open_store(path)
    try:
        report = store.recovered
        assert report is not None and not report.recovered and report.games == ()
        assert "No good backup" in report.message()
        assert report.damaged_copy.exists()
        assert store.unfinished() == []  # a fresh, working database
        Session.new(store, "highwayman", players(2), seed=1, app_draws_all=True)
    finally:
        store.close()


def test_a_sound_database_is_left_alone(tmp_path: Path) -> None:
    path, final, _ = played(tmp_path)
    before = db_files(path)
    data = path.read_bytes()
    assert recover(path) is None
    assert db_files(path) == before and path.read_bytes() == data
    store = open_store(path)
    try:
        assert store.recovered is None
        assert store.load(store.unfinished()[0].id).actions == final
    finally:
        store.close()


def test_a_database_that_cannot_be_opened_for_another_reason_is_not_moved_aside(tmp_path: Path) -> None:
    path, _, _ = played(tmp_path, turns=3)
    holder = sqlite3.connect(path, timeout=0, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(RecoveryError, match="cannot be"):
            recover(path)
        assert path.exists() and not [n for n in db_files(path) if "damaged" in n]
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_digest_tells_positions_apart(tmp_path: Path) -> None:
    # The crash test relies on this: one more action, another digest.
    store = SafeStore(tmp_path / "d.sqlite3")
    session = Session.new(store, "highwayman", players(2), seed=2, app_draws_all=True)
    before = digest(session.game)
    play_one(session, random.Random(0))
    assert digest(session.game) != before
    store.close()


def test_a_missing_database_with_backups_is_restored_not_started_afresh(tmp_path: Path) -> None:
    # What a crash between moving a damaged file aside and restoring the backup leaves.
    path, _final, at_backup = played(tmp_path)
    newest = backups(path)[0]
    for f in tmp_path.glob("companion.sqlite3*"):
        f.unlink()
    store = open_store(path)
    try:
        report = store.recovered
        assert report is not None and report.backup == newest and report.damaged_copy is None
        assert "missing" in report.message() and "kept as" not in report.message()
        assert store.load(report.games[0].id).actions == at_backup[newest.name]
    finally:
        store.close()
