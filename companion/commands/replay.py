"""``companion replay RECORD [--json]``: replay a game record and print the final state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rules import Record, ReplayError
from rules.record import engine_version


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="replay a game record and print the final scores")
    p.add_argument("record", help="a game record (.json)")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.set_defaults(func=run)


def summary(game: Any) -> dict[str, Any]:
    """The stable JSON summary of a game (documented in docs/records.md)."""
    return {
        "game": game.name,
        "players": list(game.players),
        "actions": len(game.actions),
        "over": game.is_game_over(),
        "to_move": None if game.is_game_over() else game.current_player(),
        "scores": [
            {"player": p, "name": n, **game.breakdown(p).to_json()} for p, n in enumerate(game.players)
        ],
        "standings": [s.to_json() for s in game.standings()],
    }


def run(args: argparse.Namespace) -> int:
    record = Record.load(args.record)
    if record.engine is not None and record.engine != engine_version():
        # a catalog or a rule may have changed since: say so before any verdict on the actions
        print(f"companion: this record was played with version {record.engine}; this is version "
              f"{engine_version() or 'unknown'}", file=sys.stderr)
    try:
        game = record.replay()
    except ReplayError as exc:
        if args.json:
            print(json.dumps({"error": "illegal action", "index": exc.index, "player": exc.player,
                              "reason": exc.reason}))
        else:
            print(f"companion: {exc}", file=sys.stderr)
        return 1
    info = summary(game)
    if args.json:
        print(json.dumps(info, indent=1))
        return 0
    status = "finished" if info["over"] else f"in progress, {game.players[info['to_move']] if info['to_move'] is not None else 'chance'} to move"
    print(f"{game.title}: {len(game.actions)} actions, {status}")
    for s in info["scores"]:
        print(f"  {s['name']}: {s['total']}")
        for ln in s["breakdown"]:
            print(f"      {ln['points']:>4}  {ln['label']}")
    if info["over"]:
        print("Standings: " + ", ".join(f"{s['place']}. {s['name']} ({s['score']})" for s in info["standings"]))
    return 0
