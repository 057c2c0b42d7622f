"""Scoring a Big Sur tableau, as a pure function usable without a game.

The vision pipeline and the app score a tableau read from the camera with
:func:`score_tableau`; the engine scores its own tableaus with the same function.

"Players score one point for each mile in any stretch that is four or more miles long. A stretch
is one or more adjacent Highway cards that contain the same terrain type." A two-terrain card
counts its miles in a stretch of each of its terrains.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from ..scoring import ScoreLine, line
from .catalog import MILES, Catalog, HighwayCard, LandmarkTile, default_catalog
from .conditions import Condition, parse_condition

#: "one point for each mile in any stretch that is four or more miles long"
SCORING_STRETCH = 4
PLACES = ("above", "below")


class TableauError(RulesError):
    """A tableau given to the scorer that does not describe real Big Sur cards."""


@dataclass(frozen=True, slots=True)
class TableauCard:
    """A Highway card lying in a tableau: a catalog card, or an ad-hoc card read from the table
    (miles and terrains, maybe a condition) when the camera could not tell which card it is."""

    miles: int
    terrains: tuple[str, ...]
    condition: Condition | None = None
    id: str | None = None

    @classmethod
    def of(cls, card: HighwayCard) -> TableauCard:
        return cls(card.miles, card.terrains, card.condition, card.id)


@dataclass(frozen=True, slots=True)
class PlacedLandmark:
    """A Landmark tile lying above or below the card at ``position`` (0-based, left to right)."""

    tile: LandmarkTile
    position: int
    where: str = "above"


@dataclass(frozen=True, slots=True)
class Stretch:
    """Adjacent cards showing one terrain, as long as they go."""

    terrain: str
    cards: tuple[int, ...]
    miles: int

    @property
    def points(self) -> int:
        return self.miles if self.miles >= SCORING_STRETCH else 0


def stretches(cards: Sequence[TableauCard | HighwayCard]) -> list[Stretch]:
    """Every maximal stretch, ordered by its leftmost card (then by terrain as the cards show them)."""
    out: list[Stretch] = []
    open_: dict[str, tuple[list[int], int]] = {}
    for position, card in enumerate(cards):
        for terrain in list(open_):
            if terrain not in card.terrains:
                positions, miles = open_.pop(terrain)
                out.append(Stretch(terrain, tuple(positions), miles))
        for terrain in card.terrains:
            positions, miles = open_.setdefault(terrain, ([], 0))
            positions.append(position)
            open_[terrain] = (positions, miles + card.miles)
    out.extend(Stretch(t, tuple(p), m) for t, (p, m) in open_.items())
    out.sort(key=lambda s: s.cards[0])
    return out


def _span(cards: tuple[int, ...]) -> str:
    return f"card {cards[0]}" if len(cards) == 1 else f"cards {cards[0]}-{cards[-1]}"


def score_tableau(
    cards: Sequence[TableauCard | HighwayCard | Mapping[str, Any]],
    landmarks: Sequence[PlacedLandmark | Mapping[str, Any]] = (),
    *,
    catalog: Catalog | None = None,
) -> list[ScoreLine]:
    """Itemised score lines of one tableau, cards left to right. Cards may be catalog cards,
    :class:`TableauCard` values or JSON objects (``{"id": ...}`` or ``{"miles", "terrains"}``);
    landmarks :class:`PlacedLandmark` values or ``{"id", "position", "where"}`` objects.

    Lines: ``stretch`` (terrain, miles, cards, points; stretches under 4 miles score 0),
    ``condition`` (the 2-mile card's or landmark's condition, met or not), ``landmark`` (its
    points). They add up to the player's score."""
    cat = catalog if catalog is not None else default_catalog()
    tableau = [tableau_card(c, f"card {i}", cat) for i, c in enumerate(cards)]
    placed = [placed_landmark(t, f"landmark {i}", len(tableau), cat) for i, t in enumerate(landmarks)]
    check_landmark_places(placed)
    found = stretches(tableau)
    by_card: dict[tuple[int, str], Stretch] = {(p, s.terrain): s for s in found for p in s.cards}

    def stretch_of(position: int, terrain: str) -> int:
        found_here = by_card.get((position, terrain))
        return found_here.miles if found_here else 0

    lines: list[ScoreLine] = []
    for s in found:
        lines.append(line("stretch", s.points, f"{s.terrain} stretch, {s.miles} mile{'' if s.miles == 1 else 's'} ({_span(s.cards)})",
                          terrain=s.terrain, miles=s.miles, cards=s.cards))
    for position, card in enumerate(tableau):
        if card.condition is not None:
            met = card.condition.met(tableau, position, stretch_of)
            lines.append(line("condition", card.condition.points if met else 0,
                              f"card {position}: {card.condition.text()}{'' if met else ' (not met)'}",
                              cards=(position,), card=card.id, condition=card.condition.to_json(), met=met))
    for p in placed:
        tile = p.tile
        if tile.points or tile.condition is None:
            lines.append(line("landmark", tile.points, f"{tile.name} (card {p.position}, {p.where})",
                              landmark=tile.id, cards=(p.position,), where=p.where))
        if tile.condition is not None:
            met = tile.condition.met(tableau, p.position, stretch_of)
            lines.append(line("condition", tile.condition.points if met else 0,
                              f"{tile.name}: {tile.condition.text()}{'' if met else ' (not met)'}",
                              landmark=tile.id, cards=(p.position,), condition=tile.condition.to_json(), met=met))
    return lines


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def tableau_card(raw: TableauCard | HighwayCard | Mapping[str, Any], where: str, catalog: Catalog) -> TableauCard:
    """A card of a tableau from a catalog card or a JSON object; :class:`TableauError` otherwise."""
    if isinstance(raw, TableauCard):
        return raw
    if isinstance(raw, HighwayCard):
        return TableauCard.of(raw)
    if not isinstance(raw, Mapping):
        raise TableauError(f"{where}: a card must be a JSON object, not {type(raw).__name__}")
    if "id" in raw:
        ident = raw["id"]
        if set(raw) != {"id"}:
            raise TableauError(f"{where}: a card given by 'id' takes no other field")
        if not isinstance(ident, str) or ident not in catalog.cards:
            hint = " (Starter cards have no Highway side)" if isinstance(ident, str) and ident in catalog.starters else ""
            raise TableauError(f"{where}: unknown card id {ident!r}{hint}")
        return TableauCard.of(catalog.cards[ident])
    unknown = sorted(set(raw) - {"miles", "terrains", "condition"})
    if unknown:
        raise TableauError(f"{where}: unknown field {unknown[0]!r} (a card is {{\"id\"}} or {{\"miles\", \"terrains\"}})")
    miles = raw.get("miles")
    if not _whole(miles) or miles not in MILES:
        raise TableauError(f"{where}: 'miles' must be 1, 2 or 3, not {miles!r}")
    terrains = raw.get("terrains")
    if not isinstance(terrains, list) or not 1 <= len(terrains) <= 2:
        raise TableauError(f"{where}: 'terrains' must be a list of one or two terrains, not {terrains!r}")
    for t in terrains:
        if not isinstance(t, str) or t not in catalog.terrains:
            raise TableauError(f"{where}: unknown terrain {t!r} (known: {', '.join(catalog.terrains)})")
    if len(set(terrains)) != len(terrains):
        raise TableauError(f"{where}: 'terrains' names {terrains[0]!r} twice")
    condition = None
    if "condition" in raw:
        if miles != 2:
            # "2-mile cards also have scoring conditions written on the bottom of the card": a
            # condition read off any other card is a misreading, not something to score.
            raise TableauError(f"{where}: only 2-mile cards carry a scoring condition, not a {miles}-mile card")
        condition = parse_condition(raw["condition"], catalog.terrains, lambda m: TableauError(f"{where}: {m}"))
    return TableauCard(miles, tuple(terrains), condition)


def placed_landmark(raw: PlacedLandmark | Mapping[str, Any], where: str, cards: int, catalog: Catalog) -> PlacedLandmark:
    if isinstance(raw, PlacedLandmark):
        placed = raw
    else:
        if not isinstance(raw, Mapping):
            raise TableauError(f"{where}: a landmark must be a JSON object, not {type(raw).__name__}")
        unknown = sorted(set(raw) - {"id", "position", "where"})
        if unknown:
            raise TableauError(f"{where}: unknown field {unknown[0]!r} (a landmark is {{\"id\", \"position\", \"where\"}})")
        ident = raw.get("id")
        if not isinstance(ident, str) or ident not in catalog.landmarks:
            raise TableauError(f"{where}: unknown Landmark tile id {ident!r}")
        position = raw.get("position")
        if not isinstance(position, int) or isinstance(position, bool):
            raise TableauError(f"{where}: 'position' must be the 0-based position of a card, not {position!r}")
        side = raw.get("where", "above")
        placed = PlacedLandmark(catalog.landmarks[ident], position, side)
    if placed.where not in PLACES:
        raise TableauError(f"{where}: 'where' must be 'above' or 'below', not {placed.where!r}")
    if not 0 <= placed.position < cards:
        raise TableauError(f"{where}: position {placed.position} is not a card of a {cards}-card tableau")
    return placed


def check_landmark_places(placed: Sequence[PlacedLandmark]) -> None:
    """"Each Highway card may have only one Landmark tile above and one Landmark tile below it."""
    seen: set[tuple[int, str]] = set()
    tiles: set[str] = set()
    for p in placed:
        if p.tile.id in tiles:
            raise TableauError(f"Landmark tile {p.tile.id} appears twice")
        tiles.add(p.tile.id)
        if (p.position, p.where) in seen:
            raise TableauError(f"card {p.position} has two Landmark tiles {p.where} it (one above and one below at most)")
        seen.add((p.position, p.where))


@dataclass(frozen=True, slots=True)
class ScoredPlayer:
    name: str
    lines: tuple[ScoreLine, ...]

    @property
    def total(self) -> int:
        return sum(ln.points for ln in self.lines)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "total": self.total, "breakdown": [ln.to_json() for ln in self.lines]}


def score_document(data: Any, *, catalog: Catalog | None = None) -> list[ScoredPlayer]:
    """Score every player of a tableau document (the input of ``companion score bigsur``)::

        {"players": [{"name": "Ana", "tableau": [{"miles": 1, "terrains": ["forest"]}, {"id": "bs-62"}],
                      "landmarks": [{"id": "lm-07", "position": 1, "where": "above"}]}]}
    """
    cat = catalog if catalog is not None else default_catalog()
    if not isinstance(data, Mapping):
        raise TableauError("a tableau file must hold a JSON object with a 'players' list")
    unknown = sorted(set(data) - {"players", "game", "meta"})
    if unknown:
        raise TableauError(f"unknown field {unknown[0]!r} at the top of the tableau file (expected 'players')")
    if data.get("game", "bigsur") != "bigsur":
        raise TableauError(f"this tableau file is for {data.get('game')!r}, not Big Sur")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise TableauError("'players' must be a non-empty list of {\"name\", \"tableau\"} objects")
    out: list[ScoredPlayer] = []
    seen: set[str] = set()
    for i, player in enumerate(players):
        where = f"player {i}"
        if not isinstance(player, Mapping):
            raise TableauError(f"{where}: must be a JSON object with 'name' and 'tableau'")
        name = player.get("name")
        if not isinstance(name, str) or not name.strip():
            raise TableauError(f"{where}: 'name' must be a non-empty string, not {name!r}")
        where = f"player {i} ({name})"
        if name in seen:
            raise TableauError(f"{where}: two players have this name")
        seen.add(name)
        extra = sorted(set(player) - {"name", "tableau", "landmarks"})
        if extra:
            raise TableauError(f"{where}: unknown field {extra[0]!r} (a player has 'name', 'tableau', 'landmarks')")
        cards, tiles = player.get("tableau"), player.get("landmarks", [])
        if not isinstance(cards, list):
            raise TableauError(f"{where}: 'tableau' must be a list of cards, left to right")
        if not isinstance(tiles, list):
            raise TableauError(f"{where}: 'landmarks' must be a list")
        try:
            lines = score_tableau(cards, tiles, catalog=cat)
        except TableauError as exc:
            raise TableauError(f"{where}: {exc}") from None
        out.append(ScoredPlayer(name, tuple(lines)))
    return out
