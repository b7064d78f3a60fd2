# Test helpers. Every test links iocoro_testlib (tests/lib: check.h, cqe_str.h).
#
#   iocoro_unit_test(<name> <src.c>... [LIBS <lib>...])
#       cmocka test run on the host: ctest -L unit
#   iocoro_guest_test(<name> <src.c>... [LIBS <lib>...] [ARGS <arg>...] [TIMEOUT <s>])
#       needs the patched kernel; run inside the QEMU guest: ctest -L guest.
#       A guest test that needs a feature the kernel lacks must FAIL (exit
#       non-zero), never skip: there is no skip return code.

set(IOCORO_GUEST_TEST_TIMEOUT 120 CACHE STRING "Default per-test timeout (s) of guest tests (TCG is slow)")

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
  add_test(NAME ${name} COMMAND ${name} ${ARG_ARGS})
  set_tests_properties(${name} PROPERTIES LABELS guest TIMEOUT ${ARG_TIMEOUT})
endfunction()
