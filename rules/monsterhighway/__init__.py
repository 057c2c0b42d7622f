"""Monster Highway (One Day West Games): the rules engine, its catalogs and helpers.

Exports the :class:`MonsterHighway` game, ``catalog_items()`` for the camera and the proxy card
renderer, ``playout_choice`` for random playouts and ``bench_extras()`` for ``bench/rules.py``.
"""

from __future__ import annotations

from typing import Any

from .chooser import playout_choice
from .data import Catalog, rotate, sides_of
from .data import current as load_catalog
from .engine import MonsterHighway, MonsterState, Placement

__all__ = ["Catalog", "MonsterHighway", "MonsterState", "Placement", "bench_extras", "catalog_items",
           "load_catalog", "playout_choice"]


def catalog_items() -> list[dict[str, Any]]:
    """One entry per tile or card design the camera may need to recognise (contract 1)."""
    cat = load_catalog()
    size = list(cat.tile_size_mm)
    out: list[dict[str, Any]] = []
    kinds = {"road": "road tile", "special": "special tile", "home base": "home base", "ground zero": "ground zero"}
    for t in cat.tiles.values():
        item: dict[str, Any] = {"id": t.id, "kind": kinds[t.kind], "count": t.count, "size_mm": size, "name": t.name}
        if t.open_mask:
            item["open_sides"] = sides_of(t.open_mask)
            # the ways round it lies that the rules cannot tell apart: a crossroads reads the same
            # turned a quarter, a straight turned a half (the engine compares roads by their sides)
            item["turns"] = 4 if rotate(t.open_mask, 90) == t.open_mask else 2 if rotate(t.open_mask, 180) == t.open_mask else 1
        if t.effect:
            item["effect"] = t.effect
        if t.corner:
            item["corner"] = t.corner
            item["colour"] = next(h.colour for h in cat.home_bases if h.corner == t.corner)
        out.append(item)
    for c in cat.monster_cards:
        out.append({"id": c.id, "kind": "monster card", "count": 1, "size_mm": list(cat.card_size_mm),
                    "space": c.space})
    return out


def bench_extras() -> dict[str, Any]:
    from .bench import extras

    return extras()
