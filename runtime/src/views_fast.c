/* views_fast.c — the reducer hooks compiled code makes around a sync's
 * direct call of a task body (ws/abi.h); compiled into the fast-path
 * bitcode too, so they inline: a compare and a branch each. */
#include "views.h"

void __ws_child_begin(void *boundary, ws_slot *slot) {
  if (ws_unlikely((uintptr_t)slot < (uintptr_t)ws_tls_views_max))
    ws_views_split(boundary, slot);
}

void __ws_child_end(void *boundary) {
  if (ws_unlikely(ws_tls_views_aside == boundary))
    ws_views_merge(boundary);
}
