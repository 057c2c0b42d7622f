"""Pure game engines for the five games: standard library only (see DESIGN.md, Layers)."""

from .actions import CHANCE, Action
from .errors import (
    ActionFormatError,
    CatalogError,
    IllegalAction,
    OptionError,
    RecordError,
    ReplayError,
    RulesError,
    UndoRefused,
)
from .game import Game
from .record import Record
from .scoring import Breakdown, ScoreLine, Standing

__all__ = [
    "CHANCE", "Action", "ActionFormatError", "Breakdown", "CatalogError", "Game", "IllegalAction",
    "OptionError", "Record", "RecordError", "ReplayError", "RulesError", "ScoreLine", "Standing",
    "UndoRefused",
]
