#!/bin/bash
# copychain's demo, run in the guest by scripts/run-main.sh: copy MIB MiB
# (default 8) of random bytes with copychain, check the copy with cmp and
# print what it took (dd's and cp's times on the same file for scale).
#
# Usage: copychain-demo.sh [MIB]     (installed next to copychain)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mib=${1:-8}
dir=$(mktemp -d "${TMPDIR:-/tmp}/copychain-demo.XXXXXX")
trap 'rm -rf "$dir"' EXIT

head -c "${mib}M" /dev/urandom > "$dir/src"
chmod 640 "$dir/src"
echo "demo: copychain $dir/src $dir/dst (${mib} MiB of random bytes)"
TIMEFORMAT="demo: copychain took %3R s (process, with loading the program)"
time "$here/copychain" --stats "$dir/src" "$dir/dst"
# for scale: read/write syscalls with the same chunk, and cp
TIMEFORMAT="demo: dd bs=128K took %3R s"
time dd if="$dir/src" of="$dir/dd-dst" bs=128K status=none
TIMEFORMAT="demo: cp took %3R s"
time cp "$dir/src" "$dir/cp-dst"

if ! cmp "$dir/src" "$dir/dst"; then
	echo "demo: the copy differs from the source, FAILED"
	exit 1
fi
modes="$(stat -c %a "$dir/src") $(stat -c %a "$dir/dst")"
if [ "$modes" != "640 640" ]; then
	echo "demo: modes (src dst) are $modes, FAILED"
	exit 1
fi
left=$(cd "$dir" && echo *)
if [ "$left" != "cp-dst dd-dst dst src" ]; then
	echo "demo: $dir holds '$left' (a temporary file left?), FAILED"
	exit 1
fi
echo "demo: cmp: the copy equals the source ($(stat -c %s "$dir/dst") bytes, mode $(stat -c %a "$dir/dst")), ok"
