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

from . import Difference

#: Actions whose card lies on the table afterwards (named in their parameters).
LAYS = frozenset({"build", "landmark"})


def shows(action: Action, card_id: str) -> bool:
    """Whether the table-revealed outcome ``action`` is what a card seen as ``card_id`` shows: the
    deck's top card is seen by its Material side (catalog id ``bs-material-<material>``)."""
    if action.kind == "deck_top":
        return card_id == f"bs-material-{action.get('material')}"
    return False


def candidates(game: Any, diff: Difference, observation: Any, context: dict[str, Any]) -> list[Action]:
    p = game.current_player()
    layout = getattr(observation, "layout", None) or {}
    seats = getattr(game.state, "seats", None)
    if p is None or not seats or "tableaus" not in layout:
        # Without the camera's rows nothing here can be trusted to be a play (a card seen in the
        # draw row is not a draw): say what appeared and let the players enter it.
        return []
    edges = [e for e in context.get("edges", []) if e] or ["south", "east", "north", "west"]
    edge = str(edges[p % len(edges)])
    seen = list(layout["tableaus"].get(edge, {}).get("cards", []))
    built = list(seats[p].tableau)
    new: list[tuple[str, str]] = []
    # The known tableau must appear in order inside what the camera saw; what is around it is new.
    for start in range(len(seen) - len(built) + 1):
        if seen[start:start + len(built)] == built:
            new = [(c, "left") for c in reversed(seen[:start])] + [(c, "right") for c in seen[start + len(built):]]
            break
    legal = game.legal_actions()
    if not new:
        return _landmarks(game, p, layout["tableaus"].get(edge, {}), built, legal)

    card, end = new[0]
    exact = [a for a in legal if a.kind == "build" and a.get("card") == card and a.get("end") == end]
    # Not a legal build: the engine explains why (an empty payment makes it name the cost).
    return exact or [Action.of("build", p, card=card, end=end, pay=[])]


def _landmarks(game: Any, p: int, seen: dict[str, Any], built: list[str], legal: list[Action]) -> list[Action]:
    """A Landmark tile newly seen above or below one of the player's cards."""
    have = {getattr(lm, "tile", None) or (lm[0] if isinstance(lm, tuple | list) else None)
            for lm in getattr(game.state.seats[p], "landmarks", [])}
    out = []
    for lm in seen.get("landmarks", []):
        if lm.get("id") in have or not 0 <= lm.get("position", -1) < len(built):
            continue
        card = built[lm["position"]]
        where = lm.get("where")
        fits = [a for a in legal if a.kind == "landmark" and a.get("tile") == lm["id"] and a.get("card") == card
                and a.get("where") == where]
        out += fits or [Action.of("landmark", p, tile=lm["id"], card=card, where=where)]
    return out
