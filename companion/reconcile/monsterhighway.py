"""Monster Highway: a tile that appeared on an empty board space was played there.

Stand-in geometry (vision and the board catalog agree): the board's 50 mm grid starts at the play
area's origin, columns lettered from A at the west edge, rows numbered from 1 at the north edge.
Dice and Monster Cards are the app's, so nothing else is read from the picture.
"""

from __future__ import annotations

from typing import Any

from rules import Action

from . import Difference, generic_candidates


def space_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def candidates(game: Any, diff: Difference, observation: Any, context: dict[str, Any]) -> list[Action]:
    p = game.current_player()
    layout = getattr(observation, "layout", None) or {}
    cells = layout.get("cells")
    if p is None or cells is None:
        return generic_candidates(game, diff)
    new_ids = {s.id for s in diff.added}
    legal = [a for a in game.legal_actions() if a.kind in ("place_tile", "dead_end")]
    out: list[Action] = []
    for cell in cells:
        if cell["id"] not in new_ids:
            continue
        at = space_name(*cell["cell"])
        fits = [a for a in legal if a.get("at") == at and a.get("tile", cell["id"]) == cell["id"]]
        same_turn = [a for a in fits if a.get("rotation") == cell["rotation"]]
        out += same_turn or fits or [Action.of("place_tile", p, tile=cell["id"], at=at, rotation=int(cell["rotation"]))]
    return out or generic_candidates(game, diff)
