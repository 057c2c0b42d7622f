"""Game records: one versioned JSON format for every game (documented in docs/records.md).

A record holds the game id, options, players, seed and every action in order, chance outcomes
included. Replaying it reproduces the game exactly; it is to these games what PGN is to chess.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import Action
from .errors import RecordError, ReplayError, RulesError
from .game import Game

FORMAT = "game-night-companion/record"
VERSION = 1
DISTRIBUTION = "game-night-companion"


@functools.cache
def engine_version() -> str | None:
    """The version of the program whose engines play the games (None when it is not installed,
    e.g. run from a bare checkout)."""
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


@dataclass
class Record:
    game: str
    players: list[str]
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    #: The version of the program that played the game (None: not known, e.g. an older record).
    #: Catalogs and engines change between versions, so a record that no longer replays can say
    #: which version it came from.
    engine: str | None = field(default_factory=engine_version)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            **({"engine": self.engine} if self.engine is not None else {}),
            "game": self.game,
            "players": list(self.players),
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [a.to_json() for a in self.actions],
        }
        if self.meta:
            out["meta"] = dict(self.meta)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, Mapping):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a game record: 'format' must be {FORMAT!r}")
        version = data.get("version")
        if version != VERSION:
            raise RecordError(f"record version {version!r} is not supported (this program reads {VERSION})")
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError("'game' must be a string")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("'players' must be a list of names")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("'seed' must be a whole number")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be a JSON object")
        raw_actions = data.get("actions")
        if not isinstance(raw_actions, list):
            raise RecordError("'actions' must be a list")
        actions = []
        for i, raw in enumerate(raw_actions):
            try:
                actions.append(Action.from_json(raw))
            except RulesError as exc:
                raise RecordError(f"action {i}: {exc}") from None
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("'meta' must be a JSON object")
        engine = data.get("engine")
        if engine is not None and (not isinstance(engine, str) or not 0 < len(engine) <= 64):
            raise RecordError("'engine' must be the version string of the program that played the game")
        return cls(game, players, seed, options, actions, meta, engine)

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read {path}: {exc}") from None
        return cls.loads(text)

    def start(self) -> Game[Any]:
        """A new game with this record's setup and no actions applied."""
        from .registry import game_class

        try:
            cls = game_class(self.game)
        except KeyError as exc:
            raise RecordError(str(exc.args[0])) from None
        return cls(self.players, seed=self.seed, options=self.options)

    def replay(self) -> Game[Any]:
        """The game after every action; :class:`ReplayError` names the first illegal one."""
        game = self.start()
        for index, action in enumerate(self.actions):
            try:
                game.push(action)
            except RulesError as exc:
                who = None
                if action.player is not None and 0 <= action.player < len(game.players):
                    who = game.players[action.player]
                elif action.player is not None:
                    who = f"seat {action.player}"
                raise ReplayError(index, who, str(exc)) from None
        return game
