#!/usr/bin/env bash
# Kernel-log gate: look for kernel splats in guest logs.
#
# Usage: initramfs/log-gate.sh [--ignore ERE] [--kmsg-only] LOGFILE...
#
#   --kmsg-only   for the files after it: only lines that look like kernel
#                 messages (printk timestamp "[    1.234567] ") count. Use it
#                 on the serial console log, where the command's own output
#                 is interleaved with the kernel's.
#   --all-lines   undo --kmsg-only for the files after it.
#   --ignore ERE  drop findings whose line matches ERE (also IOCORO_GATE_IGNORE).
#
# Exit: 0 clean; 1 findings (printed as "log-gate: FILE:LINE: text");
#       2 usage error or unreadable file (also counts as not clean).
#
# Per-test verdict: guest tests run between the kernel-log markers of
# tests/lib/guest-test.sh, "iocoro-test: start NAME pid=PID" and
# "iocoro-test: end NAME exit=N". A finding between them is the test's
# (several tests when windows overlap, as with ctest -j; a window whose end
# never came, the test was killed, stays open until the next "iocoro:
# command end"). A kmemleak report, logged after all tests, is placed by
# the "pid N" of the task that allocated the object, when that is a test's
# PID. For each file with findings, one line per test after the findings:
#   log-gate: in test NAME: N finding(s) (FILE)
#   log-gate: in no test: N finding(s) (FILE)     (only if it has markers)
set -euo pipefail

prog=log-gate

# One ERE per class of report. Case-sensitive on purpose: the boot log says
# "kasan:"/"KernelAddressSanitizer initialized" and "Lock dependency validator".
patterns=(
	'BUG:'                                 # BUG: KASAN/KFENCE/sleeping in atomic/soft lockup/...
	'WARNING:'                             # WARN_ON, lockdep, RCU lockdep
	'Oops'                                 # Oops: 0002 [#1] ...
	'Kernel panic'
	'kernel BUG at'
	'general protection fault'
	'Unable to handle kernel'
	'KASAN'
	'UBSAN'
	'KFENCE'
	'Call Trace:'
	'possible recursive locking'
	'circular locking'
	'inconsistent lock state'
	'possible irq lock inversion'
	'INFO: lockdep'
	'lockdep is turned off'
	'DEBUG_LOCKS_WARN_ON'
	'lock held when returning to user space'
	'^(\[ *[0-9]+\.[0-9]+\] )?==============================*$' # report separator (lockdep, KASAN)
	'unreferenced object'                # kmemleak report
	'suspected memory leaks'             # kmemleak: N new suspected memory leaks
	'Kernel memory leak detector disabled'
	'kmemleak: .*pool empty'
	'list_(add|del) corruption'
	'detected stall'                     # rcu: INFO: rcu_sched (self-)detected stall
	'blocked for more than'              # hung task
	'refcount_t: '
)

die_usage() {
	echo "$prog: $*" >&2
	echo "usage: $0 [--ignore ERE] [--kmsg-only|--all-lines] LOGFILE..." >&2
	exit 2
}

ignore=${IOCORO_GATE_IGNORE-}
pat=$(
	IFS='|'
	echo "${patterns[*]}"
)

[ $# -gt 0 ] || die_usage "no log file given"

kmsg_only=0
nfiles=0
total=0
bad=0
while [ $# -gt 0 ]; do
	case "$1" in
	--kmsg-only) kmsg_only=1; shift; continue ;;
	--all-lines) kmsg_only=0; shift; continue ;;
	--ignore)
		[ $# -ge 2 ] || die_usage "--ignore needs an ERE"
		ignore=$2
		shift 2
		continue
		;;
	--) shift; continue ;;
	-*) die_usage "unknown option '$1'" ;;
	esac
	f=$1
	shift
	nfiles=$((nfiles + 1))
	if [ ! -r "$f" ] || [ -d "$f" ]; then
		echo "$prog: cannot read '$f'" >&2
		bad=1
		continue
	fi
	# awk: strip CR (serial console), filter, print "FILE:LINE: text", at
	# most 20 per file; the last line of awk's output is the count.
	# Patterns go through the environment: awk -v would eat backslashes.
	out=$(GATE_PAT=$pat GATE_IGN=$ignore GATE_FILE=$f LC_ALL=C awk -v kmsg="$kmsg_only" '
		BEGIN { pat = ENVIRON["GATE_PAT"]; ign = ENVIRON["GATE_IGN"]; file = ENVIRON["GATE_FILE"] }
		{ sub(/\r+$/, "") }
		kmsg == 1 && $0 !~ /^\[ *[0-9]+\.[0-9]+\] / { next }
		# the markers of tests/lib/guest-test.sh (never findings themselves)
		match($0, /iocoro-test: start [^ ]+ pid=[0-9]+$/) {
			split(substr($0, RSTART), w, /[ =]/)
			open[w[3]] = 1; pidtest[w[5]] = w[3]; marked = 1
			next
		}
		match($0, /iocoro-test: end [^ ]+ exit=[0-9]+$/) {
			split(substr($0, RSTART), w, / /)
			delete open[w[3]]
			next
		}
		/iocoro: command end/ { for (t in open) delete open[t] }
		# the allocating task of the kmemleak report of the last finding
		leak && match($0, /comm "[^"]*", pid [0-9]+/) {
			nw = split(substr($0, RSTART, RLENGTH), w, / /)
			if (w[nw] in pidtest) intest[n] = pidtest[w[nw]]
			leak = 0
		}
		$0 ~ pat && !(ign != "" && $0 ~ ign) {
			n++
			if (n <= 20) printf "%s: %s:%d: %s\n", "'"$prog"'", file, NR, $0
			where = ""
			for (t in open) where = where (where == "" ? "" : ", ") t
			intest[n] = where
			leak = where == "" && /unreferenced object/
		}
		END {
			if (n > 20) printf "%s: %s: ... and %d more\n", "'"$prog"'", file, n - 20
			for (i = 1; i <= n; i++) {
				if (!((intest[i]) in count)) order[++nt] = intest[i]
				count[intest[i]]++
			}
			for (i = 1; i <= nt; i++) {
				t = order[i]
				if (t != "")
					printf "%s: in test %s: %d finding(s) (%s)\n", "'"$prog"'", t, count[t], file
				else if (marked)
					printf "%s: in no test: %d finding(s) (%s)\n", "'"$prog"'", count[t], file
			}
			print n + 0
		}' "$f")
	n=${out##*$'\n'}
	if [ "$n" -gt 0 ]; then
		printf '%s\n' "${out%$'\n'*}"
		total=$((total + n))
	fi
done

[ "$nfiles" -gt 0 ] || die_usage "no log file given"
if [ "$total" -gt 0 ]; then
	echo "$prog: $total finding(s)"
	exit 1
fi
[ "$bad" -eq 0 ] || exit 2
exit 0
