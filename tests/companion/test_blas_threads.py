"""The companion runs numpy's BLAS on one thread unless told otherwise (see companion/__init__.py)."""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = "import companion, os, numpy; print(os.environ.get('OPENBLAS_NUM_THREADS'), os.environ.get('OMP_NUM_THREADS'))"


def run(env: dict[str, str]) -> list[str]:
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True).stdout.split()


def test_one_blas_thread_by_default():
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    assert run(env) == ["1", "1"]


def test_an_explicit_setting_wins():
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    env["OPENBLAS_NUM_THREADS"] = "3"
    assert run(env) == ["3", "1"]
