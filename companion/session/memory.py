"""Giving freed memory back to the system after an end turn.

A scan allocates and frees many large temporary arrays. glibc keeps freed heap memory for reuse
and raises its mmap threshold after large frees, so once a few scans have run the process holds
tens of MB it is not using (about 60 MB at the end of a demo game, measured with
``bench/app.py``). A fixed, lower mmap threshold (``MALLOC_MMAP_THRESHOLD_``) avoids that but
costs every scan its page faults again (about 20 % more CPU per end turn), so instead the app
asks once per end turn, off the critical path, for the free pages to be returned.
"""

from __future__ import annotations

from typing import Any

_libc: Any = None


def trim() -> bool:
    """``malloc_trim(0)``: return free heap pages to the system. False where there is no glibc
    (macOS, musl), which is not an error: memory is then only as the allocator leaves it."""
    global _libc
    if _libc is None:
        import ctypes  # here: the kiosk's first screen does not wait for it
        import ctypes.util

        name = ctypes.util.find_library("c")
        try:
            lib = ctypes.CDLL(name) if name else None
        except OSError:
            lib = None
        _libc = lib if lib is not None and hasattr(lib, "malloc_trim") else False
    if _libc is False:
        return False
    return bool(_libc.malloc_trim(0))
