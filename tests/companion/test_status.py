"""The game screen's status lines (companion.session.status)."""

import pytest

from companion.session.demo import example_record
from companion.session.status import status_lines
from rules import registry


@pytest.mark.skipif("highwayman" not in registry.available(), reason="no Highwayman engine")
def test_highwayman_status_leads_with_the_stock():
    """The stock's count comes first on its line: at 800x480 the end of the line (the count,
    after every player's hand) was cut off."""
    rec = example_record("highwayman")
    game = registry.game_class("highwayman")(rec.players, seed=rec.seed, options=rec.options)
    line = next(ln for ln in status_lines(game) if "In hand" in ln)
    assert line.startswith(f"Stock: {sum(game.state.stock.values())}. In hand: ")
    for name, hand in zip(game.players, game.state.hands, strict=True):
        assert f"{name} {len(hand)}" in line
