"""Highways & Byways, second reading: regression tests for what the audit of the engine against the
rulebook (seeds/000) found, and adversarial sweeps that compare what the engine lists with what it
accepts, and throw malformed actions at games in progress.

Each regression test is named after the rule and quotes the sentence it checks.
"""

from __future__ import annotations

import itertools
import pickle
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, IllegalAction, RulesError
from rules.highwaysbyways import HighwaysAndByways, playout_choice
from rules.playout import random_step

from .test_highwaysbyways import (
    CAT,
    NAMES,
    driving_game,
    finish_turn,
    play_event,
    put,
    quiet_event,
    refused,
    start_round,
)


# ------------------------------------------------------------------ Traffic and the Construction Card
def test_traffic_cannot_push_a_car_off_a_space_the_construction_card_closes() -> None:
    """"If you're currently on a highway space that contains the letter depicted on the Construction
    Card, you cannot move that turn." and "If the Event Card has an effect which conflicts with the
    Construction Card, discard the Event Card, don't resolve its effect". A Traffic card would make
    the car drive: it conflicts, the car stays and spends the day planning (the engine used to push
    it along and then let it drive six spaces)."""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    assert game.is_closed("j03") and game.traffic_targets("j03", "north") == ["d12a"]
    put(game, p, "j03")
    discarded = game.state.event_discard.get("hb-ev-traffic-north", 0)
    play_event(game, "hb-ev-traffic-north")
    s = game.state
    assert s.position[p] == "j03"
    assert "conflicts with the construction card" in s.turn.event_note
    assert s.event_discard.get("hb-ev-traffic-north", 0) == discarded + 1
    assert s.turn.planning_day and {a.kind for a in game.legal_actions()} == {"plan_discard", "end_turn"}
    refused(game, Action.of("drive", p, path=["d12a"]))


def test_a_traffic_tie_on_a_closed_space_is_no_dispute() -> None:
    """"Whenever there are disputes, the player currently holding the Player 1 Card gets to make the
    decision": there is nothing to decide when the card conflicts with the Construction Card."""
    game = driving_game(construction="hb-con-c")
    p = game.state.seat
    assert game.is_closed("h11") and len(game.traffic_targets("h11", "north")) == 2
    put(game, p, "h11")
    play_event(game, "hb-ev-traffic-north")
    assert game.state.step == "move" and game.state.turn.dispute == []
    assert game.state.position[p] == "h11" and game.state.turn.planning_day


def test_traffic_still_pushes_a_car_off_a_space_closed_by_nothing() -> None:
    """The conflict is with the Construction Card only: on an open highway space the push happens."""
    game = driving_game(construction="hb-con-b")
    p = game.state.seat
    assert not game.is_closed("j03")
    put(game, p, "j03")
    play_event(game, "hb-ev-traffic-north")
    assert game.state.position[p] == "d12a" and game.may_drive()


# ------------------------------------------------------------------ refusals in the table's words
def test_an_action_out_of_step_says_what_the_table_is_waiting_for() -> None:
    """A refusal is "one sentence a player understands that names the broken rule": an action out of
    step says, in the table's words, what must happen first (it used to name internal action kinds
    such as "pick event")."""
    game = driving_game(construction="hb-con-a")
    p = game.state.seat
    quiet_event(game)
    message = refused(game, Action.of("keep", p, card="hb-ev-fog"))
    assert message == ("Keeping one of the event cards drawn is not possible now: the game is waiting for "
                       f"{NAMES[p]} to drive, plan or end the turn")
    game.push(Action.of("end_turn", p))
    game.resolve_chance()
    message = refused(game, Action.of("drive", p, path=["h11"]))
    assert message == "A drive is not possible now: the game is waiting for keeping one of the event cards drawn"


# ------------------------------------------------------------------ adversarial sweeps
def _given(value: Any) -> list[str]:
    """Every string in an action's field values (as JSON has them)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _given(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _given(v)]
    return []


def _speaks_code(message: str, action: Action) -> bool:
    """Whether a refusal names something in code (a word with an underscore: an action kind, a
    field), not counting what it quotes of the action's own field values: a card id '_' thrown at
    the game is the caller's word, echoed ("'_' is not in the blue byway deck"). The action's kind
    is code, quoted or not."""
    fields = {k: v for k, v in action.to_json().items() if k not in ("kind", "player")}
    for value in sorted(_given(fields), key=len, reverse=True):
        message = message.replace(repr(value), "")
    return "_" in message


def test_a_refusal_quoting_the_callers_own_value_does_not_speak_code() -> None:
    """Hypothesis found seed 1's game refusing Action.of('draw_byway', None, card='_') with "'_' is
    not in the blue byway deck": the table's words, quoting the junk it was given."""
    action = Action.of("draw_byway", None, card="_")
    assert not _speaks_code("'_' is not in the blue byway deck", action)
    assert _speaks_code("the game is waiting for draw_byway", action)
    assert _speaks_code("_ is not in the blue byway deck", action)  # unquoted: not told from code
    assert _speaks_code("'draw_byway' is not allowed now", action)  # the kind, quoted, is still code


def _accepts(game: HighwaysAndByways, action: Action) -> bool:
    """Whether ``push`` takes ``action`` (the game is left exactly as it was either way)."""
    before, n = pickle.dumps(game.state), len(game.actions)
    try:
        game.push(action)
    except RulesError as exc:
        assert game.state == pickle.loads(before) and len(game.actions) == n
        assert str(exc) and "\n" not in str(exc)
        if isinstance(exc, IllegalAction):
            assert exc.rule, f"{action!r}: the refusal names no rule"
            assert not _speaks_code(str(exc), action), f"{action!r}: the refusal speaks code, not the table's words: {exc}"
        return False
    game.state = pickle.loads(before)
    del game._history[n:]  # undo without the undo rules: chance outcomes are tried too
    return True


def _candidates(game: HighwaysAndByways) -> list[Action]:
    """Every action worth trying now, legal or not, for every seat and for chance."""
    s, cat = game.state, game.cat
    events = sorted(cat.events)
    out: list[Action] = []
    for p in [*range(s.players), None]:
        out += [Action.of("choose_vehicle", p, vehicle=v) for v in cat.vehicles]
        out += [Action.of("choose_start", p, space=h) for h in cat.starts]
        out += [Action.of("keep_byway", p, card=b) for b in sorted({*s.draft_hold, *sorted(cat.byways)[:2]})]
        for c in events:
            out += [Action.of(kind, p, card=c) for kind in ("draw", "keep", "plan_discard")]
        out += [Action.of("choice", p), Action.of("end_turn", p)]
        here = s.position[s.seat]
        if here is not None:
            out += [Action.of("drive", p, path=[n]) for n in cat.neighbours[here]]
        out += [Action.of("settle_dispute", p, space=x) for x in s.turn.dispute]
        marked = s.markers[s.seat if p is None else p]
        out += [Action.of("drop_byways", p, cards=[a]) for a in marked]
        out += [Action.of("drop_byways", p, cards=[a, b]) for a, b in itertools.combinations(marked, 2)]
    out += [Action.of("draw_event", None, card=c) for c in events]
    out += [Action.of("construction", None, card=c) for c in cat.construction]
    out += [Action.of("draw_byway", None, card=b) for b in sorted(cat.byways)[::4]]
    out += [Action.of("pick_event", None, position=i) for i in range(-1, 7)]
    return out


@settings(max_examples=8, deadline=None, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_the_engine_accepts_exactly_the_actions_it_lists(seed: int, players: int) -> None:
    """Neither over-strict nor too lax: at random points of random games, every action tried (every
    kind, every seat, chance) is accepted if and only if ``legal_actions`` lists it; a refusal leaves
    the game untouched and names its rule in one line."""
    game = HighwaysAndByways(NAMES[:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if game.is_game_over():
            break
        if rng.random() < 0.02:
            legal = set(game.legal_actions())
            for action in _candidates(game):
                assert _accepts(game, action) == (action in legal), action
        game.push(random_step(game, rng, playout_choice))


JUNK_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 12), st.floats(allow_nan=False, width=16), st.text(max_size=8),
    st.sampled_from(["j01", "h11", "x02", "hb-ev-fog", "hb-by-sierra-crossing", "hb-veh-cowboy", "hb-con-a"]),
    st.lists(st.sampled_from(["j01", "h11", "j11", "hb-by-sierra-crossing", "hb-by-the-loneliest-road", ""]),
             max_size=4),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 2), max_size=2),
)
JUNK_ACTIONS = st.builds(
    lambda kind, player, params: {"kind": kind, "player": player, **params},
    st.sampled_from(["choose_vehicle", "choose_start", "keep_byway", "drop_byways", "settle_dispute", "drive",
                     "draw", "choice", "plan_discard", "end_turn", "keep", "draw_event", "draw_byway",
                     "construction", "pick_event", "honk", ""]),
    st.one_of(st.none(), st.integers(-1, 5)),
    st.dictionaries(st.sampled_from(["vehicle", "space", "card", "cards", "path", "position"]), JUNK_VALUES,
                    max_size=4),
)


@settings(max_examples=150, deadline=None, database=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400), junk=st.lists(JUNK_ACTIONS, min_size=1, max_size=5))
def test_malformed_actions_are_typed_errors_that_change_nothing(seed: int, steps: int,
                                                                junk: list[dict[str, Any]]) -> None:
    """"Every kind of bad input tried in a test gets a typed error and leaves the state unchanged":
    junk thrown at a game in progress is either a legal action or a RulesError (a ValueError) with
    one line, and then the game is exactly as before."""
    game = HighwaysAndByways(NAMES[:3], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_game_over():
            return
        game.push(random_step(game, rng, playout_choice))
    for raw in junk:
        if game.is_game_over():
            return
        try:
            action = Action.from_json(raw)
        except RulesError:
            continue
        legal = game.legal_actions()
        if not _accepts(game, action):
            assert action not in legal, f"{action!r} is listed as legal but refused"


# ------------------------------------------------------------------ byways, against a referee
def _to_my_move(game: HighwaysAndByways, p: int) -> None:
    """Play the other seats' turns (and ``p``'s planning days) with quiet events until ``p`` may drive."""
    for _ in range(200):
        s = game.state
        if s.step == "construction":
            start_round(game)
        elif s.step == "event":
            quiet_event(game)
        elif s.step == "move" and s.seat == p and game.may_drive():
            return
        else:
            finish_turn(game)
    raise AssertionError("the mover never got to drive")


@settings(max_examples=120, deadline=None, database=None)
@given(choices=st.lists(st.integers(0, 7), min_size=1, max_size=60), seed=st.integers(0, 50))
def test_a_byway_is_driven_exactly_when_the_trail_runs_its_length_in_one_go(choices: list[int], seed: int) -> None:
    """"To get credit for finishing any given Byway, you have to drive the entire length continuously
    without leaving to drive on another road. If you leave a Byway in mid-travel, you must travel the
    entire Byway's length later." A referee that knows nothing of progress markers: a byway is driven
    when the car's trail (every space it stood on, in order) holds its spaces one after the other,
    in either direction. Random drives around two crossing byways must agree with it."""
    game = driving_game(construction="hb-con-a", seed=seed)
    p = game.state.seat
    near = ["hb-by-rocky-mountain-high-road", "hb-by-sangre-de-cristo-loop", "hb-by-ohio-creek-road"]
    far = "hb-by-smoky-mountain-parkway"  # never reached: the car never gets home finished
    game.state.markers[p] = [*near, far]
    game.state.progress[p] = {}
    put(game, p, "x11")
    trail = ["x11"]
    _to_my_move(game, p)
    for choice in choices:
        options = sorted(a["path"][0] for a in game.legal_actions() if a.kind == "drive")
        if not options:
            finish_turn(game)
            _to_my_move(game, p)
            continue
        target = options[choice % len(options)]
        game.push(Action.of("drive", p, path=[target]))
        trail.append(target)
        if not game.may_drive():
            finish_turn(game)
            _to_my_move(game, p)

    def in_one_go(spaces: tuple[str, ...]) -> bool:
        n = len(spaces)
        windows = {tuple(trail[i:i + n]) for i in range(len(trail) - n + 1)}
        return spaces in windows or spaces[::-1] in windows

    expected = {b for b in near if in_one_go(CAT.byways[b].spaces)}
    assert set(game.state.driven[p]) == expected, trail
    assert set(game.state.markers[p]) == set(near) - expected | {far}
