# write_consumer(<dir> <body>): a consumer project's CMakeLists.txt in
# <dir>, and nothing else: <body> is what follows cmake_minimum_required
# (its project(), its find_package(wsff 0.1 REQUIRED), its targets).
function(write_consumer dir body)
  file(MAKE_DIRECTORY ${dir})
  file(WRITE ${dir}/CMakeLists.txt "cmake_minimum_required(VERSION 3.20)\n${body}")
endfunction()

# configure_consumer(<dir> <cmake-arg>...): configures <dir> into
# <dir>/build against the installed prefix; leaves configure_rc,
# configure_output and configure_error (stdout, stderr) in the caller.
function(configure_consumer dir)
  file(REMOVE_RECURSE ${dir}/build)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${dir} -B ${dir}/build
                          -DCMAKE_PREFIX_PATH=${prefix} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(configure_rc "${rc}" PARENT_SCOPE)
  set(configure_output "${out}" PARENT_SCOPE)
  set(configure_error "${err}" PARENT_SCOPE)
endfunction()
