"""What the app says about each game: set-up steps, the one-line "next thing to do", the rules
reference for the current situation, and which random outcomes the real table shows.

Words come from the rulebooks in ``shared/seeds``. Action kinds are the engines' own; a kind this
module does not know is still shown (its name with spaces), so a new engine works at once and
only reads less nicely until a phrase is added here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules import Action

from .errors import SessionError

#: Token colours offered on the home screen, in the order seats get them by default.
COLOURS = ("red", "blue", "yellow", "green", "purple", "orange")
#: Table edges in seat order, as the vision layer's TableSpec seats them by default.
EDGES = ("south", "west", "north", "east")  # clockwise from above, as the players take turns


@dataclass(frozen=True)
class SetupStep:
    """One step of setting the table up: a short title, what to do, and who does it (in the
    order they act), so the screen can name them."""

    title: str
    text: str
    players: tuple[str, ...] = ()


class SetupGuideError(SessionError):
    """A step of the setup guide that does not exist was asked for."""


class SetupGuide:
    """The set-up, one step at a time: ``next()`` and ``back()`` walk it, ``progress`` says
    "Step 2 of 6". A step that does not exist raises :class:`SetupGuideError` and leaves the
    guide where it was."""

    def __init__(self, steps: list[SetupStep]) -> None:
        if not steps:
            raise SetupGuideError("a setup guide needs at least one step")
        self.steps = tuple(steps)
        self._index = 0
        self.finished = False

    @property
    def index(self) -> int:
        return self._index

    @property
    def step(self) -> SetupStep:
        return self.steps[self._index]

    @property
    def progress(self) -> str:
        return f"Step {self._index + 1} of {len(self.steps)}"

    @property
    def is_first(self) -> bool:
        return self._index == 0

    @property
    def is_last(self) -> bool:
        return self._index == len(self.steps) - 1

    def go(self, index: int) -> SetupStep:
        if isinstance(index, bool) or not isinstance(index, int):
            raise SetupGuideError(f"a setup step is a number from 1 to {len(self.steps)}, not {index!r}")
        if not 0 <= index < len(self.steps):
            raise SetupGuideError(f"there is no setup step {index + 1}: the guide has steps 1 to {len(self.steps)}")
        self._index = index
        self.finished = False
        return self.step

    def next(self) -> bool:
        """On to the next step; on the last one, the set-up is done (returns True)."""
        if self.is_last:
            self.finished = True
            return True
        self.go(self._index + 1)
        return False

    def back(self) -> SetupStep:
        if self.is_first:
            raise SetupGuideError("this is the first setup step: there is none before it")
        return self.go(self._index - 1)

    def __repr__(self) -> str:
        return f"SetupGuide({self.progress!r}, {self.step.title!r})"


def clockwise(players: list[str], first: int) -> tuple[str, ...]:
    """Everyone in turn order, clockwise from seat ``first``."""
    n = len(players)
    return tuple(players[(first + i) % n] for i in range(n))


def in_words(names: tuple[str, ...] | list[str], joint: str = "and") -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {joint} " + names[-1]


def _texts(steps: Callable[[list[str], dict[str, Any], int], list[SetupStep]]
           ) -> Callable[[list[str], dict[str, Any], int], list[str]]:
    """A game's set-up steps as plain sentences (what ``Guide.setup`` gives)."""
    def setup(players: list[str], options: dict[str, Any], first: int = 0) -> list[str]:
        return [step.text for step in steps(players, options, first)]
    return setup


@dataclass(frozen=True)
class Guide:
    """One game's words. ``observed_chance``: chance-outcome kinds the players reveal on the real
    table (a card flipped face up that the camera reads) instead of the app drawing them."""

    game: str
    title: str
    #: ``setup(players, options, first)``: ``first`` is the seat the engine has moving first.
    setup: Callable[[list[str], dict[str, Any], int], list[str]]
    phrases: dict[str, str] = field(default_factory=dict)
    reference: dict[str, str] = field(default_factory=dict)
    overview: str = ""
    observed_chance: frozenset[str] = frozenset()
    chance_words: str = "The app draws the next random outcome."
    #: Where the order of play goes, for the screen.
    direction: str = "clockwise"
    #: A table-revealed card is then played by the same player (Roundabout's flipped card is the
    #: one placed), rather than lying on the table as it is (Big Sur's draw row).
    revealed_is_played: bool = False
    #: How a player's score reads on the scoreboard, from their breakdown; None: the total.
    score_words: Callable[[Any], str] | None = None
    #: The set-up as titled steps naming the players (``setup`` gives their sentences).
    setup_steps: Callable[[list[str], dict[str, Any], int], list[SetupStep]] | None = None


def _monster_score(breakdown: Any) -> str:
    """The engine scores a race home as minus the grid distance; players count spaces to go."""
    kinds = {ln.kind: ln for ln in breakdown.lines}
    if "home" in kinds:
        return "home!"
    line = kinds.get("distance")
    if line is None or (not line.points and "no Home Base" in line.label):
        return "no Home Base yet"
    spaces = -int(line.points)
    return f"{spaces} space{'' if spaces == 1 else 's'} from home"


def shown_score(g: Guide, breakdown: Any) -> str:
    """A player's score as the scoreboard shows it."""
    if g.score_words is not None:
        try:
            return g.score_words(breakdown)
        except (AttributeError, KeyError, TypeError, ValueError):
            pass  # an engine whose breakdown changed: the plain total still reads
    return str(breakdown.total)


def _bigsur_steps(players: list[str], options: dict[str, Any], first: int = 0) -> list[SetupStep]:
    n = len(players)
    order = clockwise(players, first)
    deck = {2: 40, 3: 58, 4: 76}.get(n, 40)
    steps = [
        SetupStep("Starter cards", "Take the 7 pink Starter cards out of the deck, shuffle them and deal one to "
                  f"each player: {in_words(order)}.", order),
        SetupStep("The Draw Deck", f"Shuffle the remaining cards and count out a Draw Deck of {deck} cards for "
                  f"{n} players (the rest go back in the box)."),
        SetupStep("The draw row", "Lay the first five cards of the Draw Deck face up in a row, Highway side up: "
                  "the draw row. Keep the deck Material (gray) side up."),
    ]
    if options.get("landmarks"):
        steps.append(SetupStep("Landmarks", "Advanced game: shuffle the 14 Landmark tiles beside the draw row "
                               "and flip 3 face up."))
    steps.append(SetupStep("Who starts", f"{players[first]} takes the first player marker (born closest to Big "
                           "Sur). Each player may choose the side of their Starter card before their first turn.",
                           (players[first],)))
    return steps


def _roundabout_steps(players: list[str], options: dict[str, Any], first: int = 0) -> list[SetupStep]:
    # Roundabout plays counter-clockwise: the turn order runs the other way round the table.
    n = len(players)
    order = tuple(players[(first - i) % n] for i in range(n))
    return [
        SetupStep("Cars", f"Every player picks a car; its colour is that player's colour: {in_words(order)}. "
                  "Keep it in front of you.", order),
        SetupStep("The deck", "Shuffle the deck and place it near the middle of the table."),
        SetupStep("The first card", "The app reveals the top card: place it face up in the centre of the table."),
        SetupStep("Who starts", f"{players[first]} most recently drove on a roundabout and goes first; play "
                  "continues counter-clockwise (like a roundabout!): " + in_words(order) + ".", order),
    ]


def _monster_piles(n: int) -> tuple[int, int] | None:
    """The tiles left after the deal and the size of each of the two draw piles (the engine
    splits what is left after 5 Road tiles and a Monster Buster each); None without a catalog."""
    try:
        from rules.monsterhighway import data

        cat = data.load()
        tiles = sum(t.count for t in cat.by_kind("road")) + sum(t.count for t in cat.by_kind("special"))
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    left = tiles - 6 * n
    return left, left // 2


def _monster_steps(players: list[str], options: dict[str, Any], first: int = 0) -> list[SetupStep]:
    order = clockwise(players, first)
    piles = _monster_piles(len(players))
    split = ("Divide the remaining tiles into two equal draw piles" if piles is None else
             f"Divide the remaining {piles[0]} tiles into two equal draw piles of {piles[1]}"
             + (" (one more in the first)" if piles[0] % 2 else ""))
    return [
        SetupStep("Deal the hands", f"{in_words(order)}: each takes 1 Monster Buster tile and is dealt 5 Road "
                  "tiles, one at a time round the table (the app deals: follow the screen).", order),
        SetupStep("The two draw piles", f"{split}, one on either side of the board. {in_words(order)} always "
                  "draw from the taller pile (the first on a tie); a removed tile goes under the shorter one.",
                  order),
        SetupStep("The Monster", "Put the Monster Cards off the board and the Monster beside them until a "
                  "Monster is rolled."),
        SetupStep("Home Bases", f"Each player picks a Home Base corner and takes that car, Home Base tile and "
                  f"reference card, in this order: {in_words(order, 'then')}.", order),
        SetupStep("Ground Zero", "Place the Ground Zero tile on the centre of the board and every car on it."),
        SetupStep("Who starts", f"{players[first]} most recently watched a monster movie and goes first; play goes "
                  "clockwise. The app rolls every die and draws every Monster Card.", (players[first],)),
    ]


def _hb_draft(colour: str, each: int, order: tuple[str, ...]) -> SetupStep:
    n = len(order)
    passes = "; ".join(f"{order[i]} draws {f'two {colour} Byway cards' if i == 0 else 'one more'}, keeps one "
                       f"and passes the other to {order[(i + 1) % n]}" for i in range(n))
    return SetupStep(
        f"{colour} Byway draft",
        f"{passes}; and so on round the table until {in_words(order)} each have {each} {colour} Byways "
        f"({each * n} kept in all). Place a Travel Marker on each byway you keep. The app draws every card: "
        "follow the game screen.", order)


def _hb_steps(players: list[str], options: dict[str, Any], first: int = 0) -> list[SetupStep]:
    order = clockwise(players, first)
    last = order[-1]
    return [
        SetupStep("The decks", "Separate Event, Construction, Blue Byway and Red Byway cards into decks and "
                  "shuffle each."),
        SetupStep("Vehicles", f"{players[first]} takes the Player 1 Card and picks a Vehicle first; then "
                  f"clockwise: {in_words(order, 'then')}.", order),
        SetupStep("Start Spaces", f"Start Spaces (stars) are chosen in the same order ({in_words(order, 'then')}); "
                  "no two players share one. Put your Home Marker and car on it.", order),
        SetupStep("Event Cards", f"Deal five Event Cards to each of {in_words(order)} (look only at your own).",
                  order),
        _hb_draft("Red", 2, order),
        _hb_draft("Blue", 10, order),
        SetupStep("Remove Travel Markers", f"{in_words(order, 'then')}: each removes the Travel Marker from one "
                  "Red Byway or from two Blue Byways.", order),
        SetupStep("Who drives first", f"Give the Player 1 Card to {last}, who picked Vehicle and Start Space "
                  "last: they drive first.", (last,)),
    ]


def _highwayman_steps(players: list[str], options: dict[str, Any], first: int = 0) -> list[SetupStep]:
    dealer = players[(first - 1) % len(players)]
    return [
        SetupStep("The deal", f"{dealer} deals: shuffle the pack and deal six cards to each player "
                  f"({in_words(clockwise(players, first))}; the app deals: follow the screen).", (dealer,)),
        SetupStep("The stock", "Place the rest face down in the centre of the table: the stock."),
        SetupStep("Who starts", f"The player on the dealer's left ({players[first]}) starts and must play a "
                  "LONDON card or take the top card of the stock.", (players[first],)),
    ]


def _generic_setup(players: list[str], options: dict[str, Any], first: int = 0) -> list[str]:
    return [f"Set the game up as the rulebook says. {players[first]} starts."]


GUIDES: dict[str, Guide] = {
    "bigsur": Guide(
        "bigsur", "Big Sur", _texts(_bigsur_steps), setup_steps=_bigsur_steps,
        phrases={"starter_side": "choose the side of your Starter card",
                 "draw": "draw from the row", "draw_deck": "take the deck's top card as Material",
                 "build": "build a Highway card", "flip": "flip a card in hand (Landmark power)",
                 "landmark": "add a Landmark tile", "end_turn": "end your turn (the row refills)"},
        reference={
            "draw": "Draw any two cards from the face-up row into your hand, or the deck's top card "
                    "as Material only. Decide Highway or Material as you draw; never flip it later.",
            "build": "Pay a card's cost with Material cards from your hand, the top of your discard pile "
                     "(once per turn) and each 1-mile card's material in your tableau (each once per turn). "
                     "Place it left or right; placed cards never move.",
            "landmark": "After building, a combination of 3 Highway cards meeting a face-up tile's "
                        "requirement lets you add it above or below one of them. At most one per turn.",
            "scoring": "One point per mile in every stretch of 4 or more miles of one terrain; 2-mile "
                       "card conditions; Landmark points.",
        },
        overview="Draw two, build, score stretches of four miles or more.",
        # The deck lies Material side up, so its top card's material is on the table before the
        # card itself is revealed (the engine records ``deck_top`` first).
        observed_chance=frozenset({"deck_top", "reveal", "reveal_landmark", "deal_starter"}),
        chance_words="Reveal the next card from the deck and scan, or let the app draw it."),
    "roundabout": Guide(
        "roundabout", "Roundabout", _texts(_roundabout_steps), setup_steps=_roundabout_steps,
        phrases={"flip": "flip the deck's top card", "take_discard": "take the discard pile's top card",
                 "place": "place the card on a legal spot", "reserve": "reserve a spot with your car",
                 "discard": "the card cannot be played: discard it", "pass": "pass"},
        reference={
            "place": "Gray meets gray or is exposed; an exit meets an entrance or is exposed; an entrance "
                     "meets an exit or is exposed; at least one road connects to another road; touching "
                     "edges cover full sides.",
            "reserve": "Instead of playing a card you may place your car as a blank card. Others may not "
                       "play there; you may later play a card there and take the car back.",
            "scoring": "Completing a four-card roundabout: +1, +1 per arrow on it, plus its cards' bonuses.",
            "discard": "A card with no legal spot goes face up on top of the discard pile; no voluntary discards.",
        },
        overview="Place quarter-roundabouts; complete four-card roundabouts to score.",
        observed_chance=frozenset({"reveal"}),
        chance_words="Flip the top card of the deck and scan, or let the app draw it.",
        direction="counter-clockwise", revealed_is_played=True),
    "monsterhighway": Guide(
        "monsterhighway", "Monster Highway", _texts(_monster_steps), setup_steps=_monster_steps,
        phrases={"choose_home_base": "pick your Home Base corner", "place_tile": "play a Road tile",
                 "move_car": "move your car", "move_monster": "move the Monster",
                 "exchange_tile": "swap a Road tile from hand for a new one", "swap_tiles": "swap two board tiles",
                 "remove_tile": "remove a roadway's last tile", "reroll": "re-roll with the Re-roll tile",
                 "dead_end": "play a Dead End", "monster_buster": "use your Monster Buster",
                 "roll_movement_die": "roll the movement die", "draw_monster_card": "draw a Monster Card",
                 "skip": "skip the rest", "end_turn": "end your turn (draw back up)"},
        reference={
            "dice": "Road+Road: play two tiles. Road+Car: a tile, then roll and move. Road+Monster: a tile, "
                    "then a Monster Card. Car+Car: move any distance on built road. Monster+Monster: move "
                    "the Monster anywhere but Ground Zero or a Home Base. Car+Monster: roll and move, then "
                    "a Monster Card.",
            "road": "Extend an existing roadway; never onto the Monster, off the board, on Ground Zero or a "
                    "Home Base (except your Home Base tile, which needs a Road roll).",
            "car": "Move up to the die, fewer if you like, forward or back along connected road, never past "
                   "a road's end or the Monster. Cars share spaces.",
            "monster": "The Monster landing on a car sends it to Ground Zero; landing on a road's end "
                       "removes that tile. Monster Buster: move it back, any time, then draw a tile.",
        },
        overview="Build roads from Ground Zero home; the app rolls every die and draws every Monster Card.",
        chance_words="The app rolls the dice and draws Monster Cards.", score_words=_monster_score),
    "highwaysbyways": Guide(
        "highwaysbyways", "Highways & Byways", _texts(_hb_steps), setup_steps=_hb_steps,
        phrases={"choose_vehicle": "pick a Vehicle", "choose_start": "choose a Start Space",
                 "keep_byway": "keep one byway card, pass the other clockwise",
                 "drop_byways": "remove Travel Markers (one red or two blue)",
                 "drive": "drive to a connected space", "plan_discard": "Draw: swap an event card (2 spaces)",
                 "choice": "Choice: draw 5 keep 1 (2 spaces)", "keep": "keep one of the event cards drawn",
                 "settle_dispute": "decide the disputed direction (Player 1)", "end_turn": "end your turn"},
        reference={
            "construction": "Player 1 draws a Construction Card into the leftmost free slot; highway spaces "
                            "with its letter are closed this round. Standing on one: you cannot move, you "
                            "plan (discard up to three event cards and draw as many).",
            "events": "The player clockwise of you picks an event card from your hand without looking; it "
                      "is resolved even if you do not move. Conflicts or impossible events are discarded.",
            "move": "Up to six spaces along paths; backtracking and shared spaces allowed. Unused spaces buy "
                    "Draws (2 each) and at most one Choice (2).",
            "byways": "A byway counts only when driven end to end in one go, either direction.",
            "reshuffle": "When all five slots are full at the start of Player 1's turn: reshuffle the "
                         "Construction Cards, a fresh one goes in the first slot, and everyone passes their "
                         "event hand clockwise.",
        },
        overview="Drive all your byways and return to your Start Space.",
        chance_words="The app picks: take the card it names from the hand."),
    "highwayman": Guide(
        "highwayman", "Highwayman", _texts(_highwayman_steps), setup_steps=_highwayman_steps,
        phrases={"play": "play a card on its route", "draw": "take the top card of the stock",
                 "end_turn": "end your turn", "pass": "pass"},
        reference={
            "play": "Cards go in numerical order on the route of their colour (2 on 1, 3 on 2...). Keep "
                    "playing while the numbers run on. No numbered card: play a LONDON card; neither: draw.",
            "highwayman": "A Highwayman may be played at any time on a started route; until a Bow Street "
                          "Runner covers it, nothing else can be played there.",
            "scoring": "First out of cards wins; the others count the numbers in hand, 10 per Bow Street "
                       "Runner, 20 per Highwayman. Over a series the lowest total wins.",
        },
        overview="Play your cards out along the coaching routes; lowest series total wins.",
        chance_words="The app deals and draws from the stock."),
}


def setup_guide(g: Guide, players: list[str], options: dict[str, Any], first: int = 0) -> SetupGuide:
    """The game's set-up as a step-by-step guide for these players (a guide without titled steps
    gets its sentences as numbered steps)."""
    if not players:
        raise SetupGuideError("the setup guide needs the players' names")
    if not 0 <= first < len(players):
        raise SetupGuideError(f"the first player is seat 1 to {len(players)}, not {first + 1}")
    if g.setup_steps is not None:
        return SetupGuide(g.setup_steps(players, options, first))
    return SetupGuide([SetupStep(f"Step {i + 1}", text) for i, text in enumerate(g.setup(players, options, first))])


def guide(game: str, title: str = "") -> Guide:
    """The guide for ``game``; an unknown game gets plain generic words."""
    found = GUIDES.get(game)
    if found is not None:
        return found
    return Guide(game, title or game, _generic_setup)


def phrase(g: Guide, kind: str) -> str:
    return g.phrases.get(kind, kind.replace("_", " "))


def next_thing(game: Any, g: Guide, *, waiting_for_table: bool = False) -> str:
    """One line: who does what now."""
    if game.is_game_over():
        standings = game.standings()
        winners = [s.name for s in standings if s.place == 1]
        return f"Game over: {' and '.join(winners)} {'wins' if len(winners) == 1 else 'tie'}."
    player = game.current_player()
    if player is None:
        return g.chance_words if waiting_for_table else "The app is drawing..."
    legal: list[Action] = game.legal_actions()
    kinds: list[str] = []
    for a in legal:
        if a.player == player and a.kind not in kinds:
            kinds.append(a.kind)
    name = game.players[player]
    if not kinds:
        return f"{name}: nothing is possible; the rules engine has no legal action."
    words = [phrase(g, k) for k in kinds[:3]]
    more = "" if len(kinds) <= 3 else f" (or {len(kinds) - 3} more)"
    sentence = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f"{name}: {sentence}{more}."


def reference_for(game: Any, g: Guide) -> list[tuple[str, str]]:
    """Rules that apply now: the entries whose key matches a legal action kind first, then the rest."""
    kinds = {a.kind for a in game.legal_actions()} if not game.is_game_over() else set()
    first = [(k, v) for k, v in g.reference.items() if any(k in kind or kind in k for kind in kinds)]
    rest = [(k, v) for k, v in g.reference.items() if (k, v) not in first]
    return first + rest
