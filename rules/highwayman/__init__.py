"""Highwayman (Chad Valley): play your cards along the coaching routes out of London; the first
player out of cards wins and the others count their hands; over a series the lowest total wins.

Public API: :class:`Highwayman` (the engine), :class:`Series` (standings over several games),
:func:`catalog_items` (the card designs for the recogniser), ``playout_choice`` (random playouts).
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action
from .cards import HIGHWAYMAN_ID, RUNNER_ID, Card, Pack, Route, load_pack
from .game import Highwayman, HighwaymanState
from .series import Series


def catalog_items(pack: Pack | None = None) -> list[dict[str, Any]]:
    """One JSON-able dict per card design, as the contract with vision and the app says."""
    pack = pack or load_pack()
    return [card.to_item(pack.size_mm) for card in pack.cards.values()]


def playout_choice(game: Any, legal: list[Action], rng: random.Random) -> Action:
    """Random play that mostly plays on: a uniform pick would end turns early and let every
    other seat throw Highwaymen at every route between two actions."""
    mover = game.current_player()
    own = [a for a in legal if a.player == mover]
    others = [a for a in legal if a.player != mover]
    if others and rng.random() < 0.05:
        return rng.choice(others)
    plays = [a for a in own if a.kind == "play"]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(own or legal)


__all__ = [
    "HIGHWAYMAN_ID", "RUNNER_ID", "Card", "Highwayman", "HighwaymanState", "Pack", "Route", "Series",
    "catalog_items", "load_pack", "playout_choice",
]
