# ws_add_example(<name> SOURCE <file.c> [LIBS <lib>...] [PEERS omp|tbb...]
#                ARGS <small input>...)
#
# Builds, under build/examples/bin/:
#   <name>_serial           the serial elision: clang-19 -O2, no runtime (T_S)
#   <name>_<variant>        ws-clang -fws-fencefree=<variant> -O2, for every
#                           deque variant (WS_EXAMPLE_VARIANTS: the rows of
#                           ws/variants.def), once the ws-drivers target exists
#   <name>_the_mfence       the fenced variants with mfence, the paper's
#   <name>_cl_mfence          setting (-fws-mfence)
#   <name>_scale            the default deque measured by ws-scale: as it
#                             comes (-fws-scale: the DAG in IR instructions,
#   <name>_scale_time         times by tsc), in time only (-fws-scale=time),
#   <name>_scale_instr        in IR instructions only (-fws-scale=instructions)
#   <name>_race             -fws-race: the small input must run with no
#                           determinacy race reported (docs/race.md)
#   <name>_omp_clang        peers/<name>_omp.c, clang-19 -fopenmp (libomp)
#   <name>_omp_gcc          peers/<name>_omp.c, gcc -fopenmp (libgomp)
#   <name>_omp_wsff         peers/<name>_omp.c, ws-clang -fopenmp -fws-fencefree
#   <name>_tbb              peers/<name>_tbb.cpp, clang++-19 with oneTBB
# and a ctest (label `examples`) per build and worker count (1 and 2) that
# runs the small input, plus one that checks bad input is refused with the
# usage line and status 2.  The programs check their own results.
#
# Every program is compiled by one compiler command (add_custom_command),
# because one build compares three compilers; header dependencies come from
# the compilers' depfiles.

ws_read_variants(WS_EXAMPLE_VARIANTS)
set(WS_EXAMPLE_MFENCE_VARIANTS the cl)
set(WS_EXAMPLES_BIN ${PROJECT_BINARY_DIR}/examples/bin)
set(WS_EXAMPLES_CFLAGS -O2 -g0 -Wall -Wextra -Wno-unused-parameter)
# gcc 12's -O2 vectorizes with the "very cheap" cost model, which leaves the
# inner loops of matmul scalar where clang's -O2 vectorizes them; the
# dynamic model puts the two compilers on the same footing.
set(WS_EXAMPLES_GCC_FLAGS -fvect-cost-model=dynamic)
set(WS_EXAMPLES_RUN_EXPECT ${CMAKE_CURRENT_LIST_DIR}/../examples/common/run_expect.cmake)

# Can <compiler> build and link <text>, a <ext> source, with the remaining
# arguments as flags?  Cached in <var>.
function(ws_examples_probe var ext compiler text)
  if(DEFINED ${var})
    return()
  endif()
  set(dir ${PROJECT_BINARY_DIR}/CMakeFiles/ws-examples-probe)
  file(MAKE_DIRECTORY ${dir})
  file(WRITE ${dir}/${var}${ext} "${text}")
  set(ok OFF)
  if(compiler)
    execute_process(
      COMMAND ${compiler} ${ARGN} ${dir}/${var}${ext} -o ${dir}/${var}
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      set(ok ON)
    endif()
  endif()
  set(${var} ${ok} CACHE BOOL "wsff examples: ${var} works" FORCE)
  message(STATUS "wsff examples: ${var} ${ok}")
endfunction()

find_program(WS_EXAMPLES_GCC NAMES gcc)
set(ws_omp_probe "#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n")
ws_examples_probe(WS_EXAMPLES_OMP_CLANG .c "${WS_CLANG}" "${ws_omp_probe}" -fopenmp)
ws_examples_probe(WS_EXAMPLES_OMP_GCC .c "${WS_EXAMPLES_GCC}" "${ws_omp_probe}" -fopenmp)
set(ws_tbb_probe "#include <tbb/task_group.h>\nint main() { tbb::task_group g; g.run([] {}); g.wait(); }\n")
ws_examples_probe(WS_EXAMPLES_TBB .cpp "${WS_CLANGXX}" "${ws_tbb_probe}" -std=c++17 -ltbb)
foreach(peer OMP_CLANG OMP_GCC TBB)
  if(NOT WS_EXAMPLES_${peer})
    message(STATUS "wsff examples: no ${peer} peers (apt-get install libomp-19-dev gcc libtbb-dev)")
  endif()
endforeach()

# ws_examples_compile(<exe> <source> COMMAND <compiler> <flags>... [LIBS ...])
# One program, linked with LIBS after the source (for gcc's linker); it
# also depends on the files and targets in ws_example_deps.
function(ws_examples_compile exe source)
  cmake_parse_arguments(A "" "" "COMMAND;LIBS" ${ARGN})
  set(out ${WS_EXAMPLES_BIN}/${exe})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${WS_EXAMPLES_BIN}
    COMMAND ${A_COMMAND} -MD -MF ${out}.d -MT ${out} ${source} -o ${out} ${A_LIBS}
    DEPENDS ${source} ${ws_example_deps}
    DEPFILE ${out}.d
    COMMENT "Building example ${exe}"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${exe} ALL DEPENDS ${out})
endfunction()

# ctests of one build: the small input on 1 and 2 workers (once for the
# serial elision, which has none).
function(ws_examples_test name build)
  set(exe ${WS_EXAMPLES_BIN}/${name}_${build})
  if(build STREQUAL "serial")
    set(counts 1)
  elseif(build STREQUAL "ffmb" OR build STREQUAL "omp_wsff")
    set(counts 1 2 4 16) # the default deque: more workers than CPUs too
  else()
    set(counts 1 2)
  endif()
  foreach(w ${counts})
    set(test examples.${name}.${build})
    if(NOT build STREQUAL "serial")
      set(test ${test}.w${w})
    endif()
    add_test(NAME ${test} COMMAND ${exe} ${ws_example_args})
    set_tests_properties(${test} PROPERTIES
      LABELS examples TIMEOUT 60
      ENVIRONMENT "WS_NUM_WORKERS=${w};OMP_NUM_THREADS=${w};TBB_NUM_THREADS=${w}")
  endforeach()
  # FF-MB needs no S: with none at all every steal forces the barrier.
  if(build STREQUAL "ffmb")
    foreach(w 2 16)
      set(test examples.${name}.ffmb.inf.w${w})
      add_test(NAME ${test} COMMAND ${exe} ${ws_example_args})
      set_tests_properties(${test} PROPERTIES
        LABELS examples TIMEOUT 60
        ENVIRONMENT "WS_NUM_WORKERS=${w};WS_STORE_BUFFER=inf")
    endforeach()
  endif()
endfunction()

# The ws-scale builds on the small input, 2 workers: the program still
# checks its result, and the report has the timed region's row.
function(ws_examples_scale_test name exe)
  string(REPLACE ";" " " args "${ws_example_args}")
  add_test(NAME examples.${name}.${exe}
           COMMAND ${CMAKE_COMMAND} -E env WS_NUM_WORKERS=2
                   WS_SCALE_OUT=${CMAKE_CURRENT_BINARY_DIR}/${exe}.csv
                   ${CMAKE_COMMAND} -DPROG=${WS_EXAMPLES_BIN}/${exe}
                   "-DARGS=${args}" -DSTATUS=0
                   "-DMATCH=ws-scale: timed +1 "
                   -P ${WS_EXAMPLES_RUN_EXPECT})
  set_tests_properties(examples.${name}.${exe} PROPERTIES LABELS examples TIMEOUT 120)
endfunction()

function(ws_add_example name)
  cmake_parse_arguments(A "" "SOURCE" "LIBS;PEERS;ARGS" ${ARGN})
  if(NOT A_SOURCE OR NOT A_ARGS)
    message(FATAL_ERROR "ws_add_example(${name}): SOURCE and ARGS are required")
  endif()
  set(src ${CMAKE_CURRENT_SOURCE_DIR}/${A_SOURCE})
  set(ws_example_args ${A_ARGS})
  set(libs)
  foreach(l ${A_LIBS})
    list(APPEND libs -l${l})
  endforeach()
  set(builds serial)

  # The depfiles track the headers; ws_example_deps adds what else a build
  # reads (for the variants: the driver, the plugin and the runtime).
  set(ws_example_deps)
  ws_examples_compile(${name}_serial ${src}
    COMMAND ${WS_CLANG} ${WS_EXAMPLES_CFLAGS} -I${PROJECT_SOURCE_DIR}/runtime/include
    LIBS ${libs})

  if(TARGET ws-drivers)
    set(ws_example_deps ws-drivers)
    foreach(t WsffPlugin ws ws_mfence ws_scale ws_race)
      if(TARGET ${t})
        list(APPEND ws_example_deps $<TARGET_FILE:${t}>)
      endif()
    endforeach()
    set(driver ${PROJECT_BINARY_DIR}/bin/ws-clang)
    foreach(v ${WS_EXAMPLE_VARIANTS})
      ws_examples_compile(${name}_${v} ${src}
        COMMAND ${driver} -fws-fencefree=${v} ${WS_EXAMPLES_CFLAGS} LIBS ${libs})
      list(APPEND builds ${v})
    endforeach()
    foreach(v ${WS_EXAMPLE_MFENCE_VARIANTS})
      ws_examples_compile(${name}_${v}_mfence ${src}
        COMMAND ${driver} -fws-fencefree=${v} -fws-mfence ${WS_EXAMPLES_CFLAGS}
        LIBS ${libs})
      list(APPEND builds ${v}_mfence)
    endforeach()
    foreach(unit on time instructions)
      set(exe ${name}_scale)
      set(flag -fws-scale=${unit})
      if(unit STREQUAL "on")
        set(flag -fws-scale)
      elseif(unit STREQUAL "time")
        set(exe ${name}_scale_time)
      else()
        set(exe ${name}_scale_instr)
      endif()
      ws_examples_compile(${exe} ${src}
        COMMAND ${driver} -fws-fencefree ${flag} ${WS_EXAMPLES_CFLAGS}
        LIBS ${libs})
      ws_examples_scale_test(${name} ${exe})
    endforeach()
    ws_examples_compile(${name}_race ${src}
      COMMAND ${driver} -fws-race ${WS_EXAMPLES_CFLAGS} LIBS ${libs})
    add_test(NAME examples.${name}.race COMMAND ${WS_EXAMPLES_BIN}/${name}_race ${ws_example_args})
    set_tests_properties(examples.${name}.race PROPERTIES LABELS examples TIMEOUT 60)
    set(ws_example_deps)
  endif()

  foreach(peer ${A_PEERS})
    if(peer STREQUAL "omp")
      set(psrc ${CMAKE_CURRENT_SOURCE_DIR}/peers/${name}_omp.c)
      if(WS_EXAMPLES_OMP_CLANG)
        ws_examples_compile(${name}_omp_clang ${psrc}
          COMMAND ${WS_CLANG} -fopenmp ${WS_EXAMPLES_CFLAGS} LIBS ${libs})
        list(APPEND builds omp_clang)
      endif()
      if(WS_EXAMPLES_OMP_GCC)
        ws_examples_compile(${name}_omp_gcc ${psrc}
          COMMAND ${WS_EXAMPLES_GCC} -fopenmp ${WS_EXAMPLES_CFLAGS} ${WS_EXAMPLES_GCC_FLAGS}
          LIBS ${libs})
        list(APPEND builds omp_gcc)
      endif()
      # The same OpenMP program on wsff's runtime (docs/openmp.md): the
      # fast path where tasks are waited for, the general path elsewhere.
      if(TARGET ws-drivers)
        set(ws_example_deps ws-drivers)
        foreach(t WsffPlugin ws)
          list(APPEND ws_example_deps $<TARGET_FILE:${t}>)
        endforeach()
        ws_examples_compile(${name}_omp_wsff ${psrc}
          COMMAND ${PROJECT_BINARY_DIR}/bin/ws-clang -fopenmp -fws-fencefree
                  ${WS_EXAMPLES_CFLAGS} LIBS ${libs})
        set(ws_example_deps)
        list(APPEND builds omp_wsff)
      endif()
    elseif(peer STREQUAL "tbb")
      if(WS_EXAMPLES_TBB)
        ws_examples_compile(${name}_tbb ${CMAKE_CURRENT_SOURCE_DIR}/peers/${name}_tbb.cpp
          COMMAND ${WS_CLANGXX} -std=c++17 ${WS_EXAMPLES_CFLAGS} LIBS ${libs} -ltbb)
        list(APPEND builds tbb)
      endif()
    else()
      message(FATAL_ERROR "ws_add_example(${name}): unknown peer '${peer}' (omp or tbb)")
    endif()
  endforeach()

  foreach(b ${builds})
    ws_examples_test(${name} ${b})
  endforeach()
  # Bad input: the usage line and status 2, not a crash.
  add_test(NAME examples.${name}.bad-input
           COMMAND ${CMAKE_COMMAND} -DPROG=${WS_EXAMPLES_BIN}/${name}_serial
                   -DARGS=no-such-input -DSTATUS=2 -DMATCH=usage:
                   -P ${WS_EXAMPLES_RUN_EXPECT})
  set_tests_properties(examples.${name}.bad-input PROPERTIES LABELS examples TIMEOUT 60)
endfunction()
