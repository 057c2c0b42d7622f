"""Monster Highway: build roads from Ground Zero, drive home first, and mind the Monster.

Every random thing (the Specialty Dice, the Car Movement Die, Monster Cards, tile draws and
reshuffles) is a chance outcome pushed like any other action, so a game record replays exactly
and the companion can drive the draws itself. See docs/records.md, "Monster Highway", for the
action kinds and their fields.

Decisions the rulebook leaves open, made here and documented in docs/records.md:

* Setup: seats pick their Home Base corners in seat order, seat 0 first (the player who most
  recently watched a monster movie sits in seat 0); then five Road tiles are dealt to each seat
  round the table. The remaining tiles (specials included) form two draw piles; a draw takes the
  top of the taller pile (the first on a tie), a removed tile goes under the shorter one.
* The Re-roll tile may be played (by the roller or by anyone else) only until the roller plays a
  tile, moves a car or the Monster, or otherwise starts resolving the roll.
* Swap and Remove need a Road on the Specialty Dice (rulebook); Dead End needs none. Special
  tiles are played on your own turn after rolling; the Monster Buster and a forced re-roll may
  come from any player whenever somebody is to act.
* When the Monster is moved back by a Monster Buster it lands like any other move (a car there
  goes back to Ground Zero, a road end there is destroyed).
* A Road roll lets you exchange any one tile from your hand.
* Safeguard (not in the rulebook, off with ``round_limit: 0``): after ``round_limit`` rounds with
  nobody home the game ends and standings go by distance from Home Base.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from ..actions import Action
from ..errors import ActionFormatError, IllegalAction, OptionError
from ..game import Game
from ..scoring import Breakdown, line
from . import data
from .data import WILD, Catalog, rotate
from .roads import Grid, popcount

ROTATIONS = (0, 90, 180, 270)
#: Specialty Dice result (sorted faces) -> the steps of the turn, in the rulebook's order.
RESULTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("road", "road"): ("tile", "tile"),
    ("car", "road"): ("tile", "roll_movement", "car_move"),
    ("monster", "road"): ("tile", "draw_monster"),
    ("car", "car"): ("car_any",),
    ("monster", "monster"): ("monster_any",),
    ("car", "monster"): ("roll_movement", "car_move", "draw_monster"),
}
OPTIONAL_STEPS = ("tile", "car_move", "car_any")
STEP_WORDS = {
    "tile": "play a Road tile (or skip)",
    "roll_movement": "roll the Car Movement Die",
    "car_move": "move your car (or skip)",
    "car_any": "move your car any distance (or skip)",
    "draw_monster": "draw a Monster Card",
    "monster_any": "move the Monster",
    "monster_wild": "move the Monster where the Wild card lets you",
}


class Placement(NamedTuple):
    """A legal tile placement: the tile, the space and a clockwise rotation in degrees."""

    tile: str
    at: str
    rotation: int


@dataclass
class MonsterState:
    """Everything on and around the table. Tiles on the board are ``cell -> (tile, rotation,
    open mask)``; face-down tiles whose order nobody knows are counted in ``pool``."""

    homes: list[str | None]
    board: dict[int, tuple[str, int, int]]
    hands: list[list[str]]
    buster_used: list[bool]
    cars: list[int]
    pool: dict[str, int]
    set_aside: dict[str, int]
    monster_deck: list[str]
    phase: str = "homes"  # homes, play, over
    monster: int | None = None
    monster_previous: int | None = None
    piles: list[int] = field(default_factory=lambda: [0, 0])
    bottoms: list[list[str]] = field(default_factory=lambda: [[], []])
    discard: list[str] = field(default_factory=list)
    monster_discard: list[str] = field(default_factory=list)
    turn: int = 0
    round: int = 1
    dice: list[str] = field(default_factory=list)
    started: bool = False
    steps: list[str] = field(default_factory=list)
    movement: int = 0
    pending: list[tuple[str, int]] = field(default_factory=list)
    winner: int | None = None


def _add(counts: dict[str, int], tile: str, n: int = 1) -> None:
    counts[tile] = counts.get(tile, 0) + n
    if counts[tile] == 0:
        del counts[tile]


def _insort(items: list[str], item: str) -> None:
    items.append(item)
    items.sort()


class MonsterHighway(Game[MonsterState]):
    """The rules of Monster Highway (One Day West Games, 2018) for 2 to 4 players."""

    name = "monsterhighway"
    title = "Monster Highway"
    min_players = 2
    max_players = 4
    default_options: ClassVar[Mapping[str, Any]] = {"round_limit": 100}

    def __init__(self, players: Sequence[str], *, seed: int = 0, options: Mapping[str, Any] | None = None,
                 catalog: Catalog | None = None) -> None:
        self.catalog = catalog if catalog is not None else data.current()
        self.grid = Grid(self.catalog)
        self._buster = self.catalog.effect_tile("monster_buster")
        super().__init__(players, seed=seed, options=options)
        limit = self.options["round_limit"]
        if limit < 0:
            raise OptionError(f"option 'round_limit' must be 0 (no limit) or a number of rounds, not {limit}")

    # ------------------------------------------------------------------ setup
    def initial_state(self) -> MonsterState:
        cat = self.catalog
        n = len(self.players)
        pool = {t.id: t.count for t in cat.by_kind("road")}
        set_aside = {t.id: t.count for t in cat.by_kind("special")}
        _add(set_aside, self._buster, -n)
        return MonsterState(
            homes=[None] * n,
            board={cat.ground_zero: (next(t.id for t in cat.by_kind("ground zero")), 0, 15)},
            hands=[[self._buster] for _ in range(n)],
            buster_used=[False] * n,
            cars=[cat.ground_zero] * n,
            pool=pool,
            set_aside=set_aside,
            monster_deck=sorted(c.id for c in cat.monster_cards),
        )

    # ------------------------------------------------------------------ who acts
    def current_player(self) -> int | None:
        s = self.state
        if s.phase == "over" or s.pending:
            return None
        if s.phase == "homes":
            return s.homes.index(None)
        return s.turn

    def is_game_over(self) -> bool:
        return self.state.phase == "over"

    def may_act_out_of_turn(self, action: Action) -> bool:
        # "A player may use this tile at any point in the game, even if it is not their turn";
        # the Re-roll tile may "force another player to re-roll their dice during their turn".
        return (action.kind in ("monster_buster", "reroll") and isinstance(action.player, int)
                and 0 <= action.player < len(self.players))

    # ------------------------------------------------------------------ small helpers
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

    def _chance_kind(self) -> tuple[str, int]:
        s = self.state
        kind, arg = s.pending[0]
        if kind == "draw" and self._supply() == 0:
            return "tile_reshuffle", arg
        if kind == "monster" and not s.monster_deck:
            return "monster_reshuffle", arg
        return kind, arg

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        s = self.state
        if s.phase == "over":
            return []
        if s.pending:
            return self._chance_outcomes()
        if s.phase == "homes":
            seat = s.homes.index(None)
            taken = set(s.homes)
            return [Action.of("choose_home_base", seat, corner=h.corner)
                    for h in self.catalog.home_bases if h.corner not in taken]
        p = s.turn
        out: list[Action] = []
        step = s.steps[0] if s.steps else None
        if step == "tile":
            out += [Action("place_tile", p, (("at", a), ("rotation", r), ("tile", t)))
                    for t, a, r in self.legal_placements(p) if self._kind(t) != "special"]
            out += [Action.of("exchange_tile", p, tile=t) for t in sorted(set(s.hands[p]))]
        elif step == "roll_movement":
            out.append(Action.of("roll_movement_die", p))
        elif step in ("car_move", "car_any"):
            for cell in sorted(self.car_destinations(p)):
                out.append(Action.of("move_car", p, to=self.name_of(cell)))
        elif step == "draw_monster":
            out.append(Action.of("draw_monster_card", p))
        elif step in ("monster_any", "monster_wild"):
            out += [Action("move_monster", p, (("to", self.name_of(c)),)) for c in self.monster_destinations()]
        if step in OPTIONAL_STEPS:
            out.append(Action.of("skip", p))
        if step is None:
            out.append(Action.of("end_turn", p))
        hand = set(s.hands[p])
        specials = {self.catalog.tiles[t].effect for t in hand if self._kind(t) == "special"}
        if "dead_end" in specials:
            out += [Action.of("dead_end", p, at=a, rotation=r)
                    for t, a, r in self.legal_placements(p) if self.catalog.tiles[t].effect == "dead_end"]
        if "road" in s.dice:
            if "remove" in specials:
                out += [Action.of("remove_tile", p, at=self.name_of(c)) for c in self.removable()]
            if "swap" in specials:
                # Built directly (sorted, frozen fields, exactly what Action.of makes): there can be
                # hundreds, and this is the hot path of every playout.
                out += [Action("swap_tiles", p, (("at", (self.name_of(a), self.name_of(b))), ("rotations", (ra, rb))))
                        for a, b, ra, rb in self.legal_swaps()]
        reroll = self.catalog.effect_tile("reroll")
        for seat in range(len(self.players)):
            if s.dice and not s.started and reroll in s.hands[seat]:
                out += [Action.of("reroll", seat, dice=d) for d in ([0], [1], [0, 1])]
            if self._buster in s.hands[seat] and s.monster is not None and s.monster_previous is not None:
                out.append(Action.of("monster_buster", seat))
        return out

    def _chance_outcomes(self) -> list[Action]:
        s = self.state
        kind, arg = self._chance_kind()
        if kind == "deal":
            return [Action.of("tile_draw", None, seat=arg, tile=t) for t in sorted(s.pool)]
        if kind == "draw":
            i = self._draw_pile()
            if s.piles[i]:
                return [Action.of("tile_draw", None, seat=arg, tile=t) for t in sorted(s.pool)]
            return [Action.of("tile_draw", None, seat=arg, tile=s.bottoms[i][0])]
        if kind in ("tile_reshuffle", "monster_reshuffle"):
            return [Action.of(kind, None)]
        if kind == "roll":
            dice = [d for d in (0, 1) if arg >> d & 1]
            faces = sorted(set(self.catalog.specialty_faces))
            combos: list[list[str]] = [[]]
            for _ in dice:
                combos = [[*c, f] for c in combos for f in faces]
            return [Action.of("specialty_dice", None, dice=dice, faces=c) for c in combos]
        if kind == "movement":
            return [Action.of("movement_die", None, value=v) for v in sorted(set(self.catalog.movement_faces))]
        if kind == "monster":
            return [Action.of("monster_card", None, card=c) for c in s.monster_deck]
        raise AssertionError(f"unknown chance event {kind}")

    def chance_weights(self, outcomes: list[Action]) -> list[float]:
        s = self.state
        faces = Counter(self.catalog.specialty_faces)
        movement = Counter(self.catalog.movement_faces)
        weights = []
        for o in outcomes:
            if o.kind == "tile_draw" and o["tile"] in s.pool and len(outcomes) > 1:
                weights.append(float(s.pool[o["tile"]]))
            elif o.kind == "specialty_dice":
                w = 1.0
                for f in o["faces"]:
                    w *= faces[f]
                weights.append(w)
            elif o.kind == "movement_die":
                weights.append(float(movement[o["value"]]))
            else:
                weights.append(1.0)
        return weights

    # ------------------------------------------------------------------ helpers the app uses
    def legal_placements(self, player: int | None = None) -> list[Placement]:
        """Every tile in ``player``'s hand (Road tiles, Dead Ends) and their Home Base tile that
        could go on the board now, one rotation per distinct way the road runs. It ignores whose
        turn it is and what the dice say: the board alone decides."""
        s = self.state
        p = s.turn if player is None else player
        board, grid = s.board, self.grid
        homes = self._homes_open()
        designs = [self.catalog.tiles[t] for t in sorted(set(s.hands[p]))]
        designs = [d for d in designs if d.kind == "road" or d.effect == "dead_end"]
        out: list[Placement] = []
        frontier = grid.frontier(board)
        home = self.home_cell(p)
        if home is not None and home in frontier and home not in board and home != s.monster:
            tile = self.catalog.tiles[self.catalog.home_tile(s.homes[p] or "")]
            masks = set(grid.valid_masks(board, home, homes))
            out += [Placement(tile.id, self.name_of(home), r) for m, r in tile.masks.items() if m in masks]
        for cell in sorted(frontier):
            if cell in grid.corners or cell == s.monster:
                continue
            masks = set(grid.valid_masks(board, cell, homes))
            if not masks:
                continue
            name = self.name_of(cell)
            for d in designs:
                out += [Placement(d.id, name, r) for m, r in d.masks.items() if m in masks]
        return out

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

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        for name, value in action.params:
            if any(isinstance(v, bool | float) for v in (value if isinstance(value, tuple) else (value,))):
                raise ActionFormatError(f"field {name!r} of {action.kind!r} must not hold {value!r}: "
                                        "Monster Highway's fields are names and whole numbers")
        if action.player is None:
            self._apply_chance(action)
        else:
            handler = getattr(self, f"_do_{action.kind}", None)
            if handler is None or action.kind.startswith("_"):
                raise ActionFormatError(f"Monster Highway has no action {action.kind!r}")
            handler(action.player, action)
        self._settle()

    def _settle(self) -> None:
        """Drop draws that cannot happen: no tile left in the piles or the discard pile."""
        s = self.state
        if s.phase == "over":
            s.pending.clear()
            return
        while s.pending and s.pending[0][0] == "draw" and self._supply() == 0 and not s.discard:
            s.pending.pop(0)

    # -------------------------------- field readers
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

    # -------------------------------- checks shared by several actions
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

    # -------------------------------- setup
    def _do_choose_home_base(self, p: int, action: Action) -> None:
        self._no_fields(action, "corner")
        s = self.state
        if s.phase != "homes":
            raise IllegalAction("Home Bases are picked during setup only", rule="setting up the game")
        corner = self._str(action, "corner")
        if corner not in data.CORNERS:
            raise ActionFormatError(f"a corner is NW, NE, SE or SW, not {corner!r}")
        if corner in s.homes:
            owner = self.players[s.homes.index(corner)]
            raise IllegalAction(f"{owner} already picked the {corner} Home Base", rule="setting up the game")
        s.homes[p] = corner
        if None not in s.homes:
            # "Every player is dealt 5 Road tiles": one at a time round the table.
            s.pending = [("deal", seat) for _ in range(5) for seat in range(len(self.players))]

    # -------------------------------- the dice results
    def _do_place_tile(self, p: int, action: Action) -> None:
        self._no_fields(action, "tile", "at", "rotation")
        tile, cell, rot = self._str(action, "tile"), self._space(action), self._rotation(action)
        self._step(p, "tile", what="play a Road tile")
        s, grid = self.state, self.grid
        design = self.catalog.tiles.get(tile)
        if design is None:
            raise ActionFormatError(f"there is no tile {tile!r} in Monster Highway")
        if design.kind == "home base":
            if design.corner != s.homes[p]:
                raise IllegalAction(f"{design.name} belongs to another corner: play your own Home Base tile",
                                    rule="home base tile")
            if cell != self.home_cell(p):
                raise IllegalAction(f"your Home Base tile goes on your Home Base, {self.name_of(self.home_cell(p) or 0)}",
                                    rule="home base tile")
        elif design.kind != "road":
            raise IllegalAction(f"{design.name} is not a Road tile (special tiles have their own actions)",
                                rule="specialty dice results")
        elif tile not in s.hands[p]:
            raise IllegalAction(f"{self.players[p]} has no {design.name} tile in hand", rule="specialty dice results")
        elif cell == grid.ground_zero or cell in grid.corners:
            raise IllegalAction("Road tiles can be placed on any space ... except for Ground Zero and Home Base",
                                rule="road rules")
        if cell in s.board:
            raise IllegalAction(f"there is already a tile on {self.name_of(cell)}", rule="road rules")
        if cell == s.monster:
            raise IllegalAction("Roads cannot be built on a space occupied by the Monster", rule="road rules")
        mask = rotate(design.open_mask, rot)
        if mask not in grid.valid_masks(s.board, cell, self._homes_open()):
            raise IllegalAction(self._why_not_placed(cell, mask), rule="road rules")
        s.board[cell] = (tile, rot, mask)
        if design.kind == "road":
            s.hands[p].remove(tile)
        s.steps.pop(0)
        s.started = True

    def _do_exchange_tile(self, p: int, action: Action) -> None:
        self._no_fields(action, "tile")
        tile = self._str(action, "tile")
        self._step(p, "tile", what="exchange a tile")
        s = self.state
        if tile not in s.hands[p]:
            raise IllegalAction(f"{self.players[p]} has no {tile!r} tile in hand", rule="road rules")
        s.hands[p].remove(tile)
        _insort(s.discard, tile)
        s.pending.append(("draw", p))
        s.steps.pop(0)
        s.started = True

    def _do_skip(self, p: int, action: Action) -> None:
        self._no_fields(action)
        self._step(p, *OPTIONAL_STEPS, what="skip a step")
        self.state.steps.pop(0)
        self.state.started = True

    def _do_roll_movement_die(self, p: int, action: Action) -> None:
        self._no_fields(action)
        self._step(p, "roll_movement", what="roll the Car Movement Die")
        self.state.steps.pop(0)
        self.state.pending.append(("movement", 0))
        self.state.started = True

    def _do_move_car(self, p: int, action: Action) -> None:
        self._no_fields(action, "to")
        cell = self._space(action, "to")
        step = self._step(p, "car_move", "car_any", what="move their car")
        s = self.state
        found = self.car_destinations(p)
        if cell not in found:
            raise IllegalAction(self._why_not_driven(p, cell, step), rule="car rules")
        s.cars[p] = cell
        s.steps.pop(0)
        s.started = True
        if cell == self.home_cell(p):
            s.winner = p
            s.phase = "over"

    def _why_not_driven(self, p: int, cell: int, step: str) -> str:
        s = self.state
        name = self.name_of(cell)
        if cell == s.cars[p]:
            return "the car is already there: skip to stay put"
        if cell not in s.board:
            return f"there is no road on {name}"
        if cell == s.monster:
            return "Cars cannot move past the Monster if it blocks the roadway"
        if cell in self.grid.corners and cell != self.home_cell(p):
            return f"{name} is another player's Home Base"
        anywhere = self.car_destinations(p, limit=None)
        if cell in anywhere and step == "car_move":
            return (f"{name} is {anywhere[cell]} spaces away along the road; the die allows at most {s.movement}")
        barred = [c for c in self.grid.corners if c != self.home_cell(p)]
        if cell in self.grid.reachable(s.board, s.cars[p], blocked=None, barred=barred):
            return "Cars cannot move past the Monster if it blocks the roadway"
        return (f"no road joins the car to {name}: a car may not move on a roadway past the point where the "
                "road ends")

    def _do_draw_monster_card(self, p: int, action: Action) -> None:
        self._no_fields(action)
        self._step(p, "draw_monster", what="draw a Monster Card")
        self.state.steps.pop(0)
        self.state.pending.append(("monster", 0))
        self.state.started = True

    def _do_move_monster(self, p: int, action: Action) -> None:
        self._no_fields(action, "to")
        cell = self._space(action, "to")
        self._step(p, "monster_any", "monster_wild", what="move the Monster")
        s = self.state
        if cell == self.grid.ground_zero or cell in self.grid.corners:
            raise IllegalAction("Monster cannot be placed on Ground Zero or a player's Home Base", rule="monster rules")
        if cell == s.monster:
            raise IllegalAction(f"the Monster is already on {self.name_of(cell)}: move it somewhere else",
                                rule="specialty dice results")
        s.steps.pop(0)
        s.started = True
        self._land_monster(cell)

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
            _insort(s.discard, held[0])

    def _do_end_turn(self, p: int, action: Action) -> None:
        self._no_fields(action)
        self._my_turn(p, "end the turn")
        s = self.state
        if s.steps:
            raise IllegalAction(f"the roll is not resolved yet: next is to {STEP_WORDS[s.steps[0]]}",
                                rule="specialty dice results")
        s.pending += [("draw", p)] * self.tiles_to_draw(p)
        nxt = (p + 1) % len(self.players)
        if nxt == 0:
            s.round += 1
            limit = self.options["round_limit"]
            if limit and s.round > limit:
                s.phase = "over"
                return
        self._start_turn(nxt)

    def _start_turn(self, seat: int) -> None:
        s = self.state
        s.turn, s.dice, s.steps, s.started, s.movement = seat, [], [], False, 0
        s.pending.append(("roll", 3))

    # -------------------------------- special tiles
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
        _insort(s.discard, tile)
        s.pending.append(("roll", sum(1 << d for d in dice)))

    def _do_monster_buster(self, p: int, action: Action) -> None:
        self._no_fields(action)
        s = self.state
        tile = self._holds(p, "monster_buster")
        if s.phase != "play" or s.monster is None or s.monster_previous is None:
            raise IllegalAction("the Monster has no previous position on the board to go back to",
                                rule="special tiles")
        s.hands[p].remove(tile)
        _insort(s.discard, tile)
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
        if cell == grid.ground_zero or cell in grid.corners:
            raise IllegalAction("Once a Home Base tile is placed on a player's Home Base, that tile may not be ... "
                                "turned into a dead end (nor may Ground Zero)", rule="road rules")
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
        _insort(s.discard, tile)
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
            s.monster = b if s.monster == a else a
        s.hands[p].remove(tile)
        _insort(s.discard, tile)
        s.started = True

    # -------------------------------- chance outcomes
    def _apply_chance(self, action: Action) -> None:
        s = self.state
        if not s.pending or s.phase == "over":
            raise IllegalAction("no die roll or draw is due now", rule="chance")
        kind, arg = self._chance_kind()
        expected = {"deal": "tile_draw", "draw": "tile_draw", "roll": "specialty_dice", "movement": "movement_die",
                    "monster": "monster_card", "tile_reshuffle": "tile_reshuffle",
                    "monster_reshuffle": "monster_reshuffle"}[kind]
        if action.kind != expected:
            raise IllegalAction(f"the random event due now is {expected.replace('_', ' ')}, not "
                                f"{action.kind.replace('_', ' ')}", rule="chance")
        if action not in self._chance_outcomes():
            raise IllegalAction(f"{action.to_json()} is not a possible outcome now", rule="chance")
        if expected == "tile_draw":
            tile = action["tile"]
            if kind == "draw":
                i = self._draw_pile()
                if s.piles[i]:
                    s.piles[i] -= 1
                    _add(s.pool, tile, -1)
                else:
                    s.bottoms[i].pop(0)
            else:
                _add(s.pool, tile, -1)
            _insort(s.hands[arg], tile)
            s.pending.pop(0)
            if kind == "deal" and not any(k == "deal" for k, _ in s.pending):
                # "Divide the remaining tiles into two equal draw piles."
                for t, n in s.set_aside.items():
                    _add(s.pool, t, n)
                s.set_aside = {}
                self._split_piles()
                s.phase = "play"
                self._start_turn(0)
        elif expected == "tile_reshuffle":
            # "When the last Road tile is drawn, shuffle the discard pile and divide into two equal draw piles."
            for t in s.discard:
                _add(s.pool, t)
            s.discard = []
            self._split_piles()
        elif expected == "specialty_dice":
            dice, faces = action["dice"], action["faces"]
            if len(dice) == 2:
                s.dice = list(faces)
            else:
                s.dice[dice[0]] = faces[0]
            s.steps = list(RESULTS[(min(s.dice), max(s.dice))])
            s.pending.pop(0)
        elif expected == "movement_die":
            s.movement = action["value"]
            s.pending.pop(0)
        elif expected == "monster_card":
            card = action["card"]
            s.monster_deck.remove(card)
            _insort(s.monster_discard, card)
            s.pending.pop(0)
            space = next(c.space for c in self.catalog.monster_cards if c.id == card)
            if space == WILD:
                s.steps.insert(0, "monster_wild")
            else:
                self._land_monster(self.catalog.spaces[space])
        elif expected == "monster_reshuffle":
            # "After the last Monster Card is drawn, shuffle the discard pile and use as the new draw pile."
            s.monster_deck, s.monster_discard = sorted(s.monster_discard), []

    def _split_piles(self) -> None:
        s = self.state
        n = sum(s.pool.values())
        s.piles = [n - n // 2, n // 2]

    # ------------------------------------------------------------------ scoring and bookkeeping
    def breakdown(self, player: int) -> Breakdown:
        """The winner is home; everyone else is ranked by how far (in spaces along rows and columns)
        their car still is from their Home Base, so standings mean something mid-game too."""
        s = self.state
        home = self.home_cell(player)
        if home is None:
            return Breakdown(player, (line("distance", 0, "no Home Base picked yet"),))
        if s.winner == player:
            return Breakdown(player, (line("home", 0, "reached Home Base first", at=self.name_of(home)),))
        d = self.grid.distance(s.cars[player], home)
        label = f"{d} space{'' if d == 1 else 's'} from Home Base"
        return Breakdown(player, (line("distance", -d, label, at=self.name_of(s.cars[player])),))

    def zones(self) -> dict[str, Counter[str]]:
        s = self.state
        piles: Counter[str] = Counter(s.pool)
        for bottom in s.bottoms:
            piles.update(bottom)
        on_board = Counter(t for t, _, _ in s.board.values())
        out = {
            "board": on_board,
            "draw piles": piles,
            "set aside": Counter(s.set_aside),
            "discard": Counter(s.discard),
            "home base tiles off the board": Counter(
                t.id for t in self.catalog.by_kind("home base") if t.id not in on_board),
            "monster deck": Counter(s.monster_deck),
            "monster discard": Counter(s.monster_discard),
        }
        for seat, hand in enumerate(s.hands):
            out[f"hand {seat}"] = Counter(hand)
        return out

    def describe(self, action: Action) -> str:
        """A sentence for the screen and the log, in the game's words."""
        who = "Chance" if action.player is None else self.players[action.player]
        tiles, k = self.catalog.tiles, action.kind
        try:
            if k == "choose_home_base":
                colour = next(h.colour for h in self.catalog.home_bases if h.corner == action["corner"])
                return f"{who} picks the {colour} Home Base ({action['corner']})"
            if k == "place_tile":
                return f"{who} plays a {tiles[action['tile']].name} on {action['at']} ({action['rotation']}°)"
            if k == "dead_end":
                return f"{who} closes the road with a Dead End on {action['at']}"
            if k == "exchange_tile":
                return f"{who} discards a {tiles[action['tile']].name} to draw a new tile"
            if k == "swap_tiles":
                a, b = action["at"]
                return f"{who} swaps the tiles on {a} and {b}"
            if k == "remove_tile":
                return f"{who} removes the tile on {action['at']} to the bottom of a draw pile"
            if k == "reroll":
                dice = " and ".join(f"die {d + 1}" for d in action["dice"])
                return f"{who} plays a Re-roll: {dice} again"
            if k == "monster_buster":
                return f"{who} plays a Monster Buster: the Monster goes back"
            if k == "skip":
                return f"{who} passes"
            if k == "end_turn":
                return f"{who} ends the turn"
            if k == "roll_movement_die":
                return f"{who} rolls the Car Movement Die"
            if k == "draw_monster_card":
                return f"{who} draws a Monster Card"
            if k == "move_car":
                return f"{who} drives to {action['to']}"
            if k == "move_monster":
                return f"{who} moves the Monster to {action['to']}"
            if k == "tile_draw":
                return f"{self.players[action['seat']]} draws a {tiles[action['tile']].name}"
            if k == "tile_reshuffle":
                return "The discard pile is shuffled into two new draw piles"
            if k == "specialty_dice":
                return "Specialty Dice: " + " + ".join(str(f).capitalize() for f in action["faces"])
            if k == "movement_die":
                return f"Car Movement Die: {action['value']}"
            if k == "monster_card":
                space = next(c.space for c in self.catalog.monster_cards if c.id == action["card"])
                return f"Monster Card: {space}"
            if k == "monster_reshuffle":
                return "The Monster Card discard pile is shuffled into a new deck"
        except (KeyError, IndexError, TypeError, ValueError, StopIteration):
            pass  # a malformed action still gets the plain description below
        return super().describe(action)
