"""Highways & Byways: what the camera reads is the Construction cards in their slots (moves are on
the map and event cards stay in hand, so no player action shows as a card). The app draws each
round's Construction card itself; Player 1 lays it in the leftmost free slot, so the next End
turn sees it newly: expected (:func:`revealed`), not a play. When all five slots are full at a
round's start the engine shuffles them back into the deck: their going is expected too
(:func:`taken_off`). With no ``candidates`` here the generic matcher reads the rest.
"""

from __future__ import annotations

from typing import Any

from rules import Action


def revealed(game: Any, action: Action) -> list[str]:
    """The Construction card drawn at the start of a round goes face up into its slot."""
    return [action["card"]] if action.kind == "construction" else []


def taken_off(game: Any, diff: Any) -> set[str]:
    """Construction cards gone from the picture that the engine no longer has in a slot (the
    reshuffle put them back in the deck). Any other card gone is still reported."""
    construction = game.cat.construction
    return {g.id for g in diff.removed if g.id in construction and g.id not in game.state.slots}
