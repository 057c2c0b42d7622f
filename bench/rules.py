"""Rules engines: full random 4-player games per second on one core, per game, plus each game's
own hot paths (``bench_extras()`` in the game's package: name -> callable returning milliseconds).

    python bench/rules.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import registry
from rules.playout import play_random_game


def games_per_second(name: str, players: int, seconds: float) -> tuple[float, int, float]:
    cls = registry.game_class(name)
    names = ["Ana", "Ben", "Cleo", "Dev"][:players]
    done, actions, start, seed = 0, 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        game = play_random_game(cls(names, seed=seed), seed)
        actions += len(game.actions)
        done += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return done / elapsed, done, actions / max(done, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    print(f"# bench/rules.py on {platform.machine()} Python {platform.python_version()}, one core")
    for name in registry.available():
        cls = registry.game_class(name)
        players = min(4, cls.max_players)
        rate, n, avg_actions = games_per_second(name, players, args.seconds)
        print(f"{name:16} {players} players: {rate:8.1f} random games/s ({n} games, {avg_actions:.0f} actions each)")
        module = importlib.import_module(registry.GAMES[name][0])
        extras = getattr(module, "bench_extras", None)
        if extras is not None:
            for label, fn in extras().items():
                samples = [fn() for _ in range(200)]
                samples.sort()
                print(f"{'':16} {label}: median {statistics.median(samples):.3f} ms, "
                      f"p95 {samples[int(0.95 * len(samples)) - 1]:.3f} ms, max {samples[-1]:.3f} ms (200 runs)")


if __name__ == "__main__":
    main()
