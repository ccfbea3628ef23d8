# Installs the build into a scratch prefix and builds a small program
# against it three ways: the installed ws-clang, find_package(wsff) in a
# CMake project, and pkg-config.  Each program must run and print the right
# answer.  Run by ctest (install/consumer).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_fib exe)
  run(${CMAKE_COMMAND} -E env WS_NUM_WORKERS=2 ${exe} 20)
  if(NOT last_output MATCHES "fib\\(20\\) = 6765")
    message(FATAL_ERROR "${exe} printed: ${last_output}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(fib ${SOURCE_DIR}/lit-tests/clang/Inputs/fib.c)

# 1. the installed driver, nothing else on the command line
run(${prefix}/bin/ws-clang -fws-fencefree -O2 ${fib} -o ${WORK_DIR}/fib-driver)
expect_fib(${WORK_DIR}/fib-driver)

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

# 3. pkg-config and plain clang 19 with the plugin
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig
      ${PKG_CONFIG} --cflags --libs wsff)
  separate_arguments(flags UNIX_COMMAND "${last_output}")
  run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig
      ${PKG_CONFIG} --variable=plugin wsff)
  string(STRIP "${last_output}" plugin)
  find_program(CLANG19 clang HINTS /usr/lib/llvm-19/bin NO_DEFAULT_PATH)
  run(${CLANG19} -O2 -fplugin=${plugin} ${fib} ${flags} -o ${WORK_DIR}/fib-pc)
  expect_fib(${WORK_DIR}/fib-pc)
endif()
message(STATUS "install test: ok")
