# ws_read_env_vars(<var>)
# The environment variables of runtime/include/ws/env.def, into <var>; and
# WS_CLEAN_ENV: `env -u VAR ...` for every one of them, the prefix of a test
# command that must not see a developer's settings.
include(${CMAKE_CURRENT_LIST_DIR}/WsDefTable.cmake)
set(WS_ENV_DEF ${CMAKE_CURRENT_LIST_DIR}/../runtime/include/ws/env.def)

function(ws_read_env_vars var)
  ws_def_column(out ${WS_ENV_DEF} WS_ENV
                "^WS_ENV\\((WS_[A-Z0-9_]+), *(ws|pool|scale|race), *[a-z_/]+\\.c\\)$" 1)
  set(${var} ${out} PARENT_SCOPE)
endfunction()

ws_read_env_vars(WS_ENV_VARS)
set(WS_CLEAN_ENV env)
foreach(v ${WS_ENV_VARS})
  list(APPEND WS_CLEAN_ENV -u ${v})
endforeach()
# Nor the developer's store-buffer calibration (~/.config/wsff, which
# ws-calibrate writes): a saved `inf` turned the fence-free variants' stress
# tests into "needs a finite S".  The directory holds no calibration; a
# test of the calibration sets its own.  A second env follows the
# assignment, so that a user of WS_CLEAN_ENV may still add its own -u.
list(APPEND WS_CLEAN_ENV XDG_CONFIG_HOME=${PROJECT_BINARY_DIR}/ws-no-config env)
