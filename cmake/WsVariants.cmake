# ws_read_variants(<var> [FENCE_FREE] [MODELLED] [WEAK_MEMORY])
# The deque variants of runtime/include/ws/variants.def, in id order, into
# <var>: all of them, or only the fence-free ones, or only those the model
# checker has a model of.  The table is the one list; CMake re-runs when it
# changes.
include(${CMAKE_CURRENT_LIST_DIR}/WsDefTable.cmake)
set(WS_VARIANTS_DEF ${CMAKE_CURRENT_LIST_DIR}/../runtime/include/ws/variants.def)
# name, id, fence_free, model, take_stores, publishes_tail, ...
set(WS_VARIANT_ROW
    "^WS_VARIANT\\(([a-z0-9_]+), *([0-9]+), *([01]), *([01]), *([0-9]+), *([01]),")

# WEAK_MEMORY: only those sound without bounded TSO (the WS_WEAK_MEMORY
# column: AArch64).
set(WS_WEAK_MEMORY_ROW "^WS_WEAK_MEMORY\\(([a-z0-9_]+), *([01]), *\"([^\"]*)\"\\)")

function(ws_read_variants var)
  cmake_parse_arguments(A "FENCE_FREE;MODELLED;WEAK_MEMORY" "" "" ${ARGN})
  if(A_WEAK_MEMORY)
    ws_def_column(out ${WS_VARIANTS_DEF} WS_WEAK_MEMORY "${WS_WEAK_MEMORY_ROW}" 1 WHERE 2)
    set(${var} ${out} PARENT_SCOPE)
    return()
  endif()
  set(where)
  if(A_FENCE_FREE)
    list(APPEND where 3)
  endif()
  if(A_MODELLED)
    list(APPEND where 4)
  endif()
  if(where)
    set(where WHERE ${where})
  endif()
  ws_def_column(out ${WS_VARIANTS_DEF} WS_VARIANT "${WS_VARIANT_ROW}" 1 ${where})
  set(${var} ${out} PARENT_SCOPE)
endfunction()

# ws_read_default_variant(<var> [FENCED])
# WS_DEFAULT_VARIANT(name, fenced) of the same table: the default deque, or
# with FENCED the runtime's default on a processor without bounded TSO.
function(ws_read_default_variant var)
  cmake_parse_arguments(A "FENCED" "" "" ${ARGN})
  set(group 1)
  if(A_FENCED)
    set(group 2)
  endif()
  ws_def_column(out ${WS_VARIANTS_DEF} WS_DEFAULT_VARIANT
                "^WS_DEFAULT_VARIANT\\(([a-z0-9_]+), *([a-z0-9_]+)\\)" ${group})
  list(LENGTH out n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "${WS_VARIANTS_DEF}: expected one line "
                        "WS_DEFAULT_VARIANT(name, fenced), found ${n}")
  endif()
  set(${var} ${out} PARENT_SCOPE)
endfunction()

# ws_read_pool_variants(<var>)
# The task pools' variant names of runtime/include/ws/pools.def, in its
# order, into <var>.
set(WS_POOLS_DEF ${CMAKE_CURRENT_LIST_DIR}/../runtime/include/ws/pools.def)

function(ws_read_pool_variants var)
  ws_def_column(out ${WS_POOLS_DEF} WS_POOL_VARIANT
                "^WS_POOL_VARIANT\\(([a-z_]+), *\"([a-z-]+)\"\\)$" 2)
  set(${var} ${out} PARENT_SCOPE)
endfunction()

# ws_read_weak_memory_reasons(<names> <reasons>)
# The variants not sound without bounded TSO (WS_WEAK_MEMORY(name, 0, why)),
# and their reasons, in the same order.
function(ws_read_weak_memory_reasons names reasons)
  ws_def_column(all ${WS_VARIANTS_DEF} WS_WEAK_MEMORY "${WS_WEAK_MEMORY_ROW}" 1)
  ws_def_column(sound ${WS_VARIANTS_DEF} WS_WEAK_MEMORY "${WS_WEAK_MEMORY_ROW}" 1 WHERE 2)
  ws_def_column(why ${WS_VARIANTS_DEF} WS_WEAK_MEMORY "${WS_WEAK_MEMORY_ROW}" 3)
  set(n)
  set(r)
  foreach(v ${all})
    list(POP_FRONT why w)
    if(NOT v IN_LIST sound)
      list(APPEND n ${v})
      list(APPEND r "${w}")
    endif()
  endforeach()
  set(${names} ${n} PARENT_SCOPE)
  set(${reasons} "${r}" PARENT_SCOPE)
endfunction()
