#!/usr/bin/env bash
# Host check of stage_key (scripts/lib/stages.sh; ctest check_stage_key),
# the key of every cached stage result: it changes with each input it
# names and only with those, keeps the formula the stamps already in
# caches were made with, and fails on an input it cannot read.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/lib/stages.sh
. "$top/scripts/lib/stages.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stage-key-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0

# check NAME CONDITION...
check() {
	local name=$1
	shift
	if "$@"; then
		echo "ok   $name"
	else
		echo "FAIL $name"
		fails=$((fails + 1))
	fi
}

echo one >"$tmp/a"
echo two >"$tmp/b"
mkdir -p "$tmp/d/sub" "$tmp/d/skip"
echo x >"$tmp/d/sub/f"
echo y >"$tmp/d/skip/g"
key() { stage_key -s v1 "$tmp/a" "$tmp/b" -x './skip/*' "$tmp/d"; }

k0=$(key)
check 16-hex-digits grep -qxE '[0-9a-f]{16}' <<<"$k0"
check same-inputs-same-key [ "$(key)" = "$k0" ]
check formula [ "$(stage_key -s v1 "$tmp/a" "$tmp/b")" = \
	"$({ echo v1; cat "$tmp/a" "$tmp/b"; } | sha256sum | cut -c1-16)" ]
check order-counts [ "$(stage_key "$tmp/a" "$tmp/b")" != "$(stage_key "$tmp/b" "$tmp/a")" ]
check string-counts [ "$(stage_key -s v2 "$tmp/a" "$tmp/b" -x './skip/*' "$tmp/d")" != "$k0" ]

echo changed >"$tmp/b"
check file-counts [ "$(key)" != "$k0" ]
echo two >"$tmp/b"

echo changed >"$tmp/d/sub/f"
check dir-file-counts [ "$(key)" != "$k0" ]
echo x >"$tmp/d/sub/f"

mv "$tmp/d/sub/f" "$tmp/d/sub/h"
check dir-name-counts [ "$(key)" != "$k0" ]
mv "$tmp/d/sub/h" "$tmp/d/sub/f"

echo changed >"$tmp/d/skip/g"
check excluded-ignored [ "$(key)" = "$k0" ]

fails() { ! "$@" >/dev/null 2>&1; }
check missing-fails fails stage_key "$tmp/missing" "$tmp/a"
check missing-dir-fails fails stage_key "$tmp/a" "$tmp/nodir/"

echo "$fails failed"
[ "$fails" -eq 0 ]
