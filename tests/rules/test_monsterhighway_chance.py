"""Monster Highway's random draws are fair: chi-square statistics over many seeded draws, computed here
with the standard library and compared with the critical value at p = 0.001 for their degrees of
freedom. Everything runs at fixed seeds, so the outcome is the same on every run."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping

from rules.monsterhighway import MonsterHighway

from .test_monsterhighway_helpers import act, roll, started

#: Upper 0.1 % points of the chi-square distribution, by degrees of freedom.
CRITICAL_0_001 = {3: 16.266, 5: 20.515, 8: 26.124, 29: 58.301}


def chi_square(observed: Mapping[Hashable, int], expected: Mapping[Hashable, float]) -> float:
    assert set(observed) <= set(expected), f"outcomes never expected: {set(observed) - set(expected)}"
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def sample(g: MonsterHighway, n: int) -> Counter[Hashable]:
    """``n`` outcomes of the chance node ``g`` stands at, one per seed (the generator is seeded by the
    game's seed and position, so changing the seed gives an independent draw)."""
    seen: Counter[Hashable] = Counter()
    for seed in range(n):
        g.seed = seed
        o = g.sample_chance()
        seen[tuple(sorted((k, str(v)) for k, v in o.to_json().items() if k != "player"))] += 1
    return seen


def key(kind: str, **fields: object) -> Hashable:
    return tuple(sorted([("kind", kind)] + [(k, str(v)) for k, v in fields.items()]))


def test_specialty_dice_rolls_are_fair() -> None:
    """Two Specialty Dice with Road, Car and Monster faces (stand-in: two of each per die): all nine
    ordered results equally likely."""
    g = started()
    n = 1800
    seen = sample(g, n)
    faces = ["road", "car", "monster"]
    expected = {key("specialty_dice", dice=[0, 1], faces=[a, b]): n / 9 for a in faces for b in faces}
    stat = chi_square(seen, expected)
    assert stat < CRITICAL_0_001[8], f"chi-square {stat:.1f} with 8 degrees of freedom"
    # The same statistic does notice a loaded die: against "Road on half the faces" it is far off.
    loaded = {k: n * (0.5 if "'road', 'road'" in str(k) else 0.5 / 8) for k in expected}
    assert chi_square(seen, loaded) > CRITICAL_0_001[8]


def test_car_movement_die_is_fair() -> None:
    """The number you roll on the Car Movement Die (stand-in: 1 to 6)."""
    g = started()
    roll(g, "car", "monster")
    g.push(act("roll_movement_die", 0))
    n = 1200
    seen = sample(g, n)
    stat = chi_square(seen, {key("movement_die", value=v): n / 6 for v in range(1, 7)})
    assert stat < CRITICAL_0_001[5], f"chi-square {stat:.1f} with 5 degrees of freedom"


def test_monster_cards_come_up_uniformly() -> None:
    """A Monster Card is drawn from the top of the deck: each of the 30 equally likely first."""
    g = started()
    roll(g, "monster", "road")
    g.push(act("skip", 0))
    g.push(act("draw_monster_card", 0))
    n = 3000
    seen = sample(g, n)
    stat = chi_square(seen, {key("monster_card", card=c.id): n / 30 for c in g.catalog.monster_cards})
    assert stat < CRITICAL_0_001[29], f"chi-square {stat:.1f} with 29 degrees of freedom"


def test_tile_draws_follow_the_mix_in_the_pile() -> None:
    """Every player is dealt 5 Road tiles: the first one is a Straight, Curve, T or Crossroads as often as
    the 14/16/10/4 stand-in mix says."""
    g = MonsterHighway(["Ana", "Ben"])
    g.push(act("choose_home_base", 0, corner="NW"))
    g.push(act("choose_home_base", 1, corner="SE"))
    n = 2200
    seen = sample(g, n)
    mix = {"road-straight": 14, "road-curve": 16, "road-tee": 10, "road-cross": 4}
    stat = chi_square(seen, {key("tile_draw", seat=0, tile=t): n * c / 44 for t, c in mix.items()})
    assert stat < CRITICAL_0_001[3], f"chi-square {stat:.1f} with 3 degrees of freedom"


def draws_before_the_roll(g: MonsterHighway) -> None:
    while g.is_chance_node() and g.legal_actions()[0].kind != "specialty_dice":
        g.push(g.sample_chance())


def test_monster_deck_shows_every_card_once_before_it_is_reshuffled() -> None:
    """After the last Monster Card is drawn, shuffle the discard pile and use as the new draw pile."""
    g = started(seed=5)
    drawn = []
    for _ in range(30):
        draws_before_the_roll(g)
        seat = g.state.turn
        roll(g, "monster", "road")
        g.push(act("skip", seat))
        g.push(act("draw_monster_card", seat))
        outcome = g.sample_chance()
        g.push(outcome)
        drawn.append(outcome["card"])
        if g.state.steps == ["monster_wild"]:
            g.push(next(a for a in g.legal_actions() if a.kind == "move_monster"))
        g.push(act("end_turn", seat))
    assert sorted(drawn) == sorted(c.id for c in g.catalog.monster_cards)
    draws_before_the_roll(g)
    seat = g.state.turn
    roll(g, "monster", "road")
    g.push(act("skip", seat))
    g.push(act("draw_monster_card", seat))
    assert [a.kind for a in g.legal_actions()] == ["monster_reshuffle"]
