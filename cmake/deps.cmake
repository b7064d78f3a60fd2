# Host libraries, found with pkg-config as imported targets:
#   PkgConfig::LIBBPF  PkgConfig::LIBURING  PkgConfig::CMOCKA
# and the system's python3, IOCORO_PYTHON3 (the tests' checkers use only its
# standard library). A missing one stops the configure step with the Debian
# package to install.
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR
    "pkg-config not found: install the Debian package 'pkg-config' "
    "(scripts/install-deps.sh installs everything iocoro needs)")
endif()

# iocoro_require_pkg(<PREFIX> <pkg-config module> <Debian package>)
function(iocoro_require_pkg prefix module debpkg)
  pkg_check_modules(${prefix} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${prefix}_FOUND)
    message(FATAL_ERROR
      "${module} not found by pkg-config: install the Debian package "
      "'${debpkg}' (scripts/install-deps.sh installs everything iocoro needs)")
  endif()
  message(STATUS "Found ${module} ${${prefix}_VERSION}")
  # pkg_check_modules() sets these in this function's scope only
  set(${prefix}_VERSION ${${prefix}_VERSION} PARENT_SCOPE)
  set(${prefix}_INCLUDEDIR ${${prefix}_INCLUDEDIR} PARENT_SCOPE)
endfunction()

iocoro_require_pkg(LIBBPF libbpf libbpf-dev)
iocoro_require_pkg(LIBURING liburing liburing-dev)
iocoro_require_pkg(CMOCKA cmocka libcmocka-dev)

find_program(IOCORO_PYTHON3 NAMES python3 PATHS /usr/bin /bin NO_DEFAULT_PATH)
find_program(IOCORO_PYTHON3 NAMES python3)
if(NOT IOCORO_PYTHON3)
  message(FATAL_ERROR "python3 not found: install the Debian package 'python3'")
endif()
