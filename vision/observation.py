"""What one scan of the table saw: value types that the session and the app consume.

Everything is in table millimetres (origin at marker 0's centre, x towards marker 1, y towards
marker 3) and rotations are degrees clockwise in table coordinates, so nothing downstream needs to
know about pixels or the camera.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Point = tuple[float, float]


def _pt(p: Point, nd: int = 1) -> list[float]:
    return [round(float(p[0]), nd), round(float(p[1]), nd)]


@dataclass(frozen=True)
class TableSpec:
    """The play area: where the four markers' centres lie, and who sits on which edge."""

    width_mm: float = 1000.0
    height_mm: float = 700.0
    marker_mm: float = 40.0
    seats: tuple[str, ...] = ("south", "west", "north", "east")

    def __post_init__(self) -> None:
        from vision.errors import VisionError

        for name in ("width_mm", "height_mm", "marker_mm"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not value > 0 or value != value:
                raise VisionError(f"table {name} must be a positive number of millimetres, not {value!r}")
        if self.marker_mm * 2 >= min(self.width_mm, self.height_mm):
            raise VisionError(f"table markers of {self.marker_mm} mm do not fit a {self.width_mm}x{self.height_mm} mm play area")
        known = {"south", "east", "north", "west"}
        if not self.seats or any(s not in known for s in self.seats) or len(set(self.seats)) != len(self.seats):
            raise VisionError(f"table seats must be distinct edges among south, east, north, west, not {self.seats!r}")

    @classmethod
    def for_players(cls, n: int, **kwargs: Any) -> TableSpec:
        """The default seating for n players: south first, then clockwise round the table."""
        return cls(seats=("south", "west", "north", "east")[: max(1, min(4, n))], **kwargs)


@dataclass(frozen=True)
class Item:
    """A card or tile recognised from the pack."""

    id: str
    rotation: float
    center_mm: Point
    size_mm: Point
    confidence: float
    corners_mm: tuple[Point, Point, Point, Point]
    kind: str = ""
    # Rotations that look identical for this face (e.g. a straight road is the same at 0 and 180),
    # so a consumer knows the reported rotation is one of several equivalent ones.
    symmetry: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rotation": round(float(self.rotation), 1),
            "center_mm": _pt(self.center_mm),
            "size_mm": _pt(self.size_mm),
            "confidence": round(float(self.confidence), 3),
            "corners_mm": [_pt(c) for c in self.corners_mm],
            "kind": self.kind,
            "symmetry": self.symmetry,
        }


@dataclass(frozen=True)
class Unknown:
    """Something on the play area that is not a card of the pack (a phone, a hand, a foreign card)."""

    center_mm: Point
    size_mm: Point
    reason: str = ""
    rotation: float = 0.0  # degrees clockwise of the size's first side from table x

    def corners_mm(self) -> np.ndarray:
        """Its box's corners (4 x 2 mm), clockwise from the first side's start."""
        a = np.radians(self.rotation)
        ex = np.array([np.cos(a), np.sin(a)]) * self.size_mm[0] / 2
        ey = np.array([-np.sin(a), np.cos(a)]) * self.size_mm[1] / 2
        c = np.asarray(self.center_mm, np.float64)
        return np.array([c - ex - ey, c + ex - ey, c + ex + ey, c - ex + ey])

    def to_json(self) -> dict[str, Any]:
        return {"center_mm": _pt(self.center_mm), "size_mm": _pt(self.size_mm), "reason": self.reason,
                "rotation": round(float(self.rotation), 1)}


# the reason of an unknown place a lamp's glare drove to white in good part (vision.scan)
GLARE = "a lamp's glare: what lies here cannot be seen"
# ... and of one that is mostly the colour of an arm reaching onto the table (vision.hand)
ARM = "a hand or an arm: what lies under it cannot be seen"
# the reasons that name what hides a place rather than a thing lying there: not counted unknown
HIDING = (GLARE, ARM)
# unknown places of one kind this near each other (mm) are one thing to the players: the scan leaves
# gaps of up to about a centimetre between the places it cuts one region into
TOUCH_MM = 12.0
# an unknown place that overlaps a place of an arm this much (mm, across each of their sides: not
# only touching it) is hidden by it: the scan cut the row under an arm into places read as no card,
# drawn as "?" outlines crossing the arm's own (bench seed 9, proxy Big Sur 12), where the players
# can only lift the arm and look. (Not a lamp's glare: it washes out, it does not cover; a foreign
# card half in a spot's white is still a thing to show, bench seed 9 proxy Highways & Byways 262.)
HIDDEN_OVERLAP_MM = 5.0


def _apart(a: np.ndarray, b: np.ndarray, gap: float) -> bool:
    """Whether two convex outlines (k x 2 mm) lie more than ``gap`` apart along one of their
    sides' normals (the separating-axis test, with a margin)."""
    for poly in (a, b):
        for p, q in zip(poly, np.roll(poly, -1, axis=0), strict=True):
            n = np.array([q[1] - p[1], p[0] - q[0]])
            length = float(np.hypot(*n))
            if length == 0.0:
                continue
            pa, pb = a @ n / length, b @ n / length
            if pb.min() - pa.max() > gap or pa.min() - pb.max() > gap:
                return True
    return False


def unknown_things(unknowns: Sequence[Unknown], touch_mm: float = TOUCH_MM) -> list[list[Unknown]]:
    """The unknown places grouped into the things a player sees on the table: places of one kind
    (a lamp's glare, an arm, anything else) that overlap or lie within ``touch_mm`` of each
    other, in chains, are one thing. The scan cuts what it cannot read into card-sized places,
    so a coaster or an arm over a board is a dozen of them; the players are shown, and told of,
    one. A thing of other places that overlaps an arm's places (HIDDEN_OVERLAP_MM) is part of
    what the arm hides (of the arm it overlaps in most pairs of places; see hidden_by).
    Groups in the order of their first place, places in their given order."""
    kinds = [u.reason if u.reason in HIDING else "" for u in unknowns]
    corners = [u.corners_mm() for u in unknowns]
    root = list(range(len(unknowns)))

    def top(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    for i in range(len(unknowns)):
        for j in range(i + 1, len(unknowns)):
            if kinds[i] == kinds[j] and top(i) != top(j) and not _apart(corners[i], corners[j], touch_mm):
                root[max(top(i), top(j))] = min(top(i), top(j))
    overlaps: dict[int, dict[int, int]] = {}  # other thing -> arm -> pairs of places overlapping
    for i in range(len(unknowns)):
        for j in range(len(unknowns)):
            if not kinds[i] and kinds[j] == ARM and not _apart(corners[i], corners[j], -HIDDEN_OVERLAP_MM):
                by = overlaps.setdefault(top(i), {})
                by[top(j)] = by.get(top(j), 0) + 1
    for other, by in overlaps.items():
        root[other] = max(by, key=lambda a: (by[a], -a))  # (both are tops: an arm joins nothing)
    groups: dict[int, list[Unknown]] = {}
    for i, u in enumerate(unknowns):
        groups.setdefault(top(i), []).append(u)
    return list(groups.values())


def hidden_by(thing: Sequence[Unknown]) -> str:
    """What hides a thing of unknown_things (GLARE or ARM, the reason of one of its places), or ""
    for a thing lying on the table."""
    return next((u.reason for u in thing if u.reason in HIDING), "")


@dataclass
class Observation:
    """The result of `vision.scan`: items, unknowns, the game's layout and how sure we are."""

    game: str
    items: list[Item] = field(default_factory=list)
    unknowns: list[Unknown] = field(default_factory=list)
    layout: dict[str, Any] = field(default_factory=dict)
    reprojection_error_px: float = 0.0
    warnings: list[str] = field(default_factory=list)
    unsure: list[Item] = field(default_factory=list)
    # The calibration this scan used: pass it to the next scan (cheap re-check) and to the overlay.
    calibration: Any = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "items": [i.to_json() for i in self.items],
            "unknowns": [u.to_json() for u in self.unknowns],
            "layout": self.layout,
            "reprojection_error_px": round(float(self.reprojection_error_px), 3),
            "warnings": list(self.warnings),
            "unsure": [i.to_json() for i in self.unsure],
        }
