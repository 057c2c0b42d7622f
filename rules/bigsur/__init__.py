"""Big Sur (Mondo Davis): build the most memorable stretch of Highway One.

``BigSur`` is the engine; :func:`score_tableau` scores a tableau without a game (for the camera);
:func:`catalog_items` lists what the camera may need to recognise.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..actions import Action
from ..game import Game
from .catalog import (
    Catalog,
    HighwayCard,
    LandmarkTile,
    Spec,
    StarterCard,
    default_catalog,
    load_catalog,
)
from .conditions import VOCABULARY, Condition
from .engine import DRAW_DECK, BigSur, BigSurState, Placement, Seat
from .scoring import (
    PlacedLandmark,
    ScoredPlayer,
    Stretch,
    TableauCard,
    TableauError,
    score_document,
    score_tableau,
    stretches,
)

__all__ = [
    "DRAW_DECK",
    "VOCABULARY",
    "BigSur",
    "BigSurState",
    "Catalog",
    "Condition",
    "HighwayCard",
    "LandmarkTile",
    "PlacedLandmark",
    "Placement",
    "ScoredPlayer",
    "Seat",
    "Spec",
    "StarterCard",
    "Stretch",
    "TableauCard",
    "TableauError",
    "bench_extras",
    "catalog_items",
    "default_catalog",
    "load_catalog",
    "playout_choice",
    "score_document",
    "score_tableau",
    "stretches",
]

CARD_MM = [63, 88]
LANDMARK_MM = [50, 50]


def catalog_items(catalog: Catalog | None = None) -> list[dict[str, Any]]:
    """Every face the camera may need to recognise: the Highway side of each card, the gray
    Material sides and the pink Starter sides (alike for one material, hence one design each with
    a count), and the Landmark tiles."""
    cat = catalog if catalog is not None else default_catalog()
    items: list[dict[str, Any]] = []
    for card in cat.cards.values():
        item: dict[str, Any] = {
            "id": card.id, "kind": "highway card", "count": 1, "size_mm": list(CARD_MM),
            "name": f"{card.miles}-mile {'/'.join(card.terrains)}",
            "miles": card.miles, "terrains": list(card.terrains), "cost": list(card.cost),
            "material": card.material,
        }
        if card.tableau_material is not None:
            item["tableau_material"] = card.tableau_material
        if card.condition is not None:
            item["condition"] = card.condition.to_json()
            item["condition_text"] = card.condition.text()
        items.append(item)
    for material in cat.materials:
        n = sum(1 for c in cat.cards.values() if c.material == material)
        if n:
            items.append({"id": f"bs-material-{material}", "kind": "material side", "count": n,
                          "size_mm": list(CARD_MM), "name": f"{material} (Material side)", "material": material})
    for material in cat.materials:
        holders = sorted(s.id for s in cat.starters.values() if material in s.materials)
        if holders:
            items.append({"id": f"bs-starter-{material}", "kind": "starter side", "count": len(holders),
                          "size_mm": list(CARD_MM), "name": f"{material} (Starter card)", "material": material,
                          "starters": holders})
    for tile in cat.landmarks.values():
        entry: dict[str, Any] = {
            "id": tile.id, "kind": "landmark", "count": 1, "size_mm": list(LANDMARK_MM), "name": tile.name,
            "requires": [sp.to_json() for sp in tile.requires], "points": tile.points,
        }
        if tile.condition is not None:
            entry["condition"] = tile.condition.to_json()
            entry["condition_text"] = tile.condition.text()
        if tile.material is not None:
            entry["material"] = tile.material
        if tile.ability is not None:
            entry["ability"] = tile.ability
        if tile.adjacent:
            entry["adjacent"] = True
        items.append(entry)
    return items


def playout_choice(game: Game[Any], legal: list[Action], rng: random.Random) -> Action:
    """A random player who usually builds what it can and takes Landmarks, so random games look
    like games (and end: every turn draws from the deck's supply)."""
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    if "landmark" in by_kind:
        return rng.choice(by_kind["landmark"])
    if "build" in by_kind and rng.random() < 0.85:
        return rng.choice(by_kind["build"])
    if "flip" in by_kind and rng.random() < 0.1:
        return rng.choice(by_kind["flip"])
    if "end_turn" in by_kind:
        return by_kind["end_turn"][0]
    return rng.choice(legal)


def _building_position() -> BigSur:
    """A 4-player Advanced game in a building step, with at least 5 cards built, 2 Highway cards in
    hand and a build to make: the first such position of a random game (trying seeds until one
    gets there)."""
    for seed in range(100):
        game = BigSur(["Ana", "Ben", "Cleo", "Dev"], seed=seed, options={"landmarks": True})
        play = random.Random(seed)
        while not game.is_game_over():
            s = game.state
            if (not game.is_chance_node() and s.drawn == 2 and not s.built
                    and len(s.seats[s.turn].tableau) >= 5 and len(s.seats[s.turn].highways) >= 2
                    and any(a.kind == "build" for a in game.legal_actions())):
                return game
            game.push(game.sample_chance() if game.is_chance_node()
                      else playout_choice(game, game.legal_actions(), play))
    raise AssertionError("no random game reached a building step with a full table")


def bench_extras() -> dict[str, Callable[[], float]]:
    """Hot paths worth timing: scoring a 15-card tableau from the camera, and the legal actions of
    a player with a full hand (what the app asks after every scan)."""
    cat = default_catalog()
    rng = random.Random(15)
    tableau = rng.sample(sorted(cat.cards.values(), key=lambda c: c.id), 15)

    def score_15() -> float:
        start = time.perf_counter()
        score_tableau(tableau, catalog=cat)
        return (time.perf_counter() - start) * 1000

    game = _building_position()

    def legal() -> float:
        start = time.perf_counter()
        game.legal_actions()
        return (time.perf_counter() - start) * 1000

    return {"score a 15-card tableau": score_15, "legal actions in a building step (4 players, advanced)": legal}
