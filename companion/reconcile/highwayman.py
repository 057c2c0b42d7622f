"""Highwayman: the picture shows each route's pile, only its top card visible.

A card laid on a pile hides the one under it, so what vanished under a new card is covered, not
lost (:func:`covered`). The plays are read from each route's visible top against the engine's
piles: a stage card further on than the engine's reached stage means the stages up to it were
played in order (a run hides all but its last card), so the next one is the candidate and the
session reads the picture again for the rest; a LONDON card on a route not yet started starts
it; a Highwayman or a Bow Street Runner names its route by the pile it covers.
"""

from __future__ import annotations

from typing import Any

from rules import Action
from rules.highwayman.cards import LONDON

from . import Difference, Seen, _distance

#: A card whose centre lies this close (as a share of the card's width) to where another card
#: vanished was laid on top of it.
COVER_REACH = 0.6

#: Actions whose card lies on the table afterwards (named in their parameters).
LAYS = frozenset({"play"})


def _card_width(game: Any) -> float:
    return float(game.pack.size_mm[0])


def covered(game: Any, diff: Difference, observation: Any) -> set[str]:
    """Ids of cards that vanished under a newly seen card on the same pile."""
    reach = _card_width(game) * COVER_REACH
    return {gone.id for gone in diff.removed
            if any(_distance(gone.center, new.center) <= reach for new in diff.added)}


def revealed(game: Any, action: Action) -> list[str]:
    """A LONDON card taken from the stock is laid face up at once, starting its route (rule 2):
    on the table before any player plays it. Any other card drawn or dealt goes to a hand."""
    if action.kind != "drawn":
        return []
    info = game.pack.cards.get(action["card"])
    return [action["card"]] if info is not None and info.kind == LONDON else []


def _route_under(game: Any, seen: Seen, diff: Difference) -> list[str]:
    """The route(s) a special card was laid on: the route of the card it covers; under a Runner
    the covered card is the Highwayman, so the routes he holds up."""
    reach = _card_width(game) * COVER_REACH
    under = [g for g in diff.removed if _distance(g.center, seen.center) <= reach]
    routes: list[str] = []
    for g in under:
        info = game.pack.cards.get(g.id)
        if info is not None and info.route is not None:
            routes.append(info.route.id)
        elif g.id == "hm-highwayman":
            routes += [r for r in sorted(game.state.routes) if game.is_held_up(r)]
    return routes


def _seats(game: Any, card: str) -> list[int]:
    """Who could have laid ``card``: the mover first, then the others clockwise holding one."""
    n = len(game.players)
    turn = game.state.turn
    return [p for p in ((turn + i) % n for i in range(n)) if card in game.state.hands[p]] or [turn]


def candidates(game: Any, diff: Difference, observation: Any, context: dict[str, Any]) -> list[Action]:
    if game.is_game_over() or game.is_chance_node():
        return []
    s = game.state
    p = s.turn
    out: list[Action] = []
    for seen in diff.added:
        info = game.pack.cards.get(seen.id)
        if info is None:
            continue
        if info.route is None:  # a Highwayman or a Bow Street Runner
            for route in _route_under(game, seen, diff):
                out += [Action.of("play", seat, card=seen.id, route=route) for seat in _seats(game, seen.id)]
            continue
        route = info.route.id
        pile = s.routes.get(route) or []
        if pile and pile[-1] == seen.id:
            continue  # already the top the engine knows (a LONDON the stock turned up)
        if info.number in (None, 0):
            out.append(Action.of("play", p, card=seen.id))
            continue
        reached = s.reached.get(route)
        if reached is None:
            # A stage on a route the engine has not seen started: its LONDON came first.
            out.append(Action.of("play", p, card=game.pack.london(route)))
        elif info.number > reached:
            out.append(Action.of("play", p, card=game.pack.stage(route, reached + 1)))
        else:
            out.append(Action.of("play", p, card=seen.id))  # the engine says why not
    return out
