"""``companion`` (no command) and ``companion demo [GAME]``.

Until the Kivy app lands, the demo replays the bundled example records of every game that has an
engine and prints their scores: proof that the project is installed and the engines work.
"""

from __future__ import annotations

import argparse
from importlib import resources
from typing import Any

from rules import Record, registry


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="show the companion working with no camera or buttons")
    p.add_argument("game", nargs="?", choices=list(registry.GAMES), help="only this game")
    p.set_defaults(func=demo)


def example_records(game: str | None = None) -> list[Record]:
    folder = resources.files("companion") / "examples"
    out = []
    for name in registry.available():
        if game and name != game:
            continue
        item = folder / f"{name}.json"
        if item.is_file():
            out.append(Record.loads(item.read_text(encoding="utf-8")))
    return out


def demo(args: argparse.Namespace) -> int:
    from companion.commands.replay import summary

    records = example_records(args.game)
    if not records:
        print("No example games are bundled yet.")
        return 0
    for record in records:
        game = record.replay()
        info = summary(game)
        print(f"== {game.title}: {', '.join(game.players)} ({len(game.actions)} recorded actions)")
        for s in info["scores"]:
            print(f"   {s['name']:>8}: {s['total']:>3}  " + "; ".join(
                f"{ln['label']} {ln['points']:+d}" for ln in s["breakdown"]))
        print("   Standings: " + ", ".join(f"{s['place']}. {s['name']}" for s in info["standings"]))
    return 0
