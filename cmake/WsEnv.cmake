# ws_read_env_vars(<var>)
# The environment variables of runtime/include/ws/env.def, into <var>; and
# WS_CLEAN_ENV: `env -u VAR ...` for every one of them, the prefix of a test
# command that must not see a developer's settings.  CMake re-runs when the
# table changes.
set(WS_ENV_DEF ${CMAKE_CURRENT_LIST_DIR}/../runtime/include/ws/env.def)
set_property(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/.. APPEND PROPERTY
             CMAKE_CONFIGURE_DEPENDS ${WS_ENV_DEF})

function(ws_read_env_vars var)
  file(STRINGS ${WS_ENV_DEF} rows REGEX "^WS_ENV\\(")
  set(out)
  foreach(row ${rows})
    if(NOT row MATCHES "^WS_ENV\\((WS_[A-Z0-9_]+), *(ws|pool|scale|race), *[a-z_/]+\\.c\\)$")
      message(FATAL_ERROR "${WS_ENV_DEF}: cannot read the row: ${row}")
    endif()
    list(APPEND out ${CMAKE_MATCH_1})
  endforeach()
  set(${var} ${out} PARENT_SCOPE)
endfunction()

ws_read_env_vars(WS_ENV_VARS)
set(WS_CLEAN_ENV env)
foreach(v ${WS_ENV_VARS})
  list(APPEND WS_CLEAN_ENV -u ${v})
endforeach()
