#!/usr/bin/env bash
# make test-deploy: deploy/install.sh in a Debian Bookworm arm64 root, as on a Pi, on an x86-64 host.
#
#   tests/deploy/arm64/run.sh          build (or reuse) the root, install, run, check, uninstall
#   tests/deploy/arm64/run.sh base     only build the cached base root
#   tests/deploy/arm64/run.sh clean    remove the cache
#
# The root is built with debootstrap from the archive apt uses on this machine and run through
# `proot -0 -q qemu-aarch64-static` (Debian's debootstrap, proot and qemu-user-static packages,
# installed with apt-get when missing). Needs root (debootstrap creates device nodes and files
# owned by other users). Everything lives under the cache directory, never in the checkout:
#
#   $CACHE/base      debootstrap --variant=minbase + systemd: built once, reused ("cached")
#   $CACHE/work      a fresh copy of base for every run: install.sh sees a clean Pi-like system
#   $CACHE/apt       downloaded .deb files, shared by every run (bound to /var/cache/apt/archives)
#   $CACHE/report    the last run's timings (also printed at the end)
#
# CACHE is ${SCHOCKBESTECK_CACHE:-~/.cache/schockbesteck}/arm64. See docs/deploy.md for what this
# proves, what it cannot (qemu-user is not a Pi), and the workarounds below.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
CACHE="${SCHOCKBESTECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/schockbesteck}/arm64"
BASE="$CACHE/base"
WORK="$CACHE/work"
SUITE=bookworm
CHECKOUT=/home/pi/schockbesteck  # where the repository appears inside the root
HOST_PYTHON=/usr/bin/python3
HOST_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
REPORT="$CACHE/report"

T0=$SECONDS
STEP_START=$SECONDS
declare -a TIMINGS=() EXPOSURES=() SIMULATE_LINES=()

say() { printf '[test-deploy %4ds] %s\n' "$((SECONDS - T0))" "$*"; }
fail() {
    printf '[test-deploy] FAILED: %s\n' "$*" >&2
    exit 1
}
step() {  # step NAME: close the previous step's timing and start a new one
    STEP_START=$SECONDS
    say "--- $*"
}
done_step() {  # done_step LABEL: record the time since step()
    local took=$((SECONDS - STEP_START))
    TIMINGS+=("$(printf '%-44s %5ds' "$1" "$took")")
    say "$1: ${took}s"
}

# --------------------------------------------------------------------------------------------
# Host tools and safety

need_host_tools() {
    [[ $(uname -m) == x86_64 ]] || fail "this test runs on an x86-64 host (found $(uname -m))"
    ((EUID == 0)) || fail "run as root: debootstrap creates device nodes and other users' files"
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    command -v proot >/dev/null || missing+=(proot)
    command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
    command -v systemd-analyze >/dev/null || missing+=(systemd)
    [[ -x $HOST_PYTHON ]] || missing+=(python3)
    ((${#missing[@]} == 0)) && return 0
    say "installing ${missing[*]} from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}"
    }
}

host_pts_check() {
    # proot -0 is the real root: a mount or umount that reached the host would show here first.
    # nosys.py refuses mount calls, so this only guards against a change that removes that.
    if [[ -d /dev/pts ]] && ! mountpoint -q /dev/pts; then
        fail "the host's /dev/pts is no longer mounted (pty tests would break): mount -t devpts devpts /dev/pts"
    fi
}

archive_uri() {  # the Debian archive this machine's apt uses for $SUITE
    local uri
    # shellcheck disable=SC2016  # the $(...) are apt's format fields, not the shell's
    uri="$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(IDENTIFIER)' 2>/dev/null |
        awk -v suite="$SUITE" '$2 == suite && $3 == "Packages" { print $1; exit }')"
    [[ -n $uri ]] || fail "apt on this machine knows no $SUITE archive (apt-get indextargets); run apt-get update"
    printf '%s' "$uri"
}

# --------------------------------------------------------------------------------------------
# Running commands inside a root

in_root() {  # in_root ROOT [ENV=VALUE...] COMMAND...: run as (fake) root inside ROOT
    local root=$1
    shift
    local binds=(
        -b /proc
        -b /dev/null -b /dev/zero -b /dev/full -b /dev/random -b /dev/urandom
        -b /etc/resolv.conf -b /etc/hosts
    )
    [[ -d $root/var/cache/apt/archives ]] && binds+=(-b "$CACHE/apt:/var/cache/apt/archives")
    [[ -d $root/home/pi ]] && binds+=(-b "$REPO:$CHECKOUT")
    # This machine may reach PyPI through a TLS-inspecting proxy whose CA only the host trusts:
    # pip in the root gets the host's CA bundle (a Pi on an ordinary network needs none of this).
    local trust=()
    if [[ -f $HOST_CA_BUNDLE ]]; then
        binds+=(-b "$HOST_CA_BUNDLE:/etc/ssl/host-ca-certificates.crt")
        trust=(PIP_CERT=/etc/ssl/host-ca-certificates.crt)
    fi
    local rc=0
    env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 \
        ${trust[@]+"${trust[@]}"} \
        "$HOST_PYTHON" "$HERE/nosys.py" \
        proot -0 -q qemu-aarch64-static -r "$root" -w / "${binds[@]}" \
        /usr/bin/env "$@" || rc=$?
    host_pts_check
    return "$rc"
}

# --------------------------------------------------------------------------------------------
# The cached base: debootstrap (two stages) and systemd

build_base() {
    if [[ -f $BASE/.complete ]]; then
        say "base root: cached in $BASE"
        return 0
    fi
    local tmp="$BASE.partial" mirror
    if [[ -f $tmp/.debootstrapped ]]; then
        say "base root: resuming after debootstrap in $tmp"
    else
        debootstrap_base "$tmp"
    fi
    add_systemd "$tmp"
    mkdir -p "$tmp/home/pi"
    touch "$tmp/.complete"
    rm -rf -- "$BASE"
    mv -- "$tmp" "$BASE"
}

debootstrap_base() {
    local tmp=$1 mirror
    mirror="$(archive_uri)"
    step "base root: debootstrap $SUITE arm64 from $mirror"
    rm -rf -- "$tmp"
    debootstrap --arch=arm64 --foreign --variant=minbase --cache-dir="$CACHE/apt" \
        "$SUITE" "$tmp" "$mirror" >"$CACHE/debootstrap-1.log" 2>&1 ||
        fail "debootstrap (first stage) failed: see $CACHE/debootstrap-1.log"
    # debootstrap in a container leaves proc as a symlink to /proc; proot binds /proc onto it.
    if [[ -L $tmp/proc ]]; then
        rm -f -- "$tmp/proc"
        mkdir -m 0555 "$tmp/proc"
    fi
    done_step "debootstrap first stage (host)"

    step "base root: debootstrap second stage under qemu"
    in_root "$tmp" /debootstrap/debootstrap --second-stage >"$CACHE/debootstrap-2.log" 2>&1 ||
        fail "debootstrap --second-stage failed: see $CACHE/debootstrap-2.log"
    [[ -L $tmp/proc ]] && { rm -f -- "$tmp/proc"; mkdir -m 0555 "$tmp/proc"; }
    touch "$tmp/.debootstrapped"
    done_step "debootstrap second stage (emulated)"
}

add_systemd() {
    local tmp=$1
    step "base root: systemd (what every Pi has)"
    # systemd's postinst runs systemd-tmpfiles, which crashes proot 5.1: divert it to a no-op.
    # Nothing in the root boots, so no tmpfiles.d entry is ever needed. dpkg knows the file as
    # /bin/systemd-tmpfiles (Debian 12 ships it there; /bin is a link to /usr/bin).
    if ! grep -qx /bin/systemd-tmpfiles "$tmp/var/lib/dpkg/diversions"; then
        in_root "$tmp" dpkg-divert --local --rename --divert /bin/systemd-tmpfiles.real \
            --add /bin/systemd-tmpfiles >/dev/null
    fi
    printf '#!/bin/sh\n# test-deploy: systemd-tmpfiles crashes proot; nothing boots here\nexit 0\n' \
        >"$tmp/usr/bin/systemd-tmpfiles"
    chmod 0755 "$tmp/usr/bin/systemd-tmpfiles"
    {
        in_root "$tmp" dpkg --configure -a &&
            in_root "$tmp" apt-get update -q &&
            in_root "$tmp" apt-get install -y -q --no-install-recommends systemd
    } >"$CACHE/base-systemd.log" 2>&1 || fail "apt-get install systemd failed: see $CACHE/base-systemd.log"
    done_step "systemd in the base (emulated apt)"
}

# --------------------------------------------------------------------------------------------
# A fresh root per run, with stand-ins for what needs a booted system

systemctl_standin() {
    # No systemd runs in the root. enable/disable/is-enabled go to systemctl's offline mode
    # (it works on the unit files under / without a manager); start/stop/restart/daemon-reload
    # are recorded, and is-active answers from that record.
    cat <<'EOF'
#!/bin/sh
# test-deploy stand-in for systemctl: no systemd runs in this root.
log=/var/log/systemctl-standin.log
active=/run/standin-active
echo "systemctl $*" >>"$log"
now=0
for arg in "$@"; do [ "$arg" = --now ] && now=1; done
unit=""
for arg in "$@"; do case $arg in -*) ;; *) unit=$arg ;; esac; done
case $1 in
    enable) /usr/bin/systemctl --root=/ enable "$unit" || exit $?; [ $now = 1 ] && touch "$active.$unit"; exit 0 ;;
    disable) /usr/bin/systemctl --root=/ disable "$unit" || exit $?; rm -f "$active.$unit"; exit 0 ;;
    is-enabled) exec /usr/bin/systemctl --root=/ "$@" ;;
    start | restart) touch "$active.$unit"; exit 0 ;;
    stop) rm -f "$active.$unit"; exit 0 ;;
    is-active) [ -e "$active.$unit" ] ;;
    daemon-reload) exit 0 ;;
    *) echo "systemctl stand-in: not handled: $*" >&2; exit 1 ;;
esac
EOF
}

fresh_work_root() {
    step "fresh root: copy of the base"
    rm -rf -- "$WORK"
    cp -a -- "$BASE" "$WORK"
    mkdir -p "$WORK/run" "$WORK/usr/local/sbin"
    systemctl_standin >"$WORK/usr/local/sbin/systemctl"
    chmod 0755 "$WORK/usr/local/sbin/systemctl"
    done_step "copy of the base root"
}

# --------------------------------------------------------------------------------------------
# The test proper

expect() {  # expect DESCRIPTION COMMAND...: run a check on the host side
    local what=$1
    shift
    if "$@"; then say "ok: $what"; else fail "$what"; fi
}

install_in_root() {  # install_in_root LOGNAME ARGS...: install.sh inside the root, logged
    local log="$CACHE/$1.log"
    shift
    in_root "$WORK" bash "$CHECKOUT/deploy/install.sh" "$@" >"$log" 2>&1 || {
        tail -n 30 "$log" >&2
        fail "install.sh $* failed: see $log"
    }
}

run_tests() {
    step "install.sh --force (plain Debian: no python3-lgpio, no raspi-config, no modprobe)"
    install_in_root install-1 --force
    done_step "install.sh, first run (emulated)"
    local log="$CACHE/install-1.log"
    expect "python3-lgpio is not in Debian: lgpio came from PyPI into the venv" \
        grep -q "python3-lgpio is not available" "$log"
    expect "it says it skipped modprobe" grep -q "skipped: modprobe" "$log"
    expect "the unit was installed" test -f "$WORK/etc/systemd/system/schockbesteck.service"
    expect "the service was enabled (offline)" \
        test -L "$WORK/etc/systemd/system/multi-user.target.wants/schockbesteck.service"
    expect "the service user exists" grep -q '^schockbesteck:' "$WORK/etc/passwd"

    step "install.sh again: nothing to do"
    install_in_root install-2 --force
    done_step "install.sh, second run (emulated)"
    expect "the second run changes nothing" \
        grep -q "Nothing to do: Schockbesteck is already installed" "$CACHE/install-2.log"

    step "the venv on arm64"
    in_root "$WORK" /opt/schockbesteck/venv/bin/python "$CHECKOUT/tests/deploy/arm64/venv_probe.py" \
        >"$CACHE/venv-probe.log" 2>&1 || { cat "$CACHE/venv-probe.log" >&2; fail "venv probe"; }
    cat "$CACHE/venv-probe.log"
    done_step "venv probe (emulated)"

    step "schocken run --check and schocken run on mock pins"
    # The I2C bus is /dev/null: it opens, and every transfer fails, as with an unplugged panel.
    mkdir -p "$WORK/dev"
    : >"$WORK/dev/i2c-1"
    in_root "$WORK" /usr/bin/python3 "$CHECKOUT/tests/deploy/arm64/run_probe.py" \
        >"$CACHE/run-probe.log" 2>&1 || { cat "$CACHE/run-probe.log" >&2; fail "run probe"; }
    cat "$CACHE/run-probe.log"
    READY_LINE="$(grep -o 'READY=1 .* (emulated)' "$CACHE/run-probe.log" || true)"
    done_step "run --check, run, watchdog (emulated)"

    step "systemd-analyze"
    # --man=no: the root has no man pages to check Documentation= against (a Pi OS image has).
    in_root "$WORK" systemd-analyze verify --man=no /etc/systemd/system/schockbesteck.service \
        /etc/systemd/system/schockbesteck-error.service >"$CACHE/verify.log" 2>&1 ||
        { cat "$CACHE/verify.log" >&2; fail "systemd-analyze verify in the root"; }
    expect "systemd-analyze verify (arm64, in the root, both units) reports nothing" \
        test ! -s "$CACHE/verify.log"
    check_exposure schockbesteck.service "(no network)"
    check_exposure schockbesteck-error.service ""
    done_step "systemd-analyze verify + security"

    step "a network link opens the sandbox, and closing it closes it again"
    local config="$WORK/etc/schockbesteck/config.toml" dropin
    dropin="$WORK/etc/systemd/system/schockbesteck.service.d/network.conf"
    cp -- "$config" "$CACHE/config.toml.default"
    sed -i 's|^url = ""|url = "tcp-listen://127.0.0.1:7777"|' "$config"  # [link] url
    grep -q '^url = "tcp-listen://' "$config" || fail "could not set [link] url in $config"
    install_in_root install-network --force
    expect "the network drop-in is installed" cmp -s "$REPO/deploy/network.conf" "$dropin"
    check_exposure schockbesteck.service "(with the network drop-in)"
    cp -- "$CACHE/config.toml.default" "$config"
    install_in_root install-closed --force
    expect "the network drop-in is gone again" test ! -e "$dropin"
    done_step "network drop-in on and off (emulated)"

    step "schocken simulate: emulated speed"
    simulate_speed
    done_step "simulate timing"

    step "install.sh --purge"
    install_in_root purge --purge
    expect "the unit is gone" test ! -e "$WORK/etc/systemd/system/schockbesteck.service"
    expect "the venv is gone" test ! -e "$WORK/opt/schockbesteck"
    expect "the config is gone" test ! -e "$WORK/etc/schockbesteck"
    expect "the user is gone" bash -c "! grep -q '^schockbesteck:' '$WORK/etc/passwd'"
    done_step "install.sh --purge (emulated)"
}

check_exposure() {  # check_exposure UNIT NOTE: the installed unit's exposure is at most 1.5
    local unit=$1 note=$2 log="$CACHE/security-$1.log" level
    systemd-analyze security --offline=true --no-pager --root="$WORK" "$unit" >"$log" 2>&1 || true
    level="$(sed -n "s/.*Overall exposure level for ${unit//./\\.}: \\([0-9.]*\\).*/\\1/p" "$log")"
    [[ -n $level ]] || { cat "$log" >&2; fail "no exposure level for $unit from systemd-analyze security"; }
    expect "$unit $note: exposure $level, at most 1.5" awk -v e="$level" 'BEGIN { exit !(e <= 1.5) }'
    EXPOSURES+=("$(printf '%-44s %6s' "exposure $unit $note" "$level")")
}

SIM_GAMES=2000
simulate_speed() {
    # The same games (same seed) on the host's venv and, emulated, in the root's venv. CPU
    # seconds of the whole process (start-up included) and simulate's own rounds per CPU second.
    local host emulated
    [[ -x $REPO/.venv/bin/schocken ]] || fail "no $REPO/.venv: make test-deploy builds it first"
    host="$("$HOST_PYTHON" "$HERE/cpu_time.py" "$REPO/.venv/bin/schocken" simulate \
        --games "$SIM_GAMES" --seed 1 2>"$CACHE/simulate-host.log")"
    emulated="$(in_root "$WORK" /opt/schockbesteck/venv/bin/python \
        "$CHECKOUT/tests/deploy/arm64/cpu_time.py" /opt/schockbesteck/venv/bin/schocken simulate \
        --games "$SIM_GAMES" --seed 1 2>"$CACHE/simulate-emulated.log")"
    SIMULATE_LINES=(
        "schocken simulate --games $SIM_GAMES --seed 1, whole process:"
        "  emulated arm64: $emulated; this host: $host"
        "  emulated: $(grep -o '[0-9,]* per CPU second' "$CACHE/simulate-emulated.log") (rounds)"
        "  host:     $(grep -o '[0-9,]* per CPU second' "$CACHE/simulate-host.log") (rounds)"
    )
    printf '%s\n' "${SIMULATE_LINES[@]}"
}

write_report() {
    {
        printf 'make test-deploy, %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)"
        printf '%s\n' "${TIMINGS[@]}"
        printf '%-44s %5ds\n' "total" "$((SECONDS - T0))"
        if ((${#EXPOSURES[@]})); then printf '%s\n' "${EXPOSURES[@]}"; fi
        if ((${#SIMULATE_LINES[@]})); then printf '%s\n' "${SIMULATE_LINES[@]}"; fi
        if [[ -n ${READY_LINE:-} ]]; then printf '%s\n' "$READY_LINE"; fi
    } | tee "$REPORT"
}

main() {
    case ${1:-all} in
        clean)
            rm -rf -- "$CACHE"
            say "removed $CACHE"
            return 0
            ;;
        base | all) ;;
        *) fail "unknown argument '$1' (allowed: all, base, clean)" ;;
    esac
    need_host_tools
    host_pts_check
    mkdir -p "$CACHE/apt/partial"
    build_base
    [[ ${1:-all} == base ]] && { write_report; return 0; }
    fresh_work_root
    run_tests
    rm -rf -- "$WORK"
    say "PASSED"
    write_report
}

main "$@"
