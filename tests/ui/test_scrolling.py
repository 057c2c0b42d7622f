"""Where the players' list must start for a name field to be in sight (no window needed)."""

from __future__ import annotations

from companion.ui.scrolling import view_top_for

# Six rows 52 high with 6 between, in a view 138 high: the players screen at 800x480 with the
# on-screen keyboard up. Distances are measured down from the top of the rows.
ROW = 58
VIEW = dict(view_height=138, room=210, padding=4)


def row(i: int) -> dict[str, float]:
    return {"top": i * ROW, "bottom": i * ROW + 52}


def test_a_row_in_sight_does_not_move_the_list():
    assert view_top_for(**row(1), view_top=50, **VIEW) == 50


def test_a_row_below_the_view_comes_up_to_its_bottom():
    assert view_top_for(**row(5), view_top=0, **VIEW) == 5 * ROW + 52 + 4 - 138


def test_a_row_above_the_view_comes_down_to_its_top():
    assert view_top_for(**row(1), view_top=150, **VIEW) == ROW - 4


def test_the_list_never_scrolls_past_its_ends():
    assert view_top_for(**row(0), view_top=100, **VIEW) == 0
    assert view_top_for(top=300, bottom=352, view_top=0, view_height=138, room=210, padding=40) == 210


def test_a_place_is_a_whole_number_of_pixels_from_the_bottom():
    # At 1920x1080 the room is 472.5: the scroll effect rounds its position, which must not move.
    top = view_top_for(top=600.3, bottom=717.3, view_top=0, view_height=310.5, room=472.5, padding=9)
    assert (472.5 - top) == round(472.5 - top)


def test_everything_fits():
    assert view_top_for(**row(3), view_top=0, view_height=400, room=-20, padding=4) == 0
