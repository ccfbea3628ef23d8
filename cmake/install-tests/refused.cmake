# install/cmake/refuses-<case>: a CMake project whose compilers cannot load
# the plugin is refused by find_package(wsff), at configure time, with one
# sentence that names the compiler and the fix; nothing is generated.
#   CASE  gcc:   only C enabled, gcc as its compiler
#         gxx:   C (clang 19, fine) and CXX, g++ as its compiler
#         early: find_package(wsff) before project() enables a language
# A case whose compiler is not installed prints "skipped: " (the test's
# SKIP_REGULAR_EXPRESSION).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/project.cmake)

set(find "find_package(wsff 0.1 REQUIRED)\n")
if(CASE STREQUAL "early")
  set(body "${find}project(consumer C)\n")
  set(args -DCMAKE_C_COMPILER=${CLANG})
  set(expected "wsff needs C or CXX enabled (with clang 19) before find_package(wsff): call it after project() or enable_language(C)")
else()
  string(REPLACE "x" "+" name ${CASE})
  find_program(compiler ${name})
  if(NOT compiler)
    message(STATUS "skipped: no ${name} installed")
    return()
  endif()
  execute_process(COMMAND ${compiler} -dumpfullversion OUTPUT_VARIABLE version
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(CASE STREQUAL "gcc")
    set(body "project(consumer C)\n${find}")
    set(args -DCMAKE_C_COMPILER=${compiler})
    set(expected "wsff needs clang 19, but the C compiler ${compiler} is GNU ${version}: configure with -DCMAKE_C_COMPILER=clang-19, or with the installed ${prefix}/bin/ws-clang")
  else()
    set(body "project(consumer C CXX)\n${find}")
    set(args -DCMAKE_C_COMPILER=${CLANG} -DCMAKE_CXX_COMPILER=${compiler})
    set(expected "wsff needs clang 19, but the CXX compiler ${compiler} is GNU ${version}: configure with -DCMAKE_CXX_COMPILER=clang++-19, or with the installed ${prefix}/bin/ws-clang++")
  endif()
endif()

set(dir ${WORK_DIR}/cmake-refuses-${CASE})
write_consumer(${dir} "${body}")
configure_consumer(${dir} ${args})
set(seen "${configure_output}\n${configure_error}")
if(configure_rc EQUAL 0)
  message(FATAL_ERROR "configuring ${dir} succeeded; it should have been refused:\n${seen}")
endif()
if(EXISTS ${dir}/build/Makefile OR EXISTS ${dir}/build/build.ninja)
  message(FATAL_ERROR "configuring ${dir} failed but generated a build system:\n${seen}")
endif()
# CMake wraps a message at 80 columns; the sentence is one line before it.
string(REGEX REPLACE "[ \n]+" " " flat "${configure_error}")
string(FIND "${flat}" "Reason given by package: ${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the refusal does not say:\n  ${expected}\nconfigure printed:\n${seen}")
endif()
message(STATUS "install/cmake/refuses-${CASE}: ok")
