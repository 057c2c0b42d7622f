"""The Highways & Byways game state: plain data, so it pickles for undo and compares for replays."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Phases in rulebook order. Seats are numbered clockwise.
PHASES = ("vehicle", "start", "deal", "red draft", "blue draft", "drop", "driving", "over")

#: Spaces a player may move each turn before events and vehicles change it.
MOVES_PER_TURN = 6
#: Planning actions cost two spaces each.
PLANNING_COST = 2
#: A planning day (standing on a closed space) lets you swap up to three event cards.
PLANNING_DAY_SWAPS = 3
HAND_SIZE = 5
END_DRAW = 2
CHOICE_DRAW = 3
TRAVEL_MARKERS = 12


@dataclass
class TurnState:
    """What one driving turn has used so far; reset at the start of every turn."""

    bonus: int = 0           # extra spaces (Open Road events, the Rustbucket on reshuffle rounds)
    penalty: int = 0         # fewer spaces (Weather events)
    used: int = 0            # spaces spent moving and on planning actions
    planned: bool = False    # a planning action was taken, so no more moving this turn
    choice: bool = False     # the one Choice action of the turn
    planning_day: bool = False
    day_discards: int = 0
    extra_cards: int = 0     # Road Atlas: more event cards to choose from at the end of the turn
    closed: list[str] = field(default_factory=list)  # road letters closed to the mover by events
    event: str | None = None   # the event card being resolved
    event_note: str = ""       # how the last event card was resolved, for the screen
    dispute: list[str] = field(default_factory=list)  # tied Traffic targets the Player 1 holder picks from
    owed: int = 0            # event cards still to draw in this step
    after_redraw: str = "move"
    drawn: list[str] = field(default_factory=list)    # end-of-turn draw, one of which is kept

    @property
    def budget(self) -> int:
        return max(0, MOVES_PER_TURN + self.bonus - self.penalty)


@dataclass
class HBState:
    players: int
    first_player: int
    phase: str = "vehicle"
    step: str = "choose"
    seat: int = 0                 # who acts in the setup, draft and drop phases; the mover when driving
    p1: int = 0                   # holder of the Player 1 card
    vehicles: list[str | None] = field(default_factory=list)
    homes: list[str | None] = field(default_factory=list)
    position: list[str | None] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    event_deck: dict[str, int] = field(default_factory=dict)
    event_discard: dict[str, int] = field(default_factory=dict)
    red_deck: list[str] = field(default_factory=list)
    blue_deck: list[str] = field(default_factory=list)
    draft_hold: list[str] = field(default_factory=list)
    draft_keeps: int = 0
    box: list[str] = field(default_factory=list)
    kept: list[list[str]] = field(default_factory=list)       # byway cards each player kept
    markers: list[list[str]] = field(default_factory=list)    # byways still marked: still to drive
    dropped: list[list[str]] = field(default_factory=list)
    driven: list[list[str]] = field(default_factory=list)
    #: per player, byway id -> [direction (+1 along the listed order, -1 against), spaces driven]
    progress: list[dict[str, list[int]]] = field(default_factory=list)
    drops_done: int = 0
    construction_deck: list[str] = field(default_factory=list)
    slots: list[str] = field(default_factory=list)
    round: int = 0
    reshuffled: bool = False      # this round began with the construction cards reshuffled
    turn: TurnState = field(default_factory=TurnState)
    finished: list[int] = field(default_factory=list)       # seats in the order they got home
