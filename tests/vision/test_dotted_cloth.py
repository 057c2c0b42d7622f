"""A cloth with few dots: its threshold is set by the plain ground between them, so it passed for
a plain cloth and every dot was something lying on it (vision.detect._dotted, DOTTED)."""

import cv2
import numpy as np

from vision import detect

GROUND, DOT = (205, 178, 196), (70, 185, 85)  # BGR: a lavender cloth dotted green


def cloth(dots: bool, seed: int = 0) -> np.ndarray:
    """A 1000 x 700 mm view at 1 px/mm of a lavender cloth, with (`dots`) green dots 12-28 mm
    across strewn over about an eighth of it, a little sensor noise and blur."""
    rng = np.random.default_rng(seed)
    img = np.empty((700, 1000, 3), np.float32)
    img[:] = GROUND
    if dots:
        for _ in range(270):
            cv2.circle(img, (int(rng.uniform(0, 1000)), int(rng.uniform(0, 700))), int(rng.uniform(6, 14)),
                       DOT, -1, lineType=cv2.LINE_AA)
    img += rng.normal(0, 1.5, img.shape).astype(np.float32)
    return cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 1.0)


CARDS = [(150, 200), (420, 330), (700, 150)]  # top-left corners (mm) of three 63 x 88 mm cards


def with_cards(img: np.ndarray) -> np.ndarray:
    out = img.copy()
    for x, y in CARDS:
        out[y:y + 88, x:x + 63] = (120, 60, 30)  # a dark blue card ...
        out[y + 55:y + 75, x + 5:x + 58] = (235, 240, 240)  # ... with a pale text band
    return out


def card_mask() -> np.ndarray:
    m = np.zeros((700, 1000), bool)
    for x, y in CARDS:
        m[y:y + 88, x:x + 63] = True
    return m


def test_a_cloth_with_few_dots_is_read_as_patterned_and_its_dots_as_cloth():
    view = with_cards(cloth(dots=True))
    mask, _, patterned, _, _ = detect._foreground(view, 40.0, 1.0, 1500.0, None)
    assert patterned
    cards = card_mask()
    # the cards are found whole; of the cloth around them, next to nothing
    assert np.count_nonzero(mask[cards]) > 0.95 * np.count_nonzero(cards)
    away = ~cv2.dilate(cards.astype(np.uint8), np.ones((21, 21), np.uint8)).astype(bool)
    assert np.count_nonzero(mask[away]) < 0.01 * np.count_nonzero(away)


def test_without_the_dots_rule_the_cloth_passes_for_plain(monkeypatch):
    """What the rule is for: the threshold the cloth's own spread sets is the plain ground's, and
    every dot is then foreground."""
    monkeypatch.setattr(detect, "DOTTED", 1.0)
    view = with_cards(cloth(dots=True))
    mask, _, patterned, _, _ = detect._foreground(view, 40.0, 1.0, 1500.0, None)
    assert not patterned
    away = ~cv2.dilate(card_mask().astype(np.uint8), np.ones((21, 21), np.uint8)).astype(bool)
    assert np.count_nonzero(mask[away]) > 0.05 * np.count_nonzero(away)


def test_a_plain_cloth_with_cards_and_pieces_stays_plain():
    """Cards, and cars and a Monster strewn among them, are no dots: too few of the table's
    blocks hold such a fleck."""
    view = with_cards(cloth(dots=False))
    for k, (x, y) in enumerate([(80, 80), (300, 600), (520, 120), (880, 420), (600, 560), (250, 420), (860, 620)]):
        cv2.rectangle(view, (x, y), (x + 22, y + 11), ((40, 40, 200), (200, 60, 40), (40, 200, 220))[k % 3], -1)
    view[300:340, 820:860] = (130, 40, 140)  # the Monster
    mask, _, patterned, _, _ = detect._foreground(view, 40.0, 1.0, 1500.0, None)
    assert not patterned
    assert np.count_nonzero(mask[card_mask()]) > 0.95 * np.count_nonzero(card_mask())
    assert mask[305:335, 825:855].all() and mask[83:89, 83:99].all()
