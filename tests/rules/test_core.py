"""The engine base (push/pop/chance/records) on a tiny toy game."""

import json
from pathlib import Path

import pytest

from rules import (
    Action,
    ActionFormatError,
    IllegalAction,
    OptionError,
    Record,
    RecordError,
    ReplayError,
    UndoRefused,
)

from .toy import Toy


def test_action_round_trips_through_json() -> None:
    a = Action.of("build", 1, card="bs-1", pay=["wood", {"from": "discard"}])
    assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
    assert hash(a) == hash(Action.from_json(a.to_json()))
    assert repr(a).startswith("Action.of('build', 1")


@pytest.mark.parametrize("bad", [None, 3, [], {"player": 0}, {"kind": "", "player": 0},
                                 {"kind": "x"}, {"kind": "x", "player": "zero"},
                                 {"kind": "x", "player": True}, {"kind": "x", "player": 0, "v": object()}])
def test_malformed_actions_are_typed_errors(bad: object) -> None:
    with pytest.raises(ActionFormatError):
        Action.from_json(bad)


def test_chance_node_then_player() -> None:
    g = Toy(["Ana", "Ben"], seed=3)
    assert g.current_player() is None and g.is_chance_node()
    outcome = g.sample_chance()
    assert outcome.is_chance and outcome in g.legal_actions()
    g.push(outcome)
    assert g.current_player() == 0


def test_sampling_depends_only_on_seed_and_position() -> None:
    a, b = Toy(["A", "B"], seed=9), Toy(["A", "B"], seed=9)
    assert a.sample_chance() == b.sample_chance()
    outcomes = {Toy(["A", "B"], seed=s).sample_chance() for s in range(40)}
    assert len(outcomes) > 1


def test_illegal_action_leaves_state_untouched() -> None:
    g = Toy(["A", "B"])
    g.resolve_chance()
    before = g.state, list(g.actions)
    snapshot = json.dumps(vars(g.state), default=str, sort_keys=True)
    with pytest.raises(IllegalAction):
        g.push(Action.of("take", 1))  # not Ben's turn
    with pytest.raises(IllegalAction):
        g.push(Action.of("fly", 0))
    assert json.dumps(vars(g.state), default=str, sort_keys=True) == snapshot
    assert g.actions == before[1]


def test_undo_is_refused_across_a_reveal_and_allowed_after_a_choice() -> None:
    g = Toy(["A", "B"])
    with pytest.raises(UndoRefused):
        g.pop()
    g.resolve_chance()
    with pytest.raises(UndoRefused, match="random"):
        g.pop()
    state = json.dumps(vars(g.state), default=str)
    g.push(Action.of("take", 0))
    assert g.pop() == Action.of("take", 0)
    assert json.dumps(vars(g.state), default=str) == state


def test_bad_options_and_players() -> None:
    with pytest.raises(OptionError):
        Toy(["A"])
    with pytest.raises(OptionError):
        Toy(["A", "A"])
    with pytest.raises(OptionError):
        Toy(["A", ""])
    with pytest.raises(OptionError, match="no option"):
        Toy(["A", "B"], options={"turbo": True})
    with pytest.raises(OptionError, match="bool"):
        Toy(["A", "B"], options={"bonus": 1})
    with pytest.raises(OptionError):
        Toy(["A", "B"], seed="7")  # type: ignore[arg-type]


def test_record_round_trip_and_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules import registry

    monkeypatch.setitem(registry.GAMES, "toy", ("tests.rules.toy", "Toy", "Toy"))
    g = Toy(["A", "B"], seed=5)
    while not g.is_game_over():
        g.resolve_chance()
        if not g.is_game_over():
            g.push(g.legal_actions()[0])
    text = g.record().dumps()
    again = Record.loads(text).replay()
    assert again.state == g.state
    assert [s.to_json() for s in again.standings()] == [s.to_json() for s in g.standings()]

    data = json.loads(text)
    data["actions"][1] = {"kind": "take", "player": 1}  # Ben acts in Ana's turn
    with pytest.raises(ReplayError) as err:
        Record.from_json(data).replay()
    assert err.value.index == 1 and err.value.player == "B"


@pytest.mark.parametrize("text", ["", "{", "[]", '{"format": "x"}',
                                  '{"format": "game-night-companion/record", "version": 2}',
                                  '{"format": "game-night-companion/record", "version": 1, "game": 1}',
                                  '{"format": "game-night-companion/record", "version": 1, "game": "toy",'
                                  ' "players": ["a"], "actions": [{"kind": 1, "player": 0}]}'])
def test_bad_records_are_record_errors(text: str) -> None:
    with pytest.raises(RecordError):
        Record.loads(text)


def test_a_record_says_which_version_played_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog or a rule can change between versions: a record names the version that wrote
    it, an older record without the field still loads (and says nothing), a malformed one is
    refused."""
    from rules.record import engine_version

    g = Toy(["A", "B"], seed=5)
    data = g.record().to_json()
    assert engine_version() is not None  # the test environment installs the project
    assert data["engine"] == engine_version()
    assert Record.from_json(data).engine == engine_version()
    del data["engine"]
    old = Record.from_json(data)
    assert old.engine is None and "engine" not in old.to_json()
    for bad in (7, "", "x" * 65):
        with pytest.raises(RecordError, match="engine"):
            Record.from_json({**data, "engine": bad})


def test_replay_names_the_version_a_record_came_from(tmp_path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.cli import main
    from rules import registry

    monkeypatch.setitem(registry.GAMES, "toy", ("tests.rules.toy", "Toy", "Toy"))
    g = Toy(["A", "B"], seed=5)
    g.resolve_chance()
    path = tmp_path / "old.json"
    path.write_text(json.dumps({**g.record().to_json(), "engine": "0.0.1"}))
    assert main(["replay", str(path)]) == 0
    assert "played with version 0.0.1" in capsys.readouterr().err
    path.write_text(g.record().dumps())
    assert main(["replay", str(path)]) == 0
    assert "played with version" not in capsys.readouterr().err


def test_unknown_game_in_record() -> None:
    rec = Record("chess", ["a", "b"])
    with pytest.raises(RecordError, match="unknown game"):
        rec.replay()


def test_legal_actions_for_lists_one_seats_choices_and_nothing_during_a_reveal() -> None:
    game = Toy(["Ana", "Ben"], seed=1)
    assert game.legal_actions_for(0) == []  # a card must be revealed first
    game.push(game.sample_chance())
    assert {a.kind for a in game.legal_actions_for(0)} == {"take", "pass"}
    assert game.legal_actions_for(1) == []
    with pytest.raises(ActionFormatError):
        game.legal_actions_for(2)
    with pytest.raises(ActionFormatError):
        game.legal_actions_for(True)  # type: ignore[arg-type]


def test_out_of_turn_refusals_name_the_players() -> None:
    game = Toy(["Ana", "Ben"], seed=1)
    game.push(game.sample_chance())
    with pytest.raises(IllegalAction, match="it is Ana's turn, not Ben's"):
        game.push(Action.of("take", 1))
    with pytest.raises(IllegalAction, match="no card or die is being revealed now"):
        game.push(Action.of("reveal", None, card="c1"))


def test_available_finds_engines_without_importing_them(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    from rules import registry

    monkeypatch.setitem(registry.GAMES, "toy", ("tests.rules.toy", "Toy", "Toy"))
    monkeypatch.setitem(registry.GAMES, "absent", ("rules.no_such_engine", "X", "X"))
    monkeypatch.setitem(registry.GAMES, "nopackage", ("no_such_package.engine", "X", "X"))
    found = registry.available()
    assert "toy" in found and "absent" not in found and "nopackage" not in found
    # In a fresh interpreter: the home screen's question imports no engine module.
    code = ("import sys; from rules import registry; names = registry.available(); "
            "print(len(names), sorted(m for m in sys.modules if m in {g[0] for g in registry.GAMES.values()}))")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root).stdout.split(" ", 1)
    assert int(out[0]) == len([g for g in found if g != "toy"])
    assert out[1].strip() == "[]"
