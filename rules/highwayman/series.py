"""A series of Highwayman games: rule 5, "Scoring in this manner allows for a series of games to be
played, the Player with the least score being the Winner."

The sheet is silent on who deals next; :meth:`Series.next_dealer` suggests the usual custom (the
deal passes to the left) but a table that deals otherwise is not refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import OptionError, RecordError
from ..record import Record
from ..scoring import Standing, rank
from .game import Highwayman


@dataclass
class Series:
    """Running totals over finished games; the lowest total leads."""

    players: tuple[str, ...]
    #: One list of scores (in seat order) per game added.
    games: list[list[int]] = field(default_factory=list)
    #: The seat who dealt each game added.
    dealers: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        if len(self.players) < Highwayman.min_players or len(self.players) > Highwayman.max_players:
            raise OptionError(f"a Highwayman series is for {Highwayman.min_players} to "
                              f"{Highwayman.max_players} players, not {len(self.players)}")
        for name in self.players:
            if not isinstance(name, str) or not name.strip():
                raise OptionError(f"every player in the series needs a name, got {name!r}")
        if len(set(self.players)) != len(self.players):
            raise OptionError("two players in the series have the same name")

    def add(self, game: Highwayman) -> list[int]:
        """Add a finished game's scores; returns them in seat order."""
        if not isinstance(game, Highwayman):
            raise OptionError(f"a Highwayman series takes Highwayman games, not {type(game).__name__}")
        if tuple(game.players) != self.players:
            raise OptionError(f"this game's players {list(game.players)} are not the series' {list(self.players)}")
        if not game.is_game_over():
            raise OptionError("only a finished game can be added to the series")
        scores = [game.breakdown(p).total for p in range(len(self.players))]
        self.games.append(scores)
        self.dealers.append(game.dealer)
        return scores

    def add_record(self, record: Record) -> list[int]:
        if record.game != Highwayman.name:
            raise RecordError(f"a Highwayman series takes Highwayman records, not {record.game!r}")
        game = record.replay()
        assert isinstance(game, Highwayman)
        return self.add(game)

    def next_dealer(self) -> int:
        """The seat on the last dealer's left (the last seat deals the first game)."""
        last = self.dealers[-1] if self.dealers else len(self.players) - 2
        return (last + 1) % len(self.players)

    def next_options(self) -> dict[str, Any]:
        """Options for the next game of the series."""
        return {"dealer": self.next_dealer()}

    def totals(self) -> list[int]:
        return [sum(g[p] for g in self.games) for p in range(len(self.players))]

    def standings(self) -> list[Standing]:
        """The series so far: lowest total first; equal totals share a place."""
        return rank([(p, n, t) for p, (n, t) in enumerate(zip(self.players, self.totals(), strict=True))],
                    lowest_wins=True)

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "games": [list(g) for g in self.games],
                "dealers": list(self.dealers),
                "totals": self.totals(), "next_dealer": self.next_dealer(),
                "standings": [s.to_json() for s in self.standings()]}

    @classmethod
    def of(cls, players: Sequence[str]) -> Series:
        return cls(tuple(players))
