# ws_read_variants(<var> [FENCE_FREE] [MODELLED])
# The deque variants of runtime/include/ws/variants.def, in id order, into
# <var>: all of them, or only the fence-free ones, or only those the model
# checker has a model of.  The table is the one list; CMake re-runs when it
# changes.
set(WS_VARIANTS_DEF ${CMAKE_CURRENT_LIST_DIR}/../runtime/include/ws/variants.def)
set_property(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/.. APPEND PROPERTY
             CMAKE_CONFIGURE_DEPENDS ${WS_VARIANTS_DEF})

function(ws_read_variants var)
  cmake_parse_arguments(A "FENCE_FREE;MODELLED" "" "" ${ARGN})
  file(STRINGS ${WS_VARIANTS_DEF} rows REGEX "^WS_VARIANT\\(")
  set(out)
  foreach(row ${rows})
    if(NOT row MATCHES "^WS_VARIANT\\(([a-z0-9_]+), *([0-9]+), *([01]), *([01]), *([0-9]+), *([01]),")
      message(FATAL_ERROR "${WS_VARIANTS_DEF}: cannot read the row: ${row}")
    endif()
    if(A_FENCE_FREE AND NOT CMAKE_MATCH_3)
      continue()
    endif()
    if(A_MODELLED AND NOT CMAKE_MATCH_4)
      continue()
    endif()
    list(APPEND out ${CMAKE_MATCH_1})
  endforeach()
  set(${var} ${out} PARENT_SCOPE)
endfunction()

# ws_read_default_variant(<var> [FENCED])
# WS_DEFAULT_VARIANT(name, fenced) of the same table: the default deque, or
# with FENCED the runtime's default on a processor without bounded TSO.
function(ws_read_default_variant var)
  cmake_parse_arguments(A "FENCED" "" "" ${ARGN})
  file(STRINGS ${WS_VARIANTS_DEF} rows REGEX "^WS_DEFAULT_VARIANT\\(")
  list(LENGTH rows n)
  if(NOT n EQUAL 1 OR NOT rows MATCHES "^WS_DEFAULT_VARIANT\\(([a-z0-9_]+), *([a-z0-9_]+)\\)")
    message(FATAL_ERROR "${WS_VARIANTS_DEF}: expected one line "
                        "WS_DEFAULT_VARIANT(name, fenced), found: ${rows}")
  endif()
  if(A_FENCED)
    set(${var} ${CMAKE_MATCH_2} PARENT_SCOPE)
  else()
    set(${var} ${CMAKE_MATCH_1} PARENT_SCOPE)
  endif()
endfunction()

# ws_read_pool_variants(<var>)
# The task pools' variant names of runtime/include/ws/pools.def, in its
# order, into <var>.
include(${CMAKE_CURRENT_LIST_DIR}/WsDefTable.cmake)
set(WS_POOLS_DEF ${CMAKE_CURRENT_LIST_DIR}/../runtime/include/ws/pools.def)

function(ws_read_pool_variants var)
  ws_def_column(out ${WS_POOLS_DEF} WS_POOL_VARIANT
                "^WS_POOL_VARIANT\\(([a-z_]+), *\"([a-z-]+)\"\\)$" 2)
  set(${var} ${out} PARENT_SCOPE)
endfunction()
