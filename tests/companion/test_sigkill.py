"""Power-cut safety: kill -9 the session mid-game; every action it confirmed is there on restart."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from companion.session import Session
from companion.store import Store
from rules import Action
from tests.rules.toy import Toy

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, sys
from companion.session import Session
from companion.store import Store
from tests.rules.toy import Toy

store = Store(sys.argv[1])
while True:  # game after game until killed
    s = Session.new(store, "toy", ["Ana", "Ben", "Cy"], engine=Toy, seed=len(store.unfinished()))
    print(json.dumps({"game": s.id, "actions": [a.to_json() for a in s.game.actions]}), flush=True)
    while not s.over:
        out = s.apply(s.game.legal_actions()[0])
        # Printed only after apply() returned: the action was committed.
        print(json.dumps({"game": s.id, "actions": [a.to_json() for a in out.recorded]}), flush=True)
"""


def test_every_confirmed_action_survives_kill_9(tmp_path):
    db = tmp_path / "db.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db)], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    confirmed: dict[int, list[Action]] = {}
    try:
        for _ in range(40):  # several games, killed part-way through one
            line = child.stdout.readline()
            assert line, "the child stopped early"
            msg = json.loads(line)
            confirmed.setdefault(msg["game"], []).extend(Action.from_json(a) for a in msg["actions"])
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL
    with Store(db) as store:
        for game_id, actions in confirmed.items():
            stored = store.load(game_id).actions
            assert stored[:len(actions)] == actions, game_id
        # The game in progress resumes where it stopped and can be played on.
        last = max(confirmed)
        s = Session.resume(store, last, engine=Toy)
        assert s.game.actions[:len(confirmed[last])] == confirmed[last]
        while not s.over:
            s.apply(s.game.legal_actions()[0])
        s.finish()
