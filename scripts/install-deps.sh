#!/usr/bin/env bash
# Install every Debian package iocoro needs, only those that are missing.
# Usage: scripts/install-deps.sh        (as root, or with sudo available)
set -euo pipefail

PKGS=(
	# kernel build
	linux-source-6.12 build-essential flex bison bc libelf-dev libssl-dev
	xz-utils cpio kmod rsync perl python3 python3-ply python3-git
	# the kernel's BTF (kernel/config/btf.config): pahole
	dwarves
	# user space and BPF
	clang llvm bpftool libbpf-dev liburing-dev libcmocka-dev cmake
	pkg-config
	# the regression stage: liburing's source package (tests/liburing)
	dpkg-dev patch
	# guest
	qemu-system-x86 dracut-core busybox
	# benchmarks: the disk image, the charts, the peers (uutils cp, fio)
	e2fsprogs gnuplot-nox rust-coreutils fio
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all ${#PKGS[@]} packages present"
	exit 0
fi

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
for p in "${missing[@]}"; do
	echo "install-deps: installing $p"
done
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: installed ${#missing[@]} package(s)"
