"""The five games by id. Engines are imported only when asked for."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from .game import Game

#: id -> (module, class name, title)
GAMES: dict[str, tuple[str, str, str]] = {
    "bigsur": ("rules.bigsur", "BigSur", "Big Sur"),
    "roundabout": ("rules.roundabout", "Roundabout", "Roundabout"),
    "monsterhighway": ("rules.monsterhighway", "MonsterHighway", "Monster Highway"),
    "highwaysbyways": ("rules.highwaysbyways", "HighwaysAndByways", "Highways & Byways"),
    "highwayman": ("rules.highwayman", "Highwayman", "Highwayman"),
}


def game_class(name: str) -> type[Game[Any]]:
    if name not in GAMES:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    module, cls, _ = GAMES[name]
    try:
        imported = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise KeyError(f"the {GAMES[name][2]} engine is not part of this installation") from None
    found: type[Game[Any]] = getattr(imported, cls)
    return found


def available() -> list[str]:
    """The games whose engines are present in this installation. Found without importing them:
    the app's home screen asks this at start, and importing all five engines with their catalogs
    held about 3 MB for games nobody chose (an engine that fails to import still says so when
    :func:`game_class` imports it)."""
    out = []
    for name, (module, _, _) in GAMES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:  # its parent package is missing
            found = False
        if found:
            out.append(name)
    return out
