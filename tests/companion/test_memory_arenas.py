"""The app caps glibc's malloc arenas (companion.session.memory.limit_arenas): many threads that
allocate share two arenas instead of one each. Run in subprocesses: the cap is per process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.session import memory

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import ctypes, json, os, sys, tempfile, threading
import numpy as np
from companion.session import memory
limited = memory.limit_arenas() if sys.argv[1] == "limit" else None
start = threading.Barrier(8)
def work():
    start.wait()  # all at once, so none can simply take over an arena another has left
    blocks = [np.ones(4096) for _ in range(50)]  # numpy's buffers come from malloc
    start2.wait()
start2 = threading.Barrier(8)
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
libc = ctypes.CDLL("libc.so.6")
libc.fopen.restype = ctypes.c_void_p
path = tempfile.mktemp()
fp = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, ctypes.c_void_p(fp))
libc.fclose(ctypes.c_void_p(fp))
info = open(path).read(); os.unlink(path)
print(json.dumps({"limited": limited, "arenas": info.count("<heap nr=")}))
"""


def arenas(how: str, **env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    out = subprocess.run([sys.executable, "-c", PROBE, how], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**clean, "PYTHONPATH": str(ROOT), **env}).stdout
    return json.loads(out.splitlines()[-1])


needs_glibc = pytest.mark.skipif(memory._glibc() is False, reason="malloc arenas are glibc's")


@needs_glibc
def test_threads_share_two_arenas_once_limited():
    assert arenas("free")["arenas"] > 2  # the probe does make arenas of its own without the cap
    limited = arenas("limit")
    assert limited == {"limited": True, "arenas": 2}


@needs_glibc
def test_the_environment_still_decides_when_it_says():
    assert arenas("limit", MALLOC_ARENA_MAX="3") == {"limited": False, "arenas": 3}
