"""Proxy card faces drawn from a game's catalog: playable, printable stand-ins for the real cards.

``render_face(game, item)`` draws one catalog item (contract 1: a dict with ``id``, ``kind``,
``count``, ``size_mm`` and the game attributes a player needs). Each game has its own designer
module; anything a designer does not know (a new kind, an unknown attribute) is drawn by the
generic design instead, so a catalog change never breaks rendering. Every face carries a per-id
colour motif round its edge so that faces stay distinct for an appearance-only recogniser; no
face relies on a printed code or marker.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import PackError
from .generic import render_generic

#: Bump when any design changes: it is part of the proxy-pack cache key.
RENDERER_VERSION = 2
DEFAULT_PX_PER_MM = 12.0

_DESIGNERS = {
    "bigsur": "vision.proxy.bigsur",
    "roundabout": "vision.proxy.roundabout",
    "monsterhighway": "vision.proxy.monsterhighway",
    "highwayman": "vision.proxy.highwayman",
    "highwaysbyways": "vision.proxy.highwaysbyways",
}


def validate_items(game: str, items: Sequence[Any]) -> None:
    """Check the catalog contract fields of every item; a PackError names the item and field."""
    seen: set[str] = set()
    for i, item in enumerate(items):
        where = f"{game} catalog item {i}"
        if not isinstance(item, dict):
            raise PackError(f"{where}: must be a dict")
        ident = item.get("id")
        if not isinstance(ident, str) or not ident:
            raise PackError(f"{where}: field 'id' must be a non-empty string")
        where = f"{game} catalog item {ident!r}"
        if ident in seen:
            raise PackError(f"{where}: duplicate id")
        seen.add(ident)
        if not isinstance(item.get("kind"), str):
            raise PackError(f"{where}: field 'kind' must be a string")
        count = item.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise PackError(f"{where}: field 'count' must be a whole number, not {count!r}")
        check_size(item.get("size_mm"), where)


def check_size(size: Any, where: str) -> tuple[float, float]:
    if (not isinstance(size, list | tuple) or len(size) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and 0 < v <= 1000
                       for v in size)):
        raise PackError(f"{where}: field 'size_mm' must be [width, height] in mm, not {size!r}")
    return float(size[0]), float(size[1])


def render_face(game: str, item: dict[str, Any], px_per_mm: float = DEFAULT_PX_PER_MM) -> np.ndarray:
    """The face of one catalog item as a BGR uint8 image at ``px_per_mm`` (upright: width along x)."""
    where = f"{game} catalog item {item.get('id')!r}" if isinstance(item, dict) else f"{game} catalog item"
    if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"]:
        raise PackError(f"{where}: needs a non-empty string 'id'")
    check_size(item.get("size_mm"), where)
    if not (isinstance(px_per_mm, int | float) and 1 <= px_per_mm <= 40):
        raise PackError(f"px_per_mm must be 1 to 40, not {px_per_mm!r}")
    designer = _DESIGNERS.get(game)
    if designer is not None:
        try:
            module = importlib.import_module(designer)
        except ModuleNotFoundError as exc:
            if exc.name != designer:
                raise
            module = None
        if module is not None:
            face: np.ndarray | None = module.render(item, float(px_per_mm))
            if face is not None:
                return face
    return render_generic(item, float(px_per_mm))


__all__ = ["DEFAULT_PX_PER_MM", "RENDERER_VERSION", "check_size", "render_face", "validate_items"]
