"""A whole scripted game read from the table: every turn's plays laid on a rendered table and read at End turn.

    .venv/bin/python bench/table_game.py [--games bigsur,roundabout,monsterhighway] [--verbose]

The demo's scripted game of each game whose plays lie on the table (companion/examples/<game>.json)
is played through a real Session with the real recogniser: the plays a player makes on the table
(builds and Landmark tiles, placed cards and cars, laid tiles) are drawn on the demo's rendered
table (companion.session.demo.render_table at DEMO_CAMERA_PX, 2304x1296 as the kiosk's camera
delivers and the demo draws it; wood, an ideal camera) and End turn reads
them; everything else is entered as by touch. It prints, per game, the turns whose plays were read
and recorded exactly, those the players were asked to choose among (the right play offered), and
those that failed, each failure with what the app said. After a failure the turn's plays are
entered by hand and the table as it now is accepted, as players would.

This measures the path from picture to recorded play (layout, reconcile, rules) on pictures the
recogniser reads well; how well it reads harder pictures is bench/vision.py's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def camera(image: Any) -> Any:
    """A camera that always shows ``image``."""

    class Still:
        i = 0

        def latest(self) -> Any:
            self.i += 1
            return SimpleNamespace(image=image, index=self.i, captured_at=0.0)

    return Still()


def play(game: str, verbose: bool) -> dict[str, Any]:
    from companion.session import Session, vision_scanner
    from companion.session.demo import DEMO_CAMERA_PX, DemoScript, demo_table, render_table, table_kinds
    from companion.store import Store

    script = DemoScript.for_game(game)
    setup = script.setup()
    kinds = table_kinds(game)
    out: dict[str, Any] = {"turns": 0, "read": 0, "asked": 0, "failed": 0, "messages": []}
    with tempfile.TemporaryDirectory() as tmp:
        s = Session.new(Store(Path(tmp) / "db.sqlite3"), game, setup.get("players", ["Ana", "Ben"]),
                        seed=setup.get("seed"), options=setup.get("options"), app_draws_all=True,
                        scanner=vision_scanner(table=demo_table))

        def picture(g: Any) -> Any:
            return camera(render_table(g.record().to_json(), DEMO_CAMERA_PX))

        s.baseline(s.capture(picture(s.game), sleep=lambda t: None))
        t0 = time.perf_counter()
        while not s.game.is_game_over():
            nxt = script.next_action(s.game)
            if nxt is None:
                break
            if nxt.kind not in kinds:
                s.apply(nxt)
                continue
            player, after, planned = nxt.player, s._copy_game(), []
            while nxt is not None and nxt.player == player and nxt.kind in kinds:
                after.push(nxt)
                planned.append(nxt)
                nxt = script.next_action(after)
            out["turns"] += 1
            result = s.end_turn(picture(after), sleep=lambda t: None)
            got = [a for a in result.recorded if a.kind in kinds]
            if result.ok and got[:len(planned)] == planned:
                out["read"] += 1
                continue
            if result.choices and any(a in result.choices for a in planned):
                out["asked"] += 1
            else:
                out["failed"] += 1
                out["messages"].append(f"turn {out['turns']}: {result.message}")
                if verbose:
                    print(f"    {game} turn {out['turns']}: planned {planned}, read {got}: {result.message}", flush=True)
            for a in planned:  # entered by hand, as the players would
                if a not in s.game.actions[-len(planned):] and a in s.game.legal_actions():
                    s.apply(a)
            s.baseline(s.capture(picture(s.game), sleep=lambda t: None))
        out["over"] = s.game.is_game_over()
        out["seconds"] = time.perf_counter() - t0
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default="bigsur,roundabout,monsterhighway")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    for game in args.games.split(","):
        r = play(game, args.verbose)
        print(f"{game:15} table turns {r['turns']:3}  read and recorded {r['read']:3}  asked to choose (right play "
              f"offered) {r['asked']:2}  failed {r['failed']:2}  game over {r['over']}  ({r['seconds']:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
