# cmake -DENV=VAR=value -DPROGRAM=p [-DARGS=a;b] -DEXPECT=regex -P expect_exit.cmake
# Passes when PROGRAM, run with VAR=value, exits with status 2 and its
# stderr matches EXPECT (one line) while stdout is empty.
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ENV} ${PROGRAM} ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${rc}; stderr: ${err}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "stderr does not match\n  ${EXPECT}\nit is\n  ${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "expected nothing on stdout, got: ${out}")
endif()
