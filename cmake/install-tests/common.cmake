# What the install tests share: the scratch prefix that install/prefix
# fills (the other install/ tests require it as a fixture), and running a
# command or a program built against it.  Every script gets WORK_DIR (the
# tests' scratch directory), SOURCE_DIR, BUILD_DIR, and CLANG and CLANGXX
# (the clang 19 that built wsff).
set(prefix ${WORK_DIR}/prefix)
set(fib ${SOURCE_DIR}/lit-tests/clang/Inputs/fib.c)

# run(<command>...): runs it, stops the test with its output if it fails;
# leaves last_output and last_error (stdout, stderr) in the caller.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
  set(last_error "${err}" PARENT_SCOPE)
endfunction()

# expect_runtime(<exe> <stdout-regex> <arg>...): the program, built for
# the runtime, prints what it should on two workers, and reports the
# runtime's default deque (so it did not build as its serial elision).
function(expect_runtime exe regex)
  run(${CMAKE_COMMAND} -E env WS_STATS=1 WS_NUM_WORKERS=2 ${exe} ${ARGN})
  if(NOT last_output MATCHES "${regex}")
    message(FATAL_ERROR "${exe} printed: ${last_output}")
  endif()
  if(NOT last_error MATCHES "ws: variant=ffmb workers=2")
    message(FATAL_ERROR "${exe} did not run on the wsff runtime: ${last_error}")
  endif()
endfunction()

# expect_fib(<exe>): fib.c's program, by expect_runtime.
function(expect_fib exe)
  expect_runtime(${exe} "fib\\(20\\) = 6765" 20)
endfunction()
