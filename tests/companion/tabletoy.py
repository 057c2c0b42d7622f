"""A tiny table game for session tests: chance reveals a card, the player to move places it in
a free cell of a row of six (cells are 100 mm apart) or, if it is "x9", must discard it.
Placing next to nothing is refused once the row has a card ("must touch the row")."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from rules import Action, Breakdown, IllegalAction
from rules.game import Game
from rules.scoring import line

CARDS = ["a1", "b2", "c3", "d4"]


@dataclass
class TableState:
    deck: list[str] = field(default_factory=lambda: list(CARDS))
    shown: str | None = None
    row: dict[int, str] = field(default_factory=dict)
    owner: dict[int, int] = field(default_factory=dict)
    turn: int = 0


class TableToy(Game[TableState]):
    name = "tabletoy"
    title = "Table Toy"
    default_options: ClassVar[dict[str, object]] = {}

    def initial_state(self) -> TableState:
        return TableState()

    def current_player(self) -> int | None:
        return None if self.state.shown is None else self.state.turn

    def legal_actions(self) -> list[Action]:
        s = self.state
        if self.is_game_over():
            return []
        if s.shown is None:
            return [Action.of("reveal", None, card=c) for c in sorted(s.deck)]
        cells = [c for c in range(6) if c not in s.row and (not s.row or c - 1 in s.row or c + 1 in s.row)]
        return [Action.of("place", s.turn, card=s.shown, cell=c) for c in cells]

    def apply(self, action: Action) -> None:
        s = self.state
        if action.kind == "reveal":
            if action["card"] not in s.deck:
                raise IllegalAction(f"{action['card']} is not in the deck", rule="reveal")
            s.deck.remove(action["card"])
            s.shown = action["card"]
        elif action.kind == "place":
            cell = action["cell"]
            if action["card"] != s.shown:
                raise IllegalAction(f"the card to place is {s.shown}, not {action['card']}", rule="place")
            if not isinstance(cell, int) or not 0 <= cell < 6:
                raise IllegalAction(f"cell {cell!r} is not on the row", rule="place")
            if cell in s.row:
                raise IllegalAction(f"cell {cell} already holds {s.row[cell]}", rule="place")
            if s.row and cell - 1 not in s.row and cell + 1 not in s.row:
                raise IllegalAction(f"cell {cell} must touch the row", rule="must touch the row")
            s.row[cell] = s.shown
            s.owner[cell] = s.turn
            s.shown = None
            s.turn = (s.turn + 1) % len(self.players)
        else:
            raise IllegalAction(f"unknown action {action.kind!r}", rule="actions")

    def is_game_over(self) -> bool:
        return not self.state.deck and self.state.shown is None

    def breakdown(self, player: int) -> Breakdown:
        return Breakdown(player, tuple(line("card", int(c[1]), c) for cell, c in sorted(self.state.row.items())
                                       if self.state.owner[cell] == player))

    def zones(self) -> dict[str, Counter[str]]:
        return {"deck": Counter(self.state.deck), "shown": Counter([self.state.shown] if self.state.shown else []),
                "row": Counter(self.state.row.values())}


class TableToyReconciler:
    """Cells are 100 mm apart along x: a new card at x mm was placed in cell round(x / 100)."""

    @staticmethod
    def candidates(game, diff, observation, context):
        return [Action.of("place", game.current_player(), card=s.id, cell=round(s.center[0] / 100))
                for s in diff.added if game.current_player() is not None]


def _register() -> None:
    from companion.reconcile import register

    register("tabletoy", TableToyReconciler)


_register()
