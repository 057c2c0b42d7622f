"""Deck packs: the face images a recogniser learns a game's cards from.

A pack is a folder with ``pack.json`` and the face images it names::

    {"format": "game-night-companion/pack", "version": 1,       (both optional)
     "game": "bigsur", "kind": "proxy" | "owner" | "synthetic",   (kind optional, default "owner")
     "card_size_mm": [63, 88],
     "cards": [{"id": "<catalog id>", "faces": ["faces/x.png", "faces/x-2.png"]},
               {"id": "<landmark id>", "faces": ["faces/l.png"], "size_mm": [50, 50]}]}

``card_size_mm`` is the physical size of most pieces. A game with pieces of several sizes (Big
Sur's 63x88 cards and 50x50 landmark tiles) gives the others a per-card ``"size_mm"`` override;
:meth:`Pack.size_of` answers for any card. Face paths are relative to the pack folder and must
stay inside it; a card may have several faces (photos of several copies, or of worn copies).
Card ids must be catalog ids of the game when that game's engine is installed.

Proxy packs are rendered from the engine's ``catalog_items()`` into
``$COMPANION_CACHE/packs/<game>-proxy-<hash>`` (default cache ``~/.cache/companion``); the hash
covers the catalog and the renderer version, so a changed catalog renders a fresh pack.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import math
import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .errors import PackError

FORMAT = "game-night-companion/pack"
VERSION = 1
KINDS = ("proxy", "owner", "synthetic")
PACK_FILE = "pack.json"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
MAX_SIDE_MM = 1000.0

# Known game ids -> engine module. Kept here (not imported from rules.registry's private table)
# so the vision layer names games the same way without needing an engine installed.
GAMES = {
    "bigsur": "rules.bigsur",
    "roundabout": "rules.roundabout",
    "monsterhighway": "rules.monsterhighway",
    "highwaysbyways": "rules.highwaysbyways",
    "highwayman": "rules.highwayman",
}


@dataclass(frozen=True)
class PackCard:
    """One card design of a pack: its catalog id, its face images, and its size when it differs
    from the pack's ``card_size_mm``."""

    id: str
    faces: tuple[Path, ...]
    size_mm: tuple[float, float] | None = None


@dataclass(frozen=True)
class Pack:
    game: str
    card_size_mm: tuple[float, float]
    cards: tuple[PackCard, ...]
    root: Path
    kind: str = "owner"

    def size_of(self, card_id: str) -> tuple[float, float]:
        """The physical (width, height) in mm of ``card_id``."""
        size = self.card(card_id).size_mm
        return size if size is not None else self.card_size_mm

    def card(self, card_id: str) -> PackCard:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise PackError(f"{self.root / PACK_FILE}: no card {card_id!r} in this pack")

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def sizes_mm(self) -> tuple[tuple[float, float], ...]:
        """Every distinct physical size in the pack, the main one first."""
        out = [self.card_size_mm]
        for c in self.cards:
            if c.size_mm is not None and c.size_mm not in out:
                out.append(c.size_mm)
        return tuple(out)

    def face_images(self) -> Iterator[tuple[str, np.ndarray]]:
        """(card id, BGR uint8 image) for every face of every card, in pack order."""
        for card in self.cards:
            for path in card.faces:
                yield card.id, read_face(path)

    def digest(self) -> str:
        """A hash of pack.json and every face file's bytes: the key for caches learned from it."""
        h = hashlib.sha256()
        h.update((self.root / PACK_FILE).read_bytes())
        for card in self.cards:
            for path in card.faces:
                h.update(path.name.encode())
                h.update(path.read_bytes())
        return h.hexdigest()[:24]


def read_face(path: Path) -> np.ndarray:
    data = np.fromfile(str(path), dtype=np.uint8) if path.is_file() else None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data is not None and data.size else None
    if image is None or image.size == 0:
        raise PackError(f"{path}: not a readable image")
    return image


# -- loading -----------------------------------------------------------------------------------

def catalog_items(game: str) -> list[dict[str, Any]] | None:
    """The engine's ``catalog_items()``, or None when that engine is not installed."""
    module_name = GAMES.get(game)
    if module_name is None:
        raise PackError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None
    fn = getattr(module, "catalog_items", None)
    if fn is None:
        return None
    items = fn()
    return list(items)


def _size(value: Any, where: str) -> tuple[float, float]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        raise PackError(f"{where}: expected [width, height] in mm, got {value!r}")
    w, h = float(value[0]), float(value[1])
    if not (math.isfinite(w) and math.isfinite(h) and 0 < w <= MAX_SIDE_MM and 0 < h <= MAX_SIDE_MM):
        raise PackError(f"{where}: sizes must be between 0 and {MAX_SIDE_MM:g} mm, got {value!r}")
    return w, h


def load_pack(path: str | Path) -> Pack:
    """Load and check a pack folder (or its ``pack.json``). Every problem is a :class:`PackError`
    naming the file, the entry and the field; nothing is returned half-checked."""
    p = Path(path)
    file = p if p.name == PACK_FILE or p.suffix == ".json" else p / PACK_FILE
    root = file.parent
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PackError(f"{file}: no pack here (pack.json not found)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PackError(f"{file}: cannot read the pack: {exc}") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        msg = f"line {exc.lineno}: {exc.msg}" if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        raise PackError(f"{file}: not valid JSON ({msg})") from None
    return _parse(file, root, data)


def _parse(file: Path, root: Path, data: Any) -> Pack:
    if not isinstance(data, dict):
        raise PackError(f"{file}: a pack must be a JSON object")
    if "format" in data and data["format"] != FORMAT:
        raise PackError(f"{file}: field 'format' must be {FORMAT!r}")
    if "version" in data and (data["version"] != VERSION or isinstance(data["version"], bool)):
        raise PackError(f"{file}: field 'version' must be {VERSION}, not {data['version']!r}")
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise PackError(f"{file}: field 'game' must be one of {', '.join(GAMES)}, not {game!r}")
    kind = data.get("kind", "owner")
    if kind not in KINDS:
        raise PackError(f"{file}: field 'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
    if "card_size_mm" not in data:
        raise PackError(f"{file}: field 'card_size_mm' is missing")
    card_size = _size(data["card_size_mm"], f"{file}: field 'card_size_mm'")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise PackError(f"{file}: field 'cards' must be a non-empty list")
    known: set[str] | None = None
    items = catalog_items(game)
    if items is not None:
        known = {str(it.get("id")) for it in items if isinstance(it, dict)}
    resolved_root = root.resolve()
    cards: list[PackCard] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw_cards):
        ident = entry.get("id") if isinstance(entry, dict) else None
        where = f"{file}: cards[{i}]" + (f" ({ident})" if isinstance(ident, str) else "")
        if not isinstance(entry, dict):
            raise PackError(f"{where}: must be a JSON object")
        if not isinstance(ident, str) or not ident.strip():
            raise PackError(f"{where}: field 'id' must be a non-empty string")
        if ident in seen:
            raise PackError(f"{where}: field 'id': duplicate id {ident!r}")
        if known is not None and ident not in known:
            raise PackError(f"{where}: field 'id': {ident!r} is not in the {game} catalog")
        seen.add(ident)
        unknown_fields = set(entry) - {"id", "faces", "size_mm"}
        if unknown_fields:
            raise PackError(f"{where}: unknown field {sorted(unknown_fields)[0]!r}")
        faces_raw = entry.get("faces")
        if not isinstance(faces_raw, list) or not faces_raw:
            raise PackError(f"{where}: field 'faces' must be a non-empty list of image paths")
        faces: list[Path] = []
        for j, face in enumerate(faces_raw):
            fwhere = f"{where}: field 'faces'[{j}]"
            if not isinstance(face, str) or not face.strip() or "\x00" in face:
                raise PackError(f"{fwhere}: must be a relative path to an image, got {face!r}")
            rel = Path(face)
            if rel.is_absolute() or face.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", face):
                raise PackError(f"{fwhere}: {face!r} must be relative to the pack folder")
            if rel.suffix.lower() not in IMAGE_SUFFIXES:
                raise PackError(f"{fwhere}: {face!r} is not an image file ({', '.join(IMAGE_SUFFIXES)})")
            full = root / rel
            try:
                inside = full.resolve().is_relative_to(resolved_root)
            except (OSError, RuntimeError, ValueError):
                inside = False
            if not inside:
                raise PackError(f"{fwhere}: {face!r} points outside the pack folder")
            if not full.is_file():
                raise PackError(f"{fwhere}: {face!r} does not exist")
            if not cv2.haveImageReader(str(full)):  # reads the file's signature only: cheap
                raise PackError(f"{fwhere}: {face!r} is not a readable image")
            faces.append(full)
        size = _size(entry["size_mm"], f"{where}: field 'size_mm'") if "size_mm" in entry else None
        cards.append(PackCard(ident, tuple(faces), None if size == card_size else size))
    return Pack(game=game, card_size_mm=card_size, cards=tuple(cards), root=root, kind=kind)


# -- writing -----------------------------------------------------------------------------------

def safe_name(card_id: str) -> str:
    """A file name for a card id: ids may hold spaces, slashes or accents."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", card_id).strip("._") or "card"
    return name[:80]


def write_pack(root: str | Path, game: str, card_size_mm: Sequence[float],
               faces: Mapping[str, Sequence[np.ndarray]], *, kind: str = "owner",
               sizes_mm: Mapping[str, Sequence[float]] | None = None) -> Pack:
    """Write a pack folder: ``faces`` maps each card id to its face images (BGR). pack.json is
    written last, so a folder interrupted half-way never loads as a pack. Returns the loaded pack."""
    out = Path(root)
    if game not in GAMES:
        raise PackError(f"{out}: unknown game {game!r} (known: {', '.join(GAMES)})")
    if kind not in KINDS:
        raise PackError(f"{out}: pack kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if not faces:
        raise PackError(f"{out}: a pack needs at least one card")
    size = _size([float(v) for v in card_size_mm], f"{out}: card_size_mm")
    (out / "faces").mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, Any]] = []
    used: set[str] = set()
    for card_id, images in faces.items():
        if not images:
            raise PackError(f"{out}: card {card_id!r} has no face image")
        base = safe_name(card_id)
        stem, n = base, 2
        while stem in used:
            stem, n = f"{base}~{n}", n + 1
        used.add(stem)
        names = []
        for k, image in enumerate(images):
            if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
                raise PackError(f"{out}: face {k + 1} of card {card_id!r} is not a BGR uint8 image")
            name = f"faces/{stem}.png" if k == 0 else f"faces/{stem}-{k + 1}.png"
            ok, buf = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 3])
            if not ok:
                raise PackError(f"{out}: cannot encode face {k + 1} of card {card_id!r}")
            (out / name).write_bytes(buf.tobytes())
            names.append(name)
        entry: dict[str, Any] = {"id": card_id, "faces": names}
        if sizes_mm and card_id in sizes_mm:
            own = _size([float(v) for v in sizes_mm[card_id]], f"{out}: size_mm of {card_id!r}")
            if own != size:
                entry["size_mm"] = list(own)
        entries.append(entry)
    doc = {"format": FORMAT, "version": VERSION, "game": game, "kind": kind,
           "card_size_mm": list(size), "cards": entries}
    tmp = out / (PACK_FILE + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, out / PACK_FILE)
    return load_pack(out)


# -- proxy packs -------------------------------------------------------------------------------

def default_cache_dir() -> Path:
    """$COMPANION_CACHE, default ~/.cache/companion (DESIGN contract 5)."""
    env = os.environ.get("COMPANION_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "companion"


def main_size(items: Sequence[Mapping[str, Any]]) -> tuple[float, float]:
    """The size most designs share (ties: the larger piece, the cards rather than tiles)."""
    counts = Counter(tuple(float(v) for v in it["size_mm"]) for it in items)
    best = max(counts, key=lambda s: (counts[s], s[0] * s[1]))
    return best[0], best[1]


def catalog_hash(game: str, items: Sequence[Mapping[str, Any]]) -> str:
    from .proxy import RENDERER_VERSION

    blob = json.dumps({"game": game, "renderer": RENDERER_VERSION, "items": list(items)},
                      sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:12]


def proxy_pack(game: str, cache_dir: str | Path | None = None) -> Pack:
    """The proxy pack of ``game`` rendered from its catalog, cached; rendered on first use."""
    from .proxy import render_face, validate_items

    items = catalog_items(game)
    if items is None:
        raise PackError(f"the {game} engine is not installed, so it has no catalog to render a proxy pack from")
    validate_items(game, items)
    base = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = base / "packs" / f"{game}-proxy-{catalog_hash(game, items)}"
    if (target / PACK_FILE).is_file():
        return load_pack(target)
    (base / "packs").mkdir(parents=True, exist_ok=True)
    # Render into a private folder, then rename: two processes rendering at once both succeed and
    # neither sees the other's half-written pack.
    work = Path(tempfile.mkdtemp(prefix=f".{game}-proxy-", dir=base / "packs"))
    try:
        size = main_size(items)
        faces = {str(it["id"]): [render_face(game, it)] for it in items}
        sizes = {str(it["id"]): it["size_mm"] for it in items}
        write_pack(work, game, size, faces, kind="proxy", sizes_mm=sizes)
        try:
            os.replace(work, target)
        except OSError:
            if not (target / PACK_FILE).is_file():
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    with contextlib.suppress(OSError):
        os.utime(target)
    return load_pack(target)
