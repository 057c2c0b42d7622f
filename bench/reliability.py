"""The reliability figures of docs/reliability.md: the long runs, measured.

    .venv/bin/python bench/reliability.py [crash|frames|camera|buttons|backup|catalogs|records|all] [--long] [--n N]

Each part prints one JSON object (with the date, the count, and the outcome counts), so the docs
can quote it. The same campaigns are what ``./dev.sh long`` asserts on; this script measures
them. Without ``--long`` the sizes are quick (``./dev.sh bench`` runs it so); ``--long`` gives
the long-run sizes (1,000 kills, 10,000 frames, 1,000 camera cycles, 20,000 bounce trains).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def crash(n: int) -> dict[str, Any]:
    from tests.reliability import crash as campaign

    with tempfile.TemporaryDirectory() as d:
        started = time.perf_counter()
        stats = campaign.run(Path(d) / "companion.sqlite3", kills=n, seed=8, progress=lambda s: print(
            f"{s.kills} kills, {s.mid_commit} inside a commit, {s.confirmed_actions} confirmed actions checked",
            file=sys.stderr, flush=True))
        took = time.perf_counter() - started
    return {"kills": stats.kills, "killed_inside_commit": stats.mid_commit,
            "of_which_commit_was_durable": stats.landed, "confirmed_actions_checked": stats.confirmed_actions,
            "games_finished": stats.games_finished, "games_lost": stats.games_lost,
            "integrity_failures": 0, "restart_to_first_line_ms_median": round(statistics.median(stats.restarts_ms)),
            "seconds": round(took)}


def frames(n: int) -> dict[str, Any]:
    import vision
    from tests.reliability.garbage import frames as garbage

    os.environ.setdefault("COMPANION_CACHE", str(Path(tempfile.gettempdir()) / "companion-reliability-cache"))
    vision.scan(_good_table(), "highwayman")  # load the pack once, outside the timing
    times: list[float] = []
    by_kind: dict[str, list[float]] = {}
    outcomes: dict[str, int] = {}
    crashes = 0
    cards = 0
    for kind, frame in garbage(n, start=300):
        t0 = time.perf_counter()
        try:
            obs = vision.scan(frame, "highwayman")
            result = "empty observation"
            cards += len(obs.items) + len(obs.unsure)
        except vision.VisionError as exc:
            result = type(exc).__name__
        except Exception as exc:  # counted, not hidden: this is what the test forbids
            result = f"CRASH {type(exc).__name__}"
            crashes += 1
        took = time.perf_counter() - t0
        times.append(took)
        by_kind.setdefault(kind, []).append(took)
        outcomes[result] = outcomes.get(result, 0) + 1
    slowest = sorted(((pct(v, 99), k) for k, v in by_kind.items()), reverse=True)[:4]
    return {"frames": n, "outcomes": outcomes, "crashes": crashes, "cards_read_in_garbage": cards,
            "reject_ms_median": round(statistics.median(times) * 1000, 1),
            "reject_ms_p99": round(pct(times, 99) * 1000, 1), "reject_ms_max": round(max(times) * 1000, 1),
            "p99_ms_slowest_kinds": {k: round(v * 1000, 1) for v, k in slowest}}


def _good_table() -> Any:
    from tests.reliability.garbage import table

    return table(1152)


def camera(n: int) -> dict[str, Any]:
    from tests.reliability.soak import camera_soak

    logging.getLogger("hardware.camera").setLevel(logging.ERROR)
    s = camera_soak(n, seed=2)
    return {"cycles": s.cycles, "by_fault": s.by_fault, "camera_lost_events": s.lost_events,
            "camera_back_events": s.back_events, "extra_outages": s.extra_outages,
            "pictures_served_while_lost": s.stale_frames_served,
            "detect_s_median": round(statistics.median(s.detect_s), 3), "detect_s_p99": round(pct(s.detect_s, 99), 3),
            "recover_s_median": round(statistics.median(s.recover_s), 3),
            "recover_s_p99": round(pct(s.recover_s, 99), 3), "recover_s_max": round(max(s.recover_s), 3),
            "latest_call_ms_max": round(s.latest_max_s * 1000, 3),
            "settings": "read_timeout 0.4 s, stale_seconds 0.3 s, backoff 0.01-0.05 s"}


def buttons(n: int) -> dict[str, Any]:
    from tests.reliability.soak import button_soak

    s = button_soak(n, seed=2)
    return {"bounce_trains": s.trains, "raw_edges": s.edges, "logical_presses": s.presses,
            "double_presses": s.double_presses, "missed_presses": s.missed, "end_turns": s.end_turns}


def backup(n: int) -> dict[str, Any]:
    """What a per-turn backup costs on this disk, against the commit it follows."""
    import random

    from companion.recovery import SafeStore
    from companion.session import Session

    with tempfile.TemporaryDirectory() as d:
        store = SafeStore(Path(d) / "companion.sqlite3")
        session = Session.new(store, "highwayman", ["Ana", "Ben", "Cy"], seed=1, app_draws_all=True)
        rng = random.Random(1)
        picture = rng.randbytes(40_000)
        commit: list[float] = []
        with_backup: list[float] = []
        for _ in range(n):
            if session.over:
                break
            taken = store.backups_taken
            t0 = time.perf_counter()
            session.apply(rng.choice(session.game.legal_actions()), jpeg=picture)
            took = time.perf_counter() - t0
            (with_backup if store.backups_taken > taken else commit).append(took)
        size = sum(f.stat().st_size for f in Path(d).glob("companion.sqlite3*"))  # with its WAL
        store.close()
    return {"plays": len(commit) + len(with_backup), "db_bytes": size,
            "play_ms_median_without_backup": round(statistics.median(commit) * 1000, 1) if commit else None,
            "play_ms_median_with_backup": round(statistics.median(with_backup) * 1000, 1) if with_backup else None}


def catalogs(n: int) -> dict[str, Any]:
    """``n`` mutated catalog files per game through its loader: refused (CatalogError) or loaded;
    anything else is reported as the first crash of that game (Hypothesis stops there)."""

    from tests.reliability import test_fuzz_loaders as fuzz

    out: dict[str, Any] = {}
    for game in fuzz.LOADERS:
        out[game] = _fuzz_catalog(fuzz, game, n)
    return {"examples_per_game": n, "by_game": out}


def _fuzz_catalog(fuzz: Any, game: str, n: int) -> dict[str, Any]:
    from hypothesis import HealthCheck, given, settings

    fuzz.baseline(game)
    seen: dict[str, Any] = {}

    @settings(max_examples=n, suppress_health_check=list(HealthCheck), deadline=None, database=None)
    @given(fuzz.catalog_case(game))
    def run(case: tuple[str, str]) -> None:
        result = fuzz.try_catalog(game, *case)
        seen[result] = seen.get(result, 0) + 1

    try:
        run()
    except AssertionError as exc:
        seen["crash"] = str(exc).splitlines()[0][:200]
    return seen


def records(n: int) -> dict[str, Any]:
    import json as json_

    from hypothesis import HealthCheck, given, settings

    from rules import RulesError
    from tests.reliability import test_fuzz_records as fuzz

    seen: dict[str, int] = {}

    @settings(max_examples=n, suppress_health_check=list(HealthCheck), deadline=None, database=None)
    @given(fuzz.record_like)
    def run(data: dict[str, Any]) -> None:
        record = fuzz.load_or_error(json_.dumps(data))
        key = "refused"
        if record is not None:
            try:
                record.replay()
                key = "replayed"
            except RulesError:
                key = "loaded, replay refused"
        seen[key] = seen.get(key, 0) + 1

    run()
    return {"examples": n, "outcomes": seen, "crashes": 0}


#: part -> (function, quick size for ./dev.sh bench, long-run size with --long)
PARTS = {"crash": (crash, 20, 1000), "frames": (frames, 300, 10_000), "camera": (camera, 15, 1000),
         "buttons": (buttons, 2000, 20_000), "backup": (backup, 60, 60), "catalogs": (catalogs, 50, 20_000),
         "records": (records, 300, 100_000)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("part", nargs="?", default="all", choices=[*PARTS, "all"])
    p.add_argument("--n", type=int, help="how many (default: a quick size, or the long-run size with --long)")
    p.add_argument("--long", action="store_true", help="the long-run sizes quoted in docs/reliability.md")
    args = p.parse_args()
    for name in PARTS if args.part == "all" else [args.part]:
        func, quick, long_ = PARTS[name]
        n = args.n or (long_ if args.long else quick)
        result = {"part": name, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), **func(n)}
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
