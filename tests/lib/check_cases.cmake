# The cases CMake registered for a suite (iocoro_guest_suite(), from the
# IOCORO_CASE lines of its sources) are exactly those the binary has:
#
#   cmake -DSUITE_BIN=<binary> -DCASES=<file> -P check_cases.cmake
#
# <file> has one line per registered case as "<binary> --list" prints it
# (name, then " timeout=N", " serial"); the order does not matter. Runs on
# the host: listing needs no kernel support.
execute_process(COMMAND ${SUITE_BIN} --list RESULT_VARIABLE rc
  OUTPUT_VARIABLE listed ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SUITE_BIN} --list: exit ${rc}: ${err}")
endif()
file(STRINGS ${CASES} registered)
string(REPLACE "\n" ";" listed "${listed}")
list(FILTER listed EXCLUDE REGEX "^$")
list(SORT listed)
list(SORT registered)
if(NOT listed STREQUAL registered)
  set(only_bin ${listed})
  list(REMOVE_ITEM only_bin ${registered})
  set(only_cmake ${registered})
  list(REMOVE_ITEM only_cmake ${listed})
  message(FATAL_ERROR "${SUITE_BIN}: the cases of --list and of CMake "
    "(${CASES}) differ:\n  only in the binary: ${only_bin}\n"
    "  only in CMake: ${only_cmake}\n"
    "(write IOCORO_CASE(name), IOCORO_CASE_OPTS(name, ...) or "
    "IOCORO_CASE_CALL(name, fn, arg, ...) at the start of a line, on one "
    "line)")
endif()
list(LENGTH listed n)
message(STATUS "${n} cases, CMake and ${SUITE_BIN} --list agree")
