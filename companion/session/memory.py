"""Giving freed memory back to the system after an end turn.

A scan allocates and frees many large temporary arrays. glibc keeps freed heap memory for reuse
and raises its mmap threshold after large frees, so once a few scans have run the process holds
tens of MB it is not using (about 60 MB at the end of a demo game, measured with
``bench/app.py``). A fixed, lower mmap threshold (``MALLOC_MMAP_THRESHOLD_``) avoids that but
costs every scan its page faults again (about 20 % more CPU per end turn), so instead the app
asks once per end turn, off the critical path, for the free pages to be returned.

Each thread's own malloc arena holds free memory of its own too: the app caps them at two
(:func:`limit_arenas`, before its window and threads start).
"""

from __future__ import annotations

import os
from typing import Any

_libc: Any = None

#: glibc's ``M_ARENA_MAX`` (malloc.h).
_M_ARENA_MAX = -8
#: Malloc arenas the app may use: the UI thread's and one shared by every other thread.
ARENAS = 2


def _glibc() -> Any:
    """The C library when it is glibc, else False."""
    global _libc
    if _libc is None:
        import ctypes  # here: the kiosk's first screen does not wait for it
        import ctypes.util

        name = ctypes.util.find_library("c")
        try:
            lib = ctypes.CDLL(name) if name else None
        except OSError:
            lib = None
        _libc = lib if lib is not None and hasattr(lib, "malloc_trim") and hasattr(lib, "mallopt") else False
    return _libc


def trim() -> bool:
    """``malloc_trim(0)``: return free heap pages to the system. False where there is no glibc
    (macOS, musl), which is not an error: memory is then only as the allocator leaves it."""
    lib = _glibc()
    if lib is False:
        return False
    return bool(lib.malloc_trim(0))


def limit_arenas(count: int = ARENAS) -> bool:
    """At most ``count`` malloc arenas for the whole process, unless ``MALLOC_ARENA_MAX`` says
    otherwise. glibc gives each new thread an arena of its own, up to eight per core; the app's
    threads (the scan, the picture, the camera, Mesa's and Kivy's) each kept a few MB of their
    own arena's free memory that no other thread could use: capped at two, a whole demo game
    ended about 10 MB lower (bench/app.py). The scan and the picture run one after the other, so
    sharing an arena costs them no waiting to speak of. Call it before the threads start."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    lib = _glibc()
    if lib is False:
        return False
    return bool(lib.mallopt(_M_ARENA_MAX, int(count)))
