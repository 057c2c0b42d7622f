"""Hypothesis against Monster Highway's inputs: whatever an action or a catalog file holds, the engine
answers with a typed error (a RulesError, which is a ValueError) or accepts it; a refused action
leaves the game exactly as it was."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Action, CatalogError, RulesError
from rules.monsterhighway import MonsterHighway, data, playout_choice
from rules.playout import random_step

from .test_monsterhighway_helpers import NAMES, snapshot

KINDS = ["choose_home_base", "place_tile", "exchange_tile", "skip", "roll_movement_die", "move_car",
         "draw_monster_card", "move_monster", "swap_tiles", "remove_tile", "dead_end", "reroll",
         "monster_buster", "end_turn", "tile_draw", "tile_reshuffle", "specialty_dice", "movement_die",
         "monster_card", "monster_reshuffle", "fly"]
FIELDS = ["tile", "at", "rotation", "to", "dice", "faces", "rotations", "seat", "card", "value", "corner"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 400), st.floats(allow_nan=False, width=32),
                    st.sampled_from(["E4", "A1", "E5", "Z9", "", "road-straight", "home-base-nw", "swap",
                                     "monster-01", "NW", "road", "car", "monster"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


def position(seed: int, steps: int) -> MonsterHighway:
    g = MonsterHighway(NAMES[:2 + seed % 3], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_game_over():
            break
        g.push(random_step(g, rng, playout_choice))
    return g


@settings(max_examples=150, database=None)
@given(seed=st.integers(0, 50), steps=st.integers(0, 120), kind=st.sampled_from(KINDS),
       player=st.one_of(st.none(), st.integers(-1, 4)),
       fields=st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=4))
def test_any_action_is_accepted_or_refused_with_a_typed_error(seed: int, steps: int, kind: str,
                                                              player: int | None,
                                                              fields: dict[str, Any]) -> None:
    g = position(seed, steps)
    before = snapshot(g)
    try:
        action = Action.of(kind, player, **fields)
        g.push(action)
    except RulesError as exc:
        assert str(exc) and "\n" not in str(exc)
        assert snapshot(g) == before
    else:
        assert g.inventory() == position(seed, 0).inventory()


HERE = Path(data.__file__).parent
FILES = ["board.json", "tiles.json", "monsters.json", "dice.json"]


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*prefix, i))
    return out


@settings(max_examples=150, database=None)
@given(name=st.sampled_from(FILES), pick=st.integers(0, 10_000), value=VALUES, drop=st.booleans())
def test_any_catalog_edit_loads_or_is_a_catalog_error(tmp_path_factory: Any, name: str, pick: int,
                                                      value: Any, drop: bool) -> None:
    folder = tmp_path_factory.mktemp("catalogs")
    for f in FILES:
        shutil.copy(HERE / f, folder / f)
    content = json.loads((HERE / name).read_text(encoding="utf-8"))
    where = paths(content)[1:]
    target = where[pick % len(where)]
    parent = content
    for step in target[:-1]:
        parent = parent[step]
    if drop:
        del parent[target[-1]]
    else:
        parent[target[-1]] = value
    (folder / name).write_text(json.dumps(content), encoding="utf-8")
    try:
        cat = data.load(folder)
    except CatalogError as exc:
        assert any(f in str(exc) for f in FILES)  # a bad cross-reference names the file that holds it
    else:
        MonsterHighway(["Ana", "Ben"], catalog=cat).legal_actions()
