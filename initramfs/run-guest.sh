#!/usr/bin/env bash
# Boot the iocoro kernel in QEMU, run one command in the guest, bring back
# its exit status and the logs, and judge the run.
#
# Usage:
#   initramfs/run-guest.sh --kernel BZIMAGE --initrd IMG [--timeout SECONDS]
#       [--log-dir DIR] [--mem MiB] [--smp N] [--kvm] [--append ARGS]
#       [--dracut-init] [--no-leak-check] [--quiet] [--disk IMG]
#       [--disk-cache MODE] [--icount] -- CMD...
#
# --append ARGS     extra kernel command-line arguments.
# --dracut-init     boot through dracut's /init and its cmdline hook instead
#                   of starting the guest runner as PID 1 (rdinit=/iocoro-init);
#                   same result, ~10 s slower on TCG.
# --no-leak-check   skip the kmemleak scans after the command (they take
#                   ~20 s on TCG with 2 GiB; ~10 s with 512 MiB).
# --quiet           keep the serial console (firmware, kernel messages) in
#                   console.log only and show the command's output instead,
#                   as it comes; on a run without an exit status the last
#                   lines of the console are shown too.
# --disk IMG        attach IMG (a raw disk image) as a virtio block device,
#                   /dev/vda in the guest (a kernel with CONFIG_VIRTIO_BLK:
#                   the release flavour); the guest mounts nothing itself.
# --disk-cache MODE QEMU's cache mode for --disk: writeback (default: the
#                   image's pages stay in the host's page cache, so a read
#                   after the guest's drop_caches comes from host RAM) or
#                   none (O_DIRECT on the image: every read reaches the
#                   host's disk).
# --icount          count instructions: -icount shift=0,sleep=off, so the
#                   guest's clock (boot it with tsc_early_khz=1000000
#                   tsc=reliable) advances 1 ns per instruction the guest
#                   runs, idle excepted; one CPU (--smp 1: icount is
#                   single-threaded TCG).
# --kvm             use KVM instead of TCG (on the iocoro build machines a
#                   KVM guest hangs at boot: TCG is the default on purpose).
#
# CMD: one argument is a shell command line (run with sh -c in the guest);
# several arguments are an argv, each word quoted for the guest shell.
# The guest runs it as root in /tmp with HOME=/tmp, stdin /dev/null, a clean
# environment (PATH, HOME, TMPDIR, TERM=dumb, LANG=C.UTF-8). The command line
# (base64) must fit the kernel command line: ~1.3 KiB of command at most.
#
# Kernel command line: console=ttyS0 panic=-1 oops=panic (an oops ends the
# run at once, red, instead of hanging until the timeout) log_buf_len=16M
# printk.devkmsg=on rd.shell=0 rdinit=/iocoro-init iocoro.cmd=<base64>.
#
# Logs in DIR (default ./guest-logs), replaced on every run:
#   console.log  serial console (also shown on stdout while the guest runs,
#                unless --quiet)
#   output.log   stdout+stderr of the command (virtio-serial port)
#   kernel.log   guest dmesg + kmemleak report (virtio-serial port)
#   status.log   "exit=N" (virtio-serial port)
#   qemu.log     QEMU's own stderr
#   verdict.log  the verdict line
#
# Exit status:
#   N    the command's exit status (status port has exit=N, kernel log clean)
#   124  QEMU hit the timeout (hang; also a guest that did not power off)
#   125  no well-formed status came back (panic, oops, boot failure), or the
#        runner could not start (bad arguments, missing file)
#   126  the command exited 0 but the kernel-log gate found a splat
#        (if the command failed too, its status wins; findings are printed)
# A verdict with gate findings names the guest tests (ctest, through
# tests/lib/guest-test.sh's kmsg markers) whose runs they fell in:
# "... kernel log has 'WARNING: ...' in test chain_nop_chain (exit 0; ...)".
# The verdict is preset to failure and only turns green on positive evidence.
#
# IOCORO_QEMU_ARGS adds QEMU options (words split on spaces).
# QEMU options have commas inside array elements on purpose
# shellcheck disable=SC2054
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prog=run-guest

die() {
	echo "$prog: error: $*" >&2
	exit 125
}
usage() {
	if [ "$1" = help ]; then
		sed -n '/^# Usage:/,/^# The verdict/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
		exit 0
	fi
	sed -n '/^# Usage:/,/^#$/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	die "$* (--help for more)"
}

kernel=
initrd=
timeout_s=600
log_dir=./guest-logs
mem=2048
smp=2
kvm=0
append_extra=
rdinit=/iocoro-init
leakcheck=1
quiet=0
disk=
disk_cache=writeback
icount=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) [ $# -ge 2 ] || usage "--kernel needs a path"; kernel=$2; shift 2 ;;
	--initrd) [ $# -ge 2 ] || usage "--initrd needs a path"; initrd=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage "--timeout needs seconds"; timeout_s=$2; shift 2 ;;
	--log-dir) [ $# -ge 2 ] || usage "--log-dir needs a directory"; log_dir=$2; shift 2 ;;
	--mem) [ $# -ge 2 ] || usage "--mem needs MiB"; mem=$2; shift 2 ;;
	--smp) [ $# -ge 2 ] || usage "--smp needs a count"; smp=$2; shift 2 ;;
	--kvm) kvm=1; shift ;;
	--append) [ $# -ge 2 ] || usage "--append needs kernel arguments"; append_extra=$2; shift 2 ;;
	--dracut-init) rdinit=/init; shift ;;
	--no-leak-check) leakcheck=0; shift ;;
	--quiet) quiet=1; shift ;;
	--disk) [ $# -ge 2 ] || usage "--disk needs an image"; disk=$2; shift 2 ;;
	--disk-cache) [ $# -ge 2 ] || usage "--disk-cache needs a mode"; disk_cache=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--) shift; break ;;
	-h | --help) usage "help" ;;
	*) usage "unknown argument '$1' (the guest command goes after --)" ;;
	esac
done

[ $# -gt 0 ] || usage "no guest command given after --"
[ -n "$kernel" ] || usage "--kernel BZIMAGE is required"
[ -n "$initrd" ] || usage "--initrd IMG is required"
[ -f "$kernel" ] || die "kernel image '$kernel' not found (build it: kernel/build.sh debug)"
[ -z "$disk" ] || [ -f "$disk" ] || die "disk image '$disk' not found"
case "$disk_cache" in
writeback | none) ;;
*) die "--disk-cache must be writeback or none, got '$disk_cache'" ;;
esac
[ "$icount" = 0 ] || [ "$smp" = 1 ] || die "--icount needs --smp 1"
[ -f "$initrd" ] || die "initramfs '$initrd' not found (build it: initramfs/build-initramfs.sh BUILD_DIR OUT.img)"
for v in timeout_s mem smp; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "--${v%_s} must be a positive integer, got '${!v}'"
done
command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 not found (install qemu-system-x86)"
command -v timeout > /dev/null || die "timeout (coreutils) not found"
if [ "$kvm" = 1 ] && [ ! -w /dev/kvm ]; then
	die "--kvm given but /dev/kvm is missing or not writable"
fi

if [ $# -eq 1 ]; then
	cmd=$1
else
	cmd=$(printf '%q ' "$@")
	cmd=${cmd% }
fi
cmd_b64=$(printf '%s' "$cmd" | base64 -w0)

mkdir -p "$log_dir" || die "cannot create log dir '$log_dir'"
log_dir=$(cd "$log_dir" && pwd)
console=$log_dir/console.log
output=$log_dir/output.log
klog=$log_dir/kernel.log
status=$log_dir/status.log
qemu_log=$log_dir/qemu.log
verdict_log=$log_dir/verdict.log
# stale results must never be read as this run's
rm -f "$console" "$output" "$klog" "$status" "$qemu_log" "$verdict_log"
: > "$output"
: > "$klog"
: > "$status"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/iocoro-run-guest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# panic=-1: reboot at once on panic, and -no-reboot turns that into QEMU's exit.
# oops=panic: an oops ends the run right away (red: no status) instead of
#   leaving a half-dead kernel to hang until the timeout.
# log_buf_len: the whole log must fit in the ring for the dmesg dump.
# rd.shell=0: if the hook fails, dracut must not wait on an emergency shell.
cmdline="console=ttyS0,115200 panic=-1 oops=panic log_buf_len=16M printk.devkmsg=on"
cmdline+=" rd.shell=0 rd.emergency=reboot rdinit=$rdinit"
[ "$leakcheck" = 0 ] && cmdline+=" iocoro.leakcheck=0"
[ -n "$append_extra" ] && cmdline+=" $append_extra"
cmdline+=" iocoro.cmd=$cmd_b64"
# x86 COMMAND_LINE_SIZE is 2048 including the NUL
if [ ${#cmdline} -gt 2047 ]; then
	die "guest command too long for the kernel command line (${#cmdline} > 2047 bytes after base64); put a script in the image (IOCORO_EXTRA_INSTALL) and run that"
fi

if [ "$kvm" = 1 ]; then
	# arch-capabilities: this nested host refuses to set MSR 0x10a for -cpu host
	accel=(-accel kvm -cpu host,-arch-capabilities)
else
	accel=(-accel tcg)
fi
[ "$icount" = 0 ] || accel+=(-icount shift=0,sleep=off)

if [ "$quiet" = 1 ]; then
	conchar=(-chardev "file,id=con,path=$console")
else
	conchar=(-chardev "stdio,id=con,signal=off,logfile=$console")
fi

qemu=(
	qemu-system-x86_64 "${accel[@]}" -m "$mem"
	# one socket per CPU: SeaBIOS's MP table (no ACPI here) lists only the
	# first CPU of each package
	-smp "$smp,sockets=$smp,cores=1,threads=1"
	-nodefaults -nographic -no-reboot -monitor none
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	"${conchar[@]}"
	-serial chardev:con
	-device virtio-serial-pci,id=vser
	-chardev "file,id=st,path=$status"
	-device virtserialport,bus=vser.0,chardev=st,name=iocoro.status
	-chardev "file,id=kl,path=$klog"
	-device virtserialport,bus=vser.0,chardev=kl,name=iocoro.kernel-log
	-chardev "file,id=out,path=$output"
	-device virtserialport,bus=vser.0,chardev=out,name=iocoro.output
)
[ -z "$disk" ] || qemu+=(-drive "file=$disk,format=raw,if=virtio,cache=$disk_cache")
# shellcheck disable=SC2206 # words on purpose: extra QEMU options
[ -z "${IOCORO_QEMU_ARGS-}" ] || qemu+=(${IOCORO_QEMU_ARGS})

echo "$prog: booting $(basename "$kernel") ($([ "$kvm" = 1 ] && echo kvm || echo tcg), ${mem} MiB, ${smp} cpu, timeout ${timeout_s}s), logs in $log_dir"
echo "$prog: guest command: $cmd"
start=$(date +%s.%N)
set +e
if [ "$quiet" = 1 ]; then
	# the command's output as it comes: tail ends after QEMU, having read
	# what was written last
	timeout --kill-after=10 "$timeout_s" "${qemu[@]}" < /dev/null 2> "$qemu_log" &
	qemu_pid=$!
	# a background job ignores SIGINT: pass ^C (and TERM) on to QEMU
	trap 'kill -TERM "$qemu_pid" 2> /dev/null' INT TERM
	tail -n +1 -f --pid="$qemu_pid" "$output" &
	tail_pid=$!
	wait "$qemu_pid"
	qemu_rc=$?
	wait "$tail_pid"
else
	timeout --kill-after=10 "$timeout_s" "${qemu[@]}" < /dev/null 2> "$qemu_log"
	qemu_rc=$?
fi
set -e
end=$(date +%s.%N)
elapsed=$(printf '%.1f' "$(echo "$end - $start" | bc)")
echo
echo "$prog: QEMU ended after ${elapsed}s (status $qemu_rc)"

# --- verdict (preset: failure) ---
rc=125
gate_out=$tmp/gate.out
gate_rc=0
gate_files=()
[ -s "$klog" ] && gate_files+=("$klog")
[ -f "$console" ] && gate_files+=(--kmsg-only "$console")
if [ ${#gate_files[@]} -gt 0 ]; then
	"$here/log-gate.sh" "${gate_files[@]}" > "$gate_out" 2>&1 || gate_rc=$?
fi
first_finding() {
	sed -n 's/^log-gate: [^:]*:[0-9]*: *\(\[ *[0-9.]*\] *\)\{0,1\}//p' "$gate_out" | head -n1 | cut -c1-160
}
# " in test A, B" / " in no test": where the gate placed its findings (the
# kmsg markers of tests/lib/guest-test.sh); nothing when there were none
finding_tests() {
	local names
	names=$(sed -n 's/^log-gate: in test \(.*\): [0-9]* finding(s) .*/\1/p' "$gate_out" |
		tr ',' '\n' | sed 's/^ *//' | awk 'NF && !seen[$0]++' | paste -sd, - | sed 's/,/, /g')
	if [ -n "$names" ]; then
		case "$names" in
		*,*) printf ' in tests %s' "$names" ;;
		*) printf ' in test %s' "$names" ;;
		esac
		grep -q '^log-gate: in no test: ' "$gate_out" && printf ' and outside them'
	elif grep -q '^log-gate: in no test: ' "$gate_out"; then
		printf ' in no test'
	fi
	return 0
}

guest_rc=
if [ "$(wc -l < "$status")" -eq 1 ] && grep -qxE 'exit=[0-9]{1,3}' "$status"; then
	guest_rc=$(sed 's/^exit=//' "$status")
	guest_rc=$((10#$guest_rc))
	[ "$guest_rc" -le 255 ] || guest_rc=
fi
klog_complete=0
grep -qx 'iocoro: end of kernel log' "$klog" && klog_complete=1

if [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
	rc=124
	if [ -n "$guest_rc" ]; then
		verdict="FAIL: timeout after ${timeout_s}s: the command finished (exit $guest_rc) but the guest did not power off"
	else
		verdict="FAIL: timeout after ${timeout_s}s (hang; see $console)"
	fi
elif [ "$qemu_rc" -ne 0 ] && [ -z "$guest_rc" ]; then
	rc=125
	verdict="FAIL: QEMU failed (status $qemu_rc): $(head -n1 "$qemu_log") (see $qemu_log)"
elif [ -z "$guest_rc" ]; then
	rc=125
	if [ "$gate_rc" -ne 0 ]; then
		verdict="FAIL: no exit status from the guest; kernel log has '$(first_finding)'$(finding_tests) (see $console)"
	else
		verdict="FAIL: no exit status from the guest (crash, panic or boot failure; see $console)"
	fi
elif [ "$klog_complete" -ne 1 ]; then
	rc=$([ "$guest_rc" -eq 0 ] && echo 126 || echo "$guest_rc")
	verdict="FAIL: kernel log from the guest is missing or incomplete (exit $guest_rc; see $klog)"
elif [ "$gate_rc" -ne 0 ]; then
	rc=$([ "$guest_rc" -eq 0 ] && echo 126 || echo "$guest_rc")
	verdict="FAIL: kernel log has '$(first_finding)'$(finding_tests) (exit $guest_rc; see $klog)"
elif [ "$guest_rc" -eq 0 ]; then
	rc=0
	verdict="PASS (exit 0)"
else
	rc=$guest_rc
	verdict="FAIL: command exited $guest_rc (see $output)"
fi

if [ "$gate_rc" -ne 0 ]; then
	echo "$prog: kernel-log gate findings:"
	sed 's/^/  /' "$gate_out"
fi
if [ "$quiet" = 1 ] && [ -z "$guest_rc" ] && [ -s "$console" ]; then
	echo "$prog: last lines of the console ($console):"
	tail -n 30 "$console" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/^/  /'
fi
if [ -s "$qemu_log" ]; then
	echo "$prog: QEMU stderr:"
	sed 's/^/  /' "$qemu_log" | head -n 20
fi
echo "guest: $verdict" | tee "$verdict_log"
exit "$rc"
