#!/bin/sh
# btree-bench.sh [LOOKUPS]: btree-lookup's coroutine and its peers
# (uring_btree --pread, --uring) side by side, in one run, on trees of
# depth 3 and 6 (fanout 8, so both stay small and cached): LOOKUPS random
# keys (default 10000), half present, each mode run 3 times; the best
# lookups/s of each and its ratio to --pread. Run it by hand in the guest
# (release kernel), from the build tree (bench/btree/, next to uring_btree).
set -eu
n=${1:-10000}
here=$(dirname "$0")
bt=$here/../../apps/btree-lookup/btree-lookup
ubt=$here/uring_btree
dir=$(mktemp -d "${TMPDIR:-/tmp}/btree-bench.XXXXXX")
trap 'umount "$dir" 2>/dev/null; rm -rf "$dir"' EXIT
# the trees on a tmpfs of their own (as root): a file system whose cached
# reads io_uring can complete inline (IOCB_NOWAIT); on one without, every
# read goes to an io-wq worker and the io_uring modes measure that
if [ "$(id -u)" = 0 ] && [ -z "${BTREE_BENCH_NO_TMPFS:-}" ]; then
	mount -t tmpfs -o size=512m btree-bench "$dir"
fi
echo "btree-bench: trees on $(stat -f -c %T "$dir")"
seed=${IOCORO_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
echo "btree-bench: seed $seed (replay: IOCORO_SEED=$seed)"

# best lookups/s of 3 runs of: PROGRAM... FILE; prints "rate reads enters"
best() {
	b=0; line=
	for i in 1 2 3; do
		l=$("$@" --stats --random "$n" --seed "$seed" 2>&1 >/dev/null |
			grep ' lookups/s$')
		r=$(echo "$l" | sed 's/.* \([0-9]*\) lookups\/s$/\1/')
		if [ "$r" -gt "$b" ]; then b=$r; line=$l; fi
	done
	reads=$(echo "$line" | sed 's/.* \([0-9]*\) reads,.*/\1/')
	enters=$(echo "$line" | sed 's/.* \([0-9]*\) io_uring_enter calls.*/\1/')
	echo "$b $reads $enters"
}

for spec in "3 500" "6 40000"; do
	set -- $spec
	depth=$1 keys=$2
	f=$dir/tree$depth
	"$bt" build --seed "$seed" --fanout 8 "$f" "$keys" | sed 's/^/btree-bench: /'
	cat "$f" >/dev/null	# cached, as for every mode
	set -- $(best "$ubt" --pread "$f"); p=$1; pe=$3
	set -- $(best "$ubt" --uring "$f"); u=$1; ue=$3
	set -- $(best "$bt" lookup "$f"); c=$1; ce=$3
	awk -v d="$depth" -v n="$n" -v p="$p" -v u="$u" -v c="$c" \
	    -v pe="$pe" -v ue="$ue" -v ce="$ce" 'BEGIN {
		printf "btree-bench: depth %d, %d lookups: pread %d/s (%.3f enters/lookup), uring %d/s (%.3f), bpf %d/s (%.3f)\n",
			d, n, p, pe / n, u, ue / n, c, ce / n
		printf "btree-bench: depth %d: bpf/pread %.2fx, uring/pread %.2fx, bpf/uring %.2fx\n",
			d, c / p, u / p, c / u
	}'
done
