# install/cmake/<name>: a CMake project that uses the installed package,
# find_package(wsff), configures, builds and runs a program that spawns.
#   TARGET  the target it links: wsff::wsff or wsff::ws
#   LANG    C (fib.c) or CXX (spawns.cpp), the only language it enables
#   USING   driver: ws-clang (ws-clang++) as the compiler, -fws-fencefree;
#           clang: plain clang 19 with ${WSFF_COMPILE_OPTIONS}
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/project.cmake)

set(source_C ${fib})
set(source_CXX ${SOURCE_DIR}/lit-tests/clang/Inputs/spawns.cpp)
set(driver_C ${prefix}/bin/ws-clang)
set(driver_CXX ${prefix}/bin/ws-clang++)
set(clang_C ${CLANG})
set(clang_CXX ${CLANGXX})
set(options_driver -fws-fencefree)
set(options_clang "\${WSFF_COMPILE_OPTIONS}")

set(dir ${WORK_DIR}/cmake-${LANG}-${USING}-${TARGET})
string(REPLACE "::" "-" dir ${dir})
write_consumer(${dir} "project(consumer ${LANG})
find_package(wsff 0.1 REQUIRED)
add_executable(prog ${source_${LANG}})
target_compile_options(prog PRIVATE ${options_${USING}})
target_link_libraries(prog PRIVATE ${TARGET})
")
configure_consumer(${dir} -DCMAKE_${LANG}_COMPILER=${${USING}_${LANG}})
if(NOT configure_rc EQUAL 0)
  message(FATAL_ERROR "configuring ${dir} failed:\n${configure_output}\n${configure_error}")
endif()
run(${CMAKE_COMMAND} --build ${dir}/build)
if(LANG STREQUAL "C")
  expect_fib(${dir}/build/prog)
else()
  expect_runtime(${dir}/build/prog "^ok\n")
endif()
message(STATUS "install/cmake: ${LANG} with ${USING} linking ${TARGET}: ok")
