"""The repository's own tooling stays clean: ruff on everything, mypy --strict on rules/ (issue 2).

Run as tests so that CI refuses a change that breaks them, not just a reviewer."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    found = BIN / name
    if found.exists():
        return str(found)
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


def test_ruff_finds_nothing() -> None:
    proc = subprocess.run([tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_rules_are_mypy_strict_clean() -> None:
    proc = subprocess.run([tool("mypy"), "--no-incremental", "rules"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
