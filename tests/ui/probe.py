"""Running a small Kivy program in a window of its own (Kivy has one window per process), under
Xvfb when there is no display, and reading back the JSON report it prints last."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_probe(source: str, tmp_path: Path) -> Any:
    """Run ``source`` as a script with the repository importable; its last stdout line starting
    with ``{`` is its report. Skips when there is neither a display nor xvfb-run."""
    probe = tmp_path / "probe.py"
    probe.write_text(source, encoding="utf-8")
    cmd = [sys.executable, str(probe)]
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        if shutil.which("xvfb-run") is None:
            pytest.skip("no display and no xvfb-run")
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", *cmd]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
           "KIVY_HOME": str(tmp_path / "kivy")}
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
