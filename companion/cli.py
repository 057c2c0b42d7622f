"""``companion``: the command line. With no subcommand it starts the app.

Each subcommand lives in its own module under ``companion.commands`` with a ``register(sub)``
function. Any of our typed errors (a ``ValueError`` or ``OSError`` subclass raised for bad input)
becomes one line on stderr and exit status 2; ``COMPANION_DEBUG=1`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from companion import __version__

COMMANDS = [
    "companion.commands.app",
    "companion.commands.replay",
    "companion.commands.score",
    "companion.commands.cards",
    "companion.commands.scan",
    "companion.commands.printing",
    "companion.commands.hw",
    "companion.commands.history",
]


class CliError(ValueError):
    """Bad command-line input: reported as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The game-night table companion. With no command, starts the app.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument("--camera", metavar="SPEC",
                        help="with no command: the camera to use (picamera2, cv2:N or file:PATH); "
                             "overrides $COMPANION_CAMERA and the configuration file")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # that command is not part of this build yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        # No command: start the kiosk app (companion.commands.app.kiosk), once it exists.
        app = importlib.import_module("companion.commands.app")
        kiosk = getattr(app, "kiosk", None)
        if kiosk is None:
            parser.print_help()
            return 0
        func = kiosk
    else:
        func = args.func
    try:
        result = func(args)
    except KeyboardInterrupt:
        return 130
    except (ValueError, OSError) as exc:
        if os.environ.get("COMPANION_DEBUG"):
            raise
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"companion: error: {message}", file=sys.stderr)
        return 2
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
