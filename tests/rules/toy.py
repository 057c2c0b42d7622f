"""A tiny game used to test the engine base: reveal a card from a 6-card deck, the player to move
takes it or passes; the game ends when the deck is empty. Score = sum of taken cards."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from rules import Action, Breakdown, IllegalAction
from rules.game import Game
from rules.scoring import line


@dataclass
class ToyState:
    deck: list[str] = field(default_factory=lambda: [f"c{i}" for i in range(1, 7)])
    shown: str | None = None
    hands: list[list[str]] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    turn: int = 0


class Toy(Game[ToyState]):
    name = "toy"
    title = "Toy"
    default_options: ClassVar[dict[str, object]] = {"bonus": False}

    def initial_state(self) -> ToyState:
        return ToyState(hands=[[] for _ in self.players])

    def current_player(self) -> int | None:
        return None if self.state.shown is None else self.state.turn

    def legal_actions(self) -> list[Action]:
        if self.is_game_over():
            return []
        if self.state.shown is None:
            return [Action.of("reveal", None, card=c) for c in sorted(set(self.state.deck))]
        return [Action.of("take", self.state.turn), Action.of("pass", self.state.turn)]

    def apply(self, action: Action) -> None:
        s = self.state
        if action.kind == "reveal":
            card = action["card"]
            if card not in s.deck:
                raise IllegalAction(f"{card} is not in the deck", rule="reveal")
            s.deck.remove(card)
            s.shown = card
        elif action.kind in ("take", "pass"):
            assert s.shown is not None
            (s.hands[s.turn] if action.kind == "take" else s.discard).append(s.shown)
            s.shown = None
            s.turn = (s.turn + 1) % len(self.players)
        else:
            raise IllegalAction(f"unknown action {action.kind!r}", rule="actions")

    def is_game_over(self) -> bool:
        return not self.state.deck and self.state.shown is None

    def breakdown(self, player: int) -> Breakdown:
        return Breakdown(player, tuple(line("card", int(c[1:]), c) for c in self.state.hands[player]))

    def zones(self) -> dict[str, Counter[str]]:
        z = {"deck": Counter(self.state.deck), "shown": Counter([self.state.shown] if self.state.shown else []),
             "discard": Counter(self.state.discard)}
        for i, h in enumerate(self.state.hands):
            z[f"hand{i}"] = Counter(h)
        return z
