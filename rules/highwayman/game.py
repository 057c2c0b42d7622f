"""The Highwayman engine: rules 1-5 of the Chad Valley rule sheet (seeds/003).

Seats in a record are listed clockwise around the table, so "the player on the left" of seat
``i`` is seat ``i + 1``. Interpretations where the sheet is silent (also in docs/records.md):

* A route is started by its LONDON card; stage 1 goes on LONDON, 2 on 1, and so on.
* A turn: the player plays a run of cards, or draws. A run is a LONDON card or the next stage of a
  started route, then, at the player's choice, the following stages of that same route (rule 3).
  A LONDON card may start a run only when no stage card in hand can be played (rule 2).
* A player who can play neither draws one card from the stock, and the turn ends, even when the
  card drawn would fit a route; a LONDON card drawn is played at once (rule 2).
* The turn ends when the player says so (``end_turn``) or by itself once the player has played
  and has nothing left they could play.
* A Highwayman may be played "at any time": by the player to move at any point of the turn, and
  by any other player between actions, on a started route that is not already held up. It is
  not a run card, so playing one neither counts as the turn's play nor ends the turn; a finished
  route is still a started one and takes a Highwayman too. A Bow Street Runner is played in your
  own turn on a held-up route, covering its Highwayman; like the Highwayman it answers, it is not
  the turn's play, so the player then still plays a number or LONDON card, or draws.
* The stock running out (the sheet is silent): a player who cannot play and cannot draw passes;
  when every player has passed in a row, the game ends and everyone scores their hand.
* A LONDON card left in a hand counts 0: it has no number.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..actions import Action
from ..errors import ActionFormatError, IllegalAction, OptionError
from ..game import Game
from ..scoring import Breakdown, Standing, line, rank
from .cards import HIGHWAYMAN, HIGHWAYMAN_ID, LONDON, RUNNER, Pack, load_pack

HAND_SIZE = 6

RULE_DEAL = "rule 1: deal six cards to each player"
RULE_LONDON = "rule 2: a LONDON card starts a route when no numbered card can be played"
RULE_ROTATION = "rule 2: cards are played in rotation on their own route"
RULE_DRAW = "rule 2: a player holding neither must take a card from the pack"
RULE_RUN = "rule 3: play on while the numbers run consecutively on the correct route"
RULE_HIGHWAYMAN = "rule 4: a Highwayman stops a started route until a Bow Street Runner covers it"
RULE_HAND = "a player plays only cards they hold"
RULE_TURN = "turn order"
RULE_STOCK = "the stock is empty: pass"

FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {  # kind -> (required, optional)
    "deal": (("card",), ()),
    "drawn": (("card",), ()),
    "play": (("card",), ("route",)),
    "draw": ((), ()),
    "end_turn": ((), ()),
    "pass": ((), ()),
}


@dataclass
class HighwaymanState:
    #: Cards in the stock by id; which is on top is unknown until it is dealt or drawn.
    stock: dict[str, int]
    #: Each seat's hand, kept in ``Highwayman.hand_order``.
    hands: list[list[str]]
    #: Route id -> its pile, bottom first (LONDON, 1, 2, Highwayman, Bow Street Runner, 3...).
    routes: dict[str, list[str]] = field(default_factory=dict)
    #: Route id -> the last stage played on it (0 once LONDON is down).
    reached: dict[str, int] = field(default_factory=dict)
    #: Cards still to deal, and the seat receiving the next one.
    to_deal: int = 0
    deal_to: int = 0
    turn: int = 0
    #: The player to move asked to draw and the stock's top card is about to be seen.
    drawing: bool = False
    #: The route of this turn's run, once the player has played a LONDON or stage card.
    run: str | None = None
    #: Passes in a row while the stock is empty.
    passes: int = 0
    #: The seat who got rid of all their cards first.
    out: int | None = None


class Highwayman(Game[HighwaymanState]):
    """Highwayman for 2 to 6 players. Option ``dealer``: the dealing seat (default: the last
    seat, so seat 0, on the dealer's left, starts)."""

    name = "highwayman"
    title = "Highwayman"
    min_players = 2
    max_players = 6
    lowest_wins = True
    default_options: ClassVar[dict[str, Any]] = {"dealer": None}

    def __init__(self, players: Any, *, seed: int = 0, options: Any = None, pack: Pack | None = None) -> None:
        self.pack = pack if pack is not None else load_pack()
        self._route_rank = {r: i for i, r in enumerate(self.pack.routes)}
        super().__init__(players, seed=seed, options=options)

    def initial_state(self) -> HighwaymanState:
        n = len(self.players)
        dealer = self.dealer
        if self.pack.size < HAND_SIZE * n:
            raise OptionError(f"the pack has {self.pack.size} cards, too few to deal six to {n} players")
        return HighwaymanState(
            stock={c.id: c.count for c in self.pack.cards.values()},
            hands=[[] for _ in range(n)],
            to_deal=HAND_SIZE * n,
            deal_to=(dealer + 1) % n,
            turn=(dealer + 1) % n,  # "the player on the left of the Dealer commences"
        )

    @property
    def dealer(self) -> int:
        n = len(self.players)
        dealer = self.options["dealer"]
        if dealer is None:
            return n - 1
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise OptionError(f"option 'dealer' must be a seat number from 0 to {n - 1}, not {dealer!r}")
        return dealer

    def hand_order(self, card: str) -> tuple[int, int, str]:
        """Hands are kept sorted (so equal hands compare equal) in the order a player would fan
        them: route by route in catalog order, then by number, Highwaymen and Runners last."""
        info = self.pack[card]
        if info.route is None:
            return (len(self.pack.routes), 0, card)
        return (self._route_rank[info.route.id], info.number or 0, card)

    # ------------------------------------------------------------------ queries
    def current_player(self) -> int | None:
        s = self.state
        return None if s.to_deal or s.drawing else s.turn

    def is_game_over(self) -> bool:
        s = self.state
        return s.out is not None or (not s.to_deal and not s.stock and s.passes >= len(self.players))

    def route_tops(self) -> dict[str, str]:
        """The card on top of each started route: what the camera sees of the table."""
        return {route: pile[-1] for route, pile in self.state.routes.items()}

    def is_started(self, route: str) -> bool:
        return route in self.state.routes

    def is_held_up(self, route: str) -> bool:
        pile = self.state.routes.get(route)
        return bool(pile) and pile is not None and pile[-1] == HIGHWAYMAN_ID

    def playable_stages(self, player: int) -> list[str]:
        """Stage cards ``player`` could play now, run rules included."""
        s = self.state
        out = []
        for route, reached in s.reached.items():
            if s.run is not None and route != s.run:
                continue
            card = self.pack.stage(route, reached + 1)
            if card in s.hands[player] and not self.is_held_up(route):
                out.append(card)
        return sorted(out)

    def playable_londons(self, player: int) -> list[str]:
        s = self.state
        if s.run is not None or self.playable_stages(player):
            return []
        return sorted({c for c in s.hands[player] if self.pack[c].kind == LONDON})

    def _special_plays(self, player: int, *, runners: bool) -> list[Action]:
        s = self.state
        out = []
        hand = s.hands[player]
        for route in sorted(s.routes):
            if HIGHWAYMAN_ID in hand and not self.is_held_up(route):
                out.append(Action.of("play", player, card=HIGHWAYMAN_ID, route=route))
            if runners and self.is_held_up(route):
                runner = next((c for c in hand if self.pack[c].kind == RUNNER), None)
                if runner is not None:
                    out.append(Action.of("play", player, card=runner, route=route))
        return out

    def legal_actions(self) -> list[Action]:
        s = self.state
        if self.is_game_over():
            return []
        if s.to_deal:
            return [Action.of("deal", None, card=c) for c in sorted(s.stock)]
        if s.drawing:
            return [Action.of("drawn", None, card=c) for c in sorted(s.stock)]
        p = s.turn
        out = [Action.of("play", p, card=c) for c in self.playable_stages(p) + self.playable_londons(p)]
        out += self._special_plays(p, runners=True)
        if s.run is not None:
            out.append(Action.of("end_turn", p))
        elif not self.playable_stages(p) and not self.playable_londons(p):
            out.append(Action.of("draw", p) if s.stock else Action.of("pass", p))
        for other in range(len(self.players)):
            if other != p:
                out += self._special_plays(other, runners=False)
        return out

    def legal_actions_for(self, seat: int) -> list[Action]:
        """What one seat may do now: the mover's whole turn, for everyone else only the
        Highwaymen they may play out of turn (rule 4: "at any time"); empty at a chance node.
        The screen beside each seat shows this list, never :meth:`legal_actions`, which mixes seats."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.players):
            raise ActionFormatError(f"a seat is a number from 0 to {len(self.players) - 1}, not {seat!r}")
        return [a for a in self.legal_actions() if a.player == seat]

    def chance_weights(self, outcomes: list[Action]) -> list[float]:
        return [float(self.state.stock[a["card"]]) for a in outcomes]

    def may_act_out_of_turn(self, action: Action) -> bool:
        # Rule 4: "A Player may play a Highwayman card at any time".
        return action.kind == "play" and action.get("card") == HIGHWAYMAN_ID

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        if action.kind not in FIELDS:
            raise ActionFormatError(f"Highwayman has no action {action.kind!r} (known: {', '.join(FIELDS)})")
        required, optional = FIELDS[action.kind]
        extra = [k for k in action if k not in required + optional]
        if extra:
            raise ActionFormatError(f"a {action.kind!r} action has no field {extra[0]!r}")
        for name in required:
            action[name]  # raises ActionFormatError naming a missing field
        for name in ("card", "route"):
            if name in action and not isinstance(action[name], str):
                raise ActionFormatError(f"the field {name!r} must be a string, not {action[name]!r}")
        if "card" in action and action["card"] not in self.pack.cards:
            raise ActionFormatError(f"{action['card']!r} is not a Highwayman card")
        if action.kind in ("deal", "drawn"):
            if action.player is not None:
                raise IllegalAction(f"a {action.kind!r} is a random outcome, not a player's action", rule=RULE_TURN)
            getattr(self, f"_{action.kind}")(action["card"])
            return
        p = action.player
        if p is None or not 0 <= p < len(self.players):
            raise IllegalAction(f"a {action.kind!r} needs a seat from 0 to {len(self.players) - 1}", rule=RULE_TURN)
        getattr(self, f"_{action.kind}")(p, action)
        self._settle()

    def _from_stock(self, card: str, rule: str) -> None:
        s = self.state
        if not s.stock.get(card):
            raise IllegalAction(f"{self.pack[card].label} is not in the stock", rule=rule)
        s.stock[card] -= 1
        if not s.stock[card]:
            del s.stock[card]

    def _deal(self, card: str) -> None:
        s = self.state
        if not s.to_deal:
            raise IllegalAction("the hands are already dealt", rule=RULE_DEAL)
        self._from_stock(card, RULE_DEAL)
        bisect.insort(s.hands[s.deal_to], card, key=self.hand_order)
        s.deal_to = (s.deal_to + 1) % len(self.players)
        s.to_deal -= 1

    def _drawn(self, card: str) -> None:
        s = self.state
        if not s.drawing:
            raise IllegalAction("nobody is taking a card from the pack now", rule=RULE_DRAW)
        self._from_stock(card, RULE_DRAW)
        s.drawing = False
        s.passes = 0
        info = self.pack[card]
        if info.kind == LONDON:
            # "Should this card be a LONDON card he places it face up on the centre of the table"
            assert info.route is not None
            s.routes[info.route.id] = [card]
            s.reached[info.route.id] = 0
        else:
            bisect.insort(s.hands[s.turn], card, key=self.hand_order)
        self._next_player()

    def _play(self, p: int, action: Action) -> None:
        s = self.state
        card = action["card"]
        info = self.pack[card]
        if card not in s.hands[p]:
            raise IllegalAction(f"{self.players[p]} does not hold {info.label}", rule=RULE_HAND)
        if info.kind in (HIGHWAYMAN, RUNNER):
            self._play_special(p, card, action)
        else:
            assert info.route is not None
            route = info.route.id
            if "route" in action and action["route"] != route:
                raise IllegalAction(f"{info.label} belongs on the {info.route.name}, not {action['route']!r}",
                                    rule=RULE_ROTATION)
            if info.kind == LONDON:
                self._check_london(p, card)
                s.routes[route] = []
            else:
                self._check_stage(p, card)
            s.routes[route].append(card)
            s.reached[route] = info.number or 0
            s.run = route
        s.hands[p].remove(card)
        s.passes = 0
        if not s.hands[p]:
            s.out = p  # rule 5: "The Player who gets rid of all his cards first Is the Winner"

    def _check_london(self, p: int, card: str) -> None:
        s = self.state
        if s.run is not None:
            raise IllegalAction(f"the run on the {self.pack.routes[s.run].name} goes on with its next "
                                "number; a LONDON card cannot follow it", rule=RULE_RUN)
        stages = self.playable_stages(p)
        if stages:
            raise IllegalAction(f"{self.pack[stages[0]].label} can be played, and a LONDON card only "
                                "when no numbered card can", rule=RULE_LONDON)

    def _check_stage(self, p: int, card: str) -> None:
        s = self.state
        info = self.pack[card]
        assert info.route is not None and info.number is not None
        route = info.route
        if s.run is not None and s.run != route.id:
            raise IllegalAction(f"this turn's run is on the {self.pack.routes[s.run].name}, not the {route.name}",
                                rule=RULE_RUN)
        if route.id not in s.reached:
            raise IllegalAction(f"the {route.name} has not been started: its LONDON card comes first",
                                rule=RULE_ROTATION)
        if s.reached[route.id] + 1 != info.number:
            want = s.reached[route.id] + 1
            what = f"number {want}" if want <= route.stages else "nothing: it is complete"
            rule = RULE_RUN if s.run is not None else RULE_ROTATION
            raise IllegalAction(f"the {route.name} takes {what} next, not {info.number}", rule=rule)
        if self.is_held_up(route.id):
            raise IllegalAction(f"a Highwayman holds up the {route.name} until a Bow Street Runner covers him",
                                rule=RULE_HIGHWAYMAN)

    def _play_special(self, p: int, card: str, action: Action) -> None:
        s = self.state
        info = self.pack[card]
        route = action.get("route")
        if route is None:
            raise ActionFormatError(f"playing a {info.label} needs the field 'route'")
        if route not in self.pack.routes:
            raise ActionFormatError(f"{route!r} is not a route (known: {', '.join(self.pack.routes)})")
        name = self.pack.routes[route].name
        if info.kind == HIGHWAYMAN:
            if route not in s.routes:
                raise IllegalAction(f"the {name} has not been started", rule=RULE_HIGHWAYMAN)
            if self.is_held_up(route):
                raise IllegalAction(f"a Highwayman already holds up the {name}", rule=RULE_HIGHWAYMAN)
        else:
            if p != s.turn:
                raise IllegalAction(f"it is {self.players[s.turn]}'s turn; only a Highwayman may be played "
                                    "at any time", rule=RULE_TURN)
            if not self.is_held_up(route):
                raise IllegalAction(f"no Highwayman holds up the {name} for a Bow Street Runner to cover",
                                    rule=RULE_HIGHWAYMAN)
        s.routes[route].append(card)

    def _draw(self, p: int, action: Action) -> None:
        s = self.state
        self._check_nothing_to_play(p, "take a card from the pack")
        if not s.stock:
            raise IllegalAction("the stock is empty", rule=RULE_STOCK)
        s.drawing = True

    def _pass(self, p: int, action: Action) -> None:
        s = self.state
        self._check_nothing_to_play(p, "pass")
        if s.stock:
            raise IllegalAction("the stock still has cards: take one", rule=RULE_DRAW)
        s.passes += 1
        self._next_player()

    def _check_nothing_to_play(self, p: int, what: str) -> None:
        s = self.state
        if s.run is not None:
            raise IllegalAction(f"{self.players[p]} has played this turn and cannot {what} now", rule=RULE_DRAW)
        can = self.playable_stages(p) + self.playable_londons(p)
        if can:
            raise IllegalAction(f"{self.pack[can[0]].label} can be played, so {self.players[p]} may not {what}",
                                rule=RULE_DRAW)

    def _end_turn(self, p: int, action: Action) -> None:
        if self.state.run is None:
            raise IllegalAction("play a card (or take one from the pack) before ending the turn", rule=RULE_DRAW)
        self._next_player()

    def _next_player(self) -> None:
        s = self.state
        s.turn = (s.turn + 1) % len(self.players)  # play goes to the left
        s.run = None

    def _settle(self) -> None:
        """End the turn by itself once the player has played and has nothing left to play."""
        s = self.state
        if s.out is not None or s.run is None or s.drawing:
            return
        if not self.playable_stages(s.turn) and not self._special_plays(s.turn, runners=True):
            self._next_player()

    # ------------------------------------------------------------------ scores and bookkeeping
    def breakdown(self, player: int) -> Breakdown:
        """Rule 5: the numbers on the cards left in hand, 10 per Bow Street Runner, 20 per
        Highwayman (shown live during the game, final once it is over)."""
        lines = []
        for card in self.state.hands[player]:
            info = self.pack[card]
            label = info.label + (" (no number)" if info.kind == LONDON else "")
            lines.append(line("card in hand", info.penalty, label, card=card))
        return Breakdown(player, tuple(lines))

    def standings(self) -> list[Standing]:
        """Lowest score first; the player who went out is the winner even if another player's
        leftover cards happen to count nothing (LONDON cards)."""
        s = self.state
        totals = [(p, n, self.breakdown(p).total) for p, n in enumerate(self.players)]
        if s.out is None:
            return rank(totals, lowest_wins=True)
        winner = totals[s.out]
        rest = rank([t for t in totals if t[0] != s.out], lowest_wins=True)
        return [Standing(1, winner[0], winner[1], winner[2])] + [
            Standing(r.place + 1, r.player, r.name, r.score) for r in rest]

    def zones(self) -> dict[str, Counter[str]]:
        s = self.state
        out = {"stock": Counter(s.stock)}
        for p, hand in enumerate(s.hands):
            out[f"hand {p}"] = Counter(hand)
        for route, pile in s.routes.items():
            out[f"route {route}"] = Counter(pile)
        return out

    def describe(self, action: Action) -> str:
        who = "Chance" if action.player is None else self.players[action.player]
        card = action.get("card")
        label = self.pack[card].label if isinstance(card, str) and card in self.pack.cards else card
        if action.kind == "play":
            route = action.get("route")
            on = f" on the {self.pack.routes[route].name}" if route in self.pack.routes else ""
            return f"{who} plays {label}{on}"
        if action.kind == "deal":
            return f"A card is dealt ({label})"
        if action.kind == "drawn":
            return f"{label} is taken from the pack"
        return super().describe(action)
