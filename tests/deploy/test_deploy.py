"""deploy/: the install script's plan, the service's hardening and the kiosk's Kivy settings."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SCRIPTS = [DEPLOY / "install.sh", ROOT / "dev.sh", ROOT / ".ci" / "run"]
# Commands that change a machine: during a dry run none of them may be called.
MUTATORS = ["apt-get", "useradd", "usermod", "userdel", "groupadd", "systemctl", "install", "chown",
            "tar", "mv", "rm", "mkdir", "python3", "pip"]


def dry_run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], str]:
    """Run install.sh --dry-run with every mutating command replaced by a shim that logs calls."""
    shims = tmp_path / "shims"
    shims.mkdir()
    log = tmp_path / "called.log"
    for name in MUTATORS:
        shim = shims / name
        shim.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
        shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}"}
    proc = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", *args],
                          capture_output=True, text=True, env=env, timeout=60)
    return proc, log.read_text() if log.exists() else ""


def test_dry_run_changes_nothing_and_prints_the_whole_plan(tmp_path: Path) -> None:
    proc, called = dry_run(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert called == "", f"a dry run executed commands:\n{called}"
    plan = proc.stdout
    for expected in [
        "apt-get install", "python3-picamera2", "python3-lgpio",
        "python3 -m venv --system-site-packages /opt/companion/venv",
        "--constraint /opt/companion/src/deploy/pi-constraints.txt",
        "usermod -a -G video,render,input,gpio companion",
        "write /etc/systemd/system/companion.service",
        "systemctl enable companion.service",
        "write /var/lib/companion/kivy/config.ini",
    ]:
        assert expected in plan, f"plan lacks {expected!r}"
    # The game database lives in the state directory: an update never deletes it.
    assert "rm -rf /var/lib/companion" not in plan


def test_uninstall_keeps_the_games_unless_purged(tmp_path: Path) -> None:
    proc, called = dry_run(tmp_path, "--uninstall")
    assert proc.returncode == 0 and called == ""
    assert "systemctl disable --now companion.service" in proc.stdout
    assert "/var/lib/companion" not in [w for line in proc.stdout.splitlines() if line.startswith("+ rm")
                                        for w in line.split()]
    (tmp_path / "p").mkdir()
    purged, _ = dry_run(tmp_path / "p", "--uninstall", "--purge")
    assert "rm -rf /var/lib/companion /etc/companion" in purged.stdout


@pytest.mark.parametrize("args", [["--rotation", "45"], ["--purge"], ["--frobnicate"]])
def test_bad_options_are_refused_with_one_line(args: list[str]) -> None:
    proc = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", *args],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "install.sh:" in proc.stderr


def test_rotation_reaches_the_kivy_settings(tmp_path: Path) -> None:
    proc, _ = dry_run(tmp_path, "--rotation", "180")
    assert "rotation 180" in proc.stdout


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_scripts_are_shellcheck_clean(script: Path) -> None:
    proc = subprocess.run(["shellcheck", "-x", str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout


def read_unit() -> configparser.RawConfigParser:
    unit = configparser.RawConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "companion.service")
    return unit


def test_service_hardening_stays_in_place() -> None:
    """Issue 7: sandboxed (NoNewPrivileges, ProtectSystem=strict with a StateDirectory for the
    database, ProtectHome, PrivateTmp, access to the camera, GPIO and input devices only)."""
    service = read_unit()["Service"]
    required = {
        "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
        "StateDirectory": "companion", "DevicePolicy": "closed", "Restart": "on-failure",
        "PrivateNetwork": "yes", "CapabilityBoundingSet": "", "RestrictSUIDSGID": "yes",
    }
    for key, value in required.items():
        assert service.get(key) == value, f"{key} must be {value!r}, is {service.get(key)!r}"
    assert service.get("User") not in (None, "", "root", "0")
    text = (DEPLOY / "companion.service").read_text()
    allowed = {line.split("=", 1)[1].split()[0] for line in text.splitlines() if line.startswith("DeviceAllow=")}
    assert {"char-video4linux", "char-gpiochip", "char-input", "char-drm"} <= allowed
    assert "ReadWritePaths" not in text  # only the State/Cache directories are writable


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd not installed")
def test_unit_file_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    # verify checks that ExecStart exists; point it at a binary this machine has.
    unit = tmp_path / "companion.service"
    unit.write_text((DEPLOY / "companion.service").read_text().replace(
        "/opt/companion/venv/bin/companion", shutil.which("true") or "/bin/true"))
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "companion.service" not in proc.stderr, proc.stderr


def test_kivy_kiosk_settings() -> None:
    """Issue 7: fullscreen, no cursor, exactly one touch input provider, a rotation setting, no exit
    on Escape."""
    cfg = configparser.RawConfigParser(interpolation=None)
    cfg.read(DEPLOY / "kivy-config.ini")
    assert cfg["kivy"]["exit_on_escape"] == "0"
    assert cfg["graphics"]["fullscreen"] in ("auto", "1")
    assert cfg["graphics"]["show_cursor"] == "0"
    assert cfg["graphics"]["rotation"] in ("0", "90", "180", "270")
    providers = dict(cfg["input"])
    assert len(providers) == 1 and "mouse" not in providers


def test_pi_constraints_keep_numpy_1_for_picamera2() -> None:
    pins = [ln.split("#")[0].strip() for ln in (DEPLOY / "pi-constraints.txt").read_text().splitlines()]
    assert "numpy<2" in pins
    cv = next(p for p in pins if p.startswith("opencv-python-headless"))
    major, minor = (int(x) for x in cv.split("==")[1].split(".")[:2])
    assert (major, minor) < (4, 11)
