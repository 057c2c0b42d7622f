"""Which card is this? Appearance-only identification against a deck pack, with rejection.

Nothing is printed on the cards for us, so a card is recognised by how its face looks:

1. a coarse descriptor (a mean/contrast-normalised Lab thumbnail plus a signed gradient-orientation
   histogram per cell) shortlists a few (card, rotation) candidates with one matrix product;
2. each shortlisted face is then compared to the card's crop by normalised cross-correlation
   (cv2.matchTemplate over a few pixels of slack, so a card found a few mm off still lines up).

The best correlation must clear a threshold (otherwise the thing is *unknown*: a phone, a coaster,
a card from another game) and beat the best *different* answer by a margin (otherwise it is
*unsure*). A face that looks the same turned by 180 or 90 degrees (a straight road) is recorded as
symmetric, so its equivalent rotations do not compete with each other.

Learning a pack renders every face in every rotation it can lie in (four for square tiles, two
for rectangular cards: they lie either way up and look different each way) plus a few jittered
copies for the shortlist; it takes well under a second per 100 faces and is cached under
$COMPANION_CACHE/vision-index keyed by the hash of the pack's contents.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError
from vision.kept import trim

INDEX_VERSION = 5
FINE_LONG = 64  # px along a card's long side in the fine template
SLACK = 4  # px of search slack each side in the fine comparison (about 5 mm on a Big Sur card)
SHORTLIST = 6
CLEAR_SCORE = 0.85  # a first look this good and this far ahead needs no further candidates
CLEAR_MARGIN = 0.25
# Thresholds on the fine correlation, set from rendered scenes (bench/vision.py): pack cards in
# scenes with noise, blur, glare and uneven light score above ~0.75; other objects below ~0.5.
ACCEPT = 0.62
REJECT = 0.45
MARGIN = 0.08
DIFFER_RATIO = 0.3  # where two designs differ, the right one must fit about 3x better
QUARTER = 0.2  # every textured quarter of a sure match must correlate at least this well ...
QUARTER_CHECKED = 0.8  # ... when the whole face correlates less than this (one bad quarter of four
# cannot leave a higher score)
FLAT_SIGMA = 3.0  # px of the fine template (see flattened)
SYMMETRIC = 0.93  # a face whose turned copy correlates this well with itself is symmetric


class IndexError_(VisionError):
    """A learned index that cannot be built or read (a pack without faces, a corrupt cache)."""


class CropError(VisionError):
    """A crop handed to match_crop that cannot be compared with the size class's templates."""


@dataclass(frozen=True)
class Reference:
    """One face the recogniser learns: a pack card (id), its physical size and one face picture."""

    id: str
    size_mm: tuple[float, float]
    face: np.ndarray = field(repr=False)
    kind: str = ""
    #: the ways round it lies that the game cannot tell apart (the catalog's ``turns``: 4 for a
    #: crossroads, 2 for a straight road): its face turned so counts as the same reading however
    #: its picture looks, so those turns never compete with each other
    turns: int = 1


def size_key(size_mm: Sequence[float]) -> tuple[float, float]:
    """Cards of one physical size share templates: the key is (short side, long side) in mm."""
    a, b = float(size_mm[0]), float(size_mm[1])
    return (round(min(a, b), 1), round(max(a, b), 1))


def fine_shape(key: tuple[float, float]) -> tuple[int, int]:
    """(height, width) of the upright fine template for a size class: long side vertical."""
    short, long_ = key
    return FINE_LONG, max(8, round(FINE_LONG * short / long_))


def is_square(key: tuple[float, float]) -> bool:
    return abs(key[0] - key[1]) <= 0.08 * key[1]


def rotations_for(key: tuple[float, float]) -> tuple[int, ...]:
    return (0, 90, 180, 270) if is_square(key) else (0, 180)


def _turn(img: np.ndarray, degrees_cw: int) -> np.ndarray:
    return np.ascontiguousarray(np.rot90(img, k=-(degrees_cw // 90)))


def upright(face: np.ndarray, size_mm: Sequence[float]) -> np.ndarray:
    """The face with its long side vertical (a landscape card is stored turned a quarter)."""
    w, h = float(size_mm[0]), float(size_mm[1])
    if w > h * 1.08:
        return _turn(face, 270)
    return face


def _prep(img: np.ndarray) -> np.ndarray:
    """Float Lab with a light blur: the common space for templates and crops."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    return cv2.GaussianBlur(lab, (0, 0), 0.8)


def flattened(img: np.ndarray) -> np.ndarray:
    """A prepared picture (Lab float) with its lightness less its own blur (FLAT_SIGMA px), its
    colour as it was: what a plastic sleeve's sheen leaves alone inside its band, where the light it
    adds (+12 % towards white across a third of the card) is even."""
    out = np.array(img, np.float32, copy=True)
    out[:, :, 0] -= cv2.GaussianBlur(out[:, :, 0], (0, 0), FLAT_SIGMA)
    return out


def coarse_descriptor(fine: np.ndarray) -> np.ndarray:
    """A unit vector describing an upright fine crop (Lab float): colour layout + gradients."""
    h, w = fine.shape[:2]
    thumb = cv2.resize(fine, (max(4, w // 6), max(4, h // 6)), interpolation=cv2.INTER_AREA)
    t = thumb.reshape(-1, 3)
    t = (t - t.mean(axis=0)) / (t.std() + 1e-3)
    gray = np.ascontiguousarray(fine[:, :, 0])
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) + np.pi) * (8 / (2 * np.pi))
    bins = np.minimum(ang.astype(np.int32), 7)
    cells = _hist_cells(h, w)
    sums = np.bincount((cells + bins).ravel(), weights=mag.ravel(), minlength=_CELLS_Y * _CELLS_X * 8)
    hist = np.sqrt(sums.astype(np.float32))
    hist = hist / (np.linalg.norm(hist) + 1e-6)
    colour = t.ravel() / (np.linalg.norm(t) + 1e-6)
    d = np.concatenate([colour, hist])
    unit: np.ndarray = (d / (np.linalg.norm(d) + 1e-6)).astype(np.float32)
    return unit


_CELLS_Y, _CELLS_X = 4, 3
_HIST_CELLS: dict[tuple[int, int], np.ndarray] = {}


def _hist_cells(h: int, w: int) -> np.ndarray:
    """For each pixel of an h x w crop, 8 x the index of its gradient-histogram cell."""
    cells = _HIST_CELLS.get((h, w))
    if cells is None:
        ys = np.minimum(np.arange(h) * _CELLS_Y // h, _CELLS_Y - 1)
        xs = np.minimum(np.arange(w) * _CELLS_X // w, _CELLS_X - 1)
        cells = ((ys[:, None] * _CELLS_X + xs[None, :]) * 8).astype(np.int32)
        _HIST_CELLS[(h, w)] = cells
    return cells


def _fine_from_face(face: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    return _prep(cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA))


def _learning_face(face: np.ndarray, size_mm: Sequence[float]) -> np.ndarray:
    """A face upright and shrunk for learning: every template and jittered copy is far smaller
    than a printable face, so it is shrunk once to a few times the template size (learning 100
    cards then takes a second, and the print-resolution picture can go at once)."""
    face = upright(face, size_mm)
    fh, fw = face.shape[:2]
    k = min(1.0, 4 * FINE_LONG / max(fh, fw))
    if k < 1.0:
        face = cv2.resize(face, (max(8, round(fw * k)), max(8, round(fh * k))), interpolation=cv2.INTER_AREA)
    return face


def _jitter(big: np.ndarray, shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A fine crop of a face (given at twice the fine size) as a camera might deliver it: a little
    off, turned a degree or two, lit unevenly, noisy."""
    h, w = shape
    ang = rng.uniform(-3, 3)
    scale = rng.uniform(0.96, 1.04) * 0.5
    m: np.ndarray = cv2.getRotationMatrix2D((w, h), ang, scale)
    m[:, 2] += np.array([w / 2 - w, h / 2 - h]) + rng.uniform(-0.05, 0.05, 2) * (w, h)
    small: np.ndarray = cv2.warpAffine(big, m, (w, h), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    gain = rng.uniform(0.7, 1.2) + np.linspace(-0.15, 0.15, h, dtype=np.float32)[:, None, None] * rng.uniform(-1, 1)
    small = np.clip(small * gain + rng.normal(0, 4, small.shape).astype(np.float32), 0, 255)
    return _prep(small.astype(np.uint8))


@dataclass
class SizeClass:
    """Every template of one physical card size."""

    key: tuple[float, float]
    entry_id: list[str]  # one entry per (card face, rotation)
    entry_rot: np.ndarray  # degrees clockwise
    entry_sym: np.ndarray  # symmetry order of the face (1, 2 or 4)
    fine: np.ndarray  # (entries, h, w, 3) float32 Lab templates
    desc: np.ndarray  # (rows, D) coarse descriptors, several rows per entry
    desc_entry: np.ndarray  # (rows,) which entry each descriptor row belongs to
    # (entries, TWINS) other entries whose template looks almost the same (-1 = none): they are
    # always compared, even when the coarse shortlist leaves them out
    twins: np.ndarray | None = None
    _templates: _Templates | None = field(default=None, init=False, repr=False, compare=False)
    _flat_templates: _Templates | None = field(default=None, init=False, repr=False, compare=False)
    _flat_fine: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    def flat_fine(self) -> np.ndarray:
        """The fine templates with their lightness flattened (see flattened; built on first use)."""
        if self._flat_fine is None:
            self._flat_fine = np.stack([flattened(f) for f in self.fine]) if len(self.fine) else self.fine
        return self._flat_fine

    def templates(self, flat: bool = False) -> _Templates:
        """The fine templates laid out for correlating many at once (built on first use); with
        `flat`, of the templates with their lightness flattened (see flattened)."""
        if flat:
            if self._flat_templates is None:
                self._flat_templates = _Templates(self.flat_fine(), self.desc_entry, len(self.entry_id))
            return self._flat_templates
        if self._templates is None:
            self._templates = _Templates(self.fine, self.desc_entry, len(self.entry_id))
        return self._templates


class _Templates:
    """A size class's fine templates ready for correlating many against one crop: each template
    minus its per-channel mean, its spectrum (per channel, padded to the crop's size) and the norm
    cv2.matchTemplate(TM_CCOEFF_NORMED) divides by. The crop's own window sums and spectrum are
    then computed once per crop (_CropWindows) instead of once per template."""

    def __init__(self, fine: np.ndarray, desc_entry: np.ndarray, entries: int) -> None:
        self.fine = fine  # the size class's own array, not a copy
        n = fine.shape[1] * fine.shape[2]
        # the sum of the channels' variances, a few templates at a time (no whole float64 copy)
        spread = np.concatenate([(c * c).sum(axis=(1, 2, 3)) / n for c in _centred_chunks(fine)])
        self.norm = np.sqrt(spread * n)  # (entries,) float64
        self.sums = fine.reshape(len(fine), n, 3).sum(axis=1, dtype=np.float64)  # (entries, 3)
        # a template of one flat colour matches anything (as in OpenCV)
        self.flat_face = spread < np.finfo(np.float64).eps
        self._spectra: dict[tuple[int, int], _Spectra] = {}
        de = np.asarray(desc_entry)
        starts = np.flatnonzero(np.r_[True, de[1:] != de[:-1]]) if len(de) else np.zeros(0, np.intp)
        grouped = len(starts) == entries and np.array_equal(de[starts], np.arange(entries))
        # the first descriptor row of each entry, when rows are grouped by entry (as learn() does)
        self.starts = starts if grouped else None

    def spectra(self, shape: tuple[int, int]) -> _Spectra:
        """The templates' spectra for crops of this (height, width) (worked out once)."""
        out: _Spectra | None = self._spectra.get(shape)
        if out is None:
            out = _Spectra(self.fine, shape)
            self._spectra[shape] = out
        return out

    def ncc(self, a: int, b: int) -> float:
        """The correlation of two templates with each other (as _ncc of the two fine faces)."""
        n = int(self.fine.shape[1] * self.fine.shape[2])
        # the sum over the channels of (a - mean a)(b - mean b), without centring either copy
        dot = float(np.dot(self.fine[a].ravel().astype(np.float64), self.fine[b].ravel().astype(np.float64)))
        cross = dot - float(np.dot(self.sums[a], self.sums[b])) / n
        return cross / (float(self.norm[a] * self.norm[b]) + 1e-6)

    def best_per_entry(self, sims: np.ndarray, desc_entry: np.ndarray, entries: int) -> np.ndarray:
        if self.starts is not None:
            return np.maximum.reduceat(sims, self.starts).astype(np.float32)
        best = np.full(entries, -2.0, np.float32)
        np.maximum.at(best, desc_entry, sims)
        return best


def _centred(fine: np.ndarray) -> np.ndarray:
    """Templates (entries, h, w, 3) in float64, each channel of each less its mean."""
    f64 = fine.astype(np.float64)
    centred: np.ndarray = f64 - f64.mean(axis=(1, 2), keepdims=True)
    return centred


def _centred_chunks(fine: np.ndarray, size: int = 32) -> Iterator[np.ndarray]:
    for k in range(0, len(fine), size):
        yield _centred(fine[k:k + size])


class _Spectra:
    """Every template's spectrum for crops of one size, and what turns a product of spectra back
    into the few correlations wanted (the search slack) without a whole inverse transform each.

    The correlation of a crop with a template is the inverse transform of the crop's spectrum
    times the conjugate of the template's (zero-padded to the crop's size; no wrap-around reaches
    the placements wanted). Only (slack + 1)^2 placements are wanted, so the inverse is two small
    matrix products over all the templates at once."""

    def __init__(self, fine: np.ndarray, shape: tuple[int, int]) -> None:
        h, w = fine.shape[1:3]
        ch, cw = shape
        self.ry, self.rx, self.wh = ch - h + 1, cw - w + 1, cw // 2 + 1
        # (3, ch, entries, wh): the entries of one shortlist gathered in one copy
        self.conj = np.empty((3, ch, len(fine), self.wh), np.complex64)
        k = 0
        for part in _centred_chunks(fine):
            spec = np.fft.rfft2(part, s=shape, axes=(1, 2))  # (chunk, ch, wh, 3)
            self.conj[:, :, k:k + len(part)] = np.conj(spec).transpose(3, 1, 0, 2)
            k += len(part)
        # a real signal's spectrum is half the full one: the other half counted by weight 2
        weight = np.full(self.wh, 2.0)
        weight[0] = 1.0
        if cw % 2 == 0:
            weight[-1] = 1.0
        self.rows = np.exp(2j * np.pi * np.outer(np.arange(self.ry), np.arange(ch)) / ch).astype(np.complex64)
        cols = weight[:, None] * np.exp(2j * np.pi * np.outer(np.arange(self.wh), np.arange(self.rx)) / cw)
        self.cols = (cols / (ch * cw)).astype(np.complex64)


class _CropWindows:
    """What TM_CCOEFF_NORMED needs from a crop, computed once for all the templates compared with
    it: the spectrum of each channel and the crop's spread under every placement of an h x w
    template (the search slack)."""

    def __init__(self, crop: np.ndarray, h: int, w: int) -> None:
        ch, cw = crop.shape[:2]
        self.shape = (ch, cw)
        self.ry, self.rx = ch - h + 1, cw - w + 1
        crop = np.ascontiguousarray(crop, np.float32)
        # Correlating with a zero-mean template ignores any constant added to a channel of the
        # crop: take the crop's mean off so the float32 transform keeps its precision.
        mean = cv2.mean(crop)
        wh = cw // 2 + 1
        spectrum = np.empty((3, ch, wh, 2), np.float32)
        for c, plane in enumerate(cv2.split(crop)):
            spectrum[c] = cv2.dft(plane - np.float32(mean[c]), flags=cv2.DFT_COMPLEX_OUTPUT)[:, :wh]
        self.spectrum = spectrum.view(np.complex64)[..., 0]  # (3, ch, wh)
        # the window sums in double, as matchTemplate takes them
        s, q = cv2.integral2(crop, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
        ry, rx = self.ry, self.rx

        def window(a: np.ndarray) -> np.ndarray:
            total: np.ndarray = a[h:h + ry, w:w + rx] - a[:ry, w:w + rx] - a[h:h + ry, :rx] + a[:ry, :rx]
            return total

        sums = window(s)
        spread = window(q).sum(axis=2) - (sums * sums).sum(axis=2) / (h * w)
        self.spread = np.sqrt(np.maximum(spread, 0.0))

    def correlate(self, t: _Templates, entries: Sequence[int]) -> list[tuple[float, tuple[int, int]]]:
        """(peak, (x, y) of the peak) per entry, as cv2.matchTemplate(TM_CCOEFF_NORMED) and
        cv2.minMaxLoc give them: the correlation by the convolution theorem (as matchTemplate
        itself computes it), for all the entries at once."""
        return _correlate_many(t, [self], [entries])[0]


def _correlate_many(t: _Templates, crops: Sequence[_CropWindows],
                    entries: Sequence[Sequence[int]]) -> list[list[tuple[float, tuple[int, int]]]]:
    """_CropWindows.correlate of many crops, each with entries of its own: the gathering, the
    products of spectra and the normalising done for a few crops at once instead of one crop at
    a time (for a card, a few dozen small numpy calls cost about as much as their arithmetic).
    Each peak is worked out with the same operations, element by element, as for a crop alone,
    so it is the same to the bit."""
    out: list[list[tuple[float, tuple[int, int]]]] = [[] for _ in crops]
    by_shape: dict[tuple[int, int], list[list[int]]] = {}
    for n, (crop, todo) in enumerate(zip(crops, entries, strict=True)):
        if len(todo):
            # a few crops at a time: the spectra of a few dozen entries stay in the processor's
            # cache (all of a scan's at once were slower than one crop at a time)
            chunks = by_shape.setdefault(crop.shape, [[]])
            if sum(len(entries[m]) for m in chunks[-1]) >= CORRELATED_AT_ONCE:
                chunks.append([])
            chunks[-1].append(n)
    for shape, chunks in by_shape.items():
        sp = t.spectra(shape)
        for group in chunks:
            for n, found in zip(group, _correlate_group(t, sp, [crops[n] for n in group],
                                                        [entries[n] for n in group]), strict=True):
                out[n] = found
    return out


CORRELATED_AT_ONCE = 24  # entries compared in one go (see _correlate_many)


def _correlate_group(t: _Templates, sp: _Spectra, crops: Sequence[_CropWindows],
                     entries: Sequence[Sequence[int]]) -> list[list[tuple[float, tuple[int, int]]]]:
    """_correlate_many of a few crops of one shape."""
    idx = np.concatenate([np.asarray(es, np.intp) for es in entries])
    # which crop each compared entry belongs to
    of = np.repeat(np.arange(len(crops)), [len(es) for es in entries])
    k = len(idx)
    ch, ry, rx = crops[0].shape[0], crops[0].ry, crops[0].rx
    conj = sp.conj[:, :, idx]  # (3, ch, k, wh)
    s = np.stack([c.spectrum for c in crops], axis=2)[:, :, of]  # (3, ch, k, wh)
    prod = conj[0] * s[0]
    prod += np.multiply(conj[1], s[1], out=conj[0])
    prod += np.multiply(conj[2], s[2], out=conj[0])
    num = np.empty((k, ry, rx))
    start = 0
    for es in entries:
        # the two small matrix products crop by crop, shaped as for the crop alone: BLAS sums in
        # another order for other shapes, and a score must not depend on what else was read
        m = len(es)
        part = (sp.rows @ prod[:, start:start + m].reshape(ch, m * sp.wh)).reshape(ry, m, sp.wh)
        num[start:start + m] = (part @ sp.cols).real.transpose(1, 0, 2)
        start += m
    den = np.stack([c.spread for c in crops])[of] * t.norm[idx][:, None, None]
    mag = np.abs(num)
    odd = mag >= den
    res = num / np.where(odd, 1.0, den)
    if odd.any():
        # OpenCV's rules: a numerator a little above the denominator (rounding) is +-1, far
        # above it (a flat window) is 0
        res[odd] = np.where(mag[odd] < den[odd] * 1.125, np.sign(num[odd]), 0.0)
    res[t.flat_face[idx]] = 1.0  # a flat template matches everywhere
    flat = res.astype(np.float32).reshape(k, -1)
    at = flat.argmax(axis=1)  # the first maximum in row-major order, like minMaxLoc
    peaks = flat[np.arange(k), at].tolist()
    out: list[list[tuple[float, tuple[int, int]]]] = [[] for _ in crops]
    for n, a, peak in zip(of.tolist(), at.tolist(), peaks, strict=True):
        out[n].append((peak, (a % rx, a // rx)))
    return out


@dataclass(frozen=True)
class Match:
    """The verdict on one card-sized region."""

    status: str  # "sure", "unsure" or "unknown"
    id: str | None
    rotation: float  # degrees clockwise in table coordinates
    score: float
    margin: float
    center_mm: tuple[float, float]
    symmetry: int = 1
    runner_up: str | None = None


class CardIndex:
    """What the recogniser learned from a pack: templates per card size, kinds and thresholds."""

    def __init__(self, classes: dict[tuple[float, float], SizeClass], kinds: dict[str, str],
                 sizes: dict[str, tuple[float, float]], digest: str = "") -> None:
        self.classes = classes
        self.kinds = kinds
        self.sizes = sizes
        self.digest = digest

    # -- learning ---------------------------------------------------------------------------

    @classmethod
    def learn(cls, references: Iterable[Reference], *, seed: int = 0, jitters: int = 6) -> CardIndex:
        """Learn every reference's face. Each face is shrunk as soon as it is taken from
        ``references`` and the full picture is not kept: given a generator (as index_for_pack
        does), a pack of print-resolution faces (about 2.4 MB each) is never all in memory."""
        rng = np.random.default_rng(seed)
        # each reference with its face upright and shrunk (see _learning_face), by size class
        by_key: dict[tuple[float, float], list[Reference]] = {}
        kinds: dict[str, str] = {}
        sizes: dict[str, tuple[float, float]] = {}
        for r in references:
            if not isinstance(r.face, np.ndarray) or r.face.ndim != 3 or r.face.shape[2] != 3 or min(r.face.shape[:2]) < 8:
                raise IndexError_(f"card {r.id!r}: its face is not a colour picture")
            if r.turns not in (1, 2, 4) or isinstance(r.turns, bool):
                raise IndexError_(f"card {r.id!r}: turns must be 1, 2 or 4 (the ways round it reads the same), "
                                  f"not {r.turns!r}")
            by_key.setdefault(size_key(r.size_mm), []).append(replace(r, face=_learning_face(r.face, r.size_mm)))
            kinds[r.id] = r.kind
            sizes[r.id] = (float(r.size_mm[0]), float(r.size_mm[1]))
            del r  # its full picture goes before the next one is read
        if not by_key:
            raise IndexError_("the pack has no card faces to learn from")
        classes = {}
        for key, group in by_key.items():
            shape = fine_shape(key)
            rots = rotations_for(key)
            ids: list[str] = []
            erot, esym, fines, descs, dentry = [], [], [], [], []
            for r in group:
                face = r.face
                turned = {rot: _turn(face, rot) for rot in rots}
                # a square face turned a quarter is still square; a rectangular one only turns by 180
                tf = {rot: _fine_from_face(img, shape) for rot, img in turned.items()}
                base = tf[0]
                sym = 1
                for rot in rots[1:]:
                    if _ncc(base, tf[rot]) >= SYMMETRIC:
                        sym = 360 // rot
                        break
                # (a rectangle only turns by halves: at most 2 of a crossroads' 4)
                sym = max(sym, min(r.turns, len(rots)))
                for rot in rots:
                    e = len(ids)
                    ids.append(r.id)
                    erot.append(rot)
                    esym.append(sym)
                    fines.append(tf[rot])
                    descs.append(coarse_descriptor(tf[rot]))
                    dentry.append(e)
                    big = cv2.resize(turned[rot], (shape[1] * 2, shape[0] * 2), interpolation=cv2.INTER_AREA)
                    for _ in range(jitters):
                        descs.append(coarse_descriptor(_jitter(big, shape, rng)))
                        dentry.append(e)
            fine_arr = np.stack(fines).astype(np.float32)
            classes[key] = SizeClass(key, ids, np.array(erot, np.int32), np.array(esym, np.int32),
                                     fine_arr, np.stack(descs), np.array(dentry, np.int32),
                                     _twins(fine_arr, ids))
        return cls(classes, kinds, sizes)

    # -- persistence -----------------------------------------------------------------------

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {}
        meta: dict[str, Any] = {"version": INDEX_VERSION, "kinds": self.kinds,
                                "sizes": {k: list(v) for k, v in self.sizes.items()}, "classes": []}
        for n, sc in enumerate(self.classes.values()):
            meta["classes"].append({"key": list(sc.key), "ids": sc.entry_id})
            arrays[f"rot{n}"], arrays[f"sym{n}"] = sc.entry_rot, sc.entry_sym
            arrays[f"fine{n}"], arrays[f"desc{n}"], arrays[f"dentry{n}"] = sc.fine, sc.desc, sc.desc_entry
            arrays[f"twins{n}"] = sc.twins if sc.twins is not None else np.full((len(sc.entry_id), 1), -1, np.int32)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8), **arrays)
        os.replace(tmp, path)  # readers never see a half-written index

    @classmethod
    def load(cls, path: Path) -> CardIndex:
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(bytes(z["meta"]).decode())
                if meta.get("version") != INDEX_VERSION:
                    raise IndexError_(f"{path}: learned index of another version")
                classes = {}
                for n, c in enumerate(meta["classes"]):
                    key = (float(c["key"][0]), float(c["key"][1]))
                    classes[key] = SizeClass(key, list(c["ids"]), z[f"rot{n}"], z[f"sym{n}"], z[f"fine{n}"],
                                             z[f"desc{n}"], z[f"dentry{n}"], z[f"twins{n}"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise IndexError_(f"{path}: unreadable learned index ({exc})") from exc
        sizes = {k: (float(v[0]), float(v[1])) for k, v in meta["sizes"].items()}
        return cls(classes, dict(meta["kinds"]), sizes)

    # -- recognition -----------------------------------------------------------------------

    @property
    def size_keys(self) -> list[tuple[float, float]]:
        return list(self.classes)

    def identify(self, frame: np.ndarray, to_image: np.ndarray, center_mm: Sequence[float],
                 angle_deg: float, key: tuple[float, float], lit: np.ndarray | None = None,
                 flat: bool = False) -> Match:
        """Identify the card of size class `key` centred at center_mm whose long axis points
        along angle_deg (degrees clockwise from table "up"); to_image maps table mm -> image px.
        `lit`: where a lamp's light taken out of the frame was strong (0/255, frame size; see
        vision.glare.lit), which does not decide a near tie (see _verdict). `flat`: correlated
        with the lightness flattened, crop and templates alike (see flattened)."""
        return self._identify_all(frame, to_image, [(center_mm, angle_deg, key)], lit, flat)[0]

    def identify_many(self, frame: np.ndarray, to_image: np.ndarray,
                      cells: Sequence[tuple[Sequence[float], float, tuple[float, float]]],
                      lit: np.ndarray | None = None) -> list[Match]:
        """identify() of many cells of one frame, each given as (center_mm, angle_deg, key): the
        same Match for each as identify() gives it alone, in less time (the cells of a size
        class are correlated with its templates a few at a time: see _correlate_many)."""
        return self._identify_all(frame, to_image, cells, lit)

    def _identify_all(self, frame: np.ndarray, to_image: np.ndarray,
                      cells: Sequence[tuple[Sequence[float], float, tuple[float, float]]],
                      lit: np.ndarray | None, flat: bool = False) -> list[Match]:
        classes = [self.classes[key] for _, _, key in cells]
        crops = [extract(frame, to_image, c, a, key) for c, a, key in cells]
        # (the light's mask cut as the crop is, only for a crop whose reading is a near tie: see
        # _verdict; None for a crop it does not reach)
        lits = None if lit is None else [functools.partial(extract_mask, lit, to_image, c, a, key)
                                         for c, a, key in cells]
        out: list[Match | None] = [None] * len(cells)
        by_class: dict[tuple[float, float], list[int]] = {}
        for n, sc in enumerate(classes):
            by_class.setdefault(sc.key, []).append(n)
        for group in by_class.values():
            found = self._match_crops(classes[group[0]], [crops[n][0] for n in group], [crops[n][1] for n in group],
                                      [cells[n][1] for n in group], [cells[n][0] for n in group],
                                      None if lits is None else [lits[n] for n in group], flat)
            for n, m in zip(group, found, strict=True):
                out[n] = m
        return [m for m in out if m is not None]

    def match_crop(self, crop: np.ndarray, sc: SizeClass, crop_to_mm: np.ndarray | None = None,
                   angle_deg: float = 0.0, center_mm: Sequence[float] = (0.0, 0.0)) -> Match:
        """Match a prepared crop (fine shape plus SLACK px each side, Lab float) to a size class."""
        return self._match_crops(sc, [crop], [crop_to_mm], [angle_deg], [center_mm])[0]

    def _match_crops(self, sc: SizeClass, crops: Sequence[np.ndarray], crop_to_mm: Sequence[np.ndarray | None],
                     angle_deg: Sequence[float], center_mm: Sequence[Sequence[float]],
                     lits: Sequence[Callable[[], np.ndarray | None]] | None = None,
                     flat: bool = False) -> list[Match]:
        """match_crop of several crops of one size class: each crop's shortlist and verdict are its
        own, its correlations are worked out with the other crops' (_correlate_many). `lits`: each
        crop's strongly lit pixels (see identify), cut when asked for, or None. `flat`: see
        identify (the shortlist, a near tie's look where the designs differ and the quarters are
        still worked out from the crops as they are)."""
        h, w = fine_shape(sc.key)
        for crop in crops:
            if not isinstance(crop, np.ndarray) or crop.ndim != 3 or crop.shape[2] != 3 \
                    or crop.shape[0] < h + SLACK or crop.shape[1] < w + SLACK:
                raise CropError(f"a crop of shape {getattr(crop, 'shape', type(crop).__name__)} cannot hold a "
                                f"{h}x{w} template with {SLACK} px of slack in 3 channels (see extract)")
        tpl = sc.templates(flat)
        ranked, first = [], []
        for crop in crops:
            sims = sc.desc @ coarse_descriptor(crop[SLACK:SLACK + h, SLACK:SLACK + w])
            # the best descriptor row per entry, then the best few entries
            best_per_entry = tpl.best_per_entry(sims, sc.desc_entry, len(sc.entry_id))
            ranked.append([int(e) for e in np.argsort(-best_per_entry)[: min(SHORTLIST, len(best_per_entry))]])
            # the two best coarse candidates and every look-alike of theirs first; the rest of the
            # shortlist only when that does not already settle it clearly
            lead = ranked[-1][:2]
            if sc.twins is not None:
                lead = lead + [int(t) for e in lead for t in sc.twins[e] if t >= 0]
            first.append(lead)
        windows = [_CropWindows(flattened(crop) if flat else crop, h, w) for crop in crops]
        scored: list[list[tuple[float, int, Any]]] = [[] for _ in crops]

        def correlate(which: Sequence[int], entries: Sequence[Iterable[int]]) -> None:
            todo = []
            for n, es in zip(which, entries, strict=True):
                done = {s[1] for s in scored[n]}
                todo.append([e for e in dict.fromkeys(es) if e not in done])
            peaks = _correlate_many(tpl, [windows[n] for n in which], todo)
            for n, es, got in zip(which, todo, peaks, strict=True):
                scored[n].extend((peak, e, loc) for e, (peak, loc) in zip(es, got, strict=True))
                scored[n].sort(key=lambda s: -s[0])

        correlate(range(len(crops)), first)
        unclear = []
        for n, sn in enumerate(scored):
            rest = [s for s in sn[1:] if sc.entry_id[s[1]] != sc.entry_id[sn[0][1]]]
            if not (sn[0][0] >= CLEAR_SCORE and (not rest or sn[0][0] - rest[0][0] >= CLEAR_MARGIN)):
                unclear.append(n)
        correlate(unclear, [ranked[n][2:] for n in unclear])
        return [self._verdict(sc, crops[n], scored[n], crop_to_mm[n], angle_deg[n], center_mm[n],
                              None if lits is None else lits[n], flat)
                for n in range(len(crops))]

    def _verdict(self, sc: SizeClass, crop: np.ndarray, scored: list[tuple[float, int, Any]],
                 crop_to_mm: np.ndarray | None, angle_deg: float, center_mm: Sequence[float],
                 lit: Callable[[], np.ndarray | None] | None = None, flat: bool = False) -> Match:
        """The Match of a crop from its correlations with the shortlisted entries, best first;
        `lit` gives (bool, the crop's size, or None) its pixels under a lamp's strong light."""
        h, w = fine_shape(sc.key)
        tpl = sc.templates(flat)
        score, e, loc = scored[0]
        cid, rot, sym = sc.entry_id[e], int(sc.entry_rot[e]), int(sc.entry_sym[e])
        period = 360 // sym
        rival = next(((s, sc.entry_id[o], o) for s, o, _ in scored[1:]
                      if sc.entry_id[o] != cid or (int(sc.entry_rot[o]) - rot) % period != 0), (-1.0, None, -1))
        margin = score - rival[0]
        # Two designs that differ only in a small corner (a bonus symbol) can never be told apart
        # by a fixed margin: ask for a share of the difference the designs themselves have.
        needed = MARGIN if rival[2] < 0 else min(MARGIN, 0.45 * (1.0 - tpl.ncc(e, rival[2])))
        centre = (float(center_mm[0]), float(center_mm[1]))
        if crop_to_mm is not None:
            # the template fitted best shifted by (loc - SLACK) crop px: move the centre with it
            dx, dy = loc[0] - SLACK, loc[1] - SLACK
            c = crop_to_mm @ np.array([SLACK + w / 2 + dx, SLACK + h / 2 + dy, 1.0])
            centre = (float(c[0]), float(c[1]))
        if score >= ACCEPT and margin < max(needed, 0.02) and rival[2] >= 0:
            # Too close to call on the whole face: compare only where the two designs differ
            # (a bonus symbol, a number), which decides it when the picture is clear enough; not
            # under a lamp's strong light (see vision.glare.lit), whose misfit is enough to
            # favour either design there
            strong = None if lit is None else lit()
            seen = None if strong is None else ~strong[loc[1]:loc[1] + h, loc[0]:loc[0] + w]
            if seen is not None and seen.all():
                seen = None
            verdict = 1.0 if seen is not None and not seen.any() else \
                where_they_differ(crop, loc, sc.fine[e], sc.fine[rival[2]], seen)
            if verdict < DIFFER_RATIO:
                margin = max(needed, 0.02)
            elif verdict > 1 / DIFFER_RATIO:
                o = rival[2]
                cid, rot, sym = sc.entry_id[o], int(sc.entry_rot[o]), int(sc.entry_sym[o])
                period = 360 // sym
                score, margin = rival[0], max(needed, 0.02)
        status = "sure" if score >= ACCEPT and margin >= max(needed, 0.02) else "unknown" if score < REJECT else "unsure"
        if status == "sure" and score < QUARTER_CHECKED and _weakest_quarter(crop, loc, sc.fine[e]) < QUARTER:
            # the whole face fits, but some quarter of it does not: half a card beside a hand or
            # a smooth picture matched by a patch of skin and cloth. Let the players check it.
            status = "unsure"
        rotation = (angle_deg + rot) % 360
        rotation = rotation % period if sym > 1 else rotation
        return Match(status, cid if status != "unknown" else None, float(rotation), score, float(margin),
                     centre, sym, rival[1])


def extract(frame: np.ndarray, to_image: np.ndarray, center_mm: Sequence[float], angle_deg: float,
            key: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The upright crop of a card (fine size plus SLACK px each side) straight from the camera
    frame, and the affine map crop px -> table mm. Working from the frame rather than from a
    rectified table image keeps all the resolution the camera has."""
    crop_to_mm, (cw, ch) = _crop_to_mm(center_mm, angle_deg, key)
    # render at twice the size and shrink with area averaging: the camera sees a card at roughly
    # 1.5-2 px per mm, more than the template, and plain sampling would alias fine print
    up2 = np.diag([0.5, 0.5, 1.0])
    m = to_image @ crop_to_mm @ up2
    big = cv2.warpPerspective(frame, m, (cw * 2, ch * 2), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    crop = cv2.resize(big, (cw, ch), interpolation=cv2.INTER_AREA)
    return _prep(crop), crop_to_mm[:2]


def extract_mask(mask: np.ndarray, to_image: np.ndarray, center_mm: Sequence[float], angle_deg: float,
                 key: tuple[float, float]) -> np.ndarray | None:
    """A 0/255 mask of the frame cut as ``extract`` cuts the card's crop, as booleans (nearest
    px); None when it holds nothing there."""
    crop_to_mm, (cw, ch) = _crop_to_mm(center_mm, angle_deg, key)
    out = cv2.warpPerspective(mask, to_image @ crop_to_mm, (cw, ch), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=0) > 0
    return out if out.any() else None


def _crop_to_mm(center_mm: Sequence[float], angle_deg: float,
                key: tuple[float, float]) -> tuple[np.ndarray, tuple[int, int]]:
    """The map crop px -> table mm (3 x 3) of a card's crop (see extract), and the crop's size."""
    h, w = fine_shape(key)
    ch, cw = h + 2 * SLACK, w + 2 * SLACK
    return upright_crop_map(center_mm, angle_deg, key[1] / h, (cw, ch)), (cw, ch)


def upright_crop_map(center_mm: Sequence[float], angle_deg: float, mm_per_px: float,
                     size_px: tuple[int, int]) -> np.ndarray:
    """The map crop px -> table mm (3 x 3) of an upright crop ``size_px`` (width, height) centred on
    ``center_mm``: crop x runs along the card's right, crop y down the card, both turned by
    ``angle_deg`` (the card's long axis, clockwise from table "up")."""
    a = np.deg2rad(angle_deg)
    right = np.array([np.cos(a), np.sin(a)]) * mm_per_px
    down = np.array([-np.sin(a), np.cos(a)]) * mm_per_px
    origin = np.asarray(center_mm, np.float64) - right * (size_px[0] / 2) - down * (size_px[1] / 2)
    return np.array([[right[0], down[0], origin[0]], [right[1], down[1], origin[1]], [0, 0, 1]])


def normalised(img: np.ndarray, seen: np.ndarray | None = None) -> np.ndarray:
    """Lightness standardised (exposure, contrast); colour only white-balanced (its median, the
    card stock, set to neutral) so that a blue band and a purple band stay different. With `seen`
    (a boolean mask of the image), from the statistics of those pixels only."""
    out = np.empty_like(img)
    light = img[:, :, 0]
    ref = img if seen is None else img[seen][:, None, :]  # the pixels the statistics come from
    out[:, :, 0] = (light - ref[:, :, 0].mean()) / (ref[:, :, 0].std() + 1e-3)
    for c in (1, 2):
        out[:, :, c] = (img[:, :, c] - np.median(ref[:, :, c])) / 12.0
    return out


def _twins(fine: np.ndarray, ids: list[str], limit: float = 0.8, most: int = 6) -> np.ndarray:
    """For each template, the other cards' templates that correlate above `limit` with it."""
    flat = fine.reshape(len(fine), -1, 3)
    flat = flat - flat.mean(axis=1, keepdims=True)
    flat = flat.reshape(len(fine), -1)
    flat /= np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6
    sim = flat @ flat.T
    out = np.full((len(fine), most), -1, np.int32)
    for e in range(len(fine)):
        order = [int(o) for o in np.argsort(-sim[e]) if ids[o] != ids[e] and sim[e, o] > limit][:most]
        out[e, :len(order)] = order
    return out


def where_they_differ(crop: np.ndarray, loc: Sequence[int], a: np.ndarray, b: np.ndarray,
                      seen: np.ndarray | None = None) -> float:
    """How much worse design a explains the crop than design b does, over the pixels where the
    two designs differ: < 1 favours a, > 1 favours b. With `seen` (a boolean mask of the face),
    over those pixels only, each picture standardised by them alone (a piece standing on the card
    left out, which is neither design)."""
    h, w = a.shape[:2]
    win = normalised(crop[loc[1]:loc[1] + h, loc[0]:loc[0] + w], seen)
    an, bn = normalised(a, seen), normalised(b, seen)
    d = np.abs(an - bn).sum(axis=2)
    mask = d > max(0.5 * float(d.max()), 1.0)
    if seen is not None:
        mask &= seen
    if np.count_nonzero(mask) < 6:
        return 1.0
    ea = float(((win - an) ** 2).sum(axis=2)[mask].mean())
    eb = float(((win - bn) ** 2).sum(axis=2)[mask].mean())
    return ea / max(eb, 1e-6)


def _weakest_quarter(crop: np.ndarray, loc: Sequence[int], face: np.ndarray) -> float:
    """The worst correlation between a quarter of the face and the same quarter of the crop
    where the template fitted; quarters of the face with no texture to speak of are skipped."""
    h, w = face.shape[:2]
    win = crop[loc[1]:loc[1] + h, loc[0]:loc[0] + w]
    worst = 1.0
    for ys in (slice(0, h // 2), slice(h // 2, h)):
        for xs in (slice(0, w // 2), slice(w // 2, w)):
            q = face[ys, xs]
            if float(q.std(axis=(0, 1)).max()) < 4.0:
                continue
            worst = min(worst, _ncc(win[ys, xs], q))
    return worst


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean(axis=(0, 1))
    b = b - b.mean(axis=(0, 1))
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


# -- packs and the cache -------------------------------------------------------------------------


def cache_root() -> Path:
    return Path(os.environ.get("COMPANION_CACHE") or Path.home() / ".cache" / "companion")


def references_from_pack(pack: Any) -> list[Reference]:
    """Every face of a vision.pack.Pack as a Reference (per-card size overrides honoured), all
    read at once: to learn from, iter_references(pack) holds one face at a time."""
    return list(iter_references(pack))


def iter_references(pack: Any) -> Iterator[Reference]:
    """The faces of references_from_pack, read one at a time as they are asked for."""
    facts = _catalog_facts(pack.game)
    for card in pack.cards:
        size = getattr(card, "size_mm", None) or pack.card_size_mm
        kind, turns = facts.get(card.id, ("", 1))
        for face_path in card.faces:
            p = Path(face_path)
            p = p if p.is_absolute() else Path(pack.root) / p
            img = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if img is None:
                raise IndexError_(f"{p}: card {card.id!r} face is not a readable picture")
            yield Reference(card.id, (float(size[0]), float(size[1])), img, kind, turns)


def _catalog_facts(game: str) -> dict[str, tuple[str, int]]:
    """Each catalog item's kind and ``turns`` (1, 2 or 4; 1 where the catalog gives none or
    another number), by id."""
    try:
        import importlib

        items = importlib.import_module(f"rules.{game}").catalog_items()
    except (ImportError, AttributeError):
        return {}
    return {str(i["id"]): (str(i.get("kind", "")), int(i["turns"]) if i.get("turns") in (1, 2, 4) else 1) for i in items}


def _turned_alike(game: str) -> list[tuple[str, int]]:
    """The catalog items whose turns count as one (what the index learns from the catalog besides
    kinds), for the pack's digest."""
    return sorted((cid, turns) for cid, (_, turns) in _catalog_facts(game).items() if turns > 1)


def pack_digest(pack: Any) -> str:
    """A hash of everything the recogniser learns from: sizes, ids, the face files' bytes and which
    cards' turns the catalog counts as one."""
    h = hashlib.sha256(f"v{INDEX_VERSION}|{pack.game}|{list(pack.card_size_mm)}|{_turned_alike(pack.game)}".encode())
    for card in pack.cards:
        h.update(f"|{card.id}|{getattr(card, 'size_mm', None)}".encode())
        for face_path in card.faces:
            p = Path(face_path)
            p = p if p.is_absolute() else Path(pack.root) / p
            try:
                h.update(p.read_bytes())
            except OSError as exc:
                raise IndexError_(f"{p}: card {card.id!r} face cannot be read ({exc.strerror})") from exc
    return h.hexdigest()[:24]


# A face file changed less than this long before it was hashed may change again without its
# timestamp moving (coarse file-system clocks): such a digest is not reused (git's "racy clean").
RACY_NS = 2_000_000_000


_DIGESTS: dict[tuple[Any, ...], tuple[str, int]] = {}  # what the faces' files look like -> (digest, hashed at)
_DIGESTS_KEPT = 32
_now_ns = time.time_ns  # file-system time stamps are wall-clock time


_PATHS: dict[int, tuple[Any, tuple[Any, ...], list[str]]] = {}  # id(pack) -> (pack, its head, its face files)


def _pack_files(pack: Any) -> tuple[tuple[Any, ...], list[str]]:
    """What pack_digest covers besides the faces' bytes, and the face files' paths (worked out
    once per pack object when it is immutable, as vision.pack.Pack is)."""
    known = _PATHS.get(id(pack))
    if known is not None and known[0] is pack:
        return known[1], known[2]
    head: list[Any] = [pack.game, repr(list(pack.card_size_mm)), repr(_turned_alike(pack.game))]
    paths = []
    for card in pack.cards:
        head.append((card.id, repr(getattr(card, "size_mm", None)), len(card.faces)))
        for face_path in card.faces:
            p = Path(face_path)
            paths.append(str(p if p.is_absolute() else Path(pack.root) / p))
    params = getattr(type(pack), "__dataclass_params__", None)
    if params is not None and params.frozen:  # any other pack-like object is looked at every time
        trim(_PATHS, _DIGESTS_KEPT - 1)
        _PATHS[id(pack)] = (pack, tuple(head), paths)
    return tuple(head), paths


def _face_files(pack: Any) -> tuple[Any, ...] | None:
    """Everything pack_digest covers, with each face file's identity, size and times instead of
    its bytes (None when a face cannot be looked at: hashing then says which and why)."""
    head, paths = _pack_files(pack)
    sig: list[Any] = [head]
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            return None
        sig.append((p, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(sig)


def cached_pack_digest(pack: Any) -> str:
    """pack_digest(pack), without reading every face again while none of the face files has
    changed (same file, size, modification and change times) since it was last hashed."""
    sig = _face_files(pack)
    if sig is not None and sig in _DIGESTS:
        digest, hashed_at = _DIGESTS[sig]
        stamps = [t for f in sig[1:] for t in f[4:]]  # each face's modification and change times
        if max(stamps, default=0) < hashed_at - RACY_NS:
            return digest
    hashed_at = _now_ns()
    digest = pack_digest(pack)
    if sig is not None:
        trim(_DIGESTS, _DIGESTS_KEPT - 1)
        _DIGESTS[sig] = (digest, hashed_at)
    return digest


_MEMORY: dict[str, CardIndex] = {}  # most recently used last
# Indexes kept in memory: a game night uses one pack per game; each index of a 100-card pack holds
# about 20 MB (templates and their spectra), and the on-disk cache brings one back in milliseconds.
MEMORY_KEPT = 4


def index_for_pack(pack: Any, cache_dir: Path | None = None) -> CardIndex:
    """The learned index of a pack: from memory, from the on-disk cache, or learned now."""
    digest = cached_pack_digest(pack)
    kept = _MEMORY.pop(digest, None)
    if kept is not None:
        _MEMORY[digest] = kept  # now the most recently used
        return kept
    path = (cache_dir or cache_root()) / "vision-index" / f"{pack.game}-{digest}.npz"
    index = None
    if path.exists():
        try:
            index = CardIndex.load(path)
        except IndexError_:
            index = None  # a corrupt or stale cache file is simply relearned
    if index is None:
        index = CardIndex.learn(iter_references(pack))  # one print-resolution face in memory at a time
        # a read-only cache only costs relearning next time
        with contextlib.suppress(OSError):
            index.save(path)
    index.digest = digest
    _MEMORY[digest] = index
    trim(_MEMORY, MEMORY_KEPT)
    return index
