#!/usr/bin/env bash
# Muggins installed and run on arm64, as on a Raspberry Pi, proven here under emulation.
#
#   sudo hardware/arm64/check.sh            # or: sudo make arm64
#   sudo hardware/arm64/check.sh --fresh    # run the installer on the bare root, not over the last install
#   sudo hardware/arm64/check.sh --rebuild  # make the Debian root again from nothing first
#
# An arm64 Debian bookworm root (the base of Raspberry Pi OS), made once by debootstrap and kept in
# .cache/arm64/base, is copied for each run and entered through qemu-user-static. Inside it:
#   1. hardware/install.sh --no-rpi-archive --no-start, exactly as a user runs it on a Pi, leaving out
#      only what the Raspberry Pi archive alone has (python3-picamera2, python3-lgpio). It runs on the
#      bare root the first time and whenever install.sh or pyproject.toml changed; otherwise over the
#      root it installed last time (.cache/arm64/installed), as an upgrade, which is much quicker;
#   2. every shared library the installed Python packages load is found;
#   3. `muggins score`, and `muggins recognize --json` over the test fixtures and a few replay frames,
#      compared card for card and outline for outline with the same images read on this machine;
#   4. `muggins test-hardware --simulate`;
#   5. `muggins run` on the installed config with no camera library, no GPIO and no SPI: it must
#      say what to install or enable and stop with status 2;
#   6. `muggins run` on a recorded replay (the installed config, its camera a replay) until it
#      announces a count.
# Each step's time is printed, measured under emulation: it says nothing of a Pi's speed.
# Needs root (debootstrap, chroot, mount); installs debootstrap, qemu-user-static and binfmt-support
# where missing. /proc, /sys and /dev are mounted in the root only while it runs, always unmounted.
# The apt packages and pip downloads are kept in .cache/arm64 so that a second run fetches nothing.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="${MUGGINS_ARM64_CACHE:-$REPO/.cache/arm64}"
SUITE=bookworm
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
BASE="$CACHE/base"
ROOT="$CACHE/root"          # the root each run works in, copied from one of these:
INSTALLED="$CACHE/installed" # the root as the installer left it, kept for the next run
LOGS="$CACHE/logs"
WORK="$CACHE/work"          # the pictures and the host's reads, made afresh each run
HOST_PY="${HOST_PYTHON:-$REPO/.venv/bin/python}"
HOST_TOOLS=(debootstrap qemu-user-static binfmt-support)
# The core qemu emulates: a Pi 5's. Its default ("max") has SVE and SME, on which onnxruntime picks
# kernels qemu runs six times slower, and which no Pi has. (QEMU_CPU=cortex-a72: a Pi 4's.)
export QEMU_CPU="${QEMU_CPU:-cortex-a76}"
# Debian packages a Raspberry Pi OS Lite image has that a minimal debootstrap does not, and that
# matter here: systemd (the installer enables the unit).
BASE_EXTRAS=ca-certificates,systemd
INSIDE=/tmp/check            # in the root: the pictures, configs and reads
PREFIX=/opt/muggins          # where install.sh puts the program
MUGGINS="$PREFIX/venv/bin/muggins"
RUN_TIMEOUT_S=600            # the replay run, emulated, must announce a count within this

REBUILD=0
FRESH=0
for arg in "$@"; do
    case "$arg" in
        --rebuild) REBUILD=1; FRESH=1 ;;
        --fresh) FRESH=1 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) echo "check.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

if [ "$(id -u)" != 0 ]; then
    echo "check.sh: run it as root (debootstrap, chroot and mount need it): sudo $0 $*" >&2
    exit 2
fi
if [ ! -x "$HOST_PY" ]; then
    echo "check.sh: no $HOST_PY to read the pictures on this machine: run 'make test' first, or set HOST_PYTHON" >&2
    exit 2
fi

RESULTS=()
FAILED=0
MOUNTS=()

# ---- mounts: made only through mount_in, every one undone on any exit -------------------------

unmount_all() {
    local target
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" 2>/dev/null || true
    done
    MOUNTS=()
    # Anything else left in the roots (a debootstrap cut short leaves its own /proc and /sys).
    while read -r target; do
        umount "$target" 2>/dev/null || umount -l "$target" 2>/dev/null || true
    done < <(findmnt -rn -o TARGET | grep -F -e "$ROOT/" -e "$BASE.partial/" | sort -r || true)
}
trap unmount_all EXIT
trap 'exit 130' INT TERM

mount_in() {  # mount_in TARGET mount-arguments...
    local target="$1"
    shift
    [ -e "$target" ] || mkdir -p "$target"
    mount "$@" "$target"
    MOUNTS+=("$target")
}

# ---- reporting ---------------------------------------------------------------------------------

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }

step() {  # step NAME COMMAND...: run it, log it, and record PASS or FAIL with its time
    local name="$1" log="$LOGS/$2.log" start code
    shift 2
    echo "== $name"
    start="$(now)"
    set +e
    "$@" 2>&1 | tee "$log"
    code="${PIPESTATUS[0]}"
    set -e
    if [ "$code" = 0 ]; then
        RESULTS+=("PASS  $name  ($(seconds "$start") s emulated)")
    else
        RESULTS+=("FAIL  $name  (exit status $code; log: $log)")
        FAILED=1
    fi
    return 0
}

inside() {  # inside COMMAND...: run in the root as root, with the host's pip settings
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 QEMU_CPU="$QEMU_CPU" "${PIP_ENV[@]}" "$@"
}

service_command() {  # service_command COMMAND...: SERVICE to run it in the root as systemd runs the
    # service: as its user, with its groups, in its working directory, with its environment
    # (GPIOZERO_PIN_FACTORY=lgpio among it), all read from the unit the installer put in place
    local unit="$ROOT/etc/systemd/system/muggins.service" unit_env=() groups
    mapfile -t unit_env < <(sed -n 's/^Environment=//p' "$unit")
    groups="$(sed -n 's/^SupplementaryGroups=//p' "$unit" | tr ' ' ',')"
    SERVICE=(chroot --userspec=muggins:muggins --groups="muggins${groups:+,$groups}" "$ROOT" /usr/bin/env -i
             -C "$(sed -n 's/^WorkingDirectory=//p' "$unit")" PATH=/usr/bin:/bin HOME=/var/lib/muggins
             LANG=C.UTF-8 QEMU_CPU="$QEMU_CPU" "${unit_env[@]}" "$@")
}

as_service() {  # as_service COMMAND...: run it so
    service_command "$@"
    "${SERVICE[@]}"
}

# ---- 0. this machine's tools -------------------------------------------------------------------

missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v update-binfmts >/dev/null || missing+=(binfmt-support)
[ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || command -v qemu-aarch64-static >/dev/null \
    || missing+=(qemu-user-static)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "== installing ${missing[*]} on this machine"
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" || {
        echo "check.sh: could not install them; run: sudo apt-get install ${HOST_TOOLS[*]}" >&2; exit 2; }
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    update-binfmts --enable qemu-aarch64 || true
fi
if ! grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
    echo "check.sh: arm64 programs cannot run here: qemu-aarch64 is not registered with binfmt_misc" >&2
    echo "          (try: sudo update-binfmts --enable qemu-aarch64)" >&2
    exit 2
fi
# Without the F flag the kernel looks for the interpreter inside the root, so copy it in there.
QEMU_IN_ROOT=""
if ! grep -q '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64; then
    QEMU_IN_ROOT="$(sed -n 's/^interpreter //p' /proc/sys/fs/binfmt_misc/qemu-aarch64)"
fi

mkdir -p "$CACHE" "$LOGS" "$CACHE/apt-archives/partial" "$CACHE/pip-cache"
START_ALL="$(now)"

# ---- 1. the Debian root, made once -------------------------------------------------------------

if [ "$REBUILD" = 1 ] || [ ! -f "$BASE/.muggins-base" ]; then
    echo "== making the arm64 Debian $SUITE root (debootstrap, emulated: several minutes, once)"
    start="$(now)"
    rm -rf "$BASE.partial" "$BASE"
    debootstrap --arch=arm64 --variant=minbase --include="$BASE_EXTRAS" "$SUITE" "$BASE.partial" "$MIRROR" \
        > "$LOGS/debootstrap.log" 2>&1 || {
        echo "check.sh: debootstrap failed; the end of $LOGS/debootstrap.log:" >&2
        tail -20 "$LOGS/debootstrap.log" >&2; exit 1; }
    date -u +%FT%TZ > "$BASE.partial/.muggins-base"
    mv "$BASE.partial" "$BASE"
    RESULTS+=("PASS  debootstrap arm64 $SUITE  ($(seconds "$start") s emulated)")
else
    echo "== the arm64 Debian $SUITE root made $(cat "$BASE/.muggins-base") (--rebuild to make it again)"
fi

# ---- 2. a copy of it, entered with the host's network and pip settings --------------------------

# qemu-user shows an arm64 program this machine's /proc/cpuinfo, an x86 one, beside /sys's CPU lists:
# onnxruntime's CPU probe (cpuinfo) then dies with SIGSEGV when it is imported. A Pi's /proc/cpuinfo
# describes its own cores, so the root gets one that does too: a Cortex-A76 (a Pi 5's) per CPU that
# /sys lists, with no Raspberry Pi model or revision (this is no Pi, and gpiozero must see that).
write_cpuinfo() {
    local range lo hi i
    : > "$CACHE/cpuinfo"
    for range in $(tr ',' ' ' < /sys/devices/system/cpu/present); do
        lo="${range%-*}"; hi="${range#*-}"
        for ((i = lo; i <= hi; i++)); do
            printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x4\nCPU part\t: 0xd0b\nCPU revision\t: 1\n\n' "$i" >> "$CACHE/cpuinfo"
        done
    done
}

enter_root() {
    mount_in "$ROOT/proc" -t proc proc
    write_cpuinfo
    mount_in "$ROOT/proc/cpuinfo" --bind "$CACHE/cpuinfo"
    mount_in "$ROOT/sys" -t sysfs sysfs
    mount_in "$ROOT/dev" --bind /dev
    mount_in "$ROOT/dev/pts" --bind /dev/pts
    mount_in "$ROOT/var/cache/apt/archives" --bind "$CACHE/apt-archives"
    mount_in "$ROOT/root/.cache/pip" --bind "$CACHE/pip-cache"
}

# The installer's first run on the bare root is the proof; its result is kept, and later runs
# upgrade that copy (as a second `install.sh` does on a Pi) while the installer, the project's
# dependencies and the base root are unchanged. A change to any of them starts from the bare root.
INSTALL_KEY="$(cat "$BASE/.muggins-base" "$REPO/hardware/install.sh" "$REPO/pyproject.toml" | sha256sum | cut -c1-16)"
rm -rf "$ROOT"
if [ "$FRESH" = 0 ] && [ -f "$INSTALLED/.muggins-installed" ] \
   && [ "$(cat "$INSTALLED/.muggins-installed")" = "$INSTALL_KEY" ]; then
    echo "== the root as installed before (installer and dependencies unchanged; --fresh to start bare)"
    cp -a "$INSTALLED" "$ROOT"
    FIRST_INSTALL=0
else
    echo "== a bare copy of the root: the installer runs on it from the start"
    cp -a "$BASE" "$ROOT"
    FIRST_INSTALL=1
fi
if [ -n "$QEMU_IN_ROOT" ]; then
    mkdir -p "$ROOT$(dirname "$QEMU_IN_ROOT")" && cp "$QEMU_IN_ROOT" "$ROOT$QEMU_IN_ROOT"
fi
enter_root
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
# Services are not started inside a root being set up (the usual policy for a chroot).
printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d" && chmod 755 "$ROOT/usr/sbin/policy-rc.d"

# pip inside reaches PyPI as it does here: this machine's pip settings and CA bundle, copied now
# (nothing of this machine's is written into the repository).
PIP_ENV=()
for file in /etc/pip.conf /etc/xdg/pip/* "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf" \
            "${PIP_CONFIG_FILE:-}"; do
    if [ -n "$file" ] && [ -f "$file" ]; then
        mkdir -p "$ROOT$(dirname "$file")" && cp -L "$file" "$ROOT$file"
        if [ "$file" = "${PIP_CONFIG_FILE:-}" ]; then PIP_ENV+=("PIP_CONFIG_FILE=$file"); fi
    fi
done
while IFS='=' read -r name value; do
    case "$name" in PIP_CONFIG_FILE|PIP_CERT) ;; PIP_*) PIP_ENV+=("$name=$value") ;; esac
done < <(env)
HOST_CA="${PIP_CERT:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}"
if [ -f "$HOST_CA" ]; then
    mkdir -p "$ROOT/etc/muggins-check"
    cp -L "$HOST_CA" "$ROOT/etc/muggins-check/host-ca.pem"
    PIP_ENV+=(PIP_CERT=/etc/muggins-check/host-ca.pem SSL_CERT_FILE=/etc/muggins-check/host-ca.pem
              REQUESTS_CA_BUNDLE=/etc/muggins-check/host-ca.pem)
fi

# The checkout as a user would have it on the Pi: its files, not its .venv, .git or caches.
rm -rf "$ROOT/root/muggins" && mkdir -p "$ROOT/root/muggins"
(cd "$REPO" && git -c safe.directory="$REPO" ls-files -z -c -o --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$ROOT/root/muggins" -xf -

# ---- 3. the installer, as on a Pi --------------------------------------------------------------

if [ "$FIRST_INSTALL" = 1 ]; then
    INSTALL_NAME="hardware/install.sh --no-rpi-archive --no-start, on the bare root"
else
    INSTALL_NAME="hardware/install.sh --no-rpi-archive --no-start, again over the last install"
fi
step "$INSTALL_NAME" install inside bash /root/muggins/hardware/install.sh --no-rpi-archive --no-start
if [ ! -x "$ROOT$MUGGINS" ]; then
    echo "check.sh: the installer did not install $MUGGINS; nothing more to check" >&2
    printf '%s\n' "${RESULTS[@]}"
    exit 1
fi
if [ "$FIRST_INSTALL" = 1 ] && [ "$FAILED" = 0 ]; then
    echo "== keeping the installed root for the next run"
    unmount_all
    rm -rf "$INSTALLED.partial" "$INSTALLED"
    cp -a "$ROOT" "$INSTALLED.partial"
    echo "$INSTALL_KEY" > "$INSTALLED.partial/.muggins-installed"
    mv "$INSTALLED.partial" "$INSTALLED"
    enter_root
fi

step "every shared library the installed packages load is found" libraries \
    inside bash -c 'found=$(find '"$PREFIX"'/venv/lib -name "*.so*" -type f -print0 | xargs -0 ldd 2>/dev/null \
        | grep "not found" | sort -u); if [ -n "$found" ]; then echo "$found"; exit 1; fi; echo "all found"'

# ---- 4. the commands ---------------------------------------------------------------------------

rm -rf "$WORK" && mkdir -p "$WORK"
echo "== pictures and their reads on this machine ($(uname -m))"
# The simulated game's first steps, six frames each (the tracker's hold): the cuts, the table
# cleared, the starter, then South's lead, which the device announces with its count. The script's
# two steps before the lead (North laying a card by mistake and taking it back) are left out: every
# frame costs seconds emulated.
(cd "$REPO" && "$HOST_PY" -c "from sim.frames import write_replay
write_replay(1, '$WORK/frames', steps=7, frames_per_step=6)")
mkdir -p "$WORK/pictures"
cp "$REPO"/tests/fixtures/*.png "$WORK/pictures/"
for frame in 00011 00023 00029; do cp "$WORK/frames/frame$frame.jpg" "$WORK/pictures/"; done
rm -f "$WORK"/frames/frame000{24..35}.jpg
(cd "$WORK/pictures" && "$HOST_PY" -m device.cli recognize --json ./*) > "$WORK/host-reads.jsonl"
mkdir -p "$ROOT$INSIDE"
cp -r "$WORK/frames" "$WORK/pictures" "$ROOT$INSIDE/"
sed -e "s|^source = .*|source = \"replay:$INSIDE/frames\"|" -e "s|^state_dir = .*|state_dir = \"$INSIDE/state\"|" \
    "$ROOT/etc/muggins/muggins.toml" > "$ROOT$INSIDE/replay.toml"
inside chown -R muggins:muggins "$INSIDE"

check_score() {
    as_service "$MUGGINS" score 5H 5D 5C JS 5S > "$WORK/score.txt"
    cat "$WORK/score.txt"
    head -1 "$WORK/score.txt" | grep -q ': 29$'
}

check_recognize() {
    as_service bash -c "cd $INSIDE/pictures && $MUGGINS recognize --json ./*" > "$WORK/arm64-reads.jsonl"
    python3 "$HERE/compare_reads.py" "$WORK/host-reads.jsonl" "$WORK/arm64-reads.jsonl"
}

check_test_hardware() {
    as_service "$MUGGINS" test-hardware --simulate --config /etc/muggins/muggins.toml > "$WORK/walk.txt"
    head -2 "$WORK/walk.txt"; echo "  ..."; tail -1 "$WORK/walk.txt"
    tail -1 "$WORK/walk.txt" | grep -Eq '^buttons: [1-9][0-9]* event'
}

check_pi_parts() {
    local code=0
    as_service "$MUGGINS" run --config /etc/muggins/muggins.toml > "$WORK/pi-parts.txt" 2>&1 || code=$?
    cat "$WORK/pi-parts.txt"
    echo "exit status $code"
    local wanted
    for wanted in "sudo apt install python3-picamera2" "no GPIO found for the panel: " "dtparam=spi=on"; do
        grep -q -- "$wanted" "$WORK/pi-parts.txt" || { echo "not said: $wanted"; return 1; }
    done
    ! grep -q Traceback "$WORK/pi-parts.txt" && [ "$code" = 2 ]
}

check_replay_run() {  # a game of its own, not the journal the run above began in /var/lib/muggins
    service_command "$MUGGINS" run --config "$INSIDE/replay.toml" --state-dir "$INSIDE/state"
    python3 "$HERE/until_count.py" --timeout "$RUN_TIMEOUT_S" -- "${SERVICE[@]}"
}

step "muggins score 5H 5D 5C JS 5S: 29" score check_score
step "muggins recognize --json: the same cards and outlines as on $(uname -m)" recognize check_recognize
step "muggins test-hardware --simulate" test-hardware check_test_hardware
step "muggins run, real config, no picamera2, GPIO or SPI: says what to install, status 2" pi-parts check_pi_parts
step "muggins run on a recorded replay until it announces a count" replay-run check_replay_run

# ---- 5. what passed ----------------------------------------------------------------------------

echo
echo "arm64 ($SUITE, emulated by qemu-user on $(uname -m)): $(seconds "$START_ALL") s in all."
echo "The times are emulated: a Raspberry Pi runs these natively, and no Pi speed follows from them."
printf '%s\n' "${RESULTS[@]}"
exit "$FAILED"
