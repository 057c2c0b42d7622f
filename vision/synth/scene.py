"""What a synthetic scene is made of, and the truth the renderer reports about it.

Table coordinates as everywhere in vision: millimetres, origin at marker 0's centre (the
play area's top-left corner), x towards marker 1, y towards marker 3. Rotations are degrees
clockwise as seen from above (x right, y down), 0 meaning the card's top edge faces y = 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

BACKGROUNDS = ("wood", "cloth", "patterned")
DISTRACTOR_KINDS = ("phone", "hand", "coaster", "foreign card")
PIECE_KINDS = ("car", "monster")
CAR_COLORS: dict[str, tuple[int, int, int]] = {  # BGR
    "red": (40, 40, 210), "blue": (200, 90, 30), "green": (60, 170, 40),
    "yellow": (30, 210, 235), "black": (35, 35, 35), "white": (235, 235, 235),
}
# Every colour a car may be drawn in: also the other seat colours the app offers players. Random
# scenes draw from CAR_COLORS alone, so a seed keeps giving the scenes its figures were measured on.
PIECE_COLORS: dict[str, tuple[int, int, int]] = {**CAR_COLORS, "purple": (150, 50, 130), "orange": (30, 130, 235)}


@dataclass(frozen=True)
class Placement:
    """One card or tile lying on the table. ``face`` overrides the pack's face image; ``size_mm``
    overrides the pack's size for the card. ``skew`` (degrees) shears the card as a bent or badly
    photographed card looks; ``sleeve`` wraps it in a glossy plastic sleeve."""

    card_id: str
    center_mm: tuple[float, float]
    rotation: float = 0.0
    face: np.ndarray | None = field(default=None, repr=False, compare=False)
    size_mm: tuple[float, float] | None = None
    skew: float = 0.0
    sleeve: bool = False
    face_index: int = 0


@dataclass(frozen=True)
class Distractor:
    """Something on the table that is not a card of the pack: a phone, a hand (which may cover
    part of a card), a coaster, a card from another game (``face`` gives its picture, e.g. a
    proxy face of another of our games; without it a generic playing card is drawn)."""

    kind: str
    center_mm: tuple[float, float]
    rotation: float = 0.0
    size_mm: tuple[float, float] | None = None
    face: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Piece:
    """A playing piece standing on the table: a car (small coloured block) or the monster."""

    kind: str
    center_mm: tuple[float, float]
    color: str = "red"
    rotation: float = 0.0
    size_mm: tuple[float, float] | None = None


@dataclass(frozen=True)
class Camera:
    """How the photo is taken. ``view_deg`` is the tilt off vertical (0-20), ``view_dir_deg`` the
    side it leans to; ``distortion`` the radial lens coefficient (barrel < 0 < pincushion, about
    +-0.1); ``light`` the strength of uneven light (0-1); ``shadows`` soft shadows; ``glare`` glare
    spots; ``blur`` defocus sigma in px; ``noise`` sensor noise sigma in grey levels;
    ``jpeg_quality`` None for no JPEG round trip."""

    view_deg: float = 0.0
    view_dir_deg: float = 0.0
    roll_deg: float = 0.0
    distortion: float = 0.0
    light: float = 0.0
    shadows: int = 0
    glare: int = 0
    blur: float = 0.0
    noise: float = 0.0
    jpeg_quality: int | None = None


@dataclass(frozen=True)
class Scene:
    placements: tuple[Placement, ...] = ()
    distractors: tuple[Distractor, ...] = ()
    pieces: tuple[Piece, ...] = ()
    pack: Any = field(default=None, repr=False, compare=False)  # vision.pack.Pack
    table_mm: tuple[float, float] = (1000.0, 700.0)
    marker_mm: float = 40.0
    image_px: tuple[int, int] = (2304, 1296)
    background: str = "wood"
    camera: Camera = Camera()
    hidden_markers: tuple[int, ...] = ()  # markers left off the table (to test their absence)
    #: The margin (mm) of table the camera sees beyond the markers' outer edges.
    margin_mm: float = 60.0
    #: What a scene generator laid out, in the game's own terms (rows per seat, grid cells, ...):
    #: copied to the truth so layout code can be checked against it.
    layout: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class TruthItem:
    id: str
    rotation: float
    center_mm: tuple[float, float]
    size_mm: tuple[float, float]
    occluded: float  # fraction of the card hidden by things above it (0-1)
    corners_mm: tuple[tuple[float, float], ...]  # TL, TR, BR, BL of the face as drawn

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "rotation": self.rotation, "center_mm": list(self.center_mm),
                "size_mm": list(self.size_mm), "occluded": self.occluded,
                "corners_mm": [list(c) for c in self.corners_mm]}


@dataclass(frozen=True)
class TruthObject:
    kind: str
    center_mm: tuple[float, float]
    size_mm: tuple[float, float]
    rotation: float = 0.0
    color: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "center_mm": list(self.center_mm), "size_mm": list(self.size_mm),
                "rotation": self.rotation, "color": self.color}


@dataclass(frozen=True)
class SceneTruth:
    """What is really in the rendered image. ``homography`` maps table mm to image px for an
    ideal lens; :meth:`project` also applies the lens distortion the image was rendered with."""

    items: tuple[TruthItem, ...]
    distractors: tuple[TruthObject, ...]
    pieces: tuple[TruthObject, ...]
    homography: np.ndarray
    image_size: tuple[int, int]  # (width, height) px
    distortion: float = 0.0
    table_mm: tuple[float, float] = (1000.0, 700.0)
    marker_mm: float = 40.0
    layout: dict[str, Any] = field(default_factory=dict)

    def project(self, points_mm: Any) -> np.ndarray:
        """Table mm (N x 2) -> image px (N x 2), lens distortion included."""
        from .camera import distort_points, project

        return distort_points(project(self.homography, points_mm), self.image_size, self.distortion)

    def visible_items(self, max_occluded: float = 0.999) -> tuple[TruthItem, ...]:
        return tuple(i for i in self.items if i.occluded < max_occluded)

    def to_json(self) -> dict[str, Any]:
        return {"items": [i.to_json() for i in self.items],
                "distractors": [d.to_json() for d in self.distractors],
                "pieces": [p.to_json() for p in self.pieces],
                "homography": self.homography.tolist(), "image_size": list(self.image_size),
                "distortion": self.distortion, "table_mm": list(self.table_mm), "marker_mm": self.marker_mm,
                "layout": self.layout}
