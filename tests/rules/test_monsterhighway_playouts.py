"""Monster Highway as a whole: random legal games end, every action the engine lists is accepted,
``legal_placements`` agrees with a brute-force reading of the Road Rules, and the shipped example
record replays."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import Action, Record
from rules.monsterhighway import MonsterHighway, bench_extras, playout_choice
from rules.monsterhighway.data import rotate
from rules.monsterhighway.example import SEED, example
from rules.playout import play_random_game, random_step

from .test_monsterhighway_helpers import NAMES, snapshot

EXAMPLE = Path(__file__).resolve().parents[2] / "companion" / "examples" / "monsterhighway.json"


def test_random_games_end_with_a_car_home() -> None:
    """The first car to reach its Home Base wins: random games driven by the playout chooser get there
    long before the round-limit safeguard (100 rounds) would stop them."""
    winners, rounds = 0, []
    for seed in range(24):
        g = play_random_game(MonsterHighway(NAMES[:2 + seed % 3], seed=seed), seed)
        assert g.is_game_over()
        winners += g.state.winner is not None
        rounds.append(g.state.round)
    assert winners >= 22, f"only {winners} of 24 random games ended with a car home"
    assert max(rounds) < 100


def walk(seed: int, players: int, every: int = 1) -> list[MonsterHighway]:
    """Positions (copies) where a player is to act, along one random game."""
    g = MonsterHighway(NAMES[:players], seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not g.is_game_over():
        if not g.is_chance_node():
            step += 1
            if step % every == 0:
                copy = MonsterHighway(NAMES[:players], seed=seed)
                for a in g.actions:
                    copy.push(a)
                out.append(copy)
        g.push(random_step(g, rng, playout_choice))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_listed_action_is_accepted(seed: int) -> None:
    """legal_actions() lists only actions push() accepts (and undo takes each back exactly)."""
    rng = random.Random(seed)
    for g in walk(seed, 2 + seed % 3, every=7):
        legal = g.legal_actions()
        assert legal, "a player is to act but has no legal action"
        for action in legal:  # the engine builds some lists without Action.of, for speed
            assert Action.from_json(action.to_json()) == action, action
        for action in rng.sample(legal, min(len(legal), 25)):
            before = snapshot(g)
            g.push(action)
            g.pop()
            assert snapshot(g) == before


Board = dict[int, tuple[str, int, int]]


def settles(g: MonsterHighway, board: Board, at: int) -> bool:
    """The tile on ``at`` meets every neighbour side for side, leads nowhere off the board, and every
    empty space next to it that a road leads into can still take some Road tile."""
    grid, cat = g.grid, g.catalog
    claimed = {g.home_cell(p) for p in range(len(g.players))} - set(board)

    def side(cell: int, d: int) -> bool:
        return bool(board[cell][2] >> d & 1)

    for d, n in enumerate(grid.neighbours[at]):
        if n < 0:
            if side(at, d):
                return False
        elif n in board and side(at, d) != side(n, (d + 2) % 4):
            return False
    road_shapes = {m for t in cat.by_kind("road") for m in t.masks}
    for n in grid.neighbours[at]:
        if n < 0 or n in board:
            continue
        into = [d for d, nn in enumerate(grid.neighbours[n]) if nn >= 0 and nn in board and side(nn, (d + 2) % 4)]
        if not into:
            continue
        if n in grid.corners:
            if n not in claimed or len(into) != 1:
                return False
            continue

        def fits(m: int, n: int = n) -> bool:
            for d, nn in enumerate(grid.neighbours[n]):
                open_ = bool(m >> d & 1)
                if nn < 0 or (nn in grid.corners and nn not in board and nn not in claimed):
                    if open_:
                        return False
                elif nn in board and open_ != side(nn, (d + 2) % 4):
                    return False
            return True

        if not any(fits(m) for m in road_shapes):
            return False
    return True


def oracle(g: MonsterHighway, tile: str, at: int, rotation: int) -> bool:
    """The Road Rules read naively, tile by tile, as a referee at the table would check a placement."""
    s, grid = g.state, g.grid
    design = g.catalog.tiles[tile]
    if at in s.board or at == s.monster or at == grid.ground_zero:
        return False
    if (design.kind == "home base") != (at in grid.corners) or (design.kind == "home base"
                                                                and at != g.home_cell(s.turn)):
        return False
    board = dict(s.board)
    board[at] = (tile, rotation, rotate(design.open_mask, rotation))
    joined = any(board[at][2] >> d & 1 and n >= 0 and n in board and board[n][2] >> (d + 2) % 4 & 1
                 for d, n in enumerate(grid.neighbours[at]))
    return joined and settles(g, board, at)


def swap_referee(g: MonsterHighway) -> set[tuple[int, int, int, int]]:
    """Every swap of two Road tiles, every pair of rotations, kept when both tiles settle and something
    changes (a tile, a way the road runs, or a car or the Monster carried along)."""
    s = g.state
    roads = [c for c, (t, _, _) in sorted(s.board.items()) if g.catalog.tiles[t].kind == "road"]
    carried = set(s.cars) | {s.monster}
    out = set()
    for i, a in enumerate(roads):
        for b in roads[i + 1:]:
            ta, tb = s.board[a][0], s.board[b][0]
            for ra in (0, 90, 180, 270):
                for rb in (0, 90, 180, 270):
                    board = dict(s.board)
                    board[a] = (tb, ra, rotate(g.catalog.tiles[tb].open_mask, ra))
                    board[b] = (ta, rb, rotate(g.catalog.tiles[ta].open_mask, rb))
                    same = all(board[c][0] == s.board[c][0] and board[c][2] == s.board[c][2] for c in (a, b))
                    if (not same or a in carried or b in carried) and settles(g, board, a) and settles(g, board, b):
                        out.add((a, b, board[a][2], board[b][2]))
    return out


@pytest.mark.parametrize("seed", [8, 9])
def test_legal_swaps_agree_with_a_brute_force_referee(seed: int) -> None:
    """[Swap] ... as long as it does not result in any dead ends or roadways leading off the board."""
    checked = 0
    for g in walk(seed, 2 + seed % 3, every=12):
        tiles = g.catalog.tiles
        listed = {(a, b, rotate(tiles[g.state.board[b][0]].open_mask, ra),
                   rotate(tiles[g.state.board[a][0]].open_mask, rb)) for a, b, ra, rb in g.legal_swaps()}
        assert listed == swap_referee(g), f"after {len(g.actions)} actions"
        checked += bool(listed)
    assert checked >= 3


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_legal_placements_agree_with_a_brute_force_referee(seed: int) -> None:
    """Every tile in hand, on every space, in every rotation: listed if and only if the Road Rules allow it."""
    checked = 0
    for g in walk(seed, 2 + seed % 3, every=3):
        s = g.state
        if not s.steps or s.steps[0] != "tile":
            continue
        p = s.turn
        tiles = {t for t in s.hands[p] if g.catalog.tiles[t].kind == "road" or t == "dead-end"}
        if g.home_cell(p) not in s.board:
            tiles.add(g.catalog.home_tile(s.homes[p] or ""))
        listed = {(t, g.catalog.cell_of(a), rotate(g.catalog.tiles[t].open_mask, r))
                  for t, a, r in g.legal_placements(p)}
        truth = {(t, c, rotate(g.catalog.tiles[t].open_mask, r))
                 for t in tiles for c in range(g.grid.cells) for r in (0, 90, 180, 270) if oracle(g, t, c, r)}
        assert listed == truth, f"after {len(g.actions)} actions"
        checked += 1
    assert checked >= 5


def test_the_example_record_replays_to_a_finished_game() -> None:
    """companion/examples/monsterhighway.json is a full game written by this engine."""
    record = Record.load(EXAMPLE)
    game = record.replay()
    assert game.is_game_over() and game.state.winner is not None
    assert [a.to_json() for a in record.actions] == [a.to_json() for a in example(SEED).actions]
    kinds = {a.kind for a in record.actions}
    assert {"place_tile", "move_car", "monster_card", "swap_tiles", "remove_tile", "dead_end",
            "monster_buster", "reroll", "exchange_tile", "tile_reshuffle", "monster_reshuffle"} <= kinds
    replay = record.start()
    for a in record.actions:
        assert replay.prompt()
        sentence = replay.describe(a)
        assert sentence and "_" not in sentence, sentence  # the game's words, not the record's
        replay.push(a)
    assert replay.prompt().endswith("is home and wins")


def test_bench_extras_measure_the_placement_helper() -> None:
    extras = bench_extras()
    assert "legal tile placements, half-built board" in extras
    assert all(isinstance(fn(), float) for fn in extras.values())
