# libFuzzer targets, built with the LLVM 19 clang whatever compiler builds
# the rest (libFuzzer is clang's: Debian's libclang-rt-19-dev), with
# coverage, ASan and UBSan.  Used by runtime/fuzz and passes/fuzz.
#
# WS_LIBFUZZER: whether clang can link -fsanitize=fuzzer here.
#
# ws_add_libfuzzer(<name> COMPILER <clang or clang++> SOURCES <files>
#                  [FLAGS <flags>] [LINK <args>])
#   bin/<name> from SOURCES (absolute paths), each compiled on its own.
#
# ws_add_fuzz_test(<name> [MISSING <what is missing>] COMMAND <args>)
#   The ctest <name>, label fuzz.  With MISSING it is registered anyway and
#   reports itself skipped, saying what to install: CI sees it did not run.
include_guard(GLOBAL)

set(ws_probe ${PROJECT_BINARY_DIR}/CMakeFiles/ws-libfuzzer-probe)
file(WRITE ${ws_probe}.c
     "#include <stddef.h>\n#include <stdint.h>\n"
     "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {\n"
     "  return (int)(d == 0 && n == 1);\n}\n")
execute_process(
  COMMAND ${WS_CLANG} -fsanitize=fuzzer,address,undefined ${ws_probe}.c
          -o ${ws_probe}
  RESULT_VARIABLE ws_probe_rc OUTPUT_QUIET ERROR_QUIET)
# In the cache: the guard above makes this run once for every directory.
if(ws_probe_rc EQUAL 0)
  set(WS_LIBFUZZER TRUE CACHE INTERNAL "clang links libFuzzer")
else()
  set(WS_LIBFUZZER FALSE CACHE INTERNAL "clang links libFuzzer")
  message(STATUS "wsff: ${WS_CLANG} cannot link libFuzzer: the fuzz tests "
                 "will be skipped (apt-get install libclang-rt-19-dev)")
endif()

function(ws_add_libfuzzer name)
  cmake_parse_arguments(A "" "COMPILER" "SOURCES;FLAGS;LINK" ${ARGN})
  set(sanitize -fsanitize=address,undefined -fno-sanitize-recover=all
               -fno-omit-frame-pointer)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name}.dir)
  set(objs)
  foreach(src ${A_SOURCES})
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${src})
    string(REPLACE "/" "_" obj ${rel})
    set(obj ${dir}/${obj}.o)
    add_custom_command(
      OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${A_COMPILER} -c -g -O1 ${sanitize}
              -fsanitize=fuzzer-no-link ${A_FLAGS} -MD -MF ${obj}.d ${src}
              -o ${obj}
      DEPENDS ${src}
      DEPFILE ${obj}.d
      COMMENT "Compiling ${rel} for ${name}"
      VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND objs ${obj})
  endforeach()
  set(out ${PROJECT_BINARY_DIR}/bin/${name})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${A_COMPILER} -fsanitize=fuzzer ${sanitize} ${objs}
            ${A_LINK} -o ${out}
    DEPENDS ${objs}
    COMMENT "Linking the fuzzer ${name}"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${name} ALL DEPENDS ${out})
endfunction()

function(ws_add_fuzz_test name)
  cmake_parse_arguments(A "" "MISSING" "COMMAND" ${ARGN})
  if(A_MISSING)
    add_test(NAME ${name}
             COMMAND sh -c "echo 'SKIPPED: ${A_MISSING}'; exit 77")
    set_tests_properties(${name} PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77)
    return()
  endif()
  add_test(NAME ${name} COMMAND ${A_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS fuzz)
endfunction()
