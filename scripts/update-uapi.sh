#!/usr/bin/env bash
# The patched kernel's uapi headers committed in include/uapi/ (what CMake
# builds against unless -DIOCORO_KERNEL_HEADERS says otherwise): copy them
# from the series' export, or with --check compare them with it byte for
# byte (ctest series_uapi). Only the headers the series changes are
# committed (linux/io_uring.h); user space takes every other one, such as
# <linux/bpf.h>, from the system. So first, in either mode: every
# include/uapi/ header a patch of kernel/patches/ changes must be one
# include/uapi/ holds (or a HEADER named), else it fails and names them.
#
# Usage: scripts/update-uapi.sh [--check] [--from DIR] [HEADER...]
#
#   --check     copy nothing: name every committed header that differs from
#               the export or that the export lacks; exit 1 if any does
#   --from DIR  the export: a 'make headers_install INSTALL_HDR_PATH=DIR'
#               output (default: the one 'kernel/build.sh headers' prints,
#               the series of kernel/patches/)
#   HEADER      a header to add, as a path under include/ (linux/btf.h);
#               without, the headers include/uapi/ already holds
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
uapi=include/uapi

die() {
	echo "update-uapi: $*" >&2
	exit 1
}

check=0
from=
while [ $# -gt 0 ]; do
	case "$1" in
	--check) check=1; shift ;;
	--from) from=$2; shift 2 ;;
	-*) die "unknown option '$1' (see the usage at the top of $0)" ;;
	*) break ;;
	esac
done
[ "$check" = 0 ] || [ $# -eq 0 ] || die "--check takes no HEADER"

cd "$root"
mapfile -t committed < <(cd "$uapi" && find . -type f -name '*.h' | sed 's|^\./||' | LC_ALL=C sort)
headers=("$@")
[ ${#headers[@]} -gt 0 ] || headers=("${committed[@]}")
[ ${#headers[@]} -gt 0 ] || die "no headers in $uapi/ and none named"

# the uapi headers the series changes, as "<patch>: <header>"
series_uapi() {
	local p
	for p in kernel/patches/*.patch; do
		[ -f "$p" ] || continue
		sed -nE 's#^(\+\+\+ b|--- a)/include/uapi/(.*)#\2#p' "$p" |
			sed "s#^#${p##*/}: #"
	done | LC_ALL=C sort -u
}

# whether include/uapi/ holds header $1 or it is one being added; no
# pipe into grep -q, which under pipefail fails when grep exits before
# printf has written (SIGPIPE)
held() {
	local x
	for x in "${committed[@]}" "${headers[@]}"; do
		[ "$x" != "$1" ] || return 0
	done
	return 1
}

# the series changes no uapi header that is not committed
uncommitted=$(series_uapi | while read -r patch h; do
	held "$h" || echo "  $patch include/uapi/$h"
done)
if [ -n "$uncommitted" ]; then
	echo "update-uapi: the series changes uapi headers $uapi/ does not hold:" >&2
	echo "$uncommitted" >&2
	die "user space would build against the system's copies, without" \
		"the series' changes; commit them (scripts/update-uapi.sh" \
		"linux/<name>.h, then git add $uapi/) or keep the series off them"
fi

if [ -z "$from" ]; then
	from=$("$root/kernel/build.sh" headers | tail -n 1)
fi
[ -d "$from/include/linux" ] || die "'$from' is no headers_install output (no include/linux/)"
from=$(cd "$from" && pwd)

bad=0
for h in "${headers[@]}"; do
	src=$from/include/$h
	if [ ! -f "$src" ]; then
		echo "update-uapi: $uapi/$h: the export has no $src" >&2
		bad=1
	elif [ "$check" = 1 ]; then
		if ! cmp -s "$src" "$uapi/$h"; then
			echo "update-uapi: $uapi/$h differs from the series' export $src:" >&2
			diff -u "$uapi/$h" "$src" | head -n 20 >&2 || true
			bad=1
		fi
	elif ! cmp -s "$src" "$uapi/$h" 2>/dev/null; then
		mkdir -p "$(dirname "$uapi/$h")"
		cp "$src" "$uapi/$h"
		echo "update-uapi: $uapi/$h updated from $src"
	fi
done
if [ "$bad" = 1 ] && [ "$check" = 1 ]; then
	echo "update-uapi: refresh with scripts/update-uapi.sh (copies them from" \
		"'kernel/build.sh headers'), then commit $uapi/" >&2
fi
[ "$bad" = 0 ] || exit 1
echo "update-uapi: ${#headers[@]} headers in $uapi/ equal the series' export $from"
