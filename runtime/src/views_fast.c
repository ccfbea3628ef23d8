/* views_fast.c — __ws_views_above, the test compiled code makes before a
 * sync's direct call of a task body in functions that may reach a reducer
 * (ws/abi.h); compiled into the fast-path bitcode too, so it inlines into a
 * load, a compare and a branch. */
#include "views.h"

int __ws_views_above(ws_slot *slot) {
  return ws_unlikely((uintptr_t)slot < (uintptr_t)ws_tls_views_max);
}
