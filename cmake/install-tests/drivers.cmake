# install/drivers: builds a small program against the installed prefix
# without CMake: the installed ws-clang (also reached through symbolic
# links) and pkg-config with nothing but its --cflags and --libs.  Each
# program must run, print the right answer and run on the wsff runtime.
# (The CMake package has tests of its own: consumer.cmake, refused.cmake.)
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(dir ${WORK_DIR}/drivers)
file(MAKE_DIRECTORY ${dir})

# 1. the installed driver, nothing else on the command line; then through
# an absolute link, and through a relative link to that link, from
# directories elsewhere (the driver must find the prefix from its real file)
run(${prefix}/bin/ws-clang -fws-fencefree -O2 ${fib} -o ${dir}/fib-driver)
expect_fib(${dir}/fib-driver)
file(MAKE_DIRECTORY ${dir}/links/a ${dir}/links/b)
file(CREATE_LINK ${prefix}/bin/ws-clang ${dir}/links/a/ws-clang SYMBOLIC)
file(CREATE_LINK ../a/ws-clang ${dir}/links/b/wsc SYMBOLIC)
foreach(link a/ws-clang b/wsc)
  run(${dir}/links/${link} -fws-fencefree -O2 ${fib} -o ${dir}/fib-link)
  expect_fib(${dir}/fib-link)
endforeach()

# 1b. the installed driver measuring it: -fws-scale links the installed
# libws_scale, whose report lands in the CSV
run(${prefix}/bin/ws-clang -fws-fencefree -fws-scale -O2 ${fib} -o ${dir}/fib-scale)
run(${CMAKE_COMMAND} -E env WS_SCALE_OUT=${dir}/fib-scale.csv ${dir}/fib-scale 20)
file(READ ${dir}/fib-scale.csv csv)
if(NOT csv MATCHES "\n<program>,1,")
  message(FATAL_ERROR "fib-scale wrote no report: ${csv}")
endif()

# 2. pkg-config and plain clang 19: --cflags alone must load the plugin
# (the program would otherwise build as its serial elision, or fail to
# link), so the run must report the runtime's default deque (expect_fib)
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig
      ${PKG_CONFIG} --cflags wsff)
  separate_arguments(cflags UNIX_COMMAND "${last_output}")
  run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig
      ${PKG_CONFIG} --libs wsff)
  separate_arguments(libs UNIX_COMMAND "${last_output}")
  run(${CLANG} -O2 ${cflags} -c ${fib} -o ${dir}/fib-pc.o)
  run(${CLANG} ${dir}/fib-pc.o ${libs} -o ${dir}/fib-pc)
  expect_fib(${dir}/fib-pc)
endif()
message(STATUS "install/drivers: ok")
