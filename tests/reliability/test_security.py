"""Security: the app opens no network listener, writes only under its data, cache and
configuration directories, and its service runs unprivileged (issue 8).

The app is started for real (``companion demo``, the Kivy app with its replay camera) on a
private X server, under ``strace`` so that every file it opens for writing is seen,
with HOME, COMPANION_DATA, COMPANION_CACHE and KIVY_HOME pointing into a temporary folder. While it
runs, its sockets are looked up in /proc/<pid>/net/{tcp,tcp6,udp,udp6}.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOUND = 120.0  # seconds to wait for the app to start a game on a busy machine (not a measurement)
LISTEN = "0A"  # TCP state LISTEN in /proc/net/tcp


def socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                found.add(target[8:-1])
    return found


def listeners(pid: int, inodes: set[str]) -> list[str]:
    """The process's sockets that listen (TCP LISTEN) or are bound for datagrams (any UDP)."""
    out = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if inode in inodes and (table.startswith("udp") or state == LISTEN):
                out.append(f"{table} {local} state {state}")
    return out


def written_paths(trace: Path) -> list[str]:
    """Paths the traced processes opened for writing, created, renamed or removed (successfully)."""
    paths = []
    opened = re.compile(r'open(?:at)?\((?:[^,]+, )?"([^"]+)", ([A-Z_|]+)')
    changed = re.compile(r'(?:mkdir|mkdirat|rename|renameat2?|unlink|unlinkat|creat)\((?:AT_FDCWD|\d+)?,? ?"([^"]+)"')
    for line in trace.read_text(errors="replace").splitlines():
        if "= -1" in line or "<unfinished" in line:
            continue
        m = opened.search(line)
        if m and any(flag in m.group(2) for flag in ("O_WRONLY", "O_RDWR", "O_CREAT")):
            paths.append(m.group(1))
            continue
        m = changed.search(line)
        if m:
            paths.append(m.group(1))
    return paths


def demo_ready(kivy_home: Path) -> bool:
    """Kivy logs the start of its main loop: the window is up and the app's screens are built."""
    logs = kivy_home / "logs"
    return logs.is_dir() and any("Start application main loop" in p.read_text(errors="replace")
                                 for p in logs.glob("*.txt"))


@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("strace")), reason="needs Xvfb and strace")
def test_the_app_listens_on_no_network_and_writes_only_its_own_folders(tmp_path: Path) -> None:
    home, data, cache, conf, work, tmp = (tmp_path / n for n in ("home", "data", "cache", "config", "cwd", "tmp"))
    for d in (home, work, tmp, conf, data / "kivy"):
        d.mkdir(parents=True)  # KIVY_HOME exists, as deploy/install.sh makes it
    display = f":{90 + os.getpid() % 400}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "800x480x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    trace = tmp_path / "strace.txt"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DISPLAY": display, "HOME": str(home),
           "COMPANION_DATA": str(data), "COMPANION_CACHE": str(cache), "KIVY_HOME": str(data / "kivy"),
           "COMPANION_CONFIG": str(conf / "companion.toml"), "TMPDIR": str(tmp), "KIVY_NO_ARGS": "1",
           "KIVY_NO_CONSOLELOG": "1", "PYTHONPATH": str(ROOT),
           # Bytecode caches are the interpreter's, not the app's (and read-only on the Pi).
           "PYTHONDONTWRITEBYTECODE": "1", "SDL_AUDIODRIVER": "dummy"}
    unit_env = service_environment()
    for key in MESA_CACHE_SETTINGS:  # what the unit file sets for OpenGL's cache, mapped here
        if key in unit_env:
            env[key] = unit_env[key] if key == "MESA_SHADER_CACHE_DISABLE" else str(cache / "mesa")
    app = subprocess.Popen(["strace", "-f", "-qq", "-o", str(trace), "-e",
                            "trace=open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat",
                            sys.executable, "-m", "companion", "demo", "highwayman", "--size", "800x480"],
                           cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + BOUND
        while not demo_ready(data / "kivy"):
            if app.poll() is not None:
                pytest.fail(f"the demo stopped: {app.stdout.read()[-2000:] if app.stdout else ''}")
            if time.monotonic() > deadline:
                pytest.fail("the demo did not start")
            time.sleep(0.5)
        time.sleep(3)  # let the scene renderer and the replay camera run a little
        pids = [int(p) for p in subprocess.run(["pgrep", "-P", str(app.pid)], capture_output=True,
                                               text=True).stdout.split()]
        assert pids, "the traced app process was not found"
        for pid in pids:
            assert listeners(pid, socket_inodes(pid)) == []
    finally:
        for proc in (app, xvfb):
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if app.stdout:
            app.stdout.close()
    allowed = (str(data), str(cache), str(conf), "/dev/", "/proc/")
    written = sorted({p for p in written_paths(trace) if not p.startswith(allowed)})
    mesa = [p for p in written if "mesa_shader_cache" in p]
    if written and written == mesa and not any(k in service_environment() for k in MESA_CACHE_SETTINGS):
        # Mesa (OpenGL) keeps its shader cache in the user's home whatever $HOME says; the unit
        # file does not yet point it at the cache directory. Known, reported; anything else fails.
        pytest.xfail(f"Mesa's shader cache is written to {mesa[0]}: deploy/companion.service needs "
                     "Environment=MESA_SHADER_CACHE_DIR=/var/cache/companion/mesa")
    assert written == [], f"the app wrote outside its folders: {written[:20]}"
    # Relative paths would be under the working folder; it must stay empty, and so must HOME.
    assert list(work.iterdir()) == [] and list(home.iterdir()) == [] and list(tmp.iterdir()) == []
    assert (data / "demo.sqlite3").exists()


def test_socket_parsing_sees_a_listener(tmp_path: Path) -> None:
    # The check above can fail: a process that does listen is seen.
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert any("tcp" in x for x in listeners(os.getpid(), socket_inodes(os.getpid())))


def test_the_trace_parser_sees_writes(tmp_path: Path) -> None:
    trace = tmp_path / "t.txt"
    trace.write_text('123 openat(AT_FDCWD, "/etc/x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3\n'
                     '123 openat(AT_FDCWD, "/usr/lib/y.so", O_RDONLY|O_CLOEXEC) = 4\n'
                     '123 mkdir("/root/.kivy", 0777) = 0\n'
                     '123 openat(AT_FDCWD, "/nope", O_RDWR) = -1 ENOENT (No such file or directory)\n')
    assert written_paths(trace) == ["/etc/x", "/root/.kivy"]


def service() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in (ROOT / "deploy" / "companion.service").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")) and "=" in line:
            k, v = line.split("=", 1)
            keys.setdefault(k.strip(), []).append(v.strip())
    return keys


MESA_CACHE_SETTINGS = ("MESA_SHADER_CACHE_DIR", "XDG_CACHE_HOME", "MESA_SHADER_CACHE_DISABLE")


def service_environment() -> dict[str, str]:
    return dict(v.split("=", 1) for v in service().get("Environment", []))


def test_the_service_runs_unprivileged() -> None:
    unit = service()
    assert unit["User"] and unit["User"][-1] not in ("root", "0", "")
    assert unit.get("Group", ["x"])[-1] not in ("root", "0", "")
    assert unit["NoNewPrivileges"] == ["yes"]
    # Empty bounding and ambient sets: no capabilities at all.
    assert unit["CapabilityBoundingSet"] == [""] and unit["AmbientCapabilities"] == [""]
    # No ExecStart run with full privileges ("+"), and no network at all.
    assert not any(v.startswith(("+", "!")) for k in ("ExecStart", "ExecStartPre", "ExecStartPost")
                   for v in unit.get(k, []))
    assert unit["PrivateNetwork"] == ["yes"]
    assert "AF_INET" not in " ".join(unit.get("RestrictAddressFamilies", []))
    assert unit["ProtectSystem"] == ["strict"] and unit["ProtectHome"] == ["yes"]
    # Where it may write is exactly its state, cache and configuration directories.
    assert unit["StateDirectory"] == ["companion"] and unit["CacheDirectory"] == ["companion"]
    assert not unit.get("ReadWritePaths")
    env = dict(v.split("=", 1) for v in unit["Environment"])
    assert env["COMPANION_DATA"] == "/var/lib/companion" and env["COMPANION_CACHE"] == "/var/cache/companion"
    assert env["KIVY_HOME"].startswith("/var/lib/companion/")


def test_a_game_session_opens_no_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The game path itself (store, session, engines, recogniser, replay camera, keyboard controls)
    # with every way to listen on a network refused.
    import random
    import socket

    import numpy as np

    from companion.recovery import SafeStore
    from companion.session import Session, vision_scanner
    from hardware import KeyboardControls, ReplaySource

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the app tried to open a network socket")

    monkeypatch.setattr(socket.socket, "bind", refuse)
    monkeypatch.setattr(socket.socket, "listen", refuse)
    monkeypatch.setattr(socket, "create_server", refuse)
    store = SafeStore(tmp_path / "companion.sqlite3")
    session = Session.new(store, "highwayman", ["Ana", "Ben"], seed=1, app_draws_all=True, scanner=vision_scanner())
    rng = random.Random(0)
    for _ in range(10):
        session.apply(rng.choice(session.game.legal_actions()))
    frame = np.full((360, 640, 3), 90, np.uint8)
    with ReplaySource([frame], loop=True, fps=20) as camera:
        outcome = session.end_turn(camera)
    assert not outcome.ok
    KeyboardControls(seats=2).close()
    store.close()
