# cmake -DPROG=<program> -DARGS=<args> -DSTATUS=<exit status> -DMATCH=<regex>
#       -P run_expect.cmake
# Passes when PROG exits with STATUS and its output matches MATCH: a test
# that bad input is refused cleanly, not just refused somehow.
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${PROG} ${args} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${STATUS}")
  message(FATAL_ERROR "${PROG} ${ARGS}: exit status ${rc}, expected ${STATUS}\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "${PROG} ${ARGS}: output does not match '${MATCH}'\n${out}${err}")
endif()
