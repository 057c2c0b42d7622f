"""Arranging a Big Sur table for a rule test: start a game, resolve the setup, then move chosen
cards from the unseen pile into hands, discard piles and tableaus (nothing is created or lost)."""

from __future__ import annotations

from collections.abc import Iterable

from rules import Action
from rules.bigsur import BigSur, HighwayCard, default_catalog

CAT = default_catalog()
NAMES = ["Ana", "Ben", "Cleo", "Dev"]


def started(players: int = 2, *, landmarks: bool = False, seed: int = 0, choose_sides: bool = True) -> BigSur:
    """A game after setup; every seat has chosen its Starter side (the first material)."""
    game = BigSur(NAMES[:players], seed=seed, options={"landmarks": landmarks})
    game.resolve_chance()
    if choose_sides:
        for seat in game.state.seats:
            assert seat.starter is not None
            seat.starter_side = CAT.starters[seat.starter].materials[0]
    return game


def cards(game: BigSur, *, miles: int | None = None, terrains: Iterable[str] | None = None,
          exclude: Iterable[str] = (), **fields: object) -> list[HighwayCard]:
    """Cards still unseen in ``game`` (free to arrange) with these properties (terrains: exactly
    these), in id order."""
    want = tuple(terrains) if terrains is not None else None
    skip = set(exclude)
    free = set(game.state.unseen)
    return [c for c in CAT.cards.values()
            if c.id in free and c.id not in skip and (miles is None or c.miles == miles)
            and (want is None or c.terrains == want) and all(getattr(c, k) == v for k, v in fields.items())]


def material_cards(game: BigSur, material: str, n: int, exclude: Iterable[str] = ()) -> list[str]:
    found = [c.id for c in cards(game, material=material, exclude=exclude)]
    assert len(found) >= n
    return found[:n]


def take(game: BigSur, card: str) -> None:
    """Remove ``card`` from the unseen pile or the row, so it can be put somewhere else."""
    s = game.state
    if card in s.unseen:
        s.unseen.remove(card)
        s.hidden = min(s.hidden, len(s.unseen) - (s.top is not None))
    elif card in s.row:
        s.row.remove(card)
    else:
        raise AssertionError(f"{card} is not free to arrange")


def put(game: BigSur, seat: int, *, highways: Iterable[str] = (), materials: Iterable[str] = (),
        discard: Iterable[str] = (), tableau: Iterable[str] = ()) -> None:
    st = game.state.seats[seat]
    for zone, ids in ((st.highways, highways), (st.materials, materials), (st.discard, discard), (st.tableau, tableau)):
        for card in ids:
            take(game, card)
            zone.append(card)


def pass_turn(game: BigSur) -> None:
    """The player to act ends a turn without drawing (arranged), and the refills are dealt."""
    from rules import Action

    game.state.drawn = 2
    game.push(Action.of("end_turn", game.state.turn))
    game.resolve_chance()


def drawn(game: BigSur) -> None:
    """Skip the current player's draws (as if both were taken) to reach the building step."""
    game.state.drawn = 2


def build(game: BigSur, card: str, pay: list[str], end: str = "right") -> None:
    game.push(Action.of("build", game.state.turn, card=card, end=end, pay=pay))


def snapshot(game: BigSur) -> object:
    """What must not change when an action is refused: the state (compared by value) and history."""
    import copy

    return copy.deepcopy(game.state), list(game.actions)
