"""``companion print markers [--out FILE.pdf] [--marker-mm 40] [--table WxH]``: the four
calibration markers as a true-scale PDF (one A4 page each, with where each one goes)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


class PrintArgsError(ValueError):
    """Bad input to a print command: one line on stderr, exit status 2."""


def register(sub: Any) -> None:
    p = sub.add_parser("print", help="print the calibration markers")
    cmds = p.add_subparsers(dest="print_command", metavar="WHAT")
    p.set_defaults(func=lambda _args: (p.print_help(), 0)[1])
    m = cmds.add_parser("markers", help="the four ArUco markers for the play-area corners, true scale")
    m.add_argument("--out", default="markers.pdf", help="the PDF to write (markers.pdf)")
    m.add_argument("--marker-mm", type=float, default=40.0, help="printed marker side in mm (40)")
    m.add_argument("--table", default="1000x700", help="play area WxH in mm, as configured (1000x700)")
    m.set_defaults(func=run_markers)


def run_markers(args: argparse.Namespace) -> int:
    from vision.markers import markers_pdf

    try:
        w, h = (float(v) for v in args.table.lower().split("x"))
    except ValueError:
        raise PrintArgsError(f"--table must look like 1000x700, not {args.table!r}") from None
    path = markers_pdf(Path(args.out), marker_mm=args.marker_mm, table=(w, h))
    print(f"wrote {path}: 4 pages, markers {args.marker_mm:g} mm; print at 100 % (actual size) and measure")
    return 0
