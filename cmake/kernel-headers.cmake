# The patched kernel's exported uapi headers (make headers_install output):
# a directory with include/linux/io_uring.h and include/linux/bpf.h.
#
#   -DIOCORO_KERNEL_HEADERS=<dir>   use that directory
#   (unset)                         run kernel/build.sh headers at configure
#                                   time; the last line it prints is the dir
#
# Target iocoro_uapi (INTERFACE): puts <dir>/include before the system
# include directories, so <linux/io_uring.h> and <linux/bpf.h> are the
# patched ones. liburing's own copy of io_uring.h uses the same include guard
# (LINUX_IO_URING_H): include <linux/io_uring.h> before <liburing.h> to get
# the patched definitions.
set(IOCORO_KERNEL_HEADERS "" CACHE PATH
  "Exported uapi headers of the patched kernel (dir with include/linux/bpf.h); empty: ask kernel/build.sh headers")

if(IOCORO_KERNEL_HEADERS STREQUAL "")
  set(_kh_script ${CMAKE_SOURCE_DIR}/kernel/build.sh)
  message(STATUS "IOCORO_KERNEL_HEADERS not given: running kernel/build.sh headers "
    "(waits while another kernel/build.sh holds the kernel source tree)")
  execute_process(
    COMMAND ${_kh_script} headers
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    RESULT_VARIABLE _kh_rc
    OUTPUT_VARIABLE _kh_out
    ERROR_VARIABLE _kh_err)
  if(NOT _kh_rc EQUAL 0)
    message(FATAL_ERROR
      "'kernel/build.sh headers' failed (status ${_kh_rc}):\n${_kh_out}${_kh_err}\n"
      "Give the headers explicitly instead, e.g.\n"
      "  cmake -DIOCORO_KERNEL_HEADERS=/var/cache/iocoro/kernel/obj-debug/usr-headers ...\n"
      "(or -DIOCORO_KERNEL_HEADERS=/usr for the host's stock headers, without iocoro's uapi)")
  endif()
  string(STRIP "${_kh_out}" _kh_out)
  string(REGEX REPLACE "^.*\n" "" _kh_dir "${_kh_out}")
  if(_kh_dir STREQUAL "")
    message(FATAL_ERROR "'kernel/build.sh headers' printed nothing; expected the headers dir as its last line")
  endif()
  # Not cached: asked again at every configure, so the headers follow the series.
  set(_kh_resolved ${_kh_dir})
else()
  set(_kh_resolved ${IOCORO_KERNEL_HEADERS})
endif()

get_filename_component(_kh_resolved "${_kh_resolved}" ABSOLUTE)
foreach(_h linux/io_uring.h linux/bpf.h)
  if(NOT EXISTS ${_kh_resolved}/include/${_h})
    message(FATAL_ERROR
      "kernel headers dir '${_kh_resolved}' has no include/${_h}: "
      "expected the output of 'make headers_install INSTALL_HDR_PATH=<dir>' "
      "(kernel/build.sh puts it at <obj-dir>/usr-headers)")
  endif()
endforeach()
# Everything below uses this (resolved, absolute) value.
set(IOCORO_KERNEL_INCLUDE ${_kh_resolved}/include)

# Report whether these headers carry iocoro's uapi (informational: tests that
# need it fail at build or run time, they are never skipped).
file(STRINGS ${IOCORO_KERNEL_INCLUDE}/linux/io_uring.h _kh_coro REGEX "IORING_CORO_MAX_KINDS")
if(_kh_coro)
  message(STATUS "Kernel headers: ${_kh_resolved} (with IORING_OP_BPF)")
else()
  message(STATUS "Kernel headers: ${_kh_resolved} (stock: no IORING_OP_BPF)")
endif()

add_library(iocoro_uapi INTERFACE)
# -I (not -isystem): searched before every system directory, including the
# -isystem dirs of imported targets; BEFORE: ahead of other -I dirs too.
target_include_directories(iocoro_uapi BEFORE INTERFACE ${IOCORO_KERNEL_INCLUDE})
