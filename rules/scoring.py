"""Score breakdowns made of itemised lines, and final standings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One itemised line of a score: ``kind`` (stretch, condition, roundabout...), its points and
    the details that explain it (terrain, miles, card positions...)."""

    kind: str
    points: int
    label: str
    details: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "points": self.points, "label": self.label}
        for key, value in self.details:
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A player's score as lines that add up to ``total`` by construction."""

    player: int
    lines: tuple[ScoreLine, ...] = ()

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": [line.to_json() for line in self.lines]}


def line(kind: str, points: int, label: str, **details: Any) -> ScoreLine:
    """Shorthand for a :class:`ScoreLine` with keyword details."""
    return ScoreLine(kind, points, label, tuple(details.items()))


@dataclass(frozen=True, slots=True)
class Standing:
    """A finishing position. ``place`` is 1 for the winner; ties share a place."""

    place: int
    player: int
    name: str
    score: int
    finished: bool = field(default=True)

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "player": self.player, "name": self.name,
                "score": self.score, "finished": self.finished}


def rank(entries: list[tuple[int, str, int]], *, lowest_wins: bool = False) -> list[Standing]:
    """Rank ``(player, name, score)`` entries; equal scores share a place (1, 1, 3...)."""
    ordered = sorted(entries, key=lambda e: (e[2] if lowest_wins else -e[2], e[0]))
    out: list[Standing] = []
    for i, (player, name, score) in enumerate(ordered):
        place = out[-1].place if out and out[-1].score == score else i + 1
        out.append(Standing(place, player, name, score))
    return out
