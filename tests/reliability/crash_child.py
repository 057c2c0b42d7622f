"""The process the crash test kills: plays game after game through the real SafeStore and Session,
and reports on stdout what it has committed.

    python -m tests.reliability.crash_child DB SEED

Lines (JSON): ``{"start": game_id, "n": actions, "digest": d}`` after opening or resuming a game;
``{"committing": n}`` just before a play is handed to the session (a kill after it lands inside
the commit, or the backup, or just after); ``{"ok": game_id, "actions": [...], "n": n, "digest": d}``
only once ``Session.apply`` has returned, i.e. every action in it is committed; ``{"recovered":
message}`` if the store found damage at start (a SIGKILL must never cause that).
"""

from __future__ import annotations

import json
import random
import sys

from companion.recovery import SafeStore
from companion.session import Session

from .games import GAMES, digest, players


def say(**msg: object) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main(db: str, seed: int) -> None:
    store = SafeStore(db)
    if store.recovered is not None:
        say(recovered=store.recovered.message())
    rng = random.Random(seed)
    picture = rng.randbytes(20_000)  # a turn's picture, so each commit writes a few pages
    while True:
        playing = store.unfinished()
        if playing:
            session = Session.resume(store, playing[0].id, app_draws_all=True)
        else:
            started = len(store.finished_games())
            game = GAMES[started % len(GAMES)]
            session = Session.new(store, game, players(2 + started % 3), seed=seed * 1000 + started,
                                  app_draws_all=True)
        say(start=session.id, n=len(session.game.actions), digest=digest(session.game))
        while not session.over:
            action = rng.choice(session.game.legal_actions())
            say(committing=len(session.game.actions))
            out = session.apply(action, jpeg=picture)
            say(ok=session.id, actions=[a.to_json() for a in out.recorded], n=len(session.game.actions),
                digest=digest(session.game))
        session.finish()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
