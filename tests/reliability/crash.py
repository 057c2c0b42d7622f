"""The crash campaign shared by the test and the long run: start the child, let it commit, SIGKILL
it at a random moment (often right inside a commit), check the database, restart, repeat.

After every kill: ``PRAGMA integrity_check`` is ok, no recovery was needed, every action the child
confirmed is in the store in order, whatever the store holds beyond that replays legally, and the
replayed engine after exactly the confirmed actions is in the position the child reported.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.store import Store
from rules import Action
from rules.registry import game_class

from .games import digest

ROOT = Path(__file__).resolve().parents[2]


class CrashCheckFailed(AssertionError):
    pass


@dataclass
class Campaign:
    kills: int = 0
    mid_commit: int = 0  # killed after "committing" and before "ok"
    landed: int = 0  # of those, how many commits were on disk anyway (durable before confirmed)
    confirmed_actions: int = 0  # actions confirmed across all runs and verified after kills
    games_finished: int = 0
    games_lost: int = 0
    restarts_ms: list[float] = field(default_factory=list)
    #: What the child confirmed (game id -> actions) and the positions it reported, for checks.
    confirmed: dict[int, list[Action]] = field(default_factory=dict)
    digests: dict[int, dict[int, str]] = field(default_factory=dict)


def _spawn(db: Path, seed: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.reliability.crash_child", str(db), str(seed)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def check(db: Path, confirmed: dict[int, list[Action]], digests: dict[int, dict[int, str]], stats: Campaign) -> None:
    with contextlib.closing(sqlite3.connect(db)) as raw:
        verdict = raw.execute("PRAGMA integrity_check").fetchall()
    if verdict != [("ok",)]:
        raise CrashCheckFailed(f"integrity_check after kill {stats.kills}: {verdict}")
    with contextlib.closing(Store(db)) as store:
        for gid, actions in confirmed.items():
            stored = store.load(gid)
            if stored.actions[:len(actions)] != actions:
                stats.games_lost += 1
                raise CrashCheckFailed(f"kill {stats.kills}: game {gid} lost confirmed actions "
                                       f"({len(stored.actions)} stored, {len(actions)} confirmed)")
            engine = game_class(stored.game)(stored.players, seed=stored.seed, options=stored.options)
            want = digests[gid]
            if 0 in want and digest(engine) != want[0]:
                raise CrashCheckFailed(f"kill {stats.kills}: game {gid} does not start as reported")
            for i, action in enumerate(stored.actions, 1):
                engine.push(action)  # a half-applied or torn action would be refused here
                if i in want and digest(engine) != want[i]:
                    raise CrashCheckFailed(f"kill {stats.kills}: game {gid} after {i} actions is not in the "
                                           "position the app confirmed")


def run(db: Path, *, kills: int, seed: int = 0, max_lines: int = 16,
        progress: Callable[[Campaign], None] | None = None) -> Campaign:
    """SIGKILL the child ``kills`` times; raises CrashCheckFailed on the first thing lost."""
    rng = random.Random(seed)
    stats = Campaign()
    confirmed, digests = stats.confirmed, stats.digests
    while stats.kills < kills:
        started = time.perf_counter()
        child = _spawn(db, seed * 100_000 + stats.kills)
        assert child.stdout is not None
        target = rng.randint(1, max_lines)
        inside = rng.random() < 0.5  # half the kills aim at the commit itself
        lines = 0
        last: dict[str, Any] = {}
        first = True
        try:
            while True:
                line = child.stdout.readline()
                if not line:
                    err = child.stderr.read() if child.stderr else ""
                    raise CrashCheckFailed(f"the child stopped by itself: {err.strip()[-800:]}")
                msg = json.loads(line)
                if "recovered" in msg:
                    raise CrashCheckFailed(f"a SIGKILL left a database that needed recovery: {msg['recovered']}")
                if first:
                    stats.restarts_ms.append((time.perf_counter() - started) * 1000)
                    first = False
                if "start" in msg:
                    gid = msg["start"]
                    have = confirmed.setdefault(gid, [])
                    if msg["n"] < len(have):
                        raise CrashCheckFailed(f"game {gid} resumed with {msg['n']} actions, {len(have)} were confirmed")
                    if len(have) < msg["n"]:  # committed but unconfirmed before the last kill: now it is there
                        with contextlib.closing(Store(db)) as store:
                            have[:] = store.load(gid).actions[:msg["n"]]
                    digests.setdefault(gid, {})[msg["n"]] = msg["digest"]
                elif "ok" in msg:
                    gid = msg["ok"]
                    confirmed[gid].extend(Action.from_json(a) for a in msg["actions"])
                    if len(confirmed[gid]) != msg["n"]:
                        raise CrashCheckFailed(f"game {gid}: confirmed {len(confirmed[gid])} actions, child says {msg['n']}")
                    digests[gid][msg["n"]] = msg["digest"]
                    stats.confirmed_actions += len(msg["actions"])
                last = msg
                lines += 1
                if lines >= target and (not inside or "committing" in msg):
                    if inside:
                        # Somewhere inside the commit (a few ms with fsync), the backup, or just after.
                        time.sleep(rng.choice([0.0, 0.002, 0.03]) * rng.random())
                    break
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
            if child.stdout:
                child.stdout.close()
            if child.stderr:
                child.stderr.close()
        stats.kills += 1
        if progress is not None and stats.kills % 50 == 0:
            progress(stats)
        if "committing" in last:
            stats.mid_commit += 1
        before = {g: len(a) for g, a in confirmed.items()}
        check(db, confirmed, digests, stats)
        if "committing" in last:
            with contextlib.closing(Store(db)) as store:
                gid = max(confirmed)
                if len(store.load(gid).actions) > before[gid]:
                    stats.landed += 1
    with contextlib.closing(Store(db)) as store:
        stats.games_finished = len(store.finished_games())
    return stats
