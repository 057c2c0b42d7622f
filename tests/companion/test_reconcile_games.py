"""Per-game reconciliation with the real engines: a picture of the table after a play becomes
exactly that play (or a choice among plays the picture cannot tell apart)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest

from companion.session import Session
from companion.store import Store
from rules import Action, registry
from rules.playout import chooser_for


def item(card, x, y):
    return SimpleNamespace(id=card, rotation=0.0, center_mm=(float(x), float(y)))


def frames():
    image = np.full((60, 100, 3), 90, np.uint8)

    class Still:
        i = 0

        def latest(self):
            self.i += 1
            return SimpleNamespace(image=image, index=self.i, captured_at=0.0)

    return Still()


def session_until(tmp_path, game, kind, seed=3):
    """A session (app draws everything) played by the engine's chooser until ``kind`` is legal."""
    if game not in registry.available():
        pytest.skip(f"{game} engine not installed")
    box: list = []
    s = Session.new(Store(tmp_path / "db.sqlite3"), game, ["Ana", "Ben"], seed=seed, app_draws_all=True,
                    scanner=lambda image, name: box.pop(0))
    s.box = box
    rng = random.Random(seed)
    choose = chooser_for(s.game)
    for _ in range(2000):
        legal = s.game.legal_actions()
        wanted = [a for a in legal if a.kind == kind]
        if wanted:
            return s, wanted
        s.apply(choose(s.game, legal, rng))
    pytest.skip(f"no {kind} came up")


def scan(s, observation):
    s.box.append(observation)
    return s.end_turn(frames(), sleep=lambda t: None)


def test_bigsur_a_card_at_the_right_end_is_a_build_there(tmp_path):
    s, builds = session_until(tmp_path, "bigsur", "build")
    p = s.game.current_player()
    wanted = builds[0]
    tableau = list(s.game.state.seats[p].tableau)
    row = [*tableau, wanted["card"]] if wanted["end"] == "right" else [wanted["card"], *tableau]
    edge = s.seats[p].edge
    obs = SimpleNamespace(items=[item(c, 100 + 70 * i, 650) for i, c in enumerate(row)], unknowns=[], unsure=[],
                          layout={"tableaus": {edge: {"cards": row, "landmarks": []}}})
    out = scan(s, obs)
    same = [a for a in builds if a["card"] == wanted["card"] and a["end"] == wanted["end"]]
    if len(same) == 1:
        assert out.ok, out.message
        assert wanted in out.recorded
    else:  # several legal payments: the picture cannot tell which, the players choose
        assert not out.ok and set(out.choices) == set(same)


def test_roundabout_a_new_grid_card_is_placed_at_its_cell_despite_the_camera_offset(tmp_path):
    s, places = session_until(tmp_path, "roundabout", "place")
    wanted = places[0]
    shift = (3, 2)  # the camera counts cells from its own top-left card
    grid = [{"cell": [x - shift[0], y - shift[1]], "id": card, "rotation": rot}
            for (x, y), (card, rot) in s.game.state.layout.items()]
    grid.append({"cell": [wanted["x"] - shift[0], wanted["y"] - shift[1]], "id": wanted["card"],
                 "rotation": wanted["rotation"]})
    items = [item(g["id"], 70 * g["cell"][0] + 400, 70 * g["cell"][1] + 300) for g in grid]
    out = scan(s, SimpleNamespace(items=items, unknowns=[], unsure=[], layout={"grid": grid, "cars": []}))
    assert out.ok, out.message
    assert out.recorded[0] == wanted


@pytest.mark.parametrize("quarters", [1, 2, 3])
def test_roundabout_a_table_seen_turned_still_reads_the_placement(tmp_path, quarters):
    """The engine measures its grid from the centre card as revealed; the camera sees the table
    as it lies, here turned by whole quarters against the engine's grid."""
    from companion.reconcile.roundabout import _turn

    s, places = session_until(tmp_path, "roundabout", "place")
    wanted = places[0]

    def seen(x, y, card, rot):
        cx, cy = _turn((x, y), -quarters)
        return {"cell": [cx + 5, cy + 5], "id": card, "rotation": (rot - 90 * quarters) % 360}

    grid = [seen(x, y, card, rot) for (x, y), (card, rot) in s.game.state.layout.items()]
    grid.append(seen(wanted["x"], wanted["y"], wanted["card"], wanted["rotation"]))
    items = [item(g["id"], 70 * g["cell"][0] + 100, 70 * g["cell"][1] + 100) for g in grid]
    out = scan(s, SimpleNamespace(items=items, unknowns=[], unsure=[], layout={"grid": grid, "cars": []}))
    assert out.ok, out.message
    assert out.recorded[0] == wanted


def test_roundabout_a_wrongly_turned_card_gets_the_engine_reason(tmp_path):
    s, places = session_until(tmp_path, "roundabout", "place")
    legal = {(a["x"], a["y"], a["rotation"]) for a in places}
    bad = next(((a["x"], a["y"], r) for a in places for r in (0, 90, 180, 270)
                if (a["x"], a["y"], r) not in legal), None)
    if bad is None:
        pytest.skip("every rotation is legal here")
    grid = [{"cell": [x, y], "id": card, "rotation": rot} for (x, y), (card, rot) in s.game.state.layout.items()]
    grid.append({"cell": [bad[0], bad[1]], "id": places[0]["card"], "rotation": bad[2]})
    items = [item(g["id"], 70 * g["cell"][0] + 400, 70 * g["cell"][1] + 300) for g in grid]
    before = list(s.game.actions)
    out = scan(s, SimpleNamespace(items=items, unknowns=[], unsure=[], layout={"grid": grid, "cars": []}))
    assert not out.ok and "not allowed" in out.message and out.rule
    assert out.spots
    assert s.game.actions == before


def roundabout_picture(s, cars):
    """What the camera reports of the engine's grid (cells as the engine counts them) and ``cars``
    ((colour, cell) each)."""
    grid = [{"cell": [x, y], "id": card, "rotation": rot} for (x, y), (card, rot) in s.game.state.layout.items()]
    items = [item(g["id"], 70 * g["cell"][0] + 400, 70 * g["cell"][1] + 300) for g in grid]
    seen = [{"colour": colour, "center_mm": [70 * x + 400, 70 * y + 300], "cell": [x, y]} for colour, (x, y) in cars]
    return SimpleNamespace(items=items, unknowns=[], unsure=[], layout={"grid": grid, "cars": seen})


def test_roundabout_a_car_of_the_players_colour_on_a_free_cell_reserves_it(tmp_path):
    s, reserves = session_until(tmp_path, "roundabout", "reserve")
    p = s.game.current_player()
    wanted = reserves[-1]
    mine = s.seats[p].colour
    other = next(seat.colour for seat in s.seats if seat.colour != mine)
    # another player's car waiting in front of them reserves nothing; the player's own does
    out = scan(s, roundabout_picture(s, [(other, (reserves[0]["x"], reserves[0]["y"])),
                                         (mine, (wanted["x"], wanted["y"]))]))
    assert out.ok, out.message
    assert out.recorded == [wanted]
    assert s.game.state.cars[(wanted["x"], wanted["y"])] == p


def test_roundabout_a_car_of_another_colour_reserves_nothing_for_the_player_to_move(tmp_path):
    s, reserves = session_until(tmp_path, "roundabout", "reserve")
    mine = s.seats[s.game.current_player()].colour
    other = next(seat.colour for seat in s.seats if seat.colour != mine)
    before = list(s.game.actions)
    out = scan(s, roundabout_picture(s, [(other, (reserves[0]["x"], reserves[0]["y"]))]))
    assert not any(a.kind == "reserve" for a in out.recorded)
    assert s.game.actions == before


def test_nothing_new_says_what_the_camera_noted(tmp_path):
    """A reservation the camera could not read (its cars lost in a patterned cloth) is "nothing new"
    with the camera's own note on why, so the players know to enter it by hand."""
    s, _ = session_until(tmp_path, "roundabout", "reserve")
    s.box.append(roundabout_picture(s, []))
    assert s.baseline(s.capture(frames(), sleep=lambda t: None)).ok
    picture = roundabout_picture(s, [])
    picture.layout["cars_unread"] = 40
    picture.warnings = ["40 spots on the table look like playing pieces (a patterned cloth?): no car is read "
                        "as reserving a place; enter a reservation by hand"]
    before = list(s.game.actions)
    out = scan(s, picture)
    assert not out.ok and out.message.startswith("Nothing new"), out.message
    assert "The camera notes: 40 spots on the table look like playing pieces" in out.message
    assert s.game.actions == before


def test_roundabout_a_car_the_engine_already_has_is_no_new_reservation(tmp_path):
    """Without seat colours every car on a free cell is a candidate, except where the engine
    already has a car: that one was reserved on an earlier turn."""
    from companion.reconcile import Difference
    from companion.reconcile.roundabout import candidates

    if "roundabout" not in registry.available():
        pytest.skip("roundabout engine not installed")
    s = Session.new(Store(tmp_path / "db.sqlite3"), "roundabout", ["Ana", "Ben"], seed=5, app_draws_all=True,
                    scanner=lambda image, name: None)
    rng = random.Random(5)
    choose = chooser_for(s.game)
    for _ in range(2000):
        legal = s.game.legal_actions()
        reserves = [a for a in legal if a.kind == "reserve"]
        if reserves and s.game.state.cars:
            break
        s.apply(choose(s.game, legal, rng))
    else:
        pytest.skip("no second reservation came up")
    (held, _), = s.game.state.cars.items()
    wanted = reserves[0]
    picture = roundabout_picture(s, [("red", held), ("red", (wanted["x"], wanted["y"]))])
    assert candidates(s.game, Difference(), picture, {}) == [wanted]


def test_monsterhighway_a_tile_on_an_empty_space_is_played_there(tmp_path):
    s, placements = session_until(tmp_path, "monsterhighway", "place_tile")
    wanted = placements[0]
    col, row = ord(wanted["at"][0]) - ord("A"), int(wanted["at"][1:]) - 1
    cells = [{"cell": [col, row], "id": wanted["tile"], "rotation": wanted["rotation"]}]
    items = [item(wanted["tile"], 50 * col + 25, 50 * row + 25)]
    out = scan(s, SimpleNamespace(items=items, unknowns=[], unsure=[], layout={"cells": cells}))
    assert out.ok, out.message
    assert out.recorded[0] == wanted


def monster_straight(tmp_path):
    """A session where a straight Road tile is playable on some space in exactly one way."""
    from rules.monsterhighway.data import rotate

    s, _ = session_until(tmp_path, "monsterhighway", "place_tile")
    tiles = s.game.catalog.tiles

    def shape(a, r):
        return rotate(tiles[a["tile"]].open_mask, r)

    rng = random.Random(5)
    choose = chooser_for(s.game)
    for _ in range(3000):
        legal = s.game.legal_actions()
        placements = [a for a in legal if a.kind == "place_tile"]
        for a in placements:
            if shape(a, 0) == shape(a, 180) != shape(a, 90) and not any(
                    b["at"] == a["at"] and b["tile"] == a["tile"] and b != a for b in placements):
                return s, a, shape
        if s.over:
            break
        s.apply(choose(s.game, legal, rng))
    pytest.skip("no straight with one way on a space came up")


def seen_tile(s, wanted, rotation):
    col, row = ord(wanted["at"][0]) - ord("A"), int(wanted["at"][1:]) - 1
    cells = [{"cell": [col, row], "id": wanted["tile"], "rotation": rotation}]
    items = [item(wanted["tile"], 50 * col + 25, 50 * row + 25)]
    return scan(s, SimpleNamespace(items=items, unknowns=[], unsure=[], layout={"cells": cells}))


def test_monsterhighway_a_straight_seen_half_turned_is_the_listed_play(tmp_path):
    """The engine lists a straight once per way it runs: seen at 180 it is the 0 play."""
    s, wanted, _ = monster_straight(tmp_path)
    out = seen_tile(s, wanted, (wanted["rotation"] + 180) % 360)
    assert out.ok, out.message
    assert out.recorded[0] == wanted


def test_monsterhighway_a_straight_running_the_wrong_way_is_refused_not_turned(tmp_path):
    """A straight lying across the only way it fits is an illegal play with the engine's reason,
    never silently recorded as the way that fits."""
    s, wanted, _ = monster_straight(tmp_path)
    before = list(s.game.actions)
    out = seen_tile(s, wanted, (wanted["rotation"] + 270) % 360)
    assert not out.ok
    assert "not allowed" in out.message and out.rule
    assert s.game.actions == before


def test_bigsur_a_landmark_seen_below_a_card_is_taken_there(tmp_path):
    if "bigsur" not in registry.available():
        pytest.skip("no Big Sur engine")
    box: list = []
    s = Session.new(Store(tmp_path / "db.sqlite3"), "bigsur", ["Ana", "Ben"], seed=2, app_draws_all=True,
                    options={"landmarks": True}, scanner=lambda image, name: box.pop(0))
    s.box = box
    rng = random.Random(2)
    choose = chooser_for(s.game)
    wanted = None
    for _ in range(3000):
        legal = s.game.legal_actions()
        marks = [a for a in legal if a.kind == "landmark"]
        if marks:
            wanted = marks[0]
            break
        if s.over:
            break
        builds = [a for a in legal if a.kind == "build"]  # build eagerly so landmarks come up
        s.apply(builds[0] if builds else choose(s.game, legal, rng))
    if wanted is None:
        pytest.skip("no landmark came up")
    p = s.game.current_player()
    tableau = list(s.game.state.seats[p].tableau)
    edge = s.seats[p].edge
    layout = {"tableaus": {edge: {"cards": tableau, "landmarks": [
        {"id": wanted["tile"], "position": tableau.index(wanted["card"]), "where": wanted["where"]}]}}}
    out = scan(s, SimpleNamespace(items=[item(wanted["tile"], 300, 600)], unknowns=[], unsure=[], layout=layout))
    assert out.ok, out.message
    assert out.recorded[0] == wanted


def test_bigsur_a_card_outside_the_tableau_is_not_taken_for_a_play(tmp_path):
    s, _ = session_until(tmp_path, "bigsur", "draw")
    row_card = next(a["card"] for a in s.game.legal_actions() if a.kind == "draw")
    before = list(s.game.actions)
    out = scan(s, SimpleNamespace(items=[item(row_card, 500, 350)], unknowns=[], unsure=[],
                                  layout={"tableaus": {}}))
    assert not out.ok and s.game.actions == before


def test_bigsur_the_deck_top_material_is_read_from_the_table_not_drawn_by_the_app(tmp_path):
    """The deck lies Material side up: the camera sees the top card's material before any reveal,
    so the app waits for it instead of drawing a material the real deck does not show."""
    if "bigsur" not in registry.available():
        pytest.skip("no Big Sur engine")
    box: list = []
    s = Session.new(Store(tmp_path / "db.sqlite3"), "bigsur", ["Ana", "Ben"], seed=4,
                    scanner=lambda image, name: box.pop(0))
    s.box = box
    for _ in range(40):
        if s.game.is_chance_node() and s.game.legal_actions()[0].kind == "deck_top":
            break
        assert s.game.is_chance_node(), "the game reached a player before the deck's top was seen"
        s.draw_for_table()
    outcomes = s.game.legal_actions()
    assert outcomes[0].kind == "deck_top"
    assert s.waiting_for_table()
    material = outcomes[-1]["material"]
    before = len(s.game.actions)
    out = scan(s, SimpleNamespace(items=[item(f"bs-material-{material}", 900, 350)], unknowns=[], unsure=[],
                                  layout={"tableaus": {}}))
    assert s.game.actions[before] == Action.of("deck_top", None, material=material), out.message


def test_monsterhighway_a_tile_the_rules_took_off_or_a_piece_hides_is_not_gone():
    """Removing a tile or the Monster destroying one names the space, not the tile: a tile gone
    from a space the engine no longer holds it on was taken off; one gone from under the Monster
    or a car is hidden. A copy of a tile taken off while another is laid elsewhere is no move:
    the one laid is a new tile (found reading the demo's whole game: "gone: put it back")."""
    from companion.reconcile import diff
    from companion.reconcile.monsterhighway import out_of_sight, taken_off

    cols = 9
    game = SimpleNamespace(catalog=SimpleNamespace(cell_mm=50.0, columns=cols),
                           state=SimpleNamespace(board={1 * cols + 5: ("road-straight", 0, 5),
                                                        3 * cols + 4: ("road-curve", 0, 6)},
                                                 monster=3 * cols + 4, cars=[None, 6 * cols + 6]))
    before = [item("road-straight", 275, 75), item("road-curve", 225, 175), item("road-tee", 125, 125),
              item("road-cross", 325, 75)]
    after = [item("road-straight", 275, 75), item("road-cross", 125, 275)]
    d = diff(before, after)
    assert taken_off(game, d) == {"road-tee", "road-cross"}   # spaces the engine no longer holds
    assert out_of_sight(game, d) == {"road-curve"}             # under the Monster
    assert taken_off(game, diff([item("road-straight", 275, 75)], [])) == set()  # still there: gone


def test_monsterhighway_a_tile_laid_while_its_copy_was_destroyed_is_read_as_laid(tmp_path):
    s, placements = session_until(tmp_path, "monsterhighway", "place_tile")
    from companion.reconcile import reconcile
    from companion.reconcile.monsterhighway import space_name

    wanted = placements[0]
    cat = s.game.catalog
    board = s.game.state.board
    at = next(i for i in range(cat.columns * 20) if space_name(i % cat.columns, i // cat.columns) == wanted["at"])

    def centre(i):
        return ((i % cat.columns + 0.5) * cat.cell_mm, (i // cat.columns + 0.5) * cat.cell_mm)

    # a copy of the tile to be laid lay on an empty space the engine does not hold it on (destroyed)
    empty = next(i for i in range(cat.columns * 8) if i not in board and i != at)
    before = [item(t[0], *centre(i)) for i, t in board.items()] + [item(wanted["tile"], *centre(empty))]
    seen = [{"cell": [i % cat.columns, i // cat.columns], "id": t[0], "rotation": t[1]} for i, t in board.items()]
    seen.append({"cell": [at % cat.columns, at // cat.columns], "id": wanted["tile"], "rotation": wanted["rotation"]})
    picture = SimpleNamespace(items=[item(t[0], *centre(i)) for i, t in board.items()] + [item(wanted["tile"], *centre(at))],
                              unknowns=[], unsure=[], layout={"cells": seen})
    reading = reconcile(s.game, before, picture)
    assert reading.problems == []
    assert wanted in reading.candidates


def monster_picture(s, cars=(), extra=()):
    """What the camera reports of the engine's Monster Highway board, with ``cars`` ((colour,
    space index) each) and ``extra`` tiles ((tile, space index, rotation) each) on it."""
    cat = s.game.catalog

    def centre(i):
        return ((i % cat.columns + 0.5) * cat.cell_mm, (i // cat.columns + 0.5) * cat.cell_mm)

    tiles = [(t[0], i, t[1]) for i, t in s.game.state.board.items()] + list(extra)
    cells = [{"cell": [i % cat.columns, i // cat.columns], "id": t, "rotation": r} for t, i, r in tiles]
    seen = [{"colour": colour, "cell": [i % cat.columns, i // cat.columns], "center_mm": list(centre(i))}
            for colour, i in cars]
    return SimpleNamespace(items=[item(t, *centre(i)) for t, i, _ in tiles], unknowns=[], unsure=[],
                           layout={"cells": cells, "cars": seen})


def test_monsterhighway_the_players_car_seen_on_a_new_space_is_moved_there(tmp_path):
    """While the rules ask a player to move their car, their car (by their seat's colour) seen on
    another space is the move; another player's car beside it is not (the demo's whole game: 24
    car moves had to be entered by hand)."""
    s, moves = session_until(tmp_path, "monsterhighway", "move_car")
    cat = s.game.catalog
    p = s.game.current_player()
    mine = s.seats[p].colour
    other = next(seat.colour for seat in s.seats if seat.colour != mine)
    s.box.append(monster_picture(s))
    assert s.baseline(s.capture(frames(), sleep=lambda t: None)).ok
    wanted = moves[-1]

    def index(name):
        return (int(name[1:]) - 1) * cat.columns + ord(name[0]) - ord("A")

    out = scan(s, monster_picture(s, [(other, index(moves[0]["to"])), (mine, index(wanted["to"]))]))
    assert out.ok, out.message
    assert out.recorded[0] == wanted
    assert s.game.state.cars[p] == index(wanted["to"])


def test_monsterhighway_a_car_moved_where_the_rules_do_not_let_it_go_gets_the_engine_reason(tmp_path):
    s, moves = session_until(tmp_path, "monsterhighway", "move_car")
    cat = s.game.catalog
    p = s.game.current_player()
    s.box.append(monster_picture(s))
    assert s.baseline(s.capture(frames(), sleep=lambda t: None)).ok
    allowed = {(int(m["to"][1:]) - 1) * cat.columns + ord(m["to"][0]) - ord("A") for m in moves}
    far = next(i for i in range(cat.columns * cat.rows) if i not in allowed and i != s.game.state.cars[p])
    before = list(s.game.actions)
    out = scan(s, monster_picture(s, [(s.seats[p].colour, far)]))
    assert not out.ok and "is not allowed" in out.message, out.message
    assert s.game.actions == before


def test_monsterhighway_a_tile_the_engine_holds_seen_again_is_no_new_play(tmp_path):
    """A tile seen again as the Monster leaves its space (hidden in the accepted picture) is on
    the board already: expected, no play read from it ("Cleo plays a Curve on C1 ... is not
    allowed", reading the demo's whole game)."""
    from companion.reconcile import reconcile

    s, _ = session_until(tmp_path, "monsterhighway", "place_tile")
    cat = s.game.catalog
    space, (tile, _rotation, _mask) = next(iter(s.game.state.board.items()))
    picture = monster_picture(s)
    hidden = [i for i in picture.items if (int(i.center_mm[1] // cat.cell_mm) * cat.columns
                                           + int(i.center_mm[0] // cat.cell_mm)) != space]
    reading = reconcile(s.game, hidden, picture)
    assert [x.id for x in reading.diff.expected] == [tile] and not reading.diff.added
    assert not any(a.kind == "place_tile" and a.get("tile") == tile for a in reading.candidates)
    assert reading.problems == []


def test_monsterhighway_a_tile_a_car_just_drove_onto_is_hidden_not_gone(tmp_path):
    """A car moved onto a tile hides it before the move is recorded (the engine still has the car
    where it was): a tile gone where the picture shows a piece is out of sight, and the move is
    read (the demo's table at the app's 1152 x 648: "road-curve ... is gone: put it back")."""
    from companion.reconcile import reconcile

    s, moves = session_until(tmp_path, "monsterhighway", "move_car")
    cat = s.game.catalog
    p = s.game.current_player()
    board = s.game.state.board

    def index(name):
        return (int(name[1:]) - 1) * cat.columns + ord(name[0]) - ord("A")

    onto = next((m for m in moves if index(m["to"]) in board), None)
    if onto is None:
        pytest.skip("no move onto a tile came up")
    before = monster_picture(s).items
    picture = monster_picture(s, [(s.seats[p].colour, index(onto["to"]))])
    picture.layout["pieces"] = [{"center_mm": c["center_mm"]} for c in picture.layout["cars"]]
    gone = board[index(onto["to"])][0]
    picture.items = [i for i in picture.items if not (i.id == gone and (int(i.center_mm[1] // cat.cell_mm) * cat.columns
                                                                        + int(i.center_mm[0] // cat.cell_mm)) == index(onto["to"]))]
    reading = reconcile(s.game, before, picture, colours=[seat.colour for seat in s.seats])
    assert reading.problems == []
    assert onto in reading.candidates
