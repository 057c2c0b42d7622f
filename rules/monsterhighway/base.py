"""What every part of the Monster Highway engine leans on: the catalog and grid, reading action
fields, the checks several actions share (whose turn, which step, which tile in hand), and where
the Monster lands. The rules themselves are in ``engine`` (turns, dice, roads, cars) and
``specials`` (the special tiles).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import Action
from ..errors import ActionFormatError, IllegalAction, OptionError
from ..game import Game
from . import data
from .data import Catalog
from .roads import Grid
from .state import ROTATIONS, STEP_WORDS, MonsterState, insert_sorted


class MonsterHighwayBase(Game[MonsterState]):
    """Shared helpers; :class:`~rules.monsterhighway.engine.MonsterHighway` is the game."""

    def __init__(self, players: Sequence[str], *, seed: int = 0, options: Mapping[str, Any] | None = None,
                 catalog: Catalog | None = None) -> None:
        self.catalog = catalog if catalog is not None else data.current()
        self.grid = Grid(self.catalog)
        self._buster = self.catalog.effect_tile("monster_buster")
        super().__init__(players, seed=seed, options=options)
        limit = self.options["round_limit"]
        if limit < 0:
            raise OptionError(f"option 'round_limit' must be 0 (no limit) or a number of rounds, not {limit}")

    def name_of(self, cell: int) -> str:
        return self.catalog.name_of(cell)

    def home_cell(self, seat: int) -> int | None:
        corner = self.state.homes[seat]
        return None if corner is None else next(h.cell for h in self.catalog.home_bases if h.corner == corner)

    def _homes_open(self) -> set[int]:
        """Claimed corners still waiting for their Home Base tile."""
        s = self.state
        out = set()
        for seat in range(len(self.players)):
            cell = self.home_cell(seat)
            if cell is not None and cell not in s.board:
                out.add(cell)
        return out

    def _kind(self, tile: str) -> str:
        return self.catalog.tiles[tile].kind

    def _supply(self) -> int:
        s = self.state
        return s.piles[0] + s.piles[1] + len(s.bottoms[0]) + len(s.bottoms[1])

    def _draw_pile(self) -> int:
        s = self.state
        sizes = [s.piles[i] + len(s.bottoms[i]) for i in (0, 1)]
        return 0 if sizes[0] >= sizes[1] else 1

    def tiles_to_draw(self, seat: int) -> int:
        """"Draw back up to 5 Road tiles ... Once a player uses their Monster Buster tile, they
        can draw back up to the maximum of 6": the unused Buster is not counted among the five."""
        s = self.state
        hand = len(s.hands[seat])
        if not s.buster_used[seat] and self._buster in s.hands[seat]:
            hand -= 1
        return max(0, (6 if s.buster_used[seat] else 5) - hand)

    def car_destinations(self, seat: int, limit: int | str | None = "dice") -> dict[int, int]:
        """Spaces ``seat``'s car could move to now (with spaces needed), not counting staying put.
        ``limit`` defaults to what the current step allows."""
        s = self.state
        if limit == "dice":
            limit = s.movement if s.steps and s.steps[0] == "car_move" else None
        barred = [c for c in self.grid.corners if c != self.home_cell(seat)]
        found = self.grid.reachable(s.board, s.cars[seat], blocked=s.monster, barred=barred,
                                    limit=limit if isinstance(limit, int) else None)
        found.pop(s.cars[seat], None)
        return found

    def monster_destinations(self) -> list[int]:
        """"Any space on the board, except Ground Zero or any Home Base" (and it must move)."""
        s = self.state
        bad = {self.grid.ground_zero, *self.grid.corners}
        if s.monster is not None:
            bad.add(s.monster)
        return [c for c in range(self.grid.cells) if c not in bad]

    @staticmethod
    def _str(action: Action, name: str) -> str:
        value = action[name]
        if not isinstance(value, str):
            raise ActionFormatError(f"field {name!r} of {action.kind!r} must be a string, not {value!r}")
        return value

    @staticmethod
    def _int(action: Action, name: str) -> int:
        value = action[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ActionFormatError(f"field {name!r} of {action.kind!r} must be a whole number, not {value!r}")
        return value

    def _space(self, action: Action, name: str = "at", value: Any = None) -> int:
        raw = self._str(action, name) if value is None else value
        try:
            return self.catalog.cell_of(raw)
        except ValueError as exc:
            raise ActionFormatError(f"field {name!r} of {action.kind!r}: {exc}") from None

    def _rotation(self, action: Action, value: Any = None) -> int:
        r = self._int(action, "rotation") if value is None else value
        if r not in ROTATIONS:
            raise ActionFormatError(f"a rotation is 0, 90, 180 or 270 degrees, not {r!r}")
        return int(r)

    def _no_fields(self, action: Action, *allowed: str) -> None:
        extra = [k for k in action if k not in allowed]
        if extra:
            raise ActionFormatError(f"{action.kind!r} has no field {extra[0]!r}")

    def _my_turn(self, p: int, what: str) -> None:
        s = self.state
        if s.phase != "play" or p != s.turn:
            raise IllegalAction(f"{self.players[p]} can only {what} on their own turn", rule="gameplay")
        if not s.dice:
            raise IllegalAction("roll the Specialty Dice first", rule="gameplay")

    def _step(self, p: int, *steps: str, what: str) -> str:
        self._my_turn(p, what)
        s = self.state
        if not s.steps or s.steps[0] not in steps:
            now = STEP_WORDS[s.steps[0]] if s.steps else "end the turn (the roll is resolved)"
            raise IllegalAction(f"the roll does not let {self.players[p]} {what} now: next is to {now}",
                                rule="specialty dice results")
        return s.steps[0]

    def _holds(self, p: int, effect: str) -> str:
        tile = self.catalog.effect_tile(effect)
        if tile not in self.state.hands[p]:
            raise IllegalAction(f"{self.players[p]} has no {self.catalog.tiles[tile].name} tile", rule="special tiles")
        return tile

    def _needs_road(self, what: str) -> None:
        if "road" not in self.state.dice:
            raise IllegalAction(f"You may only play the {what} tile if you rolled \"Road\" on the Specialty Dice",
                                rule="special tiles")

    def _why_not_placed(self, cell: int, mask: int) -> str:
        """The Road Rule a refused placement breaks, in the rulebook's words."""
        grid, board = self.grid, self.state.board
        if grid.pointing_in(board, cell) == 0:
            return "Roadways may only be constructed off of other existing roadways already on the board"
        for d, n in enumerate(grid.neighbours[cell]):
            if mask >> d & 1 and n < 0:
                return "a road may not lead off the board"
        for d, n in enumerate(grid.neighbours[cell]):
            if n >= 0 and n in board and (mask >> d & 1) != (board[n][2] >> ((d + 2) % 4) & 1):
                return (f"the road would not meet the tile on {self.name_of(n)}, leaving a dead end")
        return ("A Road tile cannot be played in such a way that prevents another Road tile from being "
                "played off of it")

    def _land_monster(self, cell: int) -> None:
        """"If the Monster lands on a car, that car must return to Ground Zero. If the Monster
        lands on the end of a roadway, that Road tile is removed ... into the discard pile"."""
        s, grid = self.state, self.grid
        if cell != s.monster:
            s.monster_previous, s.monster = s.monster, cell
        for seat, car in enumerate(s.cars):
            if car == cell:
                s.cars[seat] = grid.ground_zero
        held = s.board.get(cell)
        if held is not None and self._kind(held[0]) in ("road", "special") and grid.ends_roadway(s.board, cell):
            del s.board[cell]
            insert_sorted(s.discard, held[0])

    def _split_piles(self) -> None:
        s = self.state
        n = sum(s.pool.values())
        s.piles = [n - n // 2, n // 2]
