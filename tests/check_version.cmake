# ctest: every place wsync's version reaches says what project(VERSION) says.
#   cmake -DVERSION=<x.y.z> -DSOURCE=<wsync tree> -DBINARY=<build tree> -P check_version.cmake
set(failures)
macro(expect what actual)
  if(NOT "${actual}" STREQUAL "${VERSION}")
    list(APPEND failures "${what} says '${actual}'")
  endif()
endmacro()

file(READ ${SOURCE}/js/package.json package_json)
string(JSON package_version GET "${package_json}" version)
expect("js/package.json" "${package_version}")

file(STRINGS ${BINARY}/include/wsync/version.h header REGEX "^#define WSYNC_VERSION(_MAJOR|_MINOR|_PATCH)? ")
string(REGEX MATCH "WSYNC_VERSION \"([^\"]*)\"" _ "${header}")
expect("wsync/version.h WSYNC_VERSION" "${CMAKE_MATCH_1}")
string(REGEX MATCH "WSYNC_VERSION_MAJOR ([0-9]+);.*WSYNC_VERSION_MINOR ([0-9]+);.*WSYNC_VERSION_PATCH ([0-9]+)" _ "${header}")
expect("wsync/version.h MAJOR.MINOR.PATCH" "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")

file(STRINGS ${BINARY}/wsync.pc pc REGEX "^Version: ")
string(REGEX REPLACE "^Version: *" "" pc "${pc}")
expect("wsync.pc" "${pc}")

file(STRINGS ${BINARY}/wsyncConfigVersion.cmake config REGEX "set\\(PACKAGE_VERSION \"")
string(REGEX MATCH "\"([^\"]*)\"" _ "${config}")
expect("wsyncConfigVersion.cmake" "${CMAKE_MATCH_1}")

if(EXISTS ${BINARY}/wsync.py OR PORT)
  file(STRINGS ${BINARY}/wsync.py port REGEX "^VERSION = ")
  string(REGEX MATCH "'([^']*)'" _ "${port}")
  expect("the Emscripten port wsync.py" "${CMAKE_MATCH_1}")
endif()

if(failures)
  list(JOIN failures "\n  " text)
  message(FATAL_ERROR "wsync's version is ${VERSION} (CMakeLists.txt), but:\n  ${text}")
endif()
message(STATUS "version ${VERSION} everywhere")
