#!/bin/sh
# Smoke run of step_bench (ctest bench_step_smoke, in the guest): tiny
# sizes, one round. Passes when step_bench exits 0 and its CSV has the
# exact counts; no timing is judged.
#
# Usage: smoke.sh STEP_BENCH
set -u
bench=$1
steps=100
coros=1000
csv=$(mktemp "${TMPDIR:-/tmp}/step-smoke-csv.XXXXXX") || exit 1
trap 'rm -f "$csv"' EXIT

# memory's return after the close is not judged: no waiting for it
"$bench" --steps "$steps" --rounds 1 --coroutines "$coros" --settle-ms 0 \
	--csv "$csv"
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "smoke: step_bench exited $rc" >&2
	exit 1
fi

fail=0
# want CASE CONTENDER ROUND METRIC VALUE: that row, with that value
want() {
	got=$(awk -F, -v c="$1" -v w="$2" -v r="$3" -v m="$4" \
		'$1 == c && $2 == w && $3 == r && $4 == m { print $5 }' "$csv")
	if [ "$got" != "$5" ]; then
		echo "smoke: $1,$2,$3,$4 is '$got', want '$5'" >&2
		fail=1
	fi
}
# atleast CASE CONTENDER ROUND METRIC MIN: an integer >= MIN
atleast() {
	got=$(awk -F, -v c="$1" -v w="$2" -v r="$3" -v m="$4" \
		'$1 == c && $2 == w && $3 == r && $4 == m { print $5 }' "$csv")
	case "$got" in
	'' | *[!0-9]*) echo "smoke: $1,$2,$3,$4 is '$got', want a count" >&2; fail=1 ;;
	*) [ "$got" -ge "$5" ] || { echo "smoke: $1,$2,$3,$4 is $got, want >= $5" >&2; fail=1; } ;;
	esac
}

for c in bpf loop link; do
	want step "$c" 1 steps "$steps"
	want step "$c" 1 nops "$steps"
	atleast step "$c" 1 ns 1
done
# one submit and one CQE for the coroutine; one enter and CQE per NOP for
# the loop; one batch (<= 256 NOPs) for the link
want step bpf 1 cqes 1
atleast step bpf 1 enters 1
want step loop 1 cqes "$steps"
atleast step loop 1 enters "$steps"
want step link 1 cqes 1
atleast step link 1 enters 1
# the ratios are there and positive (their size is not judged)
for r in bpf/loop bpf/link; do
	got=$(awk -F, -v w="$r" '$1 == "step" && $2 == w && $3 == "median" && $4 == "ratio" { print $5 }' "$csv")
	if ! awk -v v="$got" 'BEGIN { exit !(v + 0 > 0) }'; then
		echo "smoke: the median $r ratio is '$got', want a positive number" >&2
		fail=1
	fi
done
for c in bpf timeout; do
	want memory "$c" '' in_flight "$coros"
	want memory "$c" '' ended "$coros"
done
[ "$fail" -eq 0 ] || exit 1
echo "smoke: step_bench ok ($steps steps, $coros coroutines, counts exact)"
