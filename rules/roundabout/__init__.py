"""Roundabout: lay square quarter-roundabout cards edge to edge; complete four-card roundabouts.

Public API: :class:`Roundabout` (the engine), :func:`legal_placements` (every legal spot for a
card, for the app to highlight), :func:`score_layout` (scores a layout read by the camera),
:func:`catalog_items` (the card designs for the recogniser), ``bench_extras`` and
``playout_choice`` (for bench/rules.py and the random playouts).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from types import EllipsisType
from typing import Any

from ..actions import Action
from ..scoring import ScoreLine
from .cards import Bonus, Card, Deck, load_deck
from .game import Roundabout, RoundaboutState
from .layout import LayoutError, Placement
from .layout import placements as _placements
from .layout import score_layout as _score_layout


def legal_placements(where: Roundabout | RoundaboutState, card: str, *,
                     player: int | EllipsisType | None = ..., deck: Deck | None = None) -> list[Placement]:
    """Every ``(x, y, rotation)`` where ``card`` may be played now, sorted.

    ``where`` is the live game or one of its states. ``player`` decides which cars block (each car
    blocks everyone but its owner); by default the player to move, ``None`` for anyone.
    """
    if isinstance(where, Roundabout):
        state, deck = where.state, deck or where.deck
    elif isinstance(where, RoundaboutState):
        state, deck = where, deck or load_deck()
    else:
        raise LayoutError(f"legal_placements() takes a Roundabout game or its state, not {type(where).__name__}")
    if not isinstance(card, str) or card not in deck.cards:
        raise LayoutError(f"{card!r} is not a Roundabout card")
    seat = state.turn if player is ... else player
    return _placements(deck, state.layout, state.cars, card, seat)


def score_layout(cells: Mapping[Any, Any], deck: Deck | None = None) -> list[ScoreLine]:
    """One score line per completed four-card roundabout in ``cells`` (``(x, y)`` -> ``(card id,
    rotation)``), each with its points (+1, +1 per arrow, bonuses) and the cells it covers."""
    return _score_layout(cells, deck)


def catalog_items(deck: Deck | None = None) -> list[dict[str, Any]]:
    """One JSON-able dict per card design, as the contract with vision and the app says."""
    deck = deck or load_deck()
    return [card.to_item(deck.size_mm) for card in deck.cards.values()]


def playout_choice(game: Any, legal: list[Action], rng: random.Random) -> Action:
    """Random play that mostly plays cards: a uniform pick would reserve spots most turns, as
    every empty cell beside the layout is a separate reserve action."""
    kinds: dict[str, list[Action]] = {}
    for a in legal:
        kinds.setdefault(a.kind, []).append(a)
    weights = {"flip": 6.0, "take_discard": 3.0, "reserve": 1.0}
    names = sorted(kinds)
    kind = rng.choices(names, weights=[weights.get(k, 1.0) for k in names], k=1)[0]
    return rng.choice(kinds[kind])


def prepared_layout(cards: int = 40, seed: int = 1) -> Roundabout:
    """A game played at random until ``cards`` cards lie on the table (for benchmarks and tests)."""
    rng = random.Random(seed)
    game = Roundabout(["A", "B", "C", "D"], seed=seed)
    while len(game.state.layout) < cards:
        if game.is_game_over():
            game = Roundabout(["A", "B", "C", "D"], seed=rng.randrange(2**31))
            continue
        if game.is_chance_node():
            game.push(game.sample_chance())
        else:
            legal = [a for a in game.legal_actions() if a.kind != "reserve"] or game.legal_actions()
            game.push(playout_choice(game, legal, rng))
    return game


def bench_extras() -> dict[str, Callable[[], float]]:
    game = prepared_layout(40)
    # The card with the fewest legal spots makes the search reject the most candidates.
    card = min(game.deck.cards, key=lambda c: (len(legal_placements(game, c)), c))

    def one_call() -> float:
        start = time.perf_counter()
        legal_placements(game, card)
        return (time.perf_counter() - start) * 1000.0

    return {"legal_placements on a 40-card layout": one_call}


__all__ = [
    "Bonus", "Card", "Deck", "LayoutError", "Roundabout", "RoundaboutState", "bench_extras",
    "catalog_items", "legal_placements", "load_deck", "playout_choice", "score_layout",
]
