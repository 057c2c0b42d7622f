"""A few lines about the game's bookkeeping, per game, for the game screen: what the players
would otherwise have to track themselves (deck left, dice, the closed road letter, hands...).

Each reader looks at its engine's state by name. Engines are written separately and may change
their insides, so a reader that no longer fits returns nothing rather than breaking the screen.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def _bigsur(game: Any) -> list[str]:
    s = game.state
    deck = int(s.hidden) + (1 if s.top is not None else 0)
    lines = [f"Draw row: {len(s.row)} cards. Draw deck: {deck} left"
             + (f" (top shows {s.top})." if s.top else ".")]
    if deck == 0 and not s.over:
        lines.append("The draw deck is exhausted: this is the last round, until the last player's turn.")
    if s.landmarks_up:
        lines.append("Landmarks face up: " + ", ".join(s.landmarks_up) + ".")
    return lines


def _roundabout(game: Any) -> list[str]:
    s = game.state
    lines = [f"Deck: {sum(s.deck.values())} cards. Discard pile: {len(s.discard)}"
             + (f" (top {s.discard[-1]})." if s.discard else ".")]
    if s.held is not None:
        try:
            from rules.roundabout import legal_placements

            spots = legal_placements(game, s.held)
        except (ImportError, ValueError):
            spots = None
        if spots is not None:
            cells = sorted({(x, y) for x, y, _ in spots})
            if cells:
                where = ", ".join(f"({x},{y})" for x, y in cells[:6]) + (" ..." if len(cells) > 6 else "")
                lines.append(f"{s.held} fits {len(cells)} spot{'s' if len(cells) != 1 else ''}: {where}.")
            else:
                lines.append(f"{s.held} cannot be played anywhere: it goes on the discard pile.")
    if s.roundabouts:
        lines.append(f"Roundabouts completed: {len(s.roundabouts)}.")
    return lines


def _monster(game: Any) -> list[str]:
    s = game.state
    lines = []
    if s.dice:
        lines.append("Dice: " + " + ".join(str(d) for d in s.dice) + (f", move {s.movement}" if s.movement else "") + ".")
    name = getattr(game, "name_of", None)
    if s.monster is not None and name is not None:
        lines.append(f"Monster on {name(s.monster)}.")
    lines.append("Tiles in hand: " + ", ".join(f"{game.players[i]} {len(h)}" for i, h in enumerate(s.hands)) + ".")
    return lines


def _highwaysbyways(game: Any) -> list[str]:
    s = game.state
    lines = []
    if s.phase in ("drive", "driving") or s.slots:
        slots = ["[" + game.cat.construction[c].letter + "]" for c in s.slots]
        slots += ["[ ]"] * (max(0, game.cat.slots - len(s.slots)))
        letter = game.construction_letter()
        lines.append("Construction: " + " ".join(slots) + (f"  closed: {letter}" if letter else ""))
        with contextlib.suppress(AttributeError, ValueError, TypeError):
            lines.append(f"Spaces left this turn: {game.moves_left()}.")
    if s.turn.event_note:
        lines.append(s.turn.event_note)
    mover = game.current_player()
    if mover is not None and s.markers and mover < len(s.markers):
        driven, total = len(s.driven[mover]), len(s.driven[mover]) + len(s.markers[mover])
        lines.append(f"{game.players[mover]}: {driven} of {total} byways driven.")
    return lines


@dataclass(frozen=True)
class BywayEntry:
    """One byway on a player's checklist, in the engine's words: ``done`` spaces of ``len(route)``
    driven in one go so far; ``state`` is "driven", "driving" (part-way) or "to drive"."""

    id: str
    name: str
    colour: str
    region: str
    route: tuple[str, ...]
    state: str
    done: int

    @property
    def label(self) -> str:
        ends = f"{self.route[0]} to {self.route[-1]}" if self.route else ""
        return f"{self.name} ({self.colour}, {self.region}: {ends}, {len(self.route)} spaces)"

    @property
    def progress(self) -> str:
        if self.state == "driving":
            return f"driving: {self.done} of {len(self.route)} spaces"
        return self.state


@dataclass(frozen=True)
class BywayChecklist:
    """A player's byways: the ones still marked (to drive or part-way) and the ones driven.
    Byways whose Travel Marker was removed at the end of planning need no driving and are left
    out; ``dropped`` counts them."""

    seat: int
    player: str
    entries: tuple[BywayEntry, ...]
    dropped: int

    @property
    def driven(self) -> int:
        return sum(1 for e in self.entries if e.state == "driven")

    @property
    def summary(self) -> str:
        return f"{self.player}: {self.driven} of {len(self.entries)} byways driven"


def byway_checklists(game: Any) -> list[BywayChecklist]:
    """Highways & Byways: every player's byway checklist with progress; [] for other games (or an
    engine whose insides no longer fit this reader)."""
    if getattr(game, "name", None) != "highwaysbyways":
        return []
    try:
        return [_checklist(game, p) for p in range(len(game.players))]
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        return []


def _checklist(game: Any, p: int) -> BywayChecklist:
    s, cat = game.state, game.cat
    entries = []
    for bw in s.driven[p]:
        entries.append(_entry(cat, bw, "driven", len(cat.byways[bw].spaces)))
    for bw in s.markers[p]:
        tracked = s.progress[p].get(bw)
        if tracked is not None:
            entries.append(_entry(cat, bw, "driving", int(tracked[1])))
        else:
            entries.append(_entry(cat, bw, "to drive", 0))
    # Red before blue, then by name: the order of the cards in front of the player.
    entries.sort(key=lambda e: (e.colour != "red", e.name))
    return BywayChecklist(p, game.players[p], tuple(entries), len(s.dropped[p]))


def _entry(cat: Any, bw: str, state: str, done: int) -> BywayEntry:
    b = cat.byways[bw]
    region = cat.spaces[b.spaces[0]].region if b.spaces else ""
    return BywayEntry(b.id, b.name, b.color, region, tuple(b.spaces), state, done)


def _highwayman(game: Any) -> list[str]:
    s = game.state
    tops = []
    for route, pile in sorted(s.routes.items()):
        if pile:
            reached = s.reached.get(route)
            tops.append(f"{route} {'LONDON' if reached == 0 else reached}")
    lines = ["Routes: " + (", ".join(tops) if tops else "none started yet") + "."]
    # the stock first: on a 800x480 screen the end of a long line is cut
    lines.append(f"Stock: {sum(s.stock.values())}. In hand: "
                 + ", ".join(f"{game.players[i]} {len(h)}" for i, h in enumerate(s.hands)) + ".")
    return lines


READERS: dict[str, Callable[[Any], list[str]]] = {
    "bigsur": _bigsur, "roundabout": _roundabout, "monsterhighway": _monster,
    "highwaysbyways": _highwaysbyways, "highwayman": _highwayman,
}


def status_lines(game: Any) -> list[str]:
    reader = READERS.get(game.name)
    if reader is None:
        return []
    try:
        return [line for line in reader(game) if line]
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        return []


def highlights(game: Any, observation: Any) -> list[tuple[float, float]]:
    """Table-mm spots to ring on the picture (see Session.highlights)."""
    try:
        if game.name == "roundabout" and game.state.held is not None and observation is not None:
            from companion.reconcile.roundabout import alignment
            from rules.roundabout import legal_placements

            grid = (getattr(observation, "layout", None) or {}).get("grid") or []
            if not grid:
                return []
            align = alignment(game, grid)
            known = grid[0]
            size = 70.0
            cells = sorted({align.to_camera((x, y)) for x, y, _ in legal_placements(game, game.state.held)})
            return [(known["center_mm"][0] + size * (x - known["cell"][0]),
                     known["center_mm"][1] + size * (y - known["cell"][1])) for x, y in cells]
        if game.name == "monsterhighway" and game.state.monster is not None:
            cols = game.catalog.columns
            cell_mm = float(getattr(game.catalog, "cell_mm", 50))
            col, row = game.state.monster % cols, game.state.monster // cols
            return [((col + 0.5) * cell_mm, (row + 0.5) * cell_mm)]
    except (AttributeError, KeyError, TypeError, ValueError, IndexError, ImportError):
        return []
    return []
