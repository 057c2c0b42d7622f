"""One exception hierarchy for the rules layer.

Every error a player or a file can cause is a ``RulesError`` (a ``ValueError``), so callers can
catch the family, and each message is one sentence that says what was wrong.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules layer raises for bad input."""


class IllegalAction(RulesError):
    """An action that breaks a rule. ``rule`` names the rule in the rulebook's own words."""

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class UndoRefused(RulesError):
    """Undo is not possible: nothing to undo, or the last step revealed something random."""


class ActionFormatError(RulesError):
    """An action that is not even well-formed (unknown kind, missing or mistyped field)."""


class OptionError(RulesError):
    """Bad players or rules options when starting a game."""


class RecordError(RulesError):
    """A game record file that cannot be read (bad JSON, wrong version, wrong types)."""


class ReplayError(RulesError):
    """A well-formed record whose action ``index`` is illegal in the replayed game."""

    def __init__(self, index: int, player: str | None, reason: str) -> None:
        who = player if player is not None else "chance"
        super().__init__(f"action {index} ({who}) is illegal: {reason}")
        self.index = index
        self.player = player
        self.reason = reason


class CatalogError(RulesError):
    """A catalog data file that fails validation; the message names file, entry and field."""
