# The case runner (case.h, case_main.c) on its own cases (case_selftest.c):
#
#   cmake -DSUITE_BIN=<binary> -DCASES=<file> -P check_case_runner.cmake
#
# --list agrees with what CMake parsed (check_cases.cmake); a case that
# passes prints "<case>: ok" and exits 0; one whose CHECK fails exits 1
# with file:line; an unknown case and a usage error exit 2.
include(${CMAKE_CURRENT_LIST_DIR}/check_cases.cmake)

function(expect want_rc want_out)
  execute_process(COMMAND ${SUITE_BIN} ${ARGN} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL want_rc OR NOT "${out}${err}" MATCHES "${want_out}")
    message(FATAL_ERROR "${SUITE_BIN} ${ARGN}: exit ${rc}, output "
      "'${out}${err}'; want exit ${want_rc} and output matching "
      "'${want_out}'")
  endif()
endfunction()

expect(0 "^passes: ok\n$" passes)
expect(0 "^with_opts: ok\n$" with_opts)
expect(0 "^called_one: ok\n$" called_one)
expect(1 "case_selftest.c:[0-9]+: CHECK\\(" called_two)
expect(1 "case_selftest.c:[0-9]+: CHECK_EQ\\(1 \\+ 1, 3\\) failed: 2 != 3" fails)
expect(2 "no case 'nosuch' \\(--list shows them\\)" nosuch)
expect(2 "^usage: .* CASE \\| --list\n$")
expect(2 "^usage: " --bogus)
expect(2 "^usage: " passes extra)
message(STATUS "the runner passes, fails, lists and refuses as documented")
