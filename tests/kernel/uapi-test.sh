#!/usr/bin/env bash
# Host check of scripts/update-uapi.sh (ctest check_uapi_update), on a
# scratch copy of the script and of include/uapi/ against a made-up export
# and series: --check must fail on a header that differs or that the export
# lacks, and name it; a refresh must make it pass again; both must fail on
# a patch that changes a uapi header include/uapi/ does not hold.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uapi-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree
export=$tmp/export
mkdir -p "$tree/scripts" "$tree/include" "$tree/kernel/patches" \
	"$export/include"
cp "$top/scripts/update-uapi.sh" "$tree/scripts/"
# a series that changes io_uring.h, the header include/uapi/ holds
printf '%s\n' '--- a/include/uapi/linux/io_uring.h' \
	'+++ b/include/uapi/linux/io_uring.h' '@@ -1 +1 @@' \
	>"$tree/kernel/patches/0001-io_uring.patch"
cp -r "$top/include/uapi" "$tree/include/"
cp -r "$top/include/uapi/." "$export/include/"
fails=0

# expect WANT_STATUS NAME GREP ARGS...
expect() {
	local want=$1 name=$2 grep=$3 got
	shift 3
	"$tree/scripts/update-uapi.sh" --from "$export" "$@" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL $name: exit $got, want $want"
		sed 's/^/  /' "$tmp/out"
		fails=$((fails + 1))
	elif ! grep -q -- "$grep" "$tmp/out"; then
		echo "FAIL $name: output lacks '$grep'"
		sed 's/^/  /' "$tmp/out"
		fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}

n=$(find "$top/include/uapi" -type f -name '*.h' | wc -l)
expect 0 equal "$n headers in include/uapi/ equal" --check

# one byte of the committed io_uring.h changed
sed -i '0,/IORING_OP_BPF/s//IORING_OP_BPX/' "$tree/include/uapi/linux/io_uring.h"
expect 1 differs 'include/uapi/linux/io_uring.h differs' --check
expect 1 differs-says-refresh 'refresh with scripts/update-uapi.sh' --check
expect 0 refresh 'io_uring.h updated from'
expect 0 refreshed "$n headers in include/uapi/ equal" --check

# the export lacks a committed header
mv "$export/include/linux/io_uring.h" "$tmp/"
expect 1 missing 'include/uapi/linux/io_uring.h: the export has no' --check
mv "$tmp/io_uring.h" "$export/include/linux/"

# a patch changes a uapi header that is not committed (bpf.h: the system's)
printf '%s\n' '--- a/include/uapi/linux/bpf.h' '+++ b/include/uapi/linux/bpf.h' \
	>"$tree/kernel/patches/0002-bpf.patch"
cp "$export/include/linux/io_uring.h" "$export/include/linux/bpf.h"
expect 1 uncommitted-check '0002-bpf.patch: include/uapi/linux/bpf.h' --check
expect 1 uncommitted-refresh 'series changes uapi headers include/uapi/ does not hold'
expect 0 uncommitted-added 'include/uapi/linux/bpf.h updated from' linux/bpf.h
rm "$tree/include/uapi/linux/bpf.h" "$tree/kernel/patches/0002-bpf.patch"
expect 0 uncommitted-gone "$n headers in include/uapi/ equal" --check

# a header added by name, then checked with the rest
echo '#define EXTRA 1' >"$export/include/linux/extra.h"
expect 0 add 'include/uapi/linux/extra.h updated from' linux/extra.h
echo '#define EXTRA 2' >"$export/include/linux/extra.h"
expect 1 added-differs 'include/uapi/linux/extra.h differs' --check

echo "$fails failed"
[ "$fails" -eq 0 ]
