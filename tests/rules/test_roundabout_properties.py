"""Roundabout properties on random layouts from the stand-in deck (Hypothesis)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, IllegalAction, RulesError
from rules.roundabout import Deck, Roundabout, legal_placements, playout_choice, score_layout
from rules.roundabout.cards import parse_deck
from rules.roundabout.layout import frontier

#: A deck whose roadless rims close roundabouts off, so unplayable cards, discards, taking from
#: the discard pile and passing come up often (they are rare with the stand-in deck).
TIGHT = parse_deck("tight-deck", {"cards": [
    {"id": "plain", "count": 14, "edges": ["none", "gray", "gray", "none"], "arrows": 0},
    {"id": "in", "count": 4, "edges": ["entrance", "gray", "gray", "none"], "arrows": 1},
    {"id": "out", "count": 4, "edges": ["exit", "gray", "gray", "none"], "arrows": 2},
    {"id": "inout", "count": 2, "edges": ["entrance", "gray", "gray", "exit"], "arrows": 1},
]})


def random_layout(seed: int, steps: int, players: int, deck: Deck | None = None) -> Roundabout:
    """A game played at random for ``steps`` actions (cars included), stopped with a card to play
    when possible."""
    rng = random.Random(seed)
    g = Roundabout(["Ana", "Ben", "Cleo", "Dev"][:players], seed=seed, deck=deck)
    for _ in range(steps):
        if g.is_game_over():
            break
        if g.is_chance_node():
            g.push(g.sample_chance())
        else:
            g.push(playout_choice(g, g.legal_actions(), rng))
    g.resolve_chance()
    return g


@settings(max_examples=40, database=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(1, 200), players=st.integers(2, 4), tight=st.booleans())
def test_legal_placements_agrees_with_push_on_every_cell_and_rotation(
        seed: int, steps: int, players: int, tight: bool) -> None:
    g = random_layout(seed, steps, players, TIGHT if tight else None)
    if g.is_game_over():
        return
    p = g.current_player()
    assert p is not None
    if g.state.held is None:
        if not g.state.deck:
            return
        g.push(Action.of("flip", p))
        g.resolve_chance()
    card = g.state.held
    assert card is not None
    legal = set(legal_placements(g, card))
    xs = [x for x, _ in g.state.layout]
    ys = [y for _, y in g.state.layout]
    before = pickle.dumps(g.state)
    accepted = set()
    for x in range(min(xs) - 2, max(xs) + 3):
        for y in range(min(ys) - 2, max(ys) + 3):
            for rotation in (0, 90, 180, 270):
                try:
                    g.push(Action.of("place", p, card=card, x=x, y=y, rotation=rotation))
                except IllegalAction as exc:
                    assert exc.rule, f"refusal without a rule: {exc}"
                    assert pickle.loads(before) == g.state
                    continue
                accepted.add((x, y, rotation))
                g.pop()
    assert accepted == legal
    if legal:
        assert g.legal_actions() == [
            Action.of("place", p, card=card, x=x, y=y, rotation=r) for x, y, r in sorted(legal)]
    else:
        assert g.legal_actions() == [Action.of("discard", p, card=card)]


@settings(max_examples=40, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_every_completed_roundabout_is_scored_once_by_who_completed_it(seed: int, players: int) -> None:
    g = random_layout(seed, 400, players)
    lines = score_layout(dict(g.state.layout))
    by_players = [ln for p in range(players) for ln in g.breakdown(p).lines]
    assert sorted(ln.points for ln in lines) == sorted(ln.points for ln in by_players)
    assert len(lines) == len(g.state.roundabouts)
    # a completed roundabout never has a car inside it and its cells are four distinct cards
    for ln in lines:
        cells = dict(ln.details)["cells"]
        assert len(set(cells)) == 4 and all(c in g.state.layout for c in cells)


@settings(max_examples=40, database=None)
@given(seed=st.integers(0, 2**31), quarter_turns=st.integers(1, 3), dx=st.integers(-5, 5), dy=st.integers(-5, 5))
def test_score_layout_does_not_depend_on_how_the_camera_sees_the_table(
        seed: int, quarter_turns: int, dx: int, dy: int) -> None:
    layout = dict(random_layout(seed, 300, 3).state.layout)
    moved = {}
    for (x, y), (card, r) in layout.items():
        for _ in range(quarter_turns):
            x, y = -y, x  # a quarter turn clockwise with y growing downwards
        moved[(x + dx, y + dy)] = (card, (r + 90 * quarter_turns) % 360)
    assert sorted(ln.points for ln in score_layout(moved)) == sorted(ln.points for ln in score_layout(layout))


@settings(max_examples=30, database=None)
@given(seed=st.integers(0, 2**31))
def test_reserve_actions_are_exactly_the_empty_cells_beside_the_layout(seed: int) -> None:
    g = random_layout(seed, 60, 3)
    if g.is_game_over() or g.state.held is not None:
        return
    p = g.current_player()
    assert p is not None
    offered = {(a["x"], a["y"]) for a in g.legal_actions() if a.kind == "reserve"}
    if not g.car_in_hand(p):
        assert offered == set()
        return
    assert offered == set(frontier(g.state.layout, g.state.cars))
    assert all(c not in g.state.layout and c not in g.state.cars for c in offered)


def every_candidate(g: Roundabout) -> list[Action]:
    """Every action anyone might try now, legal or not (cells around the layout, every card)."""
    cards = sorted(g.deck.cards)
    if g.is_chance_node():
        return [Action.of("reveal", None, card=c) for c in cards]
    xs = [x for x, _ in g.state.layout]
    ys = [y for _, y in g.state.layout]
    cells = [(x, y) for x in range(min(xs) - 2, max(xs) + 3) for y in range(min(ys) - 2, max(ys) + 3)]
    out = []
    for p in range(len(g.players)):
        out += [Action.of("flip", p), Action.of("pass", p)]
        out += [Action.of(kind, p, card=c) for kind in ("take_discard", "discard") for c in cards]
        out += [Action.of("reserve", p, x=x, y=y) for x, y in cells]
        held = g.state.held
        if held is not None:
            out += [Action.of("place", p, card=held, x=x, y=y, rotation=r) for x, y in cells for r in (0, 90, 180, 270)]
    return out


@settings(max_examples=40, database=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 250), players=st.integers(2, 4), tight=st.booleans())
def test_legal_actions_are_exactly_the_actions_push_accepts(seed: int, steps: int, players: int, tight: bool) -> None:
    deck = TIGHT if tight else None
    g = random_layout(seed, steps, players, deck) if steps else Roundabout(["Ana", "Ben"], seed=seed, deck=deck)
    if steps:
        # stop before the chance outcome of a flip half of the time, as a player would see it
        p = g.current_player()
        if p is not None and g.state.held is None and g.state.deck and seed % 2:
            g.push(Action.of("flip", p))
    if g.is_game_over():
        return
    legal = set(g.legal_actions())
    assert len(legal) == len(g.legal_actions()), "duplicates in legal_actions()"
    before = pickle.dumps(g.state)
    accepted = set()
    for action in every_candidate(g):
        trial = pickle.loads(pickle.dumps(g)) if action.is_chance else g
        try:
            trial.push(action)
        except RulesError:
            assert pickle.loads(before) == trial.state
            continue
        accepted.add(action)
        if not action.is_chance:
            g.pop()
    assert accepted == legal


@settings(max_examples=40, database=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_games_with_unplayable_cards_still_end_and_keep_every_card(seed: int, players: int) -> None:
    """"The game ends when the last card from both the deck and the discard pile is played": with
    cards that fit nowhere the game must end all the same (see docs/records.md)."""
    rng = random.Random(seed)
    g = Roundabout(["Ana", "Ben", "Cleo", "Dev"][:players], seed=seed, deck=TIGHT)
    stock = g.inventory()
    for _ in range(2000):
        if g.is_game_over():
            break
        g.push(g.sample_chance() if g.is_chance_node() else playout_choice(g, g.legal_actions(), rng))
        assert g.inventory() == stock
    assert g.is_game_over()
    assert not g.state.deck and g.state.held is None
    if g.state.discard:
        assert legal_placements(g, g.state.discard[-1], player=None) == []
