#!/usr/bin/env bash
# Run the shell blocks of the docs that say they run, as printed.
#
# Usage: tests/docs/run-blocks.sh --kernel BZIMAGE --build BUILD_DIR FILE...
#
# A block runs when the line before its ```sh fence is
#   <!-- run: NAME expect: TEXT -->
# It is run by bash (errexit, pipefail) from the repository root and
# passes when it exits 0 and its output has a line containing TEXT. Two
# substitutions make a printed block run here: any
# /var/cache/iocoro/kernel/obj-<flavour>/arch/x86/boot/bzImage becomes
# BZIMAGE (the docs name the kernel a reader has; the tests have the debug
# one), and the build dir (" build ", "$PWD/build/") becomes BUILD_DIR
# when that is another one. Each block's output goes to BUILD_DIR-run/docs/NAME.log.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
prog=run-blocks
die() { echo "$prog: $*" >&2; exit 2; }

kernel=''
build=''
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ -f "$kernel" ] || die "--kernel BZIMAGE: '$kernel' not found"
[ -d "$build" ] || die "--build BUILD_DIR: '$build' not found"
[ $# -gt 0 ] || die "no doc files given"
build=$(cd "$build" && pwd)
logs=$build-run/docs
mkdir -p "$logs"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/iocoro-blocks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# each block to $tmp/NAME.sh, and "NAME<TAB>EXPECT<TAB>FILE:LINE" to $tmp/index

passed=0 failed=0
for doc in "$@"; do
	awk -v dir="$tmp" -v doc="$doc" '
		match($0, /^<!-- run: [A-Za-z0-9_-]+ expect: .* -->$/) {
			name = $3; expect = $0
			sub(/^<!-- run: [^ ]+ expect: /, "", expect); sub(/ -->$/, "", expect)
			want = NR + 1; next
		}
		want && NR == want {
			if ($0 !~ /^```sh$/) { printf "%s:%d: no ```sh block after the run line\n", doc, NR > "/dev/stderr"; exit 1 }
			inblk = 1; file = dir "/" name ".sh"; printf "" > file
			print name "\t" expect "\t" doc ":" NR >> (dir "/index"); want = 0; next
		}
		inblk && /^```$/ { inblk = 0; close(file); next }
		inblk { print >> file }
	' "$root/$doc" || die "$doc: malformed run block"
done
[ -s "$tmp/index" ] || die "no run blocks in $*"

while IFS=$'\t' read -r name expect where; do
	sed -i -E "s|/var/cache/iocoro/kernel/obj-[a-z]+/arch/x86/boot/bzImage|$kernel|g" "$tmp/$name.sh"
	if [ "$build" != "$root/build" ]; then
		sed -i -e "s# build # $build #g" -e "s#\\\$PWD/build/#$build/#g" "$tmp/$name.sh"
	fi
	echo "$prog: $name ($where)"
	rc=0
	(cd "$root" && bash -euo pipefail "$tmp/$name.sh") > "$logs/$name.log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ] && grep -qF -- "$expect" "$logs/$name.log"; then
		echo "$prog: $name: ok"
		passed=$((passed + 1))
	else
		echo "$prog: $name: FAIL (exit $rc$([ "$rc" -eq 0 ] && echo ", no line with '$expect'")); last lines of $logs/$name.log:"
		tail -n 15 "$logs/$name.log" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
done < "$tmp/index"
echo "$prog: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
