"""The guided set-up as a step-by-step guide (issue 6): one step at a time, Next/Back, "Step n
of m", and the steps that involve particular players name them in the order they act."""

from __future__ import annotations

import pytest

from companion.session import SessionError
from companion.session.guides import GUIDES, SetupGuide, SetupGuideError, SetupStep, guide, setup_guide

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]


def _guide(steps=3):
    return SetupGuide([SetupStep(f"T{i}", f"text {i}") for i in range(steps)])


def test_next_and_back_walk_the_steps_with_the_progress():
    g = _guide(3)
    assert (g.index, g.progress, g.is_first, g.is_last) == (0, "Step 1 of 3", True, False)
    assert g.next() is False and g.progress == "Step 2 of 3" and g.step.title == "T1"
    assert g.next() is False and g.is_last and g.step.text == "text 2"
    assert g.back().title == "T1" and g.progress == "Step 2 of 3"
    g.next()
    assert g.next() is True and g.finished and g.index == 2  # Next on the last step: set-up done


@pytest.mark.parametrize("bad", [-1, 3, 7, "2", 1.0, True, None])
def test_a_step_that_does_not_exist_is_a_clear_error_and_changes_nothing(bad):
    g = _guide(3)
    g.next()
    with pytest.raises(SetupGuideError, match="setup step"):
        g.go(bad)
    assert g.index == 1 and g.progress == "Step 2 of 3"


def test_back_on_the_first_step_is_refused_and_the_guide_stays():
    g = _guide(2)
    with pytest.raises(SetupGuideError, match="first setup step"):
        g.back()
    assert g.index == 0
    assert issubclass(SetupGuideError, SessionError) and issubclass(SetupGuideError, ValueError)


def test_an_empty_guide_and_bad_players_are_refused():
    with pytest.raises(SetupGuideError, match="at least one step"):
        SetupGuide([])
    with pytest.raises(SetupGuideError, match="players"):
        setup_guide(GUIDES["bigsur"], [], {}, 0)
    with pytest.raises(SetupGuideError, match="first player"):
        setup_guide(GUIDES["bigsur"], ["Ana", "Ben"], {}, 2)


@pytest.mark.parametrize("game", sorted(GUIDES))
def test_every_game_has_titled_steps_whose_sentences_are_its_setup(game):
    g = GUIDES[game]
    walk = setup_guide(g, PLAYERS[:3], {"landmarks": True}, 1)
    assert [s.text for s in walk.steps] == g.setup(PLAYERS[:3], {"landmarks": True}, 1)
    assert all(s.title and s.text for s in walk.steps)
    for step in walk.steps:
        assert all(name in step.text for name in step.players), step


def test_a_game_without_titled_steps_gets_numbered_ones():
    walk = setup_guide(guide("unknown-game", "Unknown"), ["Ana", "Ben"], {}, 1)
    assert [s.title for s in walk.steps] == ["Step 1"] and "Ben starts" in walk.step.text


@pytest.mark.parametrize("first", [0, 2])
def test_the_byway_drafts_name_each_drafter_and_who_they_pass_to(first):
    steps = {s.title: s for s in setup_guide(GUIDES["highwaysbyways"], PLAYERS, {}, first).steps}
    order = tuple(PLAYERS[(first + i) % 4] for i in range(4))
    for colour, each in (("Red", 2), ("Blue", 10)):
        draft = steps[f"{colour} Byway draft"]
        assert draft.players == order
        assert draft.text.startswith(f"{order[0]} draws two {colour} Byway cards, keeps one and passes the other "
                                     f"to {order[1]};")
        for i in range(4):
            assert f"passes the other to {order[(i + 1) % 4]}" in draft.text
        assert f"each have {each} {colour} Byways ({each * 4} kept in all)" in draft.text
    # The Player 1 Card goes to whoever picked last: the seat before the first.
    assert steps["Who drives first"].players == (order[-1],)
    assert steps["Remove Travel Markers"].players == order


@pytest.mark.parametrize("n", [2, 3, 4])
def test_monster_highway_piles_name_the_players_and_count_the_tiles(n):
    from rules.monsterhighway import data

    cat = data.load()
    left = sum(t.count for t in cat.by_kind("road")) + sum(t.count for t in cat.by_kind("special")) - 6 * n
    steps = {s.title: s for s in setup_guide(GUIDES["monsterhighway"], PLAYERS[:n], {}, 0).steps}
    piles = steps["The two draw piles"]
    assert piles.players == tuple(PLAYERS[:n])
    assert f"remaining {left} tiles into two equal draw piles of {left // 2}" in piles.text
    assert steps["Deal the hands"].players == tuple(PLAYERS[:n])


def test_monster_highway_piles_agree_with_the_engines_own_split():
    from companion.session.demo import example_record
    from rules import registry

    rec = example_record("monsterhighway")
    game = registry.game_class("monsterhighway")(rec.players, seed=rec.seed, options=rec.options)
    for action in rec.actions:
        if game.state.phase == "play":
            break
        game.push(action)
    piles = game.state.piles
    text = {s.title: s.text for s in setup_guide(GUIDES["monsterhighway"], list(rec.players), {}, 0).steps}
    assert f"remaining {sum(piles)} tiles into two equal draw piles of {min(piles)}" in text["The two draw piles"]
