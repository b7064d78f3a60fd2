#!/usr/bin/env bash
# Build the iocoro kernel: Debian's linux-source-6.12 + kernel/patches/*.patch,
# tinyconfig + kernel/config/base.config + kernel/config/<flavour>.config.
#
# Usage: kernel/build.sh <release|debug|stock|headers>
#
#   stock:   the debug flavour's config on the tarball without the series:
#            the kernel the regression stage compares ours with
#            (tests/liburing/regress.sh, scripts/test.sh). Its tree is src-stock/, a
#            git worktree of src/ at "base".
#   headers: only apply the series and export the uapi headers
#            (make headers_install, a few seconds): what user space and
#            .bpf.c files compile against.
#
# Everything lives under $IOCORO_CACHE/kernel ($IOCORO_CACHE defaults to
# /var/cache/iocoro), never in the repository:
#   src/             the unpacked tree, a git repository: "base" is the tarball,
#                    the series is applied on top with git am
#   obj-<flavour>/   O= build directory; bzImage, usr-headers/, .config
#   headers-<key>/   exported uapi headers of one series (headers mode)
# A flavour is rebuilt only when the tarball version, the series, the config
# fragments or this script change (the key is stored in obj-<flavour>/.iocoro-key).
# Rebuilds are incremental: git rewrites only the files whose content changed.
# On success the last line printed is the build directory.
set -euo pipefail

die() { echo "kernel/build.sh: $*" >&2; exit 1; }

flavour=${1:-}
case "$flavour" in
release|debug|stock|headers) ;;
*) die "usage: kernel/build.sh <release|debug|stock|headers>" ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
cache=${IOCORO_CACHE:-/var/cache/iocoro}/kernel
tarball=/usr/src/linux-source-6.12.tar.xz
src=$cache/src
obj=$cache/obj-$flavour
jobs=${IOCORO_JOBS:-$(nproc)}

[ -r "$tarball" ] || die "$tarball missing: run scripts/install-deps.sh (package linux-source-6.12)"
version=$(dpkg-query -W -f='${Version}' linux-source-6.12)

shopt -s nullglob
patches=("$here"/patches/*.patch)
frags=("$here/config/base.config")
case "$flavour" in
headers) ;;
stock) frags+=("$here/config/debug.config") ;;
*) frags+=("$here/config/$flavour.config" "$here/config/btf.config") ;;
esac
shopt -u nullglob

series_key=$({ echo "$version"; cat "${patches[@]}" /dev/null; } | sha256sum | cut -c1-16)
stock_src=$cache/src-stock
[ "$flavour" != stock ] || series_key=$(echo "$version stock" | sha256sum | cut -c1-16)
build_key=$({ echo "$series_key"; cat "${frags[@]}" "$0"; } | sha256sum | cut -c1-16)

mkdir -p "$cache"
# The source tree: exclusive while it may change, shared while it is read.
exec 9>"$cache/.lock"
flock -s 9

git_src() { git -C "$src" -c user.name=iocoro -c user.email=iocoro@localhost "$@"; }

unpack() {
	echo "kernel: unpacking $tarball ($version)"
	rm -rf "$src" "$stock_src" "$cache/linux-source-6.12"
	tar -C "$cache" -xf "$tarball"
	mv "$cache/linux-source-6.12" "$src"
	git_src init -q
	# Debian's top-level .gitignore ignores everything: add with -f.
	git_src add -f -A .
	git_src commit -q -m "linux-source-6.12 $version"
	git_src tag base
	echo "$version" >"$src/.iocoro-tarball"
}

apply_series() {
	local p
	git_src am --abort >/dev/null 2>&1 || true
	git_src reset -q --hard base
	git_src clean -q -f -d
	for p in "${patches[@]}"; do
		if ! git_src am -q "$p" >/dev/null 2>"$cache/am.log"; then
			cat "$cache/am.log" >&2
			git_src am --abort >/dev/null 2>&1 || true
			die "patch $(basename "$p") does not apply"
		fi
		echo "kernel: applied $(basename "$p")"
	done
	echo "$series_key" >"$src/.iocoro-series"
}

# The stock tree: the tarball as unpacked, checked out once; nothing
# ever changes it, so it is only made when missing.
stock_tree() {
	rm -rf "$stock_src"
	git_src worktree prune
	git_src worktree add -q --detach "$stock_src" base
	echo "$version" >"$stock_src/.iocoro-tarball"
}

tarball_current() {
	[ "$(cat "$src/.iocoro-tarball" 2>/dev/null)" = "$version" ] && [ -d "$src/.git" ]
}

tree_current() {
	tarball_current || return 1
	if [ "$flavour" = stock ]; then
		[ "$(cat "$stock_src/.iocoro-tarball" 2>/dev/null)" = "$version" ]
	else
		[ "$(cat "$src/.iocoro-series" 2>/dev/null)" = "$series_key" ]
	fi
}

# Readers of an up-to-date tree only share the lock; changing the tree
# waits for the builds reading it, then looks again.
if ! tree_current; then
	flock 9
	tarball_current || unpack
	if [ "$flavour" = stock ]; then
		[ "$(cat "$stock_src/.iocoro-tarball" 2>/dev/null)" = "$version" ] || stock_tree
	elif [ "$(cat "$src/.iocoro-series" 2>/dev/null)" != "$series_key" ]; then
		apply_series
	fi
	flock -s 9
fi
[ "$flavour" != stock ] || src=$stock_src

mk() { make -s -C "$src" O="$1" ARCH=x86_64 "${@:2}"; }

if [ "$flavour" = headers ]; then
	hdr=$cache/headers-$series_key
	# one export at a time: a second caller (ctest runs series_uapi and
	# series_checkpatch side by side) waits, then finds it done
	exec 8>"$cache/.lock-headers"
	flock 8
	if [ ! -f "$hdr/include/linux/io_uring.h" ]; then
		rm -rf "$hdr" "$hdr.obj" "$hdr.tmp"
		mk "$hdr.obj" headers_install INSTALL_HDR_PATH="$hdr.tmp" >/dev/null
		mv "$hdr.tmp" "$hdr"
		rm -rf "$hdr.obj"
	fi
	echo "$hdr"
	exit 0
fi

exec 8>"$cache/.lock-$flavour"
flock 8

if [ "$(cat "$obj/.iocoro-key" 2>/dev/null)" = "$build_key" ] && [ -f "$obj/arch/x86/boot/bzImage" ]; then
	echo "kernel: $flavour up to date ($build_key)"
	echo "$obj"
	exit 0
fi

mkdir -p "$obj"
rm -f "$obj/.iocoro-key"
echo "kernel: configuring $flavour"
mk "$obj" tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
mk "$obj" olddefconfig >/dev/null

# Kconfig silently drops options whose dependencies are missing: check them all.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$obj/.config" || { echo "kernel: $line requested, .config has: $(grep -E "^(# )?${line%%=*}[= ]" "$obj/.config" || echo 'nothing')" >&2; bad=1; }
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		if grep -q "^$opt=" "$obj/.config"; then echo "kernel: $opt requested off, but set" >&2; bad=1; fi
		;;
	esac
done < <(cat "${frags[@]}")
[ "$bad" = 0 ] || die "config fragments for $flavour did not take (see above)"

# progress every IOCORO_PROGRESS_S seconds while make runs: files compiled
# (of how many the last full build of this flavour compiled) and the last one
progress() {
	local log=$1 full=$2 t0=$3 n last
	# sleep's output away from the pipe it would keep open after a kill
	while sleep "${IOCORO_PROGRESS_S:-60}" >/dev/null 2>&1; do
		n=$(grep -c '^  CC ' "$log" || true)
		last=$(grep '^  [A-Z]' "$log" | tail -n 1 | sed 's/^ *//; s/  */ /g')
		printf 'kernel: %s: %d min, %d files compiled%s, last: %s\n' "$flavour" \
			$((($(date +%s) - t0) / 60)) "$n" "${full:+ (a full build: $full)}" "$last"
	done
}

echo "kernel: building $flavour bzImage with -j$jobs (log: $obj/build.log)"
start=$(date +%s)
full=$(cat "$cache/.files-$flavour" 2>/dev/null || true)
fresh=0
[ -f "$obj/vmlinux" ] || fresh=1
# without the lock fds: a progress loop orphaned by a killed build must
# not keep the tree and the flavour locked
progress "$obj/build.log" "$full" "$start" 8>&- 9>&- &
progress_pid=$!
if ! make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs" bzImage >"$obj/build.log" 2>&1; then
	kill "$progress_pid" 2>/dev/null || true
	grep -E 'error|Error' "$obj/build.log" | head -30 >&2
	die "build of $flavour failed (full log: $obj/build.log)"
fi
kill "$progress_pid" 2>/dev/null || true
# remember a build from scratch's count, for the next one's progress lines
[ "$fresh" = 0 ] || grep -c '^  CC ' "$obj/build.log" >"$cache/.files-$flavour" || true
mk "$obj" headers_install INSTALL_HDR_PATH="$obj/usr-headers" >/dev/null
echo "kernel: $flavour built in $(( $(date +%s) - start ))s"
echo "$build_key" >"$obj/.iocoro-key"
echo "$obj"
