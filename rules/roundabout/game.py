"""The Roundabout engine: flip or take a card and play it, or reserve a spot with your car.

Seats in a record are listed clockwise around the table. Play runs counter-clockwise (the
rulebook: "like a roundabout!"), so after seat ``i`` comes seat ``i - 1``: 0, n-1, n-2, ...

Interpretations where the rulebook is silent (also in docs/records.md):

* The first card revealed lies at cell (0, 0); the grid is measured from it. Its rotation is
  free (0 unless its ``reveal`` says otherwise, e.g. as the camera sees it).
* Taking the discard pile's top card is allowed only when it has a legal spot for you: it could
  only go straight back, and the rulebook forbids voluntary discards.
* A card with no legal spot goes on top of the discard pile and ends the turn.
* With the deck empty, a player who cannot take the discard pile's top card passes.
* The game ends when deck and discard pile are empty, or when the deck is empty and the discard
  pile's top card has no legal spot for anyone: the cards left there can never be played, so
  waiting for them would never end.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..actions import Action
from ..errors import ActionFormatError, IllegalAction, OptionError
from ..game import Game
from ..scoring import Breakdown
from .cards import Deck, load_deck
from .layout import (
    RULE_CARS,
    RULE_ONE_CARD,
    Cell,
    check_placement,
    frontier,
    grid_position,
    grid_rotation,
    placements,
    quarter_point,
    roundabout_cells,
    score_roundabout,
)

RULE_TURN = "on your turn, place a card or reserve a spot"
RULE_DISCARD = "players may not voluntarily discard cards"
RULE_DECK = "flip over the top card from the deck"

#: Fields each action takes; anything else is a malformed action.
FIELDS: dict[str, tuple[str, ...]] = {
    "reveal": ("card",),  # and, for the centre card only, an optional "rotation"
    "flip": (),
    "take_discard": ("card",),
    "place": ("card", "x", "y", "rotation"),
    "discard": ("card",),
    "reserve": ("x", "y"),
    "pass": (),
}


@dataclass
class RoundaboutState:
    #: Cards still in the deck by id: which one is on top is unknown until it is flipped.
    deck: dict[str, int]
    #: The discard pile, bottom first (the last card is the face-up top card).
    discard: list[str] = field(default_factory=list)
    #: cell -> (card id, rotation)
    layout: dict[Cell, tuple[str, int]] = field(default_factory=dict)
    #: cell -> seat of the car reserving it
    cars: dict[Cell, int] = field(default_factory=dict)
    #: The card the player to move has flipped or taken and must now play.
    held: str | None = None
    #: The player has asked to flip and the deck's top card is about to be revealed.
    flipping: bool = False
    turn: int = 0
    #: Completed roundabouts in order: (seat who completed it, its grid point).
    roundabouts: list[tuple[int, Cell]] = field(default_factory=list)


class Roundabout(Game[RoundaboutState]):
    """Roundabout for 2 to 4 players. Option ``first``: the seat who most recently drove on a
    roundabout and so goes first (default seat 0)."""

    name = "roundabout"
    title = "Roundabout"
    min_players = 2
    max_players = 4
    default_options: ClassVar[dict[str, Any]] = {"first": None}

    def __init__(self, players: Any, *, seed: int = 0, options: Any = None, deck: Deck | None = None) -> None:
        self.deck = deck if deck is not None else load_deck()
        super().__init__(players, seed=seed, options=options)

    def initial_state(self) -> RoundaboutState:
        first = self.options["first"]
        if first is None:
            first = 0
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(self.players):
            raise OptionError(f"option 'first' must be a seat number from 0 to {len(self.players) - 1}, not {first!r}")
        return RoundaboutState(deck={c.id: c.count for c in self.deck.cards.values()}, turn=first)

    # ------------------------------------------------------------------ queries
    def current_player(self) -> int | None:
        s = self.state
        return None if not s.layout or s.flipping else s.turn

    def is_game_over(self) -> bool:
        s = self.state
        if not s.layout or s.held is not None or s.flipping or s.deck:
            return False
        return not s.discard or not placements(self.deck, s.layout, s.cars, s.discard[-1], None)

    def car_in_hand(self, player: int) -> bool:
        return player not in self.state.cars.values()

    def placements_for(self, card: str, player: int | None) -> list[tuple[int, int, int]]:
        return placements(self.deck, self.state.layout, self.state.cars, card, player)

    def legal_actions(self) -> list[Action]:
        s = self.state
        if self.is_game_over():
            return []
        if not s.layout or s.flipping:
            return [Action.of("reveal", None, card=c) for c in sorted(s.deck)]
        p = s.turn
        if s.held is not None:
            spots = self.placements_for(s.held, p)
            if not spots:
                return [Action.of("discard", p, card=s.held)]
            return [Action.of("place", p, card=s.held, x=x, y=y, rotation=r) for x, y, r in spots]
        out = []
        if s.deck:
            out.append(Action.of("flip", p))
        can_take = bool(s.discard) and bool(self.placements_for(s.discard[-1], p))
        if can_take:
            out.append(Action.of("take_discard", p, card=s.discard[-1]))
        if self.car_in_hand(p):
            out += [Action.of("reserve", p, x=x, y=y) for x, y in frontier(s.layout, s.cars)]
        if not s.deck and not can_take:
            out.append(Action.of("pass", p))
        return out

    def legal_actions_for(self, seat: int) -> list[Action]:
        """What one seat may do now (the same helper as the games with out-of-turn plays, so the
        screen can ask every game alike): the mover's actions, nothing for anyone else."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.players):
            raise ActionFormatError(f"a seat is a number from 0 to {len(self.players) - 1}, not {seat!r}")
        return [a for a in self.legal_actions() if a.player == seat]

    def chance_weights(self, outcomes: list[Action]) -> list[float]:
        return [float(self.state.deck[a["card"]]) for a in outcomes]

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        if action.kind not in FIELDS:
            raise ActionFormatError(f"Roundabout has no action {action.kind!r} (known: {', '.join(FIELDS)})")
        allowed = FIELDS[action.kind] + (("rotation",) if action.kind == "reveal" else ())
        extra = [k for k in action if k not in allowed]
        if extra:
            raise ActionFormatError(f"a {action.kind!r} action has no field {extra[0]!r}")
        for name in FIELDS[action.kind]:
            action[name]  # raises ActionFormatError naming a missing field
        card = action.get("card")
        if "card" in action and not isinstance(card, str):
            raise ActionFormatError(f"the field 'card' must be a card id, not {card!r}")
        if "card" in action and card not in self.deck.cards:
            raise ActionFormatError(f"{card!r} is not a card of this deck ({self.deck.path})")
        if action.kind == "reveal":
            self._reveal(card, action)
            return
        if action.player is None:
            raise IllegalAction(f"a {action.kind!r} is a player's action, not chance's", rule=RULE_TURN)
        p = action.player
        getattr(self, f"_{action.kind}")(p, action)

    def _reveal(self, card: str, action: Action) -> None:
        s = self.state
        if s.layout and not s.flipping:
            raise IllegalAction("no card is being flipped now", rule=RULE_DECK)
        if s.layout and "rotation" in action:
            raise ActionFormatError("only the centre card is revealed onto the table with a 'rotation'")
        # The centre card's rotation is free (the grid is measured from it); the app passes the
        # one the camera sees so that engine and camera turn cards the same way.
        rotation = grid_rotation(action.get("rotation", 0))
        if s.deck.get(card, 0) == 0:
            raise IllegalAction(f"{card} is not in the deck", rule=RULE_DECK)
        self._take_from_deck(card)
        if not s.layout:
            s.layout[(0, 0)] = (card, rotation)  # "reveal the top card ... in the center of the table"
        else:
            s.flipping = False
            s.held = card

    def _take_from_deck(self, card: str) -> None:
        s = self.state
        s.deck[card] -= 1
        if not s.deck[card]:
            del s.deck[card]

    def _needs_no_card(self, what: str) -> None:
        if self.state.held is not None:
            raise IllegalAction(f"{self.state.held} was already drawn this turn and must be played before {what}",
                                rule=RULE_TURN)

    def _flip(self, p: int, action: Action) -> None:
        self._needs_no_card("flipping another")
        if not self.state.deck:
            raise IllegalAction("the deck is empty", rule=RULE_DECK)
        self.state.flipping = True

    def _take_discard(self, p: int, action: Action) -> None:
        s = self.state
        self._needs_no_card("taking another")
        if not s.discard:
            raise IllegalAction("there is no discard pile", rule=RULE_TURN)
        if action["card"] != s.discard[-1]:
            raise IllegalAction(f"the discard pile's top card is {s.discard[-1]}, not {action['card']}", rule=RULE_TURN)
        if not self.placements_for(s.discard[-1], p):
            raise IllegalAction(f"{s.discard[-1]} has no legal spot, so taking it could only discard it again",
                                rule=RULE_DISCARD)
        s.held = s.discard.pop()

    def _place(self, p: int, action: Action) -> None:
        s = self.state
        if s.held is None:
            raise IllegalAction("flip the deck's top card or take the discard pile's top card first", rule=RULE_TURN)
        if action["card"] != s.held:
            raise IllegalAction(f"the card to play is {s.held}, not {action['card']}", rule=RULE_TURN)
        cell = grid_position(action["x"], action["y"])
        rotation = grid_rotation(action["rotation"])
        check_placement(self.deck, s.layout, s.cars, s.held, cell, rotation, p)
        s.layout[cell] = (s.held, rotation)
        s.held = None
        s.cars.pop(cell, None)  # the owner takes the car back
        point = quarter_point(cell, rotation)
        if roundabout_cells(s.layout, point) is not None:
            s.roundabouts.append((p, point))
        self._end_turn()

    def _discard(self, p: int, action: Action) -> None:
        s = self.state
        if s.held is None:
            raise IllegalAction("there is no drawn card to discard", rule=RULE_DISCARD)
        if action["card"] != s.held:
            raise IllegalAction(f"the drawn card is {s.held}, not {action['card']}", rule=RULE_DISCARD)
        spots = self.placements_for(s.held, p)
        if spots:
            x, y, r = spots[0]
            raise IllegalAction(f"{s.held} can be played (for example at ({x}, {y}) turned {r})", rule=RULE_DISCARD)
        s.discard.append(s.held)
        s.held = None
        self._end_turn()

    def _reserve(self, p: int, action: Action) -> None:
        s = self.state
        self._needs_no_card("reserving a spot")
        cell = grid_position(action["x"], action["y"])
        if not self.car_in_hand(p):
            spot = next(c for c, o in s.cars.items() if o == p)
            raise IllegalAction(f"your car already reserves {spot}", rule=RULE_CARS)
        if cell in s.layout:
            raise IllegalAction(f"cell {cell} already holds a card", rule=RULE_ONE_CARD)
        if cell in s.cars:
            raise IllegalAction(f"cell {cell} already holds a car", rule=RULE_ONE_CARD)
        if cell not in frontier(s.layout, s.cars):
            raise IllegalAction(f"cell {cell} does not touch the layout: a car is placed like a card",
                                rule=RULE_CARS)
        s.cars[cell] = p
        self._end_turn()

    def _pass(self, p: int, action: Action) -> None:
        s = self.state
        self._needs_no_card("passing")
        if s.deck:
            raise IllegalAction("the deck still has cards: flip one", rule=RULE_TURN)
        if s.discard and self.placements_for(s.discard[-1], p):
            raise IllegalAction(f"{s.discard[-1]} on the discard pile can be played", rule=RULE_TURN)
        self._end_turn()

    def _end_turn(self) -> None:
        self.state.turn = (self.state.turn - 1) % len(self.players)  # counter-clockwise

    # ------------------------------------------------------------------ scores and bookkeeping
    def breakdown(self, player: int) -> Breakdown:
        lines = tuple(score_roundabout(self.deck, self.state.layout, point)
                      for who, point in self.state.roundabouts if who == player)
        return Breakdown(player, lines)

    def zones(self) -> dict[str, Counter[str]]:
        s = self.state
        cars_out = Counter(f"car-{o}" for o in s.cars.values())
        return {
            "deck": Counter(s.deck),
            "discard pile": Counter(s.discard),
            "table": Counter(c for c, _ in s.layout.values()) + cars_out,
            "drawn": Counter([s.held] if s.held else []),
            "cars in front of players": Counter(f"car-{p}" for p in range(len(self.players))) - cars_out,
        }

    def describe(self, action: Action) -> str:
        who = "Chance" if action.player is None else self.players[action.player]
        k = action.kind
        if k == "reveal":
            return f"{who}: {action.get('card')} is turned up"
        if k == "place":
            return f"{who} plays {action.get('card')} at ({action.get('x')}, {action.get('y')}) turned {action.get('rotation')}"
        if k == "reserve":
            return f"{who} reserves ({action.get('x')}, {action.get('y')}) with their car"
        if k == "take_discard":
            return f"{who} takes {action.get('card')} from the discard pile"
        if k == "discard":
            return f"{who} discards {action.get('card')}: it cannot be played"
        if k == "flip":
            return f"{who} flips the deck's top card"
        if k == "pass":
            return f"{who} passes: the deck is empty and the discard pile's top card does not fit"
        return super().describe(action)
