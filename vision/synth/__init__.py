"""Synthetic table scenes with known truth: for tests, ``bench/vision.py`` and the app's demo.

``render_scene(scene, seed=...)`` draws a :class:`Scene` as an overhead camera would see it and
returns ``(BGR image, SceneTruth)``; ``random_scene(game, pack, rng, difficulty)`` lays out a
realistic game position; ``photo_like_pack(game, seed)`` makes an appearance-only pack.
"""

from .layouts import SEAT_ROTATION, SEATS, build_up, random_camera, random_scene
from .photo import photo_like_pack
from .render import SceneError, render_scene
from .scene import (
    BACKGROUNDS,
    CAR_COLORS,
    DISTRACTOR_KINDS,
    PIECE_COLORS,
    Camera,
    Distractor,
    Piece,
    Placement,
    Scene,
    SceneTruth,
    TruthItem,
    TruthObject,
)

__all__ = [
    "BACKGROUNDS",
    "CAR_COLORS",
    "DISTRACTOR_KINDS",
    "PIECE_COLORS",
    "SEATS",
    "SEAT_ROTATION",
    "Camera",
    "Distractor",
    "Piece",
    "Placement",
    "Scene",
    "SceneError",
    "SceneTruth",
    "TruthItem",
    "TruthObject",
    "build_up",
    "photo_like_pack",
    "random_camera",
    "random_scene",
    "render_scene",
]
