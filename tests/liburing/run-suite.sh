#!/bin/sh
# Guest side of the regression stage (tests/liburing/regress.sh): run every
# test of a built liburing suite, then every case of iocoro's own io_uring
# regression suite, one at a time, and print one line per test:
#
#   result NAME OUTCOME SECONDS
#
# OUTCOME is pass, skip (exit 77, liburing's T_EXIT_SKIP), fail-N (exit
# N), timeout (killed after the timeout) or signal-N. NAME is
# liburing/<test> (without .t) or regress/<case>.
#
# Usage: run-suite.sh --launcher GUEST_TEST_SH [--timeout S]
#            [--liburing DIR] [--cases BIN] [--only REGEX] [--slow NAME=S]...
#
# REGEX (grep -E) selects tests by name, anchored at the start. --slow
# gives test NAME a timeout of S seconds instead of --timeout's.
#
# Each test runs through tests/lib/guest-test.sh (the launcher), so the
# kernel-log gate names the test a splat was logged in, in a scratch
# directory of its own (liburing's tests create their files in the
# current one), with stdout and stderr in the scratch dir's log, printed
# after the result line when the outcome is not pass or skip.
# The exit status is 0 when every test ran, whatever its outcome: the
# host compares the outcomes with tests/liburing/expected.txt.
set -u

timeout_s=30
launcher=
suite=
cases=
only=.
slow=" "
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) timeout_s=$2; shift 2 ;;
	--launcher) launcher=$2; shift 2 ;;
	--liburing) suite=$2; shift 2 ;;
	--cases) cases=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--slow) slow="$slow$2 "; shift 2 ;;
	*) echo "run-suite: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ -x "$launcher" ] || { echo "run-suite: launcher '$launcher' not executable" >&2; exit 2; }
[ -z "$suite" ] || [ -d "$suite" ] || { echo "run-suite: no suite directory '$suite'" >&2; exit 2; }
[ -z "$cases" ] || [ -x "$cases" ] || { echo "run-suite: no case binary '$cases'" >&2; exit 2; }

# liburing's socket tests talk over 127.0.0.1; the guest starts with lo down
busybox ifconfig lo 127.0.0.1 up 2>/dev/null ||
	echo "run-suite: warning: could not bring lo up; socket tests will fail" >&2

scratch=${TMPDIR:-/tmp}/run-suite
rm -rf "$scratch"
mkdir -p "$scratch" || exit 2

# centiseconds of uptime, without a fork (forks are slow under TCG)
now() {
	read -r up _ </proc/uptime
	echo $((${up%.*} * 100 + 1${up#*.} - 100))
}

# run NAME CMD...: one test, one result line
run() {
	name=$1
	shift
	dir=$scratch/${name#*/}
	mkdir "$dir"
	t=$timeout_s
	case "$slow" in
	*" $name="*) t=${slow#* "$name"=}; t=${t%% *} ;;
	esac
	t0=$(now)
	(cd "$dir" && exec "$launcher" "$name" timeout -s INT -k 5 "$t" "$@") \
		>"$dir.log" 2>&1 </dev/null
	rc=$?
	t1=$(now)
	case "$rc" in
	0) outcome=pass ;;
	77) outcome=skip ;;
	124 | 137) outcome=timeout ;;
	13[0-9] | 14[0-9] | 15[0-9]) outcome=signal-$((rc - 128)) ;;
	*) outcome=fail-$rc ;;
	esac
	d=$((t1 - t0))
	echo "result $name $outcome $((d / 100)).$((d / 10 % 10))"
	case "$outcome" in
	pass | skip) ;;
	*) tail -n 20 "$dir.log" | sed 's/^/  | /' ;;
	esac
	rm -rf "$dir" "$dir.log"
}

# the tests, "NAME CMD ARG" per line, filtered once
list() {
	if [ -n "$suite" ]; then
		for t in "$suite"/*.t; do
			[ -x "$t" ] || continue
			b=${t##*/}
			echo "liburing/${b%.t} $t"
		done
	fi
	if [ -n "$cases" ]; then
		"$cases" --list | while read -r c _; do
			echo "regress/$c $cases $c"
		done
	fi
}

list | grep -E -- "^($only)" >"$scratch/list"
n=0
while read -r name cmd arg; do
	# shellcheck disable=SC2086 # arg: empty or one word
	run "$name" "$cmd" $arg
	n=$((n + 1))
done <"$scratch/list"
echo "run-suite: $n tests run"
