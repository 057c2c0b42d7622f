"""The ``Action`` value type shared by every game.

An action is what one player (or chance) does: a ``kind`` in the game's own words, the acting
seat (``None`` for chance) and a few named parameters. Actions are immutable and hashable so that
``legal_actions()`` can be compared as sets, and they round-trip through JSON for game records.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ActionFormatError

#: The acting "player" of a random event (a shuffle, a draw, a die roll).
CHANCE = None

JSONScalar = str | int | float | bool | None


class FrozenMap(tuple):  # type: ignore[type-arg]
    """A hashable mapping kept as sorted ``(key, value)`` pairs; thaws back to a dict."""

    def as_dict(self) -> dict[str, Any]:
        return {k: thaw(v) for k, v in self}


def freeze(value: Any) -> Any:
    """Turn JSON-like data into hashable data (lists become tuples, dicts ``FrozenMap``)."""
    if isinstance(value, FrozenMap):
        return value
    if isinstance(value, Mapping):
        for key in value:
            if not isinstance(key, str):
                raise ActionFormatError(f"parameter names must be strings, not {key!r}")
        return FrozenMap(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise ActionFormatError(f"an action parameter cannot hold {type(value).__name__} {value!r}")


def thaw(value: Any) -> Any:
    """The inverse of :func:`freeze`: plain JSON-ready data."""
    if isinstance(value, FrozenMap):
        return value.as_dict()
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a game: ``Action.of("build", 0, card="bs-012", side="left")``."""

    kind: str
    player: int | None
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, kind: str, player: int | None, **params: Any) -> Action:
        if not isinstance(kind, str) or not kind:
            raise ActionFormatError(f"an action kind must be a non-empty string, not {kind!r}")
        if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
            raise ActionFormatError(f"an action's player must be a seat number, not {player!r}")
        return cls(kind, player, tuple(sorted((k, freeze(v)) for k, v in params.items())))

    @property
    def is_chance(self) -> bool:
        return self.player is None

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        return default

    def __getitem__(self, name: str) -> Any:
        for key, value in self.params:
            if key == name:
                return value
        raise ActionFormatError(f"a {self.kind!r} action needs the field {name!r}")

    def __contains__(self, name: object) -> bool:
        return any(key == name for key, _ in self.params)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self.params)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        for key, value in self.params:
            out[key] = thaw(value)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, Mapping):
            raise ActionFormatError(f"an action must be a JSON object, not {type(data).__name__}")
        if "kind" not in data:
            raise ActionFormatError("an action is missing its 'kind'")
        if "player" not in data:
            raise ActionFormatError("an action is missing its 'player' (null for chance)")
        params = {k: v for k, v in data.items() if k not in ("kind", "player")}
        return cls.of(data["kind"], data["player"], **params)

    def __repr__(self) -> str:
        args = "".join(f", {k}={thaw(v)!r}" for k, v in self.params)
        return f"Action.of({self.kind!r}, {self.player!r}{args})"
