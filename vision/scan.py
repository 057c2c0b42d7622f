"""`scan(frame, game)`: one camera frame in, one Observation out.

Stages: check the frame, confirm (or find) the calibration, find card-sized cells and pieces on
the rectified play area, take a lamp's glare spots out of the frame the cells are read from
(vision.glare), identify each cell against the pack's learned index, and read the game's
layout from what was recognised. Cards the recogniser is unsure of are listed in
``Observation.unsure`` and left out of ``items`` and the layout, so nothing uncertain is scored.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision import detect, glare, hand, layout, lookalike
from vision.calibration import Calibration, calibrate, check_frame, recheck
from vision.errors import VisionError
from vision.identify import ACCEPT, MARGIN, CardIndex, Match, index_for_pack, rotations_for, size_key
from vision.observation import ARM, GLARE, Item, Observation, TableSpec, Unknown
from vision.occlusion import pieces_on, read_past_a_piece, same_turn

GAMES = ("bigsur", "roundabout", "monsterhighway", "highwaysbyways", "highwayman")
# A fit error above this still works but places cards less exactly: tell the players.
WARN_REPROJECTION_PX = 3.0

LONELY_CELLS = 2
LONELY_SHARE = 0.5
LONELY_MOST = 1  # ... when it is alone
WEAK_SURE = 0.8  # ... unless it correlates this well
# A sure match is counted only from this score: below it, it is listed for the players to check
# (1 % of right cards in the bench scored below it, and every chance match on a phone, an arm or a
# foreign card seen there: 0.62-0.69; the recogniser's own bar is ACCEPT, 0.62)
COUNTED = 0.7
# ... except where its cell lies edge to edge with a card that counts, in a region a grid explains:
# there it is a row or a grid, and the recogniser's own bar (ACCEPT) is enough. Of the cards of
# bench seeds 1-3 listed at 0.62-0.70 with the right id, most were road tiles under a sleeve's
# sheen or beside a car, their neighbours on the board read 0.85-0.90 (a chance match lies apart
# from a row: on a phone, a coaster, an arm). Edge to edge: one card over along a side, within
# EDGE_SLACK_MM (a row's gaps and wobble), not partly over the counted card (a place half on a
# row's last card read 0.68 as another card). docs/benchmarks.md, thirtieth pass
EDGE_SLACK_MM = 8.0
# ... and square to it, within this many degrees (a row's cards lie within a few degrees of each
# other): a place read turned further off its row (see TURN_TRIES) lies as no row's card does.
# Bench seed 9, photo-like Big Sur scene 76: fingers over half a row's card, its place read turned
# 8 degrees as another card (0.66) and counted edge to edge with the card below. docs/benchmarks.md,
# forty-first pass
EDGE_TURN_DEG = 6.0
# ... and when counted cards of any region cover no more than this share of it: a landmark tile's
# place over the ends of a row's cards, edge to edge with the landmark tile below it, read 0.65 as
# a landmark (edge to edge, cards overlap by their gaps and tilts only)
EDGE_OVERLAP = 0.1
# a card read sure whose face a glare spot drove to white over more than this share counts only
# from CLIPPED_COUNTED; below, it is listed for the players (see vision.glare.clipped): the edge of
# a white patch across a patterned cloth was read as a card at 0.83, a third of its place white;
# a Highwayman card 42 % white was read right at 0.91
CLIPPED_SHARE = 0.2
CLIPPED_COUNTED = 0.88
# an unknown place a glare spot drove to white over this share of its box is named as the glare
# (vision.observation.GLARE): whatever lies under the white cannot be seen. On seed 1's bench
# scenes with glare, such places held 0.03 to 0.99 of white, with nothing under them or over a
# card or an object alike; from a quarter up the white is a good part of what was seen there
GLARE_SHARE = 0.25
# a piece found on a tile this near one found on the cloth is the same piece (mm)
SAME_PIECE_MM = 10.0
# the Monster found hiding its tile (vision.layout) is coloured by the middle of its place this wide
MONSTER_COLOUR_MM = 20.0
# an unsure reading whose place counted cards cover this much is those cards (see _covered_by_cards)
COVERED_SHARE = 0.6
# a place listed unsure is shown as a thing of no card of the pack ("?") unless at least this many
# of its sides are seen as a card's outline (detect.outline_sides): a guess's name on the cloth, a
# hand, a glare spot or a phone tells the players to look for a card that is not there
OUTLINED_SIDES = 3
# Cards laid edge to edge: each sure card's neighbours are looked for this far (mm) beyond its
# sides, where the region's mask covers this much of a card, for this many rounds (see _grow)
GROW_GAP_MM = 3.0
GROW_COVER = 0.55
GROW_ROUNDS = 12
# ... and a place the mask covers less is read only when it touches it this much or continues a
# line of cards the mask left bare (see _grow): a lone card's bare sides are left unread
GROW_TOUCH = 0.1
# ... or, the mask bare there, when what lies there differs from the cloth this much over half of
# it (detect.Detection.differ; 1.0 is the mask's threshold): a card the mask left bare but for a
# few specks (dark landmark tiles on dark wood in shadow: most 0.48-0.9), not the cloth itself (the
# bare sides of the latency bench's 30 cards, on wood, cloth and a patterned cloth: 216 of 222
# under 0.37, the highest 0.67). docs/benchmarks.md, thirty-ninth pass
GROW_DIFFERS = 0.45
PIECE_INSET_MM = 5.0  # a piece stands in a place when its centre lies this far inside its sides
# A cell not read sure with a clear score is read again turned by these many degrees either way
# (its region's frame may be tilted off its cards): the best sure reading of those replaces it.
# Two degrees too: a pile's top card lies a few degrees off the pile's outline, and two
# Highwayman cards of one road differ only in their number, which four degrees off the card
# smears (bench seed 9, proxy Highwayman 122: hm-exeter-4 read 0.864 as placed, 0.049 ahead of
# hm-exeter-8, so unsure; 0.868 and sure two degrees round, unsure four either way: 0.82, 0.75)
TURN_TRIES = (-12.0, -8.0, -4.0, -2.0, 2.0, 4.0, 8.0, 12.0)
# ... only for a reading at least this like a card: of 25,201 turned tries on seeds 1 and 2,
# the 179 that found a card turned all began at 0.379 or more; the 39 % below 0.3 (a hand, the
# cloth, tiles cut across) found none, and cost six readings each (eight since the two-degree
# tries)
TURN_FROM = 0.3
# ... and a sure reading short of this is read turned too: a pile's region following an arm's
# angle read hm-exeter-london 12 degrees off its card at 0.82, 0.96 turned (bench seed 10,
# photo-like Highwayman 124; seed 9, both packs: 5 cards more right, none wrong)
TURN_BELOW = 0.85
# A reading with the lightness flattened (a sleeve's sheen: see look) replaces a sure one under
# WEAK_SURE only when it is this far ahead of any other card or turn (about twice the recogniser's
# MARGIN): under the fingers over half of a row's card, a wrong card read sure at 0.66, 0.08 ahead,
# read 0.80 flattened, still 0.08 ahead (bench seed 9, photo-like Big Sur 76); the 33 readings of
# the right card so taken in nine scenes (seven of them sleeved) were 0.11 or more ahead, all but
# one 0.21 or more
FLAT_AHEAD = 0.15
# A place read, in the end, as no card or not clearly one, whose best-fitting face lay at least
# RECENTRE_MM off the cell (at the edge of the recogniser's few mm of slack), is read again
# where that face fitted, up to RECENTRE_TRIES times (see _recentred)
RECENTRE_MM = 3.0
RECENTRE_TRIES = 2
RESIDUAL_DEPTH = 2  # how many times what sure cards leave of a region is split again
# A match in a region no grid explains is counted only from this score (below it, it is listed as
# unsure). In 1,000 bench scenes (seeds 1-3) 22 of the 33 sure matches there that were right
# scored 0.9 or more (green tiles on a green cloth, the region cut into road-shaped pieces);
# sure chance matches scored at most 0.67, unsure ones at most 0.84. It was 0.9 until right cards
# at 0.85-0.9 were seen there (Highwayman piles joined under glare); at 0.85 no phantom came of it
# in the 1,600 scenes of seeds 1-3 nor in 300 of seed 6.
LOOSE_COUNTED = 0.85
# Short of that, a reading there is listed for the players to check only from this score: the place
# is shown as unknown already (or as the arm, with the advice to lift it), and of bench seed 1's 78
# such listings 76 lay on a hand, a phone, a coaster, a foreign card or the cloth (63 of them under
# 0.7) and 2 named another card than the one there; of the cards read right there short of
# counting on seeds 1-3, three scored 0.73-0.84 (a home base joined to a lamp's glare, two road
# tiles of a board, one under a car) and one 0.46 (no longer listed). docs/benchmarks.md,
# twenty-ninth pass
LOOSE_LISTED = 0.7
# A weak region (its best grid explains less of it than a clean row would: see
# detect.WEAK_EXPLAINED) counts only clear cards (WEAK_SURE), as an arm or a phone cut into cells
# may match a face at 0.69-0.72. When at least WEAK_HELD_SHARE of its places read sure, at least
# WEAK_HELD_CLEAR of them clearly, it is held by its cards (a Monster Highway board with the
# Monster and cars standing out of it: bench seed 8 scene 25 read 15 of 16 tiles sure, six right ones
# at 0.76-0.80): there a card beside a clear one counts from COUNTED, and a tile is read past a
# piece on it, as in a clean grid.
WEAK_HELD_SHARE = 0.6
WEAK_HELD_CLEAR = 3
# A card read sure this far ahead of every other card and turn (its margin) is no chance match:
# a chance match on an arm, a phone or glare fits a few faces alike. Such a reading counts where a
# lone fair match would be taken as chance:
# - a lone card on the lattice anchored on a region's corners (tried in scan when the region's
#   own grids read no card sure, or fewer sure than unsure), from WEAK_SURE rather than
#   LOOSE_COUNTED: a home base beside a lamp's glare spot, the two one region, read 0.83 with the
#   next face 0.43 behind, and was reported as nothing but "not a card of this pack";
# - a card in a region no grid explains, from WEAK_SURE rather than LOOSE_COUNTED;
# - a card in a doubtful or weak region, from COUNTED rather than WEAK_SURE: a Highwayman card
#   joined to a glare spot read 0.80, 0.47 ahead, and was listed to check.
LONE_AHEAD = 0.3
# A card read more often than the game has copies of it: the best readings count only when each is
# this far ahead of the best of the rest (two cells along an arm once both read as the same byway
# card at 0.82-0.83, a card the game has once and that was not on the table)
COPIES_CLEAR = 0.08
# A region no card fits (listed as "not card-shaped") whose anchored cells read counted cards
# covering this share of its mask, leaving less than half the smallest card's area of it, is
# those cards: a card with a dotted cloth's dots joined to two sides (bench seed 9, proxy
# Roundabout 46 and 98: 0.80 and 0.79 of it), tiles whose region a car's corner made ragged
# (proxy Monster Highway 19: 0.997), a row with a fleck (proxy Big Sur 58: 0.955, 1,040 mm2 left).
# Not a grid with a hand, a coaster or the Monster in its region: 0.76-0.85 covered, but 4,314-
# 15,748 mm2 left (proxy Roundabout 75 and 118, Monster Highway 120). Of seed 9's scenes 0-149 of
# every game (both packs), 35 such regions had counted cards in them, 15 covered 0.75 or more
BLOB_COUNTED = 0.75
# Two counted cards whose places overlap by this share of the smaller lie at one place (see
# _one_per_place), however far apart their centres: the cards of a tableau, a grid or a board lie
# side by side. A cell laid 38 mm down a Big Sur card, across its lower half and the wood, read as
# a starter card at 0.71 beside the card's own 0.98 (bench seed 9, photo-like Big Sur 115)
SAME_PLACE_SHARE = 0.4
# A sure reading below CONFIRMED that is sure only because its look-alike's design is close (its
# margin under MARGIN) is compared with its look-alikes at the camera's detail too, as an unsure
# one is: a look-alike that clearly fits better there is the card (hm-bath-4 read as hm-bath-1 at
# 0.91), and when none clearly wins and the reading's whole face fits the picture less than
# CONFIRM_FIT, it is listed as unsure. Over 351 such readings below 0.97 in 800 bench
# scenes, the 5 phantoms (a Highways & Byways card on a foreign card, LONDON on a card of another
# game) fit at most 0.753 and the right cards at least 0.806.
CONFIRMED = 0.95
CONFIRM_FIT = 0.78
# A sure reading under this score is first checked, at the camera's resolution, against its own
# face turned each other way round it can lie (vision.lookalike, by_turn): the recogniser's
# shortlist may hold look-alikes of the card but not the card itself turned half round, so a card
# read upside down at 0.73 had no reading to lose to. Bench seed 10, proxy Highwayman 457.
# docs/benchmarks.md, sixty-fifth pass
TURN_CHECKED = WEAK_SURE
# A place read as a card whose lightness varies less than this (its standard deviation in grey
# levels over the place shrunk about its centre, FLAT_INSET_MM in from its long sides and as much
# in proportion from its short ones, in the rectified view) shows no print: the cloth or a
# smooth object, whatever face its noise and shading happened to match. A card read there is not
# counted but listed for the players to check (a very dim card may look so). Bench seed 9,
# photo-like Roundabout scene 1: a bare place of a purple cloth beside a grid (deviation 3.0) read
# as ra-08 at 0.82 and counted. Of the 6,038 cards lying in the open on seeds 1 and 2 (every game,
# both packs, 600 scenes), one varied less (a card the glare drove to white, 0.4), the next least
# by 5.5 (15 % of it white) and 5.6 (a dim landmark tile). Only readings short of CONFIRMED are
# checked, and none where the glare drove the camera to white (CLIPPED_SHARE: listed anyway).
# docs/benchmarks.md, forty-first pass
FLAT_STD = 4.0
FLAT_INSET_MM = 5.0
# A card read short of CONFIRMED counts only where its outline is seen (detect.outline_sides) on
# more than this many sides; else it is listed, and so shown as a thing of no card of the pack
# (OUTLINED_SIDES): a face that matches the cloth over half its place reads well on the cloth and
# whatever lies beside it. Bench seed 10, photo-like Highwayman 367 and 384: a green-and-brown face
# read at 0.81 in a lamp's glare spot on green felt and at 0.85 over a phone's end and the felt,
# outlined on one side and on none. A card with another counted card within half a card of it is
# not checked (see _unoutlined): without that, seed 9's full run lost three right cards in rows
# and on a board; with it, the rule acts in 5 of seed 9's 4,950 scenes and changes no figure.
# docs/benchmarks.md, sixty-fifth pass
UNOUTLINED_SIDES = 1

_LAST_CALIBRATION: dict[tuple[int, int, TableSpec], Calibration] = {}


class GameError(VisionError):
    """A game id the vision layer does not know."""


def _pack_for(game: str, pack: Any) -> Any:
    from vision import pack as packs  # the pack module is optional until it is installed

    if pack is None:
        return packs.proxy_pack(game)
    if isinstance(pack, str | Path):
        return packs.load_pack(pack)
    return pack


def _calibration(frame: np.ndarray, calibration: Calibration | None, table: TableSpec) -> Calibration:
    key = (frame.shape[1], frame.shape[0], table)
    if calibration is not None and calibration.table != table:
        calibration = None
    cached = calibration or _LAST_CALIBRATION.get(key)
    cal = recheck(frame, cached) if cached is not None else calibrate(frame, table)
    _LAST_CALIBRATION[key] = cal
    return cal


def _catalog(game: str) -> dict[str, dict[str, Any]]:
    try:
        items = importlib.import_module(f"rules.{game}").catalog_items()
    except (ImportError, AttributeError):
        return {}
    return {str(i["id"]): i for i in items}


def _corners(center: tuple[float, float], rotation: float, size: tuple[float, float]) -> tuple[Any, ...]:
    a = np.radians(rotation)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    c = np.array(center)
    w, h = size[0] / 2, size[1] / 2
    pts = (c - right * w - down * h, c + right * w - down * h, c + right * w + down * h, c - right * w + down * h)
    return tuple((round(float(p[0]), 1), round(float(p[1]), 1)) for p in pts)


def _split_quality(found: list[tuple[detect.Candidate, Match]]) -> tuple[int, float]:
    """Sure cards first (more sure cards is better), then the total correlation of those."""
    sure = [m for _, m in found if m.status == "sure"]
    return (len(sure), sum(m.score for m in sure))


def _half_a_card_apart(a: Sequence[float], b: Sequence[float], short_a: float, short_b: float) -> bool:
    """Two places that are not the same card: centres (mm) at least half the narrower card's short
    side apart."""
    return bool(np.hypot(a[0] - b[0], a[1] - b[1]) >= 0.5 * min(short_a, short_b))


def _apart(a: detect.Candidate, b: detect.Candidate) -> bool:
    """Two cells that are not the same card."""
    return _half_a_card_apart(a.center_mm, b.center_mm, a.size_key[0], b.size_key[0])


def _beside(a: detect.Candidate, b: detect.Candidate) -> bool:
    """Two cells that are neighbours in a row or a grid: not the same card, and no farther apart
    than a card's length and a gap."""
    return _apart(a, b) and bool(np.hypot(a.center_mm[0] - b.center_mm[0], a.center_mm[1] - b.center_mm[1])
                                 <= max(a.size_key[1], b.size_key[1]) + 2 * GROW_GAP_MM)


def _edge_to_edge(a: detect.Candidate, b: detect.Candidate) -> bool:
    """Cell b lies edge to edge with cell a, as in a row or a grid: square to it (EDGE_TURN_DEG)
    and its centre one card over from a's along one of a's sides, within EDGE_SLACK_MM each way (a
    gap, a lay's wobble)."""
    off = (b.angle_deg - a.angle_deg) % 90.0
    if min(off, 90.0 - off) > EDGE_TURN_DEG:
        return False
    t = np.radians(a.angle_deg)
    dx, dy = b.center_mm[0] - a.center_mm[0], b.center_mm[1] - a.center_mm[1]
    # a's short side runs along (cos t, sin t), its long side along (-sin t, cos t): see detect.Candidate
    sideways = abs(dx * np.cos(t) + dy * np.sin(t))
    lengthways = abs(-dx * np.sin(t) + dy * np.cos(t))
    turned = 45.0 < (b.angle_deg - a.angle_deg) % 180.0 < 135.0
    b_sideways, b_lengthways = (b.size_key[1], b.size_key[0]) if turned else b.size_key
    return bool((abs(sideways - (a.size_key[0] + b_sideways) / 2) <= EDGE_SLACK_MM and lengthways <= EDGE_SLACK_MM)
                or (abs(lengthways - (a.size_key[1] + b_lengthways) / 2) <= EDGE_SLACK_MM
                    and sideways <= EDGE_SLACK_MM))


def _counted_beside(found: list[tuple[detect.Candidate, Match]], clear: float,
                    floor: float) -> set[int]:
    """The cells (by id) whose sure readings count in a region where only clear ones count
    alone: those read sure at `clear` or better, and, one after another, those read sure at
    `floor` or better beside a counted one (several cards side by side are a row or a grid,
    not chance)."""
    counted = {id(c) for c, m in found if m.status == "sure" and m.score >= clear}
    more = bool(counted)
    while more:
        more = False
        for c, m in found:
            if id(c) not in counted and m.status == "sure" and m.score >= floor \
                    and any(_beside(c, o) for o, _ in found if id(o) in counted):
                counted.add(id(c))
                more = True
    return counted


# An arm joined to a thing it reaches past (a phone, a coaster) is less than half of the place the
# thing is shown as, which is not named the arm (hand.NAMED), and no hand was warned of (bench seed 9,
# proxy Big Sur 2: a forearm across the top edge joined to a phone). The arm's own part of such a
# place, where at least ARM_PART_MM2 of it, is shown as the arm beside it.
ARM_PART_MM2 = 2500.0
NOT_CARD_SHAPED = "not card-shaped"  # the reason of a region no card fits


def _arm_parts(unknowns: Sequence[Unknown], reach: np.ndarray, top: np.ndarray, arms: Sequence[hand.Arm],
               px_per_mm: float) -> list[Unknown]:
    """The arm's part (`reach`: 0/255, the arm's pixels) of each place read as no card that is
    not mostly the arm's colour, and of each region no card fits, as ARM places (see ARM_PART_MM2)."""
    out = []
    for u in unknowns:
        if u.reason not in (layout.NOT_IN_PACK, NOT_CARD_SHAPED):
            continue
        quad = np.asarray(u.corners_mm()) * px_per_mm
        x0, y0 = np.floor(quad.min(axis=0)).astype(int).clip(0)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        box = np.zeros((max(0, min(y1, reach.shape[0]) - y0), max(0, min(x1, reach.shape[1]) - x0)), np.uint8)
        if box.size == 0:
            continue
        cv2.fillPoly(box, [np.rint(quad - (x0, y0)).astype(np.int32)], 255)
        part = cv2.bitwise_and(reach[y0:y0 + box.shape[0], x0:x0 + box.shape[1]], box)
        if cv2.countNonZero(part) < ARM_PART_MM2 * px_per_mm**2 or (
                u.reason == layout.NOT_IN_PACK and hand.share_of_arm(top, quad, arms) >= hand.NAMED):
            continue  # (a place of no card mostly the arm's colour is named the arm itself: see scan)
        (cx, cy), (sw, sh), angle = cv2.minAreaRect(cv2.findNonZero(part))
        centre = ((cx + x0) / px_per_mm, (cy + y0) / px_per_mm)
        out.append(Unknown(centre, (sw / px_per_mm, sh / px_per_mm), ARM, float(angle) % 180.0))
    return out


def _grown_from_cloth(det: detect.Detection, region: detect.Region, game: str) -> bool:
    """A region grown from a fragment (see detect._completed), not of an arm's colour and, on a
    Monster Highway board, with no piece on it: when none of its cells reads as a card of the
    pack, what grew was the cloth's own pattern, not an object to report. (An arm's place is
    reported, with the advice to lift it; the Monster Highway layout finds the Monster as such a
    place with a piece on it. Elsewhere a piece there is no reason: a textured cloth's flecks are
    found as pieces too; and a place found by its outline alone is the cloth's flecks, with
    pieces or without: see detect.outlined.)"""
    if not region.grown or (game == "monsterhighway" and not region.outline and any(
            np.hypot(p.center_mm[0] - region.center_mm[0], p.center_mm[1] - region.center_mm[1])
            < 0.5 * max(region.size_mm) for p in det.pieces)):
        return False
    box = np.array(_corners(region.center_mm, _x_angle(region.angle_deg), region.size_mm))
    return hand.share_of_arm(det.rectified, box * det.px_per_mm, det.arms) < hand.NAMED


class Look(Protocol):
    """A cell's reading (its first look, if made already, handed in), checked and read again as
    the scan does: the cell it settled on and the Match."""

    def __call__(self, c: detect.Candidate, reading: Match | None = None, /) -> tuple[detect.Candidate, Match]: ...


# the first look at many cells at once: the recogniser's reading of each, as placed
FirstLook = Callable[[Sequence[detect.Candidate]], list[Match]]
# Look of many cells, their first looks read together (the same readings, in less time)
LookAll = Callable[[Sequence[detect.Candidate]], list[tuple[detect.Candidate, Match]]]
# a cell's reading read again past a piece standing on it (occlusion.read_past_a_piece), or None
PastAPiece = Callable[[detect.Candidate, Match], Match | None]


def _far_ahead(m: Match, least: float) -> bool:
    """Whether a reading is sure from least and at least LONE_AHEAD ahead of every other card and
    turn: no chance match, even where a lone fair one would be taken for chance."""
    return m.status == "sure" and m.score >= least and m.margin >= LONE_AHEAD


def _unclear_unsure(split: list[tuple[detect.Candidate, Match]],
                    row: bool = False) -> list[tuple[detect.Candidate, Match]]:
    """The split with every sure card whose score is not clear (below WEAK_SURE) listed as unsure;
    with ``row``, but for one edge to edge with a clear card of the split (_edge_to_edge): a row's
    card, not a chance match (see scan's lattices anchored on a region's corners)."""
    clear = [c for c, m in split if m.status == "sure" and m.score >= WEAK_SURE] if row else []
    return [(c, dataclasses.replace(m, status="unsure")
             if m.status == "sure" and m.score < WEAK_SURE and not any(_edge_to_edge(o, c) for o in clear) else m)
            for c, m in split]


def _lone_unsure(split: list[tuple[detect.Candidate, Match]]) -> list[tuple[detect.Candidate, Match]]:
    """The split with its sure card listed as unsure when it is the only one and its score is not
    clear (below WEAK_SURE)."""
    if sum(m.status == "sure" for _, m in split) > LONELY_MOST:
        return split
    return _unclear_unsure(split)


def _settle(found: list[tuple[detect.Candidate, Match]], alternatives: list[list[detect.Candidate]],
            residual: Callable[[list[detect.Candidate]], list[list[list[detect.Candidate]]]],
            snap: Callable[[list[detect.Candidate]], list[detect.Candidate]], look_all: LookAll,
            depth: int = 0) -> list[tuple[detect.Candidate, Match]]:
    """The cards of one region: the best reading of each place any split of it shows (sure
    cards count, unsure ones are listed), what the sure cards leave settled the same way, and the
    best split's unknown cells."""
    splits = [found]
    # a split the recogniser does not fully accept may be the wrong split: try the others; so too
    # for one read sure throughout but not all clearly (WEAK_SURE): half a card may read as another
    # card. A Highwayman pile's region, 72 x 102 mm with the cards under the top one showing,
    # split across the top card into two cells each read sure as hm-bath-london at 0.62-0.67,
    # left unread the split of one cell that reads hm-dover-2 at 0.95 (bench seed 9, proxy
    # Highwayman 431, a clean scene)
    for alt in alternatives:
        if all(m.status == "sure" and m.score >= WEAK_SURE for _, m in splits[0]):
            break
        tried = look_all(snap(alt))
        if _split_quality(tried) > _split_quality(splits[0]):
            splits.insert(0, tried)
        else:
            splits.append(tried)
    # another split's lone sure card (a card-sized cell laid over a board of tiles) is chance more
    # often than a card: it needs a clear score; several side by side are a row
    splits[1:] = [_lone_unsure(split) for split in splits[1:]]
    # each place goes to the best reading any split has of it: a sure card counts only when no
    # split reads the same place better (a pile's top card read unsure at 0.90 once lost its place
    # to a cell laid across the pile and read as another card at 0.81)
    # (another split's unsure reading only when it scores like a card: a weak one is no reading)
    readings = sorted(((c, m) for k, split in enumerate(splits) for c, m in split
                       if m.status == "sure" or (m.status == "unsure" and (k == 0 or m.score >= ACCEPT))),
                      key=lambda cm: -cm[1].score)
    kept: list[tuple[detect.Candidate, Match]] = []
    held: list[tuple[detect.Candidate, Match]] = []
    for c, m in readings:
        if all(_apart(c, k) for k, _ in kept + held):
            (kept if m.status == "sure" else held).append((c, m))
    rest = held + [(c, m) for c, m in splits[0] if m.status == "unknown" and all(_apart(c, k) for k, _ in kept + held)]
    # what the sure cards leave (a tile beside a row, a card beside a hand) is settled again; the
    # places read unsure are left in it (a card-sized cell of another split laid over a Landmark
    # tile and a card's edge, read unsure, once hid the tile), and a sure card found there
    # replaces such a reading
    if kept and depth < RESIDUAL_DEPTH:
        taken = [c for c, _ in kept]
        for piece in residual(taken):
            first = look_all(snap(piece[0]))
            more = _settle(first, piece[1:], lambda t: residual(taken + list(t)), snap, look_all, depth + 1)
            # a leftover is no grid of its own (a phone, an arm): a match there needs a clear score
            # to count (a phone's screen once matched a face at 0.72, an arm one smooth face in
            # three cells in a row at 0.69; Landmark tiles beside a row score over 0.9)
            more = _unclear_unsure(more)
            if any(m.status == "sure" for _, m in more):
                found_more = [(c, m) for c, m in more if all(_apart(c, k) for k, _ in kept)
                              and (m.status == "sure" or all(_apart(c, k) for k, _ in held))]
                kept += [(c, m) for c, m in found_more if m.status == "sure"]
                rest = [(c, m) for c, m in rest if all(_apart(c, o) for o, _ in found_more)]
                rest += [(c, m) for c, m in found_more if m.status != "sure"]
    return kept + rest


def _grow(found: list[tuple[detect.Candidate, Match]], det: detect.Detection, region: int, look: Look,
          first_look: FirstLook, start: list[tuple[detect.Candidate, Match]] | None = None,
          past: PastAPiece | None = None) -> list[tuple[detect.Candidate, Match]]:
    """A region's cards with the cards beside its sure ones added: cards laid edge to edge lie
    a card's width or length apart, and a grid split off its cards (a glare spot or a hand joined
    to a row, cards laid with gaps that add up along it) misses them where its cells drifted.
    Each sure card that counts (COUNTED) proposes the places beside it, one card and GROW_GAP_MM
    on, square to it; a place its region's mask covers (GROW_COVER) and no sure card holds is read
    (moved onto the edges first), and a sure reading there with a clear score (WEAK_SURE) takes
    the place and proposes its own neighbours in turn. Anything less there is no reading: the
    place keeps what the region's splits read of it.

    A place the mask leaves bare is read too (a dark card on dark wood, a card the colour of the
    cloth: the mask held the two ends of a row of nine and nothing between them) when the mask
    touches it (GROW_TOUCH), when it continues a line of cards (the place on the card's other
    side is held) from a card the mask left bare too, when what lies there differs from the
    cloth, too faintly for the mask (GROW_DIFFERS), or (with `past`) when a piece stands in it;
    but only as a first look, all of a round's together (`first_look`): only one that scores
    like a card (ACCEPT) is read in full (turned, when it is not sure: the card beside a starter
    card laid 4 degrees off read 0.82, unsure, on the starter's square), and one under the bar
    with a piece in it only past the piece (see _first_looks_at_bare). Each bare place costs a
    reading (about 1 ms): reading every bare side of every card took the bench's 30-card scan
    from about 100 to 190 ms, and every line's ends from 102 to 110-117 ms. `start`: the cards
    to grow from (all the sure ones that count, by default).

    `past` (games whose pieces stand on cards): a place beside a clear card (WEAK_SURE) whose
    whole face named a card but not clearly is read again past a piece standing on it, and taken
    when that reading is clear: a tee under a car, grown from a crossroads read 0.95, read 0.75
    whole and 0.96 past the car, and was listed to check (bench seed 3, Monster Highway scene 93).
    A bare place is read so too: Ground Zero and a dead end under cars, their bodies left bare by
    the mask, read 0.62-0.74 whole and 0.95-0.96 past the car, and nothing at all was reported
    there (bench seed 3, scenes 89 and 98; seed 2, scene 7)."""
    frontier = [(c, m) for c, m in (found if start is None else start) if m.status == "sure" and m.score >= COUNTED]
    # the places held by sure cards and the places proposed so far, (x, y, short side) each
    held = np.array([(*c.center_mm, c.size_key[0]) for c, m in found if m.status == "sure"]).reshape(-1, 3)
    tried = np.zeros((0, 3))

    def taken(places: np.ndarray, at: np.ndarray, short: float) -> np.ndarray:
        # for each point of `at`, whether a place is within half a card of it (not _apart)
        d = np.hypot(places[None, :, 0] - at[:, None, 0], places[None, :, 1] - at[:, None, 1])
        near: np.ndarray = (d < 0.5 * np.minimum(places[None, :, 2], short)).any(axis=1)
        return near

    def take(got: tuple[detect.Candidate, Match]) -> bool:
        nonlocal held
        if (got[1].status == "sure" and got[1].score >= WEAK_SURE
                and not taken(held, np.array([got[0].center_mm]), got[0].size_key[0])[0]):
            held = np.vstack([held, (*got[0].center_mm, got[0].size_key[0])])
            return True
        return False

    def past_a_piece(got: tuple[detect.Candidate, Match], by: Match) -> tuple[detect.Candidate, Match]:
        c, m = got
        if past is None or by.score < WEAK_SURE or m.id is None or (m.status == "sure" and m.score >= WEAK_SURE):
            return got
        return c, past(c, m) or m

    for _ in range(GROW_ROUNDS):
        grown: list[tuple[detect.Candidate, Match]] = []
        # bare places, each with the card that proposed it; and those the mask does not touch either
        bare: list[tuple[detect.Candidate, Match]] = []
        faint: list[tuple[detect.Candidate, Match]] = []
        for c, m in frontier:
            short, long_ = c.size_key
            a = np.radians(c.angle_deg)
            right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            # the four places, one card and a gap apart: none of them takes another's place
            at = np.asarray(m.center_mm) + np.array([right * (short + GROW_GAP_MM), -right * (short + GROW_GAP_MM),
                                                     down * (long_ + GROW_GAP_MM), -down * (long_ + GROW_GAP_MM)])
            beside = taken(held, at, short)
            free = ~(taken(tried, at, short) | beside)
            # a place whose opposite place is held continues a line of cards (a row, a column),
            # read where the mask is bare only from a card it left bare too: beyond the end of a
            # row the mask holds whole, a row of cloth-coloured cards is no likelier than anywhere
            in_line = beside[[1, 0, 3, 2]] & free
            if in_line.any() and det.covers(region, c, GROW_COVER):
                in_line[:] = False
            for (x, y), line in zip(at[free], in_line[free], strict=True):
                # (a card grown from this one's other sides may hold the place by now)
                if grown and taken(held, np.array([(x, y)]), short)[0]:
                    continue
                tried = np.vstack([tried, (x, y, short)])
                cell = detect.Candidate((float(x), float(y)), c.angle_deg, c.size_key, region)
                if not det.covers(region, cell, GROW_COVER):
                    # (a piece standing there, where pieces stand on cards, is something lying there)
                    (bare if line or det.covers(region, cell, GROW_TOUCH)
                     or (past is not None and _piece_in(cell, det.pieces)) else faint).append((cell, m))
                    continue
                got = past_a_piece(look(det.snap([cell])[0]), m)
                if take(got):
                    grown.append(got)
        # (and those where something unlike the cloth lies, too faint for the mask: all at once)
        bare += [f for f, differs in zip(faint, det.differ([c for c, _ in faint], GROW_DIFFERS), strict=True) if differs]
        # the best first: two bare places may reach one card
        looks = _first_looks_at_bare([c for c, _ in bare], det, first_look, stand=past is not None)
        for k, cell, first in looks:
            if first.score >= ACCEPT:
                got = past_a_piece(look(cell, first), bare[k][1])
            else:  # (a piece stands there: only the reading past it can count)
                got = _read_past(past, cell, first) if bare[k][1].score >= WEAK_SURE else (cell, first)
            if take(got):
                grown.append(got)
        if not grown:
            break
        # what the region's splits read where a grown card now lies gives way to it
        found = [(o, om) for o, om in found if all(_apart(o, g) for g, _ in grown)] + grown
        frontier = grown
    return found


def _enclosed(by_region: dict[int, list[tuple[detect.Candidate, Match]]], det: detect.Detection, look: Look,
              first_look: FirstLook, past: PastAPiece | None = None,
              doubted: list[tuple[detect.Candidate, Match]] | None = None) -> list[tuple[detect.Candidate, Match]]:
    """The cards read in places beside two or more counted cards, each edge to edge with the
    place (between two in line, or in the corner of two at a right angle), or one card on in line
    past two (no arm reaching over either; the mask touching the place, or something unlike the
    cloth lying in it), where no sure card lies. A card the colour of the cloth leaves the mask
    bare, and a region's growth reads a bare place only where the mask touches it or a line of
    bare cards runs through it: Ground Zero, grey on a grey cloth between a road and a dead end,
    split the board into two regions and was reported by nothing; on dark wood, the corner place
    between two tiles of one board. Each place is read as a bare place is in _grow: a first look,
    read in full only when it scores like a card, and kept only when read sure with a clear score
    (WEAK_SURE). A place edge to edge with two counted cards read sure short of that, but as a card
    would count in a grid (COUNTED), goes to `doubted`, to be listed for the players to check:
    Ground Zero, dark on a grey cloth between a road and the Monster, read 0.75 there and was shown
    as nothing at all (bench seed 9, proxy Monster Highway 81)."""
    sure = [(c, m) for found in by_region.values() for c, m in found if m.status == "sure" and m.score >= COUNTED]
    held = [c for found in by_region.values() for c, m in found if m.status == "sure"]
    if len(sure) < 2:
        return []
    centre = np.array([m.center_mm for _, m in sure], float)
    turn = np.radians([c.angle_deg for c, _ in sure])
    sides = np.array([c.size_key for c, _ in sure], float)
    across, along = np.stack([np.cos(turn), np.sin(turn)], 1), np.stack([-np.sin(turn), np.cos(turn)], 1)
    # each counted card's four places beside it, one card and half a gap on (card k's at rows 4k..4k+3)
    reach = (sides + GROW_GAP_MM / 2)[:, [0, 0, 1, 1], None] * np.array([1, -1, 1, -1])[None, :, None]
    at = (centre[:, None, :] + reach * np.stack([across, across, along, along], 1)).reshape(-1, 2)
    owner = np.repeat(np.arange(len(sure)), 4)
    # edge to edge with another counted card of its size (_edge_to_edge of that card and the
    # place, all at once): one card over along one of that card's sides, within EDGE_SLACK_MM
    d = at[:, None, :] - centre[None, :, :]
    sideways = np.abs((d * across[None]).sum(2))
    lengthways = np.abs((d * along[None]).sum(2))
    short, long_ = sides[:, 0][None, :], sides[:, 1][None, :]
    apart_deg = (np.degrees(turn)[owner][:, None] - np.degrees(turn)[None, :]) % 180.0
    turned = (apart_deg > 45.0) & (apart_deg < 135.0)
    across_mm = np.where(turned, (short + long_) / 2, short)
    along_mm = np.where(turned, (short + long_) / 2, long_)
    same = (sides[:, None, :] == sides[None, :, :]).all(2)[owner]
    beside = same & (((np.abs(sideways - across_mm) <= EDGE_SLACK_MM) & (lengthways <= EDGE_SLACK_MM))
                     | ((np.abs(lengthways - along_mm) <= EDGE_SLACK_MM) & (sideways <= EDGE_SLACK_MM)))
    beside[np.arange(len(at)), owner] = False

    def share(mask: np.ndarray, c: detect.Candidate) -> float:
        # (the share of cell c a mask of the rectified view covers)
        return glare.share_of(mask, np.array(_corners(c.center_mm, c.angle_deg, c.size_key)) * det.px_per_mm)

    # or in line with two of them, the place one card on past a counted card whose other side a
    # counted card holds (a row running on under a hand, whose region the hand joined: bench seed 9,
    # photo-like Big Sur 53, the row's grid there 12 mm off its cards), where no arm reaches over
    # either (an arm cut into cells read one card over and over, in line up the arm and on)
    mirror = 2 * centre[owner] - at  # (the place on the owner's other side)
    off = np.hypot(*(mirror[:, None, :] - centre[None, :, :]).transpose(2, 0, 1))
    in_line = same & (off <= EDGE_SLACK_MM)
    in_line[np.arange(len(at)), owner] = False
    if det.arm is not None and in_line.any():
        reach = det.arm.astype(np.uint8) * 255
        armless = np.array([share(reach, c) == 0.0 for c, _ in sure])
        in_line &= armless[None, :] & armless[owner][:, None]
    # (and only where the mask touches the place or something unlike the cloth lies in it, as
    # _grow reads a bare one: past most rows' ends lies bare cloth, and a first look there, with
    # its place moved onto edges and where it lay before, cost the latency table's 30 cards on wood
    # 11 ms a scan at six places past its rows)
    ends = {int(k): detect.Candidate((float(at[k, 0]), float(at[k, 1])), sure[owner[k]][0].angle_deg,
                                     sure[owner[k]][0].size_key, sure[owner[k]][0].region)
            for k in np.flatnonzero(in_line.any(axis=1))}
    bare = [k for k, c in ends.items() if share(det.mask, c) < GROW_TOUCH]
    for k, differs in zip(bare, det.differ([ends[k] for k in bare], GROW_DIFFERS), strict=True):
        in_line[k] &= bool(differs)
    walled = beside.any(axis=1)  # (edge to edge with two counted cards, not only in line past them)
    beside |= in_line
    # (and no sure card there: within half the narrower short side, as _apart)
    kept = np.array([c.center_mm for c in held], float).reshape(-1, 2)
    kept_short = np.array([c.size_key[0] for c in held], float)
    gap = np.hypot(*(at[:, None, :] - kept[None, :, :]).transpose(2, 0, 1))
    free = (gap >= 0.5 * np.minimum(sides[owner, 0][:, None], kept_short[None, :])).all(axis=1)
    places: list[detect.Candidate] = []
    between: list[bool] = []  # (each place's: edge to edge with two counted cards)
    for k in np.flatnonzero(beside.any(axis=1) & free):
        c = sure[owner[k]][0]
        place = detect.Candidate((float(at[k, 0]), float(at[k, 1])), c.angle_deg, c.size_key, c.region)
        same = [j for j, p in enumerate(places) if not _apart(place, p)]
        if not same:
            places.append(place)
            between.append(bool(walled[k]))
        else:
            between[same[0]] |= bool(walled[k])
    out: list[tuple[detect.Candidate, Match]] = []
    for j, cell, first in _first_looks_at_bare(places, det, first_look, stand=past is not None):
        got = look(cell, first) if first.score >= ACCEPT else _read_past(past, cell, first)
        if got[1].status != "sure" or not all(_apart(got[0], o) for o, _ in out):
            continue
        if got[1].score >= WEAK_SURE:
            out.append(got)
        elif got[1].score >= COUNTED and doubted is not None and between[j]:
            # (not a place only in line past a row's end: past the end of a row on a check, a
            # bare place read at 0.7-0.8 was listed and shown as a "?" where nothing lies, bench
            # seed 9, photo-like Big Sur 7)
            doubted.append(got)
    return out


def _at_the_centre(by_region: dict[int, list[tuple[detect.Candidate, Match]]], det: detect.Detection, look: Look,
                   first_look: FirstLook, past: PastAPiece | None, game: str,
                   catalog: dict[str, dict[str, Any]]) -> list[tuple[detect.Candidate, Match]]:
    """The tile the rulebook puts on the board's centre (layout.CENTRE_TILE: Monster Highway's
    Ground Zero), read midway between counted tiles of the corners' kind in opposite corners
    (their offset two cells or more along both of their sides; where all four corners are read,
    the two diagonals' midpoints averaged), where no card is read sure: the cell on the midpoint
    when an odd number of cells lies between the corners, the four cells around it when an even
    number does. Each is read as a bare place is in _grow (a first look, in full when it scores
    like a card, past a piece standing in it otherwise: every car starts on Ground Zero), and only
    the centre tile read sure as a grid's card counts (COUNTED): the rulebook puts it there, and
    nothing else is taken from this reading. Nothing is read where a reading names the centre
    tile already, or no two corner tiles lie opposite. Ground Zero under a hand's edge read 0.74
    there (bench seed 9, proxy Monster Highway 226)."""
    kinds = layout.CENTRE_TILE.get(game)
    if kinds is None:
        return []
    centre_ids = {cid for cid, a in catalog.items() if a.get("kind") == kinds[0]}
    found = [(c, m) for cards in by_region.values() for c, m in cards]
    if not centre_ids or any(m.id in centre_ids and m.status != "unknown" for _, m in found):
        return []
    corners = [(c, m) for c, m in found if m.status == "sure" and m.score >= COUNTED
               and catalog.get(str(m.id), {}).get("kind") == kinds[1]]
    # the midpoints of opposite corner tiles, each with half their offset in cells along the
    # first one's sides
    mids: list[tuple[np.ndarray, np.ndarray, detect.Candidate]] = []
    for k, (a, am) in enumerate(corners):
        turn = np.radians(a.angle_deg)
        axes = np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
        for _, bm in corners[k + 1:]:
            offset = axes @ (np.asarray(bm.center_mm) - am.center_mm) / np.asarray(a.size_key)
            if (np.abs(offset) >= 2).all():
                mids.append(((np.asarray(am.center_mm) + bm.center_mm) / 2, offset / 2, a))
    if not mids:
        return []
    # (the two diagonals' midpoints, where all four corners are read, each a few mm off)
    centre = np.mean([p for p, _, _ in mids], axis=0)
    _, half, a = mids[0]
    turn = np.radians(a.angle_deg)
    right, down = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    # the cell on the midpoint (an odd number of cells between the corners), or the four around
    # it (an even number: the midpoint lies half a cell off each)
    steps = [(-0.5, 0.5) if abs(h % 1 - 0.5) < 0.25 else (0.0,) for h in half]
    held = [c for c, m in found if m.status == "sure"]
    places = []
    for i in steps[0]:
        for j in steps[1]:
            at = centre + i * right * a.size_key[0] + j * down * a.size_key[1]
            place = detect.Candidate((float(at[0]), float(at[1])), a.angle_deg, a.size_key, a.region)
            if all(_apart(place, o) for o in held):
                places.append(place)
    # (the best first look first: one centre tile counted, the places after it are not read in full)
    for _, cell, first in _first_looks_at_bare(places, det, first_look, stand=past is not None):
        got = look(cell, first) if first.score >= ACCEPT else _read_past(past, cell, first)
        if got[1].status == "sure" and got[1].id in centre_ids and got[1].score >= COUNTED:
            return [got]
    return []


def _first_looks_at_bare(bare: list[detect.Candidate], det: detect.Detection, first_look: FirstLook,
                         stand: bool = False) -> list[tuple[int, detect.Candidate, Match]]:
    """Places the mask left bare, each moved onto the edges it sees, with their first looks, all
    read together: those that score like a card (ACCEPT), the best first, each as (its index in
    `bare`, the place, its first look). With `stand` (games whose pieces stand on cards), also
    those whose first look is under the bar where a piece stands (_piece_in), after the others:
    a car on Ground Zero, grey on a grey cloth, left its whole face 0.56-0.62 (bench seed 9, proxy
    Monster Highway 19, 21), and only a reading past the piece tells what lies there."""
    if not bare:
        return []
    # (snap_cells, not det.snap: every bare place is read, none merged into another)
    cells = detect.snap_cells(bare, det.edges, det.px_per_mm) if det.edges is not None else list(bare)
    # a place moved onto edges may have followed the card's own print (Ground Zero's dark
    # squares took a bare place 17 mm off the tile, read 0.31 there): where it lay before
    # is read too, and the better first look kept
    before = [(k, c.unsnapped) for k, c in enumerate(cells) if c.unsnapped is not None]
    first = first_look(cells + [was for _, was in before])
    for j, (k, was) in enumerate(before):
        if first[len(cells) + j].score > first[k].score:
            cells[k], first[k] = dataclasses.replace(was, unsnapped=None), first[len(cells) + j]
    looks = list(enumerate(zip(cells, first[:len(cells)], strict=True)))
    out = sorted(((k, c, f) for k, (c, f) in looks if f.score >= ACCEPT), key=lambda kcf: -kcf[2].score)
    if stand:
        out += sorted(((k, c, f) for k, (c, f) in looks if f.score < ACCEPT and _piece_in(c, det.pieces)),
                      key=lambda kcf: -kcf[2].score)
    return out


def _read_past(past: PastAPiece | None, cell: detect.Candidate,
               first: Match) -> tuple[detect.Candidate, Match]:
    """A bare place whose first look is under the recogniser's bar, a piece standing in it (see
    _first_looks_at_bare), read past the piece; its first look where that reads nothing clearly.
    (A first look of no card is read past the piece where the place lies: a bright car on a grey
    tile outweighs the rest of it.)"""
    if past is None:
        return cell, first
    at = first if first.id is not None else dataclasses.replace(first, center_mm=cell.center_mm)
    return cell, past(cell, at) or first


def _piece_in(cell: detect.Candidate, pieces: Sequence[detect.Region]) -> bool:
    """Whether the centre of one of `pieces` lies inside `cell`, PIECE_INSET_MM in from its sides."""
    if not pieces:
        return False
    a = np.radians(cell.angle_deg)
    d = np.array([p.center_mm for p in pieces], float) - cell.center_mm
    across = np.abs(d[:, 0] * np.cos(a) + d[:, 1] * np.sin(a))
    along = np.abs(-d[:, 0] * np.sin(a) + d[:, 1] * np.cos(a))
    half = np.asarray(cell.size_key) / 2 - PIECE_INSET_MM
    return bool(((across <= half[0]) & (along <= half[1])).any())


def _pile_top(m: Match) -> Match | None:
    """The best reading in the corners of a pile's region (see detect.Detection.cornered), as the
    region's one card: counted when sure at LOOSE_COUNTED, as a cell of no grid is; listed for the
    players to check when sure short of that but clearly (WEAK_SURE); None (the region's own
    splits stand) otherwise. The Exeter pile of bench seed 9's proxy Highwayman 79, on a dim red
    cloth, read hm-exeter-1 0.84 sure in a corner, right, and was shown as two places "not a card
    of this pack" 17 and 22 mm off it; now it is "maybe hm-exeter-1". A lower floor, as a loose
    region's (LOOSE_LISTED), would list chance matches: at 0.7-0.8 those were mostly hands, phones
    and the cloth."""
    if m.status != "sure" or m.score < WEAK_SURE:
        return None
    return m if m.score >= LOOSE_COUNTED else dataclasses.replace(m, status="unsure")


def _recentred(found: list[tuple[detect.Candidate, Match]], look: Look) -> list[tuple[detect.Candidate, Match]]:
    """A region's readings with each place not read sure with a clear score (WEAK_SURE) read
    again where its best-fitting face lay, when that is RECENTRE_MM or more off the cell: the
    recogniser slides a face only a few mm, and a card farther off its cell (cells drifting along
    a row laid by hand) fits at the edge of that slack. Only in a region that holds a card read
    sure with a clear score (a row, a grid), and only a sure reading of the same card with a clear
    score there replaces the place's reading, and only where no sure card lies. Done once the splits
    are settled: a reading moved so must not make another split of the region win."""
    out = list(found)
    if not any(m.status == "sure" and m.score >= WEAK_SURE for _, m in found):
        # no card of a row or a grid here: a lone place read unsure moved to where its face fits
        # best climbs towards a chance match (a check cloth's lone cell read unsure as a tile at
        # 0.75 read 0.81 sure 4 mm on)
        return out
    for n, (c, m) in enumerate(found):
        if m.status == "sure" and m.score >= WEAK_SURE:
            continue
        cell, best = c, m
        for _ in range(RECENTRE_TRIES):
            if best.id is None or np.hypot(best.center_mm[0] - cell.center_mm[0],
                                           best.center_mm[1] - cell.center_mm[1]) < RECENTRE_MM:
                break
            cell, best = look(dataclasses.replace(cell, center_mm=best.center_mm, unsnapped=None))
        # the same card, better placed: another card read there is a search's chance match (a
        # patterned cloth's glare, read unsure as one byway card, read 0.87 sure as another one
        # 20 mm on)
        if (best.status == "sure" and best.score >= WEAK_SURE and best.score > m.score and best.id == m.id
                and all(_apart(cell, o) for k, (o, om) in enumerate(out) if k != n and om.status == "sure")):
            out[n] = (cell, best)
    return out


def _one_per_place(obs: Observation) -> None:
    """One card per place. Two regions side by side may both reach over one tile (a card-sized
    region beside a board, a grid's partly covered place), and each read it: the same tile was
    reported twice at one place (4 of 500 Monster Highway scenes). The best reading stays; another
    card read at the same place is listed for the players with it when the best is not clearly
    (COPIES_CLEAR) ahead. Two places more than half a card apart are one place still when they
    overlap by SAME_PLACE_SHARE of the smaller."""
    def same_place(a: Item, b: Item) -> bool:
        if math.dist(a.center_mm, b.center_mm) >= 0.5 * (math.hypot(*a.size_mm) + math.hypot(*b.size_mm)):
            return False  # (too far apart to overlap at all)
        if not _half_a_card_apart(a.center_mm, b.center_mm, min(a.size_mm), min(b.size_mm)):
            return True
        qa, qb = (np.asarray(it.corners_mm, np.float32) for it in (a, b))
        least = min(abs(cv2.contourArea(qa)), abs(cv2.contourArea(qb)))
        return float(cv2.intersectConvexConvex(qa, qb)[0]) >= SAME_PLACE_SHARE * max(least, 1e-6)

    kept: list[Item] = []
    dropped: set[int] = set()
    doubted: list[Item] = []
    for it in sorted(obs.items, key=lambda it: -it.confidence):
        best = next((k for k in kept if same_place(k, it)), None)
        if best is None:
            kept.append(it)
            continue
        dropped.add(id(it))
        if best.id != it.id and best.confidence - it.confidence < COPIES_CLEAR:
            doubted += [d for d in (best, it) if all(d is not o for o in doubted)]
    doubted_ids = {id(d) for d in doubted}
    obs.items = [it for it in obs.items if id(it) not in dropped and id(it) not in doubted_ids]
    obs.unsure += doubted


def _beyond_the_box(obs: Observation, catalog: dict[str, dict[str, Any]]) -> None:
    """Cards read more often than the game has copies of them are chance in all but at most that
    many: the readings clearly ahead of the rest stay, the others (all of them when none is
    clearly ahead) are listed for the players to check, with a warning naming the card."""
    by_id: dict[str, list[Item]] = {}
    for it in obs.items:
        by_id.setdefault(it.id, []).append(it)
    for cid, seen in by_id.items():
        copies = catalog.get(cid, {}).get("count")
        if not isinstance(copies, int) or isinstance(copies, bool) or len(seen) <= copies:
            continue
        seen.sort(key=lambda it: -it.confidence)
        keep = copies if copies > 0 and seen[copies - 1].confidence - seen[copies].confidence >= COPIES_CLEAR else 0
        doubted = {id(it) for it in seen[keep:]}
        obs.items = [it for it in obs.items if id(it) not in doubted]
        obs.unsure += seen[keep:]
        obs.warnings.append(f"{cid} was read {len(seen)} times but the game has {copies} of it: "
                            "check those cards")


def _covered_by_cards(obs: Observation, cell_sizes: Sequence[tuple[float, float]]) -> None:
    """What a counted card lies over is that card: a cell of a region's split whose centre falls
    on a counted card is no other thing. A dark card's strip fitted as a 50 mm tile stayed an
    unknown ("?") drawn on the card read there, and a tile cell read unsure inside a card grown
    beside a sure one stayed listed for the players to check. Unsure readings and card-cell
    unknowns there go; an unknown of its own shape (a phone, a hand) stays. So does an unsure
    reading that counted cards cover for the most part (COVERED_SHARE): a card-sized cell laid over
    a card's end and the Landmark tile above it."""
    quads = [np.asarray(it.corners_mm, np.float64) for it in obs.items]
    if not quads:
        return
    corners = np.stack(quads)  # (N, 4, 2)
    sides = np.roll(corners, -1, axis=1) - corners

    def on_a_card(p: Sequence[float]) -> bool:
        r = np.asarray(p, np.float64)[None, None, :] - corners
        cross = sides[..., 0] * r[..., 1] - sides[..., 1] * r[..., 0]
        return bool(((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)).any())

    cells = {tuple(sorted(k)) for k in cell_sizes}
    obs.unsure = [u for u in obs.unsure if not on_a_card(u.center_mm) and _covered(u, quads) < COVERED_SHARE]
    obs.unknowns = [u for u in obs.unknowns
                    if tuple(sorted(u.size_mm)) not in cells or not on_a_card(u.center_mm)]


def _flat(grey: np.ndarray, it: Item, px_per_mm: float) -> bool:
    """Whether the place of `it` in the rectified view `grey` shows no print (see FLAT_STD)."""
    c = np.asarray(it.center_mm, np.float64)
    q = np.asarray(it.corners_mm, np.float64)
    q = (c + (q - c) * max(0.0, 1.0 - 2.0 * FLAT_INSET_MM / max(1.0, min(it.size_mm)))) * px_per_mm
    h, w = grey.shape[:2]
    x0, y0 = np.clip(np.floor(q.min(axis=0)).astype(int), 0, (w, h))
    x1, y1 = np.clip(np.ceil(q.max(axis=0)).astype(int) + 1, 0, (w, h))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return False  # (a place beyond the view: nothing to judge by)
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.rint(q - (x0, y0)).astype(np.int32), 1)
    if cv2.countNonZero(inside) < 50:
        return False
    _, std = cv2.meanStdDev(grey[y0:y1, x0:x1], mask=inside)
    return bool(std[0, 0] < FLAT_STD)


def _covered(it: Item, quads: Sequence[np.ndarray]) -> float:
    """The share of an item's place that the places `quads` (each 4 x 2 mm) cover, summed."""
    return detect.covered_share(np.asarray(it.corners_mm, np.float32), [q.astype(np.float32) for q in quads])


def _x_angle(up_angle: float) -> float:
    """A region's rectangle angle: its first side's direction is `up_angle` clockwise from table
    "up", i.e. up_angle - 90 clockwise from table x."""
    return round((up_angle - 90) % 180, 1)


def _item(m: Match, index: CardIndex) -> Item:
    assert m.id is not None
    size = index.sizes.get(m.id, (0.0, 0.0))
    # The index stores faces long side vertical; a landscape card's catalog size is (long, short)
    # and its "up" is a quarter turn from the template's.
    rotation = m.rotation
    if size[0] > size[1] * 1.08:
        rotation = (rotation + 90) % 360
    return Item(m.id, round(rotation, 1), (round(m.center_mm[0], 1), round(m.center_mm[1], 1)), size,
                round(m.score, 3), _corners(m.center_mm, rotation, size), index.kinds.get(m.id, ""), m.symmetry)


def _look_alikes(index: CardIndex, cid: str) -> list[str]:
    """The cards the recogniser learned as look-alikes of ``cid`` (the closest few of its
    templates), and every card that lists ``cid`` among its own: each card keeps only its closest
    few, so the lists are not mutual (hm-bath-4 lists hm-bath-1, which does not list it back)."""
    size = index.sizes.get(cid)
    sc = index.classes.get(size_key(size)) if size is not None else None
    if sc is None or sc.twins is None:
        return []
    ids = sc.entry_id
    out = [ids[int(t)] for e, c in enumerate(ids) if c == cid for t in sc.twins[e] if t >= 0]
    out += [ids[e] for e in range(len(ids)) if any(t >= 0 and ids[int(t)] == cid for t in sc.twins[e])]
    return [c for c in dict.fromkeys(out) if c != cid]


def _unoutlined(items: Sequence[Item], det: detect.Detection) -> list[Item]:
    """The cards read short of CONFIRMED whose outline is seen on at most UNOUTLINED_SIDES sides,
    but for those with another counted card within half a card of their sides: in a row or a grid
    a card's sides face its neighbours' print a few mm away, and there the outline is not told from
    the print (bench seed 9, photo-like Big Sur 226: a landmark tile between two others 8 mm apart
    on wood, read right at 0.94, outlined on one side)."""
    edges = det.edges
    if edges is None:
        return []

    def beside(a: Item, b: Item) -> bool:
        short_a, short_b = min(a.size_mm), min(b.size_mm)
        d = float(np.hypot(a.center_mm[0] - b.center_mm[0], a.center_mm[1] - b.center_mm[1]))
        return (_half_a_card_apart(a.center_mm, b.center_mm, short_a, short_b)
                and d <= max(max(a.size_mm), max(b.size_mm)) + 0.5 * min(short_a, short_b))

    return [it for it in items if it.confidence < CONFIRMED
            and not any(beside(it, o) for o in items if o is not it)
            and detect.outline_sides(edges, it.corners_mm, det.px_per_mm) <= UNOUTLINED_SIDES]


def _turned_verdict(frame: np.ndarray, to_image: np.ndarray, m: Match, index: CardIndex, pack: Any) -> Match:
    """``m`` turned the way its own face, tried each way round the card can lie, clearly fits the
    picture best at the camera's resolution (see TURN_CHECKED); ``m`` itself otherwise. ``m`` is a
    reading with an id (the caller checks)."""
    assert m.id is not None
    size = index.sizes.get(m.id)
    if size is None:
        return m
    period = 360 / max(1, m.symmetry)
    turns = [t for t in rotations_for(size_key(size)) if t < period]
    faces = lookalike.faces_of(pack, m.id)
    if len(turns) < 2 or not faces:
        return m
    try:
        v = lookalike.tell_apart(frame, to_image, m.center_mm, m.rotation, {m.id: faces}, size, turns,
                                 by_turn=True)
    except (OSError, VisionError):
        return m  # a face picture gone or unreadable since the pack was learned: no check
    if v.winner == m.id and v.rotation % period != 0:
        return dataclasses.replace(m, rotation=(m.rotation + v.rotation) % 360)
    return m


def look_alike_verdict(frame: np.ndarray, to_image: np.ndarray, m: Match, index: CardIndex,
                       pack_of: Callable[[], Any]) -> Match:
    """A card read unsure only because a look-alike scores nearly as well, compared with its
    look-alikes at the camera's resolution (vision.lookalike); the verdict stands when that is
    clear. A reading sure only by a look-alike's narrow margin is checked the same way (see
    CONFIRMED). ``pack_of`` gives the pack whose face pictures are read (called only when a check
    needs them; None for an index without its pack).

    The winner must explain where the designs differ at most CLEAR_RATIO as badly as each other
    candidate; up to WIDE_RATIO when every look-alike of the winner was among the candidates (one
    more comparison when it was not): a card outside the candidates cannot then be the one there.
    hm-dover-4, compared only with hm-holyhead-4 (its colour twin) and hm-dover-8 (its number
    twin), fits hm-holyhead-4 best at 0.53."""
    if m.status == "sure" and m.id is not None and m.score < TURN_CHECKED and pack_of() is not None:
        m = _turned_verdict(frame, to_image, m, index, pack_of())
    confirm = m.status == "sure" and m.score < CONFIRMED
    if (not (m.status == "unsure" or confirm) or m.score < WEAK_SURE or m.id is None
            or m.runner_up is None or m.margin >= MARGIN or pack_of() is None):
        return m
    size = index.sizes.get(m.id)
    if size is None or index.sizes.get(m.runner_up) != size:
        return m
    sc = index.classes.get(size_key(size))
    turns = rotations_for(size_key(size))
    # the runner-up may be the card itself a quarter or half turn round (a crossroads whose print
    # alone says which way it lies): then each turn is a reading of its own
    by_turn = m.runner_up == m.id

    def check(ids: Sequence[str]) -> lookalike.Verdict | None:
        faces = {cid: lookalike.faces_of(pack_of(), cid) for cid in dict.fromkeys(ids)}
        if not all(faces.values()):
            return None
        try:
            return lookalike.tell_apart(frame, to_image, m.center_mm, m.rotation, faces, size, turns,
                                        by_turn=by_turn, clear_ratio=lookalike.WIDE_RATIO)
        except (OSError, VisionError):
            return None  # a face picture gone or unreadable since the pack was learned: no check

    # the two it named and every look-alike of its reading: the card may be a third one
    ids = list(dict.fromkeys([m.id, m.runner_up, *_look_alikes(index, m.id)]))
    v = check(ids)
    if v is None:
        return m
    if v.winner is not None and v.ratio > lookalike.CLEAR_RATIO:
        missing = [c for c in _look_alikes(index, v.winner) if c not in ids]
        if missing:
            again = check(ids + missing)
            if again is None:
                return m
            v = again if again.winner == v.winner else lookalike.Verdict(None, 0.0, again.ratio, again.fit)
    # the rotation the recogniser read must stand, but for the ways its reading looks the same (a
    # card whose design is the same turned half round could not tell which way it lay): a
    # look-alike turned otherwise is no verdict
    if v.winner is None or v.rotation % (360 / max(1, m.symmetry)) != 0:
        # a sure reading no look-alike beats, whose face fits the picture poorly at full detail
        # either: another game's card whose layout the face resembles
        return dataclasses.replace(m, status="unsure") if confirm and v.fit < CONFIRM_FIT else m
    if v.winner == m.id:
        return dataclasses.replace(m, status="sure")
    # another card: its own symmetry, and the way round it fitted
    sym = max((int(sc.entry_sym[e]) for e, cid in enumerate(sc.entry_id) if cid == v.winner), default=1) \
        if sc is not None else 1
    rotation = (m.rotation + v.rotation) % 360
    return dataclasses.replace(m, status="sure", id=v.winner, runner_up=m.id,
                               rotation=rotation % (360 / sym) if sym > 1 else rotation, symmetry=sym)


def scan(frame: Any, game: str, *, pack: Any = None, calibration: Calibration | None = None,
         table: TableSpec | None = None, index: CardIndex | None = None) -> Observation:
    """Everything recognisable on the play area of one frame, in table millimetres."""
    table = table or TableSpec()
    if game not in GAMES:
        raise GameError(f"unknown game {game!r} (one of {', '.join(GAMES)})")
    frame = check_frame(frame)
    cal = _calibration(frame, calibration, table)
    if index is None:
        pack = _pack_for(game, pack)
        index = index_for_pack(pack)
    # a lamp's soft white spot on the table taken out of what the cards are read from
    # (vision.glare). Cards are looked for on the cloth as modelled from the frame as it was
    # (without the spot, the cloth's spread and a patterned cloth's colours came out otherwise,
    # which cost more cards and read a patterned cloth into cards); only a plain cloth's final
    # comparison is made without the spot's light (see detect.foreground)
    spots = glare.find(frame)
    taken = glare.take_out(frame, spots)
    white, lit, unlit = taken.white, taken.lit, taken.unlit
    det = detect.find(frame, cal, index.size_keys, unlit=unlit)
    frame = unlit
    obs = Observation(game=game, reprojection_error_px=cal.reprojection_error_px, calibration=cal)
    if cal.reprojection_error_px > WARN_REPROJECTION_PX:
        obs.warnings.append(f"the markers fit the play area loosely ({cal.reprojection_error_px:.1f} px): "
                            "card positions may be a few mm off")

    @functools.cache
    def faces_from() -> Any:
        """The pack whose face pictures the look-alike check reads: loaded (a folder) only when a
        check needs it, once a scan; None for an index handed in without its pack."""
        return None if pack is None else _pack_for(game, pack)

    def tell_apart(m: Match) -> Match:
        return look_alike_verdict(frame, cal.homography, m, index, faces_from)

    def first_look(cells: Sequence[detect.Candidate]) -> list[Match]:
        """Each cell's reading as placed (read together: each as alone, in less time)."""
        return index.identify_many(frame, cal.homography, [(c.center_mm, c.angle_deg, c.size_key) for c in cells], lit)

    def look(c: detect.Candidate, reading: Match | None = None) -> tuple[detect.Candidate, Match]:
        raw = reading or index.identify(frame, cal.homography, c.center_mm, c.angle_deg, c.size_key, lit)
        if raw.status == "sure" and raw.score < WEAK_SURE:
            # A card in a glossy sleeve: the sheen's band of light (+12 % towards white along a
            # diagonal, the bench's) left proxy tiles in plain view read sure at 0.72-0.80, short
            # of what many regions count from, and they were listed to check (bench seed 9, proxy
            # Monster Highway 60, 64). Read with the lightness flattened (identify(flat=True)),
            # sleeved tiles that read 0.79-0.91 whole read 0.93-0.96 (tests); the better score is
            # taken when it names the same card at the same turn. Only for a reading that is sure
            # (its margin and every quarter of it checked): on the photo-like faces the flattened
            # reading tells cards apart less well; a pile's top read unsure as the wrong card
            # (0.50-0.55) read sure so at 0.66-0.73, and a hand read unsure as a card at 0.67
            # read 0.86 (bench seed 9, photo-like Highwayman 23, 58)
            flat = index.identify(frame, cal.homography, c.center_mm, c.angle_deg, c.size_key, lit, flat=True)
            turn = 360 / max(1, flat.symmetry)
            if flat.status == "sure" and flat.score > raw.score and flat.margin >= FLAT_AHEAD \
                    and flat.id == raw.id and same_turn(flat.rotation, raw.rotation, turn):
                raw = flat
        m = tell_apart(raw)
        # (a reading made sure only by the look-alike check keeps the recogniser's own score,
        # which the rules of a region count by: it is read again as an unsure one is, and a
        # better reading taken. hm-holyhead-1 read 0.84 as placed, 0.89 turned 4 degrees, and a
        # region's anchored cells count from 0.85)
        reread = m.status != "sure" or m.score < WEAK_SURE or raw.status != "sure"
        if reread and c.unsnapped is not None:
            # moved onto the wrong edges (a road's, a frame's): the outline's own guess may be it
            # (a road tile once read as another tile at 0.66 half a road off its place)
            first = tell_apart(index.identify(frame, cal.homography, c.unsnapped.center_mm, c.angle_deg, c.size_key,
                                              lit))
            if first.score > m.score:
                c, m = c.unsnapped, first
        if TURN_TRIES and (reread or m.status != "sure" or m.score < TURN_BELOW) and m.score >= TURN_FROM:
            # turned a few degrees off its card (a region's frame tilted by a hand, a glare spot or
            # a car at its edge): the card's print then fits poorly all over (a tile 7 degrees off
            # read 0.49, 0.78 square to it); read it turned either way too
            turned = [dataclasses.replace(c, angle_deg=c.angle_deg + t, unsnapped=None) for t in TURN_TRIES]
            again = index.identify_many(frame, cal.homography, [(t.center_mm, t.angle_deg, t.size_key) for t in turned],
                                        lit)
            k = max(range(len(again)), key=lambda n: again[n].score)
            if again[k].status == "sure" and again[k].score > m.score:
                if id(c) in gridded:
                    # still a place of its region's own grid (kept alive, so its id stays its own)
                    regridded.append(turned[k])
                    gridded.add(id(turned[k]))
                return turned[k], tell_apart(again[k])
        return c, m

    def look_all(cells: Sequence[detect.Candidate]) -> list[tuple[detect.Candidate, Match]]:
        """look() of each cell, in order, their first readings made together."""
        cells = list(cells)
        return [look(c, r) for c, r in zip(cells, first_look(cells), strict=True)]

    # the cells of each region's own grid (as placed, and moved onto edges)
    gridded = {id(c) for c in det.candidates} | {id(c.unsnapped) for c in det.candidates if c.unsnapped is not None}
    # only where the game's pieces stand on its cards is a cell read again past one (an arm over
    # the cloth beside a Big Sur row read as a landmark tile at 0.85 so)
    pieces_stand = game in layout.PIECES_ON_CARDS
    regridded: list[detect.Candidate] = []  # cells of the grid read turned (see look)

    def past_a_piece(c: detect.Candidate, m: Match) -> Match | None:
        """Cell c's reading m read again past a piece standing on it (see read_past_a_piece), and
        if that reads nothing, with the lightness flattened (a car on a tile in a glossy sleeve:
        read so, the tile stood further ahead of every other face, its misfit more in one blob,
        or it scored more, by up to 0.16)."""
        return (read_past_a_piece(index, frame, cal.homography, c.angle_deg, c.size_key, m)
                or read_past_a_piece(index, frame, cal.homography, c.angle_deg, c.size_key, m, flat=True))

    grow = functools.partial(_grow, past=past_a_piece if pieces_stand else None)
    by_region: dict[int, list[tuple[detect.Candidate, Match]]] = {}
    # the grid's cells read together (each as alone, in less time than one at a time)
    readings = first_look(det.candidates)
    for cand, reading in zip(det.candidates, readings, strict=True):
        by_region.setdefault(cand.region, []).append(look(cand, reading))
    for region, found in by_region.items():
        by_region[region] = _settle(found, det.alternatives.get(region, []),
                                    functools.partial(det.residual, region), det.snap, look_all)
        # from each sure card, its neighbours' places along a row or a grid (see _grow)
        settled = by_region[region] = grow(by_region[region], det, region, look, first_look)
        sure = sum(m.status == "sure" for _, m in settled)
        if not det.regions[region].loose and (sure == 0 or sure < sum(m.status == "unsure" for _, m in settled)):
            # no split of its grids holds a card, or more of its places are read unsure than sure:
            # a glare spot or a shadow joined to a row, or a hand reaching into a grid, may have
            # made its grid a wrong one (cells stretched over the hand, each a few mm off its
            # card). Lattices of true card size anchored on its corners and on the picture's
            # edges are tried; as cells of no grid, a match there needs a clear score to count,
            # and where the grid holds cards they must read more of them. A card edge to edge
            # with a clear one of the lattice is a row's, and counts as in a row a grid explains:
            # a lamp's spot joined to a Big Sur row, the card under the spot read right at
            # 0.66-0.76, far ahead of any other face, its neighbours at 0.84 and more, was
            # listed to check (bench seed 9, photo-like Big Sur 160, 329, 336)
            anchored = det.anchored(region)
            if anchored:
                again = grow(_unclear_unsure(_settle(look_all(det.snap(anchored[0])), anchored[1:],
                                                     functools.partial(det.residual, region), det.snap,
                                                     look_all), row=True), det, region, look, first_look)
                scores = [m.score for _, m in again if m.status == "sure"]
                unsure = sum(m.status == "unsure" for _, m in again)
                ahead = any(_far_ahead(m, WEAK_SURE) for _, m in again)
                # a row reads as cards nearly everywhere; glare, a cloth or an arm that faces match
                # weakly all over reads mostly unsure, with the odd chance match (a glare spot on
                # a check cloth: two byway cards at 0.86 among eight cells read unsure; an arm: one
                # at 0.81 among six), and a lone match is chance unless it is as clear as one in a
                # region no grid explains, or clear and far ahead of every other face (LONE_AHEAD)
                if (len(scores) > unsure and (len(scores) > 1 or max(scores) >= LOOSE_COUNTED or ahead)
                        and _split_quality(again) > _split_quality(settled)):
                    by_region[region] = again
                else:
                    # its clear cards still count (no chance match scores as well): two cards of a
                    # row read at 0.98 beside a hand over the other two, read unsure
                    clear = [(c, m) for c, m in again if m.status == "sure" and m.score >= LOOSE_COUNTED
                             and all(_apart(c, o) for o, om in settled if om.status == "sure")]
                    if clear:
                        by_region[region] = grow([(o, om) for o, om in settled if all(_apart(o, c) for c, _ in clear)]
                                                 + clear, det, region, look, first_look)
            if not any(m.status == "sure" for _, m in by_region[region]):
                # one card and the spread of the pile under it: its top card lies in one of the
                # region's corners (see detect.Detection.cornered). As a cell of no grid, the best
                # reading there counts only with a clear score (LOOSE_COUNTED), and is then the
                # region's one card
                corners = det.cornered(region)
                if corners:
                    firsts = first_look(corners)
                    k = max(range(len(corners)), key=lambda n: firsts[n].score)
                    c, m = look(corners[k], firsts[k])
                    top = _pile_top(m)
                    if top is not None:
                        by_region[region] = [(c, top)]
    for region, found in by_region.items():
        by_region[region] = _recentred(found, look)
    # the places of a region's grid its mask covers only in part (a brown card on wood, a forest
    # on green felt): a card there counts when it is read sure with a clear score and is no card
    # already read; anything less is taken for the cloth, as before (no listing, no unknown)
    read: list[tuple[detect.Candidate, Match]] = []
    for cand in det.partial:
        cards = by_region.get(cand.region)
        if cards is None or det.regions[cand.region].loose:
            continue
        if all(_apart(cand, c) for c, m in cards if m.status != "unknown"):
            c, m = look(cand)
            if m.status == "sure" and m.score >= WEAK_SURE:
                read.append((c, m))
    # (the best first: the places of two grids' cells overlap)
    added: dict[int, list[tuple[detect.Candidate, Match]]] = {}
    for c, m in sorted(read, key=lambda cm: -cm[1].score):
        found = by_region[c.region]
        if all(_apart(c, o) for o, om in found if om.status != "unknown"):
            found.append((c, m))
            added.setdefault(c.region, []).append((c, m))
    # and the cards beside those (a row of dark cards on dark wood, each a strip in the mask)
    for region, new in added.items():
        by_region[region] = grow(by_region[region], det, region, look, first_look, start=new)
    # the places beside two counted cards, or in line past two, that no sure card holds, and the
    # cards beside those (see _enclosed)
    enclosed: dict[int, list[tuple[detect.Candidate, Match]]] = {}
    doubted: list[tuple[detect.Candidate, Match]] = []
    for c, m in _enclosed(by_region, det, look, first_look, past_a_piece if pieces_stand else None, doubted):
        enclosed.setdefault(c.region, []).append((c, m))
    for region, new in enclosed.items():
        by_region[region] = grow(by_region[region] + new, det, region, look, first_look, start=new)
    # the tile the rulebook puts on the board's centre, read there when nothing else read it (see
    # _at_the_centre); what a region read at its place otherwise gives way to it (listed after
    # every region's cards)
    catalog = _catalog(game)
    centred = _at_the_centre(by_region, det, look, first_look, past_a_piece if pieces_stand else None, game, catalog)
    for c, _ in centred:
        for region, found in by_region.items():
            by_region[region] = [(o, om) for o, om in found if om.status == "sure" or _apart(o, c)]
    # what reaches onto the table from beyond its edge (an arm, found by detection): a card it
    # covers in part is read again without it (see vision.hand)
    arms = det.arms

    def past_an_arm(found: list[tuple[detect.Candidate, Match]], counted_from: float) -> list[tuple[detect.Candidate, Match]]:
        """Each place whose reading would not count (below `counted_from`, or no card named:
        see hand.read_past_a_hand) read again without an arm's pixels, where an arm crosses the
        table's edge."""
        if not arms:
            return found
        return [(c, (hand.read_past_a_hand(index, frame, cal.homography, c.angle_deg, c.size_key, m, arms) or m)
                 if m.status != "sure" or m.score < counted_from else m) for c, m in found]

    # the cards beside an arm, their region split without it (see detect.find): a place there
    # counts when read sure with a clear score where no region reads a card for sure, and what
    # another region read there otherwise gives way to it (listed after every region's cards)
    past_arm: dict[int, list[tuple[detect.Candidate, Match]]] = {}
    for cand in det.beside_arm:
        if any(not _apart(cand, o) for found in [*by_region.values(), *past_arm.values()] for o, om in found
               if om.status == "sure"):
            continue
        least = LOOSE_COUNTED if det.regions[cand.region].loose else WEAK_SURE
        ((c, m),) = past_an_arm([look(cand)], least)
        if m.status == "sure" and m.score >= least:
            for region, found in by_region.items():
                by_region[region] = [(o, om) for o, om in found if om.status == "sure" or _apart(o, c)]
            past_arm.setdefault(c.region, []).append((c, m))

    edge_to_edge: list[Item] = []  # cards that count for lying edge to edge with counted ones
    reach = None if det.arm is None else det.arm.astype(np.uint8) * 255  # (where an arm reaches)
    cloth: list[detect.Region] = []  # grown places read as no card: the cloth's own (see _grown_from_cloth)
    for region, found in by_region.items():
        if det.regions[region].loose:
            # cells guessed inside a region no grid explains (the region is already reported as
            # unknown): a match there was once a wrong card or a phantom in 5 of 100 scenes (those
            # scored 0.65-0.75), so it counts only with a score no chance match comes near;
            # anything less is listed for the players to check. A card beside a counted one is a
            # row or a grid, not chance: it counts from WEAK_SURE (tiles of a grid on a cloth of
            # their colour, read 0.87-0.89 beside tiles read over 0.9)
            if pieces_stand:
                # a car or the Monster on a place beside a card that counts here, whose whole face
                # named a card: read past the piece, as on a board a grid explains (a tee under a
                # car on a board read as one loose region, 0.73 whole, 0.97 past the car: bench
                # seed 3, Monster Highway scene 80). It then counts beside that card as any does.
                counting = _counted_beside(found, LOOSE_COUNTED, WEAK_SURE)
                by = [c for c, _ in found if id(c) in counting]
                found = [(c, (past_a_piece(c, m) or m)
                          if id(c) not in counting and m.id is not None and any(_beside(c, o) for o in by) else m)
                         for c, m in found]
            found = past_an_arm(found, LOOSE_COUNTED)
            counted = _counted_beside(found, LOOSE_COUNTED, WEAK_SURE)
            for c, m in found:
                if id(c) in counted or _far_ahead(m, WEAK_SURE):
                    obs.items.append(_item(m, index))
                elif m.status != "unknown" and m.score >= LOOSE_LISTED:
                    obs.unsure.append(_item(m, index))
            continue
        no_card = all(m.status == "unknown" for _, m in found)
        if no_card and det.regions[region].faint:
            continue  # card-shaped light or shade on the cloth, and no card of the pack
        if no_card and _grown_from_cloth(det, det.regions[region], game):
            cloth.append(det.regions[region])  # the cloth's pattern, and no card of the pack
            continue
        r = det.regions[region]
        whole = Unknown(r.center_mm, r.size_mm, "not a card of this pack", _x_angle(r.angle_deg))
        # So is a region of several places none of which reads as a card at all clearly (none
        # sure, none at ACCEPT; see below): bench seed 9, photo-like Big Sur 35, a phone 150 mm long cut into
        # six landmark-sized places, three of them listed to check as landmarks at 0.52-0.56. Not
        # where an arm reaches into the region: its places are left to the arm's rules below, each
        # shown as the arm where mostly its colour (as one place, too little of it may be)
        if not no_card and len(found) > 1 and all(m.status != "sure" and m.score < ACCEPT for _, m in found) \
                and (reach is None or glare.share_of(reach, whole.corners_mm() * det.px_per_mm) == 0.0):
            no_card = True
        if no_card and len(found) > 1:
            # A region none of whose cells is a pack card is one object (a phone, a foreign deck),
            # not a row of unknown cards.
            obs.unknowns.append(whole)
            continue
        sure = sum(m.status == "sure" for _, m in found)
        # A big region where almost nothing is a pack card is a shadow, a hand or a cloth
        # pattern cut into card-sized cells: a lone fair match there is more likely chance than a
        # card, so it is listed for the players to check instead of counted (chance matches seen
        # scored 0.65-0.72; a tile beside a hand scores over 0.9).
        # Several sure cards side by side are a row, not chance.
        doubtful = len(found) >= LONELY_CELLS and sure <= LONELY_SHARE * len(found) and sure <= LONELY_MOST
        # A region where more cells are read unsure than sure is a cloth pattern, a hand or glare
        # that the faces match weakly all over: there a fair match is chance as often as a card
        # (every phantom of 4,900 bench scenes scored 0.72-0.75 in such a region).
        doubtful = doubtful or sum(m.status == "unsure" for _, m in found) > sure
        # A region no clean grid explains (a phone, an arm, a hand with a card) cut into cells:
        # a sure match there needs a clear score to count (a phone's screen matched a face at
        # 0.72, an arm matched one smooth photo-like face in three cells in a row at 0.69)
        weak = det.regions[region].weak
        # ... unless most of its places read as cards, some clearly (see WEAK_HELD_SHARE): a board
        # with the Monster or a car standing out of it, not an arm cut into cells
        held = weak and not doubtful and sure >= WEAK_HELD_SHARE * len(found) \
            and sum(m.status == "sure" and m.score >= WEAK_SURE for _, m in found) >= WEAK_HELD_CLEAR
        if pieces_stand:
            # a car or the Monster standing on a tile of the region's own grid: read it again
            # without the piece (not any leftover cell: an arm beside a board once read so; nor in
            # a region an arm or a hand is joined to, unless held)
            # (a reading of no card is taken where its cell lies: its centre followed the wrong face)
            # A place beside a clear card, grown from it or of another split, is read so too when
            # its whole face named a card (then the reading past the piece must name the same one,
            # unless the whole face was below the recogniser's bar):
            # tiles under cars on a board whose places were found from its sure tiles, and on a
            # board a hand reaches into. In a region that is neither doubtful nor weak, any place
            # whose whole face named a card is read so: a crossroads under a car at a board's
            # edge, the tiles beside it hidden by a hand, read 0.50 unsure 7 mm off its place
            # and 0.88-0.93 past the car (bench seed 3, Monster Highway scene 27, both packs).
            # A place whose whole face named no card is read so where the grid explains it, or
            # where it lies edge to edge with a clear tile (as the grid would place it) in a region
            # the grid explains or its clear tiles hold: a car's yellow on a curve's bend left the
            # whole face at 0.31, on a board whose grid missed that place, and only a "not a card"
            # was shown there (bench seed 9, proxy Monster Highway 12, 72)
            clear_cells = [c for c, m in found if m.status == "sure" and m.score >= WEAK_SURE]
            # (a sure reading that would be listed unsure, as below, too: a car on a road tile
            # keeps its whole face at 0.70-0.75, which counts only in a clean grid)
            listed_below = WEAK_SURE if (doubtful or weak) else COUNTED
            past = {id(c) for c, m in found if (m.status != "sure" or m.score < listed_below) and (
                (id(c) in gridded and (held or not weak))
                or (m.id is not None and (not (doubtful or weak) or any(_beside(c, o) for o in clear_cells)))
                or (m.id is None and (held or not weak) and any(_edge_to_edge(o, c) for o in clear_cells)))}
            found = [(cand, (past_a_piece(cand, m if m.id is not None else dataclasses.replace(m, center_mm=cand.center_mm))
                             or m) if id(cand) in past else m)
                     for cand, m in found]
        found = past_an_arm(found, WEAK_SURE if (doubtful or weak) else COUNTED)
        # in a held region a card beside a clear one counts as in a clean grid
        beside = _counted_beside(found, WEAK_SURE, COUNTED) if held else set()
        # a card short of COUNTED edge to edge with one that counts, in a region a grid explains
        # (a held board too, beside its clear tiles), is a row's or a grid's (see EDGE_SLACK_MM)
        firm = [] if doubtful or (weak and not held) else \
            [c for c, m in found if m.status == "sure" and m.score >= (WEAK_SURE if weak else COUNTED)]
        backed = {id(c) for c, m in found
                  if m.status == "sure" and m.score < COUNTED and any(_edge_to_edge(o, c) for o in firm)}
        for cand, m in found:
            if id(cand) in backed:
                edge_to_edge.append(_item(m, index))  # (counted below)
            elif m.status == "sure" and (
                    ((doubtful or weak) and m.score < WEAK_SURE and id(cand) not in beside
                     and not _far_ahead(m, COUNTED)) or m.score < COUNTED):
                obs.unsure.append(_item(m, index))
            elif m.status == "sure":
                obs.items.append(_item(m, index))
            elif m.status == "unsure":
                obs.unsure.append(_item(m, index))
            else:
                short, long_ = cand.size_key
                obs.unknowns.append(Unknown((round(cand.center_mm[0], 1), round(cand.center_mm[1], 1)),
                                            (short, long_), "not a card of this pack", round(cand.angle_deg, 1)))
    obs.items += [_item(m, index) for found in past_arm.values() for _, m in found]  # (see above)
    obs.items += [_item(m, index) for _, m in centred]
    # a card counted for lying edge to edge with a counted one, unless counted cards cover it in
    # part (see EDGE_OVERLAP): then it is listed (and goes if they cover it for the most part)
    quads = [np.asarray(it.corners_mm, np.float32) for it in obs.items]
    for it in edge_to_edge:
        (obs.items if _covered(it, quads) <= EDGE_OVERLAP else obs.unsure).append(it)
    blobs = [(Unknown((round(b.center_mm[0], 1), round(b.center_mm[1], 1)),
                      (round(b.size_mm[0], 1), round(b.size_mm[1], 1)), NOT_CARD_SHAPED,
                      _x_angle(b.angle_deg)), b)
             for b in det.blobs]
    obs.unknowns += [u for u, _ in blobs]
    if white is not None:
        # a card whose face the glare drove to white in good part is known from the rest only by
        # a clear score: a white patch's edge across cloth was read as a card whose print is light
        # above and dark below (see CLIPPED_SHARE); it is listed for the players instead
        for it in [it for it in obs.items if it.confidence < CLIPPED_COUNTED
                   and glare.share_of(white, cal.to_image(it.corners_mm)) > CLIPPED_SHARE]:
            obs.items.remove(it)
            obs.unsure.append(it)
    # a place enclosed by counted cards and read, not clearly, as a card (see _enclosed), where
    # nothing else was read or shown: listed to check, never counted, never left out
    if doubted:
        shown = [(x.center_mm, min(x.size_mm)) for x in [*obs.items, *obs.unsure, *obs.unknowns]]
        obs.unsure += [_item(m, index) for c, m in doubted
                       if all(_half_a_card_apart(m.center_mm, at, c.size_key[0], short) for at, short in shown)]
    _one_per_place(obs)
    _beyond_the_box(obs, catalog)
    _covered_by_cards(obs, index.size_keys)
    # a card read where the place shows no print is not counted (see FLAT_STD)
    low = [it for it in obs.items if it.confidence < CONFIRMED]
    if low:
        grey = cv2.cvtColor(det.rectified, cv2.COLOR_BGR2GRAY)
        flat = [it for it in low if _flat(grey, it, det.px_per_mm) and (
            white is None or glare.share_of(white, cal.to_image(it.corners_mm)) <= CLIPPED_SHARE)]
        obs.items = [it for it in obs.items if not any(it is f for f in flat)]
        obs.unsure += flat
        # nor where its outline is not seen (see UNOUTLINED_SIDES)
        unoutlined = _unoutlined(obs.items, det)
        obs.items = [it for it in obs.items if not any(it is u for u in unoutlined)]
        obs.unsure += unoutlined
    if reach is not None:
        # a card listed to check whose place is mostly the arm (its colour, joined to the table's
        # edge through it: not a cork coaster of its colour lying apart) is the arm: an arm cut into
        # card places reads as faces of its colour (twice the same byway card at 0.83 along one
        # arm). It is shown as the arm, with the advice to lift it (below), not as a card to check:
        # a card hidden that much cannot be told from the arm (see hand.MOST). So is a card counted
        # there unless read clearly (CONFIRMED): a bare forearm between two rows read as a smooth
        # photo-like face at 0.81 in a region an arm joined (bench seed 9, photo-like Big Sur
        # scene 266), a forearm at the table's edge as a monster card at 0.89 (Monster Highway 147)
        # (a counted one from a little less of it: see hand.COUNTED_ON_ARM)
        on_arm = {id(it) for it in obs.unsure
                  if glare.share_of(reach, np.asarray(it.corners_mm) * det.px_per_mm) >= hand.NAMED}
        # And so is one a good part under the arm whose own outline is seen on at most one side
        # (see hand.ARM_EDGE)
        for it in obs.items:
            if it.confidence >= CONFIRMED:
                continue
            share = glare.share_of(reach, np.asarray(it.corners_mm) * det.px_per_mm)
            edge = share >= hand.ARM_EDGE and det.edges is not None \
                and detect.outline_sides(det.edges, it.corners_mm, det.px_per_mm) <= hand.ARM_EDGE_SIDES
            if share >= hand.COUNTED_ON_ARM or edge:
                on_arm.add(id(it))
        obs.unknowns += [Unknown(it.center_mm, it.size_mm, ARM, it.rotation % 180.0)
                         for it in obs.unsure + obs.items if id(it) in on_arm]
        obs.unsure = [u for u in obs.unsure if id(u) not in on_arm]
        obs.items = [it for it in obs.items if id(it) not in on_arm]
    # a region no card fits whose cells read cards that count, covering most of it, is those cards
    # (see BLOB_COUNTED, detect.Detection.counted), not a thing of no card's shape as well
    half_a_card = 0.5 * min(k[0] * k[1] for k in index.size_keys)
    counted = [np.asarray(it.corners_mm) for it in obs.items]
    explained = []
    for u, b in blobs:
        share, left = det.counted(b.region, counted)
        if share >= BLOB_COUNTED and left < half_a_card:
            explained.append(u)
    obs.unknowns = [u for u in obs.unknowns if not any(u is e for e in explained)]
    if reach is not None and arms:
        obs.unknowns += _arm_parts(obs.unknowns, reach, det.rectified, arms, det.px_per_mm)
    # a listing where no card's outline is seen is no card to check but a thing (see
    # OUTLINED_SIDES), named the glare below when a lamp's white is a good part of it (one on an
    # arm joined to the table's edge was named the arm above, as a listing). They are the last
    # unknowns (from `outlined` on) until the layout is read, which takes them as the readings
    # they were: as unknowns, they were taken for the Monster's place (bench seed 9, the 167
    # photo-like scenes where this acts: the Monster found right 19 times before, 15 so; wrong
    # once before, 4 times)
    outlined, bare = len(obs.unknowns), []
    if obs.unsure and det.edges is not None:
        bare = [u for u in obs.unsure if detect.outline_sides(det.edges, u.corners_mm, det.px_per_mm) < OUTLINED_SIDES]
        obs.unknowns += [Unknown(u.center_mm, u.size_mm, layout.NOT_IN_PACK, u.rotation % 180.0) for u in bare]
        obs.unsure = [u for u in obs.unsure if not any(u is b for b in bare)]
    if obs.unsure:
        obs.warnings.append(f"{len(obs.unsure)} card(s) not recognised for sure: check them and scan again")
    # pieces inside something unknown are its parts (icons on a phone), not playing pieces; inside
    # a place of the cloth's own pattern, its flecks; inside a card read, its print (a Roundabout
    # card's corner island on a grey cloth, a tile's grass, each a spot of its own in the mask): a
    # piece standing on a card joins it in the mask, and is looked for against the card's face
    # below. Only the games whose pieces stand on or against the cards read any
    # (layout.PIECES_ON_CARDS)
    inside = [(u.center_mm, max(u.size_mm) / 2) for u in obs.unknowns] + [(r.center_mm, max(r.size_mm) / 2)
                                                                          for r in cloth]
    spotted: list[dict[str, Any]] = []
    if pieces_stand:
        on_cards = [np.asarray(it.corners_mm, np.float32) for it in obs.items + obs.unsure]
        spotted = [
            {"center_mm": p.center_mm, "size_mm": p.size_mm, "area_mm2": p.area_mm2, "colour_bgr": p.colour_bgr}
            for p in det.pieces
            if not any(np.hypot(p.center_mm[0] - c[0], p.center_mm[1] - c[1]) < r for c, r in inside)
            and not any(cv2.pointPolygonTest(q, tuple(map(float, p.center_mm)), False) > 0 for q in on_cards)]
        # and the pieces standing on recognised tiles, which the mask joins to their tile
        for it in obs.items + obs.unsure:
            key = size_key(it.size_mm)
            if key[0] != key[1]:
                continue
            for p in pieces_on(index, frame, cal.homography, it.center_mm, it.rotation, key, it.id):
                if all(np.hypot(p["center_mm"][0] - q["center_mm"][0], p["center_mm"][1] - q["center_mm"][1])
                       >= SAME_PIECE_MM for q in spotted):
                    spotted.append(p)
    pieces = [{"colour": layout.colour_name(p["colour_bgr"]),
               "center_mm": [round(p["center_mm"][0], 1), round(p["center_mm"][1], 1)],
               "size_mm": [round(p["size_mm"][0], 1), round(p["size_mm"][1], 1)], "area_mm2": round(p["area_mm2"])}
              for p in spotted]
    if arms:
        # a place read as no card that is mostly an arm's colour is the arm (a chain of them over a
        # board once gave the Monster's place, under the hand): named so before the layout reads
        # the places where the Monster may stand. Not a card listed where no outline is seen (see
        # OUTLINED_SIDES): as a listing, it is the arm only joined to it (above, by `reach`); by
        # colour alone, a cork coaster lying apart was named the arm (bench seed 1, proxy
        # Highways & Byways 27)
        for k, u in enumerate(obs.unknowns[:outlined]):
            if u.reason == layout.NOT_IN_PACK and hand.share_of_arm(
                    det.rectified, np.asarray(u.corners_mm()) * det.px_per_mm, arms) >= hand.NAMED:
                obs.unknowns[k] = dataclasses.replace(u, reason=ARM)
        if any(u.reason == ARM for u in obs.unknowns):
            # (first, as the glare's advice below: it says why cards may be missing or unsure)
            obs.warnings.insert(0, "a hand or an arm reaches over the table and hides what lies under it: "
                                   "lift it, then scan again")
    if white is not None:
        # what a spot drove to white hides whatever lies there: an unknown place white in good
        # part (GLARE_SHARE) is named as the glare, and the players are told how to see it. Named
        # before the layout reads where the Monster stands: the Monster may stand under the white,
        # but the place is the glare's (vision.layout). Read the Monster's, a glare spot beside the
        # board, tile-sized on the grid, named a wrong space as sure where a hand hid the real one
        # (bench seed 9, proxy Monster Highway 91, photo-like 443, the board's tiles read turned)
        glared = 0
        for k, u in enumerate(obs.unknowns):
            if glare.share_of(white, cal.to_image(u.corners_mm()).astype(np.float32)) >= GLARE_SHARE:
                obs.unknowns[k] = dataclasses.replace(u, reason=GLARE)
                glared += 1
        if glared:
            # first: what the players can do something about, and why cards may be missing or
            # unsure (the app quotes the first warning when it reads nothing new)
            obs.warnings.insert(0, "a lamp's glare washes out part of the table and hides what lies there: "
                                   "move or shade the lamp, then scan again")
    obs.layout = layout.build(game, obs.items, pieces, table, catalog, obs.unknowns[:outlined], obs.unsure + bare)
    pieces = obs.layout.setdefault("pieces", [])  # (those the game's rules leave: layout.build)
    monster = obs.layout.get("monster")
    if monster is not None:
        # the Monster read from the place it hides (see layout.MONSTER_ON_GRID_MM) stands there too:
        # coloured by the middle of that place as seen from above, sized as the place
        ppm = det.px_per_mm
        x, y = (round(v * ppm) for v in monster["center_mm"])
        half = max(1, round(MONSTER_COLOUR_MM * ppm / 2))
        patch = det.rectified[max(0, y - half):y + half, max(0, x - half):x + half].reshape(-1, 3)
        side = layout.MONSTER_CELL_MM
        pieces.append({"colour": layout.colour_name(patch.mean(axis=0).round().astype(int)) if len(patch) else "",
                       "center_mm": monster["center_mm"], "size_mm": [side, side], "area_mm2": round(side * side)})
    if obs.layout.get("monster_one_of"):
        obs.warnings.append(f"the Monster may stand on any of {len(obs.layout['monster_one_of'])} places marked "
                            "\"Monster?\": uncover the board around them (a hand, a lamp's glare, a card on top), "
                            "then scan again")
    if obs.layout.get("cars_unread"):
        obs.warnings.append(f"{obs.layout['cars_unread']} spots on the table look like playing pieces (a patterned "
                            "cloth?): no car is read as reserving a place; enter a reservation by hand")
    return obs
