#!/usr/bin/env bash
# Install Muggins on Raspberry Pi OS (Bookworm or later) as a service that starts at boot.
#
#   sudo hardware/install.sh             # install or upgrade, then start the service
#   sudo hardware/install.sh --no-start  # install but leave the service stopped (e.g. to calibrate first)
#   hardware/install.sh --dry-run        # print what would be done, change nothing
#   sudo hardware/install.sh --no-rpi-archive  # leave out the packages only the Raspberry Pi archive
#                                        # has (on plain Debian arm64, e.g. hardware/arm64/check.sh)
#
# What it does:
#   1. apt packages: Python venv, picamera2 (comes from apt, not PyPI), espeak-ng, lgpio, spidev, and
#      the X, GL and GLib libraries the OpenCV wheel loads (a Lite image without a desktop lacks them);
#   2. enables SPI (the LED strip is driven over SPI MOSI);
#   3. a system user `muggins` in the groups gpio spi video audio;
#   4. copies this checkout to /opt/muggins and builds /opt/muggins/venv with --system-site-packages
#      (so the apt picamera2 is visible) and the project installed with its Pi extras;
#   5. /etc/muggins/muggins.toml from the example config (an existing one is never overwritten);
#   6. the systemd unit (state in /var/lib/muggins, logs in the journal, restart on failure).
set -euo pipefail

PREFIX=/opt/muggins
CONFIG_DIR=/etc/muggins
STATE_DIR=/var/lib/muggins
UNIT=/etc/systemd/system/muggins.service
SERVICE_USER=muggins
APT_PACKAGES=(python3 python3-venv python3-pip python3-spidev espeak-ng alsa-utils libopenblas0 rsync)
# opencv-python (not -headless: `muggins calibrate` opens a window where there is a screen) loads
# GL and GLib when cv2 is imported, even with no screen, and its window (Qt on X) needs the X ones;
# a desktop image has them all, a Lite one may not.
OPENCV_LIBRARIES=(libgl1 libglib2.0-0 libxcb1 libxext6 libsm6 libice6)
# Only the Raspberry Pi archive (archive.raspberrypi.com) has these; Debian itself does not.
RPI_ARCHIVE_PACKAGES=(python3-picamera2 python3-lgpio)

DRY_RUN=0
START=1
RPI_ARCHIVE=1
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        --no-rpi-archive) RPI_ARCHIVE=0 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

SOURCE="$(cd "$(dirname "$0")/.." && pwd)"

run() {
    echo "+ $*"
    if [ "$DRY_RUN" = 0 ]; then "$@"; fi
}

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root: sudo $0 $*" >&2
    exit 1
fi
if [ ! -f "$SOURCE/pyproject.toml" ]; then
    echo "install.sh: $SOURCE does not look like a Muggins checkout (no pyproject.toml)" >&2
    exit 1
fi
if [ -r /etc/os-release ] && ! grep -qiE 'raspbian|debian' /etc/os-release; then
    echo "install.sh: warning: this is not Raspberry Pi OS; carrying on, but package names may differ" >&2
fi

echo "== 1. system packages"
PACKAGES=("${APT_PACKAGES[@]}" "${OPENCV_LIBRARIES[@]}")
if [ "$RPI_ARCHIVE" = 1 ]; then
    PACKAGES+=("${RPI_ARCHIVE_PACKAGES[@]}")
else
    echo "   left out (--no-rpi-archive), as only the Raspberry Pi archive has them: ${RPI_ARCHIVE_PACKAGES[*]}"
fi
run apt-get update -q
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${PACKAGES[@]}"

echo "== 2. SPI for the LED strip"
if command -v raspi-config >/dev/null 2>&1; then
    run raspi-config nonint do_spi 0
else
    echo "   raspi-config not found: enable SPI by hand (dtparam=spi=on in /boot/firmware/config.txt)"
fi

echo "== 3. service user and groups"
for group in gpio spi video audio; do
    if ! getent group "$group" >/dev/null; then run groupadd --system "$group"; fi
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod -a -G gpio,spi,video,audio "$SERVICE_USER"

echo "== 4. program and virtual environment in $PREFIX"
run mkdir -p "$PREFIX"
run rsync -a --delete --exclude .venv --exclude .git --exclude venv --exclude state --exclude .cache \
    "$SOURCE/" "$PREFIX/"
if [ ! -x "$PREFIX/venv/bin/python" ]; then
    run python3 -m venv --system-site-packages "$PREFIX/venv"
fi
run "$PREFIX/venv/bin/pip" install -q --upgrade pip
run "$PREFIX/venv/bin/pip" install -q "$PREFIX[pi]"

echo "== 5. configuration in $CONFIG_DIR"
run install -d -m 0755 "$CONFIG_DIR"
EXAMPLE=""
for candidate in "$SOURCE"/hardware/*.toml "$SOURCE"/device/data/*.toml; do
    if [ -f "$candidate" ]; then EXAMPLE="$candidate"; break; fi
done
if [ -f "$CONFIG_DIR/muggins.toml" ]; then
    echo "   $CONFIG_DIR/muggins.toml exists: kept as it is"
elif [ -n "$EXAMPLE" ]; then
    run install -m 0644 "$EXAMPLE" "$CONFIG_DIR/muggins.toml"
else
    echo "   no example config found; the device runs on its defaults until you write $CONFIG_DIR/muggins.toml"
fi
run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"

echo "== 6. systemd unit"
run install -m 0644 "$SOURCE/hardware/muggins.service" "$UNIT"
CALIBRATE="$PREFIX/venv/bin/muggins calibrate --config $CONFIG_DIR/muggins.toml"
if [ ! -d /run/systemd/system ] && [ "$DRY_RUN" = 0 ]; then
    # A chroot, or an SD card image being prepared: systemctl can enable the unit but start nothing.
    if command -v systemctl >/dev/null 2>&1; then
        run systemctl enable muggins.service
        echo "systemd is not running here (a chroot or an image?): the service starts at the next boot."
    else
        echo "systemd is not installed here: $UNIT is in place for a system that runs it."
    fi
    echo "Set up the camera first with '$CALIBRATE'."
    exit 0
fi
run systemctl daemon-reload
run systemctl enable muggins.service
if [ "$START" = 1 ]; then
    run systemctl restart muggins.service
    echo "Muggins is running: 'journalctl -u muggins -f' shows its log."
else
    echo "Installed, not started: set up the camera with '$CALIBRATE',"
    echo "then 'sudo systemctl start muggins'."
fi
