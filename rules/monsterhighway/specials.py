"""The special tiles: Swap, Remove, Re-roll, Dead End and the Monster Buster.

"Special tiles you can play on your turn": each is its own action kind; used ones go to the
discard pile, and the Home Base tile is protected from all of them.
"""

from __future__ import annotations

from ..actions import Action
from ..errors import ActionFormatError, IllegalAction
from .base import MonsterHighwayBase
from .data import rotate
from .roads import popcount
from .state import insert_sorted


class SpecialTiles(MonsterHighwayBase):
    """The special tiles' actions and the lists of where they may be played."""

    def removable(self) -> list[int]:
        """Tiles that are "the last piece of road on any built roadway" and may be removed."""
        s = self.state
        return [c for c, (t, _, _) in sorted(s.board.items())
                if self._kind(t) in ("road", "special") and self.grid.ends_roadway(s.board, c)]

    def legal_swaps(self) -> list[tuple[int, int, int, int]]:
        """Every swap of two Road tiles ``(a, b, rotation at a, rotation at b)`` that leaves no dead
        end and no road off the board and changes something, one rotation per road shape."""
        s = self.state
        grid, board = self.grid, s.board
        homes = self._homes_open()
        cells = [c for c, (t, _, _) in sorted(board.items()) if self._kind(t) == "road"]
        fit: dict[int, set[int]] = {}
        for c in cells:
            held = board.pop(c)
            try:
                fit[c] = set(grid.valid_masks(board, c, homes, connect=False))
            finally:
                board[c] = held
        occupied = set(s.cars) | ({s.monster} if s.monster is not None else set())
        out = []
        for i, a in enumerate(cells):
            ta = self.catalog.tiles[board[a][0]]
            for b in cells[i + 1:]:
                tb = self.catalog.tiles[board[b][0]]
                # Tiles two spaces apart or closer see each other's new sides: check every pair of
                # rotations exactly. Farther apart, each fits or not on its own.
                near = grid.distance(a, b) <= 2
                if near:
                    at_a = [(m, r) for m, r in tb.masks.items() if grid.sides_agree(board, a, m, ignore=b)]
                    at_b = [(m, r) for m, r in ta.masks.items() if grid.sides_agree(board, b, m, ignore=a)]
                else:
                    at_a = [(m, r) for m, r in tb.masks.items() if m in fit[a]]
                    at_b = [(m, r) for m, r in ta.masks.items() if m in fit[b]]
                if not at_a or not at_b:
                    continue
                moves_something = a in occupied or b in occupied
                for ma, ra in at_a:
                    for mb, rb in at_b:
                        if not moves_something and ta.id == tb.id and ma == board[a][2] and mb == board[b][2]:
                            continue
                        if near and not self._swap_fits(a, b, (tb.id, ra, ma), (ta.id, rb, mb), homes):
                            continue
                        out.append((a, b, ra, rb))
        return out

    def _swap_fits(self, a: int, b: int, new_a: tuple[str, int, int], new_b: tuple[str, int, int],
                   homes: set[int]) -> bool:
        board = self.state.board
        old_a, old_b = board[a], board[b]
        board[a], board[b] = new_a, new_b
        try:
            return self.grid.cell_fits(board, a, homes) and self.grid.cell_fits(board, b, homes)
        finally:
            board[a], board[b] = old_a, old_b

    def _do_reroll(self, p: int, action: Action) -> None:
        self._no_fields(action, "dice")
        dice = action["dice"]
        if not isinstance(dice, tuple) or list(dice) not in ([0], [1], [0, 1]):
            raise ActionFormatError("field 'dice' of 'reroll' must be [0], [1] or [0, 1]")
        s = self.state
        tile = self._holds(p, "reroll")
        if s.phase != "play" or not s.dice:
            raise IllegalAction("there are no Specialty Dice on the table to re-roll", rule="special tiles")
        if s.started:
            raise IllegalAction("Use this tile to re-roll either 1 or 2 Specialty Dice again before playing a Road "
                                "tile, moving a car or the Monster", rule="special tiles")
        s.hands[p].remove(tile)
        insert_sorted(s.discard, tile)
        s.pending.append(("roll", sum(1 << d for d in dice)))

    def _do_monster_buster(self, p: int, action: Action) -> None:
        self._no_fields(action)
        s = self.state
        tile = self._holds(p, "monster_buster")
        if s.phase != "play" or s.monster is None or s.monster_previous is None:
            raise IllegalAction("the Monster has no previous position on the board to go back to",
                                rule="special tiles")
        s.hands[p].remove(tile)
        insert_sorted(s.discard, tile)
        s.buster_used[p] = True
        back = s.monster_previous
        s.monster_previous = s.monster
        s.monster = back
        self._land_monster(back)
        s.pending.insert(0, ("draw", p))  # "Player then draws a new Road tile."

    def _do_dead_end(self, p: int, action: Action) -> None:
        self._no_fields(action, "at", "rotation")
        cell, rot = self._space(action), self._rotation(action)
        self._my_turn(p, "play a Dead End")
        tile = self._holds(p, "dead_end")
        s, grid = self.state, self.grid
        if cell in grid.corners and cell in s.board:
            raise IllegalAction("Once a Home Base tile is placed on a player's Home Base, that tile may not be ... "
                                "turned into a dead end", rule="road rules")
        if cell == grid.ground_zero or cell in grid.corners:
            raise IllegalAction(f"Road tiles can be placed on any space ... except for Ground Zero and Home Base, so no "
                                f"Dead End goes on {self.name_of(cell)}", rule="road rules")
        if cell in s.board:
            raise IllegalAction(f"there is already a tile on {self.name_of(cell)}", rule="road rules")
        if cell == s.monster:
            raise IllegalAction("Roads cannot be built on a space occupied by the Monster", rule="road rules")
        mask = rotate(self.catalog.tiles[tile].open_mask, rot)
        if mask not in grid.valid_masks(s.board, cell, self._homes_open()):
            reason = self._why_not_placed(cell, mask)
            if grid.pointing_in(s.board, cell) != 0 and popcount(grid.pointing_in(s.board, cell)) > 1:
                reason = "Use this tile at the end of any roadway: only one road may lead into a Dead End"
            raise IllegalAction(reason, rule="special tiles")
        s.board[cell] = (tile, rot, mask)
        s.hands[p].remove(tile)
        s.started = True

    def _do_remove_tile(self, p: int, action: Action) -> None:
        self._no_fields(action, "at")
        cell = self._space(action)
        self._my_turn(p, "play a Remove tile")
        tile = self._holds(p, "remove")
        self._needs_road("Remove")
        s, grid = self.state, self.grid
        held = s.board.get(cell)
        if held is None:
            raise IllegalAction(f"there is no tile on {self.name_of(cell)} to remove", rule="special tiles")
        kind = self._kind(held[0])
        if kind == "home base":
            raise IllegalAction("Once a Home Base tile is placed on a player's Home Base, that tile may not be destroyed",
                                rule="road rules")
        if kind == "ground zero":
            raise IllegalAction("Ground Zero cannot be removed", rule="special tiles")
        if not grid.ends_roadway(s.board, cell):
            raise IllegalAction("Use this tile to remove the last piece of road on any built roadway: "
                                f"{self.name_of(cell)} is in the middle of a road", rule="special tiles")
        del s.board[cell]
        sizes = [s.piles[i] + len(s.bottoms[i]) for i in (0, 1)]
        s.bottoms[0 if sizes[0] < sizes[1] else 1].append(held[0])  # under the shorter pile
        for seat, car in enumerate(s.cars):
            if car == cell:
                s.cars[seat] = grid.ground_zero
        s.hands[p].remove(tile)
        insert_sorted(s.discard, tile)
        s.started = True

    def _do_swap_tiles(self, p: int, action: Action) -> None:
        self._no_fields(action, "at", "rotations")
        at, rots = action["at"], action["rotations"]
        if not (isinstance(at, tuple) and len(at) == 2 and isinstance(rots, tuple) and len(rots) == 2):
            raise ActionFormatError("'swap_tiles' needs 'at' (two spaces) and 'rotations' (two rotations)")
        a, b = self._space(action, "at", at[0]), self._space(action, "at", at[1])
        ra, rb = self._rotation(action, rots[0]), self._rotation(action, rots[1])
        self._my_turn(p, "play a Swap tile")
        tile = self._holds(p, "swap")
        self._needs_road("Swap")
        s = self.state
        if a == b:
            raise IllegalAction("a swap needs two different Road tiles", rule="special tiles")
        for cell in (a, b):
            held = s.board.get(cell)
            if held is None:
                raise IllegalAction(f"there is no tile on {self.name_of(cell)} to swap", rule="special tiles")
            if self._kind(held[0]) == "home base":
                raise IllegalAction("Once a Home Base tile is placed on a player's Home Base, that tile may not be "
                                    "... swapped", rule="road rules")
            if self._kind(held[0]) != "road":
                raise IllegalAction(f"only Road tiles can be swapped, not the {self.catalog.tiles[held[0]].name} "
                                    f"on {self.name_of(cell)}", rule="special tiles")
        ta, tb = s.board[a][0], s.board[b][0]
        new_a = (tb, ra, rotate(self.catalog.tiles[tb].open_mask, ra))
        new_b = (ta, rb, rotate(self.catalog.tiles[ta].open_mask, rb))
        if not self._swap_fits(a, b, new_a, new_b, self._homes_open()):
            raise IllegalAction("Use this tile to swap ... as long as it does not result in any dead ends or "
                                "roadways leading off the board", rule="special tiles")
        occupied = a in s.cars or b in s.cars or s.monster in (a, b)
        if not occupied and new_a[0] == s.board[a][0] and new_a[2] == s.board[a][2] and new_b[2] == s.board[b][2]:
            raise IllegalAction("that swap would change nothing on the board", rule="special tiles")
        s.board[a], s.board[b] = new_a, new_b
        # "If the car or Monster is on that Road tile, the car or Monster moves along with it."
        s.cars = [b if c == a else a if c == b else c for c in s.cars]
        if s.monster in (a, b):
            # Carried along, it still moved: a Monster Buster now sends it back to where it stood.
            s.monster_previous, s.monster = s.monster, b if s.monster == a else a
        s.hands[p].remove(tile)
        insert_sorted(s.discard, tile)
        s.started = True
