"""Loading catalog data files (cards, tiles, maps, dice) with validation that names the culprit.

Each game keeps its catalogs as JSON under ``rules/<game>/``. An owner of the real game can
replace any of them without touching code: put a file with the same name under
``$COMPANION_CATALOGS/<game>/`` (or pass ``directory=``) and it is loaded instead.

Every catalog file is an object with a header::

    {"format": "game-night-companion/catalog", "version": 1, "game": "bigsur",
     "stand_in": "why this is not the publisher's list" | false, ... data ...}

Errors are :class:`CatalogError` naming the file, the entry and the field.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from .errors import CatalogError

FORMAT = "game-night-companion/catalog"
VERSION = 1
T = TypeVar("T")


def catalog_path(game: str, filename: str, directory: str | Path | None = None) -> Path:
    """Where ``filename`` of ``game`` is read from: an explicit directory, the owner's override
    directory (``$COMPANION_CATALOGS/<game>/``), or the packaged stand-in."""
    if directory is not None:
        return Path(directory) / filename
    override = os.environ.get("COMPANION_CATALOGS")
    if override:
        candidate = Path(override) / game / filename
        if candidate.exists():
            return candidate
    return Path(__file__).parent / game / filename


def load_catalog_json(game: str, filename: str, directory: str | Path | None = None) -> tuple[Path, dict[str, Any]]:
    """Read and check the header of a catalog file; returns its path and its data."""
    path = catalog_path(game, filename, directory)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"{path}: cannot read the catalog: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CatalogError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    check_header(path, data, game)
    return path, data


def cached_loader(game: str, filename: str,
                  parse: Callable[[Path, dict[str, Any]], T]) -> Callable[[str | Path | None], T]:
    """A loader of ``filename`` of ``game``: the packaged stand-in, the owner's override or a given
    directory, parsed by ``parse`` once and kept until the file's modification time changes (so an
    owner's edited file is read again)."""

    @functools.lru_cache(maxsize=8)
    def parsed(path: str, _stamp: int) -> T:
        found, data = load_catalog_json(game, filename, Path(path).parent)
        return parse(found, data)

    def load(directory: str | Path | None = None) -> T:
        path = catalog_path(game, filename, directory)
        try:
            stamp = path.stat().st_mtime_ns
        except OSError as exc:
            raise CatalogError(f"{path}: cannot read the catalog: {exc.strerror}") from None
        return parsed(str(path), stamp)

    return load


def check_header(path: Path | str, data: Any, game: str) -> None:
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: a catalog must be a JSON object")
    if data.get("format") != FORMAT:
        raise CatalogError(f"{path}: field 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise CatalogError(f"{path}: field 'version' must be {VERSION}")
    if data.get("game") != game:
        raise CatalogError(f"{path}: field 'game' must be {game!r}, not {data.get('game')!r}")
    stand_in = data.get("stand_in")
    if not (stand_in is False or (isinstance(stand_in, str) and stand_in.strip())):
        raise CatalogError(f"{path}: field 'stand_in' must say why the data is a stand-in, or be false")


class Entry:
    """Typed access to one entry of a catalog, raising errors that name file, entry and field."""

    def __init__(self, path: Path | str, where: str, data: Any) -> None:
        self.path = path
        self.where = where
        if not isinstance(data, Mapping):
            raise CatalogError(f"{path}: {where}: must be a JSON object")
        self.data = data

    def fail(self, field: str, message: str) -> CatalogError:
        return CatalogError(f"{self.path}: {self.where}: field {field!r}: {message}")

    def get(self, field: str, kind: type[T] | tuple[type, ...], *, default: Any = ..., check: Callable[[Any], bool] | None = None,
            expect: str = "") -> Any:
        if field not in self.data:
            if default is ...:
                raise self.fail(field, "is missing")
            return default
        value = self.data[field]
        ok = isinstance(value, kind) and not (isinstance(value, bool) and kind in (int, float, (int, float)))
        if not ok or (check is not None and not check(value)):
            want = expect or (kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind))
            raise self.fail(field, f"expected {want}, got {value!r}")
        return value

    def one_of(self, field: str, choices: Iterable[Any], *, default: Any = ...) -> Any:
        options = list(choices)
        if field not in self.data and default is not ...:
            return default
        value = self.get(field, object)
        if value not in options:
            raise self.fail(field, f"expected one of {', '.join(map(repr, options))}, got {value!r}")
        return value

    def str_list(self, field: str, *, choices: Iterable[str] | None = None, default: Any = ...,
                 min_len: int = 0, max_len: int | None = None) -> list[str]:
        value = self.get(field, list, default=default)
        if value is default and default is not ...:
            return list(default)
        allowed = set(choices) if choices is not None else None
        for item in value:
            if not isinstance(item, str) or (allowed is not None and item not in allowed):
                hint = f" (one of {', '.join(sorted(allowed))})" if allowed is not None else ""
                raise self.fail(field, f"bad item {item!r}{hint}")
        if len(value) < min_len or (max_len is not None and len(value) > max_len):
            raise self.fail(field, f"expected {min_len} to {max_len if max_len is not None else 'any'} items, got {len(value)}")
        return list(value)


def entries(path: Path | str, data: Mapping[str, Any], key: str, *, id_field: str = "id") -> list[Entry]:
    """The list under ``key`` as :class:`Entry` objects, with unique string ids."""
    raw = data.get(key)
    if not isinstance(raw, list):
        raise CatalogError(f"{path}: field {key!r} must be a list")
    out: list[Entry] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        ident = item.get(id_field) if isinstance(item, Mapping) else None
        where = f"{key}[{i}]" + (f" ({ident})" if isinstance(ident, str) else "")
        entry = Entry(path, where, item)
        ident = entry.get(id_field, str, check=bool, expect="a non-empty string")
        if ident in seen:
            raise entry.fail(id_field, f"duplicate id {ident!r}")
        seen.add(ident)
        out.append(entry)
    return out
