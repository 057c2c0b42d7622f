"""Telling look-alike cards apart at the camera's own resolution.

The recogniser compares cards on 64-px templates, where two designs that differ only in a number
or a small symbol (Highwayman's stages of one road, two Big Sur forests that differ in their
material icons) correlate almost as well as each other: it then lists the card as unsure. The
camera sees a card at about 2 px per mm, four times the template's detail. Here the card is cut
from the frame again at 2.5 px/mm and compared with the candidates' own face pictures from the
pack (the two the recogniser named and every look-alike of its reading), only where two designs
differ; the winner must explain those pixels clearly better than each other candidate.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.identify import normalised, upright, upright_crop_map
from vision.pack import read_face

PX_PER_MM = 2.5
SLACK_MM = 4.0  # the cell may be this far off the card each way: the faces are slid to fit
# Where the two designs differ, the winner's squared error must be at most this share of the
# loser's (the recogniser's own check on its templates asks for 0.3 at a quarter of this detail).
CLEAR_RATIO = 0.45
# ... or this share, when every look-alike of the winner is among the candidates (see
# vision.scan.look_alike_verdict): a card outside the candidates can then not be the one there
WIDE_RATIO = 0.6
FIT = 0.6  # the winner's whole face must correlate at least this well with the picture
DIFFER_SHARE = 0.08  # the share of the face's pixels where the designs differ most
MIN_DIFFER_PX = 40
VIVID = 2.5  # the most a picture's colour spread is widened to its face's (see _as_vivid)


@dataclass(frozen=True)
class Verdict:
    """Which of the candidates the picture shows: ``winner`` (None when none is clearly it), its
    turn in degrees from the reading, the worst error ratio against another candidate where their
    designs differ, and its whole-face correlation."""

    winner: str | None
    rotation: float
    ratio: float
    fit: float


def _upright_shape(size_mm: Sequence[float]) -> tuple[int, int]:
    """(height, width) px of a card at PX_PER_MM with its long side vertical."""
    short, long_ = sorted((float(size_mm[0]), float(size_mm[1])))
    return round(long_ * PX_PER_MM), round(short * PX_PER_MM)


def _lab(img: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    return cv2.GaussianBlur(lab, (0, 0), 1.0)


@functools.lru_cache(maxsize=32)
def _face_pixels(path: str, _mtime_ns: int, size_mm: tuple[float, float], turn: int) -> np.ndarray:
    """A face picture upright, turned ``turn`` degrees clockwise, at PX_PER_MM (BGR uint8, about
    100 KB for a Big Sur card, 32 kept: a look-alike read unsure once is usually read again)."""
    h, w = _upright_shape(size_mm)
    face = upright(read_face(Path(path)), size_mm)
    face = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
    if turn:
        face = np.ascontiguousarray(np.rot90(face, k=-(turn // 90)))
    return face


def _face(path: str, size_mm: tuple[float, float], turn: int) -> np.ndarray:
    """:func:`_face_pixels` as Lab float, the space pictures are compared in (read again once the
    file has changed: an owner re-enrolling a card)."""
    return _lab(_face_pixels(path, os.stat(path).st_mtime_ns, size_mm, turn))


def crop(frame: np.ndarray, to_image: np.ndarray, center_mm: Sequence[float], angle_deg: float,
         size_mm: Sequence[float]) -> np.ndarray:
    """The card at ``center_mm`` cut upright from the frame at PX_PER_MM with SLACK_MM each side,
    as Lab float; ``angle_deg`` is the direction of its long axis, clockwise from table "up"."""
    h, w = _upright_shape(size_mm)
    s = round(SLACK_MM * PX_PER_MM)
    ch, cw = h + 2 * s, w + 2 * s
    m = np.asarray(to_image, np.float64) @ upright_crop_map(center_mm, angle_deg, 1 / PX_PER_MM, (cw, ch))
    out = cv2.warpPerspective(frame, m, (cw, ch), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    return _lab(out)


def _placed(picture: np.ndarray, face: np.ndarray) -> tuple[float, np.ndarray]:
    """The face's best correlation with the picture over the slack, and the window it fits."""
    res = cv2.matchTemplate(picture, face, cv2.TM_CCOEFF_NORMED)
    _, best, _, (x, y) = cv2.minMaxLoc(res)
    h, w = face.shape[:2]
    return float(best), picture[y:y + h, x:x + w]


TILT_DEG = (-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0)  # the cell's direction may be this far off the card's
TILT_FINE_DEG = (-1.0, 1.0)


def _aligned(frame: np.ndarray, to_image: np.ndarray, center_mm: Sequence[float], angle_deg: float,
             size_mm: Sequence[float], face: np.ndarray) -> tuple[float, np.ndarray]:
    """The picture of the card cut square to it: a cell's direction comes from its region's
    outline, a few degrees off a card laid by hand (a pile's top card), which at this detail
    smears every edge. The direction the face fits best is found, coarse then fine."""
    best: tuple[float, float, np.ndarray] | None = None
    for tilts in (TILT_DEG, TILT_FINE_DEG):
        base = 0.0 if best is None else best[1]
        for d in tilts:
            picture = crop(frame, to_image, center_mm, angle_deg + base + d, size_mm)
            fit, _ = _placed(picture, face)
            if best is None or fit > best[0]:
                best = (fit, base + d, picture)
    assert best is not None
    return best[1], best[2]


def _ratio(win_a: np.ndarray, face_a: np.ndarray, win_b: np.ndarray, face_b: np.ndarray) -> float | None:
    """How much worse face a explains its window than face b explains its own, over the pixels
    where the two designs differ most: < 1 favours a. None where the designs are the same."""
    na, nb = normalised(face_a), normalised(face_b)
    differ = np.abs(na - nb).sum(axis=2)
    n = max(MIN_DIFFER_PX, round(DIFFER_SHARE * differ.size))
    mask = differ >= np.partition(differ.ravel(), differ.size - n)[differ.size - n]
    if np.count_nonzero(mask) < MIN_DIFFER_PX or float(differ[mask].mean()) < 0.5:
        return None
    err_a = float(((_as_vivid(normalised(win_a), na) - na) ** 2).sum(axis=2)[mask].mean())
    err_b = float(((_as_vivid(normalised(win_b), nb) - nb) ** 2).sum(axis=2)[mask].mean())
    return err_a / max(err_b, 1e-6)


def _as_vivid(win: np.ndarray, face: np.ndarray) -> np.ndarray:
    """The window (normalised) with each colour channel's spread widened to the face's, by up to
    VIVID times (never narrowed). A printed card under a lamp, in a sleeve, shows its colours
    about half as strong as its face picture (each channel's spread 0.47-0.51 of the face's: bench
    seed 9, proxy Roundabout 135), and compared so, the loser's colours missed the picture by
    nearly as much as the winner's: ra-17's IN badge left 0.91 of the error of ra-11's OUT badge
    there (0.43 widened)."""
    out = win.copy()
    for c in (1, 2):
        gain = float(face[:, :, c].std()) / max(float(win[:, :, c].std()), 1e-3)
        out[:, :, c] *= min(max(gain, 1.0), VIVID)
    return out


def tell_apart(frame: np.ndarray, to_image: np.ndarray, center_mm: Sequence[float], angle_deg: float,
               candidates: Mapping[str, Sequence[Path]], size_mm: Sequence[float], turns: Sequence[int],
               *, by_turn: bool = False, clear_ratio: float = CLEAR_RATIO) -> Verdict:
    """Which of some look-alike cards (id -> its face pictures; the recogniser's reading first)
    lies at ``center_mm``, read at ``angle_deg`` (the direction of the upright card, clockwise
    from table "up"), trying each face turned by each of ``turns``. The best-fitting reading wins
    only if, where its design differs from each other candidate's, it explains the picture
    clearly better than that one: a card outside two candidates (hm-bath-4 between hm-bath-1 and
    hm-bath-3) must not make one of them win. With ``by_turn``, each turn of a card is a reading
    of its own: which way round a card lies (a crossroads tile whose roads are the same every
    quarter turn, told by its print). ``clear_ratio`` is the error share the winner must stay
    under (WIDE_RATIO only where the caller knows the card cannot be outside the candidates)."""
    key = (float(size_mm[0]), float(size_mm[1]))
    first = next(iter(candidates.values()), ())
    if not first:
        return Verdict(None, 0.0, 1.0, 0.0)
    _, picture = _aligned(frame, to_image, center_mm, angle_deg, key, _face(str(first[0]), key, 0))
    best: dict[tuple[str, int], tuple[float, int, np.ndarray, np.ndarray]] = {}
    for cid, paths in candidates.items():
        for path in paths:
            for turn in turns:
                face = _face(str(path), key, int(turn) % 360)
                fit, window = _placed(picture, face)
                label = (cid, int(turn) % 360 if by_turn else 0)
                if label not in best or fit > best[label][0]:
                    best[label] = (fit, int(turn) % 360, face, window)
    if len(best) < 2:
        return Verdict(None, 0.0, 1.0, 0.0)
    ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
    (a, _), (fa, ta, face_a, win_a) = ranked[0]
    worst = 0.0
    for _, (_, _, face_b, win_b) in ranked[1:]:
        ratio = _ratio(win_a, face_a, win_b, face_b)
        if ratio is None:
            return Verdict(None, 0.0, 1.0, fa)  # two designs the same where it could tell
        worst = max(worst, ratio)
    if fa >= FIT and worst <= clear_ratio:
        return Verdict(a, float(ta), worst, fa)
    return Verdict(None, 0.0, worst, fa)


def faces_of(pack: Any, card_id: str) -> tuple[Path, ...]:
    """The face pictures of one card of a pack (none for an id the pack does not hold)."""
    for card in getattr(pack, "cards", ()):
        if card.id == card_id:
            return tuple(card.faces)
    return ()
