"""The app's memory: every game, every confirmed action, the picture of each turn, in SQLite.

Why SQLite with WAL and ``synchronous=FULL``: a Raspberry Pi gets its power pulled at game night.
Each confirmed action is one committed transaction, so after a crash the game resumes exactly at
the last action the players saw confirmed. Events are only ever appended (triggers refuse UPDATE
and DELETE on them); an undo is itself an appended ``undo`` event, so the log is a faithful diary
and a resumed game is rebuilt by replaying it.

Tables:

``games``      one row per game: engine id, players (name, colour, seat), options, seed, who
               started, start/finish times, status (``playing``, ``finished``, ``abandoned``), and
               for finished games the result (standings with breakdowns) and the game record.
``events``     (game_id, seq) -> ``action`` (the action's JSON) or ``undo``, with its time.
``scans``      a small JPEG of the table for an event (the turn's picture), kept beside it.
``snapshots``  a JSON summary (scores, whose turn) every few events, so lists and history screens
               need not replay games.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import Action

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    first_player INTEGER NOT NULL DEFAULT 0,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    result TEXT,
    record TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
    action TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS scans (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    summary TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
"""

#: How often (in events) a summary snapshot is written.
SNAPSHOT_EVERY = 10


class StoreError(ValueError):
    """A request the store cannot honour (unknown game, wrong status) or an unreadable database."""


class StoreUnwritable(StoreError):
    """The disk refused a write (full, read-only, I/O error); nothing of it was recorded."""


@dataclass(frozen=True)
class Seat:
    """A player at the table: name, token colour and which table edge they sit at."""

    name: str
    colour: str = ""
    edge: str = ""

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "colour": self.colour, "edge": self.edge}

    @classmethod
    def from_json(cls, data: Any) -> Seat:
        if isinstance(data, str):
            return cls(data)
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise StoreError(f"a stored player must have a name, not {data!r}")
        return cls(data["name"], str(data.get("colour", "")), str(data.get("edge", "")))


@dataclass
class StoredGame:
    """A game as the store knows it (``actions`` are the live ones, undos already applied)."""

    id: int
    game: str
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    first_player: int
    started: str
    finished: str | None
    status: str
    result: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    actions: list[Action] = field(default_factory=list)
    events: int = 0

    @property
    def players(self) -> list[str]:
        return [s.name for s in self.seats]


def default_data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA")
    if env:
        return Path(env)
    return Path.home() / ".local" / "share" / "companion"


def _now(clock: Callable[[], float]) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(clock()))


class Store:
    """The SQLite store. One connection, used from one thread at a time (the session's)."""

    def __init__(self, path: str | Path | None = None, *, clock: Callable[[], float] = time.time) -> None:
        if path is None:
            path = default_data_dir() / "companion.sqlite3"
        self.path = Path(path)
        self._clock = clock
        try:
            if str(self.path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # check_same_thread=False: the UI hands work to the session from Clock callbacks and
            # a worker thread; the session serialises access itself.
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise StoreError(f"{self.path} has database schema {row[0]}, this program reads {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the game database {self.path}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            raise StoreUnwritable(f"the game database is not writable: {exc}") from None
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException as exc:
            # SQLite rolls back by itself on SQLITE_FULL and some I/O errors, and a failed COMMIT
            # leaves the transaction open: roll back only what is still open, so the next write
            # starts clean and the real error is the one reported.
            if self._db.in_transaction:
                with suppress(sqlite3.DatabaseError):
                    self._db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError):
                raise StoreUnwritable(f"the game database could not be written: {exc}") from None
            raise

    # ------------------------------------------------------------------ writing
    def create_game(self, game: str, seats: Sequence[Seat | str], *, options: dict[str, Any] | None = None,
                    seed: int = 0, first_player: int = 0) -> int:
        players = json.dumps([(s if isinstance(s, Seat) else Seat(s)).to_json() for s in seats])
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO games (game, players, options, seed, first_player, started, status)"
                " VALUES (?, ?, ?, ?, ?, ?, 'playing')",
                (game, players, json.dumps(options or {}), seed, first_player, _now(self._clock)))
            assert cur.lastrowid is not None
            return cur.lastrowid

    def _next_seq(self, db: sqlite3.Connection, game_id: int) -> int:
        status = db.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()
        if status is None:
            raise StoreError(f"there is no game {game_id} in the database")
        if status[0] != "playing":
            raise StoreError(f"game {game_id} is {status[0]}: no more actions can be recorded")
        row = db.execute("SELECT COALESCE(MAX(seq), -1) FROM events WHERE game_id=?", (game_id,)).fetchone()
        return int(row[0]) + 1

    def append_action(self, game_id: int, action: Action, *, jpeg: bytes | None = None,
                      note: str = "", summary: dict[str, Any] | None = None) -> int:
        """Record one confirmed action (and the turn's picture) in one transaction; its seq."""
        text = json.dumps(action.to_json(), sort_keys=True)
        with self._transaction() as db:
            seq = self._next_seq(db, game_id)
            db.execute("INSERT INTO events VALUES (?, ?, 'action', ?, ?)",
                       (game_id, seq, text, _now(self._clock)))
            if jpeg is not None:
                db.execute("INSERT INTO scans VALUES (?, ?, ?, ?)", (game_id, seq, jpeg, note))
            if summary is not None and seq % SNAPSHOT_EVERY == 0:
                db.execute("INSERT INTO snapshots VALUES (?, ?, ?)", (game_id, seq, json.dumps(summary)))
        return seq

    def append_undo(self, game_id: int) -> int:
        with self._transaction() as db:
            live = self._live_actions(db, game_id)
            if not live:
                raise StoreError(f"game {game_id} has no recorded action to undo")
            seq = self._next_seq(db, game_id)
            db.execute("INSERT INTO events VALUES (?, ?, 'undo', NULL, ?)", (game_id, seq, _now(self._clock)))
        return seq

    def finish(self, game_id: int, result: dict[str, Any], record: dict[str, Any]) -> None:
        with self._transaction() as db:
            row = db.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no game {game_id} in the database")
            if row[0] != "playing":
                raise StoreError(f"game {game_id} is already {row[0]}")
            db.execute("UPDATE games SET status='finished', finished=?, result=?, record=? WHERE id=?",
                       (_now(self._clock), json.dumps(result), json.dumps(record), game_id))

    def abandon(self, game_id: int) -> None:
        with self._transaction() as db:
            cur = db.execute("UPDATE games SET status='abandoned', finished=? WHERE id=? AND status='playing'",
                             (_now(self._clock), game_id))
            if cur.rowcount != 1:
                raise StoreError(f"game {game_id} is not a game in progress")

    # ------------------------------------------------------------------ reading
    def _live_actions(self, db: sqlite3.Connection, game_id: int) -> list[tuple[int, Action]]:
        live: list[tuple[int, Action]] = []
        for seq, kind, text in db.execute(
                "SELECT seq, kind, action FROM events WHERE game_id=? ORDER BY seq", (game_id,)):
            if kind == "undo":
                if live:
                    live.pop()
            else:
                try:
                    live.append((seq, Action.from_json(json.loads(text))))
                except (ValueError, TypeError) as exc:
                    raise StoreError(f"game {game_id} event {seq} cannot be read: {exc}") from None
        return live

    def _row_to_game(self, row: tuple[Any, ...]) -> StoredGame:
        (gid, game, players, options, seed, first, started, finished, status, result, record) = row
        return StoredGame(
            id=gid, game=game, seats=[Seat.from_json(p) for p in json.loads(players)],
            options=json.loads(options), seed=seed, first_player=first, started=started,
            finished=finished, status=status,
            result=json.loads(result) if result else None,
            record=json.loads(record) if record else None)

    _COLUMNS = "id, game, players, options, seed, first_player, started, finished, status, result, record"

    def load(self, game_id: int) -> StoredGame:
        row = self._db.execute(f"SELECT {self._COLUMNS} FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id} in the database")
        stored = self._row_to_game(row)
        live = self._live_actions(self._db, game_id)
        stored.actions = [a for _, a in live]
        stored.events = int(self._db.execute(
            "SELECT COUNT(*) FROM events WHERE game_id=?", (game_id,)).fetchone()[0])
        return stored

    def live_seqs(self, game_id: int) -> list[int]:
        """The event seq of each live action, in order (to find a turn's picture)."""
        return [seq for seq, _ in self._live_actions(self._db, game_id)]

    def unfinished(self) -> list[StoredGame]:
        rows = self._db.execute(
            f"SELECT {self._COLUMNS} FROM games WHERE status='playing' ORDER BY id DESC").fetchall()
        return [self._row_to_game(r) for r in rows]

    def finished_games(self) -> list[StoredGame]:
        rows = self._db.execute(
            f"SELECT {self._COLUMNS} FROM games WHERE status='finished' ORDER BY id").fetchall()
        return [self._row_to_game(r) for r in rows]

    def scan(self, game_id: int, seq: int) -> bytes | None:
        row = self._db.execute("SELECT jpeg FROM scans WHERE game_id=? AND seq=?", (game_id, seq)).fetchone()
        return None if row is None else bytes(row[0])

    def last_scan(self, game_id: int) -> bytes | None:
        """The newest picture of a live (not undone) action."""
        for seq in reversed(self.live_seqs(game_id)):
            jpeg = self.scan(game_id, seq)
            if jpeg is not None:
                return jpeg
        return None

    # ------------------------------------------------------------------ history and export
    def player_stats(self) -> list[dict[str, Any]]:
        """Per player and game: games played, wins, average and best score (finished games)."""
        stats: dict[tuple[str, str], dict[str, Any]] = {}
        for g in self.finished_games():
            assert g.result is not None
            lowest = bool(g.result.get("lowest_wins"))
            for s in g.result.get("standings", []):
                key = (s["name"], g.game)
                entry = stats.setdefault(key, {"player": s["name"], "game": g.game, "games": 0, "wins": 0,
                                               "scores": [], "lowest_wins": lowest})
                entry["games"] += 1
                entry["wins"] += 1 if s["place"] == 1 else 0
                entry["scores"].append(s["score"])
        out = []
        for entry in sorted(stats.values(), key=lambda e: (e["player"].lower(), e["game"])):
            scores = entry.pop("scores")
            lowest = entry.pop("lowest_wins")
            entry["average"] = round(sum(scores) / len(scores), 2)
            entry["best"] = min(scores) if lowest else max(scores)
            out.append(entry)
        return out

    def bgstats_play(self, game_id: int, *, title: str, source: str = "Game-night companion") -> dict[str, Any]:
        """A finished game in BG Stats' play-import JSON (the format its "push plays from other
        apps" page documents: game, playDate, durationMin, players with score/rank/winner)."""
        g = self.load(game_id)
        if g.status != "finished" or g.result is None:
            raise StoreError(f"game {game_id} is not finished, so it cannot be exported")
        standings = {s["player"]: s for s in g.result["standings"]}
        lowest = bool(g.result.get("lowest_wins"))
        minutes = max(0, round((_parse(g.finished or g.started) - _parse(g.started)) / 60))
        return {
            "sourceName": source,
            "sourcePlayId": f"{g.game}-{g.id}",
            "playDate": g.started,
            "durationMin": minutes,
            "location": "",
            "board": "",
            "comments": f"Recorded by the table companion: {len(g.actions)} actions, seed {g.seed}.",
            "game": {"name": title, "sourceGameId": g.game, "highestWins": not lowest, "noPoints": False},
            "players": [
                {"name": seat.name, "sourcePlayerId": seat.name, "role": seat.colour,
                 "startPlayer": i == g.first_player,
                 "score": standings[i]["score"], "rank": standings[i]["place"],
                 "winner": standings[i]["place"] == 1}
                for i, seat in enumerate(g.seats)
            ],
        }

    def plays_csv(self) -> str:
        """Every finished game, one row per player: a spreadsheet of all plays."""
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow(["game_id", "game", "started", "finished", "player", "seat", "colour", "score",
                      "place", "winner"])
        for g in self.finished_games():
            assert g.result is not None
            for s in g.result["standings"]:
                seat = g.seats[s["player"]]
                out.writerow([g.id, g.game, g.started, g.finished, seat.name, s["player"], seat.colour,
                              s["score"], s["place"], int(s["place"] == 1)])
        return buf.getvalue()


def _parse(stamp: str) -> float:
    import calendar

    return float(calendar.timegm(time.strptime(stamp, "%Y-%m-%d %H:%M:%S")))
