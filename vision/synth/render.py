"""Rendering a :class:`Scene` to a camera-like BGR image, with the truth about what is where.

Everything is drawn straight into the image: each card's face is scaled once to about the size it
will have on screen and then warped by (table -> image homography) x (face -> table placement)
into its own bounding box only. The table surface is drawn in table millimetres at a low
resolution and warped once. Light, glare, lens distortion, blur, noise and JPEG come last, in the
order a camera applies them.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from ..errors import VisionError
from ..markers import marker_image
from .camera import distort_points, distortion_maps, project, table_homography, undistort_points
from .scene import (
    BACKGROUNDS,
    DISTRACTOR_KINDS,
    PIECE_COLORS,
    PIECE_KINDS,
    Distractor,
    Piece,
    Placement,
    Scene,
    SceneTruth,
    TruthItem,
    TruthObject,
)
from .textures import background, foreign_card, smooth_noise


class SceneError(VisionError):
    """A scene that cannot be rendered (unknown card, bad size, unknown kind)."""


DEFAULT_SIZES = {"phone": (72.0, 150.0), "hand": (95.0, 190.0), "coaster": (95.0, 95.0),
                 "foreign card": (63.0, 88.0), "car": (22.0, 11.0), "monster": (40.0, 40.0)}
PIECE_HEIGHT_MM = {"car": 10.0, "monster": 45.0}

_FACES: OrderedDict[tuple[Any, ...], np.ndarray] = OrderedDict()
_FACES_MAX = 512


def _cached(key: tuple[Any, ...], make: Any) -> np.ndarray:
    hit = _FACES.get(key)
    if hit is None:
        hit = make()
        _FACES[key] = hit
        if len(_FACES) > _FACES_MAX:
            _FACES.popitem(last=False)
    else:
        _FACES.move_to_end(key)
    return hit


def _rot(deg: float) -> np.ndarray:
    r = math.radians(deg)
    c, s = math.cos(r), math.sin(r)
    # y points down, so this standard matrix turns clockwise as seen from above.
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _place(center: Sequence[float], rotation: float, size_mm: Sequence[float], skew: float = 0.0) -> np.ndarray:
    """Unit square centred at 0 ([-0.5, 0.5]^2, the face) -> table mm."""
    shear = np.array([[1, math.tan(math.radians(skew)), 0], [0, 1, 0], [0, 0, 1]])
    scale = np.diag([float(size_mm[0]), float(size_mm[1]), 1.0])
    move = np.array([[1, 0, center[0]], [0, 1, center[1]], [0, 0, 1]])
    return move @ _rot(rotation) @ shear @ scale


_UNIT = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


def _local_scale(h: np.ndarray, point: Sequence[float]) -> float:
    """Image px per table mm around ``point``."""
    p = np.array([[point[0], point[1]], [point[0] + 1, point[1]], [point[0], point[1] + 1]])
    q = project(h, p)
    a, b = q[1] - q[0], q[2] - q[0]
    return float(math.sqrt(abs(a[0] * b[1] - a[1] * b[0])))


class _Canvas:
    """The ideal (undistorted) image being drawn, as float32 BGR."""

    def __init__(self, image: np.ndarray, hom: np.ndarray) -> None:
        self.img = image
        self.hom = hom
        self.h, self.w = image.shape[:2]

    def _roi(self, pts: np.ndarray, pad: int = 2) -> tuple[int, int, int, int] | None:
        x0 = max(0, math.floor(pts[:, 0].min()) - pad)
        y0 = max(0, math.floor(pts[:, 1].min()) - pad)
        x1 = min(self.w, math.ceil(pts[:, 0].max()) + pad + 1)
        y1 = min(self.h, math.ceil(pts[:, 1].max()) + pad + 1)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def paste(self, picture: np.ndarray, unit_to_table: np.ndarray, *, alpha: float = 1.0,
              shadow: float = 0.0, shadow_px: float = 3.0) -> None:
        """Warp ``picture`` (covering the unit square) onto the table, optionally with a shadow."""
        ph, pw = picture.shape[:2]
        pic_to_unit = np.array([[1 / pw, 0, -0.5 + 0.5 / pw], [0, 1 / ph, -0.5 + 0.5 / ph], [0, 0, 1]])
        full = self.hom @ unit_to_table @ pic_to_unit
        corners = project(self.hom @ unit_to_table, _UNIT)
        pad = int(shadow_px * 3) + 2 if shadow else 2
        roi = self._roi(corners, pad)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        m = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ full
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(picture, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        ones = np.full((ph, pw), 255, np.uint8)
        mask = cv2.warpPerspective(ones, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        a = mask.astype(np.float32)[:, :, None] / 255.0
        region = self.img[y0:y1, x0:x1]
        if shadow:
            sh = cv2.GaussianBlur(a, (0, 0), shadow_px)
            if sh.ndim == 2:
                sh = sh[:, :, None]
            shift = np.roll(sh, (int(shadow_px * 0.7), int(shadow_px * 0.5)), axis=(0, 1))
            region *= 1 - shadow * shift
        a *= alpha
        region *= 1 - a
        region += a * warped.astype(np.float32)

    def polygon(self, pts_mm: np.ndarray, color: Sequence[float], *, alpha: float = 1.0, blur: float = 0.0) -> None:
        """A filled table-mm polygon, optionally soft-edged, blended in."""
        pts = project(self.hom, pts_mm)
        pad = int(blur * 3) + 2
        roi = self._roi(pts, pad)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round((pts - (x0, y0)) * 4).astype(np.int32)], 255, lineType=cv2.LINE_AA, shift=2)
        a = mask.astype(np.float32) / 255.0
        if blur:
            a = cv2.GaussianBlur(a, (0, 0), blur)
        a = (a * alpha)[:, :, None]
        region = self.img[y0:y1, x0:x1]
        region *= 1 - a
        region += a * np.array(color, np.float32)


def _ellipse(center: Sequence[float], rx: float, ry: float, rotation: float, n: int = 40) -> np.ndarray:
    t = np.linspace(0, math.tau, n, endpoint=False)
    pts = np.column_stack([rx * np.cos(t), ry * np.sin(t), np.ones(n)])
    m = np.array([[1, 0, center[0]], [0, 1, center[1]], [0, 0, 1]]) @ _rot(rotation)
    return (pts @ m.T)[:, :2]


def _rect(center: Sequence[float], size: Sequence[float], rotation: float) -> np.ndarray:
    return project(_place(center, rotation, size), _UNIT)


def _hand_parts(d: Distractor) -> list[tuple[np.ndarray, float]]:
    """Palm, fingers, thumb and forearm as table-mm polygons (with a shade for each)."""
    w, h = d.size_mm or DEFAULT_SIZES["hand"]
    m = np.array([[1, 0, d.center_mm[0]], [0, 1, d.center_mm[1]], [0, 0, 1]]) @ _rot(d.rotation)

    def tr(pts: np.ndarray) -> np.ndarray:
        return (np.column_stack([pts, np.ones(len(pts))]) @ m.T)[:, :2]

    parts: list[tuple[np.ndarray, float]] = []
    palm_h = h * 0.45
    # forearm from the palm to well beyond (towards +y of the hand's own frame)
    parts.append((tr(np.array([[-w * 0.38, palm_h * 0.3], [w * 0.38, palm_h * 0.3], [w * 0.45, h * 2.5], [-w * 0.45, h * 2.5]])), 0.92))
    t = np.linspace(0, math.tau, 30, endpoint=False)
    parts.append((tr(np.column_stack([w * 0.5 * np.cos(t), palm_h * 0.55 * np.sin(t)])), 1.0))
    fw = w * 0.2
    for k, length in enumerate((0.42, 0.5, 0.47, 0.36)):
        x = -w * 0.36 + k * w * 0.24
        top = -palm_h * 0.35 - h * length
        finger = [[x - fw / 2, -palm_h * 0.2], [x + fw / 2, -palm_h * 0.2], [x + fw / 2, top + fw / 2],
                  [x, top], [x - fw / 2, top + fw / 2]]
        parts.append((tr(np.array(finger)), 0.96 + 0.02 * k))
    parts.append((tr(np.array([[w * 0.4, 0], [w * 0.55, -palm_h * 0.1], [w * 0.85, -palm_h * 0.6],
                               [w * 0.75, -palm_h * 0.75], [w * 0.45, -palm_h * 0.4]])), 0.94))
    return parts


def _face_for(scene: Scene, p: Placement) -> np.ndarray:
    if p.face is not None:
        face = p.face
        if not (isinstance(face, np.ndarray) and face.ndim == 3 and face.shape[2] == 3 and face.dtype == np.uint8):
            raise SceneError(f"placement {p.card_id!r}: face must be a BGR uint8 image")
        return face
    if scene.pack is None:
        raise SceneError(f"placement {p.card_id!r} has no face image and the scene has no pack")
    try:
        card = scene.pack.card(p.card_id)
    except VisionError:
        raise SceneError(f"card {p.card_id!r} is not in the {scene.pack.game} pack") from None
    path = card.faces[p.face_index % len(card.faces)]
    from ..pack import read_face

    return _cached(("file", str(path)), lambda: read_face(path))


def _face_key(scene: Scene, p: Placement, face: np.ndarray) -> tuple[Any, ...]:
    """What identifies a face for the resize cache: the file it came from, or for an image
    handed in directly a digest of a sample of its pixels (two packs may share card ids)."""
    if p.face is None and scene.pack is not None:
        card = scene.pack.card(p.card_id)
        return ("file", str(card.faces[p.face_index % len(card.faces)]))
    sample = np.ascontiguousarray(face[:: max(1, face.shape[0] // 32), :: max(1, face.shape[1] // 32)])
    return ("array", face.shape, hashlib.sha1(sample.tobytes()).hexdigest())


def _size_for(scene: Scene, p: Placement) -> tuple[float, float]:
    if p.size_mm is not None:
        return float(p.size_mm[0]), float(p.size_mm[1])
    if scene.pack is None:
        raise SceneError(f"placement {p.card_id!r} has no size and the scene has no pack")
    return scene.pack.size_of(p.card_id)


def _scaled(face: np.ndarray, key: Any, w_px: float, h_px: float) -> np.ndarray:
    """The face resized (area-averaged) to about its on-screen size: warping a 12 px/mm face
    straight down to 2 px/mm would alias its text into noise a camera never makes."""
    tw, th = max(4, round(w_px)), max(4, round(h_px))
    if tw >= face.shape[1] and th >= face.shape[0]:
        return face
    return _cached(("scaled", key, tw, th), lambda: cv2.resize(face, (tw, th), interpolation=cv2.INTER_AREA))


def _validate(scene: Scene) -> None:
    w, h = scene.table_mm
    if not (50 <= w <= 5000 and 50 <= h <= 5000):
        raise SceneError(f"table size {scene.table_mm} mm is out of range (50 to 5000 mm a side)")
    iw, ih = scene.image_px
    if not (64 <= iw <= 8192 and 64 <= ih <= 8192):
        raise SceneError(f"image size {scene.image_px} px is out of range (64 to 8192 px a side)")
    if scene.background not in BACKGROUNDS:
        raise SceneError(f"unknown background {scene.background!r} (one of {', '.join(BACKGROUNDS)})")
    if not 5 <= scene.marker_mm <= 200:
        raise SceneError(f"marker size {scene.marker_mm} mm is out of range (5 to 200)")
    cam = scene.camera
    if not 0 <= cam.view_deg <= 30:
        raise SceneError(f"camera view {cam.view_deg} degrees off vertical is out of range (0 to 30)")
    if not -0.3 < cam.distortion < 0.3:
        raise SceneError(f"lens distortion {cam.distortion} is out of range (-0.3 to 0.3)")
    if cam.jpeg_quality is not None and not 5 <= cam.jpeg_quality <= 100:
        raise SceneError(f"JPEG quality {cam.jpeg_quality} is out of range (5 to 100)")
    for d in scene.distractors:
        if d.kind not in DISTRACTOR_KINDS:
            raise SceneError(f"unknown distractor {d.kind!r} (one of {', '.join(DISTRACTOR_KINDS)})")
    for pc in scene.pieces:
        if pc.kind not in PIECE_KINDS:
            raise SceneError(f"unknown piece {pc.kind!r} (one of {', '.join(PIECE_KINDS)})")
        if pc.kind == "car" and pc.color not in PIECE_COLORS:
            raise SceneError(f"unknown car colour {pc.color!r} (one of {', '.join(PIECE_COLORS)})")


def _draw_piece(canvas: _Canvas, pc: Piece, centre_px: np.ndarray, cam_height_mm: float, rng: np.random.Generator) -> None:
    size = pc.size_mm or DEFAULT_SIZES[pc.kind]
    foot = _rect(pc.center_mm, size, pc.rotation)
    height = PIECE_HEIGHT_MM[pc.kind]
    canvas.polygon(foot + np.array([3.0, 4.0]), (0, 0, 0), alpha=0.45, blur=3)  # contact shadow
    base_px = project(canvas.hom, foot)
    # Parallax: the top of a block appears pushed away from the image centre.
    top_px = base_px + (base_px - centre_px) * (height / max(cam_height_mm - height, 1.0))
    inv = np.linalg.inv(canvas.hom)
    top_mm = project(inv, top_px)
    color = np.array(PIECE_COLORS.get(pc.color, (120, 40, 140)) if pc.kind == "car" else (110, 40, 150), np.float32)
    hull = cv2.convexHull(np.vstack([foot, top_mm]).astype(np.float32)).reshape(-1, 2)
    canvas.polygon(hull.astype(np.float64), color * 0.6)
    canvas.polygon(top_mm, np.clip(color * 1.1 + 10, 0, 255))
    if pc.kind == "monster":
        c = top_mm.mean(axis=0)
        for dx in (-0.2, 0.2):
            eye = c + _rot(pc.rotation)[:2, :2] @ np.array([dx * size[0], -0.15 * size[1]])
            canvas.polygon(_ellipse(eye, size[0] * 0.1, size[0] * 0.1, 0, 16), (250, 250, 250))
            canvas.polygon(_ellipse(eye, size[0] * 0.05, size[0] * 0.05, 0, 12), (10, 10, 10))


def render_scene(scene: Scene, *, seed: int) -> tuple[np.ndarray, SceneTruth]:
    """The BGR uint8 image of ``scene`` and its :class:`SceneTruth`. Same scene and seed, same image."""
    _validate(scene)
    rng = np.random.default_rng(seed)
    cam = scene.camera
    tw, th = scene.table_mm
    fit = scene.marker_mm * 0.8 + scene.margin_mm
    hom = table_homography(scene.table_mm, scene.image_px, view_deg=cam.view_deg, view_dir_deg=cam.view_dir_deg,
                           roll_deg=cam.roll_deg, fit_mm=fit)
    iw, ih = scene.image_px
    inv = np.linalg.inv(hom)

    # Table surface: drawn in table mm (1 px/mm covers every visible point), warped once.
    corners_img = np.array([[0, 0], [iw, 0], [iw, ih], [0, ih]], np.float64)
    seen = project(inv, undistort_points(corners_img, scene.image_px, cam.distortion))
    lo = np.floor(seen.min(axis=0)) - 20
    hi = np.ceil(seen.max(axis=0)) + 20
    bg_scale = 0.5  # the surface is out of focus detail; half a pixel per mm is plenty
    bw, bh = int((hi[0] - lo[0]) * bg_scale), int((hi[1] - lo[1]) * bg_scale)
    surface = background(scene.background, rng, (bw, bh), bg_scale)
    bg_to_table = np.array([[1 / bg_scale, 0, lo[0]], [0, 1 / bg_scale, lo[1]], [0, 0, 1]])
    ideal = cv2.warpPerspective(surface, hom @ bg_to_table, (iw, ih), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    canvas = _Canvas(ideal, hom)

    # Markers on white paper, square to the table, centres on the play-area corners.
    centres = {0: (0.0, 0.0), 1: (tw, 0.0), 2: (tw, th), 3: (0.0, th)}
    for mid, c in centres.items():
        if mid in scene.hidden_markers:
            continue
        paper = scene.marker_mm * 1.7
        canvas.polygon(_rect((c[0] + 1.5, c[1] + 2), (paper, paper), 0), (0, 0, 0), alpha=0.35, blur=3)
        canvas.polygon(_rect(c, (paper, paper), 0), (238, 238, 236))
        s = _local_scale(hom, c) * scene.marker_mm
        img = marker_image(mid, 6 * max(2, math.ceil(s / 6) * 2))
        img = cv2.resize(img, (max(6, round(s)), max(6, round(s))), interpolation=cv2.INTER_AREA)
        canvas.paste(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), _place(c, 0, (scene.marker_mm, scene.marker_mm)))

    # Cards in order (later ones on top), then pieces, then distractors (a hand above all).
    items_poly: list[np.ndarray] = []
    truth_items: list[TruthItem] = []
    for p in scene.placements:
        face = _face_for(scene, p)
        w_mm, h_mm = _size_for(scene, p)
        if not (0 < w_mm <= 1000 and 0 < h_mm <= 1000):
            raise SceneError(f"placement {p.card_id!r}: size {w_mm} x {h_mm} mm is out of range")
        # Bucketed so the resized-face cache is reused across scenes and positions.
        s = round(_local_scale(hom, p.center_mm) * 5) / 5
        key = _face_key(scene, p, face)
        pic = _scaled(face, key, w_mm * s * 1.5, h_mm * s * 1.5)
        unit = _place(p.center_mm, p.rotation, (w_mm, h_mm), p.skew)
        if p.sleeve:
            sleeve = _place(p.center_mm, p.rotation, (w_mm + 4, h_mm + 4), p.skew)
            canvas.paste(np.full((8, 8, 3), 230, np.uint8), sleeve, alpha=0.35, shadow=0.35, shadow_px=max(1.5, s))
            canvas.paste(pic, unit)
            gloss = np.linspace(0, 255, 32, dtype=np.float32)
            sheen = np.clip(np.abs(gloss[None, :] - gloss[:, None]) < 40, 0, 1).astype(np.uint8) * 255
            canvas.paste(cv2.merge([sheen, sheen, sheen]), sleeve, alpha=0.12)
        else:
            canvas.paste(pic, unit, shadow=0.3, shadow_px=max(1.0, 0.8 * s))
        corners = project(unit, _UNIT)
        # Cards laid edge to edge share an edge, which must not count as covering each other.
        items_poly.append(project(_place(p.center_mm, p.rotation, (max(w_mm - 1, 0.5), max(h_mm - 1, 0.5)), p.skew), _UNIT))
        truth_items.append(TruthItem(p.card_id, float(p.rotation % 360), (float(p.center_mm[0]), float(p.center_mm[1])),
                                     (w_mm, h_mm), 0.0, tuple((float(x), float(y)) for x, y in corners)))

    occluders: list[np.ndarray] = []
    truth_pieces: list[TruthObject] = []
    centre_px = np.array([iw / 2, ih / 2])
    cam_height = 1.6 * max(tw, th)
    for pc in scene.pieces:
        _draw_piece(canvas, pc, centre_px, cam_height, rng)
        size = pc.size_mm or DEFAULT_SIZES[pc.kind]
        occluders.append(_rect(pc.center_mm, size, pc.rotation))
        truth_pieces.append(TruthObject(pc.kind, pc.center_mm, (float(size[0]), float(size[1])), pc.rotation,
                                        pc.color if pc.kind == "car" else None))

    truth_distractors: list[TruthObject] = []
    for d in scene.distractors:
        size = d.size_mm or DEFAULT_SIZES[d.kind]
        if d.kind == "phone":
            body = _rect(d.center_mm, size, d.rotation)
            canvas.polygon(body + np.array([4.0, 5.0]), (0, 0, 0), alpha=0.4, blur=4)
            canvas.polygon(body, (25, 25, 30))
            screen = np.zeros((64, 32, 3), np.uint8)
            screen[:] = rng.uniform(20, 120, 3)
            for _ in range(12):
                x, y = int(rng.integers(2, 26)), int(rng.integers(4, 56))
                screen[y:y + 5, x:x + 5] = rng.uniform(60, 255, 3)
            canvas.paste(screen, _place(d.center_mm, d.rotation, (size[0] * 0.88, size[1] * 0.82)))
            occluders.append(body)
        elif d.kind == "coaster":
            disc = _ellipse(d.center_mm, size[0] / 2, size[1] / 2, d.rotation, 64)
            canvas.polygon(disc + np.array([3.0, 4.0]), (0, 0, 0), alpha=0.35, blur=4)
            cork = np.clip(rng.uniform(110, 170) + 25 * smooth_noise(rng, (48, 48), 3)[:, :, None]
                           * np.ones(3), 0, 255).astype(np.uint8)
            cork[:, :, 0] = (cork[:, :, 0] * 0.55).astype(np.uint8)
            cork[:, :, 1] = (cork[:, :, 1] * 0.8).astype(np.uint8)
            tone = cork.reshape(-1, 3).mean(axis=0)
            canvas.polygon(disc, tone)
            canvas.polygon(_ellipse(d.center_mm, size[0] * 0.38, size[1] * 0.38, d.rotation, 48), tone * 0.8)
            canvas.polygon(_ellipse(d.center_mm, size[0] * 0.34, size[1] * 0.34, d.rotation, 48), tone)
            occluders.append(disc)
        elif d.kind == "foreign card":
            fw, fh = size
            face = d.face if d.face is not None else foreign_card(rng, (int(fw * 4), int(fh * 4)))
            unit = _place(d.center_mm, d.rotation, size)
            canvas.paste(face, unit, shadow=0.3, shadow_px=2)
            occluders.append(project(unit, _UNIT))
        else:  # hand
            tone = rng.uniform(0, 1)
            skin = np.array((60, 85, 130), np.float32) * (1 - tone) + np.array((165, 190, 235), np.float32) * tone
            parts = _hand_parts(d)
            for poly, _ in parts:
                canvas.polygon(poly + np.array([10.0, 14.0]), (0, 0, 0), alpha=0.3, blur=10)
            for poly, shade in parts:
                canvas.polygon(poly, skin * shade, blur=0.6)
                occluders.append(poly)
        truth_distractors.append(TruthObject(d.kind, d.center_mm, (float(size[0]), float(size[1])), d.rotation))

    truth_items = _occlusion(truth_items, items_poly, occluders)

    image = _camera_effects(canvas.img, scene, rng)
    truth = SceneTruth(tuple(truth_items), tuple(truth_distractors), tuple(truth_pieces), hom,
                       (iw, ih), float(cam.distortion), (float(tw), float(th)), float(scene.marker_mm),
                       dict(scene.layout))
    return image, truth


def _occlusion(items: list[TruthItem], polys: list[np.ndarray], occluders: list[np.ndarray]) -> list[TruthItem]:
    """Each card's hidden fraction: later cards, pieces and distractors lie on top of it."""
    if not items:
        return items
    every = np.vstack(polys + occluders)
    lo = np.floor(every.min(axis=0)) - 2
    hi = np.ceil(every.max(axis=0)) + 2
    scale = 2.0  # px per mm
    w, h = int((hi[0] - lo[0]) * scale) + 1, int((hi[1] - lo[1]) * scale) + 1
    above = np.zeros((h, w), np.uint8)

    def fill(target: np.ndarray, poly: np.ndarray) -> None:
        cv2.fillPoly(target, [np.round((poly - lo) * scale * 4).astype(np.int32)], 1, shift=2)

    for poly in occluders:
        fill(above, poly)
    polys = [*polys]
    out: list[TruthItem] = [items[0]] * len(items)
    for k in range(len(items) - 1, -1, -1):
        poly = polys[k]
        x0, y0 = (np.floor((poly.min(axis=0) - lo) * scale)).astype(int)
        x1, y1 = (np.ceil((poly.max(axis=0) - lo) * scale)).astype(int) + 1
        mine = np.zeros((h, w), np.uint8)
        fill(mine, poly)
        sub = mine[y0:y1, x0:x1]
        area = int(sub.sum())
        hidden = int((sub & above[y0:y1, x0:x1]).sum())
        it = items[k]
        out[k] = TruthItem(it.id, it.rotation, it.center_mm, it.size_mm, round(hidden / area, 4) if area else 1.0,
                           it.corners_mm)
        above[y0:y1, x0:x1] |= sub
    return out


def _to_u8(img: np.ndarray) -> np.ndarray:
    """float32 -> uint8 with saturation, in OpenCV's vector loops (numpy's clip is 10x slower)."""
    return cv2.convertScaleAbs(cv2.max(img, 0.0))


_NOISE: dict[tuple[int, int], np.ndarray] = {}


def _noise_field(ih: int, iw: int) -> np.ndarray:
    """Unit Gaussian sensor noise, made once per image size; each scene crops it at a random
    offset, which is as good as fresh noise for a recogniser and many times cheaper."""
    key = (ih, iw)
    if key not in _NOISE:
        _NOISE.clear()
        _NOISE[key] = np.random.default_rng(12345).standard_normal((ih + 64, iw + 64, 3), dtype=np.float32)
    return _NOISE[key]


def _camera_effects(ideal: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    cam = scene.camera
    ih, iw = ideal.shape[:2]
    img = ideal
    if cam.light > 0 or cam.shadows > 0:
        small = (max(8, iw // 16), max(8, ih // 16))
        yy, xx = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
        ang = rng.uniform(0, math.tau)
        ramp = (np.cos(ang) * (xx / small[0] - 0.5) + np.sin(ang) * (yy / small[1] - 0.5))
        vignette = ((xx / small[0] - 0.5) ** 2 + (yy / small[1] - 0.5) ** 2)
        gain = 1 + cam.light * (0.5 * ramp - 0.6 * vignette + 0.12 * smooth_noise(rng, (small[1], small[0]), 12))
        for _ in range(cam.shadows):
            shade = np.zeros((small[1], small[0]), np.float32)
            c = rng.uniform([0, 0], small)
            axes = rng.uniform(0.1, 0.35) * np.array(small)
            cv2.ellipse(shade, (int(c[0]), int(c[1])), (int(axes[0]), int(axes[1])), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
            shade = cv2.GaussianBlur(shade, (0, 0), max(1.0, small[0] / 40))
            gain *= 1 - rng.uniform(0.25, 0.5) * shade
        gain_full = cv2.resize(gain, (iw, ih), interpolation=cv2.INTER_LINEAR)
        img = img * gain_full[:, :, None]
    for _ in range(cam.glare):
        c = rng.uniform([0, 0], [iw, ih])
        r = rng.uniform(0.015, 0.05) * iw
        x0, y0 = int(max(0, c[0] - 3 * r)), int(max(0, c[1] - 3 * r))
        x1, y1 = int(min(iw, c[0] + 3 * r)), int(min(ih, c[1] + 3 * r))
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        spot = np.exp(-(((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * r * r)))
        img[y0:y1, x0:x1] += (rng.uniform(120, 230) * spot)[:, :, None]
    out = _to_u8(img)
    if cam.distortion:
        mx, my = distortion_maps((iw, ih), cam.distortion)
        out = cv2.remap(out, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    if cam.blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), cam.blur)
    if cam.noise > 0:
        field = _noise_field(ih, iw)
        oy, ox = int(rng.integers(0, 64)), int(rng.integers(0, 64))
        noise = field[oy:oy + ih, ox:ox + iw] * np.float32(cam.noise)
        out = cv2.add(out, noise, dtype=cv2.CV_8U)  # saturating
    if cam.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(cam.jpeg_quality)])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


__all__ = ["SceneError", "distort_points", "render_scene"]
