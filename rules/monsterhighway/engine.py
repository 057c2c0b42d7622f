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
  goes back to Ground Zero, a road end there is destroyed). A Swap that carries the Monster along
  moves it too, so a Buster afterwards sends it back to the space it was carried from.
* The Tile reshuffle happens as the last tile of the draw piles is drawn, when the discard pile
  holds tiles; a draw that finds the piles empty later reshuffles then.
* A Road roll lets you exchange any tile drawn from the piles (Road or special) except a Monster
  Buster: setup deals "5 Road tiles and 1 Monster Buster tile" apart, and the Buster leaves the
  hand only by being used (which is what lifts the hand to six).
* Safeguard (not in the rulebook, off with ``round_limit: 0``): after ``round_limit`` rounds with
  nobody home the game ends and standings go by distance from Home Base.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ..actions import Action
from ..errors import ActionFormatError, IllegalAction
from ..scoring import Breakdown, line
from . import data
from .data import WILD, rotate
from .specials import SpecialTiles
from .state import (
    OPTIONAL_STEPS,
    RESULTS,
    STEP_WORDS,
    MonsterState,
    Placement,
    add_count,
    insert_sorted,
)

__all__ = ["MonsterHighway", "MonsterState", "Placement"]


class MonsterHighway(SpecialTiles):
    """The rules of Monster Highway (One Day West Games, 2018) for 2 to 4 players."""

    name = "monsterhighway"
    title = "Monster Highway"
    min_players = 2
    max_players = 4
    default_options: ClassVar[Mapping[str, Any]] = {"round_limit": 100}

    def initial_state(self) -> MonsterState:
        cat = self.catalog
        n = len(self.players)
        pool = {t.id: t.count for t in cat.by_kind("road")}
        set_aside = {t.id: t.count for t in cat.by_kind("special")}
        add_count(set_aside, self._buster, -n)
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

    def current_player(self) -> int | None:
        s = self.state
        if s.phase == "over" or s.pending:
            return None
        if s.phase == "homes":
            return s.homes.index(None)
        return s.turn

    def is_game_over(self) -> bool:
        return self.state.phase == "over"

    def prompt(self) -> str:
        """What the table is waiting for, as one sentence for the screen."""
        s = self.state
        if s.phase == "over":
            if s.winner is None:
                return f"The game ends after {self.options['round_limit']} rounds with nobody home"
            return f"{self.players[s.winner]} is home and wins"
        if s.pending:
            kind, arg = self._chance_kind()
            mover = self.players[s.turn]
            if kind in ("deal", "draw"):
                return f"{self.players[arg]} draws a tile" if kind == "draw" else f"Deal a Road tile to {self.players[arg]}"
            if kind == "roll":
                return f"Roll {'both Specialty Dice' if arg == 3 else 'the Specialty Die again'} for {mover}"
            if kind == "movement":
                return f"Roll the Car Movement Die for {mover}"
            if kind == "monster":
                return "Turn over the top Monster Card"
            if kind == "tile_reshuffle":
                return "Shuffle the discard pile into two new draw piles"
            return "Shuffle the Monster Card discard pile into a new deck"
        if s.phase == "homes":
            return f"{self.players[s.homes.index(None)]}: pick a Home Base corner"
        step = STEP_WORDS[s.steps[0]] if s.steps else "end the turn"
        return f"{self.players[s.turn]}: {step}"

    def may_act_out_of_turn(self, action: Action) -> bool:
        # "A player may use this tile at any point in the game, even if it is not their turn";
        # the Re-roll tile may "force another player to re-roll their dice during their turn".
        return (action.kind in ("monster_buster", "reroll") and isinstance(action.player, int)
                and 0 <= action.player < len(self.players))

    def _chance_kind(self) -> tuple[str, int]:
        s = self.state
        kind, arg = s.pending[0]
        if kind == "reshuffle" or (kind == "draw" and self._supply() == 0):
            return "tile_reshuffle", arg
        if kind == "monster" and not s.monster_deck:
            return "monster_reshuffle", arg
        return kind, arg

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
            out += [Action.of("exchange_tile", p, tile=t) for t in sorted(set(s.hands[p])) if t != self._buster]
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

    def legal_actions_for(self, seat: int) -> list[Action]:
        """What one seat may do now: on the mover's turn their whole roll, for everyone else only
        the Re-roll and Monster Buster tiles they may play out of turn (empty at a chance node).
        The screen beside each seat shows this list, never :meth:`legal_actions`, which mixes seats."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.players):
            raise ActionFormatError(f"a seat is a number from 0 to {len(self.players) - 1}, not {seat!r}")
        if self.is_chance_node():
            return []
        return [a for a in self.legal_actions() if a.player == seat]

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
            if o.kind == "tile_draw":
                # Face-down tiles come up as often as there are copies; a known bottom tile is sure.
                weights.append(float(s.pool.get(o["tile"], 1)))
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
        if tile == self._buster:
            raise IllegalAction("If you roll \"Road\" ... you may discard a Road tile from your hand, and the Monster "
                                "Buster is no Road tile: it leaves the hand only by being used", rule="road rules")
        s.hands[p].remove(tile)
        insert_sorted(s.discard, tile)
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
                    add_count(s.pool, tile, -1)
                else:
                    s.bottoms[i].pop(0)
            else:
                add_count(s.pool, tile, -1)
            insert_sorted(s.hands[arg], tile)
            s.pending.pop(0)
            if kind == "draw" and self._supply() == 0 and s.discard:
                # "When the last Road tile is drawn, shuffle the discard pile": at once, so tiles
                # discarded before the next draw wait for the following reshuffle.
                s.pending.insert(0, ("reshuffle", 0))
            if kind == "deal" and not any(k == "deal" for k, _ in s.pending):
                # "Divide the remaining tiles into two equal draw piles."
                for t, n in s.set_aside.items():
                    add_count(s.pool, t, n)
                s.set_aside = {}
                self._split_piles()
                s.phase = "play"
                self._start_turn(0)
        elif expected == "tile_reshuffle":
            # "When the last Road tile is drawn, shuffle the discard pile and divide into two equal draw piles."
            for t in s.discard:
                add_count(s.pool, t)
            s.discard = []
            self._split_piles()
            if s.pending[0][0] == "reshuffle":
                s.pending.pop(0)
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
            insert_sorted(s.monster_discard, card)
            s.pending.pop(0)
            space = next(c.space for c in self.catalog.monster_cards if c.id == card)
            if space == WILD:
                s.steps.insert(0, "monster_wild")
            else:
                self._land_monster(self.catalog.spaces[space])
        elif expected == "monster_reshuffle":
            # "After the last Monster Card is drawn, shuffle the discard pile and use as the new draw pile."
            s.monster_deck, s.monster_discard = sorted(s.monster_discard), []

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
