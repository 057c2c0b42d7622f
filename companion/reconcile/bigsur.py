"""Big Sur: a Highway card that appeared at an end of the player's tableau row was built there.

The vision layout reads each seat's row left to right from that seat's side; the engine keeps the
tableau left to right too, so the new card is a build at the ``left`` or ``right`` end. The
picture cannot show how the card was paid for: when several payments are legal the session asks.
Draws leave no trace on the table (cards go to the hand), so they are entered by touch; the cards
they name are expected to vanish from the draw row.
"""

from __future__ import annotations

from typing import Any

from rules import Action

from . import Difference, generic_candidates


def candidates(game: Any, diff: Difference, observation: Any, context: dict[str, Any]) -> list[Action]:
    p = game.current_player()
    layout = getattr(observation, "layout", None) or {}
    seats = getattr(game.state, "seats", None)
    if p is None or not seats or "tableaus" not in layout:
        return generic_candidates(game, diff)
    edges = context.get("edges") or ("south", "east", "north", "west")
    edge = str(edges[p % len(edges)])
    seen = list(layout["tableaus"].get(edge, {}).get("cards", []))
    built = list(seats[p].tableau)
    new: list[tuple[str, str]] = []
    # The known tableau must appear in order inside what the camera saw; what is around it is new.
    for start in range(len(seen) - len(built) + 1):
        if seen[start:start + len(built)] == built:
            new = [(c, "left") for c in reversed(seen[:start])] + [(c, "right") for c in seen[start + len(built):]]
            break
    if not new:
        return generic_candidates(game, diff)
    legal = game.legal_actions()
    card, end = new[0]
    exact = [a for a in legal if a.kind == "build" and a.get("card") == card and a.get("end") == end]
    # Not a legal build: the engine explains why (an empty payment makes it name the cost).
    return exact or [Action.of("build", p, card=card, end=end, pay=[])]
