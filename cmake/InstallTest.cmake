# Installs the build into a scratch prefix and builds a small program
# against it three ways: the installed ws-clang (also reached through
# symbolic links), find_package(wsff) in a CMake project, and pkg-config
# with nothing but its --cflags and --libs.  Each program must run, print
# the right answer and, where it says so, run on the wsff runtime.  Run by
# ctest (install/consumer).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
  set(last_error "${err}" PARENT_SCOPE)
endfunction()

function(expect_fib exe)
  run(${CMAKE_COMMAND} -E env WS_NUM_WORKERS=2 ${exe} 20)
  if(NOT last_output MATCHES "fib\\(20\\) = 6765")
    message(FATAL_ERROR "${exe} printed: ${last_output}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(fib ${SOURCE_DIR}/lit-tests/clang/Inputs/fib.c)

# 1. the installed driver, nothing else on the command line; then through
# an absolute link, and through a relative link to that link, from
# directories elsewhere (the driver must find the prefix from its real file)
run(${prefix}/bin/ws-clang -fws-fencefree -O2 ${fib} -o ${WORK_DIR}/fib-driver)
expect_fib(${WORK_DIR}/fib-driver)
file(MAKE_DIRECTORY ${WORK_DIR}/links/a ${WORK_DIR}/links/b)
file(CREATE_LINK ${prefix}/bin/ws-clang ${WORK_DIR}/links/a/ws-clang SYMBOLIC)
file(CREATE_LINK ../a/ws-clang ${WORK_DIR}/links/b/wsc SYMBOLIC)
foreach(link a/ws-clang b/wsc)
  run(${WORK_DIR}/links/${link} -fws-fencefree -O2 ${fib} -o ${WORK_DIR}/fib-link)
  expect_fib(${WORK_DIR}/fib-link)
endforeach()

# 1b. the installed driver measuring it: -fws-scale links the installed
# libws_scale, whose report lands in the CSV
run(${prefix}/bin/ws-clang -fws-fencefree -fws-scale -O2 ${fib} -o ${WORK_DIR}/fib-scale)
run(${CMAKE_COMMAND} -E env WS_SCALE_OUT=${WORK_DIR}/fib-scale.csv ${WORK_DIR}/fib-scale 20)
file(READ ${WORK_DIR}/fib-scale.csv csv)
if(NOT csv MATCHES "\n<program>,1,")
  message(FATAL_ERROR "fib-scale wrote no report: ${csv}")
endif()

# 2. a CMake project: the driver as its compiler, find_package(wsff)
file(MAKE_DIRECTORY ${WORK_DIR}/project)
file(WRITE ${WORK_DIR}/project/CMakeLists.txt "
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(wsff 0.1 REQUIRED)
add_executable(fib ${fib})
target_compile_options(fib PRIVATE -fws-fencefree)
target_link_libraries(fib PRIVATE wsff::ws)
")
run(${CMAKE_COMMAND} -S ${WORK_DIR}/project -B ${WORK_DIR}/project/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${prefix}/bin/ws-clang)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/project/build)
expect_fib(${WORK_DIR}/project/build/fib)

# 3. pkg-config and plain clang 19: --cflags alone must load the plugin
# (the program would otherwise build as its serial elision, or fail to
# link), so the run must report the runtime's default deque
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig
      ${PKG_CONFIG} --cflags wsff)
  separate_arguments(cflags UNIX_COMMAND "${last_output}")
  run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig
      ${PKG_CONFIG} --libs wsff)
  separate_arguments(libs UNIX_COMMAND "${last_output}")
  find_program(CLANG19 clang HINTS /usr/lib/llvm-19/bin NO_DEFAULT_PATH)
  run(${CLANG19} -O2 ${cflags} -c ${fib} -o ${WORK_DIR}/fib-pc.o)
  run(${CLANG19} ${WORK_DIR}/fib-pc.o ${libs} -o ${WORK_DIR}/fib-pc)
  expect_fib(${WORK_DIR}/fib-pc)
  run(${CMAKE_COMMAND} -E env WS_STATS=1 WS_NUM_WORKERS=2 ${WORK_DIR}/fib-pc 20)
  if(NOT last_error MATCHES "ws: variant=ffmb workers=2")
    message(FATAL_ERROR "pkg-config's flags did not build for the runtime: ${last_error}")
  endif()
endif()
message(STATUS "install test: ok")
