#!/bin/bash
# copychain's demo, run in the guest by scripts/run-main.sh: copy a file
# of MIB MiB (default 8) of random bytes, then with -r a tree of FILES
# (default 500) small files of random sizes in nested directories, with
# copychain --stats; check every copy against its source (cmp, diff -r,
# names, types, modes) and say what that proves: how many coroutine steps
# ran from how many io_uring_enter calls of user space. Then a table of
# times in s, copychain's next to cp's on the same data: the process's
# (wall time of the whole run), the work's (copychain's from --stats; cp's
# is its process time) and loading the BPF programs (from --stats). The
# tree comes from a seed, printed (IOCORO_SEED replays it; the big file's
# bytes are /dev/urandom's).
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
	cat "$dir/file.out" "$dir/tree.out" | sed -n "s/.* \([0-9]*\) $1.*/\1/p" |
		awk '{ s += $1 } END { print s + 0 }'
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

# run NAME CMD...: CMD with its output shown and kept in $dir/NAME.out,
# its wall time in s in secs[NAME]
declare -A secs
run() {
	local name=$1 t0
	shift
	t0=$EPOCHREALTIME
	"$@" | tee "$dir/$name.out"
	secs[$name]=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
}

# stats NAME: the work ("bytes in S s") and loading ("loading took S s")
# seconds of the copychain --stats run NAME, in secs[NAME-work] and
# secs[NAME-load]
stats() {
	local work load
	work=$(sed -n 's/^copychain: .* bytes in \([0-9.]*\) s .*/\1/p' "$dir/$1.out")
	load=$(sed -n 's/^copychain: loading took \([0-9.]*\) s.*/\1/p' "$dir/$1.out")
	[[ $work =~ ^[0-9]+\.[0-9]+$ && $load =~ ^[0-9]+\.[0-9]+$ ]] ||
		fail "copychain --stats printed no work or loading time in $1's output"
	secs[$1-work]=$work
	secs[$1-load]=$load
}

echo "demo: copychain --stats src dst (${mib} MiB of random bytes)"
run file "$here/copychain" --stats "$dir/src" "$dir/dst"
echo "demo: copychain -r --stats tree tree-copy ($files files, $tree_bytes bytes, in 30 directories)"
run tree "$here/copychain" -r --stats "$dir/tree" "$dir/tree-copy"
# for scale: cp on the same data
run cp-file cp "$dir/src" "$dir/cp-dst"
run cp-tree cp -r "$dir/tree" "$dir/cp-tree"
stats file
stats tree

cmp "$dir/src" "$dir/dst" || fail "the copy differs from the source"
[[ $(stat -c %a "$dir/dst") == 640 ]] || fail "the copy's mode is $(stat -c %a "$dir/dst")"
diff -r --no-dereference "$dir/tree" "$dir/tree-copy" || fail "the tree's copy differs"
(cd "$dir/tree" && find . -printf '%p %y %m %l %s\n' | sort) > "$dir/list"
(cd "$dir/tree-copy" && find . -printf '%p %y %m %l %s\n' | sort) > "$dir/list-copy"
diff "$dir/list" "$dir/list-copy" || fail "names, types or modes differ"
left=$(cd "$dir" && echo *)
want="cp-dst cp-file.out cp-tree cp-tree.out dst file.out list list-copy src tree tree-copy tree.out"
[[ $left == "$want" ]] || fail "$dir holds '$left' (a temporary file left?)"

echo "demo: $(count steps) coroutine steps ran from $(count io_uring_enter) io_uring_enter calls of user space: every open, read, write and close was queued in the kernel"
printf 'demo: seconds   %9s %6s %14s %7s\n' copychain cp "copychain -r" "cp -r"
printf '  process       %9s %6s %14s %7s\n' "${secs[file]}" "${secs[cp-file]}" "${secs[tree]}" "${secs[cp-tree]}"
printf '  work          %9s %6s %14s %7s\n' "${secs[file-work]}" "${secs[cp-file]}" "${secs[tree-work]}" "${secs[cp-tree]}"
printf '  loading       %9s %6s %14s %7s\n' "${secs[file-load]}" - "${secs[tree-load]}" -
echo "demo: loading the BPF programs is a fixed cost of each copychain run; work is what a longer copy pays (cp's is its whole run); times under QEMU TCG are not hardware times"
echo "demo: verified with cmp, diff -r and modes: 1 file of $(stat -c %s "$dir/dst") bytes and a tree of $files files ($tree_bytes bytes), ok"
