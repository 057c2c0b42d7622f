"""What looking for pieces on the tiles costs a Monster Highway scan.

    OPENBLAS_NUM_THREADS=1 taskset -c 1 .venv/bin/python bench/pieces.py [--runs 20]

The bench's Monster Highway board (`vision.synth.random_scene`, difficulty 0: an ideal camera;
proxy pack; 2304x1296) with its cars and the Monster on it, scanned with a warm calibration: alternately as the scanner does (each counted
or unsure tile's face compared with its crop, `vision.occlusion.pieces_on`) and with that step
left out. Prints the median and spread of each, and the cars found each way.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20, help="scans of each kind (default 20)")
    ap.add_argument("--seed", type=int, default=2, help="the board's seed (default 2)")
    args = ap.parse_args()

    import cv2
    import numpy as np

    import vision.scan  # noqa: F401  (the module: the package exports its function as vision.scan)
    from vision.calibration import calibrate
    from vision.identify import index_for_pack
    from vision.pack import proxy_pack
    from vision.synth import random_scene, render_scene

    cv2.setNumThreads(1)
    scan_module = sys.modules["vision.scan"]
    pack = proxy_pack("monsterhighway")
    index = index_for_pack(pack)
    # the bench's own board (a road network grown from Ground Zero, cars and the Monster on it) at
    # difficulty 0: an ideal camera, so the time is the pipeline's, not that of hard pictures
    scene = random_scene("monsterhighway", pack, np.random.default_rng(args.seed), 0.0)
    frame, truth = render_scene(scene, seed=args.seed)
    cars = [p for p in truth.pieces if p.kind == "car"]
    cal = calibrate(frame)
    real = scan_module.pieces_on

    def none(*_a: object) -> list[dict[str, object]]:
        return []

    times: dict[str, list[float]] = {"with pieces on tiles": [], "without": []}
    found: dict[str, int] = {}
    scan_module.scan(frame, "monsterhighway", pack=pack, index=index, calibration=cal)  # warm
    for _ in range(args.runs):
        for name, fn in (("with pieces on tiles", real), ("without", none)):
            scan_module.pieces_on = fn
            t = time.perf_counter()
            obs = scan_module.scan(frame, "monsterhighway", pack=pack, index=index, calibration=cal)
            times[name].append((time.perf_counter() - t) * 1000)
            found[name] = sum(1 for c in obs.layout["cars"] if any(
                abs(c["center_mm"][0] - p.center_mm[0]) < 10 and abs(c["center_mm"][1] - p.center_mm[1]) < 10 for p in cars))
    counted = len(obs.items)
    scan_module.pieces_on = real
    print(f"Monster Highway board (seed {args.seed}): {len(truth.items)} tiles ({counted} counted), "
          f"{len(cars)} cars, {args.runs} scans of each, alternated")
    for name, ts in times.items():
        q = statistics.quantiles(ts, n=20)
        print(f"  {name:22} median {statistics.median(ts):6.1f} ms  p5-p95 {q[0]:6.1f}-{q[-1]:6.1f} ms  "
              f"cars found {found[name]} of {len(cars)}")
    diff = [a - b for a, b in zip(times["with pieces on tiles"], times["without"], strict=True)]
    print(f"  difference of each pair: median {statistics.median(diff):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
