"""Keeping a game night's record safe from the disk: per-turn backups, recovery of a damaged
database at start, and writes that wait in memory while the disk refuses them.

Why each part exists:

- SQLite with WAL and ``synchronous=FULL`` survives a killed process, but not an SD card that
  corrupts a page or a file system that truncates the database after a power cut. So each time the
  turn passes, :class:`SafeStore` copies the database with SQLite's online backup API into
  ``backups/`` beside it (written to a temporary name, synced, then renamed, so a backup is whole
  or absent) and keeps the newest few.
- At start, :func:`recover` checks the database (``PRAGMA integrity_check``, the schema, and that
  it holds at least what its newest backup holds, which catches a file truncated to a valid but
  shorter database). A damaged file is moved aside, never deleted; the newest good backup takes
  its place; and :class:`RecoveryReport` says, in words for the table, which games came back, with
  how many actions, and what was lost.
- A full or read-only disk must not end the evening: :class:`SafeStore` keeps refused writes in
  order in memory, says so (``problem``), and writes them the moment the disk accepts writes again.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.store import Seat, Store, StoredGame, StoreError, StoreUnwritable, default_data_dir
from rules import Action

#: How many per-turn backups are kept (the newest ones).
KEEP_BACKUPS = 3
BACKUP_DIR = "backups"
_BACKUP_PREFIX = "backup-"
_SIDE_FILES = ("-wal", "-shm", "-journal")


class RecoveryError(StoreError):
    """The database cannot be checked or restored (no readable file, no place to put it)."""


# ---------------------------------------------------------------------------------- checking
def _connect_ro(path: Path) -> sqlite3.Connection:
    # Read-only and without creating anything: checking a file must never change it.
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)


def _live_counts(db: sqlite3.Connection) -> dict[int, int]:
    """Live (not undone) actions per game, as the store counts them."""
    counts: dict[int, int] = {}
    for gid, kind in db.execute("SELECT game_id, kind FROM events ORDER BY game_id, seq"):
        counts[gid] = max(0, counts.get(gid, 0) + (1 if kind == "action" else -1))
    return counts


def _events(db: sqlite3.Connection) -> dict[int, int]:
    return {int(g): int(n) for g, n in db.execute("SELECT game_id, COUNT(*) FROM events GROUP BY game_id")}


#: SQLite's primary result codes that mean the file itself is damaged (not locked, not absent).
_DAMAGE_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _DAMAGE_CODES
    return not isinstance(exc, sqlite3.OperationalError)


def problem_with(path: Path, *, read_only: bool = False) -> str | None:
    """Why the database file at ``path`` cannot be trusted, or None when it is sound.

    Only damage counts: a locked or unreadable file raises :class:`RecoveryError` instead, because
    moving a sound database aside would hide games that are fine. The live database is opened
    read-write so SQLite can replay its WAL after a crash, exactly as the store will.
    """
    try:
        db = _connect_ro(path) if read_only else sqlite3.connect(str(path), isolation_level=None)
    except sqlite3.DatabaseError as exc:
        if _is_damage(exc):
            return f"it cannot be opened ({exc})"
        raise RecoveryError(f"the game database {path} cannot be opened: {exc}") from None
    try:
        rows = db.execute("PRAGMA integrity_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            return f"SQLite's integrity check failed: {rows[0][0]}"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = {"games", "events"} - tables
        if missing:
            return f"its {' and '.join(sorted(missing))} table{_s(len(missing))} {'is' if len(missing) == 1 else 'are'} missing"
        db.execute("SELECT COUNT(*) FROM games").fetchone()
        _live_counts(db)
    except sqlite3.DatabaseError as exc:
        if _is_damage(exc):
            return f"it cannot be read ({exc})"
        raise RecoveryError(f"the game database {path} cannot be read: {exc}") from None
    finally:
        db.close()
    return None


def _behind(path: Path, backup: Path) -> str | None:
    """Events are only ever appended, so a sound database holds at least what its backups hold."""
    try:
        with contextlib.closing(_connect_ro(backup)) as b, \
                contextlib.closing(sqlite3.connect(str(path), isolation_level=None)) as d:
            before, now = _events(b), _events(d)
    except sqlite3.DatabaseError:
        return None  # an unreadable backup says nothing about the database
    for gid, n in before.items():
        if now.get(gid, 0) < n:
            return (f"it holds {now.get(gid, 0)} events of game {gid} where its backup holds {n} "
                    "(the file was cut short)")
    return None


# ---------------------------------------------------------------------------------- backups
def backup_dir(db_path: Path) -> Path:
    return db_path.parent / BACKUP_DIR


def backups(db_path: Path) -> list[Path]:
    """The per-turn backups of ``db_path``, newest first."""
    folder = backup_dir(db_path)
    if not folder.is_dir():
        return []
    found = [p for p in folder.glob(f"{_BACKUP_PREFIX}*.sqlite3") if p.stem[len(_BACKUP_PREFIX):].isdigit()]
    return sorted(found, key=lambda p: int(p.stem[len(_BACKUP_PREFIX):]), reverse=True)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _copy_database(source: sqlite3.Connection, target: Path) -> None:
    """A consistent copy of ``source`` at ``target``: written under a temporary name, synced and
    renamed, so a crash leaves either the whole copy or none."""
    tmp = target.with_name(target.name + ".tmp")
    tmp.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(str(tmp), isolation_level=None)) as dst:
            # No journal and no syncs while copying: the copy is worthless until renamed, and one
            # fsync of the finished file below costs far less than SQLite's per-step syncs.
            dst.execute("PRAGMA journal_mode=OFF")
            dst.execute("PRAGMA synchronous=OFF")
            source.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file, not WAL
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


def take_backup(db: sqlite3.Connection, db_path: Path, *, keep: int = KEEP_BACKUPS) -> Path:
    """Copy the open database into its backup folder and drop all but the newest ``keep``."""
    folder = backup_dir(db_path)
    folder.mkdir(parents=True, exist_ok=True)
    existing = backups(db_path)
    number = int(existing[0].stem[len(_BACKUP_PREFIX):]) + 1 if existing else 1
    target = folder / f"{_BACKUP_PREFIX}{number:08d}.sqlite3"
    _copy_database(db, target)
    for old in backups(db_path)[keep:]:
        old.unlink(missing_ok=True)
    return target


# ---------------------------------------------------------------------------------- recovering
@dataclass(frozen=True)
class RecoveredGame:
    """One game in progress as the backup brought it back."""

    id: int
    game: str
    players: tuple[str, ...]
    actions: int
    #: Actions the damaged file still showed beyond the backup (None: it could not be read).
    lost: int | None

    def sentence(self) -> str:
        names = ", ".join(self.players)
        said = f"{_title(self.game)} (game {self.id}, {names}): {self.actions} action{_s(self.actions)} recovered"
        if self.lost is None:
            return said + "; anything played after the backup is lost"
        if self.lost == 0:
            return said + ", nothing lost"
        return said + f"; the last {self.lost} action{_s(self.lost)} were lost"


@dataclass(frozen=True)
class RecoveryReport:
    """What happened to a damaged database at start, for the people at the table."""

    reason: str
    #: Where the damaged file was moved (None when it was missing).
    damaged_copy: Path | None
    backup: Path | None
    backup_time: str | None
    games: tuple[RecoveredGame, ...] = field(default_factory=tuple)

    @property
    def recovered(self) -> bool:
        return self.backup is not None

    def message(self) -> str:
        head = f"The game database was damaged ({self.reason})."
        kept = "" if self.damaged_copy is None else f"The damaged file is kept as {self.damaged_copy.name}."
        if self.backup is None:
            return f"{head} No good backup was found, so the companion starts with an empty history. {kept}".strip()
        when = f" from {self.backup_time} UTC" if self.backup_time else ""
        if not self.games:
            return f"{head} It was restored from the backup{when}; no game was in progress. {kept}".strip()
        lines = "; ".join(g.sentence() for g in self.games)
        return (f"{head} Restored from the backup{when}. {lines}. "
                f"Check the table against the screen before playing on. {kept}").strip()


def _title(game: str) -> str:
    try:
        from companion.session.guides import GUIDES
    except ImportError:  # pragma: no cover - the session is part of the app
        return game
    g = GUIDES.get(game)
    return g.title if g is not None and g.title else game


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _move_aside(path: Path, stamp: str) -> Path:
    """Keep the damaged database (and its WAL/journal files) under a new name, for inspection."""
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    os.replace(path, target)
    for suffix in _SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target


def _damaged_counts(copy: Path) -> dict[int, int] | None:
    """Live actions per game that the damaged file can still show, if it can show anything."""
    try:
        with contextlib.closing(_connect_ro(copy)) as db:
            return _live_counts(db)
    except sqlite3.DatabaseError:
        return None


def recover(path: str | Path, *, clock: Callable[[], float] = time.time) -> RecoveryReport | None:
    """Check the database at ``path``; if it cannot be trusted, restore the newest good backup.

    Returns None when the database is sound (or does not exist yet: a first start), otherwise the
    report to show. Never deletes anything: the damaged file is renamed beside the original.
    """
    path = Path(path)
    saved = backups(path)
    if not path.exists():
        if not saved:
            return None  # a first start
        # Deleted, or a crash between moving a damaged file aside and restoring: the backups
        # are all there is, and an empty new database must not hide them.
        reason, damaged, after = "the file is missing", None, None
    else:
        if not saved and path.stat().st_size == 0:
            return None  # a first start that was cut short: there is nothing to lose
        reason = problem_with(path)
        if reason is None and saved:
            reason = _behind(path, saved[0])
        if reason is None:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(clock()))
        try:
            damaged = _move_aside(path, stamp)
        except OSError as exc:
            raise RecoveryError(f"the game database {path} is damaged ({reason}) and cannot be moved aside: {exc}") from None
        after = _damaged_counts(damaged)
    for candidate in saved:
        try:
            bad = problem_with(candidate, read_only=True)
        except RecoveryError:
            continue
        if bad is not None:
            continue
        try:
            with contextlib.closing(_connect_ro(candidate)) as src:
                _copy_database(src, path)
                games = _games_in_progress(src, after)
        except (sqlite3.DatabaseError, OSError):
            continue
        taken = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(candidate.stat().st_mtime))
        return RecoveryReport(reason, damaged, candidate, taken, tuple(games))
    return RecoveryReport(reason, damaged, None, None)


def _games_in_progress(src: sqlite3.Connection, after: dict[int, int] | None) -> list[RecoveredGame]:
    counts = _live_counts(src)
    out = []
    for gid, game, players in src.execute("SELECT id, game, players FROM games WHERE status='playing' ORDER BY id"):
        try:
            names = tuple(Seat.from_json(p).name for p in json.loads(players))
        except (ValueError, TypeError):
            names = ()
        have = counts.get(gid, 0)
        lost = None if after is None or gid not in after else max(0, after[gid] - have)
        out.append(RecoveredGame(int(gid), str(game), names, have, lost))
    return out


# ---------------------------------------------------------------------------------- the store
@dataclass
class _Pending:
    """A write the disk refused, waiting in memory: ``op`` is action, undo, finish or abandon."""

    op: str
    game_id: int
    action: Action | None = None
    jpeg: bytes | None = None
    note: str = ""
    summary: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    record: dict[str, Any] | None = None


class SafeStore(Store):
    """The store the app uses: recovery at start, a backup whenever the turn passes, and writes
    kept in memory (in order) while the disk refuses them.

    ``recovered`` is the :class:`RecoveryReport` of this start (None when all was well);
    ``problem`` is a sentence for the screen while writes wait in memory (None otherwise).
    """

    def __init__(self, path: str | Path | None = None, *, clock: Callable[[], float] = time.time,
                 keep_backups: int = KEEP_BACKUPS) -> None:
        if path is None:
            path = default_data_dir() / "companion.sqlite3"
        self.recovered: RecoveryReport | None = None
        if str(path) != ":memory:":
            self.recovered = recover(path, clock=clock)
        super().__init__(path, clock=clock)
        self.keep_backups = keep_backups
        self.pending: list[_Pending] = []
        self.problem: str | None = None
        self.backup_problem: str | None = None
        self._to_move: dict[int, Any] = {}
        self.backups_taken = 0

    # -- backups ---------------------------------------------------------------------------
    def backup(self) -> Path | None:
        """Take a backup now; a failure is noted in ``backup_problem``, never raised: losing a
        backup must not cost the game in progress."""
        if str(self.path) == ":memory:" or self._db.in_transaction:
            return None
        try:
            target = take_backup(self._db, self.path, keep=self.keep_backups)
        except (sqlite3.DatabaseError, OSError) as exc:
            self.backup_problem = f"the turn backup failed: {exc}"
            return None
        self.backup_problem = None
        self.backups_taken += 1
        return target

    def _turn_passed(self, game_id: int, summary: dict[str, Any] | None) -> None:
        if summary is None or "to_move" not in summary:
            return
        if game_id in self._to_move and self._to_move[game_id] != summary["to_move"]:
            self.backup()
        self._to_move[game_id] = summary["to_move"]

    # -- writes that may wait --------------------------------------------------------------
    def _refused(self, exc: StoreUnwritable) -> None:
        n = len(self.pending)
        self.problem = (f"The companion cannot save to its disk ({_cause(exc)}): {n} change{_s(n)} "
                        f"{'is' if n == 1 else 'are'} kept in memory and will be saved as soon as the "
                        "disk works again. Do not switch it off.")

    def flush(self) -> bool:
        """Write every waiting change, oldest first; True when none is left waiting."""
        while self.pending:
            p = self.pending[0]
            try:
                if p.op == "action":
                    assert p.action is not None
                    super().append_action(p.game_id, p.action, jpeg=p.jpeg, note=p.note, summary=p.summary)
                elif p.op == "undo":
                    super().append_undo(p.game_id)
                elif p.op == "finish":
                    assert p.result is not None and p.record is not None
                    super().finish(p.game_id, p.result, p.record)
                else:
                    super().abandon(p.game_id)
            except StoreUnwritable as exc:
                self._refused(exc)
                return False
            self.pending.pop(0)
        if self.problem is not None:
            self.problem = None
            self.backup()  # what was only in memory is now on disk: copy it at once
        return True

    def _status(self, game_id: int) -> str:
        row = self._db.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id} in the database")
        status = str(row[0])
        for p in self.pending:
            if p.game_id == game_id and p.op in ("finish", "abandon"):
                status = "finished" if p.op == "finish" else "abandoned"
        return status

    def _check_playing(self, game_id: int) -> None:
        status = self._status(game_id)
        if status != "playing":
            raise StoreError(f"game {game_id} is {status}: no more actions can be recorded")

    def append_action(self, game_id: int, action: Action, *, jpeg: bytes | None = None,
                      note: str = "", summary: dict[str, Any] | None = None) -> int:
        if not self.pending or self.flush():
            try:
                seq = super().append_action(game_id, action, jpeg=jpeg, note=note, summary=summary)
            except StoreUnwritable as exc:
                self._check_playing(game_id)
                self.pending.append(_Pending("action", game_id, action, jpeg, note, summary))
                self._refused(exc)
                return self._next_seq_guess(game_id)
            self._turn_passed(game_id, summary)
            return seq
        self._check_playing(game_id)
        self.pending.append(_Pending("action", game_id, action, jpeg, note, summary))
        self._refused_again()
        return self._next_seq_guess(game_id)

    def append_undo(self, game_id: int) -> int:
        if not self.pending or self.flush():
            try:
                return super().append_undo(game_id)
            except StoreUnwritable as exc:
                self._queue_undo(game_id)
                self._refused(exc)
                return self._next_seq_guess(game_id)
        self._queue_undo(game_id)
        self._refused_again()
        return self._next_seq_guess(game_id)

    def _queue_undo(self, game_id: int) -> None:
        self._check_playing(game_id)
        if not self.load(game_id).actions:
            raise StoreError(f"game {game_id} has no recorded action to undo")
        self.pending.append(_Pending("undo", game_id))

    def finish(self, game_id: int, result: dict[str, Any], record: dict[str, Any]) -> None:
        if not self.pending or self.flush():
            try:
                super().finish(game_id, result, record)
            except StoreUnwritable as exc:
                self._check_finishable(game_id)
                self.pending.append(_Pending("finish", game_id, result=result, record=record))
                self._refused(exc)
                return
            self.backup()
            return
        self._check_finishable(game_id)
        self.pending.append(_Pending("finish", game_id, result=result, record=record))
        self._refused_again()

    def _check_finishable(self, game_id: int) -> None:
        status = self._status(game_id)
        if status != "playing":
            raise StoreError(f"game {game_id} is already {status}")

    def abandon(self, game_id: int) -> None:
        if not self.pending or self.flush():
            try:
                super().abandon(game_id)
                return
            except StoreUnwritable as exc:
                self._check_finishable(game_id)
                self.pending.append(_Pending("abandon", game_id))
                self._refused(exc)
                return
        self._check_finishable(game_id)
        self.pending.append(_Pending("abandon", game_id))
        self._refused_again()

    def _refused_again(self) -> None:
        n = len(self.pending)
        if self.problem is not None:
            head = self.problem.split(":")[0]
            self.problem = (f"{head}: {n} change{_s(n)} {'is' if n == 1 else 'are'} kept in memory and will "
                            "be saved as soon as the disk works again. Do not switch it off.")

    def _next_seq_guess(self, game_id: int) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq), -1) FROM events WHERE game_id=?", (game_id,)).fetchone()
        return int(row[0]) + sum(1 for p in self.pending if p.game_id == game_id and p.op in ("action", "undo"))

    # -- reads include what waits in memory ------------------------------------------------
    def load(self, game_id: int) -> StoredGame:
        stored = super().load(game_id)
        for p in self.pending:
            if p.game_id != game_id:
                continue
            if p.op == "action":
                assert p.action is not None
                stored.actions.append(p.action)
                stored.events += 1
            elif p.op == "undo":
                if stored.actions:
                    stored.actions.pop()
                stored.events += 1
            else:
                stored.status = "finished" if p.op == "finish" else "abandoned"
                stored.result, stored.record = p.result, p.record
        return stored

    def last_scan(self, game_id: int) -> bytes | None:
        # The live turns: those on disk, then the waiting ones (an undo takes back the newest).
        live: list[tuple[int | None, bytes | None]] = [(seq, None) for seq in self.live_seqs(game_id)]
        for p in self.pending:
            if p.game_id == game_id and p.op == "action":
                live.append((None, p.jpeg))
            elif p.game_id == game_id and p.op == "undo" and live:
                live.pop()
        for seq, jpeg in reversed(live):
            picture = jpeg if seq is None else self.scan(game_id, seq)
            if picture is not None:
                return picture
        return None

    def close(self) -> None:
        if self.pending:
            self.flush()
        super().close()


def _cause(exc: BaseException) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if ": " in text else text


def open_store(path: str | Path | None = None, **kwargs: Any) -> SafeStore:
    """The app's store: recovered if damaged, backed up each turn, patient with a full disk."""
    return SafeStore(path, **kwargs)


@contextlib.contextmanager
def writes_refused(store: Store, how: str = "read-only") -> Iterator[None]:
    """Make SQLite itself refuse writes on ``store`` for a while: ``read-only`` (query_only, the
    error a read-only file system gives) or ``full`` (max_page_count at the current size, the real
    SQLITE_FULL). For drills and tests: a root user ignores file permissions."""
    db = store._db
    if how == "read-only":
        db.execute("PRAGMA query_only=ON")
        try:
            yield
        finally:
            db.execute("PRAGMA query_only=OFF")
    elif how == "full":
        before = int(db.execute("PRAGMA max_page_count").fetchone()[0])
        pages = int(db.execute("PRAGMA page_count").fetchone()[0])
        db.execute(f"PRAGMA max_page_count={pages}")
        try:
            yield
        finally:
            db.execute(f"PRAGMA max_page_count={before}")
    else:
        raise ValueError(f"unknown refusal {how!r} (read-only or full)")


__all__ = ["KEEP_BACKUPS", "RecoveredGame", "RecoveryError", "RecoveryReport", "SafeStore", "backups",
           "open_store", "problem_with", "recover", "take_backup", "writes_refused"]
