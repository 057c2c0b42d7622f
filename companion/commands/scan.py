"""``companion scan IMAGE --game GAME``: what the camera sees in one picture of the table.

Prints every recognised card (id, rotation clockwise in table coordinates, centre in mm,
confidence), the cards the recogniser is unsure of, the unknown objects, the game's layout and,
for Big Sur and Roundabout, the scores computed by the rules engine from that layout.
``--debug OUT.png`` writes the picture with the overlay the players see in the app.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cli import CliError


def register(sub: Any) -> None:
    p = sub.add_parser("scan", help="recognise the cards in a picture of the table")
    p.add_argument("image", help="a photo of the table with the four markers (PNG, JPEG, ...)")
    p.add_argument("--game", required=True, help="game id (bigsur, roundabout, monsterhighway, highwaysbyways, highwayman)")
    p.add_argument("--pack", help="deck pack folder (default: the game's proxy pack)")
    p.add_argument("--table", help="play area WIDTHxHEIGHT in mm between marker centres (default 1000x700)")
    p.add_argument("--marker-mm", type=float, default=None, help="printed marker side in mm (default 40)")
    p.add_argument("--players", type=int, default=4, help="players seated south, east, north, west (default 4)")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.add_argument("--debug", metavar="OUT.png", help="write the picture with the recognition overlay")
    p.set_defaults(func=run)


def parse_table(text: str | None, marker_mm: float | None, players: int) -> Any:
    from vision import TableSpec

    kwargs: dict[str, Any] = {}
    if text is not None:
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*", text)
        if not m:
            raise CliError(f"--table must look like 1000x700 (mm), not {text!r}")
        kwargs.update(width_mm=float(m.group(1)), height_mm=float(m.group(2)))
    if marker_mm is not None:
        kwargs["marker_mm"] = marker_mm
    if not 1 <= players <= 4:
        raise CliError(f"--players must be 1 to 4, not {players}")
    return TableSpec.for_players(players, **kwargs)


def read_image(path: str) -> np.ndarray:
    p = Path(path)
    if not p.is_file():
        raise CliError(f"{path}: no such image file")
    data = np.fromfile(str(p), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise CliError(f"{path}: not a readable image (PNG, JPEG, BMP, TIFF, WebP)")
    return img


def scores(observation: Any) -> dict[str, Any]:
    """Scores the rules engine computes from the layout (Big Sur tableaus, Roundabout grid)."""
    layout = observation.layout
    try:
        if observation.game == "bigsur":
            score_tableau = importlib.import_module("rules.bigsur").score_tableau
            out = {}
            for seat, t in layout.get("tableaus", {}).items():
                if not t["cards"]:
                    continue
                lines = score_tableau([{"id": c} for c in t["cards"]], t["landmarks"])
                out[seat] = {"total": sum(ln.points for ln in lines), "lines": [ln.to_json() for ln in lines]}
            return out
        if observation.game == "roundabout":
            score_layout = importlib.import_module("rules.roundabout").score_layout
            cells = {tuple(c["cell"]): (c["id"], int(c["rotation"])) for c in layout.get("grid", [])}
            lines = score_layout(cells)
            return {"table": {"total": sum(ln.points for ln in lines), "lines": [ln.to_json() for ln in lines]}}
    except (ImportError, AttributeError):
        return {}
    except ValueError as exc:  # the rules refuse the layout read from the table: say why
        return {"error": str(exc)}
    return {}


def run(args: argparse.Namespace) -> int:
    from vision import draw_overlay, scan
    from vision.layout import is_monster
    from vision.observation import ARM, GLARE, hidden_by, unknown_things

    table = parse_table(args.table, args.marker_mm, args.players)
    frame = read_image(args.image)
    obs = scan(frame, args.game, pack=args.pack, table=table)
    sc = scores(obs)
    if args.debug:
        totals = {seat: v["total"] for seat, v in sc.items() if isinstance(v, dict) and "total" in v}
        img = draw_overlay(frame, obs, scores=totals)
        ok, buf = cv2.imencode(Path(args.debug).suffix or ".png", img)
        if not ok:
            raise CliError(f"{args.debug}: cannot write an image of that type")
        try:
            Path(args.debug).write_bytes(buf.tobytes())
        except OSError as exc:
            raise CliError(f"{args.debug}: cannot write ({exc.strerror})") from exc
    if args.json:
        print(json.dumps({**obs.to_json(), "scores": sc}, indent=1))
        return 0
    # the place Monster Highway's Monster hides is the Monster, not an unknown object (as on the overlay)
    monster = (obs.layout or {}).get("monster")
    unknowns = [u for u in obs.unknowns if not is_monster(u, monster)]
    one_of = (obs.layout or {}).get("monster_one_of") or []  # places apart the Monster may stand on
    maybe = [u for u in unknowns if any(is_monster(u, m) for m in one_of)]
    where = ", the Monster" if monster else f", the Monster on one of {len(one_of)} places" if one_of else ""
    # things, not places: what the scan cut into places side by side is one thing, and the places
    # an arm hides are part of it (as on the overlay)
    groups = unknown_things([u for u in unknowns if u not in maybe])
    under = {id(u): hidden_by(t) for t in groups for u in t}
    things = [t for t in groups if not hidden_by(t)]
    places = sum(len(t) for t in things)
    print(f"{args.game}: {len(obs.items)} cards, {len(obs.unsure)} unsure, {len(things)} unknown"
          f"{f' (in {places} places)' if places != len(things) else ''}"
          f"{where} (marker fit {obs.reprojection_error_px:.2f} px)")
    for it in sorted(obs.items, key=lambda i: (i.center_mm[1], i.center_mm[0])):
        print(f"  {it.id:24} {it.rotation:6.1f} deg  at ({it.center_mm[0]:6.1f}, {it.center_mm[1]:6.1f}) mm  "
              f"confidence {it.confidence:.2f}")
    for it in obs.unsure:
        print(f"  unsure: maybe {it.id} at ({it.center_mm[0]:.1f}, {it.center_mm[1]:.1f}) mm "
              f"(confidence {it.confidence:.2f}): check it")
    if monster:
        print(f"  the Monster at ({monster['center_mm'][0]:.1f}, {monster['center_mm'][1]:.1f}) mm, "
              f"board cell {monster['cell'][0]}, {monster['cell'][1]}")
    for u in unknowns:
        what = "maybe the Monster" if u in maybe else "glare" if u.reason == GLARE else \
            "a hand or an arm" if u.reason == ARM else \
            "hidden by a hand or an arm" if under.get(id(u)) == ARM else "unknown object"
        print(f"  {what} at ({u.center_mm[0]:.1f}, {u.center_mm[1]:.1f}) mm, "
              f"{u.size_mm[0]:.0f}x{u.size_mm[1]:.0f} mm ({u.reason})")
    print("layout: " + json.dumps(obs.layout))
    for seat, v in sc.items():
        if seat == "error":
            print(f"scores: the rules refuse this layout: {v}")
        else:
            print(f"score {seat}: {v['total']}")
            for ln in v["lines"]:
                print(f"      {ln['points']:>4}  {ln['label']}")
    for w in obs.warnings:
        print(f"warning: {w}")
    return 0
