"""``companion history``: finished games and per-player figures from the app's database, and
exports (BG Stats play JSON, CSV of all plays).

The BG Stats file is a JSON list of plays, each in the format BG Stats documents for importing a
play from another app ("push plays": ``sourceName``, ``sourcePlayId``, ``playDate``,
``durationMin``, ``game`` {name, highestWins, noPoints, sourceGameId}, ``players`` [{name, score,
rank, winner, startPlayer, role (the token colour), sourcePlayerId}]).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("history", help="finished games, per-player figures and exports")
    p.add_argument("--db", help="the app's database (default: $COMPANION_DATA/companion.sqlite3)")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.add_argument("--bgstats", metavar="FILE", help="write every finished game as BG Stats plays (JSON)")
    p.add_argument("--csv", metavar="FILE", help="write all plays as CSV, one row per player")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.session import guide
    from companion.store import Store

    if args.db and not Path(args.db).exists():
        raise OSError(f"{args.db}: no such database")
    store = Store(args.db) if args.db else Store()
    with store:
        games = store.finished_games()
        stats = store.player_stats()
        if args.bgstats:
            plays = [store.bgstats_play(g.id, title=guide(g.game).title) for g in games]
            Path(args.bgstats).write_text(json.dumps(plays, indent=1), encoding="utf-8")
        if args.csv:
            Path(args.csv).write_text(store.plays_csv(), encoding="utf-8")
        if args.json:
            print(json.dumps({"games": [{"id": g.id, "game": g.game, "started": g.started,
                                         "finished": g.finished, "standings": (g.result or {}).get("standings", [])}
                                        for g in games], "players": stats}, indent=1))
            return 0
        if not games:
            print("No finished games yet.")
        for g in games:
            standings = (g.result or {}).get("standings", [])
            print(f"#{g.id} {guide(g.game).title} {g.started}: "
                  + ", ".join(f"{s['place']}. {s['name']} {s['score']}" for s in standings))
        for s in stats:
            print(f"  {s['player']:<12} {guide(s['game']).title:<18} played {s['games']:>3}  wins {s['wins']:>3}"
                  f"  average {s['average']:>6}  best {s['best']:>4}", file=sys.stdout)
    return 0
