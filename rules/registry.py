"""The five games by id. Engines are imported only when asked for."""

from __future__ import annotations

import importlib
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
    """The games whose engines are present in this installation."""
    out = []
    for name, (module, _, _) in GAMES.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        out.append(name)
    return out
