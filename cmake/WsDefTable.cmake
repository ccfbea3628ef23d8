# ws_def_column(<var> <file> <macro> <row regex> <group> [WHERE <flag group>...])
# One column of a contract table (a runtime/include/ws/*.def file): for
# every line that starts with <macro>(, the <group>th capture of <row
# regex>, in the table's order, into <var>; with WHERE, only the rows whose
# every <flag group> capture is 1.  A row the regex does not read stops
# the configuration naming it.  CMake re-runs when the table changes.
function(ws_def_column var file macro regex group)
  cmake_parse_arguments(A "" "" "WHERE" ${ARGN})
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY
               CMAKE_CONFIGURE_DEPENDS ${file})
  file(STRINGS ${file} rows REGEX "^${macro}\\(")
  set(out)
  foreach(row ${rows})
    if(NOT row MATCHES "${regex}")
      message(FATAL_ERROR "${file}: cannot read the row: ${row}")
    endif()
    set(keep TRUE)
    foreach(flag ${A_WHERE})
      if(NOT CMAKE_MATCH_${flag} STREQUAL "1")
        set(keep FALSE)
      endif()
    endforeach()
    if(keep)
      list(APPEND out ${CMAKE_MATCH_${group}})
    endif()
  endforeach()
  set(${var} ${out} PARENT_SCOPE)
endfunction()
