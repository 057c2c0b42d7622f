"""Finding cards, tiles and small pieces on the rectified play area.

The frame is warped to a top-down view of the play area at DETECT_PX_PER_MM. Whatever differs
from the table cloth is foreground; the cloth is modelled locally (a median of blocks around each
place, so uneven light and a wood grain do not count as objects). A patterned cloth is modelled
as the set of colours spread all over it, and a check also by its lattice: it repeats itself one
period away, which a card in the check's own colours does not.

Cards laid edge to edge (a Big Sur row, a Roundabout grid, a Monster Highway road) merge into one
region. Such a region is split with the physical sizes the pack knows: the region's minimum-area
rectangle is divided into the grid of card-sized cells that fits it best, and each cell that the
region covers is a card. Whatever a grid of known sizes cannot explain (a phone, a hand, a coaster)
is reported as an unknown region instead of being forced into cards.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision import hand
from vision.calibration import Calibration
from vision.kept import trim

DETECT_PX_PER_MM = 1.0
NEIGHBOURHOOD = 15  # blocks (odd) over which the first guess of the cloth's colour is a median
BLOCK_MM = 25  # background blocks: small enough to follow light falloff, big enough to see cloth
MIN_PIECE_MM2 = 60.0  # smaller than this is noise (a crumb, a glint)
PIECE_SHORT_MM = 6.0  # a playing piece (a car 22 x 11 mm, the Monster 40 x 40) is no thinner than this ...
PIECE_ELONGATED = 4.0  # ... nor longer than this many times its width: thin strips are the table's
# edge against the floor, a card's edge or print line, not pieces; and none is cut off by the
# view's border (the floor or the room beyond the table's edge)
CELL_COVER = 0.55  # a grid cell at least this covered holds a card
# ... and one covered at least this much may hold a card whose art is the cloth's colour (a brown
# card on wood, a forest on green felt): a place only a sure reading counts (see Detection.partial)
PARTIAL_COVER = 0.2
EDGE_CELL_COVER = 0.3  # ... in a lattice laid on the picture's edges
# a region smaller than a card whose one side matches a card's within this share, and whose other
# is at least FLUSH_SHORT of the card's (and short of it by FLUSH_SIDE), may be the visible part
# of a card whose rest is the cloth's colour: cells flush with its ends (see _flush_cells)
FLUSH_SIDE = 0.12
FLUSH_SHORT = 0.3
# ... its matching side may be wider than the card's by up to this share: a pile's top card, the
# cards beneath it fanned a few degrees out at its sides (bench seed 9, photo-like Highwayman 90:
# a brown card on wood seen as its upper half with its pile, 65 x 61 mm, 57 mm wide)
FLUSH_WIDER = 0.2
ROUND = 0.85  # a convex region (its area at least CONVEX of its hull's) filling less of its rectangle
CONVEX = 0.95  # ... than ROUND is no cards
HULL_COVER = 0.4  # ... a region no grid explains is tried as its hull when it covers this much of it
EXPLAINED = 0.86  # a region is cards only if its cells explain this much of it
WEAK_EXPLAINED = 0.7  # ... or, as a split the recogniser must confirm, this much
PIECE_STRENGTH = 2.5
FAINT = 1.4  # a blob that differs from the cloth by less than this (times the threshold) is shading
# A piece of print too small for a card (at least FRAGMENT of the smallest card) and no playing
# piece may be all the mask holds of a card whose body is the cloth's colour (a green tile on
# green felt: its road and bits of its frame; a grey card on grey felt: its icon, only 1.27 times
# the threshold): it is followed into the weaker difference around it, down to LOW_STRENGTHS (see
# _completed). A piece of the cloth's own shading grows past a card, or into nothing card-shaped.
FRAGMENT = 0.15
LOW_STRENGTHS = (0.5, 0.7)
# A card in a deep shadow may leave less than a fragment in the mask: its print darkened, only
# 0.3-1 times the threshold from the cloth (a shadow's darkening is forgiven), but for specks.
# A speck of SPECK_MM2 or more, too faint for a piece, is followed into its card too (bench seed 9,
# photo-like Highwayman 162: a dark pile on a wood in a shadow left three specks of 84-251 mm²,
# and nothing was shown there). A speck is as often the cloth's own blotch or the wood's grain, so
# what it grows into is kept only where it looks like a card: SPECK_SIDES of its rectangle's sides
# seen as an outline (see outline_sides), and its median difference from the cloth SPECK_CONTRAST
# times that of a ring round it, SPECK_RING_MM out from its edge (the pile of 162 3.6 times; a
# blotch of a blotched cloth 1.9-2.0 times)
SPECK_MM2 = 150.0
SPECK_SIDES = 3
SPECK_CONTRAST = 3.0
SPECK_RING_MM = (1.5, 5.0)
FRAME_GAP_MM = 5.0  # ... bridging gaps this wide in the card's frame
DIFFER_INSET_MM = 3.0  # a place's difference from the cloth is taken this far in from its outline
DIFFER_SAMPLES = (9, 13)  # ... at this many points across and along it
_DIFFER_LATTICE = np.stack([g.ravel() for g in np.meshgrid(np.linspace(-1, 1, DIFFER_SAMPLES[0]),
                                                            np.linspace(-1, 1, DIFFER_SAMPLES[1]))])
ARM_EDGE_MM = 2.0  # an arm taken out of the mask: with this much of its blurred edge
ARM_SLIVER_MM = 5.0  # ... and what is left of its edge, thinner than this, is no part of the cards beside it
LIGHTNESS = 0.35  # a difference from the cloth: lightness's square counts this much against colour's
SHADOW = 0.5  # how much darker than the cloth a shadow may make it
SHARP_DARK = 0.2  # ... unless its side rises this share of its depth per px (half scale): a dark card
LIGHT = 0.4  # how much brighter than the cloth light may make a strongly coloured cloth ...
SATURATED = 42.0  # ... whose chroma (Lab a, b distance from grey) is at least this; none for a
MUTED = 32.0  # cloth at or below this (wood is about 31: pale cards on it must not pass for light)
KMEANS_SAMPLE = 12000  # pixels the patterned cloth's colours are learned from
# A patterned cloth's colours are learned from scratch (two k-means restarts: 14 ms of the bench
# table's 100) only when the table looks different from the one they were last learned from
# scratch on: the kiosk scans the same table again and again. Otherwise the k-means starts from
# the colours learned then and refits them to this frame (a few iterations, under 1 ms), so light
# that drifts is followed and the reading depends on that one earlier frame at most, never on a
# chain of them; the frame they were learned from reads exactly as it did. "The same table": the
# view's 25 mm blocks (Lab) moved by at most CLOTH_MOVED for all but CLOTH_CHANGED of them (a few
# cards laid or taken) and by at most CLOTH_DRIFT for the typical block (camera noise; not a lamp
# switched on, nor another cloth).
CLOTH_MOVED = 8.0
CLOTH_CHANGED = 0.05
CLOTH_DRIFT = 2.0
CLOTH_KEPT = 2  # tables (view sizes) whose cloth colours are kept
# A cloth printed with a lattice (a check) repeats itself exactly: a place that matches too few of
# the places one and two periods away along the lattice's two directions is not cloth, whatever
# its colour (see _periodic_mask). The lattice: the two strongest peaks of the table's own
# autocorrelation, PERIODIC_MM apart from it (the lattice's shortest and longest periods), each
# at least PERIODIC_PEAK of its variance, in directions not alike (a wood's grain repeats along
# one direction only; dots strewn at random, nowhere).
PERIODIC_MM = (12.0, 130.0)
PERIODIC_PEAK = 0.3
PERIODIC_CUT = 10.0  # a match: at most this far (Lab, lightness weighted as LIGHTNESS) ...
PERIODIC_SHADOW = 0.3  # ... from the colours a px round the neighbour, which a shadow may darken this much
PERIODIC_VOTES = 2  # a place is cloth if it matches at least this many of its up to 8 neighbours ...
PERIODIC_ROUNDS = 3  # ... not counting those found not to be cloth, in this many rounds at most
PERIODIC_BRIGHT = 1.15  # periods this much brighter than the typical one are a lamp's pool: left out
PERIODIC_LIT = 8  # ... as is where a lamp's spot taken out (vision.glare) changed the grey this much
PERIODIC_FLECK_MM2 = 600.0  # flecks adding up to less, with all else within PERIODIC_NEAR_MM, are left out
PERIODIC_NEAR_MM = 8.0
# On a check, what lies there is also found by its edges the lattice does not explain (see
# _off_lattice): an edge px is the check's when one like it (in direction, within
# LATTICE_SLACK_MM) lies one step of the lattice across it; the rest is closed over
# LATTICE_PRINT_MM and holes up to LATTICE_HOLE_MM2 filled
LATTICE_SLACK_MM = 1.0
LATTICE_PRINT_MM = 9.0
LATTICE_HOLE_MM2 = 5000.0
LATTICE_SEEN = 0.1  # ... kept where the colours or the lattice's colour matches hold this share of it
LATTICE_HELD = 0.7  # ... and less than this
TEXTURED = 22.0  # a cloth threshold above this means a patterned cloth (see _pattern_mask)
# the first cloth model learns only from what lies within this many spreads of the cloth's colour
# (a, b alone: robust spreads, as the threshold), and never less than HUE_LEAST apart, on a cloth
# whose colour varies no more than HUE_EVEN so (bench seed 9, scenes 0-23, the proxy pack: plain
# and blotched cloths up to 13.2, woods 9.4; checked and dotted cloths of two or more colours from
# 14.6, those of one colour's tones less and not changed by it) (see _foreground)
HUE_SPREAD = 6.0
HUE_LEAST = 9.0
HUE_EVEN = 14.0
HUE_GREY = 10.0  # ... and is grey: its colour's chroma (Lab a, b from grey) at most this (the bench's 1-2)
# A dotted cloth whose dots are few (an eighth of it) has its threshold set by the plain ground
# between them, and passes for a plain one: every dot was then foreground, and the places grown
# out of them were "?"s all over the table, cards among them read less well (41 of the 257
# patterned tables of bench seed 9's proxy survey: 5.1 "?" where nothing lies per table against
# 2.1, 90.8 % of cards right against 95.3 %). A cloth read as plain is dotted when what its
# model leaves is flecks (FLECK_MM2) in more than DOTTED of its 50 mm blocks: 0.37-0.94 on those
# tables; at most 0.10 on plain felt and 0.05 on wood read as plain, with their cards, pieces,
# hands and glare (the same survey's first 100 scenes of six game and pack pairs).
DOTTED = 0.25
FLECK_MM2 = (20.0, 1500.0)
# A card on a patterned cloth whose colours are the cloth's (a blue ocean card on a teal cloth
# dotted with that blue) leaves only strips of its print in the mask, and no place is cut there
# (bench seed 9, Big Sur proxy 393). Its outline is still there: what a closed outline encloses
# (see outlined), the size of one card and mostly outside the mask, is followed as a fragment
# grown into a card is (see _completed): a split the recogniser must confirm. So on a plain
# cloth too, and "mostly outside" is asked of each piece of the mask on its own: bench seed 9,
# photo-like Highwayman 78, a card green across its middle on green felt was held as its top and
# its bottom band (together 64 % of it), neither a card, and was read nowhere.
OUTLINE_BLUR_MM = 1.0
OUTLINE_CANNY = (20, 60)
OUTLINE_OPEN_MM = 5.0
OUTLINE_NEW = 0.5  # ... at most this share of it in any one piece of the mask (a row: in the mask)
# So is a row or grid of such cards edge to edge (bench seed 9, proxy Big Sur 296: a seat's row of
# five whose text bands are a dotted cloth's cream), at most OUTLINE_MOST cards' area, as the
# clean grid its outline is once the flecks that touch it are taken off (an opening of
# OUTLINE_ROW_OPEN_MM), and only with OUTLINE_ROW_PRINT of it in the mask: the squares of a check
# cloth enclose card-sized lattices too, with no print (photo-like Highwayman 9). Not where most
# of that print is cards the mask holds whole (OUTLINE_ROW_WHOLE): a strongly grained wood's lines
# joined three loose cards 180 mm apart into one outline that a row of seven fitted
OUTLINE_MOST = 12
OUTLINE_ROW_OPEN_MM = 20.0
OUTLINE_ROW_PRINT = 0.1
OUTLINE_ROW_WHOLE = 0.5
OutlineEdges = tuple[Sequence[np.ndarray], np.ndarray]  # a view's Lab planes and edges (see _outline_edges)
# A region that no card fits, on any cloth, is traced by its outline (see _traced): what an
# outline encloses a few cards' size is first opened by TRACE_OPEN_MM (the cloth's flecks that
# touch it taken off)
TRACE_OPEN_MM = 20.0
TRACE_MM = 10.0
TRACE_HOLDS = 0.8
TRACE_MOST = 2.5
SIZE_SLACK = 0.35
MAX_ALTERNATIVES = 4
# A region up to this many times a card's size along each side may be one card and the spread of
# the pile under it (see Detection.cornered). Two cards side by side are twice a card along one
# side; 1.5 left out a pile whose region took in a strip of the wood's dark grain beside it: the
# Holyhead pile of bench seed 9's proxy Highwayman 413, 88 x 101 mm round 57 x 89 mm cards (1.54
# cards across) on OpenCV 5.1, 80 x 101 mm on 5.0, its top card read 0.97 in a corner either way
PILE_SPREAD = 1.75
TRIM_SHARE = 0.25  # a region's frame is also tried without ends this thinly covered (see _trim)
BRIDGE_MM = 12  # gaps up to this wide inside a row of cards are bridged ...
LOOSE_ALTERNATIVES = 6  # anchored lattices tried on a region no grid explains
# ... at least this many of the smallest card's area: a card with a patterned cloth's dots stuck
# to two of its sides fits no card, and, under 1.3 cards, was only ever shown as "not card-shaped"
# (bench seed 9, proxy Roundabout 46 and 98: 1.2 and 1.3 cards). From 0.8 (as _traced asks), 52
# scenes of seed 9's 0-149 (every game, both packs) try it where they did not: two cards more in
# each pack, nothing else changed (docs/benchmarks.md)
LOOSE_LEAST = 0.8
# a cell of a region's leftover (Detection.residual) laid by the lattice on the picture's edges may
# lie at most this share on the cards taken out
UNDER_TAKEN = 0.2
LATTICE_CONTRAST = 1.5  # a lattice on the picture's edges: its lines this much stronger than typical
BRIDGE_SCORE = 0.7  # ... when the bridged region is a grid of cards this clean
CORE_OPEN_MM = 3.0  # a faint region's strong part is opened this much (see _strong_core)
# A cell guessed from a region's outline may sit off its card (gaps add up along a hand-laid row, a
# hand stretches the outline): each cell is moved, up to this far, to where the card edges it
# should lie on are strongest in the picture.
FRAME_TURN = 10.0  # degrees between a region's rectangle and its cards' edges that mean "not the cards'"
SNAP_MM = 24.0
SNAP_REACH = 0.3  # ... and at most this share of the card's short side
SNAP_GAIN = 1.15  # a move must find edges this much stronger than where the cell is
SNAP_SIDE = 0.7  # the middle share of each side that is sampled (its ends may touch a neighbour)


@dataclass(frozen=True)
class Candidate:
    """A card-sized cell: where it is, which size class, and which way its long axis points."""

    center_mm: tuple[float, float]
    angle_deg: float  # clockwise from table "up" of the cell's long axis (or one side, if square)
    size_key: tuple[float, float]
    region: int  # the merged region it came from; cells of one region were laid edge to edge
    corners_mm: tuple[tuple[float, float], ...] = ()
    # where the region's outline put the cell before it was moved onto the edges it sees (None:
    # not moved); the recogniser looks there too when the moved cell is not a sure card
    unsnapped: Candidate | None = None


@dataclass(frozen=True)
class Region:
    """A foreground blob that is not (only) cards, or a small piece (a car, the monster)."""

    center_mm: tuple[float, float]
    size_mm: tuple[float, float]
    angle_deg: float
    area_mm2: float
    colour_bgr: tuple[int, int, int]
    region: int
    faint: bool = False  # barely different from the cloth: likely light or shade, not an object
    # no grid of cards explains the region (a hand or a shadow joined the cards): its cells are
    # only hypotheses, and only those the recogniser is sure of count
    loose: bool = False
    # its best grid explains less of it than a clean row would (see WEAK_EXPLAINED): a split only
    # the recogniser can confirm
    weak: bool = False
    # grown from a fragment of print into the weaker difference around it (see _completed): where
    # no card is read there, it may be a fleck of a textured cloth grown into its pattern (see
    # vision.scan._grown_from_cloth)
    grown: bool = False
    # ... and of those, found by its outline alone (see outlined): a place of the cloth's own
    # flecks where no card is read, whatever stands on it
    outline: bool = False


@dataclass
class Detection:
    candidates: list[Candidate]
    blobs: list[Region]  # foreground that no grid of card sizes explains
    pieces: list[Region]  # small compact things: cars, the monster
    regions: dict[int, Region]  # every region that was split into card cells, by its label
    rectified: np.ndarray  # the top-down play area (BGR), kept for the overlay and for pieces
    mask: np.ndarray
    # other ways to split a region into cards, next best first: tried when the recogniser does
    # not accept every card of the best split (cards laid with gaps, mixed sizes)
    alternatives: dict[int, list[list[Candidate]]] = field(default_factory=dict)
    px_per_mm: float = DETECT_PX_PER_MM
    # each split region's own mask and its offset in the rectified view, for splitting what is
    # left of it once its sure cards are taken out
    comps: dict[int, tuple[np.ndarray, int, int]] = field(default_factory=dict, repr=False)
    size_keys: tuple[tuple[float, float], ...] = ()
    # gradients of the rectified view along x and y (see edge_maps), for snapping cells to edges
    edges: Edges | None = field(default=None, repr=False)
    # how far each pixel of the rectified view lies from the cloth's colours (see foreground: 1.0
    # at the mask's threshold), for places the mask left bare (see differ)
    strength: np.ndarray | None = field(default=None, repr=False)
    # cells of a region's grids that its mask covers only in part (PARTIAL_COVER): a card whose
    # art matches the cloth leaves a hole open to the outside, which no filling closes. They are
    # no cards of any split: a sure reading there counts, anything else is the cloth.
    partial: list[Candidate] = field(default_factory=list)
    # the colours of what reaches onto the table from beyond its edge (vision.hand.arms)
    arms: list[hand.Arm] = field(default_factory=list)
    # their pixels in the rectified view: of an arm's colour and joined through it to the view's
    # edge (hand.arm_pixels over the mask); None when no arm is found
    arm: np.ndarray | None = field(default=None, repr=False)
    # the cells of the parts of regions an arm joins, split without the arm (see find): a card
    # there counts only where no region reads one for sure, and only when read sure with a clear
    # score (vision.scan); what else is read there is the whole region's to report
    beside_arm: list[Candidate] = field(default_factory=list)

    def snap(self, cells: Sequence[Candidate]) -> list[Candidate]:
        """Cells moved onto the card edges the picture shows, two landing on one card kept once."""
        if self.edges is None:
            return list(cells)
        out: list[Candidate] = []
        for c in snap_cells(cells, self.edges, self.px_per_mm):
            if not any(o.size_key == c.size_key and np.hypot(o.center_mm[0] - c.center_mm[0],
                                                             o.center_mm[1] - c.center_mm[1]) < 0.4 * c.size_key[0]
                       for o in out):
                out.append(c)
        return out

    def residual(self, region: int, taken: Sequence[Candidate]) -> list[list[list[Candidate]]]:
        """What is left of a region once the cards in `taken` are taken out (a landmark tile below
        a row of cards, a card beside a hand): for each leftover piece of at least a card's area,
        its ways of being split into cards, best first."""
        if region not in self.comps or not taken:
            return []
        comp, x, y = self.comps[region]
        left = comp.copy()
        ppm = self.px_per_mm
        grow = 3.0 * ppm  # a card drawn a little small must not leave a sliver of itself
        for c in taken:
            poly = _cell_quad(c, grow / ppm) * ppm - (x, y)
            cv2.fillPoly(left, [np.rint(poly).astype(np.int32)], 0)
        quads = [_cell_quad(c).astype(np.float32) for c in taken]
        left = cv2.morphologyEx(left, cv2.MORPH_OPEN, _disc(7.0, ppm))
        smallest = min((k[0] * k[1] for k in self.size_keys), default=2500.0) * ppm**2
        n, labels, stats, _ = _components(left)
        out: list[list[list[Candidate]]] = []
        for lab in range(1, n):
            lx, ly, lw, lh, area = (int(v) for v in stats[lab])
            if area < 0.8 * smallest:
                continue
            sub = (labels[ly:ly + lh, lx:lx + lw] == lab).astype(np.uint8) * 255
            fits, _, _ = _fits(sub, x + lx, y + ly, self.size_keys, ppm, self.edges)
            splits = _distinct_splits(fits, region, ppm, MAX_ALTERNATIVES)
            # a leftover stretched past its cards by the gap to the cards taken out or by what
            # touches it (a row of landmark tiles below a Big Sur row, 72 mm tall with the gap)
            # has no grid of their size: lattices of true card size on its corners have
            loose = _loose_fits(sub, x + lx, y + ly, self.size_keys, ppm, self.edges)
            splits += [s for s in _distinct_splits(loose, region, ppm, LOOSE_ALTERNATIVES)
                       if not any(_same_cells(s, t) for t in splits)]
            # and the lattices on the picture's edges, of each size and way, that those left out:
            # a leftover of a lamp's spot and a card beside it is best covered by lattices on the
            # spot, and the one on the card's own sides came seventh (bench seed 9, Big Sur 39: a
            # starter card beside a spot joined to a column). Only their cells that lie beside the
            # cards taken out, not on them (UNDER_TAKEN)
            edged = _distinct_splits([f for f in loose if f[0].on_edges], region, ppm, 2 * len(self.size_keys))
            edged = [[c for c in split if _share_under(c, quads) <= UNDER_TAKEN] for split in edged]
            splits += [s for s in edged if s and not any(_same_cells(s, t) for t in splits)]
            if splits:
                out.append(splits)
        return out

    def cover(self, region: int, cell: Candidate) -> float:
        """The share of a cell that the region's own mask covers (0 for a region not split)."""
        if region not in self.comps:
            return 0.0
        comp, x, y = self.comps[region]
        poly = _cell_quad(cell) * self.px_per_mm - (x, y)
        # the cell drawn in its own box, and the part of that box within the region's
        lo = np.floor(poly.min(axis=0)).astype(int)
        hi = np.ceil(poly.max(axis=0)).astype(int) + 1
        inside = np.zeros((hi[1] - lo[1], hi[0] - lo[0]), np.uint8)
        cv2.fillPoly(inside, [np.rint(poly - lo).astype(np.int32)], 1)
        a0, a1 = np.maximum(lo, 0), np.minimum(hi, (comp.shape[1], comp.shape[0]))
        if (a1 <= a0).any():
            return 0.0
        part = inside[a0[1] - lo[1]:a1[1] - lo[1], a0[0] - lo[0]:a1[0] - lo[0]]
        covered = np.count_nonzero(comp[a0[1]:a1[1], a0[0]:a1[0]][part > 0])
        return float(covered / max(int(np.count_nonzero(inside)), 1))

    def counted(self, region: int, quads_mm: Sequence[np.ndarray]) -> tuple[float, float]:
        """The share of a region's own mask that the places `quads_mm` (each 4 x 2 mm) cover, and
        the area (mm2) of it they leave ((0, inf) for a region not split)."""
        if region not in self.comps or not len(quads_mm):
            return 0.0, float("inf")
        comp, x, y = self.comps[region]
        inside = comp > 0
        cover = np.zeros(inside.shape, np.uint8)
        for q in quads_mm:
            poly = np.asarray(q, np.float64) * self.px_per_mm - (x, y)
            cv2.fillPoly(cover, [np.rint(poly).astype(np.int32)], 1)
        area, covered = float(np.count_nonzero(inside)), float(np.count_nonzero(cover[inside]))
        return covered / max(1.0, area), (area - covered) / self.px_per_mm**2

    def covers(self, region: int, cell: Candidate, share: float) -> bool:
        """Whether the region's own mask covers at least this share of a cell (see cover). A cell
        whose box overlaps the region's box by less than the share of its area cannot be, and is
        told so without drawing it (most places beside a lone card)."""
        if region not in self.comps:
            return False
        comp, x, y = self.comps[region]
        ppm = self.px_per_mm
        a = np.radians(cell.angle_deg)
        c, s = abs(float(np.cos(a))), abs(float(np.sin(a)))
        hs, hl = cell.size_key[0] / 2 * ppm, cell.size_key[1] / 2 * ppm
        cx, cy = cell.center_mm[0] * ppm - x, cell.center_mm[1] * ppm - y
        ex, ey = c * hs + s * hl, s * hs + c * hl
        # the overlap of the boxes, a pixel wider each way than the cell's drawing can reach; the
        # cell drawn counts at least 0.9 of its area (its outline's pixels count in full)
        wide = max(0.0, min(cx + ex + 2, comp.shape[1]) - max(cx - ex - 1, 0))
        high = max(0.0, min(cy + ey + 2, comp.shape[0]) - max(cy - ey - 1, 0))
        if wide * high < share * 0.9 * (4 * hs * hl):
            return False
        return self.cover(region, cell) >= share

    def differ(self, cells: Sequence[Candidate], level: float) -> np.ndarray:
        """For each cell, whether what lies in it, DIFFER_INSET_MM in from its outline, differs
        from the cloth by at least `level` (times the mask's threshold: see foreground) over half
        of it, judged on a lattice of DIFFER_SAMPLES points (drawing each cell and taking the
        median of its pixels cost about 0.5 ms a place, 40 ms a scan of the latency bench's table)."""
        if self.strength is None or not cells:
            return np.zeros(len(cells), bool)
        ppm = self.px_per_mm
        centre = np.array([c.center_mm for c in cells], np.float64)[:, :, None] * ppm
        a = np.radians([c.angle_deg for c in cells])[:, None]
        half = (np.array([c.size_key for c in cells], np.float64) / 2 - DIFFER_INSET_MM) * ppm
        across, along = _DIFFER_LATTICE[0] * half[:, :1], _DIFFER_LATTICE[1] * half[:, 1:]
        x = np.rint(centre[:, 0] + across * np.cos(a) - along * np.sin(a)).astype(np.intp)
        y = np.rint(centre[:, 1] + across * np.sin(a) + along * np.cos(a)).astype(np.intp)
        h, w = self.strength.shape[:2]
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        # (a point beyond the view counts as the cloth: a place half off the table is no card's)
        seen = np.where(inside, self.strength[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)], -1.0)
        differs: np.ndarray = np.median(seen, axis=1) >= level
        return differs

    def anchored(self, region: int) -> list[list[Candidate]]:
        """Card lattices of the true card size anchored on a region's corners and on the
        picture's edges (see _anchored_grids), best first: other ways to split a region whose
        grid the recogniser found no card in (a glare spot or a shadow joined to a row made the
        region a card's height taller, and a grid of tiles explained it better than the row)."""
        if region not in self.comps:
            return []
        comp, x, y = self.comps[region]
        fits = _loose_fits(comp, x, y, self.size_keys, self.px_per_mm, self.edges)
        best = _distinct_splits(fits, region, self.px_per_mm, LOOSE_ALTERNATIVES)
        # the lattices on the picture's edges cover less of a region stretched by glare or a hand
        # than lattices of the wrong size on its corners do, but they are the ones on the cards
        edged = _distinct_splits([f for f in fits if f[0].on_edges], region, self.px_per_mm, LOOSE_ALTERNATIVES)
        return best + [e for e in edged if not any(_same_cells(e, b) for b in best)]

    def cornered(self, region: int) -> list[Candidate]:
        """One card in each corner of a region's rectangle, of each size the region may be one
        card and its spread of (PILE_SPREAD), its long side along the region's long side: the
        places where a pile's top card may lie. A red card on a red cloth, offset down its pile,
        left a region of the pile's coloured edges and the card's figure, 105 x 69 mm, that no
        lattice of cards covered well enough to propose; the card read 0.96 in the region's lower
        left corner (bench seed 9, proxy Highwayman 201)."""
        r = self.regions.get(region)
        if r is None:
            return []
        along, across = r.size_mm
        angle = r.angle_deg if along >= across else r.angle_deg + 90.0
        long_, short = max(along, across), min(along, across)
        a = np.radians(angle)
        u, v = np.array([np.sin(a), -np.cos(a)]), np.array([np.cos(a), np.sin(a)])
        centre = np.array(r.center_mm, np.float64)
        out: list[Candidate] = []
        for key in self.size_keys:
            k_short, k_long = key
            if not (k_long <= long_ < PILE_SPREAD * k_long and k_short <= short < PILE_SPREAD * k_short):
                continue
            up = _up_angle(u, k_short == k_long)
            for su in (-1.0, 1.0):
                for sv in (-1.0, 1.0):
                    c = centre + u * su * (long_ - k_long) / 2 + v * sv * (short - k_short) / 2
                    if all(o.size_key != key or np.hypot(o.center_mm[0] - c[0], o.center_mm[1] - c[1]) >= 1.0
                           for o in out):
                        out.append(Candidate((float(c[0]), float(c[1])), up, key, region))
        return out


class Edges:
    """Gradients of the rectified view (float32, h x w) along x and y, summed over the Lab
    channels (a card's edge may differ from its neighbour only in colour): without sign
    (`across_x`, `across_y`), for how strong an edge is across a side, and with sign (`signed`),
    for which way straight things run.

    The signed ones are read only inside a region whose outline has no straight edges (see
    _gradient_frame), so a view's are worked out for that region alone, from a crop of the view
    wide enough that they come out exactly as from the whole view."""

    # px around a window that its values depend on: the blur's radius (3 for sigma 1 on 8-bit
    # images) and Sobel's (1), with room to spare
    MARGIN = 8

    def __init__(self, across_x: np.ndarray, across_y: np.ndarray, gx: np.ndarray | None = None,
                 gy: np.ndarray | None = None, *, top: np.ndarray | None = None) -> None:
        if (gx is None or gy is None) and top is None:
            raise ValueError("Edges needs the signed gradients or the view they come from")
        self.across_x, self.across_y = across_x, across_y
        self._signed = (gx, gy)
        self._top = top

    def signed(self, y0: int, y1: int, x0: int, x1: int) -> tuple[np.ndarray, np.ndarray]:
        """The signed gradients along x and y in a window of the view (clipped to it)."""
        gx, gy = self._signed
        if gx is not None and gy is not None:
            return gx[y0:y1, x0:x1], gy[y0:y1, x0:x1]
        assert self._top is not None
        h, w = self.across_x.shape
        y0, y1, x0, x1 = max(0, y0), min(h, y1), max(0, x0), min(w, x1)
        m = self.MARGIN
        cy, cx = max(0, y0 - m), max(0, x0 - m)
        sx, sy = _gradients(self._top[cy:min(h, y1 + m), cx:min(w, x1 + m)], signed=True)
        inner = (slice(y0 - cy, y1 - cy), slice(x0 - cx, x1 - cx))
        return sx[inner], sy[inner]


def _blurred_lab(top: np.ndarray, sigma: float) -> np.ndarray:
    """A BGR view blurred by `sigma` px, in Lab (8-bit)."""
    lab: np.ndarray = cv2.cvtColor(cv2.GaussianBlur(top, (0, 0), sigma), cv2.COLOR_BGR2LAB)
    return lab


GRADIENT_BLUR = 1.0  # px


def _gradients(top: np.ndarray, signed: bool, lab: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A view's gradients along x and y summed over its Lab channels: with sign, or their
    strength (each channel's made positive first). `lab`: the view's _blurred_lab by
    GRADIENT_BLUR, when already worked out."""
    if lab is None:
        lab = _blurred_lab(top, GRADIENT_BLUR)
    gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)
    ones = np.ones((1, 3), np.float32)
    if signed:
        return cv2.transform(gx, ones), cv2.transform(gy, ones)
    # made positive in place (no copies of 8 MB each)
    return cv2.transform(np.abs(gx, out=gx), ones), cv2.transform(np.abs(gy, out=gy), ones)


def edge_maps(top: np.ndarray, lab: np.ndarray | None = None) -> Edges:
    """The rectified view's edges, lightly blurred so a side a pixel off still counts. `lab`:
    the view's _blurred_lab by GRADIENT_BLUR, when already worked out."""
    return Edges(*_gradients(top, signed=False, lab=lab), top=top)


SNAP_SAMPLES = 24  # points sampled along each side

# A side of a place is seen as an outline when the strongest edge across it within OUTLINE_ON_MM
# of where it lies is, over the middle of the side (SNAP_SIDE), OUTLINE_RATIO times as strong as
# the strongest OUTLINE_OFF_MM inside and outside it (the card's print, the cloth; their mean).
# Over the 338 + 338 scenes of a survey (bench seed 9, scenes 0-299 of every game where a card was
# listed unsure), cards counted right showed 3 or 4 such sides in 2,887 of 2,895 (proxy packs) and
# 2,955 of 2,975 (photo-like), right cards listed unsure in 67 of 70 and 28 of 35, and listings
# where no card lay (the cloth, a hand, glare, a phone, a coaster) in 28 of 95 and 159 of 626.
OUTLINE_ON_MM = 2.0
OUTLINE_OFF_MM = (6.0, 8.0, 10.0)
OUTLINE_RATIO = 1.2


def outline_sides(edges: Edges, corners_mm: Any, px_per_mm: float = DETECT_PX_PER_MM) -> int:
    """How many sides of the quad ``corners_mm`` (4 x 2, in order round it) are seen as an
    outline (see OUTLINE_RATIO)."""
    ex, ey = edges.across_x, edges.across_y
    h, w = ex.shape
    c = np.asarray(corners_mm, np.float64).reshape(4, 2) * px_per_mm
    start, vec = c, np.roll(c, -1, axis=0) - c
    length = np.maximum(np.hypot(vec[:, 0], vec[:, 1]), 1e-9)
    along = vec / length[:, None]
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
    frac = np.linspace(0.5 - SNAP_SIDE / 2, 0.5 + SNAP_SIDE / 2, SNAP_SAMPLES)
    points = start[:, None, :] + (frac[None, :, None] * length[:, None, None]) * along[:, None, :]  # (4, S, 2)
    weight = np.abs(normal)  # the edge across a side is the gradient along its normal
    # on it: the strongest of a few points a mm apart across the side (as many at any scale), so a
    # plain stretch (the cloth) reads about as strong on the side as off it; off it: likewise,
    # inside and outside
    near, off = np.arange(-OUTLINE_ON_MM, OUTLINE_ON_MM + 0.5), np.array(OUTLINE_OFF_MM)
    offsets = np.concatenate([near, -off, off]) * px_per_mm
    p = points[None] + offsets[:, None, None, None] * normal[None, :, None, :]  # (O, 4, S, 2)
    x = np.clip(np.rint(p[..., 0]).astype(np.intp), 0, w - 1)
    y = np.clip(np.rint(p[..., 1]).astype(np.intp), 0, h - 1)
    strength = ex[y, x] * weight[None, :, None, 0] + ey[y, x] * weight[None, :, None, 1]  # (O, 4, S)
    inside, outside = np.split(strength[len(near):], 2)
    on = strength[:len(near)].max(axis=0).mean(axis=1)
    beside = (inside.max(axis=0).mean(axis=1) + outside.max(axis=0).mean(axis=1)) / 2
    return int(np.count_nonzero(on > OUTLINE_RATIO * (beside + 1e-3)))


def snap_cells(cells: Sequence[Candidate], edges: Edges,
               px_per_mm: float = DETECT_PX_PER_MM, reach_mm: float = SNAP_MM) -> list[Candidate]:
    """Each cell moved (not turned) to where both pairs of its opposite sides lie on edges.

    Searched one axis at a time (a card's left and right sides fix it across, its top and bottom
    along), twice, each pair scored by the geometric mean of its two sides' mean edge strength
    across the side, so that one strong edge (a card against a dark cloth) cannot pull a cell half
    off its card. All cells are searched at once."""
    if not cells:
        return []
    if len({c.size_key for c in cells}) > 1:
        # each size's cells apart: the steps a cell is searched in are set by the farthest reach
        # of the cells searched with it, so a cell must be searched with its own size's alone. A
        # phone's outline, two 63 x 88 mm cells, moved the 50 mm tiles of a board by a px or two
        # (bench seed 1, proxy Monster Highway 24)
        out = list(cells)
        for key in dict.fromkeys(c.size_key for c in cells):
            at = [n for n, c in enumerate(cells) if c.size_key == key]
            for n, c in zip(at, snap_cells([cells[n] for n in at], edges, px_per_mm, reach_mm), strict=True):
                out[n] = c
        return out
    # read as flat arrays by one flat index per point (one gather each, not two 2-D ones)
    ex, ey = edges.across_x.ravel(), edges.across_y.ravel()
    h, w = edges.across_x.shape
    a = np.radians([c.angle_deg for c in cells])
    right = np.stack([np.cos(a), np.sin(a)], axis=1)  # (N, 2)
    down = np.stack([-np.sin(a), np.cos(a)], axis=1)
    short = np.array([c.size_key[0] for c in cells]) * px_per_mm
    half = {0: short / 2, 1: np.array([c.size_key[1] for c in cells]) * px_per_mm / 2}
    centre = np.array([c.center_mm for c in cells], np.float64) * px_per_mm
    reach = np.minimum(reach_mm * px_per_mm, SNAP_REACH * short)
    frac = np.linspace(-SNAP_SIDE, SNAP_SIDE, SNAP_SAMPLES)
    moved = np.zeros((len(cells), 2))
    axes = ((right, down, 0), (down, right, 1))  # (normal, along the side, which half is across)
    for step_reach in (reach, np.full_like(reach, 4.0 * px_per_mm)):
        n_shift = int(np.ceil(step_reach.max() / max(1.0, px_per_mm))) * 2 + 1
        shifts = np.linspace(-1.0, 1.0, n_shift)[None, :] * step_reach[:, None]  # (N, S)
        for normal, side_dir, k in axes:
            base = centre + moved[:, :1] * right + moved[:, 1:] * down
            t = frac[None, :] * half[1 - k][:, None]  # (N, K) along the side
            support = []
            for sign in (-1.0, 1.0):
                side = base + sign * half[k][:, None] * normal  # (N, 2)
                # the points' y and x (N, S, K): each the same sum as of the points as vectors
                py, px = (side[:, None, None, c] + t[:, None, :] * side_dir[:, None, None, c]
                          + shifts[:, :, None] * normal[:, None, None, c] for c in (1, 0))
                at = np.clip(np.rint(py).astype(np.intp), 0, h - 1)
                at *= w
                at += np.clip(np.rint(px).astype(np.intp), 0, w - 1)
                g = ex.take(at) * np.abs(normal[:, None, None, 0]) + ey.take(at) * np.abs(normal[:, None, None, 1])
                support.append(g.mean(axis=2))
            both = np.sqrt(support[0] * support[1])  # (N, S)
            best = both.argmax(axis=1)
            here = both[:, n_shift // 2]
            # faces have straight lines of their own (roads, frames): move only to edges clearly
            # stronger than those where the cell already is
            go = both[np.arange(len(cells)), best] > SNAP_GAIN * here
            moved[:, k] += np.where(go, shifts[np.arange(len(cells)), best], 0.0)
    out = []
    for c, m, r, d in zip(cells, moved, right, down, strict=True):
        if not m.any():
            out.append(c)
            continue
        delta = (m[0] * r + m[1] * d) / px_per_mm
        corners = tuple((float(x + delta[0]), float(y + delta[1])) for x, y in c.corners_mm)
        out.append(dataclasses.replace(c, center_mm=(float(c.center_mm[0] + delta[0]), float(c.center_mm[1] + delta[1])),
                                       corners_mm=corners, unsnapped=c))
    return out


def snap_cell(c: Candidate, edges: Edges, px_per_mm: float = DETECT_PX_PER_MM,
              reach_mm: float = SNAP_MM) -> Candidate:
    """One cell moved onto the card edges it sees (see snap_cells)."""
    return snap_cells([c], edges, px_per_mm, reach_mm)[0]


def rectify(frame: np.ndarray, calibration: Calibration, px_per_mm: float = DETECT_PX_PER_MM) -> np.ndarray:
    """The play area seen from straight above at px_per_mm (x right, y down, origin marker 0)."""
    t = calibration.table
    size = (round(t.width_mm * px_per_mm), round(t.height_mm * px_per_mm))
    scale = np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0])
    # cv2 area interpolation is not available for perspective warps; pre-shrinking the frame
    # to about twice the target scale keeps table texture from aliasing into speckles.
    # OpenCV's area resize is fast only by a whole factor (0.7 ms to halve a 2304x1296 frame,
    # 15-22 ms for a factor of 0.48 or 0.71): a factor of a half or less is rounded to a whole
    # one (the frame then stays at least twice the target scale), and one between a half and 0.9
    # is bilinear (1.4 ms), which at most two frame pixels per output pixel does not alias.
    shrink = min(1.0, 2.0 * px_per_mm / max(calibration.px_per_mm, 1e-6))
    src = frame
    m = calibration.homography @ scale
    if shrink < 0.9:
        area = shrink <= 0.5
        if area:
            shrink = 1.0 / int(1.0 / shrink)
        src = cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA if area else cv2.INTER_LINEAR)
        m = np.diag([shrink, shrink, 1.0]) @ m
    return cv2.warpPerspective(src, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def foreground(top: np.ndarray, marker_mm: float, px_per_mm: float = DETECT_PX_PER_MM,
               max_hole_mm2: float = 1500.0, unlit: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A 0/255 mask of what lies on the cloth, and how strongly each pixel differs from the
    cloth (1.0 = just at the threshold). ``unlit``: the same view with a lamp's glare spots
    taken out (vision.glare). The cloth is modelled from ``top`` as it is; on a plain cloth each
    pixel of ``unlit`` is then compared with that model, so the lit cloth round a spot is cloth
    (a patterned cloth is read from ``top``: see docs/benchmarks.md, twenty-first pass)."""
    mask, strength, _, _, reaching = _foreground(top, marker_mm, px_per_mm, max_hole_mm2, unlit)
    mask, strength, _ = _with_arms(top, mask, strength, reaching, px_per_mm, max_hole_mm2, unlit)
    return mask, strength


def _foreground(top: np.ndarray, marker_mm: float, px_per_mm: float, max_hole_mm2: float,
                unlit: np.ndarray | None, outline_lab: np.ndarray | None = None,
                ) -> tuple[np.ndarray, np.ndarray, bool, OutlineEdges | None, np.ndarray | None]:
    """foreground, whether the cloth is patterned (read as the set of its colours), the view's
    outline edges when they were found (on a check: see _off_lattice), and what reaches in smooth
    on a grained cloth (see _smooth_reaching_in; not in the mask: see _with_arms). `outline_lab`:
    the view's _blurred_lab by OUTLINE_BLUR_MM, when already worked out."""
    h, w = top.shape[:2]
    edges: OutlineEdges | None = None
    lab8: np.ndarray = cv2.cvtColor(cv2.GaussianBlur(top, (0, 0), 1.5 * px_per_mm), cv2.COLOR_BGR2LAB)
    lab = lab8.astype(np.float32)
    b = max(4, round(BLOCK_MM * px_per_mm))
    gh, gw = max(1, h // b), max(1, w // b)
    blocks = cv2.resize(lab, (gw, gh), interpolation=cv2.INTER_AREA)
    # The cloth's colour at each place: first a median over a wide neighbourhood of blocks
    # (cards cover a minority of any neighbourhood this wide), then twice interpolated from the
    # nearby blocks that are not covered (normalised convolution), so uneven light is followed
    # and a big grid of cards never passes for cloth. This runs at half resolution; only the
    # final comparison is made at full resolution.
    k = min(NEIGHBOURHOOD, ((min(gh, gw) - 1) // 2) * 2 + 1)
    bg_blocks = cv2.medianBlur(np.clip(blocks, 0, 255).astype(np.uint8), k).astype(np.float32) if k >= 3 else blocks
    small = cv2.resize(lab, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    small_planes = cv2.split(small)
    keep = np.ones((sh, sw), np.float32)
    thresh = 9.0
    hue_cut: float | None = None
    for step in range(3):
        bg = cv2.split(cv2.resize(bg_blocks, (sw, sh), interpolation=cv2.INTER_LINEAR))
        # the threshold comes from the cloth's own spread, lighter and darker alike (grain, weave,
        # noise); the mask then forgives darkening (shadows) up to SHADOW
        sym = _distance(small_planes, bg, forgive=False)
        cloth = sym[keep > 0.5]
        if cloth.size < 100:
            cloth = sym.ravel()
        # every fifth place is plenty for a median and its spread (a median of them all was a
        # tenth of a scan)
        cloth = cloth[::5] if cloth.size >= 5000 else cloth
        med = float(np.median(cloth))
        mad = float(np.median(np.abs(cloth - med))) + 1e-3
        thresh = max(9.0, med + 6.0 * 1.4826 * mad)
        # the first, coarse cloth model misses light falloff and shadows: judge whether the
        # cloth is patterned only once the model follows them (a plain felt under a lamp is not)
        if thresh > TEXTURED and step > 0:
            break
        covered = (_distance(small_planes, bg) > thresh).astype(np.uint8)
        if step == 0:
            # ... and the coarse model's spread is the cloth's blotches of light and shade more
            # than its colour: on a blotched grey cloth its threshold came to 28-43 where the
            # finer model's is 14-21, a forearm 22-30 from the cloth (its colour 17-23 apart)
            # passed for cloth, and the finer model learned it there (bench seed 9, proxy Big Sur
            # 22, 64, 113, Roundabout 102, 148, Monster Highway 130: no arm found, a hand on the
            # board unnamed; whole rows of cards went into the model on other cloths). On a grey
            # cloth of one colour in light and shade, what differs in colour more than the
            # cloth's colour varies is no cloth to learn from, however much its lightness varies
            # (see HUE_SPREAD; not on a cloth of several colours, a dotted or a checked one, nor
            # on a coloured one: a wood's grain differs in colour too, and learned without it
            # the wood lost a hand at its edge and a card under it, bench seed 9, proxy Big Sur 46)
            # (the spreads over what the coarse model takes for cloth, every fifth place)
            hue_cut = _hue_cut(small_planes, bg, covered[::5, ::5] == 0)
            if hue_cut is not None:
                colour = cv2.magnitude(small_planes[1] - bg[1], small_planes[2] - bg[2])
                covered |= (colour > hue_cut).view(np.uint8)
        keep = 1.0 - cv2.dilate(covered, np.ones((3, 3), np.uint8)).astype(np.float32)
        wts = cv2.resize(keep, (gw, gh), interpolation=cv2.INTER_AREA)
        sums = cv2.resize(small * keep[:, :, None], (gw, gh), interpolation=cv2.INTER_AREA)
        near = _smooth(sums, wts, 1.5)
        far = _smooth(sums, wts, 6.0)
        wn = cv2.GaussianBlur(wts, (0, 0), 1.5)[:, :, None]
        bg_blocks = np.where(wn > 0.25, near, far)
    r = max(1, round(1.5 * px_per_mm))
    patterned = thresh > TEXTURED or _dotted(covered, px_per_mm / 2)
    if patterned:
        # A patterned cloth (checks, print) varies more than any single colour model allows;
        # describe it instead as the set of colours found all over the table.
        # (lit evenly: see _pattern_mask; the cloth's light around each place is a wide mean of
        # its blocks, as a median flips between the two tones of a check)
        mask, graded = _pattern_mask(lab, px_per_mm, blocks, cv2.GaussianBlur(blocks[:, :, 0], (0, 0), 4.0))
        # A check cloth: a card's pale or green parts share its colours, so the colours alone keep
        # only fragments of cards (a home base green on a green check was not found at all).
        # Its lattice repeats the cloth exactly, so what matches too few of the places one and two
        # periods away is not cloth, whatever its colour (see _periodic_mask).
        # (with a lamp's spots taken out: the light a spot adds is no lattice's; where it drove
        # the check to white, nothing is left to compare, and what lies there is the colours' to find)
        shine = None
        if unlit is not None:
            seen = cv2.resize(cv2.GaussianBlur(unlit, (0, 0), 1.5 * px_per_mm), (sw, sh), interpolation=cv2.INTER_AREA)
            shine = cv2.absdiff(cv2.cvtColor(seen, cv2.COLOR_BGR2GRAY),
                                cv2.cvtColor(cv2.resize(top, (sw, sh), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY))
            seen = cv2.cvtColor(seen, cv2.COLOR_BGR2LAB).astype(np.float32)
        else:
            seen = small
        lat = _cloth_lattice(seen, px_per_mm / 2)
        off = _periodic_mask(seen, px_per_mm / 2, cv2.resize(mask, (sw, sh), interpolation=cv2.INTER_NEAREST), lat)
        if off is not None:
            if shine is not None:
                off[shine > PERIODIC_LIT] = 0
            mask = cv2.max(mask, cv2.resize(off, (w, h), interpolation=cv2.INTER_NEAREST))
            # and by the edges the lattice does not explain (not where a lamp's spot was taken
            # out, as above)
            edges = _outline_edges(top, px_per_mm, outline_lab)
            printed = _off_lattice(top, [2.0 * d for d in lat], px_per_mm, edges)
            if shine is not None:
                printed[cv2.resize(shine, (w, h), interpolation=cv2.INTER_NEAREST) > PERIODIC_LIT] = 0
            # only what the colours or the lattice's colour matches saw some of (near the view's
            # edges the lens bends the check off its lattice: its stripes' sides are left there)
            # but not most of (there the mask's own shape stands: the edges found about the same
            # card with its shadow's side, a shape no card fitted), and no flecks (a speck on a
            # coaster's rim made two coasters a place for tiles)
            pn, plabels, pstats, _ = _components(printed)
            if pn > 1:
                seen_px = np.bincount(plabels[(mask > 0) & (plabels > 0)], minlength=pn)
                area = pstats[:, cv2.CC_STAT_AREA]
                kept = (seen_px >= LATTICE_SEEN * area) & (seen_px < LATTICE_HELD * area) \
                    & (area >= PERIODIC_FLECK_MM2 * px_per_mm**2)
                kept[0] = False
                mask = cv2.max(mask, kept[plabels].view(np.uint8) * np.uint8(255))
        # what the mask holds counts as one strength, above FAINT and PIECE_STRENGTH alike; what
        # it leaves keeps how far it is from the cloth's colours (under the threshold), so a
        # fragment of a card can be followed into the rest of it (see _completed): part of a home
        # base the colour of a strongly grained wood's tone was simply cloth
        # (with OpenCV: the same values as where(mask > 0, 2 * FAINT, min(graded, 0.99)), as the
        # graded map is never negative, at about half the cost of numpy's where)
        strength = cv2.resize(graded, (w, h), interpolation=cv2.INTER_LINEAR)
        # (OpenCV takes a scalar for a plane here; its type stubs do not say so)
        cv2.min(strength, 0.99, dst=strength)  # type: ignore[call-overload]
        cv2.max(strength, cv2.multiply(mask, 1.0, scale=2 * FAINT / 255, dtype=cv2.CV_32F),  # type: ignore[call-overload]
                dst=strength)
        r = max(1, round(2.5 * px_per_mm))
    else:
        bg_full = cv2.resize(bg_blocks, (w, h), interpolation=cv2.INTER_LINEAR)
        # (the planes split from the 8-bit image: the same values, at a third of the cost; the
        # spot's light taken out here only, as the cloth's model and spread include it)
        if unlit is not None:
            lab8 = cv2.cvtColor(cv2.GaussianBlur(unlit, (0, 0), 1.5 * px_per_mm), cv2.COLOR_BGR2LAB)
        lab_planes = [plane.astype(np.float32) for plane in cv2.split(lab8)]
        bg_planes = cv2.split(bg_full)
        strength = _distance(lab_planes, bg_planes) / thresh
        mask = (strength > 1.0).astype(np.uint8) * 255
        if hue_cut is not None:
            # Light and shade on a grey cloth change its lightness, never its colour: what the
            # mask holds that differs in colour beyond the cloth's own is no shading, however
            # faintly it differs in all (see FAINT: on a blotched grey cloth a brown coaster, 1.1
            # times the threshold, lost its "?", bench seed 3, photo-like Big Sur 95)
            coloured = cv2.magnitude(lab_planes[1] - bg_planes[1], lab_planes[2] - bg_planes[2]) > hue_cut
            coloured &= mask > 0
            # (a little over FAINT, as a float32's FAINT is under it; far under PIECE_STRENGTH)
            strength[coloured] = np.maximum(strength[coloured], 1.05 * FAINT)
        dark = _sharp_dark(small, cv2.resize(bg_blocks, (sw, sh), interpolation=cv2.INTER_LINEAR),
                           cv2.resize(mask, (sw, sh), interpolation=cv2.INTER_NEAREST), thresh,
                           0.5 * max_hole_mm2 * (px_per_mm / 2) ** 2)
        if dark is not None:
            given = cv2.resize(dark, (w, h), interpolation=cv2.INTER_NEAREST) > 0
            mask[given] = 255
            # (their strength as if no darkening were forgiven, from lightness alone)
            strength[given] = np.maximum(strength[given],
                                         (bg_planes[0][given] - lab_planes[0][given]) * (LIGHTNESS**0.5 / thresh))
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, ker)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(7.0, px_per_mm))
    # the calibration markers (and their white quiet zones) are not pieces
    rad = round(marker_mm * 1.05 * px_per_mm)
    for cx, cy in ((0, 0), (w, 0), (w, h), (0, h)):
        cv2.rectangle(mask, (cx - rad, cy - rad), (cx + rad, cy + rad), 0, -1)
    reaching = _smooth_reaching_in(small_planes[0], px_per_mm / 2, (h, w))
    return _fill_holes(mask, max_hole_mm2 * px_per_mm**2), strength, patterned, edges, reaching


def _hue_cut(planes: Sequence[np.ndarray], bg: Sequence[np.ndarray], cloth_at: np.ndarray) -> float | None:
    """On a grey cloth whose colour varies little (only its light and shade), how far in colour
    (Lab a, b) from the cloth's model `bg` something is no cloth (see HUE_SPREAD); None on any
    other cloth. `cloth_at`: where the model takes the view for cloth, on every fifth place of
    the planes (all three at one size)."""
    if not cloth_at.any():
        return None
    a, b = bg[1][::5, ::5][cloth_at], bg[2][::5, ::5][cloth_at]
    if float(np.median(np.hypot(a - 128.0, b - 128.0))) > HUE_GREY:
        return None
    spread = np.hypot(planes[1][::5, ::5][cloth_at] - a, planes[2][::5, ::5][cloth_at] - b)
    med = float(np.median(spread))
    cut = med + HUE_SPREAD * 1.4826 * (float(np.median(np.abs(spread - med))) + 1e-3)
    return max(HUE_LEAST, cut) if cut <= HUE_EVEN else None


def _with_arms(top: np.ndarray, mask: np.ndarray, strength: np.ndarray, reaching: np.ndarray | None,
               px_per_mm: float, max_hole_mm2: float, unlit: np.ndarray | None,
               ) -> tuple[np.ndarray, np.ndarray, list[hand.Arm]]:
    """The mask, its strength and the arms reaching onto the table (vision.hand.arms). What
    reaches in smooth on a grained cloth (`reaching`, see _smooth_reaching_in) is taken into the
    mask only where vision.hand then finds one more arm than without it: not a forearm of a
    check's pale squares' colour, which vision.hand takes for the cloth (bench seed 9, photo-like
    Roundabout 121: taken in anyway, it was cut into places listed to check as ra-08)."""
    arms = hand.arms(top, mask, px_per_mm, unlit)
    if reaching is None:
        return mask, strength, arms
    joined = _fill_holes(cv2.max(mask, reaching), max_hole_mm2 * px_per_mm**2)
    more = hand.arms(top, joined, px_per_mm, unlit)
    if len(more) <= len(arms):
        return mask, strength, arms
    strength = cv2.max(strength, cv2.multiply(reaching, 1.0, scale=2 * FAINT / 255, dtype=cv2.CV_32F))
    return joined, strength, more


# A forearm of the cloth's tones (a dark skin on a brown wood, a pale one on a check's pale squares)
# is no colour the cloth's model leaves out, and no hand was seen: bench seed 9, proxy scenes 0-149,
# of the hands on the wood whose forearm lies in view, 4 of 24 darker than L 120 (8-bit Lab) were
# named, 11 of 36 from 120 to 160, 28 of 32 lighter. But skin is smooth where a wood is grained or a
# check is cut into squares.
# On a cloth whose lightness varies (its median standard deviation over SMOOTH_WINDOW_MM) at least
# GRAINED_SD, what is smoother than SMOOTH_SHARE of that, as wide as an arm (hand.WIDTH_MM) all
# along, and reaching onto the table from its edge for that width, is taken into the mask where
# vision.hand then finds an arm in it (see _with_arms).
SMOOTH_WINDOW_MM = 6.0
GRAINED_SD = 2.5
SMOOTH_SHARE = 0.3
SMOOTH_INSET_MM = 2.0


def _smooth_reaching_in(light: np.ndarray, px_per_mm: float, size: tuple[int, int]) -> np.ndarray | None:
    """What reaches onto the play area from its edge, smooth on a grained or checked cloth (see
    SMOOTH_SHARE): 0/255 at the view's `size` (h, w), or None where nothing does.
    `light`: the view's lightness at `px_per_mm` (float32)."""
    k = max(3, round(SMOOTH_WINDOW_MM * px_per_mm) | 1)
    mean = cv2.blur(light, (k, k))
    sd = cv2.sqrt(cv2.max(cv2.blur(light * light, (k, k)) - mean * mean, 0.0))  # type: ignore[call-overload]
    typical = float(np.median(sd[::2, ::2]))
    if typical < GRAINED_SD:
        return None
    smooth = (sd < SMOOTH_SHARE * typical).astype(np.uint8)
    wide = hand.WIDTH_MM * px_per_mm
    # (first the view's edges: an arm crosses one smooth for its width)
    if max(_longest_run(smooth[0]), _longest_run(smooth[-1]), _longest_run(smooth[:, 0]),
           _longest_run(smooth[:, -1])) < wide:
        return None
    core = cv2.distanceTransform(smooth, cv2.DIST_L2, 3) > wide / 2
    if not core.any():
        return None
    # (the opening by an arm's width; kept within what is smooth, as the distances are approximate)
    opened = (cv2.distanceTransform((~core).view(np.uint8) & 1, cv2.DIST_L2, 3) <= wide / 2) & (smooth > 0)
    n, labels = cv2.connectedComponents(opened.view(np.uint8), connectivity=8)
    frame = np.zeros(opened.shape, bool)
    frame[0], frame[-1], frame[:, 0], frame[:, -1] = True, True, True, True
    along = np.bincount(labels[frame], minlength=n)
    keep = along >= wide
    keep[0] = False
    if not keep.any():
        return None
    h, w = size
    out = cv2.resize(keep[labels].view(np.uint8) * np.uint8(255), (w, h), interpolation=cv2.INTER_NEAREST)
    # (held SMOOTH_INSET_MM in from its sides, at the mask's scale: so it joins no card that lies
    # beside the arm to it. Bench seed 9, photo-like Big Sur 125: bs-59, a few mm from a forearm, was
    # cut into two landmarks beside the arm, as no inset left it; 4 mm left too little of proxy
    # Big Sur 2's forearm in the mask to take the four cards it reaches past out of its region)
    return cv2.erode(out, _disc(2 * SMOOTH_INSET_MM, px_per_mm * w / light.shape[1]))


def _longest_run(line: np.ndarray) -> int:
    """The longest run of non-zero values in a 1-D array."""
    return max((stop - start for start, stop in hand.spans(line)), default=0)


def _dotted(covered: np.ndarray, px_per_mm: float) -> bool:
    """Whether what a plain cloth's model leaves (0/1, at ``px_per_mm``) is a dotted cloth's dots:
    flecks of FLECK_MM2 in more than DOTTED of the view's 50 mm blocks (see DOTTED)."""
    _, _, stats, centres = _components(covered)
    area = stats[1:, cv2.CC_STAT_AREA] / px_per_mm**2
    flecks = centres[1:][(area >= FLECK_MM2[0]) & (area <= FLECK_MM2[1])]
    b = 50.0 * px_per_mm
    cols = int(covered.shape[1] // b) + 1  # (a block index for the part blocks at the right too)
    blocks = max(1, int(covered.shape[1] // b) * int(covered.shape[0] // b))
    held = np.unique((flecks[:, 1] // b).astype(np.int64) * cols + (flecks[:, 0] // b).astype(np.int64))
    return held.size > DOTTED * blocks


def _outline_edges(top: np.ndarray, px_per_mm: float, lab: np.ndarray | None = None) -> OutlineEdges:
    """The view's Lab planes blurred by OUTLINE_BLUR_MM, and its edges in any of them (0/255).
    `lab`: the view's _blurred_lab by OUTLINE_BLUR_MM, when already worked out."""
    planes = cv2.split(lab if lab is not None else _blurred_lab(top, OUTLINE_BLUR_MM * px_per_mm))
    edge = np.zeros(top.shape[:2], np.uint8)
    for plane in planes:
        cv2.bitwise_or(edge, cv2.Canny(plane, OUTLINE_CANNY[0], OUTLINE_CANNY[1]), dst=edge)
    return planes, edge


def outlined(top: np.ndarray, px_per_mm: float = DETECT_PX_PER_MM, edges: OutlineEdges | None = None) -> np.ndarray:
    """A 0/255 mask of everything a closed outline encloses in the view (edges in any of the Lab
    planes, gaps of a px bridged): a card whose colours are the cloth's (a patterned cloth's, or
    a plain one's across its middle) still has a card's outline, which the cloth's flecks
    (rounds) do not. `edges`: the view's (_outline_edges), when already found."""
    _, edge = edges if edges is not None else _outline_edges(top, px_per_mm)
    edge = cv2.morphologyEx(edge, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    outer, _ = cv2.findContours(edge, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(edge)
    cv2.drawContours(filled, outer, -1, 255, -1)
    # (an open outline's edge alone, and thin spurs, go)
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, _disc(OUTLINE_OPEN_MM, px_per_mm))


def _sharp_dark(small: np.ndarray, bg: np.ndarray, mask: np.ndarray, thresh: float,
                least: float) -> np.ndarray | None:
    """Dark things the shadow rule forgave, at the scale of ``small`` (Lab, with the cloth's
    colour ``bg`` and the mask there): a black card on a grey or dark blue cloth
    differs from it as a shadow does, darker and no more colourful. But a shadow's sides are soft
    (a hand or a lamp's arm well above the table: tens of mm) and a card's are sharp. Each region
    of at least ``least`` px that is darker than the cloth by more than the threshold (in
    lightness alone) but kept out of the mask, and does not touch the view's border, is given
    back when its side rises, per px, by SHARP_DARK of its depth or more: 0/255 where they are,
    or None when there is none."""
    depth = bg[:, :, 0] - small[:, :, 0]  # (how much darker than the cloth)
    deep = depth > thresh / LIGHTNESS**0.5
    dark = cv2.bitwise_and(deep.view(np.uint8) * np.uint8(255), cv2.bitwise_not(mask))
    dark = cv2.morphologyEx(dark, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    if cv2.countNonZero(dark) < least:
        return None  # (the usual case: no region can be big enough)
    _, labels, stats, _ = _components(dark)
    h, w = dark.shape
    out: np.ndarray | None = None
    for lab in (np.flatnonzero(stats[1:, 4] >= least) + 1).tolist():
        x, y, cw, ch = (int(v) for v in stats[lab, :4])
        if x == 0 or y == 0 or x + cw == w or y + ch == h:
            continue  # (past the view's edge: the table's edge, or the floor)
        x0, y0, x1, y1 = max(0, x - 2), max(0, y - 2), min(w, x + cw + 2), min(h, y + ch + 2)
        comp = labels[y0:y1, x0:x1] == lab
        # its side: towards the cloth, or all round when the cloth barely touches it (the dark
        # body of a card inside its lighter frame, open in a place or two)
        cloth = (~deep[y0:y1, x0:x1] & (mask[y0:y1, x0:x1] == 0)).astype(np.uint8)
        side = comp & (cv2.dilate(cloth, np.ones((3, 3), np.uint8)) > 0)
        if np.count_nonzero(side) < 20:
            side = comp & (cv2.dilate((~comp).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
        light = np.ascontiguousarray(small[y0:y1, x0:x1, 0])
        rise = cv2.magnitude(cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3),
                             cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)) / 8.0
        if float(np.median(rise[side])) >= SHARP_DARK * float(np.median(depth[y0:y1, x0:x1][comp])):
            if out is None:
                out = np.zeros_like(dark)
            out[y0:y1, x0:x1][comp] = 255
    return out


def _centre_distances(pix: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Squared Euclidean distance of every pixel (N x 3) to every centre (K x 3), without an
    N x K x 3 array (squared: the nearest centre is the same, and only a few distances need the
    root)."""
    # in place, in the same order as |p|^2 - 2 p.c + |c|^2 (the same result, fewer big arrays)
    sq = pix @ centres.T
    sq *= -2
    sq += (pix * pix).sum(axis=1)[:, None]
    sq += (centres * centres).sum(axis=1)[None, :]
    out: np.ndarray = np.maximum(sq, 0, out=sq)
    return out


@dataclass(frozen=True)
class _ClothColours:
    """A patterned cloth's colours as learned from scratch, how its table looked then (Lab at
    25 mm blocks) and the pixels they were learned from."""

    looks: np.ndarray
    centres: np.ndarray
    sample: np.ndarray


_CLOTH: dict[tuple[int, int, float], _ClothColours] = {}
_SAMPLES: dict[int, np.ndarray] = {}


def forget_cloth() -> None:
    """Forget every cloth's learned colours: the next scan of a patterned cloth learns them afresh."""
    _CLOTH.clear()


def _same_table(then: np.ndarray, now: np.ndarray) -> bool:
    """Whether a table (Lab at 25 mm blocks) still looks as it did: see CLOTH_MOVED."""
    if then.shape != now.shape:
        return False
    moved = np.sqrt(((then - now) ** 2).sum(axis=2))
    return bool(float(np.median(moved)) <= CLOTH_DRIFT and float((moved > CLOTH_MOVED).mean()) <= CLOTH_CHANGED)


def _sample_at(n: int) -> np.ndarray:
    """Which of n pixels the cloth's colours are learned from: the same draw every time (seed 0),
    drawn once per size."""
    at = _SAMPLES.get(n)
    if at is None:
        at = np.random.default_rng(0).choice(n, size=min(n, KMEANS_SAMPLE), replace=False)
        trim(_SAMPLES, 7)
        _SAMPLES[n] = at
    return at


def _lit_evenly(lab: np.ndarray, light: np.ndarray) -> None:
    """Scale a Lab view (float, in place) as if lit evenly: each place's lightness and chroma alike
    by the typical light over its own (`light`, the same size; by half to twice at most)."""
    gain = np.clip(float(np.median(light)) / np.maximum(light, 1.0), 0.5, 2.0)
    lab[:, :, 0] *= gain
    lab[:, :, 1:] = 128.0 + (lab[:, :, 1:] - 128.0) * gain[:, :, None]


def _pattern_mask(lab: np.ndarray, px_per_mm: float, looks: np.ndarray | None = None,
                  light: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Foreground on a patterned cloth: colours far from every colour that is spread all over
    the table. Cards cover a minority of places, so their colours are not spread everywhere.
    `looks`: the table in Lab at 25 mm blocks; with it, the cloth's colours learned on this same
    table before are refitted instead of learned from scratch (see CLOTH_MOVED). Returns the
    0/255 mask at the size of `lab`, and each place's distance from the nearest cloth colour in
    units of the mask's threshold, at a third of a px per mm."""
    h, w = lab.shape[:2]
    # at a third of a px per mm whatever the view's scale: the colours are learned from the same
    # detail, at the same cost, at any detection scale
    half: np.ndarray = cv2.resize(lab, (int(w / (3 * px_per_mm)), int(h / (3 * px_per_mm))), interpolation=cv2.INTER_AREA)
    hh, hw = half.shape[:2]
    if light is not None:
        # Uneven light leaves each shade of the cloth only where its light is, and a shade not
        # spread over the table passes for cards (a wood under a lamp, a pink cloth darkened at
        # its edges). `light`: the cloth's lightness around each place at 25 mm blocks; the
        # colours are compared as if lit evenly, lightness and chroma scaled alike.
        there = cv2.resize(light.astype(np.float32), (hw, hh), interpolation=cv2.INTER_LINEAR)
        _lit_evenly(half, there)
    pix = half.reshape(-1, 3)
    weights = np.array([0.6, 1.0, 1.0], np.float32)  # lightness counts for less (light, shadow)
    sample = pix[_sample_at(len(pix))] * weights
    k = 10
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    # kmeans++ draws from OpenCV's process-wide generator: seed it, so the same frame always gives
    # the same scan whatever ran before (a scan must not depend on history, other than on the
    # cloth colours kept for this same table: see CLOTH_MOVED).
    cv2.setRNGSeed(0x5CA9)
    key = (hh, hw, float(px_per_mm))
    kept = _CLOTH.get(key)
    if looks is not None and kept is not None and np.array_equal(kept.sample, sample):
        # the very pixels they were learned from (the same frame again): learning them from
        # scratch would give these same colours, so the same frame always reads the same
        centres = kept.centres
    elif looks is not None and kept is not None and _same_table(kept.looks, looks):
        # the same table as when its colours were learned: start from those and refit them
        start = _centre_distances(sample, kept.centres).argmin(axis=1).astype(np.int32).reshape(-1, 1)
        _, _, centres = cv2.kmeans(sample, k, start, crit, 1, cv2.KMEANS_USE_INITIAL_LABELS)
    else:
        # (no labels to start from: OpenCV takes None, its type stubs do not say so)
        _, _, centres = cv2.kmeans(sample, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
        if looks is not None:
            # (scans may run on more than one thread: nothing here raises if another one got
            # there first)
            _CLOTH.pop(key, None)
            trim(_CLOTH, CLOTH_KEPT - 1)
            _CLOTH[key] = _ClothColours(looks.copy(), centres, sample)
    d2 = _centre_distances(pix * weights, centres)
    nearest = d2.argmin(axis=1).reshape(hh, hw)
    # how widely each colour is spread: the share of 50 mm blocks holding a little of it
    b = round(50 / 3)
    gh, gw = max(1, hh // b), max(1, hw // b)
    spread = np.zeros(k)
    for c in range(k):
        share = cv2.resize((nearest == c).astype(np.float32), (gw, gh), interpolation=cv2.INTER_AREA)
        spread[c] = float((share > 0.03).mean())
    cloth = np.flatnonzero(spread >= 0.45)
    if cloth.size == 0:
        cloth = np.array([int(np.argmax(spread))])
    dmin = np.sqrt(d2[:, cloth].min(axis=1))
    own = np.sqrt(d2[np.arange(len(d2)), nearest.ravel()])
    # the cloth's own scatter around its colours sets the scale
    is_cloth = np.zeros(k, bool)
    is_cloth[cloth] = True
    member = is_cloth[nearest.ravel()]
    scale = float(np.median(own[member])) if member.any() else 5.0
    cut = max(12.0, 4.0 * scale)
    fg = (dmin > cut).reshape(hh, hw).astype(np.uint8) * 255
    return cv2.resize(fg, (w, h), interpolation=cv2.INTER_NEAREST), (dmin / cut).reshape(hh, hw).astype(np.float32)


@functools.lru_cache(maxsize=8)
def _shifts_between(fh: int, fw: int, lo: float, hi: float) -> np.ndarray:
    """Which places of an fh x fw autocorrelation (its centre at fh // 2, fw // 2) are shifts
    between lo and hi px long, one of each opposite pair (down, or along the centre row to the
    right): the same for every scan of a table, so worked out once (read-only)."""
    cy, cx = fh // 2, fw // 2
    yy, xx = np.mgrid[-cy:fh - cy, -cx:fw - cx]
    r = np.hypot(xx, yy)
    ok: np.ndarray = (r >= lo) & (r <= hi) & ((yy > 0) | ((yy == 0) & (xx > 0)))
    ok.flags.writeable = False
    return ok


def _lattice(lab: np.ndarray, lo: float, hi: float) -> list[np.ndarray]:
    """The two shifts (dx, dy px, not parallel) under which a patterned cloth matches itself
    best, between lo and hi px long: the cloth's lattice (none found: fewer than two)."""
    h, w = lab.shape[:2]
    fh, fw = cv2.getOptimalDFTSize(h), cv2.getOptimalDFTSize(w)
    # the autocorrelation of the three planes (lightness weighted as in a colour difference), each
    # with the slow changes of light taken out first (a mean over blocks half the longest period
    # wide): otherwise it only falls away from its centre
    ac = np.zeros((fh, fw), np.float32)
    k = max(1, int(hi / 2))
    for c, wt in ((0, LIGHTNESS), (1, 1.0), (2, 1.0)):
        plane = lab[:, :, c]
        low = cv2.resize(cv2.resize(plane, (max(1, w // k), max(1, h // k)), interpolation=cv2.INTER_AREA), (w, h),
                         interpolation=cv2.INTER_LINEAR)
        f = np.zeros((fh, fw), np.float32)
        f[:h, :w] = (plane - low) * np.float32(wt ** 0.5)
        spec = cv2.dft(f, flags=cv2.DFT_COMPLEX_OUTPUT)
        part = cv2.idft(cv2.mulSpectrums(spec, spec, 0, conjB=True), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
        ac += part
    ac = np.fft.fftshift(ac) / max(float(ac[0, 0]), 1e-6)
    cy, cx = fh // 2, fw // 2
    peak = _shifts_between(fh, fw, lo, hi) & (ac >= cv2.dilate(ac, np.ones((5, 5), np.uint8))) \
        & (ac >= PERIODIC_PEAK)
    at = np.flatnonzero(peak)
    out: list[np.ndarray] = []
    for i in at[np.argsort(-ac.ravel()[at])][:50]:
        y, x = divmod(int(i), fw)
        d = np.array([x - cx, y - cy], float)
        if 0 < x < fw - 1 and 0 < y < fh - 1:
            # to a fraction of a px: the peak's parabola along each axis
            for axis, (a, b) in enumerate(((ac[y, x - 1], ac[y, x + 1]), (ac[y - 1, x], ac[y + 1, x]))):
                curve = a - 2 * ac[y, x] + b
                if curve < 0:
                    d[axis] += float(np.clip(0.5 * (a - b) / curve, -0.5, 0.5))
        if any(abs(d[0] * o[1] - d[1] * o[0]) < 0.5 * np.hypot(*d) * np.hypot(*o) for o in out):
            continue
        out.append(d)
        if len(out) == 2:
            break
    return out


def _cloth_lattice(lab: np.ndarray, px_per_mm: float) -> list[np.ndarray]:
    """The cloth's lattice (see _lattice) in px of `lab` (Lab, float): two steps, or fewer when
    the cloth has none."""
    h, w = lab.shape[:2]
    # the lattice is looked for at half this scale (a quarter of the cost), to a fraction of a px
    quarter = cv2.resize(lab, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    return [2.0 * d for d in _lattice(quarter, PERIODIC_MM[0] * px_per_mm / 2, PERIODIC_MM[1] * px_per_mm / 2)]


def _periodic_mask(lab: np.ndarray, px_per_mm: float, beside: np.ndarray | None = None,
                   lat: list[np.ndarray] | None = None) -> np.ndarray | None:
    """Foreground on a cloth printed with a lattice (checks): places that match too few of their
    lattice neighbours (within a small window), as 0/255 at the size of `lab`. `beside`: what
    else is known to lie on the cloth (0/255, the same size); `lat`: the cloth's lattice, when
    already found (see _cloth_lattice). None when the cloth has no lattice."""
    h, w = lab.shape[:2]
    if lat is None:
        lat = _cloth_lattice(lab, px_per_mm)
    if len(lat) < 2:
        return None
    # As if lit evenly, lightness and chroma scaled alike (a shadow's edge, a lamp's pool): the
    # light of each place is the median of the mean lightness of the 3 x 3 periods of the
    # lattice around it (blocks one period wide), of their cloth only (what else is known to
    # lie there left out). A big grid of cards darkened or lightened the periods beside it, and
    # the cloth there then matched none of its neighbours further off; a period mostly covered
    # takes the typical one's light, and one card covering a period is outvoted by the median.
    k = max(2, round(float(max(np.hypot(*d) for d in lat))))
    blocks = (max(1, w // k), max(1, h // k))
    if beside is None:
        periods = cv2.resize(lab[:, :, 0], blocks, interpolation=cv2.INTER_AREA)
    else:
        bare = 1.0 - beside.astype(np.float32) / 255.0
        share = cv2.resize(bare, blocks, interpolation=cv2.INTER_AREA)
        periods = cv2.resize(lab[:, :, 0] * bare, blocks, interpolation=cv2.INTER_AREA) / np.maximum(share, 1e-3)
        covered = share < 0.3
        if covered.all():
            periods = cv2.resize(lab[:, :, 0], blocks, interpolation=cv2.INTER_AREA)
        elif covered.any():
            periods[covered] = float(np.median(periods[~covered]))
    if min(periods.shape) >= 3:
        periods = cv2.medianBlur(periods, 3)
    light = cv2.resize(periods, (w, h), interpolation=cv2.INTER_LINEAR)
    # (a pool of light brighter than that by PERIODIC_BRIGHT washes the check's colours out, which
    # no gain brings back, also in the periods round it, where the light rises steeply: what lies
    # there is the colours' to find)
    pool = (periods > PERIODIC_BRIGHT * float(np.median(periods))).astype(np.uint8)
    lamp = cv2.resize(cv2.dilate(pool, np.ones((3, 3), np.uint8)), (w, h), interpolation=cv2.INTER_NEAREST) > 0
    lab = lab.copy()
    _lit_evenly(lab, light)
    ker = np.ones((3, 3), np.uint8)
    # (within a px of where the lattice says: the cloth's edges blur, and the lens bends it a little)
    lo: np.ndarray = cv2.erode(lab, ker)
    hi: np.ndarray = cv2.dilate(lab, ker)
    # a shadow (a card's, a hand's) darkens the cloth by up to PERIODIC_SHADOW and takes as much of
    # its colour: the range each neighbour allows reaches that far down and that far to grey
    dim = np.float32(1.0 - PERIODIC_SHADOW)
    lo[:, :, 0] *= dim
    lo[:, :, 1:] = np.minimum(lo[:, :, 1:], 128.0 + (lo[:, :, 1:] - 128.0) * dim)
    hi[:, :, 1:] = np.maximum(hi[:, :, 1:], 128.0 + (hi[:, :, 1:] - 128.0) * dim)
    weight = np.array([[LIGHTNESS, 1.0, 1.0]], np.float32)
    # each neighbour's squared difference, over the places whose neighbour lies in the view
    # (OpenCV's arithmetic on the views: the same values as numpy's at a third of the cost)
    diffs: list[tuple[tuple[slice, slice], tuple[slice, slice], np.ndarray]] = []
    for d in lat:
        for sgn in (1, -1, 2, -2):
            dx, dy = round(float(sgn * d[0])), round(float(sgn * d[1]))
            y0, y1, x0, x1 = max(0, -dy), min(h, h - dy), max(0, -dx), min(w, w - dx)
            if y1 <= y0 or x1 <= x0:
                continue
            at, there = (slice(y0, y1), slice(x0, x1)), (slice(y0 + dy, y1 + dy), slice(x0 + dx, x1 + dx))
            here = lab[at]
            # gap = max(here - hi, lo - here, 0), squared and weighted per plane
            gap = cv2.max(cv2.subtract(here, hi[there]), cv2.subtract(lo[there], here))
            gap = cv2.max(gap, np.zeros_like(gap))
            diffs.append((at, there, cv2.transform(cv2.multiply(gap, gap), weight)))
    best = np.full((h, w), np.inf, np.float32)
    for at, _, e in diffs:
        cv2.min(best[at], e, dst=best[at])
    # the cut from how well each place matches its best neighbour: the cloth's own noise
    sample = np.sqrt(best[::3, ::3])
    med = float(np.median(sample))
    mad = float(np.median(np.abs(sample - med))) + 1e-3
    cut2 = max(PERIODIC_CUT, med + 6.0 * 1.4826 * mad) ** 2
    matches = [(at, there, (e <= cut2).view(np.uint8)) for at, there, e in diffs]
    cloth = np.ones((h, w), np.uint8)
    for _ in range(PERIODIC_ROUNDS):
        # A place is cloth when it matches at least PERIODIC_VOTES of its neighbours one and two
        # periods away along each direction: a card longer than a period matches itself one
        # period along (a plain card's ends, a tile's road beside the next tile's), but hardly
        # twice. And a neighbour that is itself not cloth does not vouch for a place, so what
        # differs from the cloth grows over a card round by round.
        votes = np.zeros((h, w), np.uint8)
        for at, there, match in matches:
            votes[at] += match & cloth[there]
        now = (votes >= PERIODIC_VOTES).view(np.uint8)
        if np.array_equal(now, cloth):
            break
        cloth = now
    fg = (cloth == 0).astype(np.uint8) * 255
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, ker)
    # Flecks that add up to less than a small card's quarter, with all else within
    # PERIODIC_NEAR_MM of them, are the lattice's misfit where the light is uneven (a lamp's edge
    # on the check), not things: a piece is found by its colour. A card in a colour of the check
    # shows as flecks, one on each cell of another colour, and with what its colours show of it.
    fg[lamp] = 0
    known = fg if beside is None else cv2.max(fg, beside)
    _, groups, _, _ = _components(cv2.dilate(known, _disc(2 * PERIODIC_NEAR_MM, px_per_mm)))
    held = np.bincount(groups[known > 0], minlength=int(groups.max()) + 1)  # px of each group
    keep = held >= PERIODIC_FLECK_MM2 * px_per_mm**2
    keep[0] = False
    fg[~keep[groups]] = 0
    return fg


def _off_lattice(top: np.ndarray, lat: Sequence[np.ndarray], px_per_mm: float,
                 edges: OutlineEdges | None = None) -> np.ndarray:
    """What lies on a check cloth, by its outlines and print: the view's edges (as `outlined`
    finds them) less those the cloth's lattice explains, closed over LATTICE_PRINT_MM, holes up to
    a card filled, opened by OUTLINE_OPEN_MM; 0/255 at the size of `top`. A check's edges are its
    stripes' sides, each repeated one step of the lattice across itself; a card's sides and print
    are not (a row of cards matches itself one step along, and its pale parts a check's pale
    squares: the colours and the lattice's colour matches alone kept only strips of a row whose
    text bands were the check's cream; bench seed 9, proxy Big Sur 297). `lat`: the lattice's two
    steps in px of `top`; `edges`: the view's (_outline_edges), when already found."""
    planes, edge = edges if edges is not None else _outline_edges(top, px_per_mm)
    # each edge px's direction across it, from the plane whose gradient is strongest there, in
    # four bins of 45 degrees (worked out at the edge px only)
    ys, xs = np.nonzero(edge)
    gx = np.stack([cv2.Sobel(plane, cv2.CV_32F, 1, 0)[ys, xs] for plane in planes])
    gy = np.stack([cv2.Sobel(plane, cv2.CV_32F, 0, 1)[ys, xs] for plane in planes])
    strongest = np.argmax(gx * gx + gy * gy, axis=0)[None]
    gx, gy = np.take_along_axis(gx, strongest, 0)[0], np.take_along_axis(gy, strongest, 0)[0]
    bins = (((np.degrees(np.arctan2(gy, gx)) % 180.0) + 22.5) // 45).astype(np.int32) % 4
    h, w = edge.shape
    r = max(1, round(LATTICE_SLACK_MM * px_per_mm))
    near = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
    explained = np.zeros_like(edge)
    for b in range(4):
        at_b = bins == b
        if not at_b.any():
            continue
        these = np.zeros_like(edge)
        these[ys[at_b], xs[at_b]] = 255
        spread = cv2.dilate(these, near)
        across = np.array([np.cos(np.radians(45 * b)), np.sin(np.radians(45 * b))])
        for d in lat:
            # (only steps across the edge: along it, any straight side, a card's too, meets itself)
            if abs(float(np.dot(d, across))) < 0.5 * float(np.hypot(*d)):
                continue
            for sgn in (1, -1):
                dx, dy = round(float(sgn * d[0])), round(float(sgn * d[1]))
                y0, y1, x0, x1 = max(0, -dy), min(h, h - dy), max(0, -dx), min(w, w - dx)
                if y1 <= y0 or x1 <= x0:
                    continue
                at, there = (slice(y0, y1), slice(x0, x1)), (slice(y0 + dy, y1 + dy), slice(x0 + dx, x1 + dx))
                cv2.bitwise_or(explained[at], cv2.bitwise_and(these[at], spread[there]), dst=explained[at])
    left = cv2.subtract(edge, explained)
    k = max(3, 2 * round(LATTICE_PRINT_MM * px_per_mm / 2) + 1)
    dense = cv2.morphologyEx(left, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    dense = _fill_holes(dense, LATTICE_HOLE_MM2 * px_per_mm**2)
    return cv2.morphologyEx(dense, cv2.MORPH_OPEN, _disc(OUTLINE_OPEN_MM, px_per_mm))


def _distance(lab: Sequence[np.ndarray], bg: Sequence[np.ndarray], forgive: bool = True) -> np.ndarray:
    """How far each pixel's colour is from the cloth's there (both Lab, as three float planes;
    neither is changed)."""
    light, a, b = lab
    bl, ba, bb = bg
    if not forgive:
        dist: np.ndarray = np.sqrt(LIGHTNESS * (light - bl) ** 2 + (a - ba) ** 2 + (b - bb) ** 2)
        return dist
    # A shadow (a hand, a lamp, the camera arm) darkens the cloth without changing its colour:
    # darkening by up to SHADOW of the cloth's lightness is forgiven. Brighter than the cloth
    # (a white card) always counts. Lightness still counts for less than colour.
    # A strongly coloured cloth (red felt) in a pool of light keeps its colour too, only
    # brighter: forgive brightening in proportion to the cloth's saturation, so a white card on
    # a grey cloth (no colour to keep) still counts in full.
    # (Worked on whole channel planes and in place where a value is not needed again: the same
    # operations in the same order as the formulas in the comments, so the same result.)
    ca, cb = ba - 128.0, bb - 128.0
    # vivid = clip((hypot(ca, cb) - MUTED) / (SATURATED - MUTED), 0, 1)
    vivid = np.hypot(ca, cb)
    vivid -= MUTED
    vivid /= SATURATED - MUTED
    np.clip(vivid, 0.0, 1.0, out=vivid)
    lift = LIGHT * vivid
    # dl = where(dl < 0, min(0, dl + SHADOW * bl), max(0, dl - lift * bl)), as a sum: at most
    # one of the two terms is not zero (SHADOW * bl and lift * bl are never negative)
    dl = light - bl
    darker = SHADOW * bl
    darker += dl
    np.minimum(darker, 0.0, out=darker)
    lighter = lift * bl
    np.subtract(dl, lighter, out=lighter)
    np.maximum(lighter, 0.0, out=lighter)
    dl = darker
    dl += lighter
    # in shade a colour also loses saturation about as much as it loses lightness: compare the
    # colour with the cloth's colour dimmed by the same ratio (never by more than SHADOW allows),
    # and in light it gains about as much
    # ratio = clip(light / max(bl, 1), 1 - SHADOW, 1 + lift); da = (a - 128) - ca * ratio (db alike)
    ratio = light / np.maximum(bl, 1.0)
    np.clip(ratio, 1.0 - SHADOW, 1.0 + lift, out=ratio)
    a = a - 128.0
    ca *= ratio
    a -= ca
    b = b - 128.0
    cb *= ratio
    b -= cb
    # sqrt(LIGHTNESS * dl**2 + da**2 + db**2)
    dl *= dl
    dl *= LIGHTNESS
    a *= a
    b *= b
    dl += a
    dl += b
    return np.sqrt(dl, out=dl)


def _smooth(sums: np.ndarray, wts: np.ndarray, sigma: float) -> np.ndarray:
    num = cv2.GaussianBlur(sums, (0, 0), sigma)
    den = cv2.GaussianBlur(wts, (0, 0), sigma)[:, :, None]
    return num / np.maximum(den, 1e-4)


def _disc(mm: float, px_per_mm: float) -> np.ndarray:
    """A round structuring element about `mm` across (an odd number of px, at least 3)."""
    k = max(3, round(mm * px_per_mm) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def _without_slivers(armless: np.ndarray, arm: np.ndarray | None, px_per_mm: float) -> np.ndarray:
    """The mask with an arm taken out (0/255), less what is left of the arm's soft edge along its
    sides, thinner than ARM_SLIVER_MM: such a strip joined a row the arm crosses to the row its
    fingers reach, one part split into neither (bench seed 9, proxy Big Sur 37). Opened only
    within ARM_SLIVER_MM of the arm (`arm`: its pixels): the corners of cards farther off stay."""
    if arm is None:
        return armless
    parts = armless.copy()
    near = cv2.dilate(arm.view(np.uint8), _disc(2 * ARM_SLIVER_MM, px_per_mm)) > 0
    parts[near] = cv2.morphologyEx(armless, cv2.MORPH_OPEN, _disc(ARM_SLIVER_MM, px_per_mm))[near]
    return parts


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """8-connected regions with their statistics (Grana's block-based labelling: about twice as
    fast as OpenCV's default choice on a play area)."""
    n, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return int(n), labels, stats, centroids


def _traced(top: np.ndarray, comp: np.ndarray, x: int, y: int, area: int, largest: float,
            px_per_mm: float) -> tuple[np.ndarray, int, int, int] | None:
    """What the outline round a region encloses (see outlined), looked for in the region's box
    grown by TRACE_MM: the enclosed part that holds the most of the region, if it holds at least
    TRACE_HOLDS of it and is at most TRACE_MOST times its area; opened by TRACE_OPEN_MM when
    larger than a card, and then still holding TRACE_HOLDS of the region. As (0/255 part, x, y,
    area), or None."""
    h, w = comp.shape
    pad = round(TRACE_MM * px_per_mm)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(top.shape[1], x + w + pad), min(top.shape[0], y + h + pad)
    n, labels, stats, _ = _components(outlined(top[y0:y1, x0:x1], px_per_mm))
    if n < 2:
        return None
    held = np.bincount(labels[y - y0:y - y0 + h, x - x0:x - x0 + w][comp > 0], minlength=n)
    held[0] = 0
    k = int(np.argmax(held))
    if held[k] < TRACE_HOLDS * area or stats[k, 4] > TRACE_MOST * area:
        return None
    part = (labels == k).astype(np.uint8) * 255
    if stats[k, 4] >= 1.3 * largest:
        part = cv2.morphologyEx(part, cv2.MORPH_OPEN, _disc(TRACE_OPEN_MM, px_per_mm))
    got = _largest_part(part)
    if got is None:
        return None
    sub, sx, sy, sarea = got
    # (what is left of it still holds the region: not one card of a few it joined)
    kept = np.zeros_like(part)
    kept[sy:sy + sub.shape[0], sx:sx + sub.shape[1]] = sub
    if cv2.countNonZero(cv2.bitwise_and(kept[y - y0:y - y0 + h, x - x0:x - x0 + w], comp)) < TRACE_HOLDS * area:
        return None
    return sub, x0 + sx, y0 + sy, sarea


def _largest_part(mask: np.ndarray) -> tuple[np.ndarray, int, int, int] | None:
    """The largest component of a 0/255 mask, cut to its box: (0/255 part, x, y, area), or None
    when the mask is empty."""
    n, labels, stats, _ = _components(mask)
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, 4]))
    x, y, w, h, area = (int(v) for v in stats[k])
    return (labels[y:y + h, x:x + w] == k).astype(np.uint8) * 255, x, y, area


def _whole_cards(labels: np.ndarray, inside: np.ndarray, x: int, y: int, stats: np.ndarray,
                 size_keys: Sequence[tuple[float, float]], px_per_mm: float) -> int:
    """How many px of the mask's components (`labels`, with their `stats`) inside `inside` (0/255,
    a box at x, y) belong to components that are one whole card each, mostly inside it: the size
    of a card of the pack (within SIZE_SLACK) and filling their least rectangle."""
    h, w = inside.shape
    held = np.bincount(labels[y:y + h, x:x + w][inside > 0].ravel(), minlength=len(stats))
    whole = 0
    for lab in (np.flatnonzero(held[1:]) + 1).tolist():
        bx, by, bw, bh, area = (int(v) for v in stats[lab])
        if held[lab] < 0.5 * area:
            continue
        ys, xs = np.nonzero(labels[by:by + bh, bx:bx + bw] == lab)
        *_, rw, rh = _rect_frame(np.column_stack([xs, ys]))
        short, long_ = sorted((rw / px_per_mm, rh / px_per_mm))
        if area < 0.85 * rw * rh:
            continue
        if any(abs(short - a) <= SIZE_SLACK * a and abs(long_ - b) <= SIZE_SLACK * b for a, b in size_keys):
            whole += int(held[lab])
    return whole


def _fill_holes(mask: np.ndarray, max_hole: float) -> np.ndarray:
    """Cards whose middle looks like the cloth are still whole cards: fill enclosed holes smaller
    than a card (a card-sized hole is a gap in a grid of cards, and stays)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    out = mask.copy()
    for c, h in zip(contours, hierarchy[0], strict=True):
        if h[3] >= 0 and cv2.contourArea(c) < max_hole:
            cv2.drawContours(out, [c], -1, 255, -1)
    return out


def _edge_frame(comp: np.ndarray, points: np.ndarray, px_per_mm: float = DETECT_PX_PER_MM,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float] | None:
    """Like _rect_frame, but square to the region's dominant edge direction. A grid of cards
    with gaps (a plus shape) has its minimum-area rectangle at 45 degrees to the cards; the
    outline's straight edges still run along the cards' sides."""
    contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    c = max(contours, key=len).reshape(-1, 2).astype(np.float64)
    if len(c) < 40 * px_per_mm:
        return None
    step = max(3, round(12 * px_per_mm))  # outline points (12 mm) over which a direction is taken
    d = np.roll(c, -step, axis=0) - c
    ang = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 90.0
    hist = np.bincount(np.minimum((ang * 2).astype(int), 179), minlength=180).astype(np.float64)
    # circular smoothing over the quarter turn
    k = np.array([1, 2, 3, 2, 1], np.float64)
    sm = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), k, mode="valid")
    peak = int(np.argmax(sm))
    if sm[peak] < 0.35 * len(c) * 9 / 5:  # no straight edges to speak of: a round or ragged thing
        return None
    # refine: the mean direction of the segments near the peak (angles folded by a quarter turn)
    near = np.abs((ang - (peak + 0.5) / 2 + 45) % 90 - 45) < 4
    q = np.radians(ang[near] * 4)
    a = np.arctan2(np.sin(q).mean(), np.cos(q).mean()) / 4
    u = np.array([np.cos(a), np.sin(a)])
    v = np.array([-np.sin(a), np.cos(a)])
    pu, pv = points @ u, points @ v
    origin = u * pu.min() + v * pv.min()
    return origin, u, v, float(pu.max() - pu.min() + 1), float(pv.max() - pv.min() + 1)


def _rect_frame(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """A right-handed frame of a point set's minimum-area rectangle: corner origin, u, v, lengths."""
    # the hull has the same minimum-area rectangle as all the points, and is far fewer of them
    rect = cv2.minAreaRect(cv2.convexHull(points.astype(np.float32)))
    box = cv2.boxPoints(rect).astype(np.float64)
    e1, e2 = box[1] - box[0], box[2] - box[1]
    l1, l2 = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
    u, v = e1 / max(l1, 1e-9), e2 / max(l2, 1e-9)
    origin = box[0]
    if u[0] * v[1] - u[1] * v[0] < 0:  # make v point clockwise of u (image y runs down)
        origin, u, v = box[1], -u, v
    return origin, u, v, l1, l2


def _angle_of(d: np.ndarray) -> float:
    """Clockwise angle from table "up" (0, -1) of direction d, in degrees."""
    return float(np.degrees(np.arctan2(d[0], -d[1])))


def _up_angle(d: np.ndarray, square: bool) -> float:
    """The direction along an axis closest to table "up", so an upright card reads 0 degrees."""
    a = _angle_of(d)
    period = 90.0 if square else 180.0
    return (a + period / 2) % period - period / 2


@dataclass(frozen=True)
class _GridFit:
    score: float
    key: tuple[float, float]
    long_along_u: bool
    nx: int
    ny: int
    cells: tuple[tuple[int, int], ...]
    # cells covered less than CELL_COVER but at least PARTIAL_COVER
    partial: tuple[tuple[int, int], ...] = ()
    on_edges: bool = False  # a lattice laid on the picture's edges (see _anchored_grids)


def _fit_grid(sub: np.ndarray, l1: float, l2: float, keys: Sequence[tuple[float, float]],
              px_per_mm: float, area: float | None = None) -> list[_GridFit]:
    """Every card grid (size class, orientation, cells) that explains a region's mask, best first
    (`area`: the region's, when `sub` is only part of it)."""
    area = float(np.count_nonzero(sub)) if area is None else area
    # covered px of any cell from four corners of one integral image (the same counts as
    # counting each cell's pixels)
    integral = cv2.integral((sub > 0).astype(np.uint8))
    fits: list[_GridFit] = []
    for key in keys:
        short, long_ = key
        for long_along_u in (True, False) if short != long_ else (True,):
            cw, ch = (long_, short) if long_along_u else (short, long_)
            cw, ch = cw * px_per_mm, ch * px_per_mm
            nx, ny = max(1, round(l1 / cw)), max(1, round(l2 / ch))
            # gaps between hand-laid cards add up along a row: allow more slack for longer rows
            ex, ey = abs(l1 - nx * cw) / (cw * max(1.0, nx / 2)), abs(l2 - ny * ch) / (ch * max(1.0, ny / 2))
            if ex > SIZE_SLACK or ey > SIZE_SLACK or nx * ny > 400:
                continue
            hh, ww = sub.shape
            xs = np.linspace(0, ww, nx + 1).round().astype(int)
            ys = np.linspace(0, hh, ny + 1).round().astype(int)
            tot = (integral[ys[1:, None], xs[None, 1:]] - integral[ys[:-1, None], xs[None, 1:]]
                   - integral[ys[1:, None], xs[None, :-1]] + integral[ys[:-1, None], xs[None, :-1]])
            px = (ys[1:] - ys[:-1])[:, None] * (xs[1:] - xs[:-1])[None, :]
            cover = np.where(px > 0, tot / np.maximum(px, 1), 0.0)  # (ny, nx)
            full = cover >= CELL_COVER
            # (row by row, as (i, j))
            cells = [(int(i), int(j)) for j, i in zip(*np.nonzero(full), strict=True)]
            partial = [(int(i), int(j)) for j, i in zip(*np.nonzero(~full & (cover >= PARTIAL_COVER)), strict=True)]
            if not cells:
                continue
            covered = float(tot[full].sum())
            cell_area = (xs[1] - xs[0]) * (ys[1] - ys[0])
            explained = covered / max(area, 1.0)
            filled = covered / max(len(cells) * cell_area, 1.0)
            score = explained * min(1.0, filled) - 0.5 * (ex + ey)
            if explained >= EXPLAINED:
                fits.append(_GridFit(score, key, long_along_u, nx, ny, tuple(cells), tuple(partial)))
            elif explained >= WEAK_EXPLAINED:
                # a grid that explains less (a row whose art matches the cloth in places) still
                # goes to the recogniser, after every clean one
                fits.append(_GridFit(score - 1.0, key, long_along_u, nx, ny, tuple(cells), tuple(partial)))
    return sorted(fits, key=lambda f: -f.score)


def _lattice_phase(profile: np.ndarray, step: float) -> float | None:
    """Where a lattice of lines `step` px apart lies on the strongest edges of a profile (summed
    across-edge strength per px), as its first line's offset at or before 0; None when no
    phase stands out (a smooth region).

    A phase is judged by the strength its lines gather together, not per line: a card's two
    sides in a region one card and a bit wide are one more line than a phase can place past
    them, and as a mean per line one strong print line across the card's middle beat them (a Big
    Sur row turned across the table with cloth dots joined to both sides: five cards lost)."""
    n = len(profile)
    if step < 4 or n < step:
        return None
    p = np.convolve(profile, np.array([0.25, 0.5, 0.25]), mode="same")  # a side a px off still counts
    phases = np.arange(int(step))
    pos = np.rint(phases[:, None] + step * np.arange(int(np.ceil(n / step)))[None, :]).astype(int)
    valid = pos < n
    score = np.where(valid, p[np.minimum(pos, n - 1)], 0.0).sum(axis=1)
    best = int(np.argmax(score))
    if score[best] < LATTICE_CONTRAST * float(np.median(score)) + 1e-6:
        return None
    return float(best) - step if best > 0 else 0.0


def _anchored_grids(sub: np.ndarray, f1: float, f2: float, keys: Sequence[tuple[float, float]],
                    px_per_mm: float, across: tuple[np.ndarray, np.ndarray] | None = None,
                    edge_only: bool = False) -> list[tuple[_GridFit, float, float, float, float]]:
    """Card lattices of the true card size anchored at each corner of a region's frame, for a
    region that no grid explains: a hand or a shadow touching a row stretches the region on one
    side, but the cards' own edges still bound it on the others. With `across` (the edge strength
    across the frame's u and v directions, in the frame), also the lattice whose lines lie on the
    picture's edges: tiles whose art matches the cloth leave a mask of road-shaped pieces whose
    outline bounds no tile, but the tiles' sides still show (`edge_only`: that lattice alone).
    Returns (fit, offset along u, offset along v, lattice length along u, along v), best covered
    first."""
    hh, ww = sub.shape
    out: list[tuple[_GridFit, float, float, float, float]] = []
    integral = cv2.integral((sub > 0).astype(np.uint8))
    profiles = (across[0].sum(axis=0), across[1].sum(axis=1)) if across is not None else None
    for key in keys:
        short, long_ = key
        for long_along_u in (True, False) if short != long_ else (True,):
            cw, ch = (long_, short) if long_along_u else (short, long_)
            cw, ch = cw * px_per_mm, ch * px_per_mm
            nx, ny = max(1, int(f1 / cw + 0.15)), max(1, int(f2 / ch + 0.15))
            if nx * ny > 400:
                continue
            seen: list[tuple[float, float]] = []
            # (offset along u, along v, cells along u, along v, cover a cell needs)
            anchors = [] if edge_only else [(ax, ay, nx, ny, CELL_COVER) for ax in (0.0, f1 - nx * cw)
                                            for ay in (0.0, f2 - ny * ch)]
            if profiles is not None:
                pu, pv = _lattice_phase(profiles[0], cw), _lattice_phase(profiles[1], ch)
                if pu is not None and pv is not None:
                    # a cell of the lattice on the tiles' own sides holds a tile when a good part
                    # of it differs from the cloth: the rest of its art may be the cloth's colour
                    anchors.append((pu, pv, int(np.ceil((ww - pu) / cw)), int(np.ceil((hh - pv) / ch)),
                                    EDGE_CELL_COVER))
            for ax, ay, nx, ny, need in anchors:
                if nx * ny > 400:
                    continue
                if any(abs(ax - sx) < 0.1 * cw and abs(ay - sy) < 0.1 * ch for sx, sy in seen):
                    continue
                seen.append((ax, ay))
                xs = np.clip(np.round(ax + cw * np.arange(nx + 1)).astype(int), 0, ww)
                ys = np.clip(np.round(ay + ch * np.arange(ny + 1)).astype(int), 0, hh)
                # covered pixels of every cell at once, from the integral image
                tot = (integral[ys[1:, None], xs[None, 1:]] - integral[ys[:-1, None], xs[None, 1:]]
                       - integral[ys[1:, None], xs[None, :-1]] + integral[ys[:-1, None], xs[None, :-1]])
                cover = tot / (cw * ch)
                js, is_ = np.nonzero(cover >= need)
                if not len(js):
                    continue
                score = float(cover[js, is_].clip(0, 1).mean()) * len(js) / (len(js) + 1)
                cells = tuple((int(i), int(j)) for j, i in zip(js, is_, strict=True))
                out.append((_GridFit(score, key, long_along_u, nx, ny, cells, on_edges=need == EDGE_CELL_COVER),
                            ax, ay, nx * cw, ny * ch))
    return sorted(out, key=lambda f: -f[0].score)


def _gradient_frame(comp: np.ndarray, points: np.ndarray, edges: Edges, x: int, y: int,
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float] | None:
    """A frame square to the direction the picture's own edges inside the region take (folded by
    a quarter turn): a card's sides and print run along its axes, while a glare spot is smooth and
    a cloth's flecks point every way. None when no direction stands out."""
    h, w = comp.shape
    gx, gy = edges.signed(y, y + h, x, x + w)
    inside = comp > 0
    ex, ey = gx[inside], gy[inside]
    mag = np.hypot(ex, ey)
    if mag.size < 50 or float(mag.sum()) <= 0:
        return None
    q = np.arctan2(ey, ex) * 4  # a quarter turn apart is the same card axis
    c, s_ = float((mag * np.cos(q)).sum()), float((mag * np.sin(q)).sum())
    if np.hypot(c, s_) < 0.15 * float(mag.sum()):
        return None
    a = np.arctan2(s_, c) / 4
    u = np.array([np.cos(a), np.sin(a)])
    v = np.array([-np.sin(a), np.cos(a)])
    pu, pv = points @ u, points @ v
    return u * pu.min() + v * pv.min(), u, v, float(pu.max() - pu.min() + 1), float(pv.max() - pv.min() + 1)


Frame = tuple[np.ndarray, np.ndarray, np.ndarray, float, float]


def _frames(comp: np.ndarray, points: np.ndarray, rect: Frame, edges: Edges | None,
            x: int, y: int, px_per_mm: float = DETECT_PX_PER_MM) -> list[Frame]:
    """The frames a region's cards may be square to (all in the region's own px): its outline's
    straight edges, or failing those the picture's edges inside it, and its minimum-area
    rectangle. The rectangle gives the exact direction of a clean card or row (edge directions are
    only good to a few degrees), but a hand or a glare spot joined to a row turns it, and cells
    square to it then cut every card: it is left out when it is turned well away from the cards."""
    square = _edge_frame(comp, points, px_per_mm)
    if square is None and edges is not None:
        square = _gradient_frame(comp, points, edges, x, y)
    if square is None:
        return [rect]
    turn = abs(((_angle_of(square[1]) - _angle_of(rect[1])) + 45) % 90 - 45)
    return [square, rect] if turn < FRAME_TURN else [square]


def _loose_fits(comp: np.ndarray, x: int, y: int, size_keys: Sequence[tuple[float, float]], px_per_mm: float,
                edges: Edges | None = None, edge_only: bool = False,
                ) -> list[tuple[_GridFit, tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]]:
    """Anchored card lattices (see _anchored_grids) square to the cards in the region, best first,
    with frames that _cells can place cells in (`edge_only`: only lattices on the picture's
    edges)."""
    outline, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    pts = np.vstack([c.reshape(-1, 2) for c in outline]).astype(np.float64)
    out: list[tuple[_GridFit, tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]] = []
    h, w = comp.shape
    for frame_ in _frames(comp, pts, _rect_frame(pts), edges, x, y, px_per_mm):
        o, fu, fv, f1, f2 = frame_
        m = np.array([[fu[0], fv[0], o[0]], [fu[1], fv[1], o[1]]])
        size = (max(1, round(f1)), max(1, round(f2)))
        sub = cv2.warpAffine(comp, m, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
        across: tuple[np.ndarray, np.ndarray] | None = None
        if edges is not None:
            ex, ey = edges.across_x[y:y + h, x:x + w], edges.across_y[y:y + h, x:x + w]
            across_u, across_v = (cv2.warpAffine(np.ascontiguousarray(ex * abs(d[0]) + ey * abs(d[1])), m, size,
                                                 flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP) for d in (fu, fv))
            across = (across_u, across_v)
        for g, ax, ay, g1, g2 in _anchored_grids(sub, f1, f2, size_keys, px_per_mm, across, edge_only):
            out.append((g, (o + fu * ax + fv * ay + np.array([x, y], np.float64), fu, fv, g1, g2)))
    out.sort(key=lambda f: -f[0].score)
    return out


def _strong_core(comp: np.ndarray, x: int, y: int, strength: np.ndarray, smallest: float,
                 size_keys: Sequence[tuple[float, float]], px_per_mm: float, edges: Edges | None,
                 ) -> tuple[np.ndarray, int, int, int] | None:
    """The part of a faint region (`comp` at x, y) that differs from the cloth by FAINT or more,
    as (its mask, x, y, area), where that part is one piece the size of a card (0.8 of the
    smallest, `smallest` px, or more), as strong as a piece (PIECE_STRENGTH, median) and fitted
    cleanly by a grid of cards (BRIDGE_SCORE); None otherwise. A red home base on a blue cloth
    under a lamp's halo was joined through the halo's faint edge to the table's corner: a region
    2.6 tiles in area whose median strength, the halo's, was 1.23, and it was dropped as shade
    with the tile in it (bench seed 9, Monster Highway 292, both packs: its strong part 1.03
    tiles, median 5.8 and 7.3). A lamp's white core in its halo is no card: 0.66 of a tile, 1.74
    (bench seed 9, photo-like Big Sur 83, where it was shown as a "?")."""
    h, w = comp.shape
    strong = ((strength[y:y + h, x:x + w] >= FAINT) & (comp > 0)).astype(np.uint8) * 255
    # (the halo's own specks that reach FAINT, and the bridges they make, taken off)
    strong = cv2.morphologyEx(strong, cv2.MORPH_OPEN, _disc(CORE_OPEN_MM, px_per_mm))
    largest = _largest_part(strong)
    if largest is None or largest[3] < 0.8 * smallest:
        return None
    part, cx, cy, area = largest
    ch, cw = part.shape
    if float(np.median(strength[y + cy:y + cy + ch, x + cx:x + cx + cw][part > 0])) < PIECE_STRENGTH:
        return None
    fits, _, _ = _fits(part, x + cx, y + cy, size_keys, px_per_mm, edges)
    if not fits or fits[0][0].score < BRIDGE_SCORE:
        return None
    return part, x + cx, y + cy, area


def _fits(comp: np.ndarray, x: int, y: int, size_keys: Sequence[tuple[float, float]], px_per_mm: float,
          edges: Edges | None = None, trim: bool = False,
          ) -> tuple[list[tuple[_GridFit, tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]], np.ndarray,
                     tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:
    """Every grid of cards that explains a region (best first), its outline points and its
    minimum-area rectangle frame, all in rectified px (`trim`: also in frames without their thin
    ends, see below)."""
    # the outline has the same rectangles and hull as the whole region, with far fewer points
    outline, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    pts = np.vstack([c.reshape(-1, 2) for c in outline]).astype(np.float64) + np.array([x, y], np.float64)
    rect = _rect_frame(pts)
    origin, u, v, l1, l2 = rect
    # the region's mask in its own rectangle's frame (a along u, b along v, in px): square to its
    # straight edges, or failing that to its minimum-area rectangle
    fits: list[tuple[_GridFit, tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]] = []
    local = pts - np.array([x, y], np.float64)
    # card art that matches the cloth leaves holes and bites in a card's mask: cells are judged
    # on the region with those closed
    comp = cv2.morphologyEx(comp, cv2.MORPH_CLOSE, _disc(9.0, px_per_mm))
    for frame_ in _frames(comp, local, (origin - np.array([x, y], np.float64), u, v, l1, l2), edges, x, y,
                          px_per_mm):
        o, fu, fv, f1, f2 = frame_
        m = np.array([[fu[0], fv[0], o[0]], [fu[1], fv[1], o[1]]])
        sub = cv2.warpAffine(comp, m, (max(1, round(f1)), max(1, round(f2))),
                             flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
        grids = _fit_grid(sub, f1, f2, size_keys, px_per_mm)
        fits += [(g, (o + np.array([x, y], np.float64), fu, fv, f1, f2)) for g in grids]
        # and (a row bridged across a band of the cloth's colour), where no grid explains the frame
        # cleanly, the frame without thin ends: a scrap of the cloth stuck to a row's edge stretches
        # its rectangle, and cells of the stretched one cut every card (bench seed 9, Big Sur 390:
        # a row of eight bridged across its grey road, 125 mm deep for a fleck on its top edge,
        # fitted 0.64 and was read as two strips). Not where a grid does, nor for other regions:
        # there the trimmed frame shifted cells off the cards (photo-like Roundabout 181: a grid's
        # edge in a lamp's light trimmed, a cell half over a card and half over the lit cloth read
        # and counted; Monster Highway 79: a tile under a hand read as another at 0.62)
        if not trim or (grids and grids[0].score >= BRIDGE_SCORE):
            continue
        a0, a1, b0, b1 = _trim(sub)
        if (a0, a1, b0, b1) != (0, sub.shape[1], 0, sub.shape[0]):
            o2 = o + a0 * fu + b0 * fv
            fits += [(g, (o2 + np.array([x, y], np.float64), fu, fv, float(a1 - a0), float(b1 - b0)))
                     for g in _fit_grid(sub[b0:b1, a0:a1], float(a1 - a0), float(b1 - b0), size_keys, px_per_mm,
                                        float(np.count_nonzero(sub)))]
    fits.sort(key=lambda f: -f[0].score)
    return fits, pts, rect


def _trim(sub: np.ndarray) -> tuple[int, int, int, int]:
    """The columns a0:a1 and rows b0:b1 of a region's mask in its frame left when its ends
    covered less than TRIM_SHARE as much as its fullest column (row) are cut off."""
    out = []
    for axis in (0, 1):
        prof = np.count_nonzero(sub, axis=axis)
        keep = np.flatnonzero(prof >= TRIM_SHARE * max(int(prof.max(initial=0)), 1))
        out += [int(keep[0]), int(keep[-1]) + 1] if keep.size else [0, len(prof)]
    return out[0], out[1], out[2], out[3]


def find(frame: np.ndarray, calibration: Calibration, size_keys: Sequence[tuple[float, float]],
         px_per_mm: float = DETECT_PX_PER_MM, unlit: np.ndarray | None = None) -> Detection:
    """Card-sized candidates, unexplained blobs and small pieces on the play area. ``unlit``:
    the frame with a lamp's glare spots taken out (vision.glare.remove), if it has any."""
    top = rectify(frame, calibration, px_per_mm)
    unlit_top = None if unlit is None or unlit is frame else rectify(unlit, calibration, px_per_mm)
    # the view blurred in Lab for its gradients, and (the same blur at this scale) for its outlines
    blurred = _blurred_lab(top, GRADIENT_BLUR)
    outline_lab = blurred if OUTLINE_BLUR_MM * px_per_mm == GRADIENT_BLUR else None
    edges = edge_maps(top, blurred)
    smallest = min((k[0] * k[1] for k in size_keys), default=2500.0) * px_per_mm**2
    mask, strength, _, outline_edges, reaching = _foreground(
        top, calibration.table.marker_mm, px_per_mm, 0.5 * smallest / px_per_mm**2, unlit_top, outline_lab)
    # what reaches onto the table from beyond its edge (an arm: see vision.hand), and the mask
    # without it (None when there is none)
    # (not a lamp's light crossing the table's edge: see hand.LAMP_SHARE, WHITE_SHARE)
    mask, strength, arms = _with_arms(top, mask, strength, reaching, px_per_mm, 0.5 * smallest / px_per_mm**2,
                                      unlit_top)
    armless = arm = None
    if arms:
        arm = hand.arm_pixels(cv2.cvtColor(top, cv2.COLOR_BGR2LAB).astype(np.float32), arms, mask)
        if arm.any():
            armless = mask.copy()
            armless[cv2.dilate(arm.view(np.uint8), _disc(ARM_EDGE_MM, px_per_mm)) > 0] = 0
    n, labels, stats, _ = _components(mask)
    work: list[tuple[np.ndarray, int, int, int, int]] = []  # (mask, x, y, area, label)
    hulls: set[int] = set()  # labels of work whose mask is a hull (see _hull)
    consumed: set[int] = set()
    # A band of a card that matches the cloth (a grey road printed across the cards, on a grey
    # cloth) cuts a row in two. Bridge gaps of a few mm, and keep a bridged region when it is a
    # clean grid of cards: then it is one row, not two strips.
    r = max(2, round(BRIDGE_MM * px_per_mm / 2))
    bridged = _fill_holes(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))), 0.5 * smallest)
    bn, blabels, bstats, _ = _components(bridged)
    # the bridged mask holds the whole mask (closing and filling only add): each region lies
    # within one bridged region, found from any one pixel of it (the first of its top row); only
    # regions of a fifth of a card or more count
    within: dict[int, list[int]] = {}
    for lab in (np.flatnonzero(stats[1:, 4] >= 0.2 * smallest) + 1).tolist():
        x, y, w = (int(v) for v in stats[lab][:3])
        first = x + int(np.argmax(labels[y, x:x + w] == lab))
        within.setdefault(int(blabels[y, first]), []).append(lab)
    for blab in range(1, bn):
        x, y, w, h, area = (int(v) for v in bstats[blab])
        one = 0.5 * smallest <= area < 1.3 * smallest  # the size of one card
        if area < 1.5 * smallest and not one:
            continue
        inner = set(within.get(blab, ()))
        if len(inner) < 2:
            continue
        comp = (blabels[y:y + h, x:x + w] == blab).astype(np.uint8) * 255
        fits, pts, _ = _fits(comp, x, y, size_keys, px_per_mm, edges, trim=True)
        if fits and fits[0][0].score >= BRIDGE_SCORE:
            work.append((comp, x, y, area, n + blab))
            consumed |= inner
        elif one:
            # the pieces of one card's print whose body is the cloth's colour, its outline open
            # at one side (see _hull)
            hull = _hull(comp, pts - (x, y), area)
            if hull is not None:
                fits, _, _ = _fits(hull, x, y, size_keys, px_per_mm, edges)
                if fits and fits[0][0].score >= BRIDGE_SCORE:
                    work.append((hull, x, y, area, n + blab))
                    consumed |= inner
                    hulls.add(n + blab)
    # A hand reaching over the table joins the cards it touches into one region with the arm, cut
    # into cells along the arm's slant: a card beside the fingers, in plain view, was read nowhere.
    # Each part of such a region that is left when the arm is taken out, at least half a card, is
    # split into cards too, apart from the regions' own cells (Detection.beside_arm; the region
    # itself stays, so what lies under the arm is still reported), and one that fits no card is
    # no unknown of its own.
    beside_arm: set[int] = set()
    an = 0
    if armless is not None:
        joined = set(np.unique(labels[(armless == 0) & (mask > 0)]).tolist()) - {0}
        an, alabels, astats, _ = _components(_without_slivers(armless, arm, px_per_mm))
        for k in (np.flatnonzero(astats[1:, 4] >= 0.5 * smallest) + 1).tolist():
            x, y, w, h, area = (int(v) for v in astats[k])
            comp = (alabels[y:y + h, x:x + w] == k).astype(np.uint8) * 255
            if int(labels[y, x + int(np.argmax(comp[0] > 0))]) in joined:
                work.append((comp, x, y, area, n + bn + n + k))
                beside_arm.add(n + bn + n + k)
    completed: set[int] = set()  # labels of work grown from a fragment (see _completed)
    fitted: dict[int, Any] = {}  # the fits already tried of a piece's label
    longest = max((k[1] for k in size_keys), default=88.0) * px_per_mm
    largest = max((k[0] * k[1] for k in size_keys), default=2500.0) * px_per_mm**2
    by_outline: set[int] = set()  # labels of work found by their outline alone (see outlined)
    # (their work, split after the mask's own pieces: where a cell of each lands on one place, the
    # mask's is kept (Detection.snap), so what it holds is still reported when no card is read
    # there; a foreign card in the mask as two pieces was no longer shown, its outline's cell read
    # as the cloth: bench seed 9, proxy Roundabout 113)
    enclosed: list[tuple[np.ndarray, int, int, int, int]] = []
    # a card of the cloth's colours, by its outline (see OUTLINE_NEW), on any cloth
    if outline_edges is None:
        outline_edges = _outline_edges(top, px_per_mm, outline_lab)
    on, olabels, ostats, _ = _components(outlined(top, px_per_mm, outline_edges))

    def held_apart(comp: np.ndarray, x: int, y: int, area: int) -> bool:
        # one card: not where one piece of the mask holds most of it (that piece is the card);
        # its print held in pieces apart (bands of it, its middle the cloth's colour) is no card
        # the mask found
        held = labels[y:y + comp.shape[0], x:x + comp.shape[1]][comp > 0]
        held = held[held > 0]
        return not (held.size and int(np.bincount(held).max()) > OUTLINE_NEW * area)

    for k in range(1, on):
        x, y, w, h, area = (int(v) for v in ostats[k])
        if not 0.5 * smallest <= area < OUTLINE_MOST * largest:
            continue
        comp = (olabels[y:y + h, x:x + w] == k).astype(np.uint8) * 255
        if area < 1.3 * largest:
            if not held_apart(comp, x, y, area):
                continue
        else:
            inked = cv2.countNonZero(cv2.bitwise_and(comp, mask[y:y + h, x:x + w]))
            if inked > OUTLINE_NEW * area:
                # places the mask holds and one it does not, their outlines joined by the cloth's
                # flecks that touch them: each part of one card's size left once the flecks are
                # taken off (an opening of OUTLINE_ROW_OPEN_MM) is tried as one card (bench seed 9,
                # proxy Highwayman 100: a cream pile on a cream cloth dotted purple, its outline
                # joined by two dots to the next pile's, which the mask held)
                pn, plabels, pstats, _ = _components(
                    cv2.morphologyEx(comp, cv2.MORPH_OPEN, _disc(OUTLINE_ROW_OPEN_MM, px_per_mm)))
                for p in range(1, pn):
                    px, py, pw, ph, parea = (int(v) for v in pstats[p])
                    part = (plabels[py:py + ph, px:px + pw] == p).astype(np.uint8) * 255
                    if 0.5 * smallest <= parea < 1.3 * largest and held_apart(part, x + px, y + py, parea):
                        lab = n + bn + n + an + on + len(enclosed)
                        enclosed.append((part, x + px, y + py, parea, lab))
                        completed.add(lab)
                        hulls.add(lab)
                        by_outline.add(lab)
                continue
            # a row or grid of such cards edge to edge, with the cloth's flecks that touch
            # its outline taken off: only as the clean grid of cards it then is, only with
            # some print of its own in the mask (a check cloth's squares make lattices too),
            # and not where that print is mostly cards the mask holds whole
            if inked < OUTLINE_ROW_PRINT * area or \
                    _whole_cards(labels, comp, x, y, stats, size_keys, px_per_mm) > OUTLINE_ROW_WHOLE * inked:
                continue
            opened = cv2.morphologyEx(comp, cv2.MORPH_OPEN, _disc(OUTLINE_ROW_OPEN_MM, px_per_mm))
            core = _largest_part(opened)
            if core is None:
                continue
            comp, cx, cy, area = core
            x, y = x + cx, y + cy
            grid = _fits(comp, x, y, size_keys, px_per_mm, edges)
            if not grid[0] or grid[0][0][0].score < BRIDGE_SCORE:
                continue
            fitted[n + bn + n + an + k] = grid  # (kept for the region below)
        lab = n + bn + n + an + k
        enclosed.append((comp, x, y, area, lab))
        completed.add(lab)
        hulls.add(lab)
        by_outline.add(lab)
    grown_at: np.ndarray | None = None  # where a fragment or a speck grew into a card
    for lab in range(1, n):
        if lab in consumed:
            continue
        x, y, w, h, area = (int(v) for v in stats[lab])
        if area < MIN_PIECE_MM2 * px_per_mm**2:
            continue
        comp = (labels[y:y + h, x:x + w] == lab).astype(np.uint8) * 255
        # a fragment of print is followed into its card (see FRAGMENT), and so is a larger part of
        # a card that fits no card (a photo-like home base whose upper half is about the wood's
        # colour left its lower half, 28 x 50 mm, as something not card-shaped)
        part = 0.45 * smallest <= area < 0.8 * smallest
        if part:
            fitted[lab] = _fits(comp, x, y, size_keys, px_per_mm, edges)  # (kept for the region below)
            part = not fitted[lab][0]
        # a speck (see SPECK_MM2), but not in a card a fragment or another speck grew into
        speck = SPECK_MM2 * px_per_mm**2 <= area < FRAGMENT * smallest and \
            float(np.median(strength[y:y + h, x:x + w][comp > 0])) < PIECE_STRENGTH and \
            not (grown_at is not None and bool(grown_at[y:y + h, x:x + w][comp > 0].any()))
        if FRAGMENT * smallest <= area < 0.45 * smallest or part or speck:
            # (a fragment as strong as a piece too: a green tile's road and arrow, 2.6, on green
            # felt; and any fragment on a patterned cloth, whose mask holds one strength, is
            # followed into the weaker difference from its colours around it. It stays a piece as well,
            # since a car alone on a green tile is one; the card grown from it is a split the
            # recogniser must confirm)
            grown = _completed(strength, comp, x, y, smallest, largest, longest, px_per_mm)
            if grown is not None and speck and not _card_like(grown, strength, edges, px_per_mm):
                grown = None
            if grown is not None:
                gm, gx, gy, _ = grown
                if grown_at is None:
                    grown_at = np.zeros(mask.shape, np.uint8)
                grown_at[gy:gy + gm.shape[0], gx:gx + gm.shape[1]] |= gm
                work.append((*grown, n + bn + lab))
                completed.add(n + bn + lab)
                hulls.add(n + bn + lab)
                if float(np.median(strength[y:y + h, x:x + w][comp > 0])) < PIECE_STRENGTH:
                    continue
        work.append((comp, x, y, area, lab))
    work += enclosed
    next_label = max((lab for *_, lab in work), default=0) + 1  # (for parts of regions split below)

    candidates: list[Candidate] = []
    partial: list[Candidate] = []
    beside: list[Candidate] = []
    blobs: list[Region] = []
    pieces: list[Region] = []
    regions: dict[int, Region] = {}
    alternatives: dict[int, list[list[Candidate]]] = {}
    narrowest = min((k[0] for k in size_keys), default=50.0) * px_per_mm
    comps: dict[int, tuple[np.ndarray, int, int]] = {}
    for comp, x, y, area, lab in work:
        h, w = comp.shape
        inside = strength[y:y + h, x:x + w][comp > 0]
        # (a completed fragment: what it grew into differs from the cloth less than the mask asks)
        faint = (float(np.median(inside)) < FAINT if inside.size else True) and lab not in completed
        small = area < 0.45 * smallest
        if small or area < 0.8 * smallest:
            outline, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            pts = np.vstack([c.reshape(-1, 2) for c in outline]).astype(np.float64) + np.array([x, y], np.float64)
            origin, u, v, l1, l2 = _rect_frame(pts)
            if small or max(l1, l2) < 0.9 * narrowest:
                # a playing piece is a solid, compact block of colour, far from the cloth (not
                # grain or glare, not a strip)
                thin, thick = sorted((l1 / px_per_mm, l2 / px_per_mm))
                cut = x <= 0 or y <= 0 or x + comp.shape[1] >= mask.shape[1] or y + comp.shape[0] >= mask.shape[0]
                if (inside.size and float(np.median(inside)) >= PIECE_STRENGTH and not cut
                        and thin >= PIECE_SHORT_MM and thick <= PIECE_ELONGATED * thin):
                    pieces.append(_region(top, comp, (x, y), origin, u, v, l1, l2, area, lab, px_per_mm))
                continue
        fits, pts, (origin, u, v, l1, l2) = fitted.pop(lab) if lab in fitted else _fits(comp, x, y, size_keys,
                                                                                         px_per_mm, edges)
        # Convex, but short of filling its rectangle: a disc (a coaster), an oval, no cards,
        # whose union is a rectangle when it is convex. A coaster cut into four 50 mm cells read
        # as a Landmark tile at 0.85: its cells are only hypotheses (see Region.loose). One the
        # size of a card is more often a tile whose corners a car or the Monster rounds off: a
        # split the recogniser must confirm (see Region.weak).
        round_ = bool(fits) and area < ROUND * l1 * l2 and \
            area >= CONVEX * cv2.contourArea(cv2.convexHull(pts.astype(np.float32)))
        if round_ and area >= 1.3 * smallest:
            fits = []
        hulled = lab in hulls or round_
        if not fits and not faint and area < 1.3 * smallest:
            hull = _hull(comp, pts - (x, y), area)
            if hull is not None:
                refit = _fits(hull, x, y, size_keys, px_per_mm, edges)
                if refit[0]:
                    fits, pts, (origin, u, v, l1, l2) = refit
                    comp, hulled = hull, True
        if not fits and not faint and not round_ and lab not in completed and lab not in beside_arm \
                and area >= 0.8 * smallest:
            # a card or a row whose print is partly the cloth's colour leaves a ragged region that
            # no card fits (bench seed 9, proxy Big Sur 245: three forest cards edge to edge on
            # green felt, 92 x 193 mm): the outline round it may fit, a split the recogniser must
            # confirm (see _traced)
            traced = _traced(top, comp, x, y, area, largest, px_per_mm)
            if traced is not None:
                refit = _fits(traced[0], traced[1], traced[2], size_keys, px_per_mm, edges)
                if refit[0] and refit[0][0][0].score >= BRIDGE_SCORE:
                    comp, x, y, area = traced
                    fits, pts, (origin, u, v, l1, l2) = refit
                    hulled = True
        if not fits and lab in completed and not round_:  # (round: see below)
            # a fragment grown into something of a card's size that no card's outline fits (a
            # pile's top card, dark green on green felt, the cards under it showing at its sides):
            # card lattices anchored on its straight sides, cells of no grid (see Region.loose)
            # that count only when read clearly; where none is read, it was the cloth
            tried = _distinct_splits(_loose_fits(comp, x, y, size_keys, px_per_mm, edges), lab, px_per_mm,
                                     LOOSE_ALTERNATIVES)
            if tried:
                comps[lab] = (comp, x, y)
                regions[lab] = dataclasses.replace(_region(top, comp, (x, y), origin, u, v, l1, l2, area, lab, px_per_mm),
                                                   loose=True, grown=True, outline=lab in by_outline)
                candidates += tried[0]
                alternatives[lab] = tried[1:]
            continue
        if not fits:
            # a patch of light or shade with no card shape (or a fragment grown into a disc): the
            # cloth; but a card may lie in it, joined to the shade around it (see _strong_core)
            if faint and lab not in completed:
                core = _strong_core(comp, x, y, strength, smallest, size_keys, px_per_mm, edges)
                if core is not None:
                    work.append((*core, next_label))
                    next_label += 1
                continue
            if faint or lab in completed:
                continue
            blob = _region(top, comp, (x, y), origin, u, v, l1, l2, area, lab, px_per_mm)
            if lab not in beside_arm:  # (that is its whole region's to report)
                blobs.append(blob)
            if area >= LOOSE_LEAST * smallest:
                # Cards may still be in there, joined by a hand or a shadow: propose card-sized
                # cells anchored on the region's straight sides and let the recogniser decide.
                loose = _loose_fits(comp, x, y, size_keys, px_per_mm, edges)
                tried = _distinct_splits(loose, lab, px_per_mm, LOOSE_ALTERNATIVES)
                if tried:
                    comps[lab] = (comp, x, y)
                    regions[lab] = dataclasses.replace(blob, loose=True)
                    if lab in beside_arm:
                        beside += tried[0]
                        continue
                    candidates += tried[0]
                    alternatives[lab] = tried[1:]
            continue
        regions[lab] = dataclasses.replace(_region(top, comp, (x, y), origin, u, v, l1, l2, area, lab, px_per_mm),
                                           faint=faint, weak=fits[0][0].score < 0 or hulled,
                                           grown=lab in completed, outline=lab in by_outline)
        comps[lab] = (comp, x, y)
        distinct: list[tuple[_GridFit, tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]] = []
        for g, fr in fits:  # both frames often give the same split: try each split once
            if not any(g.key == d.key and len(g.cells) == len(d.cells) for d, _ in distinct):
                distinct.append((g, fr))
        ranked = [_cells(g, fr, lab, px_per_mm) for g, fr in distinct[:MAX_ALTERNATIVES]]
        if fits[0][0].score < 0:
            # a weak fit is cut to the region's outline, which art matching the cloth bites into:
            # the lattice on the tiles' own sides is another way to split it
            ranked += [c for c in _distinct_splits(_loose_fits(comp, x, y, size_keys, px_per_mm, edges, edge_only=True),
                                                   lab, px_per_mm, 2) if not any(_same_cells(c, r) for r in ranked)]
        if lab in beside_arm:
            beside += ranked[0]
            # and its best split into each other size, and each other way round: where the arm
            # cuts a row of Big Sur cards, what is left may fit a lattice of landmark tiles better
            # (bench seed 9, proxy Big Sur 288); a card beside the fingers with the cloth's flecks
            # beside it fitted two cards turned across it better than itself (bench seed 3,
            # photo-like Highwayman 92). Read in this order, a place read sure first keeps its
            # card (vision.scan)
            ways = {_way(g, split) for (g, _), split in zip(distinct[:1], ranked, strict=False)}
            for (g, _), split in zip(distinct[1:MAX_ALTERNATIVES], ranked[1:], strict=False):
                way = _way(g, split)
                if way not in ways:
                    ways.add(way)
                    beside += split
            continue
        candidates += ranked[0]
        # (each split's: the recogniser may take another split than the first)
        for g, fr in distinct[:MAX_ALTERNATIVES]:
            partial += [c for c in _cells(g, fr, lab, px_per_mm, partial=True)
                        if not any(o.size_key == c.size_key and np.hypot(o.center_mm[0] - c.center_mm[0],
                                                                         o.center_mm[1] - c.center_mm[1]) < 6.0
                                   for o in partial)]
        alternatives[lab] = ranked[1:]
        if area < 0.8 * max(k[0] * k[1] for k in size_keys) * px_per_mm**2:
            partial += _flush_cells(origin, u, v, l1, l2, size_keys, lab, px_per_mm)
    det = Detection([], blobs, pieces, regions, top, mask, alternatives, px_per_mm, comps, tuple(size_keys), edges,
                    strength=strength, arms=arms, arm=arm)
    det.candidates = det.snap(candidates)
    det.partial = det.snap(partial)
    det.beside_arm = det.snap(beside)
    return det


def _way(fit: _GridFit, cells: Sequence[Candidate]) -> tuple[tuple[float, float], int]:
    """A split's card size and which way its cards lie (0: long side within 45 degrees of the
    table's y axis, 1: of its x axis; 0 for square cards)."""
    if fit.key[0] == fit.key[1] or not cells:
        return fit.key, 0
    return fit.key, round((cells[0].angle_deg % 180.0) / 90.0) % 2


def _flush_cells(origin: np.ndarray, u: np.ndarray, v: np.ndarray, l1: float, l2: float,
                 size_keys: Sequence[tuple[float, float]], lab: int, px_per_mm: float) -> list[Candidate]:
    """Cards a region may be the visible part of: one whose side the region's side matches
    (FLUSH_SIDE, FLUSH_WIDER) while the region falls short of its other side (dark cards on dark
    wood left the mask a 61 x 45 mm strip of each 63 x 88 mm card, read as a 50 mm tile). The rest
    of such a card is the cloth's colour, beyond either end of the region: a cell flush with each
    end."""
    out: list[Candidate] = []
    for short, long_ in size_keys:
        for side, other in ((short, long_), (long_, short)) if short != long_ else ((short, long_),):
            for across, along, a_len, b_len in ((u, v, l1, l2), (v, u, l2, l1)):
                # `across` the region matches the card's `side`; along it the region is short of `other`
                over = a_len - side * px_per_mm  # (how much wider than the card: below 0, narrower)
                if not -FLUSH_SIDE * side * px_per_mm <= over <= FLUSH_WIDER * side * px_per_mm \
                        or not FLUSH_SHORT * other * px_per_mm <= b_len < (1 - FLUSH_SIDE) * other * px_per_mm:
                    continue
                angle = _up_angle(along if other == long_ else across, short == long_)
                mid = origin + across * a_len / 2
                out += [_candidate((mid + along * at) / px_per_mm, angle, (short, long_), lab)
                        for at in (other * px_per_mm / 2, b_len - other * px_per_mm / 2)]
    return out


def _completed(strength: np.ndarray, comp: np.ndarray, x: int, y: int, smallest: float, largest: float,
               longest: float, px_per_mm: float) -> tuple[np.ndarray, int, int, int] | None:
    """A fragment of print (comp at x, y) followed into the weaker difference from the cloth
    around it (LOW_STRENGTHS: a card's frame or body a little off the cloth's colour), within a
    card's length of it: (mask, x, y, area) when that is the size of one card (from half the
    smallest card's area to 1.3 times the largest's), else None (the fragment joins the cloth's
    own shading, or nothing more). A green tile on green felt left its road and bits of its frame
    in the mask, each too small for a card."""
    h, w = comp.shape
    pad = round(longest)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(strength.shape[1], x + w + pad), min(strength.shape[0], y + h + pad)
    row = int(np.argmax(comp.any(axis=1)))
    # (first the weakest difference; when that joins the cloth's shading beside the card, a
    # little stronger: a grey card on grey felt, its rays 0.6-1.1, joined a shadow 7 mm off at 0.5)
    for low in LOW_STRENGTHS:
        weak = (strength[y0:y1, x0:x1] > low).astype(np.uint8) * 255
        weak[y - y0:y - y0 + h, x - x0:x - x0 + w] |= comp
        _, labels, stats, _ = _components(cv2.morphologyEx(weak, cv2.MORPH_CLOSE, _disc(FRAME_GAP_MM, px_per_mm)))
        seed = int(labels[y - y0 + row, x - x0 + int(np.argmax(comp[row] > 0))])
        gx, gy, gw, gh, _ = (int(v) for v in stats[seed])
        # reaching the window's side (where the window is not cut short by the picture's edge):
        # far bigger than a card
        if (gx == 0 and x0 > 0) or (gy == 0 and y0 > 0) or (gx + gw == x1 - x0 and x1 < strength.shape[1]) \
                or (gy + gh == y1 - y0 and y1 < strength.shape[0]):
            continue
        grown = _fill_holes((labels[gy:gy + gh, gx:gx + gw] == seed).astype(np.uint8) * 255, smallest)
        area = int(np.count_nonzero(grown))
        # (a card of any of the game's sizes: a Big Sur card is over twice a landmark tile)
        if 0.5 * smallest <= area < 1.3 * largest:
            return grown, x0 + gx, y0 + gy, area
    return None


def _card_like(grown: tuple[np.ndarray, int, int, int], strength: np.ndarray, edges: Edges,
               px_per_mm: float) -> bool:
    """Whether what a speck grew into (_completed's mask, x, y, area) looks like a card, not the
    cloth's blotch or grain: SPECK_SIDES of its rectangle's sides outlined, and it differs from the
    cloth SPECK_CONTRAST times as much as a ring round it does (see SPECK_MM2)."""
    grown_mask, x, y, _ = grown
    outline, _ = cv2.findContours(grown_mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    box = cv2.boxPoints(cv2.minAreaRect(np.vstack(outline).reshape(-1, 2).astype(np.float32)))
    if outline_sides(edges, (np.asarray(box) + np.array([x, y])) / px_per_mm, px_per_mm) < SPECK_SIDES:
        return False
    near, far = SPECK_RING_MM
    h, w = grown_mask.shape
    pad = round(far * px_per_mm) + 1
    x0, y0 = max(0, x - pad), max(0, y - pad)
    window = strength[y0:y + h + pad, x0:x + w + pad]
    inside = np.zeros(window.shape, np.uint8)
    inside[y - y0:y - y0 + h, x - x0:x - x0 + w] = grown_mask
    ring = cv2.dilate(inside, _disc(2 * far, px_per_mm)) & ~cv2.dilate(inside, _disc(2 * near, px_per_mm))
    if not ring.any():
        return False
    return float(np.median(window[inside > 0])) >= SPECK_CONTRAST * float(np.median(window[ring > 0]))


def _hull(comp: np.ndarray, outline: np.ndarray, area: int) -> np.ndarray | None:
    """A region's convex hull as its mask, when the region covers at least HULL_COVER of it. A
    card whose body is the cloth's colour (a cream card on a white check) leaves a ring of its
    print open at one side, which no filling closes and no grid explains: the ring's hull is
    the card. A split of a hull is one the recogniser must confirm (see Region.weak)."""
    hull = np.zeros_like(comp)
    cv2.fillConvexPoly(hull, cv2.convexHull(np.rint(outline).astype(np.int32)), 255)
    return hull if area >= HULL_COVER * np.count_nonzero(hull) else None


def _cell_quad(c: Candidate, grow_mm: float = 0.0) -> np.ndarray:
    """A cell's corners (4 x 2, mm), its sides moved out by ``grow_mm``."""
    a = np.radians(c.angle_deg)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    hs, hl = c.size_key[0] / 2 + grow_mm, c.size_key[1] / 2 + grow_mm
    return np.array([np.asarray(c.center_mm) + sx * hs * right + sy * hl * down
                     for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def covered_share(quad: np.ndarray, quads: Sequence[np.ndarray]) -> float:
    """The share of a place (4 x 2, float32) that the places `quads` (each 4 x 2, float32)
    cover, summed."""
    area = abs(cv2.contourArea(quad))
    return sum(float(cv2.intersectConvexConvex(quad, q)[0]) for q in quads) / max(area, 1e-6)


def _share_under(c: Candidate, quads: Sequence[np.ndarray]) -> float:
    """The share of a cell that the places `quads` (each 4 x 2 mm, float32) cover, summed."""
    return covered_share(_cell_quad(c).astype(np.float32), quads)


def _distinct_splits(fits: Sequence[tuple[_GridFit, Frame]], region: int, px_per_mm: float,
                     most: int) -> list[list[Candidate]]:
    """The cells of each fit, best first, each way of placing them once, at most `most` ways."""
    splits: list[list[Candidate]] = []
    for g, fr in fits:
        cells = _cells(g, fr, region, px_per_mm)
        if cells and not any(_same_cells(cells, t) for t in splits):
            splits.append(cells)
        if len(splits) >= most:
            break
    return splits


def _same_cells(a: list[Candidate], b: list[Candidate], tol_mm: float = 6.0) -> bool:
    """Two splits that put the same cells in the same places (to within a few mm)."""
    if len(a) != len(b) or a[0].size_key != b[0].size_key:
        return False
    pb = np.array([c.center_mm for c in b])
    return all(float(np.hypot(*(pb - np.array(c.center_mm)).T).min()) < tol_mm for c in a)


def _cells(fit: _GridFit, frame_: tuple[np.ndarray, np.ndarray, np.ndarray, float, float], lab: int,
           px_per_mm: float, partial: bool = False) -> list[Candidate]:
    """The fit's cells as candidates in table mm (`partial`: its partly covered cells instead)."""
    origin, u, v, l1, l2 = frame_
    square = fit.key[0] == fit.key[1]
    long_dir = u if fit.long_along_u else v
    angle = _up_angle(long_dir, square)
    cw, ch = l1 / fit.nx, l2 / fit.ny
    return [_candidate((origin + u * (i + 0.5) * cw + v * (j + 0.5) * ch) / px_per_mm, angle, fit.key, lab)
            for i, j in (fit.partial if partial else fit.cells)]


def _candidate(c: np.ndarray, angle: float, key: tuple[float, float], lab: int) -> Candidate:
    """A cell of size class `key` centred at c (mm) whose long axis points along angle, with its
    corners."""
    half = np.array(key) / 2
    a = np.radians(angle)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    corners = tuple((float(p[0]), float(p[1])) for p in (
        c - right * half[0] - down * half[1], c + right * half[0] - down * half[1],
        c + right * half[0] + down * half[1], c - right * half[0] + down * half[1]))
    return Candidate((float(c[0]), float(c[1])), angle, key, lab, corners)


def _region(top: np.ndarray, comp: np.ndarray, offset: tuple[int, int], origin: np.ndarray, u: np.ndarray,
            v: np.ndarray, l1: float, l2: float, area: int, lab: int, px_per_mm: float) -> Region:
    x, y = offset
    crop = top[y:y + comp.shape[0], x:x + comp.shape[1]]
    inner = cv2.erode(comp, np.ones((3, 3), np.uint8))
    sel = inner if np.count_nonzero(inner) >= 8 else comp
    colour = cv2.mean(crop, mask=sel)[:3]
    c = (origin + u * l1 / 2 + v * l2 / 2) / px_per_mm
    return Region((float(c[0]), float(c[1])), (l1 / px_per_mm, l2 / px_per_mm), _angle_of(u),
                  area / px_per_mm**2, (int(colour[0]), int(colour[1]), int(colour[2])), lab)
