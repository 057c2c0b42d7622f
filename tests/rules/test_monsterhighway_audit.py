"""Monster Highway, second reading: regression tests for what an independent audit of the engine
against the rulebook (002_6c6ed4ed465f1173.txt) and issue 3 found, and adversarial checks that try
to break it (every action accepted exactly when listed, invariants along random games).

Each rule test quotes the rulebook sentence it checks. Positions are built with ``put``/``give``
(see the helpers module)."""

from __future__ import annotations

import itertools
import pickle
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Action, ActionFormatError, IllegalAction, RulesError
from rules.monsterhighway import MonsterHighway, playout_choice
from rules.monsterhighway.data import rotate
from rules.playout import random_step

from .test_monsterhighway_helpers import NAMES, act, cell, give, put, roll, snapshot, started

# ---------------------------------------------------------------------------------------- positions


def crossroads(players: int = 2) -> MonsterHighway:
    """E4-E3-E2 north of Ground Zero, D5-C5 west of it."""
    g = started(players)
    for at in ("E4", "E3", "E2"):
        put(g, at, "road-straight")
    for at in ("D5", "C5"):
        put(g, at, "road-straight", 90)
    return g


def loop(players: int = 2) -> MonsterHighway:
    """A ring of road: Ground Zero E5 - E4 - E3 - F3 - F4 - F5 - back to E5."""
    g = started(players)
    put(g, "E4", "road-straight")
    put(g, "E3", "road-curve", 90)  # east and south
    put(g, "F3", "road-curve", 180)  # south and west
    put(g, "F4", "road-straight")
    put(g, "F5", "road-curve", 270)  # west and north
    return g


def end_turn_drawing(g: MonsterHighway, seat: int) -> None:
    """Car + Car, stay put, end the turn and draw back up with the first tile offered."""
    roll(g, "car", "car")
    g.push(act("skip", seat))
    g.push(act("end_turn", seat))
    while g.is_chance_node() and g.legal_actions()[0].kind in ("tile_draw", "tile_reshuffle"):
        g.push(g.legal_actions()[0])


# ---------------------------------------------------------------------------------------- fixed by the audit


def test_a_road_roll_exchange_discards_a_road_tile_never_the_monster_buster() -> None:
    """If you roll "Road", instead of placing a tile on the board, you may discard a Road tile from your
    hand in order to draw a new one. -- Every player is dealt 5 (five) Road tiles and 1 (one) Monster
    Buster tile: the Buster is no Road tile, and only using it lifts the hand to six."""
    g = started()
    roll(g, "road", "car")
    offered = {a["tile"] for a in g.legal_actions_for(0) if a.kind == "exchange_tile"}
    assert offered == {"road-straight", "road-curve", "road-tee"}
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="Monster Buster is no Road tile") as err:
        g.push(act("exchange_tile", 0, tile="monster-buster"))
    assert err.value.rule == "road rules" and snapshot(g) == before
    # A special tile drawn from the piles came as a "new one" from the Road tile draw pile: it may go.
    give(g, 0, "swap")
    g.push(act("exchange_tile", 0, tile="swap"))
    assert g.state.discard == ["swap"] and not g.state.buster_used[0]


def test_the_discard_pile_is_reshuffled_as_the_last_tile_is_drawn() -> None:
    """When the last Road tile is drawn, shuffle the discard pile and divide into two equal draw piles:
    at once, not later when somebody next needs a tile (a tile removed in between would otherwise come
    up before the reshuffle)."""
    g = started()
    s = g.state
    s.discard = sorted(t for t, n in s.pool.items() for _ in range(n))
    s.discard.remove("road-cross")
    s.pool, s.piles = {"road-cross": 1}, [1, 0]
    roll(g, "road", "road")
    g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    assert g.tiles_to_draw(0) == 1 and g.legal_actions() == [act("tile_draw", None, seat=0, tile="road-cross")]
    g.push(act("tile_draw", None, seat=0, tile="road-cross"))
    assert g.prompt() == "Shuffle the discard pile into two new draw piles"
    assert [a.kind for a in g.legal_actions()] == ["tile_reshuffle"]
    shuffled = len(s.discard)
    g.push(act("tile_reshuffle", None))
    assert g.state.discard == [] and sorted(g.state.piles) == [shuffled // 2, shuffled - shuffled // 2]
    assert g.legal_actions()[0].kind == "specialty_dice" and g.state.turn == 1


def test_no_reshuffle_is_due_when_the_last_tile_is_drawn_and_nothing_was_discarded() -> None:
    """[When the last Road tile is drawn, shuffle the discard pile] An empty discard pile has nothing to
    shuffle; a later draw that finds the piles empty reshuffles what has been discarded by then."""
    g = started()
    s = g.state
    s.hands[1] += sorted(t for t, n in s.pool.items() for _ in range(n) if t != "road-cross")
    s.hands[1].sort()
    s.pool, s.piles = {"road-cross": 1}, [1, 0]
    roll(g, "road", "road")
    g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    g.push(act("tile_draw", None, seat=0, tile="road-cross"))
    assert g.legal_actions()[0].kind == "specialty_dice"
    roll(g, "road", "car")
    g.push(act("exchange_tile", 1, tile="road-tee"))
    assert [a.kind for a in g.legal_actions()] == ["tile_reshuffle"]
    g.push(act("tile_reshuffle", None))
    assert g.legal_actions() == [act("tile_draw", None, seat=1, tile="road-tee")]


def test_a_swap_that_carries_the_monster_is_its_move_for_the_monster_buster() -> None:
    """[Swap] If the car or Monster is on that Road tile, the car or Monster moves along with it. --
    [Monster Buster] Use this tile to move the Monster back to its previous position on the board."""
    g = crossroads()
    give(g, 0, "swap")
    g.state.monster, g.state.monster_previous = cell(g, "C5"), cell(g, "H8")
    roll(g, "road", "monster")
    g.push(act("swap_tiles", 0, at=["E2", "C5"], rotations=[0, 90]))
    assert g.state.monster == cell(g, "E2") and g.state.monster_previous == cell(g, "C5")
    g.push(act("monster_buster", 1))
    assert g.state.monster == cell(g, "C5") and g.state.monster_previous == cell(g, "E2")


def test_legal_actions_for_shows_one_seat_its_own_choices() -> None:
    """[Re-roll] Player may also use this tile to force another player to re-roll their dice during their
    turn. -- legal_actions() mixes every seat's out-of-turn plays in; the screen asks per seat."""
    g = started(3)
    give(g, 2, "re-roll")
    g.state.monster, g.state.monster_previous = cell(g, "C3"), cell(g, "B2")
    assert g.legal_actions_for(0) == []  # the dice are still to be rolled
    roll(g, "road", "road")
    mover = g.legal_actions_for(0)
    assert mover and {a.player for a in mover} == {0}
    assert {"place_tile", "exchange_tile", "skip", "monster_buster"} <= {a.kind for a in mover}
    assert sorted(a.kind for a in g.legal_actions_for(1)) == ["monster_buster"]
    assert sorted(a.kind for a in g.legal_actions_for(2)) == ["monster_buster", "reroll", "reroll", "reroll"]
    assert Counter(a for s in range(3) for a in g.legal_actions_for(s)) == Counter(g.legal_actions())
    for bad in (3, -1, True, "0"):
        with pytest.raises(ActionFormatError):
            g.legal_actions_for(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------- rules the audit re-checked


def test_a_car_may_drive_round_the_monster_by_another_road_but_never_past_it() -> None:
    """Cars cannot move past the Monster if it blocks the roadway: on a ring the other way round is not
    blocked, and it costs its full length on the Car Movement Die."""
    g = loop()
    g.state.monster = cell(g, "E4")
    roll(g, "car", "monster")
    g.push(act("roll_movement_die", 0))
    g.push(act("movement_die", None, value=3))
    assert {g.name_of(c) for c in g.car_destinations(0)} == {"F5", "F4", "F3"}
    with pytest.raises(IllegalAction, match="4 spaces away along the road; the die allows at most 3"):
        g.push(act("move_car", 0, to="E3"))
    with pytest.raises(IllegalAction, match="Monster"):
        g.push(act("move_car", 0, to="E4"))
    g.push(act("move_car", 0, to="F3"))


def test_a_blocked_road_stops_a_car_however_far_it_may_go() -> None:
    """[Car + Car] You must follow the path of the road, and you cannot move past the Monster if it blocks
    the path."""
    g = crossroads()
    g.state.monster = cell(g, "E3")
    roll(g, "car", "car")
    assert {g.name_of(c) for c in g.car_destinations(0)} == {"E4", "D5", "C5"}
    with pytest.raises(IllegalAction, match="Cars cannot move past the Monster"):
        g.push(act("move_car", 0, to="E2"))


def test_monster_landing_on_a_dead_end_destroys_it_like_any_road_end() -> None:
    """If the Monster lands on the end of a roadway, that Road tile is removed from the board and placed
    into the discard pile."""
    g = crossroads()
    give(g, 0, "dead-end")
    roll(g, "monster", "monster")
    g.push(act("dead_end", 0, at="E1", rotation=0))  # its one road faces south, into E2
    assert g.grid.ends_roadway(g.state.board, cell(g, "E1"))
    assert not g.grid.ends_roadway(g.state.board, cell(g, "E2"))
    g.push(act("move_monster", 0, to="E1"))
    assert cell(g, "E1") not in g.state.board and g.state.discard == ["dead-end"]
    assert cell(g, "E2") in g.state.board


def test_the_monster_buster_sends_the_monster_back_where_it_lands_again() -> None:
    """[Monster Buster] Use this tile to move the Monster back to its previous position on the board. --
    If the Monster lands on a car, that car must return to Ground Zero; if it lands on the end of a
    roadway, that Road tile is removed."""
    g = crossroads()
    g.state.monster, g.state.monster_previous = cell(g, "H8"), cell(g, "E2")
    g.state.cars[1] = cell(g, "E2")
    roll(g, "car", "car")
    g.push(act("monster_buster", 0))
    assert g.state.monster == cell(g, "E2") and g.state.monster_previous == cell(g, "H8")
    assert g.state.cars[1] == g.grid.ground_zero and cell(g, "E2") not in g.state.board
    assert sorted(g.state.discard) == ["monster-buster", "road-straight"]
    assert g.legal_actions() == [act("tile_draw", None, seat=0, tile=t) for t in sorted(g.state.pool)]


def test_a_second_monster_buster_from_the_piles_counts_as_a_tile_once_the_first_is_used() -> None:
    """At the end of your turn, draw back up to 5 (five) Road tiles, if needed. Once a player uses their
    Monster Buster tile, they can draw back up to the maximum of 6 (six) Road tiles."""
    g = started(2)
    assert g.tiles_to_draw(0) == 0 and len(g.state.hands[0]) == 6
    give(g, 0, "monster-buster")  # two players: two spare Busters are in the piles
    assert g.tiles_to_draw(0) == 0  # five Road tiles, a tile, and the own Buster uncounted
    g.state.monster, g.state.monster_previous = cell(g, "C3"), cell(g, "B2")
    roll(g, "car", "car")
    g.push(act("monster_buster", 0))
    g.push(act("tile_draw", None, seat=0, tile="road-cross"))
    assert g.state.buster_used[0] and len(g.state.hands[0]) == 7 and g.tiles_to_draw(0) == 0
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    assert g.legal_actions()[0].kind == "specialty_dice"  # nothing to draw


@pytest.mark.parametrize(("first", "second", "dice", "faces", "steps"), [
    ("road", "car", [0], ["car"], ["car_any"]),
    ("road", "car", [1], ["monster"], ["tile", "draw_monster"]),
    ("monster", "monster", [0, 1], ["road", "road"], ["tile", "tile"]),
    ("car", "car", [1], ["monster"], ["roll_movement", "car_move", "draw_monster"]),
    ("monster", "road", [1], ["monster"], ["monster_any"]),
])
def test_a_reroll_resolves_the_new_dice_as_the_six_results_say(first: str, second: str, dice: list[int],
                                                              faces: list[str], steps: list[str]) -> None:
    """Use this tile to re-roll either 1 or 2 Specialty Dice again before playing a Road tile, moving a car
    or the Monster: the die not re-rolled keeps its face, and the pair is resolved afresh (Road+Road,
    Road+Car, Road+Monster, Car+Car, Monster+Monster, Car+Monster)."""
    g = started()
    give(g, 1, "re-roll")
    roll(g, first, second)
    g.push(act("reroll", 1, dice=dice))
    assert g.is_chance_node() and {tuple(a["dice"]) for a in g.legal_actions()} == {tuple(dice)}
    g.push(act("specialty_dice", None, dice=dice, faces=faces))
    assert g.state.steps == steps and g.current_player() == 0


def test_the_reroll_window_closes_once_the_roll_is_being_resolved() -> None:
    """Use this tile to re-roll ... before playing a Road tile, moving a car or the Monster: not after an
    exchange, a skipped step, a roll of the Car Movement Die or a drawn Monster Card."""
    for first, second, opening in (("road", "car", act("exchange_tile", 0, tile="road-tee")),
                                   ("road", "road", act("skip", 0)),
                                   ("car", "monster", act("roll_movement_die", 0))):
        g = started()
        give(g, 0, "re-roll")
        give(g, 1, "re-roll")
        roll(g, first, second)
        g.push(opening)
        while g.is_chance_node():
            g.push(g.legal_actions()[0])
        for seat in (0, 1):
            before = snapshot(g)
            with pytest.raises(IllegalAction, match="before playing a Road tile") as err:
                g.push(act("reroll", seat, dice=[0, 1]))
            assert err.value.rule == "special tiles" and snapshot(g) == before
        assert not [a for a in g.legal_actions() if a.kind == "reroll"]


def test_out_of_turn_plays_wait_while_a_random_outcome_is_due() -> None:
    """A player may use [the Monster Buster] at any point in the game, even if it is not their turn: at
    any point a player is to act; while a die or card is being revealed, the reveal comes first."""
    g = started()
    give(g, 1, "re-roll")
    g.state.monster, g.state.monster_previous = cell(g, "C3"), cell(g, "B2")
    before = snapshot(g)
    for action in (act("monster_buster", 1), act("reroll", 1, dice=[0])):
        with pytest.raises(IllegalAction, match="random outcome"):
            g.push(action)
        assert snapshot(g) == before


def test_the_home_base_is_reached_only_over_its_own_tile_and_wins_at_once() -> None:
    """Build roads using the Road tiles from Ground Zero to your Home Base, and be the first player to
    navigate your car to Home Base to win: even mid-roll (Car + Monster), the Monster Card is not drawn."""
    g = started(2)
    for at in ("A4", "A3", "A2"):
        put(g, at, "road-straight")
    g.state.cars[0] = cell(g, "A4")
    roll(g, "car", "monster")
    g.push(act("roll_movement_die", 0))
    g.push(act("movement_die", None, value=6))
    assert cell(g, "A1") not in g.car_destinations(0)  # no Home Base tile yet
    g.state.board[cell(g, "A1")] = ("home-base-nw", 0, 4)
    assert g.car_destinations(0)[cell(g, "A1")] == 3
    g.push(act("move_car", 0, to="A1"))
    assert g.is_game_over() and g.state.winner == 0 and g.legal_actions() == []
    assert g.prompt() == "Ana is home and wins"


def test_the_round_limit_is_an_option_outside_the_rulebook() -> None:
    """Not in the rulebook: ``round_limit`` (default 100 rounds, 0 for none) ends a game nobody can finish;
    the standings then go by how far each car still is from its Home Base, nearer first, ties shared."""
    assert MonsterHighway.default_options == {"round_limit": 100}
    g = started(3, options={"round_limit": 2})
    g.state.cars[1] = cell(g, "H2")  # 2 spaces from I1
    g.state.cars[2] = cell(g, "H8")  # 2 spaces from I9
    for _ in range(2):
        for seat in range(3):
            end_turn_drawing(g, seat)
    assert g.is_game_over() and g.state.winner is None
    assert g.prompt() == "The game ends after 2 rounds with nobody home"
    standings = g.standings()
    assert [(s.name, s.score) for s in standings] == [("Ben", -2), ("Cleo", -2), ("Ana", -8)]
    assert standings[0].place == standings[1].place == 1 and standings[2].place == 3
    unlimited = started(2, options={"round_limit": 0})
    for _ in range(120):
        for seat in range(2):
            end_turn_drawing(unlimited, seat)
    assert not unlimited.is_game_over() and unlimited.state.round == 121


# ---------------------------------------------------------------------------------------- adversarial


def position(seed: int, steps: int) -> MonsterHighway:
    """A random legal game (played by the playout chooser) stopped where a player is to act."""
    g = MonsterHighway(NAMES[:2 + seed % 3], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_game_over():
            break
        g.push(random_step(g, rng, playout_choice))
    while g.is_chance_node():
        g.push(g.sample_chance())
    return g


def canonical(g: MonsterHighway, a: Action) -> tuple[object, ...]:
    """The same play however it is spelled: tiles by the way their road runs, swaps unordered."""
    tiles = g.catalog.tiles
    if a.kind == "place_tile":
        return (a.kind, a.player, a["tile"], a["at"], rotate(tiles[a["tile"]].open_mask, a["rotation"]))
    if a.kind == "dead_end":
        return (a.kind, a.player, a["at"], rotate(tiles["dead-end"].open_mask, a["rotation"]))
    if a.kind == "swap_tiles":
        (x, y), (rx, ry) = a["at"], a["rotations"]
        tx, ty = (g.state.board[g.catalog.cell_of(n)][0] for n in (x, y))
        return (a.kind, a.player, frozenset({(x, rotate(tiles[ty].open_mask, rx)),
                                              (y, rotate(tiles[tx].open_mask, ry))}))
    return (a.kind, a.player, a.params)


def candidates(g: MonsterHighway, rng: random.Random) -> list[Action]:
    """Every spelling of every play of the mover, and for the other seats what they might try out of
    turn plus a sample of the rest (swaps sampled for everyone: there are tens of thousands)."""
    s, cat = g.state, g.catalog
    spaces = [g.name_of(c) for c in range(g.grid.cells)]
    mover = g.current_player()
    out: list[Action] = []
    for p in range(len(g.players)):
        mine: list[Action] = []
        for t in set(s.hands[p]) | {cat.home_tile(h) for h in s.homes if h}:
            mine += [act("place_tile", p, tile=t, at=at, rotation=r) for at in spaces for r in (0, 90, 180, 270)]
        mine += [act("dead_end", p, at=at, rotation=r) for at in spaces for r in (0, 90, 180, 270)]
        for kind, name in (("move_car", "to"), ("move_monster", "to"), ("remove_tile", "at")):
            mine += [act(kind, p, **{name: at}) for at in spaces]
        mine += [act("exchange_tile", p, tile=t) for t in set(s.hands[p])]
        mine += [act(k, p) for k in ("skip", "end_turn", "roll_movement_die", "draw_monster_card")]
        pairs = list(itertools.permutations(sorted(s.board), 2))
        for a, b in rng.sample(pairs, min(len(pairs), 25 if p == mover else 3)):
            mine += [act("swap_tiles", p, at=[g.name_of(a), g.name_of(b)], rotations=[ra, rb])
                     for ra in (0, 90, 180, 270) for rb in (0, 90, 180, 270)]
        out += mine if p == mover else rng.sample(mine, 40)
        out += [act("monster_buster", p)] + [act("reroll", p, dice=d) for d in ([0], [1], [0, 1])]
    return out


@settings(max_examples=8, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(20, 600))
def test_push_accepts_exactly_the_listed_plays_and_a_refusal_changes_nothing(seed: int, steps: int) -> None:
    """Illegal plays are refused and legal ones accepted: over every spelling of every play of the mover
    (and what the other seats may try) at a random position, push() accepts exactly what
    legal_actions() lists; each refusal is one sentence naming its rule and leaves the game exactly as
    it was."""
    g = position(seed, steps)
    if g.is_game_over():
        return
    listed = {canonical(g, a) for a in g.legal_actions()}
    wanted = {k for k in listed if k[0] != "swap_tiles"}
    accepted = set()
    before, history = pickle.dumps(g.state), len(g.actions)
    for a in candidates(g, random.Random(seed)):
        try:
            g.push(a)
        except IllegalAction as exc:
            assert exc.rule and str(exc) and "\n" not in str(exc), (a, exc)
            assert pickle.dumps(g.state) == before and len(g.actions) == history, a
            continue
        g.pop()
        assert pickle.dumps(g.state) == before, a
        k = canonical(g, a)
        assert k in listed, f"{a} was accepted but is not listed"
        accepted.add(k)
    assert wanted <= accepted, f"listed but refused: {sorted(map(str, wanted - accepted))[:3]}"


def check_invariants(g: MonsterHighway) -> None:
    s, grid = g.state, g.grid
    assert s.board[grid.ground_zero][0] == "ground-zero"
    for p in range(len(g.players)):
        home = g.home_cell(p)
        assert len(s.hands[p]) <= 6 + (s.hands[p].count("monster-buster") > 1), s.hands[p]
        assert s.cars[p] in s.board, "every car stands on a built road space"
        assert s.cars[p] != s.monster, "the Monster sends any car it lands on to Ground Zero"
        assert s.cars[p] not in grid.corners or s.cars[p] == home
    assert s.monster is None or (s.monster != grid.ground_zero and s.monster not in grid.corners)
    for c, (tile, _, mask) in s.board.items():
        assert c not in grid.corners or g.catalog.tiles[tile].kind == "home base"
        for d, n in enumerate(grid.neighbours[c]):
            if n < 0:
                assert not mask >> d & 1, f"a road leads off the board from {g.name_of(c)}"
            elif n in s.board:
                assert (mask >> d & 1) == (s.board[n][2] >> (d + 2) % 4 & 1), \
                    f"{g.name_of(c)} and {g.name_of(n)} do not meet side for side"


@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_the_table_consistent(seed: int) -> None:
    """Along random legal games: Ground Zero stays, cars stand on road and never with the Monster, the
    Monster never stands on Ground Zero or a Home Base, hands stay within the draw-back-up limit,
    neighbouring tiles meet side for side, no road leads off the board, a placed Home Base tile never
    leaves, and every tile and card is somewhere."""
    g = MonsterHighway(NAMES[:2 + seed % 3], seed=seed)
    rng = random.Random(seed)
    inventory = g.inventory()
    homes: set[int] = set()
    while not g.is_game_over():
        g.push(random_step(g, rng, playout_choice))
        check_invariants(g)
        placed = {c for c in g.grid.corners if c in g.state.board}
        assert homes <= placed
        homes = placed
        assert g.inventory() == inventory
    assert pickle.loads(pickle.dumps(g.state)) == g.record().replay().state


def test_rulebook_refusals_name_their_rule() -> None:
    """Every refusal says which rule it applies, for the screen's "why not?"."""
    g = crossroads()
    give(g, 0, "remove")
    give(g, 0, "dead-end")
    roll(g, "car", "car")
    cases = [act("remove_tile", 0, at="E2"), act("dead_end", 0, at="E3", rotation=0),
             act("move_car", 0, to="B2"), act("place_tile", 0, tile="road-straight", at="E1", rotation=0),
             act("exchange_tile", 0, tile="road-straight"), act("end_turn", 0)]
    for action in cases:
        before = snapshot(g)
        with pytest.raises(RulesError) as err:
            g.push(action)
        assert isinstance(err.value, IllegalAction) and err.value.rule, action
        assert str(err.value).count(". ") == 0 and snapshot(g) == before


def test_a_swap_may_close_the_road_between_two_neighbours_it_swaps() -> None:
    """[Swap] You may orient the Road tiles however you wish as you place them back on the board ... as long
    as it does not result in any dead ends or roadways leading off the board: each tile still meets every
    other neighbour side for side, so the only new closed sides face each other and nothing dead-ends,
    although the road beyond is cut off from Ground Zero (the rulebook forbids only dead ends)."""
    g = started()
    give(g, 0, "swap")
    put(g, "E4", "road-curve", 90)  # south to Ground Zero, east to F4
    put(g, "F4", "road-curve", 270)  # west to E4, north to F3
    put(g, "F3", "road-straight")
    g.state.cars[1] = cell(g, "F3")
    roll(g, "road", "car")
    g.push(act("swap_tiles", 0, at=["E4", "F4"], rotations=[180, 0]))
    board = g.state.board
    assert g.grid.connected(board, cell(g, "E4")) == [g.grid.ground_zero]
    assert g.grid.connected(board, cell(g, "F4")) == [cell(g, "F3")]
    assert set(g.car_destinations(1, limit=None)) == {cell(g, "F4")}


def test_a_dead_end_never_goes_on_ground_zero_or_a_home_base_space() -> None:
    """Road tiles can be placed on any space ... except for Ground Zero and Home Base. -- Once a Home Base
    tile is placed on a player's Home Base, that tile may not be ... turned into a dead end."""
    g = started()
    give(g, 0, "dead-end")
    put(g, "A3", "road-straight")
    put(g, "A2", "road-straight")
    roll(g, "car", "car")
    for at, says in (("A1", "so no Dead End goes on A1"), ("E5", "so no Dead End goes on E5")):
        with pytest.raises(IllegalAction, match=says) as err:
            g.push(act("dead_end", 0, at=at, rotation=0))
        assert err.value.rule == "road rules"
    g.state.board[cell(g, "A1")] = ("home-base-nw", 0, 4)
    with pytest.raises(IllegalAction, match=r"may not be \.\.\. turned into a dead end"):
        g.push(act("dead_end", 0, at="A1", rotation=0))
