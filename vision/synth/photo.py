"""Appearance-only packs: every card face a procedural photo-like picture, no text, no markers.

The benchmark runs the recogniser on these as well as on the proxy faces, so that its figures
say how well it tells pictures apart, not how well it reads the proxies' big printed numbers.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from ..errors import PackError
from ..pack import PACK_FILE, Pack, catalog_items, default_cache_dir, load_pack, main_size, write_pack
from .textures import photo_like

PX_PER_MM = 6.0


def photo_like_pack(game: str, seed: int, cache_dir: str | Path | None = None) -> Pack:
    """The ``game``'s catalog ids with photo-like faces drawn from ``seed``; cached on disk."""
    items = catalog_items(game)
    if items is None:
        raise PackError(f"the {game} engine is not installed, so there are no card ids to make a pack for")
    key = hashlib.sha256(json.dumps([game, seed, [(i["id"], i["size_mm"]) for i in items]],
                                    sort_keys=True, default=str).encode()).hexdigest()[:12]
    base = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = base / "packs" / f"{game}-photo-{key}"
    if (target / PACK_FILE).is_file():
        return load_pack(target)
    faces = {}
    for k, item in enumerate(items):
        w, h = (float(v) for v in item["size_mm"])
        rng = np.random.default_rng([int(seed), k])
        faces[str(item["id"])] = [photo_like(rng, (round(w * PX_PER_MM), round(h * PX_PER_MM)))]
    sizes = {str(i["id"]): i["size_mm"] for i in items}
    return write_pack(target, game, main_size(items), faces, kind="synthetic", sizes_mm=sizes)
