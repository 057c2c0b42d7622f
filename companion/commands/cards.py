"""``companion cards``: the cards and tiles of a game, their proxy faces, print-and-play sheets,
and enrolment of the owner's own cards as a deck pack.

    companion cards list GAME [--json]
    companion cards render GAME --out DIR [--px-per-mm 12]
    companion cards print GAME [--out FILE.pdf] [--no-backs]
    companion cards enroll GAME --from DIR [--map FILE] --out DIR [--card-mm WxH]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

GAMES = ("bigsur", "roundabout", "monsterhighway", "highwaysbyways", "highwayman")


class CardsError(ValueError):
    """Bad input to a cards command: one line on stderr, exit status 2."""


def register(sub: Any) -> None:
    p = sub.add_parser("cards", help="list, render, print or enrol a game's cards")
    cmds = p.add_subparsers(dest="cards_command", metavar="CARDS_COMMAND")
    p.set_defaults(func=lambda _args: (p.print_help(), 0)[1])

    ls = cmds.add_parser("list", help="the catalog ids and attributes of every card and tile")
    ls.add_argument("game", help="one of " + ", ".join(GAMES))
    ls.add_argument("--json", action="store_true", help="print the catalog items as JSON")
    ls.set_defaults(func=run_list)

    rd = cmds.add_parser("render", help="render the proxy faces into a deck-pack folder")
    rd.add_argument("game", help="one of " + ", ".join(GAMES))
    rd.add_argument("--out", required=True, help="the pack folder to write (new or empty, or an old pack)")
    rd.add_argument("--px-per-mm", type=float, default=12.0, help="face resolution (12)")
    rd.set_defaults(func=run_render)

    pr = cmds.add_parser("print", help="a true-scale print-and-play PDF of every card, with cut marks")
    pr.add_argument("game", help="one of " + ", ".join(GAMES))
    pr.add_argument("--out", help="the PDF to write (default: GAME-cards.pdf here)")
    pr.add_argument("--no-backs", action="store_true", help="fronts only, no back pages for double-sided cards")
    pr.add_argument("--dpi", type=int, default=300, help="raster resolution of the pages (300)")
    pr.set_defaults(func=run_print)

    en = cmds.add_parser("enroll", help="make a deck pack from photos of your own cards")
    en.add_argument("game", help="one of " + ", ".join(GAMES))
    en.add_argument("--from", dest="source", required=True,
                    help="folder of photos named <id>.jpg (<id>-2.jpg for more photos of one card)")
    en.add_argument("--map", help="JSON {\"photo\": \"id\"} or CSV 'photo,id' naming the photos instead")
    en.add_argument("--out", required=True, help="the pack folder to write")
    en.add_argument("--card-mm", help="card size WxH in mm (only needed when the engine is not installed)")
    en.set_defaults(func=run_enroll)


def _game(game: str) -> str:
    if game not in GAMES:
        raise CardsError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return game


def _items(game: str) -> list[dict[str, Any]]:
    from vision.pack import catalog_items

    _game(game)
    items = catalog_items(game)
    if items is None:
        raise CardsError(f"the {game} engine is not installed, so its catalog is not available")
    return items


def _summary(item: dict[str, Any]) -> str:
    skip = {"id", "kind", "count", "size_mm", "name"}
    parts = [f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in item.items() if k not in skip]
    return " ".join(parts)


def run_list(args: argparse.Namespace) -> int:
    items = _items(args.game)
    if args.json:
        print(json.dumps(items, indent=1, ensure_ascii=False))
        return 0
    for it in items:
        w, h = it["size_mm"]
        name = f" \"{it['name']}\"" if it.get("name") else ""
        print(f"{it['id']:<22} {it['kind']:<16} x{it['count']:<3} {w:g}x{h:g} mm{name}  {_summary(it)}".rstrip())
    total = sum(int(i["count"]) for i in items)
    print(f"{len(items)} designs, {total} pieces")
    return 0


def _check_out_folder(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise CardsError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / "pack.json").exists():
        raise CardsError(f"{out}: not empty and not a pack: choose a new or empty folder")


def run_render(args: argparse.Namespace) -> int:
    from vision.pack import main_size, write_pack
    from vision.proxy import render_face, validate_items

    items = _items(args.game)
    validate_items(args.game, items)
    if not 1 <= args.px_per_mm <= 40:
        raise CardsError(f"--px-per-mm must be 1 to 40, not {args.px_per_mm:g}")
    out = Path(args.out)
    _check_out_folder(out)
    faces = {str(i["id"]): [render_face(args.game, i, args.px_per_mm)] for i in items}
    pack = write_pack(out, args.game, main_size(items), faces, kind="proxy",
                      sizes_mm={str(i["id"]): i["size_mm"] for i in items})
    print(f"wrote {len(pack.cards)} proxy faces of {args.game} to {out}")
    return 0


def run_print(args: argparse.Namespace) -> int:
    from vision.proxy.printing import cards_pdf

    if not 72 <= args.dpi <= 600:
        raise CardsError(f"--dpi must be 72 to 600, not {args.dpi}")
    items = _items(args.game)
    out = Path(args.out or f"{args.game}-cards.pdf")
    path, pieces, pages = cards_pdf(args.game, out, items, title=f"{args.game} proxy cards", dpi=args.dpi,
                                    backs=not args.no_backs)
    print(f"wrote {path}: {pieces} cards on {pages} A4 pages; print at 100 % (actual size)")
    return 0


def _size(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        w, h = (float(v) for v in text.lower().split("x"))
    except ValueError:
        raise CardsError(f"--card-mm must look like 63x88, not {text!r}") from None
    if not (0 < w <= 1000 and 0 < h <= 1000):
        raise CardsError(f"--card-mm {text} is out of range")
    return w, h


def run_enroll(args: argparse.Namespace) -> int:
    from vision.enroll import enroll_folder

    _game(args.game)
    out = Path(args.out)
    _check_out_folder(out)
    pack = enroll_folder(args.game, args.source, out, mapping=args.map, card_size_mm=_size(args.card_mm))
    faces = sum(len(c.faces) for c in pack.cards)
    print(f"enrolled {faces} photos of {len(pack.cards)} cards into {out}")
    return 0
