#!/usr/bin/env bash
# Every patch of kernel/patches is clean under the tree's own
# scripts/checkpatch.pl --strict: no error, warning or check.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# Make sure the cached source tree exists (a few seconds when it does).
"$top/kernel/build.sh" headers >/dev/null
src=${IOCORO_CACHE:-/var/cache/iocoro}/kernel/src
[ -x "$src/scripts/checkpatch.pl" ] || { echo "no checkpatch.pl in $src" >&2; exit 1; }

passed=0
failed=0
for p in "$top"/kernel/patches/*.patch; do
	# spdxcheck.py wants Debian's python3 (python3-ply, python3-git).
	if out=$(cd "$src" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl \
			--strict -q "$p" 2>&1) && [ -z "$out" ]; then
		echo "ok     $(basename "$p")"
		passed=$((passed + 1))
	else
		echo "FAILED $(basename "$p")"
		printf '%s\n' "$out" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
