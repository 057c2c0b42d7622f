"""The bundled Big Sur example record: it replays to a finished game and is what the seed gives."""

from __future__ import annotations

import json
from pathlib import Path

from rules import Record
from rules.bigsur.example import example_record

EXAMPLE = Path(__file__).resolve().parents[2] / "companion" / "examples" / "bigsur.json"


def test_the_example_replays_to_a_finished_advanced_game() -> None:
    record = Record.load(EXAMPLE)
    game = record.replay()
    assert game.is_game_over() and record.options == {"landmarks": True}
    assert any(a.kind == "landmark" for a in record.actions), "the demo shows a Landmark being added"
    assert all(game.breakdown(p).total > 0 for p in range(len(game.players)))


def test_the_example_is_what_the_generator_gives() -> None:
    """If the engine or the stand-in catalog changes, regenerate: python -m rules.bigsur.example"""
    assert json.loads(EXAMPLE.read_text(encoding="utf-8")) == example_record().to_json()


def test_bench_extras_time_a_real_building_step() -> None:
    from rules.bigsur import _building_position, bench_extras

    game = _building_position()
    assert any(a.kind == "build" for a in game.legal_actions())
    for fn in bench_extras().values():
        assert fn() >= 0.0
