"""The base every game engine builds on: push/pop like python-chess, chance nodes like OpenSpiel.

A game is a sequence of :class:`~rules.actions.Action` values applied to a state. Some positions
are *chance nodes* (``current_player() is None``): a card must be revealed or a die rolled. At a
chance node ``legal_actions()`` lists the possible outcomes; the outcome is either sampled from the
game's seeded generator (:meth:`Game.sample_chance`) or observed on the real table and pushed like
any other action. Either way it is recorded, so a record replays exactly.

Engines implement a handful of hooks (``initial_state``, ``current_player``, ``legal_actions``,
``apply``, ``is_game_over``, ``breakdown``, ``zones``); this class gives them atomic application
(a refused action leaves the state untouched), undo, records and standings.
"""

from __future__ import annotations

import pickle
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from .actions import Action
from .errors import ActionFormatError, IllegalAction, OptionError, UndoRefused
from .scoring import Breakdown, Standing, rank

S = TypeVar("S")


class Game(ABC, Generic[S]):
    """A game in progress. Subclasses set the class attributes and implement the hooks."""

    #: Short id used in records, catalogs and the command line (``"bigsur"``).
    name: ClassVar[str]
    #: The game's title as printed on the box.
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: Option names with their defaults; anything else is refused.
    default_options: ClassVar[Mapping[str, Any]] = {}
    #: True where the lowest score wins (Highwayman's series).
    lowest_wins: ClassVar[bool] = False

    def __init__(
        self,
        players: Sequence[str],
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.players: tuple[str, ...] = self._check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise OptionError(f"the seed must be a whole number, not {seed!r}")
        self.seed = seed
        self.options: dict[str, Any] = self._check_options(options or {})
        self.state: S = self.initial_state()
        self._history: list[tuple[Action, bytes]] = []

    # ------------------------------------------------------------------ hooks for engines
    @abstractmethod
    def initial_state(self) -> S:
        """The state right after setup, before any chance event (shuffles are chance events)."""

    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` at a chance node. Undefined once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action now; at a chance node, every possible outcome."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Check ``action`` and change ``self.state``; raise :class:`IllegalAction` if it breaks a
        rule. It may raise half-way: :meth:`push` restores the state."""

    @abstractmethod
    def is_game_over(self) -> bool: ...

    @abstractmethod
    def breakdown(self, player: int) -> Breakdown:
        """The player's current score as itemised lines."""

    @abstractmethod
    def zones(self) -> dict[str, Counter[str]]:
        """Every physical card, tile or token by where it lies; used to check nothing is created
        or lost. The union over zones is the same at every point of a game."""

    def chance_weights(self, outcomes: list[Action]) -> list[float]:
        """Relative probabilities of the chance outcomes; uniform unless the engine says."""
        return [1.0] * len(outcomes)

    def describe(self, action: Action) -> str:
        """A sentence for the screen and the log."""
        who = "Chance" if action.player is None else self.players[action.player]
        params = ", ".join(f"{k} {v}" for k, v in action.to_json().items() if k not in ("kind", "player"))
        return f"{who}: {action.kind.replace('_', ' ')}" + (f" ({params})" if params else "")

    # ------------------------------------------------------------------ the public API
    def push(self, action: Action) -> None:
        """Apply ``action`` or raise; on any error the state is exactly as before."""
        if not isinstance(action, Action):
            raise ActionFormatError(f"push() takes an Action, not {type(action).__name__}")
        if self.is_game_over():
            raise IllegalAction("the game is over", rule="game end")
        to_move = self.current_player()
        if to_move is None and action.player is not None:
            raise IllegalAction(
                f"{self.players[action.player] if 0 <= action.player < len(self.players) else action.player}"
                " cannot act now: a random outcome (card or die) must be resolved first",
                rule="turn order",
            )
        if to_move is not None and action.player != to_move and not self.may_act_out_of_turn(action):
            if action.player is None:
                raise IllegalAction(f"no card or die is being revealed now: it is {self.players[to_move]}'s turn",
                                    rule="turn order")
            who = (self.players[action.player] if 0 <= action.player < len(self.players)
                   else f"seat {action.player}")
            raise IllegalAction(f"it is {self.players[to_move]}'s turn, not {who}'s", rule="turn order")
        before = pickle.dumps(self.state, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.apply(action)
        except BaseException:
            self.state = pickle.loads(before)
            raise
        self._history.append((action, before))

    def legal_actions_for(self, seat: int) -> list[Action]:
        """The legal actions of one seat: its own turn's actions plus anything it may play out of
        turn (a Monster Buster, a Highwayman). Empty while a random outcome is pending, so a screen
        listing a player's choices never offers what cannot be pushed yet."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise ActionFormatError(f"there is no seat {seat!r} in a {len(self.players)}-player game")
        if self.is_game_over() or self.is_chance_node():
            return []
        return [a for a in self.legal_actions() if a.player == seat]

    def may_act_out_of_turn(self, action: Action) -> bool:
        """Whether a player may act although it is not their turn (Monster Buster, re-roll)."""
        return False

    def pop(self) -> Action:
        """Undo the last action. Refused when there is none, or when it was a random reveal:
        what was revealed cannot be unseen (as on Board Game Arena)."""
        if not self._history:
            raise UndoRefused("there is nothing to undo")
        action, before = self._history[-1]
        if action.player is None:
            raise UndoRefused("the last step revealed a random card or die roll, which cannot be undone")
        self._history.pop()
        self.state = pickle.loads(before)
        return action

    def can_undo(self) -> bool:
        return bool(self._history) and self._history[-1][0].player is not None

    @property
    def actions(self) -> list[Action]:
        """Every action so far, chance outcomes included, oldest first."""
        return [a for a, _ in self._history]

    def is_chance_node(self) -> bool:
        return not self.is_game_over() and self.current_player() is None

    def sample_chance(self) -> Action:
        """The outcome the game's seeded generator gives at this chance node. It depends only on
        the seed and how many actions came before, so replays and resumed games agree."""
        if not self.is_chance_node():
            raise IllegalAction("there is no random outcome to resolve now", rule="chance")
        outcomes = self.legal_actions()
        rng = random.Random(f"{self.name}/{self.seed}/{len(self._history)}")
        return rng.choices(outcomes, weights=self.chance_weights(outcomes), k=1)[0]

    def resolve_chance(self) -> list[Action]:
        """Sample and push outcomes until a player is to act (or the game ends)."""
        done: list[Action] = []
        while self.is_chance_node():
            outcome = self.sample_chance()
            self.push(outcome)
            done.append(outcome)
        return done

    def standings(self) -> list[Standing]:
        return rank([(p, n, self.breakdown(p).total) for p, n in enumerate(self.players)],
                    lowest_wins=self.lowest_wins)

    def inventory(self) -> Counter[str]:
        """The union of :meth:`zones`: what physically exists."""
        total: Counter[str] = Counter()
        for counter in self.zones().values():
            total.update(counter)
        return total

    def record(self) -> Any:
        from .record import Record

        return Record(
            game=self.name,
            players=list(self.players),
            seed=self.seed,
            options=dict(self.options),
            actions=self.actions,
        )

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} players={list(self.players)!r} seed={self.seed} "
                f"actions={len(self._history)}{' over' if self.is_game_over() else ''}>")

    # ------------------------------------------------------------------ validation helpers
    def _check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise OptionError("players must be a list of names")
        names = tuple(players)
        if not self.min_players <= len(names) <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {len(names)}"
            )
        for n in names:
            if not isinstance(n, str) or not n.strip():
                raise OptionError(f"every player needs a name, got {n!r}")
        if len(set(names)) != len(names):
            raise OptionError("two players have the same name")
        return names

    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(options, Mapping):
            raise OptionError("options must be a JSON object")
        merged = dict(self.default_options)
        for key, value in options.items():
            if key not in self.default_options:
                known = ", ".join(sorted(self.default_options)) or "none"
                raise OptionError(f"{self.title} has no option {key!r} (known: {known})")
            default = self.default_options[key]
            if default is not None and type(value) is not type(default):
                raise OptionError(
                    f"option {key!r} must be {type(default).__name__}, not {type(value).__name__}"
                )
            merged[key] = value
        return merged
