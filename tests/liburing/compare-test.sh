#!/bin/sh
# Host check of tests/liburing/compare.py (ctest check_liburing_compare):
# the regression stage's verdict must fail on every kind of difference, and
# the repository's expected.txt must keep its own rules.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cmp="python3 $here/compare.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
partial=

# expect WANT_STATUS NAME EXPECTED STOCK PATCHED [GREP]
expect() {
	want=$1 name=$2
	printf '%b' "$3" >"$tmp/exp"
	printf '%b' "$4" >"$tmp/s"
	printf '%b' "$5" >"$tmp/p"
	# shellcheck disable=SC2086 # partial: empty or one word
	$cmp $partial "$tmp/exp" "$tmp/s" "$tmp/p" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL $name: exit $got, want $want"; sed 's/^/  /' "$tmp/out"
		fails=$((fails + 1))
	elif [ -n "${6:-}" ] && ! grep -q -- "$6" "$tmp/out"; then
		echo "FAIL $name: output lacks '$6'"; sed 's/^/  /' "$tmp/out"
		fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}

E='a pass pass\nb skip skip\nc fail-1 pass fixed by the series\nd pass|timeout pass|timeout racy\n'
expect 0 same "$E" 'result a pass 1\nresult b skip 1\nresult c fail-1 1\nresult d pass 1\n' \
	'result a pass 1\nresult b skip 1\nresult c pass 1\nresult d timeout 1\n' 'note d: pass on stock, timeout on patched'
expect 1 patched-differs "$E" 'result a pass 1\nresult b skip 1\nresult c fail-1 1\nresult d pass 1\n' \
	'result a fail-1 1\nresult b skip 1\nresult c pass 1\nresult d pass 1\n' 'FAIL a: fail-1 on patched'
expect 1 stock-differs "$E" 'result a pass 1\nresult b pass 1\nresult c fail-1 1\nresult d pass 1\n' \
	'result a pass 1\nresult b skip 1\nresult c pass 1\nresult d pass 1\n' 'FAIL b: pass on stock'
expect 1 missing "$E" 'result a pass 1\nresult b skip 1\nresult c fail-1 1\nresult d pass 1\n' \
	'result a pass 1\nresult b skip 1\nresult c pass 1\n' 'd: listed in expected.txt but did not run on patched'
expect 1 unlisted "$E" 'result a pass 1\nresult b skip 1\nresult c fail-1 1\nresult d pass 1\nresult e pass 1\n' \
	'result a pass 1\nresult b skip 1\nresult c pass 1\nresult d pass 1\n' 'e: ran on stock'
expect 1 empty "$E" '' 'result a pass 1\n' 'stock: no results at all'
expect 2 no-reason 'a pass fail-1\n' 'result a pass 1\n' 'result a fail-1 1\n' 'gives no reason'
expect 2 flaky-no-reason 'a pass|timeout pass|timeout\n' 'result a pass 1\n' 'result a pass 1\n' 'gives no reason'
expect 2 bad-outcome 'a passed passed\n' 'result a pass 1\n' 'result a pass 1\n' 'unknown outcome'
expect 2 twice 'a pass pass\na pass pass\n' 'result a pass 1\n' 'result a pass 1\n' 'listed twice'
partial=--partial
expect 0 partial-missing "$E" 'result a pass 1\n' 'result a pass 1\n' '1 tests on both kernels'
expect 1 partial-differs "$E" 'result a pass 1\n' 'result a skip 1\n' 'FAIL a: skip on patched'
partial=

# the repository's list follows the rules: against itself as the results
# of both kernels (first outcome of each column) it must pass
awk '!/^#/ && NF >= 3 { split($2, s, "|"); split($3, p, "|");
	print "result " $1 " " s[1] " 0" > "'"$tmp"'/rs"; print "result " $1 " " p[1] " 0" > "'"$tmp"'/rp" }' \
	"$here/expected.txt"
if $cmp "$here/expected.txt" "$tmp/rs" "$tmp/rp" >"$tmp/out" 2>&1; then
	echo "ok   expected.txt"
else
	echo "FAIL expected.txt"; sed 's/^/  /' "$tmp/out"
	fails=$((fails + 1))
fi
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
