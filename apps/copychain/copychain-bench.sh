#!/bin/bash
# By hand, in the guest on the release kernel: copychain against cp on
# 256 MiB of random bytes (--chunk x --depth) and on 2,000 small files
# (-r --jobs), best of 3 each, as README.md reports. Not a test.
#
# Usage: copychain-bench.sh     (installed next to copychain)
cc=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/copychain
d=$(mktemp -d "${TMPDIR:-/tmp}/copychain-bench.XXXXXX"); cd "$d"
trap 'rm -rf "$d"' EXIT
head -c 256M /dev/urandom > big
mkdir -p tree/d{0..19}
awk -v t=tree 'BEGIN { srand(1); for (i = 0; i < 32768; i++) pool = pool sprintf("%c", 32 + int(rand() * 95));
  for (i = 0; i < 2000; i++) { f = sprintf("%s/d%d/f%d", t, i % 20, i); printf "%s", substr(pool, 1 + int(rand() * 16384), int(rand() * 8192)) > f; close(f) } }'
t() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); awk "BEGIN{print $e - $s}"; }
best() { local b=999 x i; for i in 1 2 3; do rm -rf out; x=$(t "$@"); b=$(awk "BEGIN{print ($x < $b) ? $x : $b}"); done; rm -rf out; echo $b; }
cpb=$(best cp big out); echo "cp 256MiB: $cpb s"
for cd in '1M 1' '1M 2' '1M 4' '4M 4'; do set -- $cd; c=$1; dep=$2; {
  x=$(best $cc --chunk $c --depth $dep big out); echo "copychain --chunk $c --depth $dep: $x s, $(awk "BEGIN{printf \"%.2f\", $x / $cpb}") x cp"
}; done
cpb=$(best cp big out); echo "cp 256MiB again: $cpb s"
cpt=$(best cp -r tree out); echo "cp -r 2000 files: $cpt s"
for j in 8 16 32 64; do
  x=$(best $cc -r --jobs $j tree out); echo "copychain -r --jobs $j: $x s, $(awk "BEGIN{printf \"%.2f\", $x / $cpt}") x cp"
done
$cc -r --stats --jobs 32 tree out
$cc --stats --depth 1 big out3
$cc --stats big out2
