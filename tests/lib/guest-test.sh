#!/bin/sh
# Run one guest test between two kernel-log markers, as liburing's
# runtests.sh does, so that the kernel-log gate (initramfs/log-gate.sh)
# can name the test during which a splat was logged:
#
#   iocoro-test: start NAME pid=PID
#   iocoro-test: end NAME exit=N
#
# Usage: guest-test.sh NAME CMD [ARG...]   (iocoro_guest_add_test() in
# cmake/testing.cmake puts it in front of every guest test)
#
# PID is the test's own process (the command is exec'd in a subshell after
# the start marker), which the gate uses to place kmemleak reports, logged
# after all tests, by the "pid N" of the allocating task. The exit status is
# the command's; a command killed by a signal kills the wrapper with the
# same signal. Without a writable /dev/kmsg (a guest test run on the host)
# the command just runs.
[ $# -ge 2 ] || {
	echo "usage: $0 NAME CMD [ARG...]" >&2
	exit 2
}
name=$1
shift
(
	read -r pid _ < /proc/self/stat
	{ echo "iocoro-test: start $name pid=$pid" > /dev/kmsg; } 2> /dev/null
	exec "$@"
)
rc=$?
{ echo "iocoro-test: end $name exit=$rc" > /dev/kmsg; } 2> /dev/null
if [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; then
	trap - "$((rc - 128))" 2> /dev/null
	kill -s "$((rc - 128))" $$ 2> /dev/null
fi
exit "$rc"
