"""Random games that end: the playout chooser heads for the next byway, then home.

Pure random driving wanders a 160-space map for thousands of turns. The chooser therefore drives
one space closer to a target whenever it can: the next space of a byway in progress, else the
other end of a byway it stands at the end of, else the nearest end of a byway still marked, else
its Start Space. When no legal move gets closer (a closed highway, the budget spent) it plans or
ends the turn, so a turn never loops. Every other decision (drafts, drops, keeps, disputes) is
uniformly random among the legal actions. ``end_turn`` is legal at every point of the move step,
which is the engine's guarantee that a player always has a legal action.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..actions import Action
from ..game import Game
from .engine import HighwaysAndByways

PLAN_ODDS = 0.3


def targets(game: HighwaysAndByways, player: int) -> tuple[set[str], str]:
    """Where ``player`` wants to drive next, and why (for tests and the hint on screen)."""
    s = game.state
    here = s.position[player]
    cat = game.cat
    for bw, (direction, done) in s.progress[player].items():
        seq = cat.byways[bw].spaces
        ordered = seq if direction == 1 else seq[::-1]
        return {ordered[done]}, f"continue {cat.byways[bw].name}"
    if not s.markers[player]:
        home = s.homes[player]
        assert home is not None
        return {home}, "home"
    ends: set[str] = set()
    for bw in s.markers[player]:
        seq = cat.byways[bw].spaces
        if here == seq[0]:
            return {seq[1]}, f"start {cat.byways[bw].name}"
        if here == seq[-1]:
            return {seq[-2]}, f"start {cat.byways[bw].name}"
        ends.update((seq[0], seq[-1]))
    return ends, "nearest byway"


def _distance(game: HighwaysAndByways, space: str, goal: set[str]) -> int:
    return min(game.cat.distances_from(t)[space] for t in goal)


def playout_choice(game: Game[Any], legal: list[Action], rng: random.Random) -> Action:
    assert isinstance(game, HighwaysAndByways)
    s = game.state
    if s.phase != "driving" or s.step != "move":
        return rng.choice(legal)
    p = s.seat
    drives = [a for a in legal if a.kind == "drive"]
    if drives:
        goal, _ = targets(game, p)
        here = s.position[p]
        assert here is not None
        now = _distance(game, here, goal)
        best = min(drives, key=lambda a: (_distance(game, a["path"][-1], goal), a["path"][-1]))
        if _distance(game, best["path"][-1], goal) < now:
            return best
    planning = [a for a in legal if a.kind in ("draw", "choice", "plan_discard")]
    if planning and rng.random() < PLAN_ODDS:
        return rng.choice(planning)
    return next(a for a in legal if a.kind == "end_turn")


def _driving_position(players: int = 4, seed: int = 1) -> HighwaysAndByways:
    game = HighwaysAndByways(["Ana", "Ben", "Cleo", "Dev"][:players], seed=seed)
    rng = random.Random(seed)
    while not (game.state.phase == "driving" and game.state.step == "move" and game.state.round >= 3):
        game.push(game.sample_chance() if game.is_chance_node()
                  else playout_choice(game, game.legal_actions(), rng))
    return game


def bench_extras() -> dict[str, Callable[[], float]]:
    """Hot paths of a driving turn: the legal actions the app offers, and where the car can go."""
    game = _driving_position()

    def legal_actions() -> float:
        start = time.perf_counter()
        game.legal_actions()
        return (time.perf_counter() - start) * 1000

    def reachable() -> float:
        start = time.perf_counter()
        game.reachable()
        return (time.perf_counter() - start) * 1000

    return {"legal actions (driving)": legal_actions, "reachable spaces": reachable}


def example_record(players: int = 3, seed: int = 7) -> Any:
    """A whole random game as a record: ``companion/examples/highwaysbyways.json`` is
    ``example_record().dumps()`` (regenerate it after a rules change)."""
    game = HighwaysAndByways(["Ana", "Ben", "Cleo", "Dev"][:players], seed=seed)
    rng = random.Random(seed)
    while not game.is_game_over():
        game.push(game.sample_chance() if game.is_chance_node()
                  else playout_choice(game, game.legal_actions(), rng))
    record = game.record()
    record.engine = None  # a bundled example, regenerated only when the rules change, names no version
    record.meta = {"made_by": f"rules.highwaysbyways.playout.example_record(players={players}, seed={seed})",
                   "note": "a random game steered by playout_choice, on the stand-in board and cards"}
    return record
