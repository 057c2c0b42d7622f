"""The Highways & Byways engine: set-up, the byway drafts, and the driving stage.

Action kinds (fields) by phase; seats are numbered clockwise and ``first_player`` (option, default
0) holds the Player 1 card during set-up:

* ``choose_vehicle`` (vehicle), then ``choose_start`` (space), each clockwise from Player 1;
* chance ``draw_event`` (card) deals five event cards to everyone;
* red then blue draft: chance ``draw_byway`` (card), then ``keep_byway`` (card) by the drafter;
* ``drop_byways`` (cards: one red byway or two blue byways), clockwise from Player 1;
* driving, per turn: chance ``construction`` (card) when a round starts; chance ``pick_event``
  (position: the hand position the clockwise neighbour takes, 0 = leftmost); ``settle_dispute``
  (space) by the Player 1 card holder when a Traffic event ties; then ``drive`` (path: the spaces
  entered, in order), ``draw`` (card: the event card discarded for a fresh one), ``choice``,
  ``plan_discard`` (card, on a planning day) and ``end_turn``; chance ``draw_event`` refills; and
  ``keep`` (card) picks the one event card kept of the end-of-turn draw.

``legal_actions`` lists ``drive`` only with one-space paths, which keeps it small; ``drive`` with a
longer path is accepted too and is exactly the same as its one-space drives in a row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..actions import Action
from ..errors import ActionFormatError, IllegalAction, OptionError
from ..game import Game
from ..scoring import Breakdown, Standing, line, rank
from .data import BLUE_PER_PLAYER, RED_PER_PLAYER, Catalogs, load
from .state import (
    CHOICE_DRAW,
    END_DRAW,
    HAND_SIZE,
    PLANNING_COST,
    PLANNING_DAY_SWAPS,
    TRAVEL_MARKERS,
    HBState,
    TurnState,
)

#: Points for getting home, per place still available below you; large enough that any finisher
#: ranks above any driver still on the road, whose byways driven (one point each) break ties.
HOME_POINTS = 100

PLAYER_KINDS = frozenset({
    "choose_vehicle", "choose_start", "keep_byway", "drop_byways", "settle_dispute", "drive", "draw",
    "choice", "plan_discard", "end_turn", "keep",
})
CHANCE_KINDS = frozenset({"draw_event", "draw_byway", "construction", "pick_event"})
STEP_VECTORS = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}
#: Each action kind as the table would say it, for "not now" refusals.
STEP_WORDS = {
    "choose_vehicle": "a choice of vehicle", "choose_start": "a choice of Start Space",
    "keep_byway": "keeping a byway card", "drop_byways": "removing Travel Markers",
    "settle_dispute": "Player 1's decision on a disputed Traffic direction", "drive": "a drive",
    "draw": "a Draw planning action", "choice": "a Choice planning action",
    "plan_discard": "a planning-day discard", "end_turn": "the end of the turn",
    "keep": "keeping one of the event cards drawn", "draw_event": "an event card drawn from the deck",
    "draw_byway": "a byway card drawn from the deck", "construction": "Player 1's construction card",
    "pick_event": "the blind pick of an event card from the mover's hand",
}


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _text(action: Action, name: str) -> str:
    value = action[name]
    if not isinstance(value, str):
        raise ActionFormatError(f"the {name!r} of a {action.kind!r} action must be a string, not {value!r}")
    return value


def _whole(action: Action, name: str) -> int:
    value = action[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ActionFormatError(f"the {name!r} of a {action.kind!r} action must be a whole number, not {value!r}")
    return value


def _texts(action: Action, name: str) -> list[str]:
    value = action[name]
    if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
        raise ActionFormatError(f"the {name!r} of a {action.kind!r} action must be a list of strings, not {value!r}")
    return list(value)


class HighwaysAndByways(Game[HBState]):
    """Be the first to drive all your byways and return to your Start Space."""

    name = "highwaysbyways"
    title = "Highways & Byways"
    min_players = 2
    max_players = 4
    default_options: ClassVar[Mapping[str, Any]] = {"first_player": 0}

    def __init__(self, players: Sequence[str], *, seed: int = 0, options: Mapping[str, Any] | None = None,
                 catalogs: Catalogs | None = None) -> None:
        self.cat = catalogs if catalogs is not None else load()
        super().__init__(players, seed=seed, options=options)

    # ------------------------------------------------------------------ set-up
    def initial_state(self) -> HBState:
        n = len(self.players)
        first = self.options["first_player"]
        if not 0 <= first < n:
            raise OptionError(f"first_player must be a seat from 0 to {n - 1}, not {first}")
        if len(self.cat.vehicles) < n:
            raise OptionError(f"the vehicle catalog has {len(self.cat.vehicles)} vehicles, too few for {n} players")
        return HBState(
            players=n, first_player=first, seat=first, p1=first,
            vehicles=[None] * n, homes=[None] * n, position=[None] * n,
            hands=[[] for _ in range(n)],
            event_deck={c.id: c.count for c in self.cat.events.values()},
            red_deck=self.cat.deck("red"), blue_deck=self.cat.deck("blue"),
            kept=[[] for _ in range(n)], markers=[[] for _ in range(n)], dropped=[[] for _ in range(n)],
            driven=[[] for _ in range(n)], progress=[{} for _ in range(n)],
            construction_deck=sorted(self.cat.construction),
        )

    # ------------------------------------------------------------------ whose move
    def current_player(self) -> int | None:
        s = self.state
        if s.phase == "over" or s.step in ("draw", "construction", "event", "redraw"):
            return None
        if s.step == "dispute":
            return s.p1
        return s.seat

    def is_game_over(self) -> bool:
        return self.state.phase == "over"

    def driving(self) -> list[int]:
        """Seats still on the road (not yet home)."""
        return [p for p in range(self.state.players) if p not in self.state.finished]

    # ------------------------------------------------------------------ map helpers for the app
    def construction_letter(self) -> str | None:
        """The road letter of the face-up construction card, if any."""
        s = self.state
        return self.cat.construction[s.slots[-1]].letter if s.slots else None

    def is_closed(self, space: str, *, for_mover: bool = True) -> bool:
        """Whether a highway space is closed: by the construction card, or to the mover by an event."""
        sp = self.cat.spaces[space]
        if not sp.is_highway:
            return False
        letter = self.construction_letter()
        if letter is not None and letter in sp.roads:
            return True
        return for_mover and any(L in sp.roads for L in self.state.turn.closed)

    def moves_left(self) -> int:
        t = self.state.turn
        return t.budget - t.used

    def may_drive(self) -> bool:
        s = self.state
        return (s.phase == "driving" and s.step == "move" and not s.turn.planning_day and not s.turn.planned
                and self.moves_left() > 0)

    def reachable(self) -> dict[str, int]:
        """Every space the mover can reach this turn with the fewest spaces it takes (for the screen)."""
        return {space: len(path) for space, path in self._routes().items()}

    def route(self, to: str) -> list[str]:
        """A shortest open path from the mover's space to ``to`` within this turn's spaces: what the
        app pushes as a ``drive`` when a player taps a destination."""
        routes = self._routes()
        if to not in routes:
            raise IllegalAction(f"{to!r} cannot be reached this turn", rule="Moving & Planning")
        return routes[to]

    def _routes(self) -> dict[str, list[str]]:
        s = self.state
        if not self.may_drive():
            return {}
        here = s.position[s.seat]
        assert here is not None
        found: dict[str, list[str]] = {here: []}
        frontier = [here]
        for _ in range(self.moves_left()):
            nxt = []
            for a in frontier:
                for b in self.cat.neighbours[a]:
                    if b not in found and not self.is_closed(b):
                        found[b] = [*found[a], b]
                        nxt.append(b)
            frontier = nxt
        return found

    def traffic_targets(self, space: str, direction: str) -> list[str]:
        """The adjacent spaces lying furthest ``direction`` of ``space``; several means a dispute."""
        dx, dy = STEP_VECTORS[direction]
        here = self.cat.spaces[space]
        best, out = 0, []
        for n in self.cat.neighbours[space]:
            there = self.cat.spaces[n]
            reach = (there.x - here.x) * dx + (there.y - here.y) * dy
            if reach > best:
                best, out = reach, [n]
            elif reach == best and reach > 0:
                out.append(n)
        return out

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        s = self.state
        if s.phase == "over":
            return []
        p = s.seat
        if s.phase == "vehicle":
            taken = set(s.vehicles)
            return [Action.of("choose_vehicle", p, vehicle=v) for v in sorted(self.cat.vehicles) if v not in taken]
        if s.phase == "start":
            taken_homes = set(s.homes)
            return [Action.of("choose_start", p, space=h) for h in sorted(self.cat.starts) if h not in taken_homes]
        if s.step == "draw":
            if s.phase in ("red draft", "blue draft"):
                deck = s.red_deck if s.phase == "red draft" else s.blue_deck
                return [Action.of("draw_byway", None, card=c) for c in deck]
            return [Action.of("draw_event", None, card=c) for c in sorted(s.event_deck)]
        if s.step == "redraw":
            return [Action.of("draw_event", None, card=c) for c in sorted(s.event_deck)]
        if s.phase in ("red draft", "blue draft"):
            return [Action.of("keep_byway", p, card=c) for c in sorted(set(s.draft_hold))]
        if s.phase == "drop":
            return self._drop_options(p)
        t = s.turn
        if s.step == "construction":
            return [Action.of("construction", None, card=c) for c in s.construction_deck]
        if s.step == "event":
            return [Action.of("pick_event", None, position=i) for i in range(len(s.hands[p]))]
        if s.step == "dispute":
            return [Action.of("settle_dispute", s.p1, space=x) for x in t.dispute]
        if s.step == "keep":
            return [Action.of("keep", p, card=c) for c in sorted(set(t.drawn))]
        # the move step
        out: list[Action] = []
        hand = sorted(set(s.hands[p]))
        if t.planning_day:
            if t.day_discards < PLANNING_DAY_SWAPS:
                out += [Action.of("plan_discard", p, card=c) for c in hand]
        else:
            if self.may_drive():
                here = s.position[p]
                assert here is not None
                out += [Action.of("drive", p, path=[n]) for n in self.cat.neighbours[here] if not self.is_closed(n)]
            if self.moves_left() >= PLANNING_COST:
                out += [Action.of("draw", p, card=c) for c in hand]
                if not t.choice:
                    out.append(Action.of("choice", p))
        out.append(Action.of("end_turn", p))
        return out

    def _drop_options(self, p: int) -> list[Action]:
        marked = self.state.markers[p]
        reds = [b for b in marked if self.cat.byways[b].color == "red"]
        blues = [b for b in marked if self.cat.byways[b].color == "blue"]
        out = [Action.of("drop_byways", p, cards=[r]) for r in reds]
        out += [Action.of("drop_byways", p, cards=[a, b]) for i, a in enumerate(blues) for b in blues[i + 1:]]
        return out

    def chance_weights(self, outcomes: list[Action]) -> list[float]:
        deck = self.state.event_deck
        return [float(deck.get(a["card"], 0)) if a.kind == "draw_event" else 1.0 for a in outcomes]

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        if action.kind not in PLAYER_KINDS | CHANCE_KINDS:
            raise ActionFormatError(f"{self.title} has no action {action.kind!r}")
        expected = self._expected()
        if action.kind not in expected:
            waiting = (f"{self.players[self.state.seat]} to drive, plan or end the turn" if "end_turn" in expected
                       else " or ".join(sorted(STEP_WORDS[k] for k in expected)))
            raise IllegalAction(f"{STEP_WORDS[action.kind].capitalize()} is not possible now: the game is waiting for "
                                f"{waiting}", rule="turn order")
        getattr(self, f"_do_{action.kind}")(action)

    def _expected(self) -> set[str]:
        s = self.state
        if s.phase == "vehicle":
            return {"choose_vehicle"}
        if s.phase == "start":
            return {"choose_start"}
        if s.phase == "deal":
            return {"draw_event"}
        if s.phase in ("red draft", "blue draft"):
            return {"draw_byway"} if s.step == "draw" else {"keep_byway"}
        if s.phase == "drop":
            return {"drop_byways"}
        return {
            "construction": {"construction"}, "event": {"pick_event"}, "dispute": {"settle_dispute"},
            "redraw": {"draw_event"}, "draw": {"draw_event"}, "keep": {"keep"},
            "move": {"drive", "draw", "choice", "plan_discard", "end_turn"},
        }[s.step]

    # set-up -------------------------------------------------------------
    def _do_choose_vehicle(self, action: Action) -> None:
        s = self.state
        vehicle = _text(action, "vehicle")
        if vehicle not in self.cat.vehicles:
            raise IllegalAction(f"there is no vehicle {vehicle!r}", rule="Game Set Up")
        if vehicle in s.vehicles:
            raise IllegalAction(f"{self.cat.vehicles[vehicle].name} is already taken", rule="Game Set Up")
        s.vehicles[s.seat] = vehicle
        s.seat = (s.seat + 1) % s.players
        if s.seat == s.first_player:
            s.phase = "start"

    def _do_choose_start(self, action: Action) -> None:
        s = self.state
        space = _text(action, "space")
        if space not in self.cat.spaces or not self.cat.spaces[space].start:
            raise IllegalAction(f"{space!r} is not a Start Space", rule="Game Set Up")
        if space in s.homes:
            raise IllegalAction("two or more players cannot share the same Start Space", rule="Game Set Up")
        s.homes[s.seat] = space
        s.position[s.seat] = space
        s.seat = (s.seat + 1) % s.players
        if s.seat == s.first_player:
            s.phase, s.step = "deal", "draw"

    def _take_event(self, action: Action) -> str:
        s = self.state
        card = _text(action, "card")
        if s.event_deck.get(card, 0) <= 0:
            raise IllegalAction(f"{card!r} is not in the event deck", rule="Events")
        s.event_deck[card] -= 1
        if not s.event_deck[card]:
            del s.event_deck[card]
        return card

    def _do_draw_event(self, action: Action) -> None:
        s = self.state
        card = self._take_event(action)
        if s.phase == "deal":
            s.hands[s.seat].append(card)
            s.seat = (s.seat + 1) % s.players
            if all(len(h) == HAND_SIZE for h in s.hands):
                self._start_draft("red draft")
            return
        t = s.turn
        if s.step == "redraw":
            s.hands[s.seat].append(card)
        else:
            t.drawn.append(card)
        t.owed -= 1
        self._continue_draws()

    # drafts -------------------------------------------------------------
    def _start_draft(self, phase: str) -> None:
        s = self.state
        s.phase, s.step, s.seat, s.draft_hold, s.draft_keeps = phase, "draw", s.first_player, [], 0

    def _draft_target(self) -> int:
        s = self.state
        return s.players * (RED_PER_PLAYER if s.phase == "red draft" else BLUE_PER_PLAYER)

    def _do_draw_byway(self, action: Action) -> None:
        s = self.state
        deck = s.red_deck if s.phase == "red draft" else s.blue_deck
        card = _text(action, "card")
        if card not in deck:
            raise IllegalAction(f"{card!r} is not in the {s.phase.split()[0]} byway deck", rule="The Planning Stage")
        deck.remove(card)
        s.draft_hold.append(card)
        self._settle_draft()

    def _settle_draft(self) -> None:
        """Draw until the drafter holds two cards; with the deck empty a lone card is simply received."""
        s = self.state
        while True:
            deck = s.red_deck if s.phase == "red draft" else s.blue_deck
            if len(s.draft_hold) >= 2:
                s.step = "keep"
                return
            if deck:
                s.step = "draw"
                return
            if not s.draft_hold:
                raise IllegalAction("the byway deck ran out before everyone had their byways", rule="The Planning Stage")
            self._keep(s.draft_hold[0])
            if s.phase not in ("red draft", "blue draft"):
                return

    def _do_keep_byway(self, action: Action) -> None:
        card = _text(action, "card")
        if card not in self.state.draft_hold:
            raise IllegalAction(f"{card!r} is not one of the byway cards you hold", rule="The Planning Stage")
        self._keep(card)
        if self.state.phase in ("red draft", "blue draft"):
            self._settle_draft()

    def _keep(self, card: str) -> None:
        s = self.state
        s.draft_hold.remove(card)
        s.kept[s.seat].append(card)
        s.markers[s.seat].append(card)  # a Travel Marker goes on every byway received
        s.draft_keeps += 1
        if s.draft_keeps == self._draft_target():
            deck = s.red_deck if s.phase == "red draft" else s.blue_deck
            s.box += s.draft_hold + deck
            s.draft_hold.clear()
            deck.clear()
            if s.phase == "red draft":
                self._start_draft("blue draft")
            else:
                s.phase, s.step, s.seat = "drop", "choose", s.first_player
            return
        s.seat = (s.seat + 1) % s.players  # the other card is passed clockwise

    def _do_drop_byways(self, action: Action) -> None:
        s = self.state
        cards = _texts(action, "cards")
        marked = s.markers[s.seat]
        if any(c not in marked for c in cards) or len(set(cards)) != len(cards):
            raise IllegalAction("you can only remove Travel Markers from your own byways, each once",
                                rule="The Planning Stage")
        colors = [self.cat.byways[c].color for c in cards]
        if colors not in (["red"], ["blue", "blue"]):
            raise IllegalAction("remove the Travel Marker of one Red Byway or of two Blue Byways", rule="The Planning Stage")
        for c in cards:
            marked.remove(c)
            s.dropped[s.seat].append(c)
        s.drops_done += 1
        s.seat = (s.seat + 1) % s.players
        if s.drops_done == s.players:
            # The Player 1 card passes to whoever picked Vehicle and Start Space last.
            s.phase = "driving"
            s.p1 = (s.first_player - 1) % s.players
            self._start_turn(s.p1, new_round=True)

    # driving: the start of a turn -----------------------------------------
    def _start_turn(self, seat: int, *, new_round: bool) -> None:
        s = self.state
        s.seat = seat
        s.turn = TurnState()
        if new_round:
            s.round += 1
            s.reshuffled = False
            if len(s.slots) == self.cat.slots:
                # All five slots full at the start of Player 1's turn: reshuffle and pass hands.
                s.construction_deck = sorted(s.construction_deck + s.slots)
                s.slots = []
                s.reshuffled = True
                self._pass_hands()
            s.step = "construction"
            return
        self._begin_event()

    def _pass_hands(self) -> None:
        s = self.state
        seats = self.driving()
        hands = [s.hands[p] for p in seats]
        for i, p in enumerate(seats):
            s.hands[p] = hands[i - 1]  # each hand goes to the next player clockwise

    def _do_construction(self, action: Action) -> None:
        s = self.state
        card = _text(action, "card")
        if card not in s.construction_deck:
            raise IllegalAction(f"{card!r} is not among the construction cards left to play", rule="Construction")
        s.construction_deck.remove(card)
        s.slots.append(card)
        self._begin_event()

    def _begin_event(self) -> None:
        s = self.state
        vehicle = self.cat.vehicles[s.vehicles[s.seat] or ""]
        if s.reshuffled:
            s.turn.bonus += vehicle.reshuffle_moves
        if s.hands[s.seat]:
            s.step = "event"
        else:
            s.turn.event_note = "no event card in hand"
            self._begin_move()

    def _begin_move(self) -> None:
        s = self.state
        here = s.position[s.seat]
        assert here is not None
        if self.is_closed(here):
            s.turn.planning_day = True
        s.step = "move"

    # driving: events --------------------------------------------------------
    def _do_pick_event(self, action: Action) -> None:
        s = self.state
        position = _whole(action, "position")
        hand = s.hands[s.seat]
        if not 0 <= position < len(hand):
            raise IllegalAction(f"position {position} is not in a hand of {len(hand)} cards", rule="Events")
        card = hand.pop(position)
        s.turn.event = card
        self._resolve_event(card)

    def _resolve_event(self, card_id: str) -> None:
        s = self.state
        t = s.turn
        card = self.cat.events[card_id]
        vehicle = self.cat.vehicles[s.vehicles[s.seat] or ""]
        here = s.position[s.seat]
        assert here is not None
        note = "resolved"
        if card.effect in vehicle.immune:
            note = f"no effect on the {vehicle.name}"
        elif card.effect == "traffic":
            targets = self.traffic_targets(here, card.direction)
            if self.is_closed(here, for_mover=False):
                # "If you're currently on a highway space that contains the letter depicted on the
                # Construction Card, you cannot move that turn": being pushed along is moving, so
                # the card conflicts with the Construction Card and the car stays to plan.
                note = "conflicts with the construction card (a car on a closed space cannot move), discarded"
            elif not targets:
                note = f"impossible: no space lies {card.direction}, discarded"
            elif len(targets) > 1:
                t.dispute = targets
                s.step = "dispute"
                return
            else:
                note = self._traffic_to(targets[0])
        elif card.effect == "weather":
            t.penalty += card.spaces
        elif card.effect == "accident":
            if self.cat.spaces[here].is_highway:
                t.planning_day = True
            else:
                note = "impossible: not on a highway space, discarded"
        elif card.effect == "repair":
            if self.construction_letter() == card.letter:
                note = "conflicts with the construction card, discarded"
            else:
                t.closed.append(card.letter)
        elif card.effect == "extra_moves":
            if self.is_closed(here, for_mover=False):
                note = "conflicts with the construction card, discarded"
            else:
                t.bonus += card.spaces
        elif card.effect == "lucky_draw":
            t.extra_cards += card.cards
        self._finish_event(note)

    def _finish_event(self, note: str) -> None:
        s = self.state
        t = s.turn
        assert t.event is not None
        self._discard(t.event)
        t.event_note = f"{self.cat.events[t.event].name}: {note}"
        t.event = None
        t.dispute = []
        if s.seat in s.finished:  # Traffic carried the car home with every byway driven
            self._end_turn()
        else:
            self._begin_move()

    def _traffic_to(self, target: str) -> str:
        if self.is_closed(target, for_mover=False):
            return "conflicts with the construction card, discarded"
        self._arrive(target)
        return "resolved"

    def _do_settle_dispute(self, action: Action) -> None:
        s = self.state
        space = _text(action, "space")
        if space not in s.turn.dispute:
            raise IllegalAction(f"{space!r} is not one of the disputed spaces ({', '.join(s.turn.dispute)})",
                                rule="Resolving Disputes")
        self._finish_event(self._traffic_to(space))

    def _discard(self, card: str) -> None:
        d = self.state.event_discard
        d[card] = d.get(card, 0) + 1

    # driving: moving and planning ------------------------------------------
    def _do_drive(self, action: Action) -> None:
        s = self.state
        t = s.turn
        path = _texts(action, "path")
        if not path:
            raise IllegalAction("a drive needs at least one space", rule="Moving & Planning")
        if t.planning_day:
            raise IllegalAction("you cannot move this turn: you are spending the day planning", rule="Construction")
        if t.planned:
            raise IllegalAction("planning actions come after moving; you cannot move any more this turn",
                                rule="Moving & Planning")
        if len(path) > self.moves_left():
            raise IllegalAction(f"you have {self.moves_left()} spaces left this turn, not {len(path)}",
                                rule="Moving & Planning")
        for i, space in enumerate(path):
            here = s.position[s.seat]
            assert here is not None
            if space not in self.cat.spaces:
                raise IllegalAction(f"there is no space {space!r}", rule="Moving & Planning")
            if space not in self.cat.neighbours[here]:
                raise IllegalAction(f"no path joins {here} and {space}", rule="Moving & Planning")
            if self.is_closed(space):
                raise IllegalAction(f"{space} is a closed highway space this turn", rule="Construction")
            t.used += 1
            self._arrive(space)
            if s.seat in s.finished:
                if i < len(path) - 1:
                    raise IllegalAction("you are home with every byway driven; the rest of the path is not driven",
                                        rule="When You Achieve the Objective")
                self._end_turn()

    def _refuse_on_planning_day(self, what: str) -> None:
        if self.state.turn.planning_day:
            raise IllegalAction(f"no {what} on a planning day: discard up to {PLANNING_DAY_SWAPS} event cards "
                                "and end the turn", rule="Construction")

    def _do_draw(self, action: Action) -> None:
        s = self.state
        t = s.turn
        card = _text(action, "card")
        self._refuse_on_planning_day("Draw action")
        if self.moves_left() < PLANNING_COST:
            raise IllegalAction(f"a Draw costs {PLANNING_COST} spaces and you have {self.moves_left()} left",
                                rule="Moving & Planning")
        if card not in s.hands[s.seat]:
            raise IllegalAction(f"{card!r} is not in your hand", rule="Moving & Planning")
        s.hands[s.seat].remove(card)
        self._discard(card)
        t.used += PLANNING_COST
        t.planned = True
        t.owed, t.after_redraw = 1, "move"
        s.step = "redraw"
        self._continue_draws()

    def _do_choice(self, action: Action) -> None:
        t = self.state.turn
        self._refuse_on_planning_day("Choice action")
        if t.choice:
            raise IllegalAction("only one Choice action per turn", rule="Moving & Planning")
        if self.moves_left() < PLANNING_COST:
            raise IllegalAction(f"a Choice costs {PLANNING_COST} spaces and you have {self.moves_left()} left",
                                rule="Moving & Planning")
        t.used += PLANNING_COST
        t.planned = t.choice = True

    def _do_plan_discard(self, action: Action) -> None:
        s = self.state
        t = s.turn
        card = _text(action, "card")
        if not t.planning_day:
            raise IllegalAction("discarding without drawing is only for a planning day; a Draw action "
                                f"swaps a card for {PLANNING_COST} spaces", rule="Moving & Planning")
        if t.day_discards >= PLANNING_DAY_SWAPS:
            raise IllegalAction(f"a planning day swaps at most {PLANNING_DAY_SWAPS} event cards", rule="Construction")
        if card not in s.hands[s.seat]:
            raise IllegalAction(f"{card!r} is not in your hand", rule="Construction")
        s.hands[s.seat].remove(card)
        self._discard(card)
        t.day_discards += 1

    def _do_end_turn(self, action: Action) -> None:
        s = self.state
        t = s.turn
        if t.planning_day and t.day_discards:
            t.owed, t.after_redraw = t.day_discards, "draw"
            s.step = "redraw"
            self._continue_draws()
            return
        self._begin_end_draw()

    def _begin_end_draw(self) -> None:
        s = self.state
        t = s.turn
        vehicle = self.cat.vehicles[s.vehicles[s.seat] or ""]
        t.owed = END_DRAW + vehicle.extra_draws + (CHOICE_DRAW if t.choice else 0) + t.extra_cards
        s.step = "draw"
        self._continue_draws()

    def _continue_draws(self) -> None:
        """Refill the deck from the discard pile when it runs out; with no card anywhere the
        remaining draws lapse (the safeguard that keeps the game from waiting for a card)."""
        s = self.state
        t = s.turn
        if t.owed > 0 and not s.event_deck:
            s.event_deck, s.event_discard = s.event_discard, {}
        if t.owed > 0 and s.event_deck:
            return
        t.owed = 0
        if s.step == "redraw":
            if t.after_redraw == "move":
                s.step = "move"
            else:
                self._begin_end_draw()
        elif t.drawn:
            s.step = "keep"
        else:
            self._end_turn()

    def _do_keep(self, action: Action) -> None:
        s = self.state
        t = s.turn
        card = _text(action, "card")
        if card not in t.drawn:
            raise IllegalAction(f"{card!r} is not one of the cards you drew", rule="Pruning & Passing")
        t.drawn.remove(card)
        s.hands[s.seat].append(card)
        for other in t.drawn:
            self._discard(other)
        t.drawn = []
        self._end_turn()

    def _end_turn(self) -> None:
        s = self.state
        if len(s.finished) >= s.players - 1:
            s.phase, s.step = "over", "over"
            return
        seat, new_round = s.seat, False
        while True:
            seat = (seat + 1) % s.players
            if seat == s.p1:
                new_round = True
            if seat not in s.finished:
                break
        if new_round and s.p1 in s.finished:
            s.p1 = seat  # the Player 1 card goes on clockwise to someone still driving
        self._start_turn(seat, new_round=new_round)

    # driving: byways and getting home --------------------------------------
    def _arrive(self, there: str) -> None:
        s = self.state
        p = s.seat
        here = s.position[p]
        assert here is not None
        s.position[p] = there
        progress = s.progress[p]
        for bw in list(s.markers[p]):
            seq = self.cat.byways[bw].spaces
            tracked = progress.pop(bw, None)
            if tracked is not None:
                direction, done = tracked
                ordered = seq if direction == 1 else seq[::-1]
                if ordered[done - 1] == here and ordered[done] == there:
                    tracked = [direction, done + 1]
                else:
                    tracked = None  # left the byway part-way: it must be driven again in full
            if tracked is None:
                if seq[0] == here and seq[1] == there:
                    tracked = [1, 2]
                elif seq[-1] == here and seq[-2] == there:
                    tracked = [-1, 2]
            if tracked is None:
                continue
            if tracked[1] == len(seq):
                s.markers[p].remove(bw)
                s.driven[p].append(bw)
            else:
                progress[bw] = tracked
        if there == s.homes[p] and not s.markers[p]:
            s.finished.append(p)
            for card in s.hands[p]:
                self._discard(card)
            s.hands[p] = []

    # ------------------------------------------------------------------ scores and zones
    def breakdown(self, player: int) -> Breakdown:
        s = self.state
        lines = [line("byway", 1, f"{self.cat.byways[b].name} driven", byway=b, color=self.cat.byways[b].color)
                 for b in s.driven[player]]
        if player in s.finished:
            place = s.finished.index(player) + 1
            lines.append(line("home", HOME_POINTS * (s.players - place + 1), f"home {ordinal(place)}", place=place))
        return Breakdown(player, tuple(lines))

    def standings(self) -> list[Standing]:
        ranked = rank([(p, n, self.breakdown(p).total) for p, n in enumerate(self.players)])
        return [Standing(r.place, r.player, r.name, r.score, r.player in self.state.finished) for r in ranked]

    def zones(self) -> dict[str, Counter[str]]:
        s = self.state
        kept: Counter[str] = Counter()
        for cards in s.kept:
            kept.update(cards)
        in_play = Counter(v for v in s.vehicles if v is not None)
        on_board = Counter({f"travel marker {p}": len(m) for p, m in enumerate(s.markers)})
        supply = Counter({f"travel marker {p}": TRAVEL_MARKERS - len(m) for p, m in enumerate(s.markers)})
        z: dict[str, Counter[str]] = {
            "event deck": Counter(s.event_deck), "event discard": Counter(s.event_discard),
            "event draw": Counter(s.turn.drawn + ([s.turn.event] if s.turn.event else [])),
            "construction deck": Counter(s.construction_deck), "construction slots": Counter(s.slots),
            "red deck": Counter(s.red_deck), "blue deck": Counter(s.blue_deck),
            "byways in hand": Counter(s.draft_hold), "box": Counter(s.box), "byway cards kept": kept,
            "vehicles on the table": Counter(v for v in self.cat.vehicles if v not in in_play),
            "vehicles in play": in_play,
            "travel markers on the board": on_board, "travel markers in supply": supply,
        }
        for p, hand in enumerate(s.hands):
            z[f"hand {p}"] = Counter(hand)
        return z

    # ------------------------------------------------------------------ words for the screen
    def describe(self, action: Action) -> str:
        """A sentence for the screen, in the game's words (call it before pushing the action)."""
        try:
            return self._describe(action)
        except (KeyError, IndexError, TypeError, ValueError):
            return super().describe(action)

    def _describe(self, action: Action) -> str:
        s = self.state
        cat = self.cat
        k = action.kind
        who = "" if action.player is None else self.players[action.player]
        card = action.get("card")
        if k == "pick_event":
            neighbour = self.players[(s.seat + 1) % s.players]
            return (f"{neighbour}: take the {ordinal(action['position'] + 1)} card from the left of "
                    f"{self.players[s.seat]}'s hand")
        if k == "draw_event":
            return f"Event card drawn: {cat.events[card].name}"
        if k == "draw_byway":
            return f"Byway card drawn: {cat.byways[card].name} ({cat.byways[card].color})"
        if k == "construction":
            letter = cat.construction[card].letter
            return f"Construction card {letter}: highway spaces with {letter} are closed this round"
        if k == "choose_vehicle":
            name = cat.vehicles[action["vehicle"]].name
            return f"{who} chooses {name}" if name.startswith("The ") else f"{who} chooses the {name}"
        if k == "choose_start":
            return f"{who} starts in {cat.spaces[action['space']].region} ({action['space']})"
        if k == "keep_byway":
            return f"{who} keeps {cat.byways[card].name}"
        if k == "drop_byways":
            names = " and ".join(cat.byways[c].name for c in action["cards"])
            return f"{who} removes the Travel Marker from {names}"
        if k == "settle_dispute":
            return f"{who} (Player 1) settles the dispute: the car goes to {action['space']}"
        if k == "drive":
            return f"{who} drives {' → '.join(action['path'])}"
        if k == "draw":
            return f"{who} trades {PLANNING_COST} spaces to swap {cat.events[card].name} for a new event card"
        if k == "choice":
            return f"{who} takes a Choice: more event cards to choose from at the end of the turn"
        if k == "plan_discard":
            return f"{who} discards {cat.events[card].name} (planning day)"
        if k == "end_turn":
            return f"{who} ends the turn"
        if k == "keep":
            return f"{who} keeps {cat.events[card].name}"
        return super().describe(action)
