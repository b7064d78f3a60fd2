# Test helpers. Every test links iocoro_testlib (tests/lib: check.h, cqe_str.h).
#
#   iocoro_unit_test(<name> <src.c>... [LIBS <lib>...])
#       cmocka test run on the host: ctest -L unit
#   iocoro_guest_test(<name> <src.c>... [LIBS <lib>...] [ARGS <arg>...] [TIMEOUT <s>])
#       needs the patched kernel; run inside the QEMU guest: ctest -L guest.
#       A guest test that needs a feature the kernel lacks must FAIL (exit
#       non-zero), never skip: there is no skip return code.
#   iocoro_guest_add_test(<name> <command> [<arg>...])
#       add_test() for a guest test: label guest, the default TIMEOUT (set
#       other properties afterwards with set_tests_properties()), and the
#       command run through tests/lib/guest-test.sh, which writes the
#       markers "iocoro-test: start <name> pid=N" and "iocoro-test: end
#       <name> exit=N" to /dev/kmsg around it, so that the guest runner's
#       kernel-log gate names the test a splat belongs to. <command> may be
#       a target name, as with add_test(). Every guest test goes through it:
#       unit_guest_launcher checks that.

set(IOCORO_GUEST_TEST_TIMEOUT 120 CACHE STRING "Default per-test timeout (s) of guest tests (TCG is slow)")

# in the build tree, which the guest image carries (the source tree it does not)
set(IOCORO_GUEST_LAUNCHER ${CMAKE_BINARY_DIR}/tests/lib/guest-test.sh)
configure_file(${CMAKE_SOURCE_DIR}/tests/lib/guest-test.sh
  ${IOCORO_GUEST_LAUNCHER} COPYONLY)

function(iocoro_unit_test name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LIBS")
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "iocoro_unit_test(${name}): no sources")
  endif()
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE iocoro_testlib PkgConfig::CMOCKA ${ARG_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS unit TIMEOUT 60)
endfunction()

function(iocoro_guest_test name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TIMEOUT" "LIBS;ARGS")
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "iocoro_guest_test(${name}): no sources")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT ${IOCORO_GUEST_TEST_TIMEOUT})
  endif()
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE iocoro_testlib ${ARG_LIBS})
  iocoro_guest_add_test(${name} ${name} ${ARG_ARGS})
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
endfunction()

function(iocoro_guest_add_test name command)
  if(TARGET ${command})
    set(command $<TARGET_FILE:${command}>)
  endif()
  add_test(NAME ${name}
    COMMAND ${IOCORO_GUEST_LAUNCHER} ${name} ${command} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS guest
    TIMEOUT ${IOCORO_GUEST_TEST_TIMEOUT})
endfunction()
