"""Turning what the camera saw into the action(s) a player made.

The end-of-turn picture (a vision ``Observation``) is compared with the last picture the app
accepted. What appeared is matched against the rules engine's legal actions; what vanished or
moved without a reason is reported so the players can fix the table. Each game may add a module
``companion.reconcile.<game>`` with ``candidates(game, diff, observation, context) -> list[Action]``
(actions built from the picture, legal or not, so the engine can give its exact reason; ``context``
holds the table edge of each seat as ``edges`` and its colour as ``colours``); without one, the generic matcher below is used.
A module may also say which vanished cards a new one now covers (``covered(game, diff,
observation) -> set[str]``): those are not reported as gone; and which cards a random outcome the
app drew laid on the table (``revealed(game, action) -> list[str]``, e.g. Highways & Byways'
Construction card): seen newly at the next End turn, those are expected, not a play; and which
vanished cards the rules themselves took off the table (``taken_off(game, diff) -> set[str]``) or
a piece the engine has on them hides (``out_of_sight(game, diff) -> set[str]``).

Observations are read by attribute (``items``, each with ``id``, ``rotation``, ``center_mm``), so
this module does not import the vision package.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rules import Action

#: How far (mm) a card may shift between pictures before it counts as moved: the recogniser's
#: centre jitters by a few mm and players nudge cards when they reach across the table.
MOVE_TOLERANCE_MM = 20.0


@dataclass(frozen=True)
class Seen:
    """One recognised card or tile, reduced to what reconciliation compares."""

    id: str
    rotation: float
    center: tuple[float, float]
    #: Turns of the card that look (or, for its game, count) the same: a crossroads tile read at 0
    #: one time and 90 the next has not been turned.
    symmetry: int = 1

    @property
    def center_mm(self) -> tuple[float, float]:
        return self.center

    @classmethod
    def of(cls, item: Any) -> Seen:
        cx, cy = item.center_mm
        return cls(str(item.id), float(getattr(item, "rotation", 0.0)), (float(cx), float(cy)),
                   max(1, int(getattr(item, "symmetry", 1) or 1)))

    def turned_from(self, was: Seen) -> bool:
        """Whether this card lies turned from how it lay (more than 45 degrees, counting turns
        that look the same as none)."""
        period = 360.0 / max(self.symmetry, was.symmetry)
        d = (self.rotation - was.rotation) % period
        return min(d, period - d) > 45.0


@dataclass
class Difference:
    """What changed on the table since the last accepted picture."""

    added: list[Seen] = field(default_factory=list)
    removed: list[Seen] = field(default_factory=list)
    moved: list[tuple[Seen, Seen]] = field(default_factory=list)
    #: Newly seen cards the engine already has on the table (a random draw laid them there).
    expected: list[Seen] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.moved)


@dataclass
class Reading:
    """The result of reconciling one picture.

    ``candidates``: actions that would explain what appeared (most likely first; may be illegal,
    the session asks the engine). ``problems``: one sentence each about what no action explains,
    with ``spots`` (table mm) to highlight.
    """

    diff: Difference
    candidates: list[Action] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    spots: list[tuple[float, float]] = field(default_factory=list)


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def diff(before: Iterable[Any], after: Iterable[Any], *, tolerance: float = MOVE_TOLERANCE_MM) -> Difference:
    """Pair up equal ids, the closest pair of all first (so two copies of a tile each keep their
    own place, whatever order they were listed in); the leftovers were added or removed."""
    old = [Seen.of(i) for i in before]
    new = [Seen.of(i) for i in after]
    out = Difference()
    pairs = sorted((_distance(n.center, o.center), i, j) for i, o in enumerate(old)
                   for j, n in enumerate(new) if n.id == o.id)
    matched: dict[int, int] = {}
    taken: set[int] = set()
    for _, i, j in pairs:
        if i not in matched and j not in taken:
            matched[i] = j
            taken.add(j)
    for i, o in enumerate(old):
        if i not in matched:
            out.removed.append(o)
            continue
        n = new[matched[i]]
        if _distance(n.center, o.center) > tolerance or n.turned_from(o):
            out.moved.append((o, n))
    out.added = [n for j, n in enumerate(new) if j not in taken]
    return out


def mentions(action: Action, card_id: str) -> bool:
    """Whether any parameter of ``action`` names ``card_id`` (at any depth)."""

    def walk(value: Any) -> bool:
        if isinstance(value, str):
            return value == card_id
        if isinstance(value, tuple):
            return any(walk(v) for v in value)
        return False

    return any(walk(v) for _, v in action.params)


#: Reconcilers registered at run time (games outside this package, e.g. test engines).
REGISTERED: dict[str, Any] = {}


def register(game_name: str, module: Any) -> None:
    """Use ``module`` (anything with ``candidates(game, diff, observation, context)``) for ``game_name``."""
    REGISTERED[game_name] = module


def game_module(game_name: str) -> Any | None:
    if game_name in REGISTERED:
        return REGISTERED[game_name]
    try:
        return importlib.import_module(f"companion.reconcile.{game_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"companion.reconcile.{game_name}":
            raise
        return None


def shows(game_name: str, action: Action, card_id: str) -> bool:
    """Whether a card seen as ``card_id`` reveals the random outcome ``action``: the action names
    it, or the game's module says the card shows it (``shows(action, card_id)``)."""
    if mentions(action, card_id):
        return True
    module = game_module(game_name)
    return bool(module is not None and hasattr(module, "shows") and module.shows(action, card_id))


def revealed_on_table(game: Any, outcomes: Iterable[Action]) -> list[str]:
    """The card ids that the random ``outcomes`` (recorded in ``game``) laid face up on the table,
    one per card laid, as the game's module says (``revealed``); none for a game without one."""
    module = game_module(game.name)
    hook = getattr(module, "revealed", None) if module is not None else None
    if hook is None:
        return []
    return [str(card) for action in outcomes for card in hook(game, action)]


def reconcile(game: Any, before: Iterable[Any], observation: Any,
              explained_ids: Iterable[str] = (), *, edges: Iterable[str] = (), colours: Iterable[str] = (),
              revealed: Iterable[str] = (), laid: Iterable[Action] = ()) -> Reading:
    """Compare the accepted picture ``before`` (items) with ``observation`` for the live ``game``.

    ``explained_ids``: ids that actions recorded since the accepted picture name (a card the
    Monster ate, a tile swapped); their disappearance or move is expected, not a problem.
    ``revealed``: ids of cards that random outcomes drawn since the accepted picture laid on the
    table (:func:`revealed_on_table`); as many newly seen cards with those ids are expected, in
    ``diff.expected``, and no play is looked for in them: the engine already has them there.
    ``laid``: player actions recorded since the accepted picture (a play entered by hand): a
    newly seen card that one of them laid on the table (an action of a kind in the game module's
    ``LAYS`` naming it) is expected too, once per action.
    """
    d = diff(before, observation.items)
    module = game_module(game.name)
    due = list(revealed)
    played = [a for a in laid if a.kind in getattr(module, "LAYS", frozenset())]
    for seen in list(d.added):
        by = next((a for a in played if mentions(a, seen.id)), None)
        if seen.id in due or by is not None:
            if seen.id in due:
                due.remove(seen.id)
            else:
                played.remove(by)
            d.added.remove(seen)
            d.expected.append(seen)
    reading = Reading(d)
    explained = set(explained_ids)
    # Cards the rules took off the table (H&B's Construction cards reshuffled into the deck,
    # Monster Highway's tiles removed or destroyed), or that a piece the engine has there, or
    # something the picture shows there, hides (``out_of_sight``). A copy gone so, with another of
    # the same card laid elsewhere, is no move: the one laid is new.
    off: set[str] = set(getattr(module, "taken_off", lambda g, d: ())(game, d))
    off |= set(getattr(module, "out_of_sight", lambda g, d, o: ())(game, d, observation))
    for was, now in list(d.moved):
        if was.id in off and _distance(was.center, now.center) > MOVE_TOLERANCE_MM:
            d.moved.remove((was, now))
            d.removed.append(was)
            d.added.append(now)
    explained |= off
    # Cards newly seen where the engine already has them (a tile the Monster or a car hid) are
    # expected: no play is read from them.
    for seen in getattr(module, "in_place", lambda g, d: [])(game, d):
        d.added.remove(seen)
        d.expected.append(seen)
    if module is not None and hasattr(module, "candidates"):
        reading.candidates = list(module.candidates(game, d, observation,
                                                    {"edges": list(edges), "colours": list(colours)}))
    else:
        reading.candidates = generic_candidates(game, d)
    if module is not None and hasattr(module, "covered"):
        # Cards laid on a pile hide the one below (Highwayman's routes): not gone, covered.
        explained |= set(module.covered(game, d, observation))
    for gone in d.removed:
        if gone.id in explained:
            continue
        reading.problems.append(f"{gone.id} was at {_mm(gone.center)} and is gone: put it back")
        reading.spots.append(gone.center)
    for was, now in d.moved:
        if was.id in explained:
            continue
        reading.problems.append(f"{was.id} moved from {_mm(was.center)} to {_mm(now.center)}: "
                                "placed cards never move, put it back")
        reading.spots.append(now.center)
    return reading


def generic_candidates(game: Any, d: Difference) -> list[Action]:
    """Legal actions naming a newly seen card; those naming more of them first."""
    if game.is_game_over() or not d.added:
        return []
    legal = game.legal_actions()
    scored: list[tuple[int, int, Action]] = []
    for index, action in enumerate(legal):
        hits = sum(1 for s in d.added if mentions(action, s.id))
        if hits:
            scored.append((-hits, index, action))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [a for _, _, a in scored]


def _mm(center: tuple[float, float]) -> str:
    return f"({center[0]:.0f}, {center[1]:.0f}) mm"
