"""Monster Highway: one test per rule of the rulebook (002_6c6ed4ed465f1173.txt), each quoting the
sentence it checks. Positions are built with ``put`` (see the helpers module)."""

from __future__ import annotations

import pytest

from rules import ActionFormatError, IllegalAction, RulesError, UndoRefused
from rules.monsterhighway import MonsterHighway

from .test_monsterhighway_helpers import act, cell, give, put, roll, snapshot, started


def draw_all(g: MonsterHighway) -> None:
    """Resolve pending tile draws with the first outcome (which tile does not matter here)."""
    while g.is_chance_node() and g.legal_actions()[0].kind in ("tile_draw", "tile_reshuffle"):
        g.push(g.legal_actions()[0])


def pass_turns(g: MonsterHighway, *seats: int) -> None:
    """Each seat rolls Car + Car, stays put and ends the turn."""
    for seat in seats:
        draw_all(g)
        roll(g, "car", "car")
        g.push(act("skip", seat))
        g.push(act("end_turn", seat))
    draw_all(g)


# ---------------------------------------------------------------------------------------- setup


def test_setup_deals_five_road_tiles_and_a_monster_buster_to_each_player() -> None:
    """Every player is dealt 5 (five) Road tiles and 1 (one) Monster Buster tile."""
    for n in (2, 3, 4):
        g = started(n)
        for hand in g.state.hands:
            assert hand.count("monster-buster") == 1
            assert sum(g.catalog.tiles[t].kind == "road" for t in hand) == 5


def test_setup_divides_the_remaining_tiles_into_two_equal_draw_piles() -> None:
    """Divide the remaining tiles into two equal draw piles and place on either side of the board."""
    for n in (2, 3, 4):
        g = started(n)
        remaining = 44 - 5 * n + 18 - n
        assert sum(g.state.piles) == remaining == sum(g.state.pool.values())
        assert abs(g.state.piles[0] - g.state.piles[1]) <= 1
        assert g.state.pool.get("monster-buster", 0) == 4 - n  # unused Busters go into the piles
        assert not g.state.set_aside


def test_setup_cars_start_on_ground_zero_and_the_monster_waits_beside_the_board() -> None:
    """The Ground Zero tile is placed on the center of the board. All players place their cars on the
    Ground Zero tile to start. Place Monster next to the Monster Card deck until "Monster" is rolled."""
    g = started(4)
    gz = cell(g, "E5")
    assert g.state.board[gz][0] == "ground-zero"
    assert g.state.cars == [gz] * 4
    assert g.state.monster is None
    assert sorted(g.state.monster_deck) == sorted(c.id for c in g.catalog.monster_cards)


def test_setup_each_player_picks_a_home_base_corner() -> None:
    """Each player picks a Home Base at a corner of the board and takes that car, Home Base tile, and
    Player Reference Card."""
    g = MonsterHighway(["Ana", "Ben", "Cleo"])
    assert g.current_player() == 0
    assert {a["corner"] for a in g.legal_actions()} == {"NW", "NE", "SE", "SW"}
    g.push(act("choose_home_base", 0, corner="SE"))
    with pytest.raises(IllegalAction, match="already picked"):
        g.push(act("choose_home_base", 1, corner="SE"))
    with pytest.raises(ActionFormatError):
        g.push(act("choose_home_base", 1, corner="middle"))
    g.push(act("choose_home_base", 1, corner="NW"))
    g.push(act("choose_home_base", 2, corner="NE"))
    assert g.home_cell(0) == cell(g, "I9") and g.home_cell(1) == cell(g, "A1")
    assert g.is_chance_node() and {a.kind for a in g.legal_actions()} == {"tile_draw"}


# ---------------------------------------------------------------------------------------- turns


def test_turn_begins_by_rolling_both_specialty_dice() -> None:
    """On your turn, begin by rolling both specialty dice. You then immediately resolve the results for
    the roll."""
    g = started()
    assert g.prompt() == "Roll both Specialty Dice for Ana"
    assert g.is_chance_node()
    outcomes = g.legal_actions()
    assert {a.kind for a in outcomes} == {"specialty_dice"} and len(outcomes) == 9
    roll(g, "car", "car")
    assert g.current_player() == 0 and g.state.steps == ["car_any"]
    assert g.prompt() == "Ana: move your car any distance (or skip)"


def test_road_road_plays_two_road_tiles() -> None:
    """[Road + Road] You may play 2 (two) Road tiles extending off of any open roadway on the board."""
    g = started()
    roll(g, "road", "road")
    g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    g.push(act("place_tile", 0, tile="road-straight", at="E3", rotation=180))
    assert g.state.board[cell(g, "E3")][0] == "road-straight"
    with pytest.raises(IllegalAction, match="next is to end the turn"):
        g.push(act("place_tile", 0, tile="road-curve", at="E2", rotation=0))
    g.push(act("end_turn", 0))


def test_road_car_plays_a_tile_then_rolls_the_movement_die_and_moves() -> None:
    """[Road + Car] First, play 1 (one) Road tile extending off of any open roadway on the board. Then roll
    the car movement die to determine the number of spaces to move your car."""
    g = started()
    roll(g, "car", "road")
    with pytest.raises(IllegalAction, match="play a Road tile"):
        g.push(act("roll_movement_die", 0))
    g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    g.push(act("roll_movement_die", 0))
    assert g.is_chance_node() and {a["value"] for a in g.legal_actions()} == {1, 2, 3, 4, 5, 6}
    g.push(act("movement_die", None, value=1))
    g.push(act("move_car", 0, to="E4"))
    assert g.state.cars[0] == cell(g, "E4")


def test_road_monster_plays_a_tile_then_draws_a_monster_card() -> None:
    """[Road + Monster] First, play 1 (one) Road tile ... Then draw a Monster Card from the top of the deck
    and move the Monster accordingly."""
    g = started()
    roll(g, "monster", "road")
    g.push(act("skip", 0))
    g.push(act("draw_monster_card", 0))
    g.push(act("monster_card", None, card="monster-01"))  # Mirror Pond
    assert g.state.monster == cell(g, "C3") == g.catalog.spaces["Mirror Pond"]
    assert g.state.monster_discard == ["monster-01"] and "monster-01" not in g.state.monster_deck


def test_car_car_moves_the_car_any_distance_along_built_road() -> None:
    """[Car + Car] Move your car to any road space that has been built. You must follow the path of the
    road ... You can move your car as little or as far as desired on existing roads."""
    g = started()
    for at in ("E4", "E3", "E2"):
        put(g, at, "road-straight")
    roll(g, "car", "car")
    assert set(g.car_destinations(0)) == {cell(g, "E4"), cell(g, "E3"), cell(g, "E2")}
    g.push(act("move_car", 0, to="E2"))
    assert g.state.cars[0] == cell(g, "E2")


def test_monster_monster_moves_the_monster_anywhere_but_ground_zero_or_a_home_base() -> None:
    """[Monster + Monster] Move the Monster to any space on the board, except Ground Zero or any Home Base."""
    g = started()
    roll(g, "monster", "monster")
    targets = {a["to"] for a in g.legal_actions() if a.kind == "move_monster"}
    assert len(targets) == 81 - 1 - 4
    for forbidden in ("E5", "A1", "I9"):
        with pytest.raises(IllegalAction, match="Ground Zero or a player's Home Base"):
            g.push(act("move_monster", 0, to=forbidden))
    g.push(act("move_monster", 0, to="B2"))
    assert g.state.monster == cell(g, "B2")


def test_car_monster_rolls_and_moves_then_draws_a_monster_card() -> None:
    """[Car + Monster] First, roll the car movement die and move your car that many spaces. Then draw a
    Monster Card from the top of the deck and move the Monster accordingly."""
    g = started()
    put(g, "E4", "road-straight")
    roll(g, "monster", "car")
    with pytest.raises(IllegalAction, match="roll the Car Movement Die"):
        g.push(act("draw_monster_card", 0))
    g.push(act("roll_movement_die", 0))
    g.push(act("movement_die", None, value=3))
    g.push(act("move_car", 0, to="E4"))
    g.push(act("draw_monster_card", 0))
    g.push(act("monster_card", None, card="monster-02"))
    assert g.state.monster == g.catalog.spaces["Lily Pond"]


def test_end_of_turn_draws_back_up_to_five_road_tiles() -> None:
    """At the end of your turn, draw back up to 5 (five) Road tiles, if needed."""
    g = started(hands=[["road-straight"] * 5, ["road-curve"] * 5])
    roll(g, "road", "road")
    g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    g.push(act("place_tile", 0, tile="road-straight", at="E3", rotation=0))
    assert g.tiles_to_draw(0) == 2
    g.push(act("end_turn", 0))
    assert g.state.pending[:2] == [("draw", 0), ("draw", 0)]
    g.push(act("tile_draw", None, seat=0, tile="road-cross"))
    g.push(act("tile_draw", None, seat=0, tile="swap"))
    assert len(g.state.hands[0]) == 6 and g.tiles_to_draw(0) == 0


def test_play_moves_clockwise() -> None:
    """Play moves clockwise."""
    g = started(3)
    for seat in (0, 1, 2, 0):
        roll(g, "car", "car")
        assert g.current_player() == seat
        g.push(act("skip", seat))
        g.push(act("end_turn", seat))
    assert g.state.round == 2


# ---------------------------------------------------------------------------------------- road rules


def test_roadways_may_only_be_constructed_off_existing_roadways() -> None:
    """Roadways may only be constructed off of other existing roadways already on the board."""
    g = started()
    roll(g, "road", "road")
    with pytest.raises(IllegalAction, match="constructed off of other existing roadways") as err:
        g.push(act("place_tile", 0, tile="road-straight", at="B2", rotation=0))
    assert err.value.rule == "road rules"
    # Next to a road but turned away from it is no better.
    with pytest.raises(IllegalAction):
        g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=90))


def test_roads_cannot_be_built_on_the_monsters_space() -> None:
    """Roads cannot be built on a space occupied by the Monster."""
    g = started()
    g.state.monster = cell(g, "E4")
    roll(g, "road", "road")
    with pytest.raises(IllegalAction, match="occupied by the Monster"):
        g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    assert all(p.at != "E4" for p in g.legal_placements(0))


def test_no_road_may_lead_off_the_board() -> None:
    """A Road tile cannot be played in such a way that prevents another Road tile from being played off of
    it (i.e. leading off of the board)."""
    g = started(hands=[["road-straight", "road-curve", "road-tee", "road-straight", "road-curve"],
                       ["road-curve"] * 5])
    for at in ("E4", "E3", "E2"):
        put(g, at, "road-straight")
    roll(g, "road", "road")
    with pytest.raises(IllegalAction, match="off the board"):
        g.push(act("place_tile", 0, tile="road-straight", at="E1", rotation=0))
    g.push(act("place_tile", 0, tile="road-curve", at="E1", rotation=180))  # south and west


def test_no_tile_may_prevent_another_tile_from_being_played_off_it() -> None:
    """A Road tile cannot be played in such a way that prevents another Road tile from being played off of
    it: not into an unclaimed corner, not against the closed side of a tile, not so that the space it
    leads into can no longer take any tile."""
    g = started(hands=[["road-straight", "road-curve", "road-tee", "road-straight", "road-curve"],
                       ["road-curve"] * 5])
    put(g, "C9", "road-straight", 90)
    put(g, "F5", "road-curve", 270)  # from Ground Zero north to F4
    put(g, "E4", "road-straight", 0)
    roll(g, "road", "road")
    # A9 is the SW corner, which nobody picked in a two-player game: no tile can ever go there.
    with pytest.raises(IllegalAction, match="prevents another Road tile"):
        g.push(act("place_tile", 0, tile="road-straight", at="B9", rotation=90))
    # F4 must take the road from F5, but its west side faces E4's closed side.
    with pytest.raises(IllegalAction, match="would not meet the tile on E4"):
        g.push(act("place_tile", 0, tile="road-tee", at="F4", rotation=90))
    g.push(act("place_tile", 0, tile="road-curve", at="B9", rotation=0))  # turns north instead


def test_a_road_may_lead_into_a_claimed_home_base_only_where_its_tile_could_go() -> None:
    """This is the last tile to be played to complete the road into your Home Base: a road may lead into a
    player's empty Home Base, but only one, since the Home Base tile has a single road."""
    g = started()
    put(g, "A3", "road-straight")
    put(g, "C1", "road-straight", 90)
    roll(g, "road", "road")
    g.push(act("place_tile", 0, tile="road-straight", at="A2", rotation=0))  # into A1 from the south
    with pytest.raises(IllegalAction, match="prevents another Road tile"):
        g.push(act("place_tile", 0, tile="road-straight", at="B1", rotation=90))  # into A1 as well
    g.push(act("place_tile", 0, tile="road-curve", at="B1", rotation=90))  # east and south is fine


def test_road_tiles_may_be_placed_on_object_spaces_but_not_ground_zero_or_home_base() -> None:
    """Road tiles can be placed on any space with an object on it (i.e. pond, mountain) except for Ground
    Zero and Home Base."""
    g = started()
    assert g.catalog.objects[cell(g, "C3")] == "pond"
    put(g, "D3", "road-straight", 90)
    roll(g, "road", "road")
    g.push(act("place_tile", 0, tile="road-curve", at="C3", rotation=90))
    for at in ("E5", "A1"):
        with pytest.raises(IllegalAction, match="except for Ground Zero and Home Base"):
            g.push(act("place_tile", 0, tile="road-straight", at=at, rotation=0))


def test_home_base_tile_completes_the_road_on_a_road_roll_only() -> None:
    """[Home Base tile] This is the last tile to be played to complete the road into your Home Base. A
    "Road" must be rolled on the dice in order to play this tile."""
    g = started()
    put(g, "A2", "road-straight")
    roll(g, "car", "car")
    with pytest.raises(IllegalAction, match="does not let Ana play a Road tile"):
        g.push(act("place_tile", 0, tile="home-base-nw", at="A1", rotation=0))
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    roll(g, "road", "car")
    with pytest.raises(IllegalAction, match="belongs to another corner"):
        g.push(act("place_tile", 1, tile="home-base-nw", at="A1", rotation=0))
    g.push(act("skip", 1))
    g.push(act("roll_movement_die", 1))
    g.push(act("movement_die", None, value=1))
    g.push(act("skip", 1))
    g.push(act("end_turn", 1))
    roll(g, "road", "monster")
    assert ("home-base-nw", "A1", 0) in g.legal_placements(0)
    g.push(act("place_tile", 0, tile="home-base-nw", at="A1", rotation=0))
    assert g.state.board[cell(g, "A1")][0] == "home-base-nw"
    assert "home-base-nw" not in g.zones()["home base tiles off the board"]


def test_a_road_roll_may_exchange_a_tile_instead_of_placing_one() -> None:
    """If you roll "Road", instead of placing a tile on the board, you may discard a Road tile from your
    hand in order to draw a new one from the top of the Road tile draw pile. Place discarded Road tile
    into the discard pile."""
    g = started()
    roll(g, "road", "car")
    g.push(act("exchange_tile", 0, tile="road-tee"))
    assert g.state.discard == ["road-tee"] and "road-tee" not in g.state.hands[0]
    assert g.is_chance_node()
    g.push(act("tile_draw", None, seat=0, tile="road-cross"))
    assert "road-cross" in g.state.hands[0]
    assert g.state.steps == ["roll_movement", "car_move"]  # the exchange used the Road


def test_discard_pile_is_reshuffled_into_two_draw_piles_when_the_last_tile_is_drawn() -> None:
    """Once a Road tile is removed from the game board, it is placed into a discard pile. When the last
    Road tile is drawn, shuffle the discard pile and divide into two equal draw piles."""
    g = started()
    s = g.state
    for tile, n in s.pool.items():
        s.discard += [tile] * n
    s.discard.sort()
    s.pool, s.piles = {}, [0, 0]
    roll(g, "road", "road")
    g.push(act("exchange_tile", 0, tile="road-tee"))
    assert [a.kind for a in g.legal_actions()] == ["tile_reshuffle"]
    before = len(s.discard)
    g.push(act("tile_reshuffle", None))
    assert g.state.discard == [] and sum(g.state.piles) == before
    assert abs(g.state.piles[0] - g.state.piles[1]) <= 1
    assert g.state.pool["road-tee"] >= 1
    assert g.is_chance_node() and g.legal_actions()[0].kind == "tile_draw"


def test_a_draw_with_no_tile_left_anywhere_is_skipped() -> None:
    """When every tile is on the board or in hands, drawing back up simply stops: the game goes on."""
    g = started()
    s = g.state
    for tile, n in list(s.pool.items()):
        s.hands[1] += [tile] * n
    s.hands[1].sort()
    s.pool, s.piles = {}, [0, 0]
    roll(g, "road", "road")
    g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    assert g.legal_actions()[0].kind == "specialty_dice"


# ---------------------------------------------------------------------------------------- car rules


def straight_road(players: int = 2) -> MonsterHighway:
    g = started(players)
    for at in ("E4", "E3", "E2"):
        put(g, at, "road-straight")
    put(g, "E6", "road-straight")
    return g


def test_car_moves_at_most_the_number_rolled_or_fewer() -> None:
    """The number you roll on the Car Movement Die is the maximum amount of spaces you can move your car.
    You may move fewer spaces if you wish."""
    g = straight_road()
    roll(g, "car", "monster")
    g.push(act("roll_movement_die", 0))
    g.push(act("movement_die", None, value=2))
    assert set(g.car_destinations(0)) == {cell(g, n) for n in ("E4", "E3", "E6")}
    with pytest.raises(IllegalAction, match="3 spaces away along the road; the die allows at most 2"):
        g.push(act("move_car", 0, to="E2"))
    g.push(act("move_car", 0, to="E4"))  # fewer is fine


def test_car_may_not_move_past_the_end_of_the_road() -> None:
    """A car may not move on a roadway past the point where the road ends."""
    g = straight_road()
    put(g, "G2", "road-cross")  # a tile no road joins to
    roll(g, "car", "car")
    with pytest.raises(IllegalAction, match="no road on E1"):
        g.push(act("move_car", 0, to="E1"))
    with pytest.raises(IllegalAction, match="no road joins the car to G2"):
        g.push(act("move_car", 0, to="G2"))


def test_cars_may_share_a_space() -> None:
    """Cars may share a space on the board."""
    g = straight_road()
    g.state.cars[1] = cell(g, "E3")
    roll(g, "car", "car")
    g.push(act("move_car", 0, to="E3"))
    assert g.state.cars == [cell(g, "E3")] * 2


def test_cars_can_move_forward_or_backward() -> None:
    """Cars can move either forward or backward."""
    g = straight_road()
    g.state.cars[0] = cell(g, "E3")
    roll(g, "car", "car")
    assert {cell(g, "E2"), cell(g, "E4"), cell(g, "E6")} <= set(g.car_destinations(0))
    g.push(act("move_car", 0, to="E6"))  # back through Ground Zero and out the other side


def test_cars_cannot_move_past_the_monster() -> None:
    """Cars cannot move past the Monster if it blocks the roadway."""
    g = straight_road()
    g.state.monster = cell(g, "E3")
    roll(g, "car", "car")
    with pytest.raises(IllegalAction, match="past the Monster"):
        g.push(act("move_car", 0, to="E2"))
    with pytest.raises(IllegalAction, match="past the Monster"):
        g.push(act("move_car", 0, to="E3"))
    g.push(act("move_car", 0, to="E4"))


def test_a_car_may_not_drive_into_another_players_home_base() -> None:
    """Each player picks a Home Base ... be the first player to navigate your car to Home Base: the others'
    Home Bases are not roads to drive on."""
    g = started()
    put(g, "I2", "road-straight")
    put(g, "I1", "home-base-ne")
    g.state.cars[0] = cell(g, "I2")
    roll(g, "car", "car")
    with pytest.raises(IllegalAction, match="another player's Home Base"):
        g.push(act("move_car", 0, to="I1"))


# ---------------------------------------------------------------------------------------- monster rules


def test_a_monster_card_moves_the_monster_to_the_space_shown_then_goes_to_the_discard() -> None:
    """If one "Monster" is rolled, a Monster Card is drawn from the top of the deck and the Monster moves
    to the space shown on the card. That card is then placed into a discard pile."""
    g = started()
    roll(g, "monster", "car")
    g.push(act("roll_movement_die", 0))
    g.push(act("movement_die", None, value=1))
    g.push(act("skip", 0))
    g.push(act("draw_monster_card", 0))
    assert len(g.legal_actions()) == 30
    g.push(act("monster_card", None, card="monster-07"))
    assert g.state.monster == g.catalog.spaces["Power Plant"]
    assert g.state.monster_discard == ["monster-07"] and len(g.state.monster_deck) == 29


def test_a_wild_card_lets_the_player_choose_any_space_but_ground_zero_or_a_home_base() -> None:
    """If you draw a "Wild" card from the Monster Card deck, move the Monster to any space on the board,
    except Ground Zero or any Home Base."""
    g = started()
    roll(g, "monster", "road")
    g.push(act("skip", 0))
    g.push(act("draw_monster_card", 0))
    g.push(act("monster_card", None, card="monster-30"))
    assert g.state.steps == ["monster_wild"] and g.current_player() == 0
    with pytest.raises(IllegalAction, match="Ground Zero"):
        g.push(act("move_monster", 0, to="E5"))
    with pytest.raises(IllegalAction, match="not resolved yet"):
        g.push(act("end_turn", 0))
    g.push(act("move_monster", 0, to="H7"))
    assert g.state.monster == cell(g, "H7")


def test_monster_landing_on_a_car_sends_it_to_ground_zero() -> None:
    """If the Monster lands on a car, that car must return to Ground Zero."""
    g = straight_road()
    g.state.cars[1] = cell(g, "E3")
    roll(g, "monster", "monster")
    g.push(act("move_monster", 0, to="E3"))
    assert g.state.cars[1] == cell(g, "E5")
    assert cell(g, "E3") in g.state.board  # a middle tile stays


def test_monster_landing_on_the_end_of_a_roadway_destroys_that_tile() -> None:
    """If the Monster lands on the end of a roadway, that Road tile is removed from the board and placed
    into the discard pile. If there is a car on that tile, it must go back to Ground Zero."""
    g = straight_road()
    g.state.cars[0] = cell(g, "E2")
    roll(g, "monster", "monster")
    g.push(act("move_monster", 0, to="E2"))
    assert cell(g, "E2") not in g.state.board
    assert g.state.discard == ["road-straight"]
    assert g.state.cars[0] == cell(g, "E5") and g.state.monster == cell(g, "E2")


def test_monster_landing_mid_road_leaves_the_tile_intact() -> None:
    """If the monster lands on a Road tile that is not at the end of a road, that tile stays intact."""
    g = straight_road()
    roll(g, "monster", "monster")
    g.push(act("move_monster", 0, to="E4"))
    assert cell(g, "E4") in g.state.board and g.state.discard == []


def test_monster_deck_reshuffles_its_discard_pile_after_the_last_card() -> None:
    """After the last Monster Card is drawn, shuffle the discard pile and use as the new draw pile."""
    g = started()
    s = g.state
    s.monster_discard, s.monster_deck = sorted(s.monster_deck), []
    roll(g, "monster", "road")
    g.push(act("skip", 0))
    g.push(act("draw_monster_card", 0))
    assert [a.kind for a in g.legal_actions()] == ["monster_reshuffle"]
    g.push(act("monster_reshuffle", None))
    assert len(g.state.monster_deck) == 30 and g.state.monster_discard == []
    assert len(g.legal_actions()) == 30


def test_monster_cannot_be_placed_on_ground_zero_or_a_home_base() -> None:
    """Monster cannot be placed on Ground Zero or a player's Home Base."""
    g = started(4)
    forbidden = {cell(g, n) for n in ("E5", "A1", "I1", "I9", "A9")}
    assert not forbidden & set(g.monster_destinations())
    assert not forbidden & set(g.catalog.spaces.values())


# ---------------------------------------------------------------------------------------- special tiles


def crossroads(players: int = 2) -> MonsterHighway:
    """E4-E3-E2 north of Ground Zero, D5-C5 west of it."""
    g = started(players)
    for at in ("E4", "E3", "E2"):
        put(g, at, "road-straight")
    for at in ("D5", "C5"):
        put(g, at, "road-straight", 90)
    return g


def test_swap_exchanges_two_road_tiles_and_the_car_moves_along() -> None:
    """Use this tile to swap one Road tile on the board for another on the board ... You may orient the Road
    tiles however you wish as you place them back on the board. If the car or Monster is on that Road
    tile, the car or Monster moves along with it. ... Once used, it gets placed into the discard pile."""
    g = crossroads()
    give(g, 0, "swap")
    g.state.cars[1] = cell(g, "E2")
    g.state.monster = cell(g, "C5")
    roll(g, "road", "monster")
    g.push(act("swap_tiles", 0, at=["E2", "C5"], rotations=[0, 90]))
    assert g.state.cars[1] == cell(g, "C5") and g.state.monster == cell(g, "E2")
    assert "swap" in g.state.discard and "swap" not in g.state.hands[0]


def test_swap_needs_a_road_roll_and_may_not_leave_dead_ends() -> None:
    """[Swap] ... as long as it does not result in any dead ends or roadways leading off the board. ...
    You may only play this card if you rolled "Road" on the Specialty Dice."""
    g = crossroads()
    give(g, 0, "swap")
    g.state.cars[0] = cell(g, "E3")
    roll(g, "car", "car")
    with pytest.raises(IllegalAction, match='rolled "Road"'):
        g.push(act("swap_tiles", 0, at=["E3", "C5"], rotations=[0, 90]))
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    roll(g, "car", "car")
    g.push(act("skip", 1))
    g.push(act("end_turn", 1))
    roll(g, "road", "car")
    with pytest.raises(IllegalAction, match="dead ends"):
        g.push(act("swap_tiles", 0, at=["E3", "C5"], rotations=[90, 90]))
    with pytest.raises(IllegalAction, match="change nothing"):
        g.push(act("swap_tiles", 0, at=["E4", "E2"], rotations=[0, 0]))
    listed = [a for a in g.legal_actions() if a.kind == "swap_tiles"]
    assert listed and all(set(a["at"]) != {"E3", "C5"} or a["rotations"] != (90, 90) for a in listed)


def test_remove_takes_the_last_piece_of_a_roadway_to_the_bottom_of_the_draw_pile() -> None:
    """Use this tile to remove the last piece of road on any built roadway. That Road tile is removed from
    the board and placed at the bottom of the Road tile draw pile. If there is a car on that Road tile, it
    must go back to Ground Zero. You may only play this tile if you rolled "Road" on the Specialty Dice."""
    g = crossroads()
    give(g, 0, "remove")
    g.state.cars[1] = cell(g, "E2")
    roll(g, "monster", "monster")
    with pytest.raises(IllegalAction, match='rolled "Road"'):
        g.push(act("remove_tile", 0, at="E2"))
    g.push(act("move_monster", 0, to="H8"))
    g.push(act("end_turn", 0))
    roll(g, "car", "car")
    g.push(act("skip", 1))
    g.push(act("end_turn", 1))
    roll(g, "road", "car")
    with pytest.raises(IllegalAction, match="middle of a road"):
        g.push(act("remove_tile", 0, at="E3"))
    g.push(act("remove_tile", 0, at="E2"))
    assert cell(g, "E2") not in g.state.board and g.state.cars[1] == cell(g, "E5")
    shorter = g.state.bottoms.index(["road-straight"])
    assert g.state.piles[shorter] <= g.state.piles[1 - shorter]
    assert "remove" in g.state.discard and "road-straight" not in g.state.discard


def test_a_tile_under_the_draw_pile_comes_up_only_after_the_rest_of_that_pile() -> None:
    """[Remove] That Road tile is ... placed at the bottom of the Road tile draw pile."""
    g = started()
    s = g.state
    # Pile 0 is empty; pile 1 holds one face-down tile with a known Crossroads under it.
    s.discard = sorted(t for t, n in s.pool.items() for _ in range(n))
    s.discard.remove("road-tee")
    s.discard.remove("road-cross")
    s.pool, s.piles, s.bottoms = {"road-tee": 1}, [0, 1], [[], ["road-cross"]]
    s.hands[0] = ["monster-buster"]
    roll(g, "car", "car")
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    assert [a["tile"] for a in g.legal_actions()] == ["road-tee"]
    g.push(act("tile_draw", None, seat=0, tile="road-tee"))
    assert [a["tile"] for a in g.legal_actions()] == ["road-cross"]
    g.push(act("tile_draw", None, seat=0, tile="road-cross"))
    assert [a.kind for a in g.legal_actions()] == ["tile_reshuffle"]


def test_reroll_one_or_two_dice_before_resolving_without_needing_a_road() -> None:
    """Use this tile to re-roll either 1 or 2 Specialty Dice again before playing a Road tile, moving a car
    or the Monster. Player does not need to roll a "Road" on the Specialty Dice to play this tile."""
    g = started()
    give(g, 0, "re-roll")
    give(g, 0, "re-roll")
    roll(g, "car", "car")
    g.push(act("reroll", 0, dice=[1]))
    assert [a.to_json()["dice"] for a in g.legal_actions()] == [[1]] * 3
    g.push(act("specialty_dice", None, dice=[1], faces=["road"]))
    assert g.state.dice == ["car", "road"] and g.state.steps == ["tile", "roll_movement", "car_move"]
    assert "re-roll" in g.state.discard
    g.push(act("skip", 0))
    with pytest.raises(IllegalAction, match="before playing a Road tile"):
        g.push(act("reroll", 0, dice=[0, 1]))


def test_reroll_can_force_another_player_to_reroll_during_their_turn() -> None:
    """Player may also use this tile to force another player to re-roll their dice during their turn."""
    g = started()
    give(g, 1, "re-roll")
    roll(g, "road", "road")
    assert g.current_player() == 0
    g.push(act("reroll", 1, dice=[0, 1]))
    g.push(act("specialty_dice", None, dice=[0, 1], faces=["monster", "monster"]))
    assert g.current_player() == 0 and g.state.steps == ["monster_any"]
    assert "re-roll" not in g.state.hands[1]


def test_dead_end_closes_the_end_of_a_roadway() -> None:
    """Use this tile at the end of any roadway; turning it into a dead end."""
    g = started()
    give(g, 0, "dead-end")
    put(g, "E4", "road-straight")
    put(g, "F5", "road-curve", 270)
    roll(g, "car", "car")
    g.push(act("dead_end", 0, at="E3", rotation=0))
    assert g.state.board[cell(g, "E3")][0] == "dead-end"
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    roll(g, "road", "road")
    with pytest.raises(IllegalAction, match="constructed off of other existing roadways"):
        g.push(act("place_tile", 1, tile="road-straight", at="E2", rotation=0))


def test_dead_end_only_where_a_single_road_ends() -> None:
    """[Dead End] Use this tile at the end of any roadway: a space two roads lead into is no end."""
    g = started()
    give(g, 0, "dead-end")
    put(g, "F5", "road-curve", 270)  # Ground Zero -> north into F4
    put(g, "E4", "road-tee", 270)  # Ground Zero -> north and east into F4
    roll(g, "car", "car")
    with pytest.raises(IllegalAction, match="only one road may lead into a Dead End"):
        g.push(act("dead_end", 0, at="F4", rotation=0))


def test_monster_buster_moves_the_monster_back_even_out_of_turn_then_draws() -> None:
    """Use this tile to move the Monster back to its previous position on the board. A player may use this
    tile at any point in the game, even if it is not their turn. Once used, it gets placed into the
    discard pile. Player then draws a new Road tile."""
    g = started()
    roll(g, "monster", "road")
    g.push(act("skip", 0))
    g.push(act("draw_monster_card", 0))
    g.push(act("monster_card", None, card="monster-01"))  # Mirror Pond, C3
    with pytest.raises(IllegalAction, match="no previous position"):
        g.push(act("monster_buster", 1))
    g.push(act("end_turn", 0))
    draw_all(g)
    roll(g, "monster", "monster")
    g.push(act("move_monster", 1, to="B2"))
    assert g.current_player() == 1
    g.push(act("monster_buster", 0))  # Ana, on Ben's turn
    assert g.state.monster == cell(g, "C3") and g.state.monster_previous == cell(g, "B2")
    assert g.is_chance_node() and g.legal_actions()[0]["seat"] == 0
    g.push(act("tile_draw", None, seat=0, tile="road-cross"))
    assert g.current_player() == 1 and g.state.buster_used[0]
    assert "monster-buster" in g.state.discard and "monster-buster" not in g.state.hands[0]


def test_after_the_monster_buster_a_player_draws_up_to_six() -> None:
    """Once a player uses their Monster Buster tile, they can draw back up to the maximum of 6 (six) Road
    tiles."""
    g = started()
    g.state.monster, g.state.monster_previous = cell(g, "C3"), cell(g, "B2")
    roll(g, "road", "road")
    g.push(act("monster_buster", 0))
    g.push(act("tile_draw", None, seat=0, tile="road-straight"))
    assert len(g.state.hands[0]) == 6 and g.tiles_to_draw(0) == 0
    g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    g.push(act("place_tile", 0, tile="road-straight", at="E3", rotation=0))
    assert g.tiles_to_draw(0) == 2  # four in hand, up to six


def test_home_base_tile_may_not_be_destroyed_swapped_or_dead_ended() -> None:
    """Once a Home Base tile is placed on a player's Home Base, that tile may not be destroyed by the
    Monster, swapped or turned into a dead end."""
    g = started()
    put(g, "A2", "road-straight")
    put(g, "A1", "home-base-nw")
    for tile in ("swap", "remove", "dead-end"):
        give(g, 0, tile)
    roll(g, "road", "monster")
    with pytest.raises(IllegalAction, match="destroyed"):
        g.push(act("remove_tile", 0, at="A1"))
    with pytest.raises(IllegalAction, match="swapped"):
        g.push(act("swap_tiles", 0, at=["A1", "A2"], rotations=[0, 0]))
    with pytest.raises(IllegalAction, match="dead end"):
        g.push(act("dead_end", 0, at="A1", rotation=0))
    assert cell(g, "A1") not in g.monster_destinations()
    assert all(g.catalog.spaces.get(c.space) != cell(g, "A1") for c in g.catalog.monster_cards)


# ---------------------------------------------------------------------------------------- winning


def test_the_first_car_to_reach_its_home_base_over_a_completed_road_wins() -> None:
    """Build roads using the Road tiles from Ground Zero to your Home Base, and be the first player to
    navigate your car to Home Base to win."""
    g = started(3)
    put(g, "A3", "road-straight")
    put(g, "A2", "road-straight")
    g.state.cars[0] = cell(g, "A3")
    g.state.cars[2] = cell(g, "F6")  # Cleo (SE, I9) is 6 spaces from home; Ben (NE, I1) 8, on Ground Zero
    roll(g, "car", "car")
    with pytest.raises(IllegalAction, match="no road on A1"):
        g.push(act("move_car", 0, to="A1"))
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    pass_turns(g, 1, 2)
    roll(g, "road", "road")
    g.push(act("place_tile", 0, tile="home-base-nw", at="A1", rotation=0))
    g.push(act("skip", 0))
    g.push(act("end_turn", 0))
    pass_turns(g, 1, 2)
    roll(g, "car", "car")
    g.push(act("move_car", 0, to="A1"))
    assert g.is_game_over() and g.state.winner == 0
    assert [(s.name, s.score) for s in g.standings()] == [("Ana", 0), ("Cleo", -6), ("Ben", -8)]
    assert g.breakdown(0).lines[0].kind == "home"
    with pytest.raises(IllegalAction, match="over"):
        g.push(act("end_turn", 0))


def test_round_limit_safeguard_ends_a_stalled_game_ranked_by_distance() -> None:
    """Not in the rulebook: a house-rule safeguard so a stalled game ends; 0 turns it off."""
    g = started(2, options={"round_limit": 1})
    g.state.cars[1] = cell(g, "F4")
    for seat in (0, 1):
        roll(g, "car", "car")
        g.push(act("skip", seat))
        g.push(act("end_turn", seat))
    assert g.is_game_over() and g.state.winner is None
    assert [s.name for s in g.standings()] == ["Ben", "Ana"]
    with pytest.raises(RulesError):
        MonsterHighway(["A", "B"], options={"round_limit": -1})
    with pytest.raises(RulesError):
        MonsterHighway(["A", "B"], options={"round_limit": "ten"})


# ---------------------------------------------------------------------------------------- bad input, undo


BAD = [
    (act("fly", 0), ActionFormatError),
    (act("place_tile", 0, tile="road-straight", at="E4"), ActionFormatError),
    (act("place_tile", 0, tile="road-straight", at="E4", rotation=45), ActionFormatError),
    (act("place_tile", 0, tile="road-straight", at="Z9", rotation=0), ActionFormatError),
    (act("place_tile", 0, tile="road-straight", at="E44", rotation=0), ActionFormatError),
    (act("place_tile", 0, tile="bridge", at="E4", rotation=0), ActionFormatError),
    (act("place_tile", 0, tile="road-straight", at="E4", rotation=0, colour="red"), ActionFormatError),
    (act("place_tile", 0, tile="road-cross", at="E4", rotation=0), IllegalAction),
    (act("place_tile", 0, tile="swap", at="E4", rotation=0), IllegalAction),
    (act("place_tile", 0, tile="home-base-nw", at="E4", rotation=0), IllegalAction),
    (act("place_tile", 1, tile="road-curve", at="E4", rotation=0), IllegalAction),
    (act("move_car", 0, to="E4"), IllegalAction),
    (act("move_monster", 0, to="E4"), IllegalAction),
    (act("end_turn", 0), IllegalAction),
    (act("exchange_tile", 0, tile="road-cross"), IllegalAction),
    (act("reroll", 0, dice=[2]), ActionFormatError),
    (act("reroll", 0, dice=[0]), IllegalAction),
    (act("monster_buster", 0), IllegalAction),
    (act("monster_buster", 7), IllegalAction),
    (act("swap_tiles", 0, at=["E4"], rotations=[0]), ActionFormatError),
    (act("remove_tile", 0, at="E5"), IllegalAction),
    (act("dead_end", 0, at="E4", rotation=0), IllegalAction),
    (act("choose_home_base", 0, corner="NW"), IllegalAction),
    (act("specialty_dice", None, dice=[0, 1], faces=["road", "road"]), IllegalAction),
    (act("skip", 0, steps=2), ActionFormatError),
    (act("reroll", 0, dice=[True]), ActionFormatError),
    (act("place_tile", 0, tile="road-straight", at="E4", rotation=0.0), ActionFormatError),
    (act("specialty_dice", None, dice=[False, True], faces=["road", "road"]), RulesError),
]


@pytest.mark.parametrize(("action", "error"), BAD, ids=[f"{a.kind}-{i}" for i, (a, _) in enumerate(BAD)])
def test_bad_actions_are_typed_errors_and_leave_the_state_untouched(action: object, error: type) -> None:
    """Bad input gets a typed error with one clear sentence, and leaves state untouched."""
    g = started()
    roll(g, "road", "road")
    before = snapshot(g)
    with pytest.raises(error) as err:
        g.push(action)  # type: ignore[arg-type]
    assert isinstance(err.value, ValueError)
    message = str(err.value)
    assert message and "\n" not in message and "Traceback" not in message
    assert snapshot(g) == before


def test_undo_is_refused_across_dice_and_draws_but_allowed_for_a_tile() -> None:
    """What was revealed (dice, cards, tiles drawn) cannot be unseen; a placed tile can be taken back."""
    g = started()
    with pytest.raises(UndoRefused):
        g.pop()  # the last deal
    roll(g, "road", "monster")
    with pytest.raises(UndoRefused):
        g.pop()
    before = snapshot(g)
    g.push(act("place_tile", 0, tile="road-straight", at="E4", rotation=0))
    g.pop()
    assert snapshot(g) == before
    g.push(act("skip", 0))
    g.push(act("draw_monster_card", 0))
    g.push(act("monster_card", None, card="monster-03"))
    with pytest.raises(UndoRefused):
        g.pop()
