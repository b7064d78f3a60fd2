#!/bin/sh
# catchain-bench.sh [REPS]: catchain next to cat in the same guest, on
# 1,000 files of 4 KiB and on one file of 64 MiB (page cache warm), output
# to /dev/null and to a pipe. Prints the median wall time of REPS runs of
# each (alternating), the ratio catchain / cat, and catchain's --stats
# (steps, io_uring_enter calls: per file), and what catchain's startup
# costs (one empty file). Copied next to the binary; run
# it in the guest on the release kernel, e.g.
#   initramfs/run-guest.sh --kernel .../bzImage-release --initrd IMG \
#     -- build/apps/catchain/catchain-bench.sh 7
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/catchain
reps=${1:-7}
dir=$(mktemp -d "${TMPDIR:-/tmp}/catchain-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

now() { date +%s%N; }

# the median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# time_cmd SHELL-COMMAND: its wall time in microseconds
time_cmd() {
	t0=$(now)
	sh -c "$1"
	t1=$(now)
	echo $(((t1 - t0) / 1000))
}

# bench NAME FILES...: cat and catchain, REPS times each, alternating
bench() {
	name=$1
	shift
	files="$*"
	# warm the page cache, check the bytes, and take catchain's --stats
	cat $files > "$dir/ref"
	"$bin" --stats $files 2> "$dir/stats" > "$dir/out"
	cmp "$dir/ref" "$dir/out"
	rm -f "$dir/ref" "$dir/out" "$dir/cat.t" "$dir/chain.t" "$dir/catp.t" "$dir/chainp.t"
	i=0
	while [ $i -lt "$reps" ]; do
		time_cmd "cat $files > /dev/null" >> "$dir/cat.t"
		time_cmd "$bin $files > /dev/null" >> "$dir/chain.t"
		time_cmd "cat $files | cat > /dev/null" >> "$dir/catp.t"
		time_cmd "$bin $files | cat > /dev/null" >> "$dir/chainp.t"
		i=$((i + 1))
	done
	c=$(median < "$dir/cat.t")
	k=$(median < "$dir/chain.t")
	cp_=$(median < "$dir/catp.t")
	kp=$(median < "$dir/chainp.t")
	echo "bench: $name: to /dev/null: cat $c us, catchain $k us, ratio $(awk "BEGIN { printf \"%.2f\", $k / $c }")"
	echo "bench: $name: to a pipe:    cat $cp_ us, catchain $kp us, ratio $(awk "BEGIN { printf \"%.2f\", $kp / $cp_ }")"
	echo "bench: $name: $(cat "$dir/stats")"
}

# what a run costs before any file: loading and verifying the program,
# the ring, the maps (cat on an empty file next to it)
: > "$dir/empty"
rm -f "$dir/cat.t" "$dir/chain.t"
i=0
while [ $i -lt "$reps" ]; do
	time_cmd "cat $dir/empty > /dev/null" >> "$dir/cat.t"
	time_cmd "$bin $dir/empty > /dev/null" >> "$dir/chain.t"
	i=$((i + 1))
done
echo "bench: startup (one empty file): cat $(median < "$dir/cat.t") us, catchain $(median < "$dir/chain.t") us"

mkdir "$dir/small"
i=0
while [ $i -lt 1000 ]; do
	head -c 4096 /dev/urandom > "$dir/small/f$(printf %04d $i)"
	i=$((i + 1))
done
bench "1000 x 4 KiB" "$dir"/small/f*
for j in 8 64 256; do
	t0=$(now)
	"$bin" --stats -j $j "$dir"/small/f* > /dev/null 2> "$dir/stats"
	t1=$(now)
	echo "bench: 1000 x 4 KiB, --jobs $j: $(((t1 - t0) / 1000)) us, $(cat "$dir/stats")"
done
head -c $((64 << 20)) /dev/urandom > "$dir/big"
bench "64 MiB" "$dir/big"
for c in 1M 4M; do
	t0=$(now)
	"$bin" --stats --chunk $c "$dir/big" > /dev/null 2> "$dir/stats"
	t1=$(now)
	echo "bench: 64 MiB, --chunk $c: $(((t1 - t0) / 1000)) us, $(cat "$dir/stats")"
done
