#!/bin/sh
# iocoro guest runner. Two ways in, same work:
#   - dracut cmdline hook, priority 00: sourced by dracut's /init (PID 1)
#     before its root= check (kernel cmdline: rdinit=/init, the default);
#   - /iocoro-init, run by the kernel as PID 1 (rdinit=/iocoro-init): skips
#     dracut's own init, which costs ~14 s of a TCG + KASAN boot.
# It never returns: it runs the command given base64-encoded in iocoro.cmd=
# and then resets the machine (QEMU runs with -no-reboot).
#
# Results go to virtio-serial ports found by name (no udev here):
#   iocoro.output      stdout+stderr of the command (also on the console)
#   iocoro.kernel-log  the whole kernel log (dmesg) + kmemleak report, then
#                      the trailer line "iocoro: end of kernel log"
#   iocoro.status      one line "exit=N", written last
# A missing status line tells the host that something went wrong.

# (variables set through iocoro_port's eval)
# shellcheck disable=SC2154

# Builtins only where it matters: every exec costs ~0.15 s on TCG + KASAN.

iocoro_log() {
    _up=
    [ -r /proc/uptime ] && read -r _up _ < /proc/uptime
    echo "iocoro[${_up}]: $*" > /dev/console
}

# iocoro_port NAME VAR: set VAR to /dev/vportNpM of the port called NAME
# (waits up to 10 s for it)
iocoro_port() {
    _n=0
    while [ "$_n" -lt 100 ]; do
        for _f in /sys/class/virtio-ports/vport*/name; do
            [ -r "$_f" ] || continue
            _name=
            read -r _name < "$_f"
            if [ "$_name" = "$1" ]; then
                _d=${_f%/name}
                _d=/dev/${_d##*/}
                [ -c "$_d" ] && { eval "$2=\$_d"; return 0; }
            fi
        done
        sleep 0.1
        _n=$((_n + 1))
    done
    return 1
}

# iocoro_mount TYPE DIR OPTIONS: mount unless something is mounted there
iocoro_mount() {
    while read -r _ _mp _; do
        [ "$_mp" = "$2" ] && return 0
    done < /proc/self/mounts
    [ -d "$2" ] || mkdir -p "$2"
    mount -t "$1" -o "$3" "$1" "$2" || iocoro_log "cannot mount $1 on $2"
}

# iocoro_wait_pid PID TENTHS: wait up to TENTHS/10 s for PID to end
iocoro_wait_pid() {
    _n=0
    while kill -0 "$1" 2> /dev/null && [ "$_n" -lt "$2" ]; do
        sleep 0.1
        _n=$((_n + 1))
    done
    ! kill -0 "$1" 2> /dev/null
}

# whole seconds since boot, rounded up
iocoro_uptime() {
    read -r _up _ < /proc/uptime
    echo $((${_up%%.*} + 1))
}

iocoro_main() {
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
    export PATH

    # (dracut's /init did these already; /iocoro-init did not)
    [ -e /proc/self ] || mount -t proc -o nosuid,noexec,nodev proc /proc
    iocoro_mount sysfs /sys nosuid,noexec,nodev
    iocoro_mount devtmpfs /dev mode=0755,nosuid
    if [ "$iocoro_standalone" = 1 ]; then
        exec 0<> /dev/console 1<> /dev/console 2<> /dev/console
        for _f in fd:self/fd stdin:self/fd/0 stdout:self/fd/1 stderr:self/fd/2; do
            [ -e "/dev/${_f%%:*}" ] || ln -s "/proc/${_f#*:}" "/dev/${_f%%:*}"
        done
        iocoro_mount devpts /dev/pts gid=5,mode=620,noexec,nosuid
        iocoro_mount tmpfs /dev/shm mode=1777,nosuid,nodev
        iocoro_mount tmpfs /run mode=0755,nosuid,nodev
    fi
    iocoro_mount debugfs /sys/kernel/debug nosuid,noexec,nodev
    # A fresh tmpfs on /tmp, unless the image has files there (a build tree
    # under /tmp is installed at the same path): the rootfs is a tmpfs too.
    _f=
    for _f in /tmp/* /tmp/.[!.]*; do
        [ -e "$_f" ] && break
        _f=
    done
    if [ -z "$_f" ]; then
        iocoro_mount tmpfs /tmp mode=1777,nosuid,nodev
    else
        chmod 1777 /tmp
    fi

    if ! iocoro_port iocoro.status iocoro_status; then
        iocoro_log "no virtio-serial port named iocoro.status; cannot report a result"
        return 1
    fi
    iocoro_port iocoro.kernel-log iocoro_klog || {
        iocoro_log "no virtio-serial port named iocoro.kernel-log"
        iocoro_klog=/dev/null
    }
    iocoro_port iocoro.output iocoro_out || {
        iocoro_log "no virtio-serial port named iocoro.output"
        iocoro_out=/dev/null
    }

    iocoro_cmd=
    iocoro_leakcheck=1
    read -r _cmdline < /proc/cmdline
    for _arg in $_cmdline; do
        case $_arg in
            iocoro.cmd=*) iocoro_cmd=${_arg#iocoro.cmd=} ;;
            iocoro.leakcheck=0) iocoro_leakcheck=0 ;;
        esac
    done
    if [ -z "$iocoro_cmd" ]; then
        iocoro_log "no iocoro.cmd= on the kernel command line"
        return 1
    fi
    if ! iocoro_cmd=$(printf '%s' "$iocoro_cmd" | base64 -d); then
        iocoro_log "iocoro.cmd= is not valid base64"
        return 1
    fi

    # no automatic kmemleak scans in the middle of the test (they take
    # seconds of CPU on TCG); the scans below cover the whole run
    [ -w /sys/kernel/debug/kmemleak ] && echo scan=off > /sys/kernel/debug/kmemleak

    iocoro_log "running: $iocoro_cmd"
    echo "iocoro: command start" > /dev/kmsg

    # stdout+stderr through a FIFO to tee (console + output port). A FIFO and
    # not a pipe: if the command leaves background children holding it open,
    # we stop waiting for them instead of hanging.
    rm -f /run/iocoro.fifo
    mkfifo /run/iocoro.fifo
    tee "$iocoro_out" < /run/iocoro.fifo &
    iocoro_tee=$!
    (
        cd /tmp && exec env -i HOME=/tmp TMPDIR=/tmp PATH="$PATH" TERM=dumb \
            LANG=C.UTF-8 USER=root LOGNAME=root SHELL=/bin/sh \
            sh -c "$iocoro_cmd"
    ) > /run/iocoro.fifo 2>&1 < /dev/null
    iocoro_rc=$?
    iocoro_end=$(iocoro_uptime)
    echo "iocoro: command end, exit=$iocoro_rc" > /dev/kmsg
    if ! iocoro_wait_pid "$iocoro_tee" 50; then
        iocoro_log "command left processes holding its output open; stopped waiting"
        kill "$iocoro_tee" 2> /dev/null
    fi
    iocoro_log "command exited with status $iocoro_rc"

    # leftovers die now, so what they hold (rings, maps) is freed before the
    # leak scan. kill -1 from PID 1 spares PID 1 itself.
    kill -9 -1 2> /dev/null
    sleep 0.5

    # kmemleak (debug kernel): an object is reported when it is more than
    # 5 s old and unreferenced in a scan after the one that recorded its
    # checksum. So: one scan, then a second one that starts >= 6 s after the
    # command ended (a scan alone takes ~10 s on TCG, so no extra wait there).
    # iocoro.leakcheck=0 skips this (~20 s on TCG with 2 GiB).
    iocoro_leaks=
    if [ "$iocoro_leakcheck" = 1 ] && [ -w /sys/kernel/debug/kmemleak ]; then
        iocoro_log "kmemleak scan (1/2)"
        echo scan > /sys/kernel/debug/kmemleak
        _wait=$((iocoro_end + 6 - $(iocoro_uptime)))
        [ "$_wait" -gt 0 ] && sleep "$_wait"
        iocoro_log "kmemleak scan (2/2)"
        echo scan > /sys/kernel/debug/kmemleak
        iocoro_leaks=$(cat /sys/kernel/debug/kmemleak)
        [ -n "$iocoro_leaks" ] && printf '%s\n' "$iocoro_leaks" > /dev/console
    fi

    {
        dmesg
        if [ -n "$iocoro_leaks" ]; then
            echo "iocoro: kmemleak report (/sys/kernel/debug/kmemleak):"
            printf '%s\n' "$iocoro_leaks"
        fi
        echo "iocoro: end of kernel log"
    } > "$iocoro_klog"

    printf 'exit=%d\n' "$iocoro_rc" > "$iocoro_status"
    sync
    return 0
}

iocoro_standalone=0
[ "${0##*/}" = iocoro-init ] && iocoro_standalone=1
iocoro_main || iocoro_log "giving up without a status"
iocoro_log "resetting the machine"
# -no-reboot turns a reset into QEMU's exit; there is no ACPI power-off here
echo b > /proc/sysrq-trigger
sleep 5
echo o > /proc/sysrq-trigger
while :; do sleep 1000; done
