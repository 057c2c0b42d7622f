"""Helpers shared by the reliability tests: scripted games on the real engines, and a digest of an
engine's state that says whether two games are in exactly the same position."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from typing import Any

from companion.session import Session
from rules.game import Game

#: The engines the crash and recovery tests play (all five: each has its own state shape).
GAMES = ("bigsur", "roundabout", "monsterhighway", "highwaysbyways", "highwayman")


def canonical(value: Any) -> Any:
    """A picture of a value that does not depend on set or dict order (which varies with the
    process's hash seed, and the crash test compares positions across processes)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, [(f.name, canonical(getattr(value, f.name))) for f in dataclasses.fields(value)])
    if isinstance(value, dict):
        return ("dict", sorted((repr(canonical(k)), canonical(v)) for k, v in value.items()))
    if isinstance(value, set | frozenset):
        return ("set", sorted(repr(canonical(v)) for v in value))
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return (type(value).__name__, canonical(vars(value)))
    return repr(value)


def digest(game: Game[Any]) -> str:
    """The engine state as a short hash: equal digests, equal positions (same actions applied,
    nothing half-applied)."""
    mover = None if game.is_game_over() else game.current_player()
    text = repr(canonical((game.state, mover, len(game.actions))))
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def play_one(session: Session, rng: random.Random) -> Any:
    """One player action chosen at random among the legal ones (the app draws the chance)."""
    legal = session.game.legal_actions()
    return session.apply(rng.choice(legal))


def players(n: int = 2) -> list[str]:
    return ["Ana", "Ben", "Cy", "Dee"][:n]
