#!/bin/bash
# copychain's demo, run in the guest by scripts/run-main.sh: copy a file
# of MIB MiB (default 8) of random bytes, then with -r a tree of FILES
# (default 500) small files of random sizes in nested directories, with
# copychain --stats; check every copy against its source (cmp, diff -r,
# names, types, modes) and say what that proves: how many coroutine steps
# ran from how many io_uring_enter calls of user space. cp's times on the
# same data are printed for scale. The tree comes from a seed, printed
# (IOCORO_SEED replays it; the big file's bytes are /dev/urandom's).
#
# Usage: copychain-demo.sh [MIB [FILES]]     (installed next to copychain)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mib=${1:-8}
files=${2:-500}
seed=${IOCORO_SEED:-$(( $(od -An -N2 -tu2 /dev/urandom) ))}
seed=$(( seed % 32768 ))
dir=$(mktemp -d "${TMPDIR:-/tmp}/copychain-demo.XXXXXX")
trap 'rm -rf "$dir"' EXIT

fail() {
	echo "demo: $*, FAILED"
	exit 1
}

# the sum of the "N steps" and "M io_uring_enter calls" of --stats lines
count() {
	sed -n "s/.* \([0-9]*\) $1.*/\1/p" "$dir/stats" | awk '{ s += $1 } END { print s + 0 }'
}

# a tree of $files files in directories d0/e0 ... of sizes below 16 KiB,
# some of mode 600: one awk, no process a file (processes are slow on TCG)
make_tree() {
	mkdir -p "$dir"/tree/d{0..9}/e{0..2}
	awk -v n="$files" -v seed="$seed" -v t="$dir/tree" 'BEGIN {
		srand(seed)
		for (i = 0; i < 32768; i++)
			pool = pool sprintf("%c", 32 + int(rand() * 95))
		for (i = 0; i < n; i++) {
			f = sprintf("%s/d%d/e%d/f%d", t, i % 10, i % 3, i)
			printf "%s", substr(pool, 1 + int(rand() * 16384), int(rand() * 16384)) > f
			close(f)
			if (rand() < 0.5)
				print f > (t "/../private")
		}
	}'
	[[ ! -f $dir/private ]] || xargs chmod 600 < "$dir/private"
	rm -f "$dir/private"
	ln -s d0/e0/f0 "$dir/tree/link"
}

echo "demo: seed $seed (IOCORO_SEED=$seed replays the tree)"
head -c "${mib}M" /dev/urandom > "$dir/src"
chmod 640 "$dir/src"
make_tree
tree_bytes=$(find "$dir/tree" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')

echo "demo: copychain --stats src dst (${mib} MiB of random bytes)"
TIMEFORMAT="demo: copychain took %3R s (process, with loading the programs)"
time "$here/copychain" --stats "$dir/src" "$dir/dst" | tee "$dir/stats"
echo "demo: copychain -r --stats tree tree-copy ($files files, $tree_bytes bytes, in 30 directories)"
TIMEFORMAT="demo: copychain -r took %3R s"
time "$here/copychain" -r --stats "$dir/tree" "$dir/tree-copy" | tee -a "$dir/stats"
# for scale: cp on the same data
TIMEFORMAT="demo: cp took %3R s"
time cp "$dir/src" "$dir/cp-dst"
TIMEFORMAT="demo: cp -r took %3R s"
time cp -r "$dir/tree" "$dir/cp-tree"

cmp "$dir/src" "$dir/dst" || fail "the copy differs from the source"
[[ $(stat -c %a "$dir/dst") == 640 ]] || fail "the copy's mode is $(stat -c %a "$dir/dst")"
diff -r --no-dereference "$dir/tree" "$dir/tree-copy" || fail "the tree's copy differs"
(cd "$dir/tree" && find . -printf '%p %y %m %l %s\n' | sort) > "$dir/list"
(cd "$dir/tree-copy" && find . -printf '%p %y %m %l %s\n' | sort) > "$dir/list-copy"
diff "$dir/list" "$dir/list-copy" || fail "names, types or modes differ"
left=$(cd "$dir" && echo *)
[[ $left == "cp-dst cp-tree dst list list-copy src stats tree tree-copy" ]] ||
	fail "$dir holds '$left' (a temporary file left?)"

echo "demo: $(count steps) coroutine steps ran from $(count io_uring_enter) io_uring_enter calls of user space: every open, read, write and close was queued in the kernel"
echo "demo: times under QEMU TCG are not hardware times"
echo "demo: verified with cmp, diff -r and modes: 1 file of $(stat -c %s "$dir/dst") bytes and a tree of $files files ($tree_bytes bytes), ok"
