"""Highways & Byways: what the camera reads is the Construction cards in their slots (moves are on
the map and event cards stay in hand, so no player action shows as a card). The app draws each
round's Construction card itself; Player 1 lays it in the leftmost free slot, so the next End
turn sees it newly: expected (:func:`revealed`), not a play. With no ``candidates`` here the
generic matcher reads the rest.
"""

from __future__ import annotations

from typing import Any

from rules import Action


def revealed(game: Any, action: Action) -> list[str]:
    """The Construction card drawn at the start of a round goes face up into its slot."""
    return [action["card"]] if action.kind == "construction" else []
