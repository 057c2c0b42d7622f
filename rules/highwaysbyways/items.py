"""What the camera may need to recognise: one entry per card design, with what its face says."""

from __future__ import annotations

from typing import Any

from .data import Catalogs, load


def catalog_items(catalogs: Catalogs | None = None) -> list[dict[str, Any]]:
    """Construction cards (one road letter each), event cards (one design per effect, with its
    copies as ``count``), byway cards and vehicle cards, per the catalog contract."""
    cat = catalogs if catalogs is not None else load()
    items: list[dict[str, Any]] = []
    for con in cat.construction.values():
        items.append({"id": con.id, "kind": "construction card", "count": 1, "size_mm": list(cat.sizes["construction"]),
                      "name": f"Construction {con.letter}", "letter": con.letter})
    for ev in cat.events.values():
        item: dict[str, Any] = {"id": ev.id, "kind": "event card", "count": ev.count,
                                "size_mm": list(cat.sizes["event"]), "name": ev.name, "effect": ev.effect,
                                "text": ev.text}
        for key in ("direction", "spaces", "letter", "cards"):
            value = getattr(ev, key)
            if value:
                item[key] = value
        items.append(item)
    for bw in cat.byways.values():
        items.append({"id": bw.id, "kind": "byway card", "count": 1, "size_mm": list(cat.sizes["byway"]),
                      "name": bw.name, "color": bw.color, "spaces": list(bw.spaces),
                      "regions": sorted({cat.spaces[s].region for s in bw.spaces})})
    for v in cat.vehicles.values():
        items.append({"id": v.id, "kind": "vehicle card", "count": 1, "size_mm": list(cat.sizes["vehicle"]),
                      "name": v.name, "ability": v.ability, "immune": sorted(v.immune),
                      "extra_draws": v.extra_draws, "reshuffle_moves": v.reshuffle_moves})
    return items
