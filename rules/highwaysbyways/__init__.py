"""Highways & Byways: drive all your byways across the US map and get back to your Start Space.

``HighwaysAndByways`` is the engine; :func:`catalog_items` lists the cards the camera may need to
recognise; :func:`playout_choice` steers random games towards the next byway so they end.
"""

from __future__ import annotations

from .data import Byway, Catalogs, ConstructionCard, EventCard, Space, Vehicle, load
from .engine import HighwaysAndByways
from .items import catalog_items
from .playout import bench_extras, playout_choice
from .state import HBState, TurnState

__all__ = [
    "Byway", "Catalogs", "ConstructionCard", "EventCard", "HBState", "HighwaysAndByways", "Space", "TurnState",
    "Vehicle", "bench_extras", "catalog_items", "load", "playout_choice",
]
