#!/usr/bin/env bash
# Harness self-test: proves that the guest runner's verdict turns red for
# every kind of failure and green for a passing command.
#
# Usage: initramfs/selftest.sh --kernel BZIMAGE [--log-dir DIR] [--kvm]
#
# Cases (one boot each, TCG unless --kvm):
#   pass    true                              -> 0, "guest: PASS (exit 0)"
#                                                (with the kmemleak scans)
#   exit3   exit 3 (via dracut's /init hook,  -> 3 (its output shown,
#           --quiet)                             the console not)
#   panic   echo exit=0; sysrq-c              -> 125 (console text is never
#                                                read as a status)
#   hang    sleep 100000, short --timeout,    -> 124 (with --quiet, the
#           --quiet                              console's last lines shown)
#   splat   "WARNING: ..." into /dev/kmsg and -> 126 (the gate reads the
#           a real backtrace (sysrq-l), by       kernel-log port; the real
#           the second of three commands run     report trips it alone too;
#           through tests/lib/guest-test.sh      the verdict names that
#                                                command's test, no other)
# Prints "selftest: <case>: ok (exit N)" per case and "N passed, M failed";
# exits non-zero if any case failed. Logs go to a temporary directory
# (removed at exit) unless --log-dir DIR is given.
# the per-case checks are single-quoted snippets, expanded when evaluated
# shellcheck disable=SC2016
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prog=selftest

die() {
	echo "$prog: error: $*" >&2
	exit 2
}

kernel=
keep_dir=
kvm=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) [ $# -ge 2 ] || die "--kernel needs a path"; kernel=$2; shift 2 ;;
	--log-dir) [ $# -ge 2 ] || die "--log-dir needs a directory"; keep_dir=$2; shift 2 ;;
	--kvm) kvm=(--kvm); shift ;;
	*) die "unknown argument '$1' (usage: $0 --kernel BZIMAGE [--log-dir DIR] [--kvm])" ;;
	esac
done
[ -n "$kernel" ] || die "--kernel BZIMAGE is required (e.g. /var/cache/iocoro/kernel/obj-debug/arch/x86/boot/bzImage)"
[ -f "$kernel" ] || die "kernel image '$kernel' not found (build it: kernel/build.sh debug)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/iocoro-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ -n "$keep_dir" ]; then
	mkdir -p "$keep_dir" || die "cannot create '$keep_dir'"
	logs=$(cd "$keep_dir" && pwd)
else
	logs=$tmp/logs
	mkdir -p "$logs"
fi

# a minimal build tree: the harness needs nothing from it; no ctest either
# (30 MiB less to unpack: ~10 s less per boot on TCG)
mkdir -p "$tmp/build"
echo "iocoro selftest" > "$tmp/build/README"
# the kmsg markers around each guest test, for the splat case
cp "$here/../tests/lib/guest-test.sh" "$tmp/build/guest-test.sh"
launch=$tmp/build/guest-test.sh
img=$tmp/selftest.img
IOCORO_CTEST=0 IOCORO_EXTRA_INSTALL='' "$here/build-initramfs.sh" "$tmp/build" "$img" ||
	die "building the initramfs failed"

passed=0
failed=0
timings=()

# run_case NAME EXPECTED_RC CHECK RUN-GUEST-ARGS... -- CMD
# CHECK: a shell snippet evaluated after the run with $dir set; must succeed.
run_case() {
	local name=$1 want=$2 check=$3
	shift 3
	local dir=$logs/$name rc=0 t0 t1 why=
	mkdir -p "$dir"
	t0=$(date +%s)
	"$here/run-guest.sh" --kernel "$kernel" --initrd "$img" --log-dir "$dir" \
		--mem 512 "${kvm[@]}" "$@" > "$dir/run-guest.out" 2>&1 || rc=$?
	t1=$(date +%s)
	timings+=("$name $((t1 - t0))s")
	if [ "$rc" -ne "$want" ]; then
		why="exit $rc, expected $want"
	elif ! (eval "$check") > "$dir/check.out" 2>&1; then
		why="check failed: $check"
	fi
	if [ -z "$why" ]; then
		echo "$prog: $name: ok (exit $rc)"
		passed=$((passed + 1))
	else
		echo "$prog: $name: FAIL ($why)"
		echo "$prog: $name: last lines of run-guest output ($dir/run-guest.out):"
		tail -n 15 "$dir/run-guest.out" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
}

# vhas STRING: the verdict line (last line of run-guest's output) has STRING
vhas() {
	local v
	v=$(tail -n 1 "$dir/run-guest.out")
	case "$v" in *"$1"*) return 0 ;; esac
	return 1
}

# (a) green: the only case that must come out as PASS; runs the leak scans
run_case pass 0 \
	'[ "$(tail -n 1 "$dir/run-guest.out")" = "guest: PASS (exit 0)" ] && grep -q "kmemleak scan (2/2)" "$dir/console.log" && grep -qx "iocoro: end of kernel log" "$dir/kernel.log"' \
	-- true
# (b) the command's status comes back; through dracut's /init + cmdline hook;
# --quiet shows the command's output and none of the console
run_case exit3 3 \
	'vhas "command exited 3" && grep -q "dracut" "$dir/kernel.log" && grep -qx to-output "$dir/run-guest.out" && ! grep -q "Linux version" "$dir/run-guest.out" && grep -q "Linux version" "$dir/console.log"' \
	--dracut-init --no-leak-check --quiet -- 'echo to-output; exit 3'
# (c) panic: no status; "exit=0" on the console must not count
run_case panic 125 \
	'vhas "no exit status" && grep -q "Kernel panic" "$dir/console.log" && [ ! -s "$dir/status.log" ]' \
	--no-leak-check -- 'echo exit=0; echo c > /proc/sysrq-trigger; sleep 60'
# (d) hang: the command started and never ended
run_case hang 124 \
	'vhas timeout && grep -q "running: sleep 100000" "$dir/console.log" && grep -q "last lines of the console" "$dir/run-guest.out" && grep -q "running: sleep 100000" "$dir/run-guest.out"' \
	--no-leak-check --quiet --timeout 60 -- 'sleep 100000'
# (e) splat in the kernel log with a passing command: a fake WARNING line
# (what the gate reads: it must come through the kernel-log port) and a real
# kernel-generated backtrace (sysrq-l), which must trip the gate on its own;
# both logged by the second of three tests run through guest-test.sh, which
# the verdict (and the gate, for the real report too) must name alone
run_case splat 126 \
	'vhas "WARNING: selftest splat'"'"' in test selftest_splat (exit 0" && grep -q "WARNING: selftest splat" "$dir/kernel.log" && grep -q "iocoro-test: end selftest_after exit=0" "$dir/kernel.log" && ! "$here/log-gate.sh" --ignore "selftest splat" "$dir/kernel.log" > "$dir/gate-real.out" && grep -q "Call Trace:" "$dir/gate-real.out" && grep -q "^log-gate: in test selftest_splat: " "$dir/gate-real.out" && ! grep -q "^log-gate: in \(no test\|test selftest_\(before\|after\)\)" "$dir/gate-real.out"' \
	--no-leak-check -- "$launch selftest_before true && $launch selftest_splat sh -c 'echo \"WARNING: selftest splat\" > /dev/kmsg; echo l > /proc/sysrq-trigger; sleep 1' && $launch selftest_after true"

echo "$prog: timings: ${timings[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
