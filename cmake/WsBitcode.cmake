# ws_add_bitcode(<target> <output.bc> SOURCES <c files> [DEFINES <defs>]
#                [FLAGS <clang flags>] [DEPENDS <files>])
# Compiles C sources with the LLVM 19 clang to bitcode and links them into
# one module.  The ws-lower pass links the runtime's fast paths from it into
# every compiled module (the OpenCilk way), so they inline into user code.
function(ws_add_bitcode target output)
  cmake_parse_arguments(A "" "" "SOURCES;DEFINES;FLAGS;DEPENDS" ${ARGN})
  get_filename_component(output_dir ${output} DIRECTORY)
  set(bcs)
  foreach(src ${A_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    set(bc ${CMAKE_CURRENT_BINARY_DIR}/${target}/${name}.bc)
    set(defs)
    foreach(d ${A_DEFINES})
      list(APPEND defs -D${d})
    endforeach()
    add_custom_command(
      OUTPUT ${bc}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${target}
      COMMAND ${WS_CLANG} -c -emit-llvm -O2 -g0 -std=gnu11 -fPIC
              -fno-stack-protector ${A_FLAGS} ${defs}
              -I${PROJECT_SOURCE_DIR}/runtime/include
              -I${PROJECT_SOURCE_DIR}/runtime/src
              ${CMAKE_CURRENT_SOURCE_DIR}/${src} -o ${bc}
      DEPENDS ${src} ${A_DEPENDS}
      COMMENT "Compiling ${src} to bitcode (${target})"
      VERBATIM)
    list(APPEND bcs ${bc})
  endforeach()
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${output_dir}
    COMMAND ${WS_LLVM_LINK} -o ${output} ${bcs}
    DEPENDS ${bcs}
    COMMENT "Linking ${output}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${output})
endfunction()
