#!/usr/bin/env bash
# One entry point that sets everything up and then runs what you ask for.
#   ./dev.sh demo [GAME]   set up, then start the app in demo mode (replay camera, no hardware)
#   ./dev.sh test          set up, then run the whole test suite (starts Xvfb for the UI tests)
#   ./dev.sh long          set up, then run the long reliability/fuzz runs (marked slow)
#   ./dev.sh bench         set up, then run every benchmark in bench/
#   ./dev.sh run ARGS...   set up, then run `companion ARGS...`
# Set-up is idempotent: a virtual environment in .venv, re-installed only when pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  say "need root to run: $*"; return 1; fi; }

apt_updated=0
apt_install() { # apt_install PKG... (only the ones missing)
  command -v apt-get >/dev/null || { say "no apt-get: please install $* yourself"; return 1; }
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $apt_updated = 0 ]; then say "apt-get update"; as_root apt-get update -qq; apt_updated=1; fi
  say "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

python=${PYTHON:-python3}
"$python" -c 'import sys; assert sys.version_info >= (3, 11), sys.version' 2>/dev/null \
  || { say "Python 3.11 or newer is needed ($python is $("$python" --version 2>&1))"; exit 1; }

setup() {
  if [ ! -x .venv/bin/python ]; then
    say "creating the virtual environment in .venv"
    # On a Raspberry Pi the venv must see apt's picamera2/libcamera (deploy/install.sh does that).
    local flags=()
    [ -e /usr/lib/python3/dist-packages/picamera2 ] && flags+=(--system-site-packages)
    if ! "$python" -m venv "${flags[@]}" .venv 2>/dev/null; then
      rm -rf .venv
      apt_install python3-venv
      "$python" -m venv "${flags[@]}" .venv
    fi
  fi
  # Libraries Kivy's wheel needs from the system to open a window (OpenGL, input), and the font the
  # proxy cards are printed in (Pillow falls back to a tiny bitmap font without it).
  if command -v apt-get >/dev/null; then apt_install libgl1 libegl1 libmtdev1 fonts-dejavu-core || true; fi
  local stamp=.venv/.installed
  local want
  want=$(sha256sum pyproject.toml | cut -c1-16)
  if [ ! -f $stamp ] || [ "$(cat $stamp)" != "$want" ]; then
    say "installing the project and its dependencies"
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
    .venv/bin/python -m pip install -q -e ".[dev]"
    echo "$want" > $stamp
  fi
}

need_display() { # runs "$@" under Xvfb when there is no display
  if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then "$@"; return; fi
  command -v xvfb-run >/dev/null || apt_install xvfb xauth
  xvfb-run -a -s "-screen 0 1280x800x24" "$@"
}

cmd=${1:-demo}; shift || true
case "$cmd" in
  demo)
    setup
    exec .venv/bin/companion demo "$@"
    ;;
  test)
    setup
    # The deploy tests check scripts with shellcheck and the unit file with systemd-analyze; the
    # security test traces what files the app writes with strace.
    if command -v apt-get >/dev/null; then apt_install shellcheck systemd xvfb xauth strace || true; fi
    mkdir -p artifacts
    set +e
    need_display .venv/bin/python -m pytest -m "not slow" "$@"
    rc=$?
    set -e
    if [ $rc -eq 5 ]; then say "pytest collected no tests"; exit 1; fi
    exit $rc
    ;;
  long)
    setup
    need_display .venv/bin/python -m pytest -m slow "$@"
    ;;
  bench)
    setup
    # One-core figures: NumPy/OpenCV must not spread their maths over the other core.
    for b in bench/*.py; do say "$b"; OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 .venv/bin/python "$b" "$@"; done
    ;;
  run)
    setup
    exec .venv/bin/companion "$@"
    ;;
  *)
    echo "usage: ./dev.sh demo [GAME] | test [PYTEST ARGS] | long | bench | run ARGS..." >&2
    exit 2
    ;;
esac
