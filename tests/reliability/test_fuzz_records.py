"""Fuzzing the game-record loader: any text or JSON gives a Record or a RecordError, never another
exception and never a partial load (issue 8). Quick in CI; the long run is `./dev.sh long`."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Record, RecordError, RulesError

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=20,
)
record_like = st.fixed_dictionaries(
    {"format": st.sampled_from(["game-night-companion/record", "x"]), "version": st.sampled_from([1, 2, "1"]),
     "game": st.sampled_from(["bigsur", "roundabout", "monsterhighway", "highwaysbyways", "highwayman", "chess", 3]),
     "players": st.lists(st.text(max_size=5), max_size=5) | json_values,
     "seed": st.integers() | json_values,
     "actions": st.lists(st.dictionaries(st.sampled_from(["kind", "player", "card", "x"]), json_values,
                                         max_size=4), max_size=6) | json_values},
    optional={"options": json_values, "meta": json_values},
)


def load_or_error(text: str) -> Record | None:
    try:
        return Record.loads(text)
    except RecordError:
        return None


@settings(max_examples=3000)
@given(st.text(max_size=200))
def test_any_text_is_a_record_or_a_record_error(text: str) -> None:
    load_or_error(text)


@settings(max_examples=400)  # each example is costly to draw (nested JSON): the long run has 100,000
@given(record_like)
def test_record_shaped_json_is_a_record_or_a_record_error(data: dict[str, object]) -> None:
    record = load_or_error(json.dumps(data))
    if record is not None:
        # A record that loads is complete: every field typed as documented.
        assert isinstance(record.game, str) and isinstance(record.seed, int)
        assert all(isinstance(p, str) for p in record.players)
        # Replaying it either works or fails with our own typed errors.
        with contextlib.suppress(RulesError):
            record.replay()


@pytest.mark.slow
@settings(max_examples=100_000)
@given(record_like)
def test_record_loader_long_fuzz(data: dict[str, object]) -> None:
    record = load_or_error(json.dumps(data))
    if record is not None:
        with contextlib.suppress(RulesError):
            record.replay()
