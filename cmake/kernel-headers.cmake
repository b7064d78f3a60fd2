# The kernel's uapi headers: what user space and .bpf.c files compile
# against.
#
#   (unset or empty)                include/uapi/ of this tree: linux/io_uring.h
#                                   as the series exports it (make
#                                   headers_install), committed like
#                                   liburing's copy; series_uapi checks it
#                                   against the export, scripts/update-uapi.sh
#                                   refreshes it. The series changes no other
#                                   uapi header (update-uapi.sh fails if it
#                                   does): the rest, <linux/bpf.h> among
#                                   them, are the system's (linux-libc-dev)
#   -DIOCORO_KERNEL_HEADERS=<dir>   a 'make headers_install INSTALL_HDR_PATH=<dir>'
#                                   output instead (kernel/build.sh's
#                                   <obj-dir>/usr-headers; /usr for the host's
#                                   stock headers, without iocoro's uapi):
#                                   its linux/bpf.h too
#
# Target iocoro_uapi (INTERFACE): puts the headers' include dir before the
# system include directories, so <linux/io_uring.h> is the patched one;
# every header it lacks comes from the system. liburing's own copy of
# io_uring.h uses the same include guard (LINUX_IO_URING_H): include
# <linux/io_uring.h> before <liburing.h> to get the patched definitions.
# It adds include/compat/ too: bpf_struct_ops_link.h, what <linux/bpf.h>
# gained for struct_ops links after Debian 12's (Linux 6.1).
#
# IOCORO_BPF_H: the <linux/bpf.h> these builds include (unit_uapi reads it).
set(IOCORO_KERNEL_HEADERS "" CACHE PATH
  "Exported uapi headers of a kernel (dir with include/linux/io_uring.h); empty: the tree's include/uapi")

if(IOCORO_KERNEL_HEADERS STREQUAL "")
  set(IOCORO_KERNEL_INCLUDE ${CMAKE_SOURCE_DIR}/include/uapi)
else()
  get_filename_component(_kh_dir "${IOCORO_KERNEL_HEADERS}" ABSOLUTE)
  set(IOCORO_KERNEL_INCLUDE ${_kh_dir}/include)
endif()

if(NOT EXISTS ${IOCORO_KERNEL_INCLUDE}/linux/io_uring.h)
  message(FATAL_ERROR
    "kernel headers '${IOCORO_KERNEL_INCLUDE}' have no linux/io_uring.h: "
    "-DIOCORO_KERNEL_HEADERS expects the output of "
    "'make headers_install INSTALL_HDR_PATH=<dir>' "
    "(kernel/build.sh puts it at <obj-dir>/usr-headers)")
endif()

if(EXISTS ${IOCORO_KERNEL_INCLUDE}/linux/bpf.h)
  set(IOCORO_BPF_H ${IOCORO_KERNEL_INCLUDE}/linux/bpf.h)
else()
  find_file(IOCORO_SYSTEM_BPF_H linux/bpf.h)
  if(NOT IOCORO_SYSTEM_BPF_H)
    message(FATAL_ERROR
      "no <linux/bpf.h>: install the Debian package 'linux-libc-dev' "
      "(build-essential brings it: scripts/install-deps.sh)")
  endif()
  set(IOCORO_BPF_H ${IOCORO_SYSTEM_BPF_H})
endif()

# Report whether these headers carry iocoro's uapi (informational: tests that
# need it fail at build or run time, they are never skipped).
file(STRINGS ${IOCORO_KERNEL_INCLUDE}/linux/io_uring.h _kh_coro REGEX "IORING_CORO_MAX_KINDS")
if(_kh_coro)
  message(STATUS "Kernel headers: ${IOCORO_KERNEL_INCLUDE} (with IORING_OP_BPF), ${IOCORO_BPF_H}")
else()
  message(STATUS "Kernel headers: ${IOCORO_KERNEL_INCLUDE} (stock: no IORING_OP_BPF), ${IOCORO_BPF_H}")
endif()

add_library(iocoro_uapi INTERFACE)
# -I (not -isystem): searched before every system directory, including the
# -isystem dirs of imported targets; BEFORE: ahead of other -I dirs too.
target_include_directories(iocoro_uapi BEFORE INTERFACE ${IOCORO_KERNEL_INCLUDE})
target_include_directories(iocoro_uapi INTERFACE ${CMAKE_SOURCE_DIR}/include/compat)
