#!/usr/bin/env bash
# The regression stage: rings that never use BPF must behave as on the
# unpatched kernel. Runs upstream liburing's test suite (Debian's source,
# tests/liburing/build-suite.sh) and iocoro's own io_uring regression cases
# (tests/guest/regress) in the guest, once on the stock kernel
# (kernel/build.sh stock: the same tree and config without the series) and
# once on the patched one, and compares both with tests/liburing/expected.txt
# (tests/liburing/compare.py).
#
# Usage: tests/liburing/regress.sh --build BUILD_DIR --stock BZIMAGE
#            --patched BZIMAGE --out DIR [--timeout S] [--only REGEX]
#
# --timeout  per test, in the guest (default 30 s, as upstream's reports);
#            tests/liburing/slow.txt names the tests that get longer
# --only     run only the tests whose names match (grep -E, anchored at the
#            start), and judge only those
#
# DIR gets regress.img, <kernel>.results and each guest run's logs in
# <kernel>-logs/. A kernel's results are remembered in the cache
# ($IOCORO_CACHE/regress/), keyed by its bzImage and everything the guest
# runs; IOCORO_REGRESS=always runs the guest again regardless. A guest run
# that does not end cleanly (hang, splat, kernel-log finding) fails the
# stage and caches nothing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/lib/stages.sh
. "$root/scripts/lib/stages.sh" # stage_key

die() {
	echo "regress: $*" >&2
	exit 1
}

build=
stock=
patched=
out=
timeout_s=30
only=.
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--stock) stock=$2; shift 2 ;;
	--patched) patched=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	*) die "unknown argument '$1' (see the usage at the top of $0)" ;;
	esac
done
if [ -z "$build" ] || [ -z "$stock" ] || [ -z "$patched" ] || [ -z "$out" ]; then
	die "usage: $0 --build BUILD_DIR --stock BZIMAGE --patched BZIMAGE --out DIR"
fi
build=$(cd "$build" && pwd)
for f in "$stock" "$patched"; do [ -f "$f" ] || die "no bzImage '$f'"; done
launcher=$build/tests/lib/guest-test.sh
cases=$build/tests/guest/regress/regress_test
for f in "$launcher" "$cases"; do [ -x "$f" ] || die "'$f' missing: build the tree first"; done
mkdir -p "$out"
out=$(cd "$out" && pwd)
cache=${IOCORO_CACHE:-/var/cache/iocoro}/regress
mkdir -p "$cache"

suite=$("$here/build-suite.sh" | tee /dev/stderr | tail -n 1)
[ -d "$suite" ] || die "build-suite.sh printed no suite directory"

slow=()
slow_s=0
while read -r name secs _; do
	case "$name" in '' | '#'*) continue ;; esac
	slow+=(--slow "$name=$secs")
	slow_s=$((slow_s + secs))
done <"$here/slow.txt"

# everything a guest run executes, but the kernel
inputs=$(stage_key "$suite"/*.t "$here/run-suite.sh" "$here/slow.txt" "$launcher" \
	"$cases" "$root"/initramfs/*.sh "$root"/initramfs/dracut/*/*)

img=$out/regress.img
# built afresh for every run: the image holds a copy of the build tree,
# and an image of an older tree would run older cases
image() {
	rm -f "$img"
	IOCORO_EXTRA_INSTALL="$suite $here/run-suite.sh" \
		"$root/initramfs/build-initramfs.sh" "$build" "$img"
}

# one kernel's run: results to $out/$1.results
# the remembered results of kernel $1 (bzImage $2), when they may be used
stamp_of() {
	echo "$cache/$1-$(stage_key -s "$inputs $timeout_s $only" "$2").results"
}

cached() {
	[ -f "$(stamp_of "$1" "$2")" ] && [ "${IOCORO_REGRESS:-}" != always ]
}

run_kernel() {
	local kernel=$1 bz=$2 stamp n
	stamp=$(stamp_of "$kernel" "$bz")
	if cached "$kernel" "$bz"; then
		cp "$stamp" "$out/$kernel.results"
		echo "regress: $kernel: results of an earlier run with these inputs, $stamp"
		return 0
	fi
	set -- "$suite"/*.t
	n=$(($# + 20))
	echo "regress: $kernel: running the suites in the guest ($bz)"
	# a generous bound for the whole run: every test may time out
	if ! "$root/initramfs/run-guest.sh" --quiet --kernel "$bz" --initrd "$img" \
		--timeout $((n * (timeout_s + 10) + slow_s + 300)) --log-dir "$out/$kernel-logs" -- \
		"$here/run-suite.sh --launcher $launcher --timeout $timeout_s ${slow[*]} --liburing $suite --cases $cases --only '$only'" |
		sed "s/^/$kernel: /"; then
		die "$kernel: the guest run failed: $(cat "$out/$kernel-logs/verdict.log" 2>/dev/null)"
	fi
	grep '^result ' "$out/$kernel-logs/output.log" >"$out/$kernel.results" ||
		die "$kernel: no results in $out/$kernel-logs/output.log"
	cp "$out/$kernel.results" "$stamp"
	echo "regress: $kernel: $(wc -l <"$out/$kernel.results") results"
}

# One kernel after the other: with both guests at once (tried) the slower
# TCG made liburing/link_drain time out on the patched kernel.
if ! cached stock "$stock" || ! cached patched "$patched"; then
	image
fi
run_kernel stock "$stock"
run_kernel patched "$patched"
partial=
[ "$only" = . ] || partial=--partial
python3 "$here/compare.py" $partial "$here/expected.txt" "$out/stock.results" "$out/patched.results"
