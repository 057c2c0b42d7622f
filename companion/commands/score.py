"""``companion score bigsur TABLEAU.json [--json]``: score Big Sur tableaus without a whole game.

The input lists each player's cards left to right, as catalog ids or as what the camera reads off
the Highway side (miles and terrains); the format is in docs/records.md (Big Sur).
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path
from typing import Any

from rules.bigsur import ScoredPlayer, TableauError, score_document
from rules.scoring import rank

#: Games whose tableaus can be scored on their own (the others are scored by replaying a record).
SCORABLE = ("bigsur",)


def register(sub: Any) -> None:
    p = sub.add_parser("score", help="score Big Sur tableaus without a whole game",
                       description="Score Big Sur tableaus (cards left to right) without a game record.")
    p.add_argument("game", help="the game: bigsur")
    p.add_argument("tableau", nargs="?", help="a tableau file (.json); see docs/records.md")
    p.add_argument("--example", action="store_true", help="score the bundled example tableaus")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.set_defaults(func=run)


def example_text() -> str:
    return (resources.files("companion") / "examples" / "bigsur_tableau.json").read_text(encoding="utf-8")


def read_document(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise TableauError(f"cannot read {path}: {reason}") from None
    return parse(text, path)


def parse(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TableauError(f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def as_json(players: list[ScoredPlayer]) -> dict[str, Any]:
    standings = rank([(i, p.name, p.total) for i, p in enumerate(players)])
    return {"game": "bigsur", "players": [p.to_json() for p in players],
            "standings": [s.to_json() for s in standings]}


def table(players: list[ScoredPlayer]) -> str:
    out: list[str] = []
    for p in players:
        out.append(f"{p.name}: {p.total} point{'' if p.total == 1 else 's'}")
        rows = [("kind", "terrain", "miles", "cards", "points", "")]
        for ln in p.lines:
            d = ln.to_json()
            cards = d.get("cards", [])
            span = "" if not cards else str(cards[0]) if len(cards) == 1 else f"{cards[0]}-{cards[-1]}"
            note = "" if ln.kind == "stretch" else ln.label
            rows.append((ln.kind, str(d.get("terrain", "")), str(d.get("miles", "")), span, str(ln.points), note))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        for r in rows:
            cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1]), r[2].rjust(widths[2]), r[3].ljust(widths[3]),
                     r[4].rjust(widths[4])]
            out.append(("  " + "  ".join(cells) + ("  " + r[5] if r[5] else "")).rstrip())
        out.append(f"  {'total'.ljust(sum(widths[:4]) + 6)}  {str(p.total).rjust(widths[4])}")
        out.append("")
    if len(players) > 1:
        standings = rank([(i, p.name, p.total) for i, p in enumerate(players)])
        out.append("Standings: " + ", ".join(f"{s.place}. {s.name} ({s.score})" for s in standings))
    return "\n".join(out).rstrip()


def run(args: argparse.Namespace) -> int:
    if args.game not in SCORABLE:
        raise TableauError(f"only Big Sur tableaus can be scored on their own, not {args.game!r}; "
                           "score other games by replaying a record with `companion replay`")
    if args.example and args.tableau:
        raise TableauError("give a tableau file or --example, not both")
    if args.example:
        data = parse(example_text(), "the bundled example")
    elif args.tableau:
        data = read_document(args.tableau)
    else:
        raise TableauError("name a tableau file to score (or --example for the bundled one)")
    players = score_document(data)
    print(json.dumps(as_json(players), indent=1) if args.json else table(players))
    return 0
