"""Highways & Byways: fairness of the random draws, the catalogs as replaceable data, the example
record and random games."""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules import Action, CatalogError, Record
from rules.highwaysbyways import HighwaysAndByways, load
from rules.highwaysbyways.playout import example_record, playout_choice
from rules.playout import play_random_game
from tests.rules.test_highwaysbyways import (
    driving_game,
    finish_turn,
    play_setup,
    quiet_event,
    start_round,
)

PACKAGE = Path(__file__).resolve().parents[2] / "rules" / "highwaysbyways"
EXAMPLE = Path(__file__).resolve().parents[2] / "companion" / "examples" / "highwaysbyways.json"
SAMPLES = 3000
#: Chi-square critical values at p = 0.001 by degrees of freedom (standard tables).
CRITICAL = {4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264,
            12: 32.909, 13: 34.528, 14: 36.123, 15: 37.697, 16: 39.252, 17: 40.790, 18: 42.312}


def chi_square(counts: Counter[Any], expected: dict[Any, float]) -> float:
    return sum((counts.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def outcomes_over_seeds(game: HighwaysAndByways, key: str) -> Counter[Any]:
    """The chance outcome the game's generator gives at this node, over many seeds."""
    counts: Counter[Any] = Counter()
    for seed in range(SAMPLES):
        game.seed = seed
        counts[game.sample_chance()[key]] += 1
    return counts


# ---------------------------------------------------------------------- fairness
def test_the_blind_event_pick_is_uniform_over_the_hand() -> None:
    """"Without looking, the player clockwise of you must select an Event Card from your hand":
    every hand position is equally likely (chi-square, fixed seeds, p = 0.001)."""
    game = driving_game(3)
    assert game.state.step == "event" and len(game.state.hands[game.state.seat]) == 5
    counts = outcomes_over_seeds(game, "position")
    assert set(counts) == set(range(5))
    assert chi_square(counts, {i: SAMPLES / 5 for i in range(5)}) < CRITICAL[4]


def test_the_construction_draw_is_uniform() -> None:
    """"They must draw a random Construction Card": each of the five equally likely."""
    game = play_setup(HighwaysAndByways(["Ana", "Ben"], seed=0))
    assert game.state.step == "construction"
    counts = outcomes_over_seeds(game, "card")
    assert chi_square(counts, {c: SAMPLES / 5 for c in game.cat.construction}) < CRITICAL[4]


def test_the_reshuffled_construction_cards_are_uniform() -> None:
    """"Player 1 picks up all the Construction Cards on the board, shuffles them together, and
    places a fresh card face-up": the card that was face-up last is as likely as any other."""
    game = driving_game(2)
    quiet_event(game)
    finish_turn(game)
    for _ in range(4):
        quiet_event(game)
        finish_turn(game)
        start_round(game)
        quiet_event(game)
        finish_turn(game)
    quiet_event(game)
    finish_turn(game)
    assert game.state.reshuffled and game.state.step == "construction"
    counts = outcomes_over_seeds(game, "card")
    assert chi_square(counts, {c: SAMPLES / 5 for c in game.cat.construction}) < CRITICAL[4]


def test_event_draws_follow_the_copies_left_in_the_deck() -> None:
    """A drawn event card is any card of the deck alike: designs weigh by their copies left."""
    game = driving_game(2)
    quiet_event(game)
    game.push(Action.of("end_turn", game.state.seat))
    deck = dict(game.state.event_deck)
    assert len(deck) > 10 and len(set(deck.values())) > 1
    counts = outcomes_over_seeds(game, "card")
    total = sum(deck.values())
    assert set(counts) <= set(deck)
    assert chi_square(counts, {c: SAMPLES * n / total for c, n in deck.items()}) < CRITICAL[len(deck) - 1]


# ---------------------------------------------------------------------- catalogs
def copy_catalogs(tmp_path: Path) -> Path:
    for name in ("map.json", "byways.json", "events.json", "vehicles.json", "construction.json"):
        shutil.copy(PACKAGE / name, tmp_path / name)
    return tmp_path


def edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_every_catalog_is_marked_stand_in() -> None:
    """Where data is missing, stand-in files say so in their header."""
    for name in ("map.json", "byways.json", "events.json", "vehicles.json", "construction.json"):
        data = json.loads((PACKAGE / name).read_text())
        assert data["game"] == "highwaysbyways" and data["stand_in"].startswith("Stand-in")


def test_the_stand_in_board_has_what_the_drafts_need() -> None:
    """Red and blue decks for four players: 4 x 2 red and 4 x 10 blue; five construction cards
    with road letters; every byway follows paths over byway spaces."""
    cat = load()
    assert len(cat.deck("red")) >= 8 and len(cat.deck("blue")) >= 40
    assert sorted(c.letter for c in cat.construction.values()) == ["A", "B", "C", "D", "E"]
    kinds = Counter(s.kind for s in cat.spaces.values())
    assert set(kinds) == {"highway", "red", "blue", "intersection"}
    for bw in cat.byways.values():
        for a, b in zip(bw.spaces, bw.spaces[1:], strict=False):
            assert b in cat.neighbours[a]
    intersections = [s for s, sp in cat.spaces.items() if sp.kind == "intersection"]
    for x in intersections:
        colors = {b.color for b in cat.byways.values() if x in b.spaces}
        assert colors == {"red", "blue"}, "an intersection is where a red and a blue byway cross"


@pytest.mark.parametrize(("filename", "change", "words"), [
    ("map.json", lambda d: d["paths"].append(["j01", "atlantis"]), "paths["),
    ("map.json", lambda d: d["spaces"][0].update(kind="river"), "field 'kind'"),
    ("map.json", lambda d: [s.pop("start", None) for s in d["spaces"] if s["region"] == "Texas"], "Start Spaces"),
    ("map.json", lambda d: d["spaces"][0].update(roads=[]), "road letter"),
    ("byways.json", lambda d: d["byways"][0].update(spaces=["r02a", "r02d"]), "no path joins"),
    ("byways.json", lambda d: d["byways"][0].update(spaces=["j01", "d04a"]), "not a red byway space"),
    ("byways.json", lambda d: d.update(byways=[b for b in d["byways"] if b["color"] == "red"] + d["byways"][1:30:2]),
     "blue deck needs at least 40"),
    ("events.json", lambda d: d["cards"][0].update(effect="tornado"), "field 'effect'"),
    ("events.json", lambda d: d["cards"][0].update(direction="up"), "field 'direction'"),
    ("events.json", lambda d: d["cards"][0].update(count=0), "field 'count'"),
    ("vehicles.json", lambda d: d["vehicles"][0].update(immune=["boredom"]), "field 'immune'"),
    ("construction.json", lambda d: d["cards"][0].update(letter="Z"), "field 'letter'"),
    ("construction.json", lambda d: d.update(slots=4), "field 'slots'"),
    ("events.json", lambda d: d.pop("stand_in"), "stand_in"),
])
def test_a_broken_catalog_names_the_file_and_the_field(tmp_path: Path, filename: str, change: Any,
                                                       words: str) -> None:
    """Catalogs are validated on load; the error names file, entry and field."""
    folder = copy_catalogs(tmp_path)
    edit(folder / filename, change)
    with pytest.raises(CatalogError) as info:
        load(folder)
    assert filename in str(info.value) and words in str(info.value)


def test_an_owner_replaces_a_catalog_without_code_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """$COMPANION_CATALOGS/highwaysbyways/ overrides the packaged stand-in file."""
    folder = tmp_path / "highwaysbyways"
    folder.mkdir()
    shutil.copy(PACKAGE / "vehicles.json", folder / "vehicles.json")
    edit(folder / "vehicles.json", lambda d: d["vehicles"][0].update(name="Lone Ranger"))
    monkeypatch.setenv("COMPANION_CATALOGS", str(tmp_path))
    assert load().vehicles["hb-veh-cowboy"].name == "Lone Ranger"
    game = HighwaysAndByways(["Ana", "Ben"])
    assert game.cat.vehicles["hb-veh-cowboy"].name == "Lone Ranger"
    monkeypatch.delenv("COMPANION_CATALOGS")
    assert load().vehicles["hb-veh-cowboy"].name == "Cowboy"


# ---------------------------------------------------------------------- records and random games
def test_the_example_record_replays_to_a_finished_game() -> None:
    """companion/examples/highwaysbyways.json is a whole game made by the engine; it replays."""
    record = Record.load(EXAMPLE)
    game = record.replay()
    assert game.is_game_over()
    standings = game.standings()
    assert [s.finished for s in standings] == [True, True, False]
    for s in standings:
        assert s.score == game.breakdown(s.player).total
    assert record.to_json() == example_record().to_json(), "regenerate it: the rules changed"


def test_a_record_round_trips_through_json() -> None:
    """Replaying a record reproduces the game exactly."""
    game = HighwaysAndByways(["Ana", "Ben"], seed=5)
    rng = random.Random(5)
    while game.state.round < 4:
        game.push(game.sample_chance() if game.is_chance_node()
                  else playout_choice(game, game.legal_actions(), rng))
    again = Record.loads(game.record().dumps()).replay()
    assert again.state == game.state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_rank_everyone(players: int) -> None:
    """A random game must terminate: the playout chooser heads for byways and home."""
    for seed in range(3):
        game = play_random_game(HighwaysAndByways(["Ana", "Ben", "Cleo", "Dev"][:players], seed=seed), seed,
                                max_steps=5000)
        assert len(game.state.finished) == players - 1
        assert sorted(s.player for s in game.standings()) == list(range(players))


def test_the_playout_chooser_only_returns_legal_actions() -> None:
    """playout_choice must always pick one of the legal actions it was given."""
    game = HighwaysAndByways(["Ana", "Ben", "Cleo"], seed=3)
    rng = random.Random(3)
    while not game.is_game_over():
        if game.is_chance_node():
            game.push(game.sample_chance())
            continue
        legal = game.legal_actions()
        pick = playout_choice(game, legal, rng)
        assert pick in legal
        game.push(pick)


def test_every_action_of_the_example_reads_as_a_sentence() -> None:
    """The screen and the log show each action in the game's words, not as raw ids."""
    record = Record.load(EXAMPLE)
    game = record.start()
    seen: dict[str, str] = {}
    for action in record.actions:
        text = game.describe(action)
        assert text and "\n" not in text
        seen.setdefault(action.kind, text)
        game.push(action)
    assert seen["choose_vehicle"].endswith(game.cat.vehicles[record.actions[0]["vehicle"]].name)
    assert "card from the left of" in seen["pick_event"]
    assert not any("hb-" in text for text in seen.values()), seen
    assert game.describe(Action.of("keep", 0, card="no-such-card"))  # never raises
