"""A picture of the Monster Highway board as the engine knows it: roads, Ground Zero, the Home
Bases, cars and the Monster (ringed), so the players see where a Monster Card sends it even
before the camera looks. Drawn from the board catalog, so a replaced board.json draws itself.
"""

from __future__ import annotations

from typing import Any

COLOURS_BGR = {"red": (60, 60, 220), "blue": (220, 120, 50), "yellow": (40, 210, 230), "green": (70, 180, 70),
               "purple": (180, 80, 150), "orange": (40, 140, 240), "black": (40, 40, 40), "white": (240, 240, 240)}
#: Side offsets for the mask bits N=1, E=2, S=4, W=8 (rules/monsterhighway/roads.py).
SIDES = ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0)))


def monster_board(game: Any, *, cell_px: int = 56, seat_colours: list[str] | None = None) -> Any:
    import cv2
    import numpy as np

    cat = game.catalog
    s = game.state
    cols, rows = cat.columns, cat.rows
    image = np.full((rows * cell_px + 1, cols * cell_px + 1, 3), (70, 120, 80), np.uint8)
    for c in range(cols + 1):
        cv2.line(image, (c * cell_px, 0), (c * cell_px, rows * cell_px), (90, 140, 100), 1)
    for r in range(rows + 1):
        cv2.line(image, (0, r * cell_px), (cols * cell_px, r * cell_px), (90, 140, 100), 1)

    def centre(cell: int) -> tuple[int, int]:
        return (cell % cols) * cell_px + cell_px // 2, (cell // cols) * cell_px + cell_px // 2

    font = cv2.FONT_HERSHEY_SIMPLEX
    for cell, what in getattr(cat, "objects", {}).items():
        x, y = centre(cell)
        cv2.putText(image, str(what)[:8], (x - cell_px // 2 + 3, y + cell_px // 3), font, 0.32, (200, 230, 200), 1,
                    cv2.LINE_AA)
    for home in cat.home_bases:
        x, y = centre(home.cell)
        colour = COLOURS_BGR.get(home.colour, (200, 200, 200))
        cv2.rectangle(image, (x - cell_px // 2 + 2, y - cell_px // 2 + 2), (x + cell_px // 2 - 2, y + cell_px // 2 - 2),
                      colour, 3)
    for cell, (_tile, _rotation, mask) in s.board.items():
        x, y = centre(cell)
        cv2.rectangle(image, (x - cell_px // 2 + 1, y - cell_px // 2 + 1), (x + cell_px // 2 - 1, y + cell_px // 2 - 1),
                      (110, 110, 110), -1)
        for bit, (dx, dy) in SIDES:
            if mask & bit:
                cv2.line(image, (x, y), (x + dx * cell_px // 2, y + dy * cell_px // 2), (230, 230, 230), 6)
    gz = cat.cell_of(cat.ground_zero) if isinstance(cat.ground_zero, str) else cat.ground_zero
    x, y = centre(gz)
    cv2.putText(image, "GZ", (x - 12, y + 6), font, 0.5, (0, 0, 0), 2, cv2.LINE_AA)
    colours = seat_colours or []
    for seat, cell in enumerate(s.cars):
        if cell is None:
            continue
        x, y = centre(cell)
        colour = COLOURS_BGR.get(colours[seat] if seat < len(colours) else "", (255, 255, 255))
        off = (seat - 1.5) * cell_px // 6
        cv2.circle(image, (int(x + off), y + cell_px // 4), cell_px // 9, colour, -1, cv2.LINE_AA)
    if s.monster is not None:
        x, y = centre(s.monster)
        cv2.circle(image, (x, y), cell_px // 3, (40, 160, 40), -1, cv2.LINE_AA)
        cv2.circle(image, (x, y), cell_px // 2 + 4, (0, 0, 255), 4, cv2.LINE_AA)
        cv2.putText(image, "M", (x - 9, y + 8), font, 0.7, (255, 255, 255), 2, cv2.LINE_AA)
    # Column letters and row numbers, as the Monster Cards name spaces.
    margin = 22
    framed = np.full((image.shape[0] + margin, image.shape[1] + margin, 3), (30, 30, 30), np.uint8)
    framed[margin:, margin:] = image
    for c in range(cols):
        cv2.putText(framed, chr(ord("A") + c), (margin + c * cell_px + cell_px // 2 - 6, 16), font, 0.5,
                    (230, 230, 230), 1, cv2.LINE_AA)
    for r in range(rows):
        cv2.putText(framed, str(r + 1), (3, margin + r * cell_px + cell_px // 2 + 6), font, 0.5,
                    (230, 230, 230), 1, cv2.LINE_AA)
    return framed
