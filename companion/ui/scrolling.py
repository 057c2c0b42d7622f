"""Scrolling a ScrollView from code so that the place it was scrolled to holds.

Kivy's ScrollView moves its content through a scroll effect (DampedScrollEffect) that keeps a
position, a speed and an overscroll of its own, and writes ``scroll_y`` on every frame while a flick
or a spring-back runs (and once more when it rounds a half-pixel position to a whole one). Setting
``scroll_y`` alone, as ``ScrollView.scroll_to`` does, lasts only until the effect's next step puts
the content back where the effect still thinks it is: a name field tapped while the list was
springing back, or at a window size where a row is not a whole number of pixels, was scrolled into
sight and then moved behind the on-screen keyboard. :func:`hold_at` stops the effect at the new
place; :func:`bring_into_view` works out that place from where the widget lies in the content.
"""

from __future__ import annotations

from typing import Any


def view_top_for(*, top: float, bottom: float, view_top: float, view_height: float, room: float,
                 padding: float) -> float:
    """How far below the top of the content the view must start to show a widget lying from
    ``top`` to ``bottom`` (both measured down from the top of the content), moving as little as it
    can from ``view_top``; ``room`` is how much taller the content is than the view.

    A whole number of pixels from the content's bottom, so the scroll effect has nothing to round.
    """
    if room <= 0:
        return 0.0
    if top - padding < view_top or bottom - top + 2 * padding > view_height:
        view_top = top - padding  # above the view (or taller than it): its top at the view's top
    elif bottom + padding > view_top + view_height:
        view_top = bottom + padding - view_height
    view_top = min(max(view_top, 0.0), room)
    return float(room - round(room - view_top))


def layout_pending(widget: Any) -> bool:
    """A layout from ``widget`` up to the window has yet to place its children: positions read
    now would be the old ones."""
    while widget is not None and widget is not widget.parent:
        trigger = getattr(widget, "_trigger_layout", None)
        if trigger is not None and trigger.is_triggered:
            return True
        widget = widget.parent
    return False


def hold_at(scroll: Any, scroll_y: float) -> None:
    """Scroll to ``scroll_y`` and stop the scroll effect there (see the module's docstring)."""
    effect = scroll.effect_y
    if effect is not None:
        effect.velocity = 0
        effect.overscroll = 0
    scroll.scroll_y = scroll_y
    if effect is not None and scroll.children:
        # The effect's position for this scroll_y, as ScrollView itself sets it when its bounds change.
        effect.value = effect.max * scroll_y


def bring_into_view(scroll: Any, widget: Any, *, padding: float = 0) -> bool:
    """Scroll so that ``widget`` (inside ``scroll``'s content) is wholly in sight, or as much of it
    as fits, top first. False when a layout is still pending: call again on the next frame."""
    if not scroll.children or layout_pending(widget) or layout_pending(scroll):
        return False
    if scroll.effect_y is not None and scroll.effect_y.is_manual:
        return True  # a finger is moving the list: it goes where the finger takes it
    content = scroll.children[0]
    # The widget's place in the content's own coordinates: the ScrollView's translation is the same
    # on the way to the window and back, so it cancels even while it waits to be updated.
    _, bottom_y = content.to_widget(*widget.to_window(widget.x, widget.y))
    _, top_y = content.to_widget(*widget.to_window(widget.x, widget.top))
    room = content.height - scroll.height
    if room <= 0:
        hold_at(scroll, 1.0)
        return True
    view_top = view_top_for(top=content.top - top_y, bottom=content.top - bottom_y,
                            view_top=(1.0 - scroll.scroll_y) * room, view_height=scroll.height,
                            room=room, padding=padding)
    hold_at(scroll, 1.0 - view_top / room)
    return True
