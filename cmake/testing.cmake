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
#   iocoro_guest_suite(<suite> [SOURCES <src.c>...] [BPF <x.bpf.c>...]
#                      [LIBS <lib>...] [ARGS <arg>...])
#       a suite of self-registering cases (tests/lib/case.h): one binary
#       <suite>_test of the SOURCES, the skeletons of the BPF programs
#       (<suite>_<x>_skel, header <x>.skel.h) and iocoro_caselib (its
#       main()). Without SOURCES and BPF the suite is its directory: every
#       *.c but *.bpf.c, and every *.bpf.c (a new file reconfigures). The
#       cases are read from the sources' IOCORO_CASE(name),
#       IOCORO_CASE_OPTS(name, .timeout = N, .serial = true, .host = true)
#       and IOCORO_CASE_CALL(name, fn, arg[, options]) lines at configure
#       time (a changed source reconfigures), each
#       becomes the ctest test <suite>_<case> (label guest, or unit with
#       .host), run as "<suite>_test <case> <ARGS>", and the host check
#       check_cases_<suite> compares them with "<suite>_test --list".
#       Adding a case touches only its .c (and its .bpf.c).
#
# Labels: unit (host tests of code), check (host checks of the tree: style,
# docs, install, test registration), guest (in the QEMU guest).

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

# the IOCORO_CASE lines of @src: appends "name[ timeout=N][ serial]" to the
# list @out_var
function(_iocoro_suite_cases src out_var)
  set(cases ${${out_var}})
  file(STRINGS ${src} lines REGEX "^IOCORO_CASE(_OPTS|_CALL)?\\(")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^IOCORO_CASE(_OPTS|_CALL)?\\(([A-Za-z0-9_]+)(,[^)]*)?\\)$")
      message(FATAL_ERROR "${src}: cannot parse '${line}': write "
        "IOCORO_CASE(name), IOCORO_CASE_OPTS(name, .timeout = N, "
        ".serial = true, .host = true) or IOCORO_CASE_CALL(name, fn, arg"
        "[, options]) (no parentheses in arg) on one line")
    endif()
    set(entry ${CMAKE_MATCH_2})
    set(opts "${CMAKE_MATCH_3}")
    if(opts MATCHES "\\.timeout *= *([0-9]+)")
      string(APPEND entry " timeout=${CMAKE_MATCH_1}")
    endif()
    if(opts MATCHES "\\.serial *= *true")
      string(APPEND entry " serial")
    endif()
    if(opts MATCHES "\\.host *= *true")
      string(APPEND entry " host")
    endif()
    list(APPEND cases "${entry}")
  endforeach()
  set(${out_var} ${cases} PARENT_SCOPE)
endfunction()

function(iocoro_guest_suite suite)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;BPF;LIBS;ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "iocoro_guest_suite(${suite} [SOURCES <src.c>...] "
      "[BPF <x.bpf.c>...] [LIBS <lib>...] [ARGS <arg>...])")
  endif()
  if(NOT ARG_SOURCES AND NOT ARG_BPF)
    file(GLOB ARG_SOURCES CONFIGURE_DEPENDS
      ${CMAKE_CURRENT_SOURCE_DIR}/*.c)
    list(FILTER ARG_SOURCES EXCLUDE REGEX "\\.bpf\\.c$")
    file(GLOB ARG_BPF CONFIGURE_DEPENDS
      ${CMAKE_CURRENT_SOURCE_DIR}/*.bpf.c)
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "iocoro_guest_suite(${suite}): no sources")
  endif()
  set(bin ${suite}_test)
  add_executable(${bin} ${ARG_SOURCES})
  target_link_libraries(${bin} PRIVATE iocoro_caselib ${ARG_LIBS})
  foreach(bpf IN LISTS ARG_BPF)
    get_filename_component(stem ${bpf} NAME)
    string(REGEX REPLACE "\\.bpf\\.c$" "" stem ${stem})
    iocoro_bpf_skeleton(${suite}_${stem}_skel ${bpf})
    target_link_libraries(${bin} PRIVATE ${suite}_${stem}_skel)
  endforeach()

  set(cases)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src ${src} ABSOLUTE)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
    _iocoro_suite_cases(${src} cases)
  endforeach()
  if(NOT cases)
    message(FATAL_ERROR "iocoro_guest_suite(${suite}): no IOCORO_CASE in "
      "${ARG_SOURCES}")
  endif()

  foreach(entry IN LISTS cases)
    string(REGEX MATCH "^[A-Za-z0-9_]+" case "${entry}")
    set(test ${suite}_${case})
    if(entry MATCHES " host")
      add_test(NAME ${test} COMMAND ${bin} ${case} ${ARG_ARGS})
      set_tests_properties(${test} PROPERTIES LABELS unit TIMEOUT 60)
    else()
      iocoro_guest_add_test(${test} ${bin} ${case} ${ARG_ARGS})
    endif()
    if(entry MATCHES " timeout=([0-9]+)")
      set_tests_properties(${test} PROPERTIES TIMEOUT ${CMAKE_MATCH_1})
    endif()
    if(entry MATCHES " serial")
      set_tests_properties(${test} PROPERTIES RUN_SERIAL ON)
    endif()
  endforeach()

  set(list_file ${CMAKE_CURRENT_BINARY_DIR}/${suite}.cases)
  string(REPLACE ";" "\n" text "${cases}")
  file(WRITE ${list_file} "${text}\n")
  add_test(NAME check_cases_${suite}
    COMMAND ${CMAKE_COMMAND} -DSUITE_BIN=$<TARGET_FILE:${bin}>
            -DCASES=${list_file}
            -P ${CMAKE_SOURCE_DIR}/tests/lib/check_cases.cmake)
  set_tests_properties(check_cases_${suite} PROPERTIES LABELS check
    TIMEOUT 30)
endfunction()
