#!/bin/bash
# dracut module "iocoro": an initramfs that runs one command and powers off.
#
# Installs (at the same absolute paths as on the host):
#   - the CMake build tree named by $IOCORO_BUILD_DIR (every file; ELF
#     executables and shared objects with their shared-library deps, scripts
#     with their interpreter),
#   - ctest and the CMake data directory it needs,
#   - basic user-space tools (coreutils, util-linux, busybox),
#   - the paths listed in $IOCORO_EXTRA_INSTALL (space-separated, absolute;
#     directories recursively).
# and the cmdline hook iocoro-run.sh (priority 00, before dracut's root= check)
# that runs the command from iocoro.cmd= and never returns.

# initdir, moddir and the inst_* helpers come from dracut
# shellcheck disable=SC2154

# called by dracut: only when asked for with -m / --add
check() {
    return 255
}

# called by dracut
depends() {
    echo base
    return 0
}

# Install the files given on stdin (NUL-separated absolute paths) at the same
# paths, with library dependencies, in batches.
_iocoro_inst_files() {
    local -a batch=()
    local f
    while IFS= read -r -d '' f; do
        batch+=("$f")
        if ((${#batch[@]} >= 256)); then
            inst_multiple "${batch[@]}" || return 1
            batch=()
        fi
    done
    if ((${#batch[@]} > 0)); then
        inst_multiple "${batch[@]}" || return 1
    fi
    return 0
}

# Install one absolute path (file, symlink or directory tree) at the same path.
_iocoro_inst_tree() {
    local p=$1 d
    if [[ $p != /* ]]; then
        dfatal "iocoro: '$p' is not an absolute path"
        return 1
    fi
    if [[ -d $p ]]; then
        # directories first, so that empty ones exist in the guest too;
        # -H: a symlinked top directory is followed, installed at the same path
        while IFS= read -r -d '' d; do
            mkdir -p "${initdir}${d}"
        done < <(find -H "$p" -type d -print0)
        find -H "$p" \( -type f -o -type l \) -print0 | _iocoro_inst_files
    elif [[ -e $p || -L $p ]]; then
        printf '%s\0' "$p" | _iocoro_inst_files
    else
        dfatal "iocoro: '$p' does not exist"
        return 1
    fi
}

# ctest -> libarchive -> libxml2 -> libicuuc -> libicudata: 30 MiB of ICU
# data that ctest never reads, but the loader needs the library and its
# symbol. Put a stub that defines the symbol (zeros: ICU would reject it as
# invalid data, cleanly, if anything ever used it) at the library's path in
# the image before dracut resolves library dependencies (lazily, after all
# modules): dracut-install leaves files that already exist alone.
# IOCORO_STUB_ICU=0 keeps the real one.
_iocoro_stub_icudata() {
    local bin=$1 lib real sym soname dir cc=${CC:-cc}
    if ! command -v "$cc" > /dev/null || ! command -v nm > /dev/null || ! command -v objdump > /dev/null; then
        dwarn "iocoro: no $cc/nm/objdump: keeping the 30 MiB ICU data library"
        return 0
    fi
    while IFS= read -r lib; do
        real=$(readlink -f "$lib")
        sym=$(nm -D --defined-only "$real" 2> /dev/null | awk '$3 ~ /^icudt[0-9]+_dat$/ { print $3 }')
        soname=$(objdump -p "$real" 2> /dev/null | awk '$1 == "SONAME" { print $2 }')
        if [[ -z $sym || -z $soname ]]; then
            dwarn "iocoro: $real: no icudt*_dat symbol or soname, kept"
            continue
        fi
        dir=$initdir${real%/*}
        mkdir -p "$dir"
        if printf 'const unsigned char %s[64] __attribute__((aligned(16)));\n' "$sym" |
            "$cc" -shared -fPIC -nostdlib -x c - -Wl,-soname,"$soname" -o "$dir/${real##*/}"; then
            [[ ${lib##*/} == "${real##*/}" ]] || ln -sfn "${real##*/}" "$dir/${lib##*/}"
            [[ $soname == "${real##*/}" || -e $dir/$soname ]] || ln -sfn "${real##*/}" "$dir/$soname"
            dinfo "iocoro: $real replaced by a stub defining $sym"
        else
            rm -f "$dir/${real##*/}"
            dwarn "iocoro: could not build a stub for $real, kept"
        fi
    done < <(ldd "$bin" 2> /dev/null | awk '$1 ~ /^libicudata\.so/ && $3 ~ /^\// { print $3 }')
}

# called by dracut
install() {
    local p cmake_root

    if [[ -z ${IOCORO_BUILD_DIR-} ]]; then
        dfatal "iocoro: IOCORO_BUILD_DIR is not set (the CMake build tree to put in the image)"
        return 1
    fi
    if [[ ! -d $IOCORO_BUILD_DIR ]]; then
        dfatal "iocoro: IOCORO_BUILD_DIR '$IOCORO_BUILD_DIR' is not a directory"
        return 1
    fi

    # tools the hook itself needs: fail the build without them
    inst_multiple sh bash cat dmesg mount umount sleep mkdir rm env base64 \
        tee sync sed grep ln mkfifo kill timeout || return 1

    # what tests and people expect to find
    inst_multiple -o cmp dd head tail id chmod chown ln ls cp mv touch \
        mknod stat date uname true false test printf echo expr seq basename \
        dirname readlink realpath grep egrep awk tr wc cut sort uniq find \
        xargs od hexdump diff truncate md5sum sha256sum cksum nproc mktemp yes \
        nice nohup ps free pidof pkill setsid taskset losetup split sync \
        busybox strace bpftool

    # Every MiB in the image costs ~0.2-0.4 s of boot on TCG + KASAN (the
    # kernel unpacking the initramfs), and ctest brings ~30 MiB of libraries
    # plus 30 MiB of ICU data. IOCORO_CTEST=0 leaves ctest out.
    # ctest 3.25 runs tests without CMAKE_ROOT; Modules/CMake.cmake (which
    # marks CMAKE_ROOT) is installed alone in case a ctest wants it.
    if [[ ${IOCORO_CTEST:-1} == 0 ]]; then
        dinfo "iocoro: IOCORO_CTEST=0, no ctest in the image"
    elif command -v ctest > /dev/null; then
        [[ ${IOCORO_STUB_ICU:-1} == 0 ]] || _iocoro_stub_icudata "$(command -v ctest)"
        inst_multiple ctest || return 1
        for cmake_root in /usr/share/cmake-*; do
            [[ -f $cmake_root/Modules/CMake.cmake ]] || continue
            inst_simple "$cmake_root/Modules/CMake.cmake" || return 1
        done
    else
        dwarn "iocoro: ctest not found on the host; the image has no ctest"
    fi

    _iocoro_inst_tree "$IOCORO_BUILD_DIR" || return 1

    for p in ${IOCORO_EXTRA_INSTALL-}; do
        _iocoro_inst_tree "$p" || return 1
    done

    grep -q '^root:' "$initdir/etc/group" 2> /dev/null || echo "root:x:0:" >> "$initdir/etc/group"
    grep -q '^nogroup:' "$initdir/etc/group" 2> /dev/null || echo "nogroup:x:65534:" >> "$initdir/etc/group"

    mkdir -p "${initdir}/sys/kernel/debug" "${initdir}/tmp" "${initdir}/run"
    inst_hook cmdline 00 "$moddir/iocoro-run.sh"
    inst_script "$moddir/iocoro-run.sh" /iocoro-init
}
