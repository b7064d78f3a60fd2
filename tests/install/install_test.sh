#!/bin/sh
# cmake --install into a temporary prefix, then build the tutorial
# (docs/tutorial, its standalone Makefile) against the installed iocoro.pc
# only: nothing of the source or build tree is on its include or library
# path. Running orc needs the patched kernel (the guest tests do that);
# here it runs on the host's kernel, which lacks the series, and must say
# so.
#
# Usage: install_test.sh <build dir> <source dir>
set -eu

build=$1
src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iocoro-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" ||
	{ cat "$tmp/install.log"; fail "cmake --install"; }

for f in include/iocoro.h include/iocoro/bpf.h include/iocoro/user_data.h \
	include/iocoro/coro_ops.h include/iocoro/bpf_coro.h \
	include/iocoro/bpf_ctx.h include/iocoro/bpf_prep.h \
	include/iocoro/uapi/linux/io_uring.h; do
	[ -f "$prefix/$f" ] || fail "not installed: $f"
done
# the series changes no other uapi header: <linux/bpf.h> is the system's
[ "$(ls "$prefix/include/iocoro/uapi/linux")" = io_uring.h ] ||
	fail "installed uapi headers besides io_uring.h:" \
		"$(ls "$prefix/include/iocoro/uapi/linux")"
# bpf-lib's headers are its sources, as they are: nothing generated
for f in "$prefix"/include/iocoro/*.h; do
	cmp -s "$f" "$src/bpf-lib/include/iocoro/${f##*/}" ||
		fail "installed ${f#$prefix/} is not bpf-lib's"
done

pc=$(find "$prefix" -name iocoro.pc)
[ -n "$pc" ] || fail "no iocoro.pc installed"
# the man pages: every page of runtime/man, in <mandir>/man3 and man7
man3=$(find "$prefix" -path '*/man3/iocoro_wait.3')
[ -n "$man3" ] || fail "no man page iocoro_wait.3 installed"
mandir=$(dirname "$(dirname "$man3")")
for f in "$src"/runtime/man/*.[37]; do
	sec=${f##*.}
	cmp -s "$f" "$mandir/man$sec/${f##*/}" ||
		fail "man page not installed: man$sec/${f##*/}"
done
if command -v man >/dev/null; then
	# a page that is a link (.so) to another, found the way man finds it
	MANPAGER=cat MANWIDTH=80 man -M "$mandir" 3 iocoro_queue_init_params \
		2>&1 | grep -q 'iocoro_queue_init_params(unsigned int' ||
		fail "man -M $mandir iocoro_queue_init_params does not show its page"
	echo "== man pages: $(ls "$mandir/man3" | wc -l) in man3, man iocoro_queue_init_params ok"
fi
lib=$(find "$prefix" -name 'libiocoro.so.1')
[ -n "$lib" ] || fail "no libiocoro.so.1 installed"
# only the versioned API is exported
nm -D --defined-only "$lib" | grep -v ' A ' | grep -vE '@@IOCORO_1\.[012]$' &&
	fail "symbols outside IOCORO_1.0, IOCORO_1.1 and IOCORO_1.2"
# each later version's calls are in their own node
nm -D --defined-only "$lib" | grep -q ' iocoro_start_op@@IOCORO_1\.1$' ||
	fail "iocoro_start_op is not IOCORO_1.1"
nm -D --defined-only "$lib" | grep -q ' iocoro_submit_and_reap@@IOCORO_1\.2$' ||
	fail "iocoro_submit_and_reap is not IOCORO_1.2"

export PKG_CONFIG_PATH="$(dirname "$pc")"
echo "== pkg-config: $(pkg-config --modversion iocoro)"
echo "   cflags: $(pkg-config --cflags iocoro)"
echo "   libs:   $(pkg-config --libs iocoro)"

echo "== make -C docs/tutorial (a copy, against the installed iocoro)"
cp -r "$src/docs/tutorial" "$tmp/tutorial"
make -C "$tmp/tutorial" O="$tmp/out" || fail "building the tutorial"
[ -x "$tmp/out/orc" ] || fail "no orc built"
readelf -d "$tmp/out/orc" | grep -q 'NEEDED.*libiocoro\.so\.1' ||
	fail "orc is not linked with libiocoro.so.1"

echo "== the installed iocoro.h in C++ (c++ -fsyntax-only)"
printf '#include <iocoro.h>\nint main() { struct iocoro co; return iocoro_queue_init(4, &co, 0); }\n' \
	>"$tmp/cxx.cc"
c++ -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags iocoro) "$tmp/cxx.cc" ||
	fail "iocoro.h does not compile as C++"

echo "== orc on this host's kernel (without the series)"
# no LD_LIBRARY_PATH: the Makefile's rpath must find the installed library
readelf -d "$tmp/out/orc" | grep -qE "R(UN)?PATH.*$(dirname "$lib")" ||
	fail "orc has no rpath to $(dirname "$lib")"
out=$(env -u LD_LIBRARY_PATH "$tmp/out/orc" /etc/hostname 2>&1) &&
	rc=0 || rc=$?
echo "$out"
[ "$rc" = 1 ] || fail "orc exited $rc, expected 1"
# (or, where io_uring itself is off, that it is not permitted/implemented)
echo "$out" | grep -qiE 'lacks IORING_OP_BPF|not permitted|not implemented' ||
	fail "orc did not say that the kernel lacks IORING_OP_BPF"
echo "install_test: ok"
