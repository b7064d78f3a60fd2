# BPF programs and their libbpf skeletons.
#
#   iocoro_bpf_skeleton(<target> <file.bpf.c> [INCLUDES <dir>...])
#
# Compiles <file.bpf.c> with clang -target bpf into <file>.bpf.o and runs
# bpftool gen skeleton on it, giving <file>.skel.h (struct <file>_bpf,
# <file>_bpf__open() ...) in ${CMAKE_CURRENT_BINARY_DIR}/<target>/.
# <target> is an INTERFACE library: linking it adds that directory to the
# include path, links libbpf and iocoro_uapi (the skeleton includes
# <bpf/libbpf.h>, which includes <linux/bpf.h>) and builds the skeleton first.
# The object's path is in the target property IOCORO_BPF_OBJECT.
#
# Include order for the BPF compile: INCLUDES, bpf-lib/include, the
# patched kernel's uapi headers, libbpf's headers, then the multiarch dir
# (asm/types.h).
# The uapi headers come before /usr/include so the patched linux/io_uring.h
# wins; <linux/bpf.h> is theirs if they have it, else the system's.

set(IOCORO_BPF_CLANG "" CACHE FILEPATH "clang used for -target bpf (empty: search)")
set(IOCORO_BPFTOOL "" CACHE FILEPATH "bpftool used for skeletons (empty: search)")

if(NOT IOCORO_BPF_CLANG)
  find_program(_iocoro_clang NAMES clang clang-16 clang-15 clang-14)
  if(NOT _iocoro_clang)
    message(FATAL_ERROR "clang not found: install the Debian package 'clang' (scripts/install-deps.sh)")
  endif()
  set(IOCORO_BPF_CLANG ${_iocoro_clang} CACHE FILEPATH "clang used for -target bpf (empty: search)" FORCE)
endif()
if(NOT IOCORO_BPFTOOL)
  # Debian puts bpftool in /usr/sbin, which a non-root PATH may lack
  find_program(_iocoro_bpftool NAMES bpftool PATHS /usr/sbin /sbin /usr/local/sbin)
  if(NOT _iocoro_bpftool)
    message(FATAL_ERROR "bpftool not found: install the Debian package 'bpftool' (scripts/install-deps.sh)")
  endif()
  set(IOCORO_BPFTOOL ${_iocoro_bpftool} CACHE FILEPATH "bpftool used for skeletons (empty: search)" FORCE)
endif()

# __TARGET_ARCH_xxx for bpf_tracing.h
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i.86)$")
  set(IOCORO_BPF_ARCH x86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(IOCORO_BPF_ARCH arm64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^riscv")
  set(IOCORO_BPF_ARCH riscv)
else()
  message(FATAL_ERROR "iocoro: no __TARGET_ARCH_ for processor '${CMAKE_SYSTEM_PROCESSOR}'")
endif()

# Debian's multiarch include dir (asm/types.h lives there): clang -target bpf
# does not search it by itself.
set(_iocoro_multiarch ${CMAKE_LIBRARY_ARCHITECTURE})
if(NOT _iocoro_multiarch)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-multiarch
    OUTPUT_VARIABLE _iocoro_multiarch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(_iocoro_multiarch AND IS_DIRECTORY /usr/include/${_iocoro_multiarch})
  set(IOCORO_BPF_MULTIARCH_INCLUDE /usr/include/${_iocoro_multiarch})
else()
  message(FATAL_ERROR "iocoro: cannot find the multiarch include dir (/usr/include/<triplet>, for asm/types.h)")
endif()

set(IOCORO_BPF_CFLAGS -g -O2 -target bpf -D__TARGET_ARCH_${IOCORO_BPF_ARCH}
  -Wall -Wextra -Werror
  CACHE STRING "Flags for clang -target bpf (besides include dirs)")

function(iocoro_bpf_skeleton target src)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "" "INCLUDES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "iocoro_bpf_skeleton: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()

  get_filename_component(src_abs ${src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  get_filename_component(fname ${src} NAME)
  string(REGEX REPLACE "\\.bpf\\.c$" "" stem ${fname})
  if(stem STREQUAL fname)
    message(FATAL_ERROR "iocoro_bpf_skeleton: '${src}' must be named <name>.bpf.c")
  endif()
  string(MAKE_C_IDENTIFIER ${stem} ident)

  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/${target})
  set(obj ${outdir}/${stem}.bpf.o)
  set(skel ${outdir}/${stem}.skel.h)

  set(incflags)
  foreach(dir IN LISTS ARG_INCLUDES)
    get_filename_component(dir ${dir} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND incflags -I${dir})
  endforeach()
  list(APPEND incflags
    -I${CMAKE_SOURCE_DIR}/bpf-lib/include
    -I${IOCORO_KERNEL_INCLUDE}
    -I${LIBBPF_INCLUDEDIR}
    -I${LIBBPF_INCLUDEDIR}/bpf
    -I${IOCORO_BPF_MULTIARCH_INCLUDE})

  file(MAKE_DIRECTORY ${outdir})
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${IOCORO_BPF_CLANG} ${IOCORO_BPF_CFLAGS} ${incflags}
            -MD -MF ${obj}.d -MT ${obj}
            -c ${src_abs} -o ${obj}
    DEPENDS ${src_abs}
    DEPFILE ${obj}.d
    COMMENT "BPF ${fname}"
    VERBATIM)
  # bpftool writes to stdout: go through a temp file so a failed run leaves
  # no truncated header behind.
  add_custom_command(
    OUTPUT ${skel}
    COMMAND sh -c "\"$0\" gen skeleton \"$1\" name \"$2\" > \"$3.tmp\" && mv \"$3.tmp\" \"$3\""
            ${IOCORO_BPFTOOL} ${obj} ${ident}_bpf ${skel}
    DEPENDS ${obj}
    COMMENT "BPF skeleton ${stem}.skel.h"
    VERBATIM)

  add_custom_target(${target}_skel DEPENDS ${skel})
  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}_skel)
  target_include_directories(${target} INTERFACE ${outdir})
  target_link_libraries(${target} INTERFACE PkgConfig::LIBBPF iocoro_uapi)
  set_target_properties(${target} PROPERTIES IOCORO_BPF_OBJECT ${obj})
endfunction()
