"""The Big Sur engine: drawing, building with materials, Landmarks, the end of the game.

Chance outcomes (dealing Starters, turning up cards and Landmark tiles) are recorded actions with
``player`` None, so a record replays exactly. Decisions where the rulebook is silent are listed in
docs/records.md (Big Sur) and marked "stand-in decision" below.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..actions import Action
from ..errors import ActionFormatError, IllegalAction
from ..game import Game
from ..scoring import Breakdown
from .catalog import Catalog, HighwayCard, LandmarkTile, default_catalog
from .scoring import PLACES, PlacedLandmark, score_tableau

#: "2-Player Games: Create a Draw Deck of 40 Cards" and so on.
DRAW_DECK = {2: 40, 3: 58, 4: 76}
ROW = 5  # "Draw the first five cards from the draw deck"
FACE_UP_LANDMARKS = 3  # "flip 3 tiles face-up side by side"
DRAWS_PER_TURN = 2  # "they draw any two cards"
SIDES = ("highway", "material")
ENDS = ("left", "right")

PLAYER_KINDS = ("starter_side", "draw", "draw_deck", "build", "flip", "landmark", "end_turn")
CHANCE_KINDS = ("deal_starter", "deck_top", "reveal", "reveal_landmark")


@dataclass(frozen=True, slots=True)
class Placement:
    """A Landmark tile in a tableau, kept against its card (positions shift as cards are added left)."""

    tile: str
    card: str
    where: str


@dataclass
class Seat:
    starter: str | None = None
    #: The side of the Starter card facing the player: the material it gives from the hand.
    starter_side: str | None = None
    highways: list[str] = field(default_factory=list)  # hand, Highway side facing the player
    materials: list[str] = field(default_factory=list)  # hand, Material side (the Starter too)
    discard: list[str] = field(default_factory=list)  # personal discard pile, top last
    tableau: list[str] = field(default_factory=list)  # left to right
    landmarks: list[Placement] = field(default_factory=list)


@dataclass
class BigSurState:
    seats: list[Seat]
    starters_box: list[str]
    #: Double-sided cards nobody has identified: the draw deck (its top card included) and the
    #: cards left in the box. Which is which is unknown until a card is turned Highway side up.
    unseen: list[str]
    #: How many cards of the draw deck lie under its top card.
    hidden: int
    #: The deck lies Material side up: the material its top card shows (None once it is empty).
    #: Only the material is in view, so the card itself stays unidentified (and in ``unseen``).
    top: str | None = None
    #: The card just taken off the top, waiting to be identified: its material, and the seat whose
    #: hand it went to (None: it was turned Highway side up into the row).
    lifted: tuple[str, int | None] | None = None
    row: list[str] = field(default_factory=list)
    landmark_pool: list[str] = field(default_factory=list)
    landmarks_up: list[str] = field(default_factory=list)
    refilling_row: bool = True
    refilling_landmarks: bool = True
    turn: int = 0
    drawn: int = 0
    #: Once-per-turn material sources already used: "discard:<card>" (a card that lay on top of the
    #: discard pile when it paid), "mile:<card>", "landmark:<tile>".
    used: list[str] = field(default_factory=list)
    built: list[str] = field(default_factory=list)
    landmark_taken: bool = False
    flipped: bool = False
    #: The seat whose turn just ended, until the end-of-turn refills are done.
    closing: int | None = None
    over: bool = False

    def deck_size(self) -> int:
        return self.hidden + (self.top is not None)


def _text(action: Action, name: str) -> str:
    value = action[name]
    if not isinstance(value, str):
        raise ActionFormatError(f"a {action.kind!r} action's {name!r} must be a string, not {value!r}")
    return value


def _one_of(action: Action, name: str, choices: tuple[str, ...]) -> str:
    value = _text(action, name)
    if value not in choices:
        raise ActionFormatError(f"a {action.kind!r} action's {name!r} must be {' or '.join(choices)}, not {value!r}")
    return value


class BigSur(Game[BigSurState]):
    """Big Sur for 2 to 4 players; ``options={"landmarks": True}`` plays the Advanced game."""

    name = "bigsur"
    title = "Big Sur"
    min_players = 2
    max_players = 4
    default_options: ClassVar[dict[str, Any]] = {"landmarks": False}

    def __init__(self, players: Any, *, seed: int = 0, options: Any = None, catalog: Catalog | None = None) -> None:
        self.catalog = catalog if catalog is not None else default_catalog()
        super().__init__(players, seed=seed, options=options)

    # ------------------------------------------------------------------ setup and chance
    def initial_state(self) -> BigSurState:
        cat = self.catalog
        return BigSurState(
            seats=[Seat() for _ in self.players],
            starters_box=sorted(cat.starters),
            unseen=sorted(cat.cards),
            hidden=DRAW_DECK[len(self.players)],
            landmark_pool=sorted(cat.landmarks) if self.options["landmarks"] else [],
            refilling_landmarks=bool(self.options["landmarks"]),
        )

    def _chance_kind(self) -> str | None:
        s = self.state
        if any(seat.starter is None for seat in s.seats):
            return "deal_starter"
        if s.lifted is not None:
            return "reveal"
        if s.top is None and s.hidden > 0:
            return "deck_top"
        if s.refilling_landmarks and len(s.landmarks_up) < FACE_UP_LANDMARKS and s.landmark_pool:
            return "reveal_landmark"
        return None

    def _settle(self) -> None:
        """The table's housekeeping after every action: turned-up deck cards fill the row while it
        is being refilled, and the game ends after the last player's turn once the deck is empty."""
        s = self.state
        if s.refilling_row and s.lifted is None:
            if len(s.row) >= ROW or s.deck_size() == 0:
                s.refilling_row = False
            elif s.top is not None:
                # The top card is turned Highway side up into the row; the next one comes into view.
                s.lifted = (s.top, None)
                s.top = None
        if s.refilling_landmarks and (len(s.landmarks_up) >= FACE_UP_LANDMARKS or not s.landmark_pool):
            s.refilling_landmarks = False
        if s.closing is not None and self._chance_kind() is None:
            # "Play continues until the final turn of the last player, after which the draw deck is
            # exhausted": the round in which the deck runs out is played to its end.
            if s.closing == len(self.players) - 1 and s.deck_size() == 0:
                s.over = True
            s.closing = None

    def current_player(self) -> int | None:
        return None if self._chance_kind() is not None else self.state.turn

    def is_game_over(self) -> bool:
        return self.state.over

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action, except that each build is listed once per end with one canonical
        payment (:meth:`payment_for`): listing every way to pay would grow combinatorially with the
        hand. Any other payment that gives exactly the cost is accepted by :meth:`push`."""
        if self.is_game_over():
            return []
        s = self.state
        chance = self._chance_kind()
        if chance == "deal_starter":
            to = next(i for i, st in enumerate(s.seats) if st.starter is None)
            return [Action.of("deal_starter", None, card=c, seat=to) for c in s.starters_box]
        if chance == "reveal":
            assert s.lifted is not None
            return [Action.of("reveal", None, card=c) for c in s.unseen
                    if self.catalog.cards[c].material == s.lifted[0]]
        if chance == "deck_top":
            counts = self._unseen_materials()
            return [Action.of("deck_top", None, material=m) for m in self.catalog.materials if counts[m]]
        if chance == "reveal_landmark":
            return [Action.of("reveal_landmark", None, tile=t) for t in s.landmark_pool]
        p = s.turn
        seat = s.seats[p]
        if seat.starter_side is None:
            assert seat.starter is not None
            return [Action.of("starter_side", p, material=m) for m in self.catalog.starters[seat.starter].materials]
        if self._drawing():
            out = [Action.of("draw", p, card=c, side=side) for c in s.row for side in SIDES]
            if s.top is not None:
                out.append(Action.of("draw_deck", p))
            return out
        out = []
        if not s.landmark_taken:
            for card in sorted(set(seat.highways)):
                pay = self.payment_for(card)
                if pay is not None:
                    for end in ENDS if seat.tableau else ENDS[1:]:
                        out.append(Action.of("build", p, card=card, end=end, pay=pay))
            if self._may_flip():
                out += [Action.of("flip", p, card=c) for c in sorted(set(seat.highways + seat.materials))
                        if c != seat.starter]
            out += self._landmark_actions()
        out.append(Action.of("end_turn", p))
        return out

    def _drawing(self) -> bool:
        s = self.state
        return s.drawn < DRAWS_PER_TURN and (bool(s.row) or s.top is not None)

    def _may_flip(self) -> bool:
        s = self.state
        seat = s.seats[s.turn]
        return (not s.flipped and not s.landmark_taken
                and any(self.catalog.landmarks[pl.tile].ability == "flip" for pl in seat.landmarks))

    # ------------------------------------------------------------------ materials
    def sources(self, player: int) -> dict[str, tuple[str, ...]]:
        """The once-per-turn material sources ``player`` may still use now, each with the materials
        it offers: the discard pile's top card, 1-mile cards in the tableau, Landmark materials."""
        s, cat = self.state, self.catalog
        seat = s.seats[player]
        out: dict[str, tuple[str, ...]] = {}
        if seat.discard and f"discard:{seat.discard[-1]}" not in s.used:
            top = seat.discard[-1]
            # "Face-up cards from the discard pile may only be used once per turn in this manner":
            # the limit is per card, so a card paid from the hand, once it lies on top, may pay
            # again for the next build. "If a player's discard pile holds one of the pink Starting
            # cards, they may choose one of the two materials to use when building."
            out["discard"] = cat.starters[top].materials if top in cat.starters else (cat.cards[top].material,)
        for card in seat.tableau:
            mat = cat.cards[card].tableau_material
            if mat is not None and f"mile:{card}" not in s.used:
                out[f"mile:{card}"] = (mat,)
        for pl in seat.landmarks:
            mat = cat.landmarks[pl.tile].material
            if mat is not None and f"landmark:{pl.tile}" not in s.used:
                out[f"landmark:{pl.tile}"] = (mat,)
        return out

    def hand_material(self, player: int, card: str) -> str:
        seat = self.state.seats[player]
        if card == seat.starter:
            assert seat.starter_side is not None
            return seat.starter_side
        return self.catalog.cards[card].material

    def payment_for(self, card: str) -> list[str] | None:
        """A canonical way for the player to move to pay for ``card``, or None if they cannot:
        free once-per-turn sources first (they are not spent), then material cards from the hand."""
        s = self.state
        p = s.turn
        need = Counter(self.catalog.cards[card].cost)
        pay: list[str] = []
        flexible: tuple[str, ...] = ()
        for name, offers in self.sources(p).items():
            if len(offers) > 1:
                flexible = offers
                continue
            if need[offers[0]] > 0:
                need[offers[0]] -= 1
                pay.append(f"discard:{offers[0]}" if name == "discard" else name)
        hand: dict[str, list[str]] = {}
        for c in sorted(s.seats[p].materials):
            hand.setdefault(self.hand_material(p, c), []).append(c)
        if flexible:
            # A Starter on the discard pile covers whichever of its materials the hand is short of.
            wanted = [m for m in flexible if need[m] > 0]
            short = [m for m in wanted if need[m] > len(hand.get(m, []))]
            if wanted:
                choice = (short or wanted)[0]
                need[choice] -= 1
                pay.append(f"discard:{choice}")
        for material, n in sorted(need.items()):
            if n <= 0:
                continue
            have = hand.get(material, [])
            if len(have) < n:
                return None
            pay += [f"hand:{c}" for c in have[:n]]
        return pay

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        kind = action.kind
        if kind in CHANCE_KINDS:
            wanted = self._chance_kind()
            if kind != wanted:
                raise IllegalAction(f"no {kind.replace('_', ' ')} is due now", rule="setup")
            getattr(self, f"_{kind}")(action)
        elif kind in PLAYER_KINDS:
            if action.player is None:
                raise IllegalAction(f"a {kind.replace('_', ' ')} is a player's action, and a random outcome "
                                    "must be resolved now", rule="turn order")
            if action.player != self.state.turn:
                raise IllegalAction(f"it is {self.players[self.state.turn]}'s turn", rule="turn order")
            getattr(self, f"_{kind}")(action, action.player)
        else:
            raise ActionFormatError(f"Big Sur has no action {kind!r} (known: {', '.join(PLAYER_KINDS + CHANCE_KINDS)})")
        self._settle()

    def _deal_starter(self, action: Action) -> None:
        s = self.state
        card, seat = _text(action, "card"), action["seat"]
        expected = next(i for i, st in enumerate(s.seats) if st.starter is None)
        if type(seat) is not int or seat != expected:
            raise IllegalAction(f"the next Starter card goes to seat {expected}, not {seat!r}", rule="setup")
        if card not in s.starters_box:
            raise IllegalAction(f"{card} is not a Starter card still to deal", rule="setup")
        s.starters_box.remove(card)
        s.seats[seat].starter = card
        s.seats[seat].materials.append(card)

    def _unseen_materials(self) -> Counter[str]:
        return Counter(self.catalog.cards[c].material for c in self.state.unseen)

    def chance_weights(self, outcomes: list[Action]) -> list[float]:
        """The deck's next top shows a material as often as unidentified cards carry it."""
        if outcomes and outcomes[0].kind == "deck_top":
            counts = self._unseen_materials()
            return [float(counts[a["material"]]) for a in outcomes]
        return super().chance_weights(outcomes)

    def _deck_top(self, action: Action) -> None:
        s = self.state
        material = _text(action, "material")
        if self._unseen_materials()[material] == 0:
            raise IllegalAction(f"no card that could be in the draw deck shows {material!r}", rule="setup")
        s.hidden -= 1
        s.top = material

    def _reveal(self, action: Action) -> None:
        s = self.state
        card = _text(action, "card")
        assert s.lifted is not None
        material, seat = s.lifted
        if card not in s.unseen:
            raise IllegalAction(f"{card} is not a card that could have been in the draw deck", rule="setup")
        if self.catalog.cards[card].material != material:
            raise IllegalAction(f"the card taken off the deck showed {material}, and {card}'s Material side is "
                                f"{self.catalog.cards[card].material}", rule="setup")
        s.unseen.remove(card)
        s.lifted = None
        if seat is None:
            s.row.append(card)
        else:
            s.seats[seat].materials.append(card)

    def _reveal_landmark(self, action: Action) -> None:
        s = self.state
        tile = _text(action, "tile")
        if tile not in s.landmark_pool:
            raise IllegalAction(f"{tile} is not a Landmark tile still face down", rule="setup")
        s.landmark_pool.remove(tile)
        s.landmarks_up.append(tile)

    def _starter_side(self, action: Action, p: int) -> None:
        seat = self.state.seats[p]
        material = _text(action, "material")
        if seat.starter_side is not None:
            raise IllegalAction("the Starter card's side is chosen before the player's first turn",
                                rule="drawing: starter side")
        assert seat.starter is not None
        offers = self.catalog.starters[seat.starter].materials
        if material not in offers:
            raise IllegalAction(f"{seat.starter} shows {offers[0]} and {offers[1]}, not {material}",
                                rule="drawing: starter side")
        seat.starter_side = material

    def _must_have_chosen_starter(self, p: int) -> None:
        if self.state.seats[p].starter_side is None:
            raise IllegalAction("choose the side of your Starter card before your first turn",
                                rule="drawing: starter side")

    def _draw(self, action: Action, p: int) -> None:
        s = self.state
        self._must_have_chosen_starter(p)
        card, side = _text(action, "card"), _one_of(action, "side", SIDES)
        if not self._drawing():
            raise IllegalAction("you have drawn your two cards this turn", rule="drawing")
        if card not in s.row:
            raise IllegalAction(f"{card} is not in the face-up row", rule="drawing")
        s.row.remove(card)
        (s.seats[p].highways if side == "highway" else s.seats[p].materials).append(card)
        s.drawn += 1

    def _draw_deck(self, action: Action, p: int) -> None:
        s = self.state
        self._must_have_chosen_starter(p)
        if "side" in action and action["side"] != "material":
            raise IllegalAction("the draw deck's top card may only be added to the hand as a Material card",
                                rule="drawing: draw deck")
        if not self._drawing():
            raise IllegalAction("you have drawn your two cards this turn", rule="drawing")
        if s.top is None:
            raise IllegalAction("the draw deck is empty", rule="drawing: draw deck")
        if "material" in action and action["material"] != s.top:
            raise IllegalAction(f"the draw deck's top card shows {s.top}, not {action['material']!r}",
                                rule="drawing: draw deck")
        # Which card it is stays unknown to the table; the chance outcome that follows names it.
        s.lifted = (s.top, p)
        s.top = None
        s.drawn += 1

    def _in_building_step(self, p: int, what: str) -> None:
        s = self.state
        self._must_have_chosen_starter(p)
        if self._drawing():
            left = DRAWS_PER_TURN - s.drawn
            raise IllegalAction(f"draw {left} more card{'s' if left > 1 else ''} before {what}", rule="drawing")
        if s.landmark_taken:
            raise IllegalAction(f"the Landmark step comes after building: no {what} after adding a Landmark",
                                rule="adding landmarks")

    def _build(self, action: Action, p: int) -> None:
        s, cat = self.state, self.catalog
        seat = s.seats[p]
        card, end = _text(action, "card"), _one_of(action, "end", ENDS)
        pay = action["pay"]
        if not isinstance(pay, tuple) or not all(isinstance(x, str) for x in pay):
            raise ActionFormatError("a 'build' action's 'pay' must be a list of sources like \"hand:bs-07\"")
        self._in_building_step(p, "building")
        if card not in seat.highways:
            where = "as a Material card" if card in seat.materials else "in your hand"
            raise IllegalAction(f"{card} is not a Highway card {where}", rule="building")
        free = self.sources(p)
        paid: Counter[str] = Counter()
        spent: list[str] = []
        for item in pay:
            source, _, name = item.partition(":")
            if source == "hand":
                if name not in seat.materials or name in spent:
                    raise IllegalAction(f"{name} is not a Material card in your hand", rule="building: materials")
                if name == seat.starter and seat.starter_side is None:
                    raise IllegalAction("choose your Starter card's side first", rule="drawing: starter side")
                spent.append(name)
                paid[self.hand_material(p, name)] += 1
            elif source == "discard":
                if not seat.discard:
                    raise IllegalAction("your discard pile is empty", rule="building: discard pile")
                if "discard" not in free:
                    raise IllegalAction("the top card of your discard pile was already used this turn",
                                        rule="building: discard pile")
                if name not in free["discard"]:
                    raise IllegalAction(f"the top of your discard pile offers {' or '.join(free['discard'])}, "
                                        f"not {name or 'nothing named'}", rule="building: discard pile")
                del free["discard"]
                paid[name] += 1
            elif source in ("mile", "landmark"):
                rule = "building: 1-mile materials" if source == "mile" else "landmarks: materials"
                owned = (name in seat.tableau and cat.cards[name].tableau_material is not None if source == "mile"
                         else any(pl.tile == name and cat.landmarks[name].material for pl in seat.landmarks))
                if not owned:
                    what = "a 1-mile card in your tableau" if source == "mile" else "a Landmark of yours with a material"
                    raise IllegalAction(f"{name} is not {what}", rule=rule)
                if item not in free:
                    raise IllegalAction(f"the material of {name} was already used this turn", rule=rule)
                paid[free.pop(item)[0]] += 1
            else:
                raise ActionFormatError(f"payment source {item!r} is not hand:<card>, discard:<material>, "
                                        "mile:<card> or landmark:<tile>")
        cost = Counter(cat.cards[card].cost)
        if paid != cost:
            raise IllegalAction(f"{card} costs {_materials(cost)}; the payment gives {_materials(paid) or 'nothing'}",
                                rule="building: cost")
        for item in pay:
            source = item.partition(":")[0]
            if source != "hand":
                # The discard pile's top is noted before this build's materials cover it.
                s.used.append(f"discard:{seat.discard[-1]}" if source == "discard" else item)
        for name in spent:
            # "discards the corresponding Material cards into their personal discard pile ... so
            # that the last material used may be clearly seen": the last one paid lies on top.
            seat.materials.remove(name)
            seat.discard.append(name)
        seat.highways.remove(card)
        # "Highway cards may be placed to the left or to the right of the already played cards."
        if end == "left":
            seat.tableau.insert(0, card)
        else:
            seat.tableau.append(card)
        s.built.append(card)

    def _flip(self, action: Action, p: int) -> None:
        s = self.state
        seat = s.seats[p]
        card = _text(action, "card")
        self._in_building_step(p, "flipping")
        if not any(self.catalog.landmarks[pl.tile].ability == "flip" for pl in seat.landmarks):
            raise IllegalAction("cards in the hand may not be flipped (only a Landmark ability allows it)",
                                rule="drawing: no flipping")
        if s.flipped:
            raise IllegalAction("your Landmark lets you flip one card per turn", rule="drawing: no flipping")
        if card == seat.starter:
            raise IllegalAction("both sides of a Starter card are materials; choose its side before your first turn",
                                rule="drawing: no flipping")
        if card in seat.highways:
            seat.highways.remove(card)
            seat.materials.append(card)
        elif card in seat.materials:
            seat.materials.remove(card)
            seat.highways.append(card)
        else:
            raise IllegalAction(f"{card} is not in your hand", rule="drawing: no flipping")
        s.flipped = True

    # ------------------------------------------------------------------ landmarks
    def combinations(self, tile: LandmarkTile, tableau: list[str],
                     including: Iterable[int] | None = None) -> list[tuple[int, int, int]]:
        """Positions (ascending) of 3 cards of ``tableau`` meeting ``tile``'s requirement, matched in
        any order; only those holding one of the positions ``including`` when it is given.

        "a combination of 3 Highway cards" says nothing of where the cards lie, so any three cards
        of the tableau qualify, unless the tile's catalog entry asks for ``adjacent`` cards."""
        cards = [self.catalog.cards[c] for c in tableau]
        n = len(cards)
        triples: Iterable[tuple[int, int, int]]
        if tile.adjacent:
            triples = [(i, i + 1, i + 2) for i in range(n - 2)]
            if including is not None:
                wanted = set(including)
                triples = [t for t in triples if wanted.intersection(t)]
        elif including is None:
            triples = itertools.combinations(range(n), 3)
        else:
            # Only triples through the given positions: a handful of pairs each, not all n^3/6.
            found: set[tuple[int, int, int]] = set()
            for i in set(including):
                for j, k in itertools.combinations([x for x in range(n) if x != i], 2):
                    a, b, c = sorted((i, j, k))
                    found.add((a, b, c))
            triples = sorted(found)
        return [t for t in triples if meets(tile, [cards[i] for i in t])]

    def _built_positions(self, seat: Seat) -> list[int]:
        return [i for i, c in enumerate(seat.tableau) if c in self.state.built]

    def _landmark_actions(self) -> list[Action]:
        s = self.state
        p = s.turn
        if not self.options["landmarks"] or s.landmark_taken or not s.built:
            return []
        seat = s.seats[p]
        taken = {(pl.card, pl.where) for pl in seat.landmarks}
        found: set[Action] = set()
        built = self._built_positions(seat)
        for tile_id in s.landmarks_up:
            # "if that player completed a combination": one of its cards was built this turn.
            for combo in self.combinations(self.catalog.landmarks[tile_id], seat.tableau, including=built):
                for card in (seat.tableau[i] for i in combo):
                    for where in PLACES:
                        if (card, where) not in taken:
                            found.add(Action.of("landmark", p, tile=tile_id, card=card, where=where))
        return sorted(found, key=lambda a: (a["tile"], a["card"], a["where"]))

    def _landmark(self, action: Action, p: int) -> None:
        s = self.state
        seat = s.seats[p]
        tile_id, card, where = _text(action, "tile"), _text(action, "card"), _one_of(action, "where", PLACES)
        if not self.options["landmarks"]:
            raise IllegalAction("Landmark tiles are only used in the Advanced game", rule="adding landmarks")
        self._must_have_chosen_starter(p)
        if self._drawing():
            raise IllegalAction("Landmarks are added after drawing and building", rule="adding landmarks")
        if s.landmark_taken:
            raise IllegalAction("each player may only acquire one Landmark tile per turn", rule="adding landmarks")
        if tile_id not in s.landmarks_up:
            raise IllegalAction(f"{tile_id} is not a face-up Landmark tile", rule="adding landmarks")
        if card not in seat.tableau:
            raise IllegalAction(f"{card} is not a Highway card in your tableau", rule="adding landmarks")
        tile = self.catalog.landmarks[tile_id]
        position = seat.tableau.index(card)
        combos = self.combinations(tile, seat.tableau, including=[position])
        if not combos:
            cards = "3 adjacent Highway cards" if tile.adjacent else "3 Highway cards of your tableau"
            raise IllegalAction(f"{card} is not one of {cards} meeting {tile.name}'s requirement "
                                f"({', '.join(sp.text() for sp in tile.requires)})", rule="adding landmarks")
        built = set(self._built_positions(seat))
        if not any(built.intersection(c) for c in combos):
            raise IllegalAction(f"the combination for {tile.name} must be completed this turn "
                                "(no card of it was built this turn)", rule="adding landmarks")
        if any(pl.card == card and pl.where == where for pl in seat.landmarks):
            raise IllegalAction(f"{card} already has a Landmark tile {where} it", rule="adding landmarks")
        s.landmarks_up.remove(tile_id)
        seat.landmarks.append(Placement(tile_id, card, where))
        s.landmark_taken = True

    def _end_turn(self, action: Action, p: int) -> None:
        s = self.state
        self._must_have_chosen_starter(p)
        if self._drawing():
            left = DRAWS_PER_TURN - s.drawn
            raise IllegalAction(f"drawing is mandatory: draw {left} more card{'s' if left > 1 else ''}",
                                rule="drawing")
        # "the player's turn concludes and they should refill the draw row"
        s.refilling_row = True
        s.refilling_landmarks = bool(self.options["landmarks"])
        s.closing = p
        s.turn = (p + 1) % len(self.players)
        s.drawn = 0
        s.used = []
        s.built = []
        s.landmark_taken = False
        s.flipped = False

    # ------------------------------------------------------------------ scores and inventory
    def placed_landmarks(self, player: int) -> list[PlacedLandmark]:
        seat = self.state.seats[player]
        return [PlacedLandmark(self.catalog.landmarks[pl.tile], seat.tableau.index(pl.card), pl.where)
                for pl in seat.landmarks]

    def breakdown(self, player: int) -> Breakdown:
        seat = self.state.seats[player]
        cards = [self.catalog.cards[c] for c in seat.tableau]
        return Breakdown(player, tuple(score_tableau(cards, self.placed_landmarks(player), catalog=self.catalog)))

    def zones(self) -> dict[str, Counter[str]]:
        s = self.state
        out: dict[str, Counter[str]] = {
            "starters in the box": Counter(s.starters_box),
            "unseen (deck and box)": Counter(s.unseen),
            "row": Counter(s.row),
            "landmarks face down": Counter(s.landmark_pool),
            "landmarks face up": Counter(s.landmarks_up),
        }
        if not self.options["landmarks"]:
            out["landmarks in the box"] = Counter(list(self.catalog.landmarks))
        for i, seat in enumerate(s.seats):
            out[f"{i} hand highway"] = Counter(seat.highways)
            out[f"{i} hand material"] = Counter(seat.materials)
            out[f"{i} discard"] = Counter(seat.discard)
            out[f"{i} tableau"] = Counter(seat.tableau)
            out[f"{i} landmarks"] = Counter(pl.tile for pl in seat.landmarks)
        return out

    def describe(self, action: Action) -> str:
        who = "Chance" if action.player is None else self.players[action.player]
        k = action.kind
        if k == "deal_starter":
            return f"{self.players[action['seat']]} is dealt Starter card {action['card']}"
        if k == "deck_top":
            return f"the draw deck's top card shows {action['material']}"
        if k == "reveal":
            return f"{action['card']} comes off the draw deck"
        if k == "reveal_landmark":
            return f"Landmark {self.catalog.landmarks[action['tile']].name} is turned face up"
        if k == "build":
            return f"{who} builds {action['card']} on the {action['end']}, paying {', '.join(action['pay'])}"
        if k == "draw":
            return f"{who} draws {action['card']} from the row as a {action['side']} card"
        if k == "draw_deck":
            return f"{who} draws the deck's top card as a material card"
        if k == "starter_side":
            return f"{who} turns the {action['material']} side of their Starter card up"
        if k == "end_turn":
            return f"{who} ends the turn"
        if k == "flip":
            return f"{who} flips {action['card']} in hand (Landmark ability)"
        if k == "landmark":
            return f"{who} adds {self.catalog.landmarks[action['tile']].name} {action['where']} {action['card']}"
        return super().describe(action)


def meets(tile: LandmarkTile, cards: list[HighwayCard]) -> bool:
    """Whether the three cards can be matched one-to-one with the tile's three specs."""
    a, b, c = tile.requires
    x, y, z = cards
    return any(s1.fits(x) and s2.fits(y) and s3.fits(z)
               for s1, s2, s3 in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)))


def _materials(counts: Counter[str]) -> str:
    return ", ".join(f"{n} {m}" for m, n in sorted(counts.items()) if n > 0)
