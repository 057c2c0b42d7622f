#!/usr/bin/env bash
# Turns a Raspberry Pi (Raspberry Pi OS Bookworm, 64-bit; Pi 4 or Pi 5) into the game-night kiosk.
#
#   sudo deploy/install.sh              install or update (idempotent; the game database is kept)
#   deploy/install.sh --dry-run         print every command it would run, change nothing
#   sudo deploy/install.sh --uninstall  remove the service, program and user; keep games and config
#   sudo deploy/install.sh --uninstall --purge   ... and delete the games database and config too
#
# Options: --rotation 0|90|180|270 (screen mounted sideways), --no-start (install but do not start),
#          --prefix DIR (default /opt/companion), --user NAME (default companion).
set -euo pipefail

prefix=/opt/companion
user=companion
rotation=0
dry_run=0
uninstall=0
purge=0
start=1
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --uninstall) uninstall=1 ;;
    --purge) purge=1 ;;
    --no-start) start=0 ;;
    --rotation) rotation=${2:?--rotation needs 0, 90, 180 or 270}; shift ;;
    --prefix) prefix=${2:?--prefix needs a folder}; shift ;;
    --user) user=${2:?--user needs a name}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

case "$rotation" in 0|90|180|270) ;; *) echo "install.sh: --rotation must be 0, 90, 180 or 270" >&2; exit 2 ;; esac
if [ $purge = 1 ] && [ $uninstall = 0 ]; then echo "install.sh: --purge goes with --uninstall" >&2; exit 2; fi

venv=$prefix/venv
etc=/etc/companion
state=/var/lib/companion
unit=/etc/systemd/system/companion.service
step_no=0

step() { step_no=$((step_no + 1)); printf '\n== step %d: %s\n' "$step_no" "$*"; }
# run CMD...: print it, and run it unless this is a dry run.
run() {
  printf '+ %s\n' "$*"
  [ $dry_run = 1 ] || "$@"
}
# write DEST MODE: copy standard input to DEST (shown in the plan as a single line).
write() {
  local dest=$1 mode=$2
  printf '+ write %s (mode %s)\n' "$dest" "$mode"
  if [ $dry_run = 1 ]; then cat >/dev/null; return; fi
  local tmp
  tmp=$(mktemp)
  cat >"$tmp"
  install -m "$mode" "$tmp" "$dest"
  rm -f "$tmp"
}
have_pkg() { apt-cache show "$1" >/dev/null 2>&1; }

if [ $dry_run = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run it as root (sudo deploy/install.sh), or with --dry-run to see the plan" >&2
  exit 1
fi
[ $dry_run = 1 ] && echo "Dry run: printing every command, changing nothing."

if [ $uninstall = 1 ]; then
  step "stop and remove the service"
  run systemctl disable --now companion.service || true
  run rm -f "$unit"
  run systemctl daemon-reload
  step "remove the program"
  run rm -rf "$prefix"
  if [ $purge = 1 ]; then
    step "delete the games database, the configuration and the user (--purge)"
    run rm -rf "$state" "$etc" /var/cache/companion
    run userdel "$user" || true
  else
    step "keep the games database ($state) and the configuration ($etc)"
    echo "Kept. Run with --uninstall --purge to delete them too."
  fi
  echo; echo "Uninstalled."
  exit 0
fi

step "install system packages"
packages=(python3 python3-venv python3-pip python3-numpy python3-gpiozero python3-lgpio
          libgl1 libegl1 libgles2 libmtdev1 fonts-dejavu-core)
# The camera stack exists only in Raspberry Pi OS's archive; elsewhere the app uses USB webcams.
if have_pkg python3-picamera2 || [ $dry_run = 1 ]; then packages+=(python3-picamera2 rpicam-apps-lite); fi
run apt-get update -q
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}"

step "create the unprivileged service user '$user' and its device groups"
for group in video render input gpio; do
  if ! getent group "$group" >/dev/null; then run groupadd --system "$group"; fi
done
if ! id "$user" >/dev/null 2>&1; then
  run useradd --system --home-dir "$state" --no-create-home --shell /usr/sbin/nologin "$user"
fi
run usermod -a -G video,render,input,gpio "$user"

step "copy the program to $prefix/src"
run mkdir -p "$prefix"
run rm -rf "$prefix/src.new"
run mkdir -p "$prefix/src.new"
run tar -C "$src" --exclude=.git --exclude=.venv --exclude=artifacts --exclude=__pycache__ \
  -cf "$prefix/src.tar" .
run tar -C "$prefix/src.new" -xf "$prefix/src.tar"
run rm -f "$prefix/src.tar"
run rm -rf "$prefix/src"
run mv "$prefix/src.new" "$prefix/src"

step "create the virtual environment (it sees apt's picamera2, libcamera and numpy)"
if [ ! -x "$venv/bin/python" ]; then
  run python3 -m venv --system-site-packages "$venv"
fi
run "$venv/bin/python" -m pip install -q --upgrade pip
run "$venv/bin/python" -m pip install -q --constraint "$prefix/src/deploy/pi-constraints.txt" "$prefix/src"

step "write the configuration (an existing $etc/companion.toml is kept)"
run mkdir -p "$etc"
if [ -f "$etc/companion.toml" ]; then
  echo "Keeping your $etc/companion.toml; checking it:"
  run "$venv/bin/companion" hw config --path "$etc/companion.toml"
else
  write "$etc/companion.toml" 0644 <"$src/deploy/companion.toml"
fi

step "write the kiosk's Kivy settings (fullscreen, no cursor, one touch provider, rotation $rotation)"
run install -d -m 0750 -o "$user" -g "$user" "$state" "$state/kivy"
sed "s/^rotation = .*/rotation = $rotation/" "$src/deploy/kivy-config.ini" | write "$state/kivy/config.ini" 0640
run chown "$user:$user" "$state/kivy/config.ini"

step "install and start the service"
sed -e "s#/opt/companion#$prefix#g" -e "s/^User=companion/User=$user/" -e "s/^Group=companion/Group=$user/" \
  "$src/deploy/companion.service" | write "$unit" 0644
run systemctl daemon-reload
run systemctl enable companion.service
if [ $start = 1 ]; then
  run systemctl restart companion.service
fi

echo
echo "Installed. The games database lives in $state and survives updates; the settings are in $etc/companion.toml."
echo "After wiring, run: sudo -u $user $venv/bin/companion hw check"
