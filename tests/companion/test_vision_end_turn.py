"""End to end with the real recogniser: a rendered picture of the table after a Big Sur build is
read by vision.scan and recorded as exactly that build."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from companion.session import Session, vision_scanner
from companion.store import Store
from rules import registry
from rules.playout import chooser_for

pytest.importorskip("vision.synth")


def camera(image):
    class Still:
        i = 0

        def latest(self):
            self.i += 1
            return SimpleNamespace(image=image, index=self.i, captured_at=0.0)

    return Still()


@pytest.mark.skipif("bigsur" not in registry.available(), reason="no Big Sur engine")
def test_a_rendered_build_is_read_and_recorded(tmp_path):
    from companion.session.demo import render_table

    s = Session.new(Store(tmp_path / "db.sqlite3"), "bigsur", ["Ana", "Ben"], seed=2, app_draws_all=True,
                    scanner=vision_scanner())
    rng = random.Random(2)
    choose = chooser_for(s.game)
    wanted = None
    for _ in range(400):  # build eagerly until someone already has a card and can build another
        legal = s.game.legal_actions()
        builds = [a for a in legal if a.kind == "build"]
        if builds and s.game.state.seats[s.game.current_player()].tableau:
            wanted = builds[0]
            break
        s.apply(builds[0] if builds else choose(s.game, legal, rng))
    assert wanted is not None
    size = (2304, 1296)
    start = s.baseline(s.capture(camera(render_table(s.game.record().to_json(), size)), sleep=lambda t: None))
    assert start.ok, start.message
    after = s._copy_game()
    after.push(wanted)
    out = s.end_turn(camera(render_table(after.record().to_json(), size)), sleep=lambda t: None)
    same = [a for a in s.game.legal_actions() if a.kind == "build" and a["card"] == wanted["card"]
            and a["end"] == wanted["end"]] if not out.ok else []
    if out.ok:
        assert out.recorded[0] == wanted, out.announcements
        assert s.game.state.seats[wanted.player].tableau == after.state.seats[wanted.player].tableau
    else:  # several ways to pay for the same card at the same end: the players are asked
        assert wanted in out.choices and set(out.choices) == set(same), out.message


def rendered_turn(tmp_path, game, players, seed, pick, **options):
    """A session played by the engine's chooser until ``pick(game, legal)`` names a play; the demo's
    rendered table before it is accepted, the one after it read at End turn. Returns the session,
    the play, the game after it and the outcome."""
    from companion.session.demo import demo_table, render_table

    s = Session.new(Store(tmp_path / "db.sqlite3"), game, players, seed=seed, app_draws_all=True,
                    scanner=vision_scanner(table=demo_table), options=options or None)
    rng = random.Random(seed)
    choose = chooser_for(s.game)
    wanted = None
    for _ in range(2000):
        legal = s.game.legal_actions()
        wanted = pick(s.game, legal, choose, rng)
        if wanted is not None:
            break
        s.apply(choose(s.game, legal, rng))
    assert wanted is not None
    size = (2304, 1296)
    start = s.baseline(s.capture(camera(render_table(s.game.record().to_json(), size)), sleep=lambda t: None))
    assert start.ok, start.message
    after = s._copy_game()
    after.push(wanted)
    return s, wanted, after, s.end_turn(camera(render_table(after.record().to_json(), size)), sleep=lambda t: None)


@pytest.mark.parametrize("game, kinds", [("roundabout", ("place",)), ("monsterhighway", ("place_tile",))])
def test_the_demo_draws_the_scripted_table_and_the_recogniser_reads_the_play(tmp_path, game, kinds):
    """The demo's rendered table of the game's own state is read back as the play just made."""
    if game not in registry.available():
        pytest.skip(f"no {game} engine")

    def pick(g, legal, choose, rng):  # a table play due with something already on the table
        plays = [a for a in legal if a.kind in kinds and a.player == g.current_player()]
        return choose(g, plays, rng) if plays and len(g.actions) > 12 else None

    s, wanted, after, out = rendered_turn(tmp_path, game, ["Ana", "Ben"], 2, pick)
    assert out.ok, out.message
    got = out.recorded[0]
    assert got.kind == wanted.kind and got.player == wanted.player
    if game == "roundabout":
        assert s.game.state.layout == after.state.layout
    else:
        assert {c: t[0] for c, t in s.game.state.board.items()} == {c: t[0] for c, t in after.state.board.items()}
        assert {c: t[2] for c, t in s.game.state.board.items()} == {c: t[2] for c, t in after.state.board.items()}


@pytest.mark.skipif("roundabout" not in registry.available(), reason="no Roundabout engine")
@pytest.mark.parametrize("seed", [2, 3])
def test_a_rendered_reservation_is_read_and_recorded(tmp_path, seed):
    """A car put on a free cell beside the grid, in its player's colour, is read as that player
    reserving the cell. Seed 2's grid lies half a cell off round millimetres (its rows were once
    counted 0 and 2); seed 3's car opens a new column (the demo once slid the whole grid over)."""

    def pick(g, legal, choose, rng):
        reserves = [a for a in legal if a.kind == "reserve" and a.player == g.current_player()]
        return reserves[0] if reserves and len(g.actions) > 10 else None

    s, wanted, after, out = rendered_turn(tmp_path, "roundabout", ["Ana", "Ben", "Cleo"], seed, pick)
    assert out.ok, out.message
    assert out.recorded == [wanted]
    assert s.game.state.cars == after.state.cars


@pytest.mark.skipif("bigsur" not in registry.available(), reason="no Big Sur engine")
@pytest.mark.parametrize("seed, where", [(1, "above"), (3, "below")])
def test_a_rendered_landmark_is_read_and_recorded(tmp_path, seed, where):
    """A Landmark tile laid above (away from the player) or below (nearer) a card of the tableau
    is read as that landmark, on that card, on that side: Big Sur's advanced game scores it."""

    def pick(g, legal, choose, rng):
        return next((a for a in legal if a.kind == "landmark" and a["where"] == where), None)

    s, wanted, after, out = rendered_turn(tmp_path, "bigsur", ["Ana", "Ben"], seed, pick, landmarks=True)
    assert out.ok, out.message
    assert out.recorded[0] == wanted  # (then the turn ends and the app refills the rows)
    assert s.game.state.seats[wanted.player].landmarks == after.state.seats[wanted.player].landmarks
