#!/usr/bin/env bash
# Install Schockbesteck as a systemd service on Raspberry Pi OS (Bookworm or newer, 32/64-bit).
#
#   sudo deploy/install.sh [--fast-i2c]      install or update; safe to run again
#   sudo deploy/install.sh --uninstall       remove service and venv, keep config and game state
#   sudo deploy/install.sh --purge           ... and remove config, game state and the user too
#   deploy/install.sh --root DIR --no-pip    install into DIR as if it were /, print system commands
#   sudo deploy/install.sh --hub --tables N  a tournament hub instead: mosquitto, N table users,
#                                            the hub's service (docs/tournament.md)
#
# Every step first looks at what is already there and changes only what differs, so a second run
# changes nothing and says so. See docs/deploy.md for every step, flag and exit code.
set -euo pipefail
umask 022  # the venv and config must be readable by the service user, whatever root's umask is

readonly PROG=install.sh
readonly SERVICE_USER=schockbesteck
readonly UNIT=schockbesteck.service
readonly APP_DIR=/opt/schockbesteck
readonly VENV_DIR=/opt/schockbesteck/venv
readonly STAMP=/opt/schockbesteck/installed-source.sha256
readonly CONFIG_DIR=/etc/schockbesteck
readonly CONFIG=/etc/schockbesteck/config.toml
readonly STATE_DIR=/var/lib/schockbesteck
readonly UNIT_PATH=/etc/systemd/system/schockbesteck.service
readonly ERROR_UNIT=schockbesteck-error.service
readonly ERROR_UNIT_PATH=/etc/systemd/system/schockbesteck-error.service
readonly DROPIN_DIR=/etc/systemd/system/schockbesteck.service.d
readonly NETWORK_DROPIN=/etc/systemd/system/schockbesteck.service.d/network.conf
readonly WANTS_LINK=/etc/systemd/system/multi-user.target.wants/schockbesteck.service
readonly MIN_PYTHON=3.11
# The tournament hub (--hub): its unit and system user, root's folder of secrets (the hub's broker
# password, every table's credentials), its SQLite store, and the broker's files.
readonly HUB_UNIT=schocken-hub.service
readonly HUB_UNIT_PATH=/etc/systemd/system/schocken-hub.service
readonly HUB_WANTS_LINK=/etc/systemd/system/multi-user.target.wants/schocken-hub.service
readonly HUB_USER=schocken-hub
readonly HUB_DB=/var/lib/schocken-hub/tournament.db
readonly HUB_SECRETS=/etc/schockbesteck/hub
readonly HUB_PASSWORD=/etc/schockbesteck/hub/mqtt-password
readonly HUB_DESK_PASSWORD=/etc/schockbesteck/hub/desk-password
readonly HUB_TABLES=/etc/schockbesteck/hub/tables.toml
readonly HUB_STATE_DIR=/var/lib/schocken-hub
readonly MOSQUITTO_CONF=/etc/mosquitto/conf.d/schocken.conf
readonly MOSQUITTO_ACL=/etc/mosquitto/schocken.acl
readonly MOSQUITTO_PASSWD=/etc/mosquitto/schocken.passwd
# Debian's mosquitto.conf logs to this file (mosquitto takes one "log_dest file"): the hub reads
# it for what the broker denies (`schocken hub serve --broker-log`), through the folder's group.
readonly BROKER_LOG_DIR=/var/log/mosquitto
readonly BROKER_LOG=/var/log/mosquitto/mosquitto.log
readonly MAX_TABLES=999
readonly DEVICE_GROUPS=(gpio i2c dialout)
# python3-pil is not imported (the venv needs Pillow >= 10.1, newer than Bookworm's), but it pulls in
# the shared libraries that piwheels' Pillow wheels for 32-bit Pi OS link against. python3-systemd
# sends the unit's READY=1 and watchdog pings. python3-lgpio comes only from the Raspberry Pi OS
# archive: where apt does not have it, lgpio comes from PyPI into the venv instead (LGPIO_PYPI).
readonly PACKAGES=(python3 python3-venv python3-lgpio python3-systemd i2c-tools python3-pil)
# PyPI's lgpio: 0.0.0.2 is an empty package, and there are wheels for CPython 3.11 only (no
# compiler on a Pi needed, none wanted): never build it from source.
readonly LGPIO_PYPI_SPEC='lgpio>=0.2.2'
# What of the checkout goes into the venv (and into the stamp that makes pip idempotent).
readonly SOURCE_ITEMS=(pyproject.toml README.md engine hal firmware sim schockbesteck)

# Exit codes (documented in docs/deploy.md and --help).
readonly E_FAIL=1 E_USAGE=2 E_NOT_ROOT=3 E_NOT_PIOS=4 E_NO_NETWORK=5 E_PYTHON=6 E_CHECKOUT=7 E_PIP=8

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly REPO

# Options
ROOT=""            # "" = the running system; otherwise a directory treated as /
MODE=install       # install | uninstall
PURGE=0
DRY_RUN=0
FAST_I2C=0
FORCE=0
NO_PIP="${SCHOCKBESTECK_NO_PIP:-0}"
PYTHON=""
PYTHON_VERSION=""
LGPIO_PYPI=0       # 1: python3-lgpio is not to be had from apt here, pip installs lgpio
PYTHON_FROM_APT=0  # 1: no python3 yet; checked after the packages step installed it
HUB=0              # 1: --hub, the tournament hub instead of the game device
TABLES=""          # --tables N (--hub): how many table users; "" keeps what is there
EVENT=""           # --event SLUG (--hub): the tournament's topic level (first install)
HUB_ADDRESS=""     # --address HOST (--hub): where the tables reach the hub
PACKAGES_WANTED=("${PACKAGES[@]}")

# Bookkeeping
CHANGES=0          # things changed (or, with --dry-run, that would change)
TARGET_CMDS=0      # system commands printed under --root
REBOOT_NEEDED=0
UNIT_CHANGED=0
CODE_CHANGED=0
CONFIG_WRITTEN=0
CONFIG_SECRET=no  # whether the configuration holds a secret: CONFIG_QUERY, step_network

usage() {
    cat <<'EOF'
Usage: sudo deploy/install.sh [OPTIONS]

Install Schockbesteck on Raspberry Pi OS: system packages, I2C, the system user `schockbesteck`,
a venv in /opt/schockbesteck/venv with this checkout, /etc/schockbesteck/config.toml (only if
missing) and the systemd unit schockbesteck.service (enabled and started). Running it again
changes only what differs.

Options:
  --fast-i2c     also set the I2C bus to 400 kHz (dtparam=i2c_arm_baudrate=400000; needs a reboot)
  --uninstall    remove the service and the venv; keep config, game state and the user
  --purge        uninstall and also remove /etc/schockbesteck, /var/lib/schockbesteck and the user
  --dry-run, -n  print every action without doing it (on any Linux: not Raspberry Pi OS is
                 a warning then)
  --root DIR     install into DIR as if it were / (for tests and packagers): files are written
                 under DIR, system commands (apt-get, raspi-config, modprobe, useradd, usermod,
                 systemctl) are printed, not run; no root needed. DIR must not be empty
                 ("--root /" is the running system)
  --no-pip       build the venv but skip `pip install` of the checkout (prints the command);
                 the same as SCHOCKBESTECK_NO_PIP=1
  --python PATH  interpreter for the venv (default: /usr/bin/python3)
  --force        go on even if this is not Raspberry Pi OS
  -h, --help     show this help

Tournament hub (docs/tournament.md): instead of the game device, install Debian's mosquitto with
the tournament's configuration (/etc/mosquitto/conf.d/schocken.conf: saved on every change, no
anonymous users, the ACL), a broker user and password per table, and schocken-hub.service.
It prints each new table's [tournament] block for that table's config.toml; all of them are
kept in /etc/schockbesteck/hub/tables.toml (root only).
  --hub            install (or with --uninstall/--purge remove) the hub; any Debian-family system
  --tables N       with --hub: N tables (1-999), users table-1 ... table-N; needed the first time,
                   later it adds or removes tables and keeps the others' passwords
  --event SLUG     with --hub: the tournament's short name in the topics, e.g. dm2026 (the
                   first time; default turnier); the hub's store is made for it
  --address HOST   with --hub: where the tables reach the hub (default: this machine's first
                   address)

Exit codes: 0 done, 1 unexpected failure, 2 bad usage, 3 not root, 4 not Raspberry Pi OS,
5 no network for apt, 6 Python missing or older than 3.11, 7 incomplete checkout, 8 pip failed.
EOF
}

# ---------------------------------------------------------------------------------------------
# Output and errors

DIED=0

die() {  # die CODE MESSAGE: one line on stderr, then exit CODE
    DIED=1
    printf '%s: error: %s\n' "$PROG" "$2" >&2
    exit "$1"
}

on_exit() {  # anything that stopped the script without die(): name the command, exit 1
    local rc=$? cmd=$BASH_COMMAND
    trap - EXIT
    if ((rc != 0 && !DIED)); then
        printf '%s: error: unexpected failure (exit %s) in: %s\n' "$PROG" "$rc" "$cmd" >&2
        exit "$E_FAIL"
    fi
}
trap on_exit EXIT

section() { printf '==> %s\n' "$*"; }
ok() { printf '  ok: %s\n' "$*"; }
note() { printf '  note: %s\n' "$*"; }

change() {  # change DESCRIPTION: count and announce a change (or a would-be change)
    CHANGES=$((CHANGES + 1))
    if ((DRY_RUN)); then
        printf '  would: %s\n' "$*"
    else
        printf '  changed: %s\n' "$*"
    fi
}

quote_cmd() {  # print a command so it can be pasted into a shell
    local arg out=""
    for arg in "$@"; do
        if [[ $arg =~ ^[A-Za-z0-9_./=:,@%+-]+$ ]]; then
            out+="$arg "
        else
            out+="$(printf '%q' "$arg") "
        fi
    done
    printf '%s' "${out% }"
}

sys_cmd() {  # sys_cmd CMD ARGS...: run a system command; print it under --root or --dry-run
    if [[ -n $ROOT ]]; then
        TARGET_CMDS=$((TARGET_CMDS + 1))
        printf '  target: %s\n' "$(quote_cmd "$@")"
        return 0
    fi
    CHANGES=$((CHANGES + 1))
    if ((DRY_RUN)); then
        printf '  would run: %s\n' "$(quote_cmd "$@")"
        return 0
    fi
    printf '  run: %s\n' "$(quote_cmd "$@")"
    "$@"
}

# ---------------------------------------------------------------------------------------------
# Arguments and preconditions

parse_args() {
    while (($#)); do
        case $1 in
            --fast-i2c) FAST_I2C=1 ;;
            --uninstall) MODE=uninstall ;;
            --purge) MODE=uninstall PURGE=1 ;;
            -n | --dry-run) DRY_RUN=1 ;;
            --force) FORCE=1 ;;
            --hub) HUB=1 ;;
            --tables | --event | --address)
                (($# >= 2)) || die "$E_USAGE" "$1 needs an argument (see --help)"
                case $1 in
                    --tables) TABLES=$2 ;;
                    --event) EVENT=$2 ;;
                    *) HUB_ADDRESS=$2 ;;
                esac
                shift
                ;;
            --no-pip) NO_PIP=1 ;;
            --root | --python)
                (($# >= 2)) || die "$E_USAGE" "$1 needs an argument (see --help)"
                if [[ $1 == --root ]]; then set_root "$2"; else PYTHON=$2; fi
                shift
                ;;
            --root=*) set_root "${1#--root=}" ;;
            --python=*) PYTHON=${1#--python=} ;;
            -h | --help)
                usage
                exit 0
                ;;
            *) die "$E_USAGE" "unknown option '$1' (allowed: --fast-i2c --uninstall --purge --dry-run --root DIR --no-pip --python PATH --force --hub --tables N --event SLUG --address HOST --help)" ;;
        esac
        shift
    done
    if [[ $NO_PIP != 0 && $NO_PIP != 1 ]]; then
        die "$E_USAGE" "SCHOCKBESTECK_NO_PIP must be 0 or 1, not '$NO_PIP'"
    fi
    if [[ -n $ROOT ]]; then
        [[ -d $ROOT ]] || die "$E_USAGE" "--root $ROOT: no such directory"
        ROOT="$(cd "$ROOT" && pwd)"
        [[ $ROOT != / ]] || ROOT=""  # --root / is the running system
    fi
    if [[ $MODE == uninstall ]] && ((FAST_I2C)); then
        die "$E_USAGE" "--fast-i2c cannot be combined with --uninstall/--purge"
    fi
    check_hub_args
}

check_hub_args() {  # --tables, --event and --address belong to --hub, and must be sound
    if ! ((HUB)); then
        [[ -z $TABLES && -z $EVENT && -z $HUB_ADDRESS ]] ||
            die "$E_USAGE" "--tables, --event and --address go with --hub"
        return 0
    fi
    ((FAST_I2C)) && die "$E_USAGE" "--fast-i2c is for the game device, not with --hub"
    if [[ -n $TABLES ]]; then
        if ! [[ $TABLES =~ ^[0-9]{1,4}$ ]] || ((10#$TABLES < 1 || 10#$TABLES > MAX_TABLES)); then
            die "$E_USAGE" "--tables '$TABLES': must be a whole number 1 to $MAX_TABLES"
        fi
        TABLES=$((10#$TABLES))
    fi
    [[ -z $EVENT || $EVENT =~ ^[a-z0-9][a-z0-9-]{0,31}$ ]] ||
        die "$E_USAGE" "--event '$EVENT': 1-32 lower-case letters, digits or dashes (a topic level)"
    [[ -z $HUB_ADDRESS || $HUB_ADDRESS =~ ^[A-Za-z0-9.:-]{1,253}$ || $HUB_ADDRESS =~ ^\[[0-9A-Fa-f:]+\]$ ]] ||
        die "$E_USAGE" "--address '$HUB_ADDRESS': a host name or an IP address ([...] for IPv6)"
    return 0
}

set_root() {  # set_root DIR: --root's value; an empty one is refused, never taken for "/"
    # A packager's `--root "$DESTDIR"` with DESTDIR unset must not install into, or purge, the
    # running system.
    [[ -n $1 ]] || die "$E_USAGE" "--root needs a directory, not an empty string (an unset \$DESTDIR?); use --root / for the running system"
    ROOT=$1
}

check_root() {
    # SCHOCKBESTECK_EUID stands in for the real id in tests of this very check.
    local euid="${SCHOCKBESTECK_EUID:-$EUID}"
    [[ -z $ROOT ]] || return 0
    ((DRY_RUN)) && return 0
    [[ $euid == 0 ]] || die "$E_NOT_ROOT" "must run as root: sudo $0${*:+ $*}"
}

check_checkout() {
    local f
    for f in pyproject.toml deploy/config.toml deploy/schockbesteck.service \
        deploy/schockbesteck-error.service deploy/network.conf; do
        [[ -f $REPO/$f ]] || die "$E_CHECKOUT" "incomplete checkout: $REPO/$f is missing"
    done
    ((HUB)) || return 0
    for f in deploy/schocken-hub.service firmware/wire/broker.py; do
        [[ -f $REPO/$f ]] || die "$E_CHECKOUT" "incomplete checkout: $REPO/$f is missing"
    done
}

os_release_value() {  # os_release_value FILE KEY: KEY's value, read as data (never executed)
    # os-release(5): KEY=value lines, the value optionally in single or double quotes with
    # backslash escapes inside double quotes. Anything else on the line is not evaluated.
    local file=$1 key=$2 line value found=""
    [[ -f $file ]] || return 0
    while IFS= read -r line || [[ -n $line ]]; do
        [[ $line == "$key="* ]] || continue
        value=${line#"$key="}
        if [[ $value == \"*\" && ${#value} -ge 2 ]]; then
            value=${value:1:${#value}-2}
            value=${value//\\\"/\"}
            value=${value//\\\\/\\}
        elif [[ $value == \'*\' && ${#value} -ge 2 ]]; then
            value=${value:1:${#value}-2}
        fi
        found=$value  # a later line wins, as it would in a shell
    done <"$file"
    printf '%s' "$found"
}

is_pi_os() {
    # 32-bit Pi OS says ID=raspbian; 64-bit Pi OS says ID=debian but ships /etc/rpi-issue.
    [[ "$(os_release_value "$ROOT/etc/os-release" ID)" == raspbian || -f $ROOT/etc/rpi-issue ]]
}

check_os() {
    ((FORCE)) && return 0
    is_pi_os && return 0
    local id
    id="$(os_release_value "$ROOT/etc/os-release" ID)"
    if ((DRY_RUN)); then
        # A dry run changes nothing: show every step on any Linux, and say what a real run does.
        printf '%s: warning: this is not Raspberry Pi OS (no %s/etc/rpi-issue, ID=%s); a real install would stop here (exit 4) unless --force\n' \
            "$PROG" "$ROOT" "'${id}'" >&2
        return 0
    fi
    die "$E_NOT_PIOS" "this is not Raspberry Pi OS (no ${ROOT}/etc/rpi-issue, ID='${id}'); use --force to go on anyway"
}

pick_python() {  # pick_python [early]: early may leave it to apt on a system without python3
    if [[ ${1:-} == early && -z $PYTHON && -z $ROOT && ! -e /usr/bin/python3 ]]; then
        # A minimal Debian (DietPi, a container) may have no python3 at all: the packages step
        # installs Debian's, then it is checked. Raspberry Pi OS always has it.
        PYTHON_FROM_APT=1
        return 0
    fi
    if [[ -z $PYTHON ]]; then
        if [[ -z $ROOT && -x /usr/bin/python3 ]]; then
            PYTHON=/usr/bin/python3  # Debian's: the one python3-lgpio is built for
        else
            PYTHON="$(command -v python3 || true)"
        fi
    fi
    if [[ -z $PYTHON ]] || ! command -v "$PYTHON" >/dev/null; then
        die "$E_PYTHON" "python3 not found: Schockbesteck needs Python $MIN_PYTHON or newer (Raspberry Pi OS Bookworm)"
    fi
    local version
    version="$("$PYTHON" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null)" ||
        die "$E_PYTHON" "$PYTHON does not run: Schockbesteck needs Python $MIN_PYTHON or newer"
    if ! version_at_least "$version" "$MIN_PYTHON"; then
        die "$E_PYTHON" "Python $version at $PYTHON is older than $MIN_PYTHON: use Raspberry Pi OS Bookworm or newer"
    fi
    PYTHON_VERSION=$version
}

version_at_least() {  # version_at_least 3.9.2 3.11 -> false
    local -a got need
    IFS=. read -r -a got <<<"$1"
    IFS=. read -r -a need <<<"$2"
    if ((got[0] != need[0])); then
        ((got[0] > need[0]))
        return
    fi
    ((${got[1]:-0} >= ${need[1]:-0}))
}

# ---------------------------------------------------------------------------------------------
# Queries about the target; under --root they read DIR's files

package_installed() {
    local admin=(--admindir=/var/lib/dpkg)
    if [[ -n $ROOT ]]; then
        [[ -f $ROOT/var/lib/dpkg/status ]] || return 1
        admin=(--admindir="$ROOT/var/lib/dpkg")
    fi
    command -v dpkg-query >/dev/null || return 1
    [[ "$(dpkg-query "${admin[@]}" -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == installed ]]
}

db_lookup() {  # db_lookup passwd|group NAME: print the entry; status 2 if it cannot be known
    if [[ -z $ROOT ]]; then
        getent "$1" "$2" || return 1  # getent says 2 for "no such entry"
        return 0
    fi
    [[ -f $ROOT/etc/$1 ]] || return 2
    awk -F: -v name="$2" '$1 == name { print; found = 1 } END { exit !found }' "$ROOT/etc/$1"
}

user_state() {  # prints yes, no or unknown
    local rc=0
    db_lookup passwd "$SERVICE_USER" >/dev/null || rc=$?
    case $rc in 0) echo yes ;; 2) echo unknown ;; *) echo no ;; esac
}

user_in_group() {
    local members
    members="$(db_lookup group "$1" | cut -d: -f4)" || return 1
    [[ ",$members," == *",$SERVICE_USER,"* ]] && return 0
    # The primary group does not list its members.
    local gid user_gid
    gid="$(db_lookup group "$1" | cut -d: -f3)"
    user_gid="$(db_lookup passwd "$SERVICE_USER" | cut -d: -f4)" || return 1
    [[ $gid == "$user_gid" ]]
}

boot_config() {  # the firmware's config.txt, or nothing
    local f
    for f in /boot/firmware/config.txt /boot/config.txt; do
        # On Bookworm /boot/config.txt is only a pointer to the new place: prefer the new one.
        if [[ -f $ROOT$f ]]; then
            printf '%s' "$ROOT$f"
            return 0
        fi
    done
}

service_enabled() {
    if [[ -n $ROOT ]]; then
        [[ -L $ROOT$WANTS_LINK ]]
    else
        systemctl is-enabled --quiet "$UNIT" 2>/dev/null
    fi
}

service_active() {
    [[ -z $ROOT ]] && systemctl is-active --quiet "$UNIT" 2>/dev/null
}

# ---------------------------------------------------------------------------------------------
# File helpers (paths are target paths; $ROOT is prepended here)

put_file() {  # put_file SRC TARGET_PATH MODE: install unless identical; status 0 = changed
    local src=$1 dest=$ROOT$2 mode=$3
    if [[ -f $dest ]] && cmp -s "$src" "$dest" && [[ "$(stat -c %a "$dest")" == "${mode#0}" ]]; then
        ok "$2 is up to date"
        return 1
    fi
    change "install $2 (mode $mode)"
    ((DRY_RUN)) && return 0
    local owner=()
    ((EUID == 0)) && owner=(-o root -g root)
    install -D -m "$mode" "${owner[@]}" "$src" "$dest"
}

put_dir() {  # put_dir TARGET_PATH MODE
    local dest=$ROOT$1
    if [[ -d $dest ]]; then
        return 0
    fi
    change "create directory $1"
    ((DRY_RUN)) && return 0
    install -d -m "$2" "$dest"
}

remove_path() {  # remove_path TARGET_PATH
    local path=$ROOT$1
    if [[ ! -e $path && ! -L $path ]]; then
        ok "$1 is not there"
        return 1
    fi
    change "remove $1"
    ((DRY_RUN)) && return 0
    rm -rf -- "$path"
}

edit_file() {  # edit_file FILE DESCRIPTION FUNC: FUNC filters stdin to stdout; write if it differs
    local file=$1 what=$2 filter=$3 tmp
    tmp="$(mktemp)"
    "$filter" <"$file" >"$tmp"
    if cmp -s "$file" "$tmp"; then
        rm -f "$tmp"
        ok "${file#"$ROOT"}: $what already set"
        return 1
    fi
    change "${file#"$ROOT"}: $what"
    if ((DRY_RUN)); then
        rm -f "$tmp"
        return 0
    fi
    cat "$tmp" >"$file"  # keeps the file's owner and mode
    rm -f "$tmp"
}

# ---------------------------------------------------------------------------------------------
# Install steps

apt_offers() {  # apt_offers PACKAGE: the target's apt has a candidate; status 2 if it cannot tell
    # Package lists are *_Packages files (compressed ones, as Ubuntu may keep them, end in .lz4
    # or similar: apt-cache reads those, the --root grep cannot).
    local lists=("$ROOT"/var/lib/apt/lists/*_Packages*)
    [[ -e ${lists[0]} ]] || return 2  # no package lists yet (before the first apt-get update)
    if [[ -n $ROOT ]]; then
        lists=("$ROOT"/var/lib/apt/lists/*_Packages)
        [[ -e ${lists[0]} ]] || return 2
        grep -qx "Package: $1" "${lists[@]}"
        return
    fi
    command -v apt-cache >/dev/null || return 2
    local candidate
    candidate="$(apt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')"
    [[ -n $candidate && $candidate != "(none)" ]]
}

lgpio_from_pypi() {  # lgpio_from_pypi FINAL: 0 = from PyPI, 1 = from apt, 2 = not known yet
    local rc=0
    apt_offers python3-lgpio || rc=$?
    ((rc != 2)) && return $((rc == 0 ? 1 : 0))
    # No package lists to ask. Before apt-get update: not known yet. After it (or under --root,
    # where nothing is updated): Raspberry Pi OS has python3-lgpio, anything else does not.
    [[ $1 == final ]] || return 2
    is_pi_os && return 1
    return 0
}

step_packages() {
    section "System packages"
    local pkg missing=()
    for pkg in "${PACKAGES_WANTED[@]}"; do
        if package_installed "$pkg"; then ok "$pkg is installed"; else missing+=("$pkg"); fi
    done
    # With current package lists, a missing python3-lgpio that apt cannot offer needs no update.
    drop_unavailable_lgpio early
    ((${#missing[@]})) || return 0
    if [[ -z $ROOT ]] && ! ((DRY_RUN)); then
        command -v apt-get >/dev/null || die "$E_FAIL" "apt-get not found: install ${missing[*]} by hand"
        printf '  run: apt-get update\n'
        apt-get update -qq ||
            die "$E_NO_NETWORK" "apt-get update failed: no network? Check the connection and try again"
    fi
    drop_unavailable_lgpio final
    ((${#missing[@]})) || return 0
    if [[ -z $ROOT ]] && ! ((DRY_RUN)); then
        printf '  run: %s\n' "$(quote_cmd apt-get install -y --no-install-recommends "${missing[@]}")"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
            die "$E_NO_NETWORK" "apt-get install ${missing[*]} failed: no network, or a broken apt source? See above"
        CHANGES=$((CHANGES + 1))
        return 0
    fi
    sys_cmd apt-get update
    sys_cmd apt-get install -y --no-install-recommends "${missing[@]}"
}

drop_unavailable_lgpio() {  # drop_unavailable_lgpio early|final: edits step_packages' missing
    local pkg rest=() wanted=0 rc=0
    for pkg in "${missing[@]}"; do
        if [[ $pkg == python3-lgpio ]]; then wanted=1; else rest+=("$pkg"); fi
    done
    ((wanted)) || return 0
    lgpio_from_pypi "$1" || rc=$?
    ((rc == 0)) || return 0
    LGPIO_PYPI=1
    missing=(${rest[@]+"${rest[@]}"})
    note "python3-lgpio is not available from apt here (it comes from the Raspberry Pi OS archive): pip installs $LGPIO_PYPI_SPEC from PyPI into the venv instead"
}

enable_i2c_lines() {  # filter for config.txt: dtparam=i2c_arm=on in effect for all models
    awk '
        /^[[:space:]]*dtparam=([^#]*,)?i2c_arm=on([,[:space:]]|$)/ { found = 1 }
        /^[[:space:]]*dtparam=([^#]*,)?i2c(_arm)?=(off|0|no|false)/ && !done {
            sub(/i2c(_arm)?=(off|0|no|false)/, "i2c_arm=on"); found = 1; done = 1
        }
        /^[[:space:]]*#[[:space:]]*dtparam=i2c_arm=on[[:space:]]*$/ && !found && !done {
            $0 = "dtparam=i2c_arm=on"; found = 1; done = 1
        }
        { print }
        /^[[:space:]]*\[/ { section = $0 }
        END {
            if (!found) {
                if (section != "" && section !~ /^[[:space:]]*\[all\]/) print "[all]"
                print "dtparam=i2c_arm=on"
            }
        }'
}

fast_i2c_lines() {  # filter for config.txt: dtparam=i2c_arm_baudrate=400000
    awk '
        /^[[:space:]]*dtparam=([^#]*,)?i2c_arm_baudrate=/ {
            if ($0 ~ /i2c_arm_baudrate=400000([,[:space:]]|$)/) { found = 1 }
            else { sub(/i2c_arm_baudrate=[0-9]*/, "i2c_arm_baudrate=400000"); found = 1 }
        }
        { print }
        /^[[:space:]]*\[/ { section = $0 }
        END {
            if (!found) {
                if (section != "" && section !~ /^[[:space:]]*\[all\]/) print "[all]"
                print "dtparam=i2c_arm_baudrate=400000"
            }
        }'
}

i2c_dev_module_line() {  # filter for /etc/modules: load i2c-dev at boot
    awk '
        /^[[:space:]]*i2c[-_]dev([[:space:]]|$)/ { found = 1 }
        /^[[:space:]]*#[[:space:]]*i2c[-_]dev[[:space:]]*$/ && !found { $0 = "i2c-dev"; found = 1 }
        { print }
        END { if (!found) print "i2c-dev" }'
}

step_i2c() {
    section "I2C"
    local config
    config="$(boot_config)"
    if [[ -x $ROOT/usr/bin/raspi-config ]]; then
        # raspi-config prints 0 when I2C is on.
        if [[ -z $ROOT && "$(raspi-config nonint get_i2c 2>/dev/null || true)" == 0 ]]; then
            ok "I2C is enabled"
        else
            sys_cmd raspi-config nonint do_i2c 0
            [[ -n $ROOT ]] || REBOOT_NEEDED=1
        fi
    else
        # No raspi-config (a --force install elsewhere, or a bare root): do what it does by hand.
        note "skipped: raspi-config (not installed here): enabling I2C by hand instead"
        if [[ -z $config ]]; then
            note "no boot config (/boot/firmware/config.txt or /boot/config.txt): enable I2C yourself"
        elif edit_file "$config" "dtparam=i2c_arm=on" enable_i2c_lines; then
            REBOOT_NEEDED=1
        fi
        local modules="$ROOT/etc/modules"
        if [[ ! -f $modules ]]; then
            change "create /etc/modules to load i2c-dev at boot"
            if ! ((DRY_RUN)); then
                install -d -m 0755 "$ROOT/etc"
                printf 'i2c-dev\n' >"$modules"
            fi
            load_i2c_dev
        elif edit_file "$modules" "i2c-dev loaded at boot" i2c_dev_module_line; then
            load_i2c_dev
        fi
    fi
    if ((FAST_I2C)); then
        if [[ -z $config ]]; then
            note "no boot config found: cannot set the 400 kHz I2C speed"
        elif edit_file "$config" "dtparam=i2c_arm_baudrate=400000 (400 kHz)" fast_i2c_lines; then
            REBOOT_NEEDED=1
        fi
    fi
}

target_has_modprobe() {
    if [[ -n $ROOT ]]; then
        [[ -x $ROOT/usr/sbin/modprobe || -x $ROOT/sbin/modprobe ]]
    else
        command -v modprobe >/dev/null
    fi
}

load_i2c_dev() {  # load i2c-dev now if modprobe is there; /etc/modules loads it at every boot
    if target_has_modprobe; then
        sys_cmd modprobe i2c-dev
    else
        note "skipped: modprobe i2c-dev (no modprobe here, e.g. a minimal system or a container): i2c-dev loads at the next boot from /etc/modules"
    fi
}

step_user() {
    section "System user $SERVICE_USER"
    local state group missing_groups=() have_groups=()
    state="$(user_state)"
    for group in "${DEVICE_GROUPS[@]}"; do
        local rc=0
        db_lookup group "$group" >/dev/null || rc=$?
        if ((rc == 1)); then
            missing_groups+=("$group")
        fi
    done
    for group in "${missing_groups[@]}"; do
        # Pi OS has them all; elsewhere (--force) create them so useradd works.
        sys_cmd groupadd --system "$group"
    done
    if [[ $state != yes ]]; then
        sys_cmd useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Schockbesteck game device" \
            --groups "$(IFS=,; printf '%s' "${DEVICE_GROUPS[*]}")" "$SERVICE_USER"
        return 0
    fi
    for group in "${DEVICE_GROUPS[@]}"; do
        if user_in_group "$group"; then
            have_groups+=("$group")
        else
            sys_cmd usermod --append --groups "$group" "$SERVICE_USER"
        fi
    done
    ((${#have_groups[@]} == 0)) || ok "$SERVICE_USER exists and is in: ${have_groups[*]}"
}

source_hash() {  # a hash of what pip would install, plus the interpreter and the extra
    local items=() item
    for item in "${SOURCE_ITEMS[@]}"; do
        [[ -e $REPO/$item ]] && items+=("$item")
    done
    {
        printf 'python %s extra pi\n' "$PYTHON_VERSION"
        ((LGPIO_PYPI)) && printf '%s from PyPI\n' "$LGPIO_PYPI_SPEC"
        (cd "$REPO" && find "${items[@]}" -type f ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 |
            LC_ALL=C sort -z | xargs -0 sha256sum)
    } | sha256sum | cut -d' ' -f1
}

venv_ok() {  # the venv exists, sees system site-packages and uses the chosen Python
    local cfg=$ROOT$VENV_DIR/pyvenv.cfg
    [[ -x $ROOT$VENV_DIR/bin/python && -f $cfg ]] || return 1
    grep -Eq '^include-system-site-packages *= *true' "$cfg" || return 1
    [[ "$("$ROOT$VENV_DIR/bin/python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' \
        2>/dev/null || true)" == "$PYTHON_VERSION" ]]
}

step_venv() {
    section "Python venv $VENV_DIR"
    local venv=$ROOT$VENV_DIR
    if venv_ok; then
        ok "venv with Python $PYTHON_VERSION and system site-packages is there"
    else
        change "create venv $VENV_DIR (Python $PYTHON_VERSION, --system-site-packages)"
        if ! ((DRY_RUN)); then
            rm -rf -- "$venv"
            install -d -m 0755 "$ROOT$APP_DIR"
            local args=(-m venv --system-site-packages)
            ((NO_PIP)) && args+=(--without-pip)
            "$PYTHON" "${args[@]}" "$venv"
            rm -f -- "$ROOT$STAMP"
        fi
    fi

    local pip_extra=() extras=pi config=$ROOT$CONFIG
    ((LGPIO_PYPI)) && pip_extra=(--only-binary=lgpio "$LGPIO_PYPI_SPEC")
    # The table's page ([web] on in the configuration) needs the web extra (aiohttp) too.
    if [[ -f $config ]]; then
        extras="$("$PYTHON" -c "$WEB_QUERY" "$config")" || extras=pi
    fi
    ((HUB)) && extras=$HUB_EXTRAS
    local pip_cmd=("$VENV_DIR/bin/python" -m pip install "${REPO}[$extras]" ${pip_extra[@]+"${pip_extra[@]}"})
    if ((NO_PIP)); then
        note "skipped (--no-pip / SCHOCKBESTECK_NO_PIP=1): $(quote_cmd "${pip_cmd[@]}")"
        return 0
    fi
    local want have=""
    want="$(source_hash) $extras"
    [[ -f $ROOT$STAMP ]] && have="$(cat "$ROOT$STAMP")"
    if [[ $want == "$have" && -x $venv/bin/schocken ]]; then
        ok "this checkout is installed in the venv"
        return 0
    fi
    change "pip install this checkout with the extras $extras into the venv"
    ((DRY_RUN)) && return 0
    # Build from a copy: pip builds in the source tree, which would leave root-owned build/ and
    # *.egg-info files in the user's checkout.
    local build item
    build="$(mktemp -d)"
    for item in "${SOURCE_ITEMS[@]}"; do
        [[ -e $REPO/$item ]] && cp -R -- "$REPO/$item" "$build/"
    done
    find "$build" -name __pycache__ -prune -exec rm -rf {} +
    [[ -x $venv/bin/pip ]] || "$venv/bin/python" -m ensurepip --default-pip >/dev/null
    printf '  run: %s\n' "$(quote_cmd "$VENV_DIR/bin/python" -m pip install "${build}[$extras]" ${pip_extra[@]+"${pip_extra[@]}"})"
    if ! PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
        "$venv/bin/python" -m pip install --quiet "${build}[$extras]" ${pip_extra[@]+"${pip_extra[@]}"}; then
        rm -rf -- "$build"
        if ((LGPIO_PYPI)); then
            die "$E_PIP" "pip install failed (see above): no network, or no wheel for this Pi (PyPI's lgpio has wheels for CPython 3.11 only; on Raspberry Pi OS apt has python3-lgpio)"
        fi
        die "$E_PIP" "pip install of the checkout failed (see above): no network, or a package without a wheel for this Pi?"
    fi
    rm -rf -- "$build"
    printf '%s\n' "$want" >"$ROOT$STAMP"
    CODE_CHANGED=1
}

step_config() {
    section "Configuration $CONFIG"
    if [[ -e $ROOT$CONFIG ]]; then
        if cmp -s "$REPO/deploy/config.toml" "$ROOT$CONFIG"; then
            ok "$CONFIG is the default"
        else
            ok "$CONFIG exists and is kept (yours; compare with $REPO/deploy/config.toml)"
        fi
        return 0
    fi
    put_dir "$CONFIG_DIR" 0755
    # 0644: the default holds no secrets (names, pins, display settings), and the service user
    # must read it; root owns it so the service cannot change its own configuration. A table's
    # [tournament] password makes it 0640 (step_config_secret).
    put_file "$REPO/deploy/config.toml" "$CONFIG" 0644 && CONFIG_WRITTEN=1
    return 0
}

step_unit() {
    section "systemd units $UNIT, $ERROR_UNIT"
    if put_file "$REPO/deploy/schockbesteck.service" "$UNIT_PATH" 0644; then
        UNIT_CHANGED=1
    fi
    # Started by the game unit's OnFailure= only; it has no [Install] section to enable.
    if put_file "$REPO/deploy/schockbesteck-error.service" "$ERROR_UNIT_PATH" 0644; then
        UNIT_CHANGED=1
    fi
    return 0
}

# Reads a configuration file; prints two lines. The first: "yes REASONS", "no" or "error
# MESSAGE", whether the service needs the network. Network URLs of the link: pyserial's socket://
# and rfc2217://, and tcp-listen://. [web] and [tournament]: any such table that does not say
# enabled = false. The second: "yes" when the file holds a secret (a table's [tournament]
# password, docs/tournament.md), else "no" (an unreadable file holds none). Only the standard
# library (tomllib, Python 3.11), so it works before pip and under --no-pip; one Python for both
# answers (step_network keeps the second for step_config_secret).
readonly CONFIG_QUERY='
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as file:
        data = tomllib.load(file)
except (OSError, ValueError, RecursionError) as error:
    print("error", " ".join(str(error).split()) or type(error).__name__)
    print("no")
    sys.exit(0)
reasons = []
link = data.get("link")
url = link.get("url", "") if isinstance(link, dict) else ""
if isinstance(url, str) and url.split("://")[0] in ("socket", "rfc2217", "tcp-listen") and "://" in url:
    reasons.append("[link] url = " + url)
web = data.get("web")
if isinstance(web, dict) and web and web.get("enabled", True) is not False:
    reasons.append("[web]")
tournament = data.get("tournament")  # a table reaches the hub over the network
if isinstance(tournament, dict) and tournament and tournament.get("enabled", True) is not False:
    reasons.append("[tournament]")
print("yes " + ", ".join(reasons) if reasons else "no")
print("yes" if isinstance(tournament, dict) and tournament.get("password") else "no")
'

# Reads a configuration file; prints the pip extras the venv needs: "pi", or "pi,web" when the
# [web] page is on (the rule of CONFIG_QUERY: a [web] table that does not say enabled = false).
readonly WEB_QUERY='
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as file:
        web = tomllib.load(file).get("web")
except (OSError, ValueError, RecursionError):
    web = None
print("pi,web" if isinstance(web, dict) and web and web.get("enabled", True) is not False else "pi")
'

step_network() {
    section "Network access ($NETWORK_DROPIN)"
    local config=$ROOT$CONFIG answers answer
    [[ -f $config ]] || config=$REPO/deploy/config.toml  # a dry run that would install it
    answers="$("$PYTHON" -c "$CONFIG_QUERY" "$config")" ||
        die "$E_FAIL" "could not read $CONFIG with $PYTHON to see whether the service needs the network"
    answer=${answers%%$'\n'*}
    CONFIG_SECRET=${answers#*$'\n'}
    case $answer in
        yes*)
            note "the configuration needs the network (${answer#yes }): the service may use AF_INET/AF_INET6 to this machine and local networks"
            if put_file "$REPO/deploy/network.conf" "$NETWORK_DROPIN" 0644; then
                UNIT_CHANGED=1
            fi
            ;;
        *)
            if [[ $answer == error* ]]; then
                note "$CONFIG cannot be read (${answer#error }): the service stays without network; fix it and run this again"
            else
                ok "the configuration needs no network: the service has none (no [link] network URL, no [web])"
            fi
            if [[ -e $ROOT$NETWORK_DROPIN ]]; then
                remove_path "$NETWORK_DROPIN" && UNIT_CHANGED=1
                remove_empty_dir "$DROPIN_DIR"
            fi
            ;;
    esac
    return 0
}

step_config_secret() {  # a configuration with a password: root:schockbesteck 0640, not 0644
    local config=$ROOT$CONFIG
    [[ -f $config ]] || return 0
    [[ $CONFIG_SECRET == yes ]] || return 0  # CONFIG_QUERY's second answer, read by step_network
    if [[ "$(stat -c %a "$config")" == 640 ]] &&
        { [[ -n $ROOT ]] || [[ "$(stat -c %G "$config")" == "$SERVICE_USER" ]]; }; then
        ok "$CONFIG holds the table's broker password: readable by root and $SERVICE_USER only"
        return 0
    fi
    change "$CONFIG holds the table's broker password: mode 0640, group $SERVICE_USER"
    ((DRY_RUN)) && return 0
    chmod 0640 "$config"
    if [[ -n $ROOT ]]; then
        sys_cmd chgrp "$SERVICE_USER" "$CONFIG"
    else
        chgrp "$SERVICE_USER" "$config"
    fi
}

remove_empty_dir() {  # remove_empty_dir TARGET_PATH: only if empty (a `systemctl edit` drop-in stays)
    local dir=$ROOT$1
    [[ -d $dir ]] || return 0
    [[ -z "$(ls -A "$dir")" ]] || return 0
    ((DRY_RUN)) || rmdir -- "$dir"
}

step_service() {
    section "Service"
    if [[ -z $ROOT ]] && ! ((DRY_RUN)); then
        command -v systemctl >/dev/null || die "$E_FAIL" "systemctl not found: the service needs systemd"
    fi
    ((UNIT_CHANGED)) && sys_cmd systemctl daemon-reload
    if ! service_enabled; then
        sys_cmd systemctl enable --now "$UNIT"
    elif ! service_active; then
        if [[ -z $ROOT ]]; then
            sys_cmd systemctl start "$UNIT"
        else
            ok "$UNIT is enabled"
        fi
    elif ((UNIT_CHANGED || CODE_CHANGED || CONFIG_WRITTEN)); then
        sys_cmd systemctl restart "$UNIT"
    else
        ok "$UNIT is enabled and running"
    fi
}

# ---------------------------------------------------------------------------------------------
# Uninstall

uninstall() {
    section "Service"
    if [[ -e $ROOT$UNIT_PATH ]] || service_enabled; then
        if [[ -n $ROOT ]] || service_enabled || service_active; then
            sys_cmd systemctl disable --now "$UNIT"
        fi
    else
        ok "$UNIT is not installed"
    fi
    local removed=0
    remove_path "$UNIT_PATH" && removed=1
    remove_path "$ERROR_UNIT_PATH" && removed=1
    if [[ -e $ROOT$NETWORK_DROPIN ]]; then
        remove_path "$NETWORK_DROPIN" && removed=1
        remove_empty_dir "$DROPIN_DIR"
    fi
    ((removed)) && sys_cmd systemctl daemon-reload
    section "Program"
    remove_path "$APP_DIR" || true
    if ! ((PURGE)); then
        section "Kept"
        [[ -e $ROOT$CONFIG_DIR ]] && ok "configuration $CONFIG_DIR (remove with --purge)"
        [[ -e $ROOT$STATE_DIR ]] && ok "game state $STATE_DIR (remove with --purge)"
        [[ "$(user_state)" == no ]] || ok "system user $SERVICE_USER (remove with --purge)"
        return 0
    fi
    section "Purge"
    remove_path "$CONFIG_DIR" || true
    remove_path "$STATE_DIR" || true
    if [[ "$(user_state)" != no ]]; then
        sys_cmd userdel "$SERVICE_USER"
    else
        ok "system user $SERVICE_USER is not there"
    fi
}

# ---------------------------------------------------------------------------------------------
# The tournament hub (--hub): mosquitto with the tournament's configuration and a user per table,
# and the hub's service. See docs/tournament.md ("Installing a hub").

# What the hub needs from apt: a Python for the venv and Debian's broker (mosquitto_passwd too).
readonly HUB_PACKAGES=(python3 python3-venv mosquitto)
# The hub's extras: paho-mqtt (in pi), reportlab for the PDF sheets (in pi), aiohttp (web), segno
# for the TV's QR code (hub).
readonly HUB_EXTRAS=pi,web,hub
readonly BROKER_PORT=1883

# The hub's helper, standard library only (so it works before pip and under --no-pip); the broker's
# text comes from the checkout's firmware/wire/broker.py, the one source of that text.
#   conf | acl                        mosquitto's conf.d file, the ACL
#   tables FILE N EVENT               tables.toml for tables 1..N, keeping FILE's passwords
#   event FILE                        the event FILE was made for ("" if none)
#   users FILE                        the table users in FILE
#   plain FILE HUB_PASSWORD_FILE      user:password lines for mosquitto_passwd -U
#   matches PASSWD FILE HUB_PW_FILE   exit 0 if PASSWD holds exactly these users and passwords
#   snippet FILE URL EVENT USER...    each table's [tournament] block for its config.toml
#   password                          a new random password
readonly HUB_PY='
import base64, hashlib, hmac, secrets, sys, tomllib
from pathlib import Path
sys.path.insert(0, sys.argv[1])
mode, args = sys.argv[2], sys.argv[3:]
def tables(path):
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
    return {u: v["password"] for u, v in data.items()
            if u.startswith("table-") and isinstance(v, dict) and isinstance(v.get("password"), str)}
def hub_password(path):
    return Path(path).read_text().strip()
if mode in ("conf", "acl"):
    from firmware.wire import broker
    if mode == "acl":
        print(broker.acl_text(), end="")
    else:
        print(broker.mosquitto_conf(port=int(args[0]), persistence_dir=None, bind=None,
            password_file=Path(args[1]), acl_file=Path(args[2]), log_denials=True), end="")
elif mode == "tables":
    from firmware.wire.messages import table_user
    old = tables(args[0])
    print("# Written by deploy/install.sh --hub: every table\x27s broker login. Root only (0600).")
    print("# Run it again with --tables N to add or remove tables; these passwords are kept.")
    print(f"event = \"{args[2]}\"")
    for n in range(1, int(args[1]) + 1):
        user = table_user(n)
        print(f"\n[\"{user}\"]\npassword = \"{old.get(user) or secrets.token_urlsafe(18)}\"")
elif mode == "event":
    try:
        event = tomllib.loads(Path(args[0]).read_text()).get("event", "")
    except (OSError, ValueError):
        event = ""
    print(event if isinstance(event, str) else "")
elif mode == "users":
    print("\n".join(tables(args[0])))
elif mode == "plain":
    print(f"hub:{hub_password(args[1])}")
    for user, password in tables(args[0]).items():
        print(f"{user}:{password}")
elif mode == "matches":
    want = {"hub": hub_password(args[2]), **tables(args[1])}
    have = {}
    for line in Path(args[0]).read_text().splitlines():
        user, _, hashed = line.partition(":")
        have[user] = hashed
    def ok(password, hashed):
        parts = hashed.split("$")
        if len(parts) != 5 or parts[1] != "7":
            return False
        digest = hashlib.pbkdf2_hmac("sha512", password.encode(), base64.b64decode(parts[3]),
                                     int(parts[2]), 64)
        return hmac.compare_digest(base64.b64encode(digest).decode(), parts[4])
    sys.exit(0 if have.keys() == want.keys() and all(ok(want[u], have[u]) for u in want) else 1)
elif mode == "snippet":
    known = tables(args[0])
    for user in args[3:]:
        number = int(user.removeprefix("table-"))
        print(f"# Tisch {number} (table {number}): into /etc/schockbesteck/config.toml of that table")
        print(f"[tournament]\nbroker = \"{args[1]}\"\nevent = \"{args[2]}\"\ntable = {number}")
        print(f"password = \"{known[user]}\"\n# ca_file = \"/etc/schockbesteck/venue-ca.crt\"  (mqtts://, docs/tournament.md)\n")
elif mode == "password":
    print(secrets.token_urlsafe(18))
'

hub_py() {  # hub_py MODE ARGS...: the helper above, run from the checkout (no __pycache__ left)
    "$PYTHON" -B -c "$HUB_PY" "$REPO" "$@"
}

is_debian_family() {
    local id like
    id="$(os_release_value "$ROOT/etc/os-release" ID)"
    like="$(os_release_value "$ROOT/etc/os-release" ID_LIKE)"
    [[ $id == debian || $id == raspbian || $id == ubuntu || " $like " == *" debian "* ]]
}

check_os_hub() {  # the hub runs on any Debian-family system (a Pi, a laptop, a small server)
    ((FORCE)) && return 0
    is_debian_family && return 0
    local id
    id="$(os_release_value "$ROOT/etc/os-release" ID)"
    if ((DRY_RUN)); then
        printf '%s: warning: this is not a Debian-family system (ID=%s); a real install would stop here (exit 4) unless --force\n' \
            "$PROG" "'${id}'" >&2
        return 0
    fi
    die "$E_NOT_PIOS" "the hub needs a Debian-family system with apt (found ID='${id}'); use --force to go on anyway"
}

mosquitto_passwd_tool() {  # the mosquitto_passwd that writes the target's password file
    local tool
    for tool in "$(command -v mosquitto_passwd || true)" /usr/bin/mosquitto_passwd; do
        [[ -n $tool && -x $tool ]] && printf '%s' "$tool" && return 0
    done
    return 1
}

put_broker_file() {  # put_broker_file SRC TARGET_PATH: root:mosquitto 0640 (read after the drop)
    # mosquitto reads its password file and ACL after dropping to the user mosquitto.
    put_file "$1" "$2" 0640 || return 1
    ((DRY_RUN)) && return 0
    if [[ -n $ROOT ]]; then
        sys_cmd chgrp mosquitto "$2"
    else
        chgrp mosquitto "$2"
    fi
    return 0
}

TABLES_ADDED=()
BROKER_CHANGED=0
HUB_UNIT_CHANGED=0

step_hub_secrets() {
    section "Tables and passwords ($HUB_SECRETS, root only)"
    local dir=$ROOT$HUB_SECRETS tmp have=0 want
    [[ -d $dir ]] || { change "create directory $HUB_SECRETS (mode 0700)"; ((DRY_RUN)) || install -d -m 0700 "$dir"; }
    if [[ -f $ROOT$HUB_PASSWORD ]]; then
        ok "the hub's broker password is there ($HUB_PASSWORD)"
    else
        change "create the hub's broker password $HUB_PASSWORD (mode 0600)"
        ((DRY_RUN)) || (umask 077 && hub_py password >"$ROOT$HUB_PASSWORD")
    fi
    # The director's desk (the page /desk): its password, for the hub's service only (systemd
    # hands it over as a credential) and the director (sudo cat); never printed.
    if [[ -f $ROOT$HUB_DESK_PASSWORD ]]; then
        ok "the director's desk password is there ($HUB_DESK_PASSWORD)"
    else
        change "create the director's desk password $HUB_DESK_PASSWORD (mode 0600; sudo cat it)"
        ((DRY_RUN)) || (umask 077 && hub_py password >"$ROOT$HUB_DESK_PASSWORD")
    fi
    local stored=""
    if [[ -f $ROOT$HUB_TABLES ]]; then
        have="$(hub_py users "$ROOT$HUB_TABLES" | grep -c . || true)"
        stored="$(hub_py event "$ROOT$HUB_TABLES")"
    fi
    if [[ -n $stored && -n $EVENT && $EVENT != "$stored" ]]; then
        die "$E_USAGE" "--event $EVENT: this hub is set up for '$stored' (its tables and store); leave --event out, or --purge first"
    fi
    EVENT=${EVENT:-${stored:-turnier}}
    want=${TABLES:-$have}
    if ((want == 0)); then
        die "$E_USAGE" "--hub needs --tables N the first time: how many tables (devices) play (1-$MAX_TABLES)"
    fi
    tmp="$(mktemp)"
    hub_py tables "$ROOT$HUB_TABLES" "$want" "$EVENT" >"$tmp"
    if [[ -f $ROOT$HUB_TABLES ]] && cmp -s "$tmp" "$ROOT$HUB_TABLES"; then
        ok "$want table users with their passwords ($HUB_TABLES)"
        rm -f "$tmp"
        return 0
    fi
    local user known=""
    [[ -f $ROOT$HUB_TABLES ]] && known=" $(hub_py users "$ROOT$HUB_TABLES" | tr '\n' ' ')"
    while IFS= read -r user; do
        [[ -n $user && $known != *" $user "* ]] && TABLES_ADDED+=("$user")
    done < <(hub_py users "$tmp")
    change "$HUB_TABLES: $want table users (were $have; ${#TABLES_ADDED[@]} new)"
    if ((DRY_RUN)); then
        rm -f "$tmp"
        return 0
    fi
    install -m 0600 "$tmp" "$ROOT$HUB_TABLES"
    rm -f "$tmp"
}

step_broker() {
    section "Broker (mosquitto): $MOSQUITTO_CONF, the ACL and the password file"
    local tmp
    tmp="$(mktemp)"
    hub_py acl >"$tmp"
    put_broker_file "$tmp" "$MOSQUITTO_ACL" && BROKER_CHANGED=1
    hub_py conf "$BROKER_PORT" "$MOSQUITTO_PASSWD" "$MOSQUITTO_ACL" >"$tmp"
    put_file "$tmp" "$MOSQUITTO_CONF" 0644 && BROKER_CHANGED=1
    rm -f "$tmp"
    if [[ -f $ROOT$MOSQUITTO_PASSWD && -f $ROOT$HUB_TABLES && -f $ROOT$HUB_PASSWORD ]] &&
        hub_py matches "$ROOT$MOSQUITTO_PASSWD" "$ROOT$HUB_TABLES" "$ROOT$HUB_PASSWORD"; then
        ok "$MOSQUITTO_PASSWD holds the hub and every table, with their passwords"
        return 0
    fi
    if ((DRY_RUN)); then
        change "write $MOSQUITTO_PASSWD (the hub and every table, hashed by mosquitto_passwd)"
        return 0
    fi
    local tool
    tool="$(mosquitto_passwd_tool)" ||
        die "$E_FAIL" "mosquitto_passwd not found: it comes with Debian's mosquitto (apt-get install mosquitto)"
    # The passwords in the clear only in root's 0700 folder, hashed in place, then moved.
    local plain=$ROOT$HUB_SECRETS/.passwd.tmp
    (umask 077 && hub_py plain "$ROOT$HUB_TABLES" "$ROOT$HUB_PASSWORD" >"$plain")
    "$tool" -U "$plain" || { rm -f "$plain"; die "$E_FAIL" "mosquitto_passwd -U failed (see above)"; }
    put_broker_file "$plain" "$MOSQUITTO_PASSWD" || true
    rm -f "$plain"
    BROKER_CHANGED=1
}

hub_address() {  # where the tables reach this hub: --address, else this machine's first address
    if [[ -n $HUB_ADDRESS ]]; then
        printf '%s' "$HUB_ADDRESS"
    elif [[ -z $ROOT ]] && command -v hostname >/dev/null && [[ -n "$(hostname -I 2>/dev/null | awk '{ print $1 }')" ]]; then
        hostname -I | awk '{ print $1 }'
    else
        printf 'HUB-ADDRESS'
    fi
}

hub_user_state() {  # yes, no or unknown, as user_state for the game's user
    local rc=0
    db_lookup passwd "$HUB_USER" >/dev/null || rc=$?
    case $rc in 0) echo yes ;; 2) echo unknown ;; *) echo no ;; esac
}

step_hub_user() {
    section "System user $HUB_USER"
    if [[ "$(hub_user_state)" == yes ]]; then
        ok "$HUB_USER exists"
        return 0
    fi
    # No groups: the hub uses no device. Its home is its state directory.
    sys_cmd useradd --system --user-group --home-dir "$HUB_STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Schockbesteck tournament hub" "$HUB_USER"
}

step_broker_log() {
    section "The broker's log $BROKER_LOG, for the hub's count of what the broker denies"
    # mosquitto writes it (its own service makes the folder, mkdir -p and chown mosquitto, and
    # leaves an existing one as it is); the folder's group is the hub's and setgid, so the file
    # mosquitto opens again after logrotate's HUP is readable by the hub too.
    local dir=$ROOT$BROKER_LOG_DIR now=""
    [[ -d $dir ]] && now="$(stat -c '%a %U %G' "$dir")"
    if [[ $now == "2750 mosquitto $HUB_USER" || ( -n $ROOT && ${now%% *} == 2750 ) ]]; then
        ok "$BROKER_LOG_DIR is mosquitto's to write and $HUB_USER's to read"
        return 0
    fi
    [[ -n $ROOT ]] && put_dir "$BROKER_LOG_DIR" 2750
    sys_cmd install -d -o mosquitto -g "$HUB_USER" -m 2750 "$BROKER_LOG_DIR"
    if [[ -f $ROOT$BROKER_LOG ]]; then
        sys_cmd chgrp "$HUB_USER" "$BROKER_LOG"
        sys_cmd chmod 0640 "$BROKER_LOG"
    fi
    BROKER_CHANGED=1
}

step_hub_store() {
    section "The tournament's store $HUB_DB"
    if [[ -e $ROOT$HUB_DB ]]; then
        ok "$HUB_DB is there and is kept (the tournament itself)"
        return 0
    fi
    if [[ ! -d $ROOT$HUB_STATE_DIR ]]; then
        put_dir "$HUB_STATE_DIR" 0700
        sys_cmd chown "$HUB_USER:$HUB_USER" "$HUB_STATE_DIR"
    fi
    # Made by the hub itself, as its user, so that its files are the service's.
    local init=(runuser -u "$HUB_USER" -- "$VENV_DIR/bin/schocken" hub init --event "$EVENT" --db "$HUB_DB")
    if [[ -z $ROOT ]] && ((NO_PIP)) && ! ((DRY_RUN)); then
        note "skipped (--no-pip: no schocken in the venv yet): $(quote_cmd "${init[@]}")"
        return 0
    fi
    sys_cmd "${init[@]}"
}

step_hub_unit() {
    section "systemd unit $HUB_UNIT"
    put_file "$REPO/deploy/schocken-hub.service" "$HUB_UNIT_PATH" 0644 && HUB_UNIT_CHANGED=1
    return 0
}

hub_enabled() {
    if [[ -n $ROOT ]]; then
        [[ -L $ROOT$HUB_WANTS_LINK ]]
    else
        systemctl is-enabled --quiet "$HUB_UNIT" 2>/dev/null
    fi
}

step_hub_service() {
    section "Services"
    if [[ -z $ROOT ]] && ! ((DRY_RUN)); then
        command -v systemctl >/dev/null || die "$E_FAIL" "systemctl not found: the hub needs systemd"
    fi
    if ((BROKER_CHANGED)); then
        # A restart, not a reload: a listener change needs one, and persistence keeps the queues.
        sys_cmd systemctl restart mosquitto.service
    else
        ok "mosquitto's files are unchanged"
    fi
    ((HUB_UNIT_CHANGED)) && sys_cmd systemctl daemon-reload
    if ! hub_enabled; then
        sys_cmd systemctl enable --now "$HUB_UNIT"
    elif ((HUB_UNIT_CHANGED || CODE_CHANGED)); then
        sys_cmd systemctl restart "$HUB_UNIT"
    else
        ok "$HUB_UNIT is enabled"
    fi
}

print_tables() {
    section "Table cards"
    local url
    url="mqtt://$(hub_address):$BROKER_PORT"
    if ((${#TABLES_ADDED[@]} == 0)); then
        ok "no new table (the tables' passwords: sudo cat $HUB_TABLES)"
        return 0
    fi
    if ((DRY_RUN)); then
        note "would print the [tournament] block of ${#TABLES_ADDED[@]} new table(s) for their config.toml"
        return 0
    fi
    printf '  Each table'\''s block for its /etc/schockbesteck/config.toml (all of them: sudo cat %s):\n\n' "$HUB_TABLES"
    hub_py snippet "$ROOT$HUB_TABLES" "$url" "$EVENT" "${TABLES_ADDED[@]}" | sed 's/^./    &/'
}

install_hub() {
    check_os_hub
    pick_python early
    ((DRY_RUN)) && echo "Dry run: nothing will be changed."
    PACKAGES_WANTED=("${HUB_PACKAGES[@]}")
    step_packages
    if ((PYTHON_FROM_APT)); then
        if ((DRY_RUN)); then
            note "python3 is not installed yet: a dry run stops here"
            summary
            return 0
        fi
        pick_python
    fi
    step_venv
    step_hub_secrets
    step_broker
    step_hub_user
    step_broker_log
    step_hub_store
    step_hub_unit
    step_hub_service
    print_tables
    summary
}

uninstall_hub() {
    ((DRY_RUN)) && echo "Dry run: nothing will be changed."
    section "Hub service"
    if [[ -e $ROOT$HUB_UNIT_PATH ]] || hub_enabled; then
        sys_cmd systemctl disable --now "$HUB_UNIT"
    else
        ok "$HUB_UNIT is not installed"
    fi
    remove_path "$HUB_UNIT_PATH" && sys_cmd systemctl daemon-reload
    section "Broker"
    local removed=0
    remove_path "$MOSQUITTO_CONF" && removed=1
    remove_path "$MOSQUITTO_ACL" && removed=1
    remove_path "$MOSQUITTO_PASSWD" && removed=1
    local dir=$ROOT$BROKER_LOG_DIR
    if [[ -d $dir && "$(stat -c %a "$dir")" == 2750 ]]; then  # the log's folder as mosquitto makes it
        [[ -n $ROOT ]] && ! ((DRY_RUN)) && chmod 0740 "$dir"
        sys_cmd install -d -o mosquitto -g root -m 0740 "$BROKER_LOG_DIR"
    fi
    # The package stays (other programs may use it); without our file it is Debian's default.
    ((removed)) && sys_cmd systemctl restart mosquitto.service
    section "Program"
    if [[ -e $ROOT$UNIT_PATH ]]; then
        ok "$APP_DIR stays: the game device's service uses it too"
    else
        remove_path "$APP_DIR" || true
    fi
    if ! ((PURGE)); then
        section "Kept"
        [[ -e $ROOT$HUB_SECRETS ]] && ok "the tables' and the desk's passwords $HUB_SECRETS (remove with --purge)"
        [[ -e $ROOT$HUB_STATE_DIR ]] && ok "the tournament's store $HUB_STATE_DIR (remove with --purge)"
        [[ "$(hub_user_state)" == no ]] || ok "system user $HUB_USER (remove with --purge)"
        summary
        return 0
    fi
    section "Purge"
    remove_path "$HUB_SECRETS" || true
    remove_path "$HUB_STATE_DIR" || true
    if [[ "$(hub_user_state)" != no ]]; then
        sys_cmd userdel "$HUB_USER"
    else
        ok "system user $HUB_USER is not there"
    fi
    summary
}

# ---------------------------------------------------------------------------------------------

summary() {
    local where="this system"
    [[ -z $ROOT ]] || where="$ROOT"
    echo
    if ((CHANGES == 0)); then
        if [[ $MODE == install ]]; then
            printf 'Nothing to do: Schockbesteck is already installed and up to date on %s.\n' "$where"
        else
            printf 'Nothing to do: Schockbesteck is already removed from %s.\n' "$where"
        fi
    elif ((DRY_RUN)); then
        printf 'Dry run: %d change(s) would be made on %s; nothing was changed.\n' "$CHANGES" "$where"
    else
        printf 'Done: %d change(s) on %s.\n' "$CHANGES" "$where"
    fi
    if ((TARGET_CMDS)); then
        printf 'Printed %d system command(s) for the target (lines starting "target:"); --root runs none.\n' "$TARGET_CMDS"
    fi
    if ((REBOOT_NEEDED)) && ! ((DRY_RUN)); then
        echo 'Reboot to apply the I2C settings: sudo reboot'
    fi
    if ((HUB)) && [[ $MODE == install ]] && ! ((DRY_RUN)); then
        echo "The director's desk: http://$(hub_address):8080/desk, its password: sudo cat $HUB_DESK_PASSWORD"
    fi
    if ((HUB)) && [[ $MODE == install && -z $ROOT ]] && ! ((DRY_RUN)); then
        echo 'Logs: journalctl -u schocken-hub -u mosquitto -f    Tables: docs/tournament.md'
    elif [[ $MODE == install && -z $ROOT ]] && ! ((DRY_RUN)); then
        echo 'Logs: journalctl -u schockbesteck -f    Hardware check: see docs/build.md'
    fi
}

main() {
    parse_args "$@"
    check_root "$@"
    check_checkout
    if ((HUB)); then
        if [[ $MODE == install ]]; then install_hub; else uninstall_hub; fi
        return 0
    fi
    if [[ $MODE == install ]]; then
        check_os
        pick_python early
        ((DRY_RUN)) && echo "Dry run: nothing will be changed."
        step_packages
        if ((PYTHON_FROM_APT)); then
            if ((DRY_RUN)); then
                note "python3 is not installed yet: the steps after the packages depend on the Python that apt would install; a dry run stops here"
                summary
                return 0
            fi
            pick_python
        fi
        step_i2c
        step_user
        step_venv
        step_config
        step_unit
        step_network
        step_config_secret
        step_service
    else
        ((DRY_RUN)) && echo "Dry run: nothing will be changed."
        uninstall
    fi
    summary
}

main "$@"
