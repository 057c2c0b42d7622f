"""The scoring conditions printed on 2-mile cards (and on some Landmark tiles).

The rulebook says only that "2-mile cards also have scoring conditions written on the bottom of
the card". The real texts are not published, so conditions are a small vocabulary of data, each
``{"type": ..., its parameters..., "points": N}``, documented in the header of ``cards.json``.
A condition is judged from the card that carries it (or the card a Landmark tile lies against).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import RulesError

#: type -> the parameters it takes besides ``points`` (each a terrain, a mileage or a count).
VOCABULARY: dict[str, tuple[str, ...]] = {
    "adjacent_terrain": ("terrain",),
    "terrain_miles": ("terrain", "at_least"),
    "in_stretch": ("terrain", "at_least"),
    "cards_of_miles": ("miles", "at_least"),
    "at_end": (),
    "distinct_terrains": ("at_least",),
}


class Scored(Protocol):
    """What a condition needs to know of a tableau card."""

    @property
    def miles(self) -> int: ...

    @property
    def terrains(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class Condition:
    """One scoring condition: ``Condition("adjacent_terrain", 2, terrain="forest")``."""

    type: str
    points: int
    terrain: str | None = None
    at_least: int | None = None
    miles: int | None = None

    def text(self) -> str:
        """The condition as a player would read it on the card."""
        t, n = self.terrain, self.at_least
        body = {
            "adjacent_terrain": f"next to {'an' if t and t[0] in 'aeiou' else 'a'} {t} card",
            "terrain_miles": f"tableau has {n}+ {t} miles",
            "in_stretch": f"part of a {n}+ mile {t} stretch",
            "cards_of_miles": f"tableau has {n}+ {self.miles}-mile cards",
            "at_end": "at either end of the highway",
            "distinct_terrains": f"tableau shows {n}+ terrains",
        }[self.type]
        return f"{body}: +{self.points}"

    def met(self, cards: Sequence[Scored], position: int, stretch_of: Callable[[int, str], int]) -> bool:
        """Whether the condition holds for the card at ``position`` of ``cards`` (left to right).
        ``stretch_of(position, terrain)`` is the length in miles of that card's stretch."""
        if self.type == "adjacent_terrain":
            assert self.terrain is not None
            return any(0 <= p < len(cards) and self.terrain in cards[p].terrains
                       for p in (position - 1, position + 1))
        if self.type == "terrain_miles":
            assert self.at_least is not None
            return sum(c.miles for c in cards if self.terrain in c.terrains) >= self.at_least
        if self.type == "in_stretch":
            assert self.terrain is not None and self.at_least is not None
            return self.terrain in cards[position].terrains and stretch_of(position, self.terrain) >= self.at_least
        if self.type == "cards_of_miles":
            assert self.at_least is not None
            return sum(1 for c in cards if c.miles == self.miles) >= self.at_least
        if self.type == "at_end":
            return position in (0, len(cards) - 1)
        if self.type == "distinct_terrains":
            assert self.at_least is not None
            return len({t for c in cards for t in c.terrains}) >= self.at_least
        raise AssertionError(self.type)  # parse_condition admits only the vocabulary

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name in VOCABULARY[self.type]:
            out[name] = getattr(self, name)
        out["points"] = self.points
        return out


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_condition(data: Any, terrains: Sequence[str], fail: Callable[[str], RulesError]) -> Condition:
    """Check a condition object against the vocabulary; ``fail(message)`` builds the error, so the
    catalog loader and the tableau reader can each name their own file and entry."""
    if not isinstance(data, Mapping):
        raise fail(f"a condition must be a JSON object, not {data!r}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in VOCABULARY:
        raise fail(f"condition type {kind!r} is not one of {', '.join(VOCABULARY)}")
    wanted = VOCABULARY[kind]
    extra = sorted(set(data) - set(wanted) - {"type", "points"})
    if extra:
        raise fail(f"a {kind} condition has no field {extra[0]!r}")
    points = data.get("points")
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise fail(f"condition 'points' must be a whole number of 0 or more, not {points!r}")
    args: dict[str, Any] = {}
    for name in wanted:
        value = data.get(name)
        if name == "terrain":
            if value not in terrains:
                raise fail(f"condition terrain {value!r} is not one of {', '.join(terrains)}")
        elif name == "miles":
            if not _whole(value) or value not in (1, 2, 3):
                raise fail(f"condition 'miles' must be 1, 2 or 3, not {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise fail(f"condition {name!r} must be a whole number of 1 or more, not {value!r}")
        args[name] = value
    return Condition(kind, points, **args)
