# shellcheck shell=bash
# The CMake build directory of the scripts (sourced): scripts/test.sh,
# scripts/run-main.sh and the bench/run*.sh runners.
#
#   iocoro_build_dir ROOT   prints $IOCORO_BUILD_DIR (default build/),
#                           made absolute under ROOT, without a trailing /
#   iocoro_configure ROOT BUILD
#                           configures BUILD with cmake unless it is
#                           (IOCORO_KERNEL_HEADERS passed on)

iocoro_build_dir() {
	local build=${IOCORO_BUILD_DIR:-build}

	case "$build" in /*) ;; *) build=$1/$build ;; esac
	echo "${build%/}"
}

iocoro_configure() {
	[ -f "$2/CMakeCache.txt" ] ||
		cmake -S "$1" -B "$2" -DIOCORO_KERNEL_HEADERS="${IOCORO_KERNEL_HEADERS:-}"
}
